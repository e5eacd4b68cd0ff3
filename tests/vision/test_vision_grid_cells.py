"""A tile the finder missed in a grid or inside a row, read at its place
(:func:`vision.placed_boxes._grid_cells_read`).

A set laid out in rows and columns (a tray, a catalogue photo, the discards) puts every tile one step
from the next along its row and along its column. Where a step along a row and a step along a
column both put a tile at a place no reading fills, or the row goes on past the place, the place is
read; so is the place past a row's end, where the row holds two more tiles; a tile with artwork
read there is kept, never shown as sure, and so is a white dragon with a frame (ink): a blank face
is what a pale patch passes for. A place whose ground has the table's colour is not read, and one
with the faces' colour (a pale table) that shows no tile reads as none.

The grid is scene_11's hand of 15 in a row, its tiles copied one tile's height below it: two rows,
each tile above its copy.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import layout_rules as layout_rules_module
from vision import photo
from vision import placed_boxes as placed_boxes_module
from vision import read_finds as read_finds_module
from vision import readings as readings_module
from vision.finders import find_candidates

PHOTOS = Path(__file__).resolve().parent.parent / "fixtures" / "photos"


def _first_reading(image: np.ndarray):
    """The photo of ``image`` (BGR) loaded as a PNG and its first reading."""
    ph = photo.load(cv2.imencode(".png", image)[1].tobytes())
    readings, _, _ = read_finds_module._read(find_candidates(ph.image, detail=ph.detail), None)
    return ph, readings


@pytest.fixture(scope="module")
def grid():
    """scene_11's row of 15 tiles and its copy below it (working-image pixels), its first reading,
    and the copy's place of the row's first tile."""
    ph = photo.load((PHOTOS / "scene_11.jpg").read_bytes())
    s = ph.image.shape[1] / 960
    labelled = json.loads((PHOTOS / "scene_11.json").read_text())["tiles"]
    row = sorted((np.array(t["quad"], np.float64) * s for t in labelled), key=lambda q: q.mean(0)[0])
    row = [q for q in row if q.mean(0)[1] < 300 * s]  # (the row, not the tile lying below it)
    height = float(np.median([np.linalg.norm(q[3] - q[0]) for q in row]))
    shift = np.array([0.0, 1.08 * height])
    mask = np.zeros(ph.image.shape[:2], np.uint8)
    for q in row:
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
    image = ph.image.copy()
    moved = cv2.warpAffine(ph.image, np.float32([[1, 0, 0], [0, 1, shift[1]]]), image.shape[1::-1])
    below = cv2.warpAffine(mask, np.float32([[1, 0, 0], [0, 1, shift[1]]]), image.shape[1::-1]) > 0
    image[below] = moved[below]
    first = min(row, key=lambda q: q.mean(0)[0]).mean(0) + shift
    return image, first, len(row)


def _nearest(readings, point: np.ndarray):
    return min(readings, key=lambda r: float(np.hypot(*(r.quad.mean(0) - point))))


def test_the_grid_is_read_whole_first(grid):
    image, first, n = grid
    _ph, readings = _first_reading(image)
    assert len(readings) >= 2 * n - 1
    assert np.hypot(*(_nearest(readings, first).quad.mean(0) - first)) < 10


def test_a_tile_missed_at_a_grid_corner_is_read_at_its_place(grid):
    image, first, _n = grid
    ph, readings = _first_reading(image)
    missed = _nearest(readings, first)
    others = [r for r in readings if r is not missed]
    found = placed_boxes_module._grid_cells_read(ph, others, None)
    assert len(found) == 1
    assert found[0].top[0][0] == missed.top[0][0]
    assert np.hypot(*(found[0].quad.mean(0) - missed.quad.mean(0))) < 0.3 * readings_module._short_side(missed.quad)
    assert not found[0].sure  # (placed, not found: the table confirms it)


@pytest.fixture(scope="module")
def hand():
    """scene_11 (a hand of 15 in a row, a tile lying below it) and its first reading, left to right."""
    ph = photo.load((PHOTOS / "scene_11.jpg").read_bytes())
    readings, _, _ = read_finds_module._read(find_candidates(ph.image, detail=ph.detail), None)
    return ph, sorted(readings, key=lambda r: r.quad.mean(0)[0])


@pytest.mark.parametrize("ends", [1, 2])
def test_tiles_missed_at_the_end_of_a_row_are_read_at_their_places(hand, ends):
    ph, by_x = hand
    missed = by_x[:ends]  # (the row's first tiles, on the left)
    others = [r for r in by_x if all(r is not m for m in missed)]
    found = placed_boxes_module._grid_cells_read(ph, others, None)  # (the first from the row, the next from it)
    assert sorted(r.top[0][0] for r in found) == sorted(r.top[0][0] for r in missed)
    for r, m in zip(sorted(found, key=lambda r: -r.quad.mean(0)[0]), reversed(missed)):
        assert np.hypot(*(m.quad.mean(0) - r.quad.mean(0))) < 0.3 * readings_module._short_side(m.quad)
        assert not r.sure


def test_the_table_past_a_rows_end_gives_no_tile(hand):
    ph, by_x = hand
    assert placed_boxes_module._grid_cells_read(ph, by_x, None) == []


def test_a_pale_table_past_a_rows_end_is_read_as_no_tile(hand, monkeypatch):
    ph, by_x = hand
    first = by_x[0]
    # (the first tile painted over with its face's median colour: a table as light as the faces)
    q = first.quad.astype(np.float64)
    w, h = 40, 56
    face = cv2.warpPerspective(
        ph.image,
        cv2.getPerspectiveTransform(q.astype(np.float32), np.float32([[0, 0], [w, 0], [w, h], [0, h]])),
        (w, h),
    )
    pale = ph.image.copy()
    mask = np.zeros(pale.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round((q - q.mean(0)) * 1.1 + q.mean(0)).astype(np.int32), 1)
    pale[mask > 0] = np.median(face.reshape(-1, 3), axis=0).astype(np.uint8)
    ph_pale = photo.load(cv2.imencode(".png", pale)[1].tobytes())
    read = []
    real = placed_boxes_module._read_crops
    monkeypatch.setattr(
        placed_boxes_module, "_read_crops", lambda clf, crops: read.append(len(crops)) or real(clf, crops)
    )
    assert placed_boxes_module._grid_cells_read(ph_pale, by_x[1:], None) == []
    assert sum(read) >= 1  # (read: its ground has the faces' colour)


@pytest.mark.parametrize("gap", [1, 2])
def test_tiles_missed_inside_a_row_are_read_at_their_places(hand, gap):
    ph, by_x = hand
    middle = len(by_x) // 2
    missed = by_x[middle : middle + gap]
    others = [r for r in by_x if all(r is not m for m in missed)]
    found = placed_boxes_module._grid_cells_read(ph, others, None)  # (the second from the first)
    assert sorted(r.top[0][0] for r in found) == sorted(r.top[0][0] for r in missed)
    for r in found:
        nearest = min(missed, key=lambda m: float(np.hypot(*(m.quad.mean(0) - r.quad.mean(0)))))
        assert np.hypot(*(nearest.quad.mean(0) - r.quad.mean(0))) < 0.3 * readings_module._short_side(nearest.quad)
        assert not r.sure


def test_a_grid_place_showing_the_table_is_not_read(grid, monkeypatch):
    image, first, _n = grid
    ph, readings = _first_reading(image)
    missed = _nearest(readings, first)
    blank = image.copy()
    # (the tile painted over with the cloth just left of the grid)
    q = missed.quad.astype(np.float64)
    width = readings_module._short_side(q)
    x0, y0 = np.floor(q.min(0) - [1.5 * width, 0]).astype(int)
    patch = image[y0 : y0 + int(np.ceil(np.ptp(q[:, 1]))) + 1, x0 : x0 + int(width)]
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round((q - q.mean(0)) * 1.15 + q.mean(0)).astype(np.int32), 1)
    blank[mask > 0] = np.median(patch.reshape(-1, 3), axis=0).astype(np.uint8)
    ph_blank = photo.load(cv2.imencode(".png", blank)[1].tobytes())
    others = [r for r in readings if r is not missed]
    read = []
    real = placed_boxes_module._read_crops
    monkeypatch.setattr(
        placed_boxes_module, "_read_crops", lambda clf, crops: read.append(len(crops)) or real(clf, crops)
    )
    assert placed_boxes_module._grid_cells_read(ph_blank, others, None) == []
    assert sum(read) == 0  # (its ground has the cloth's colour, not a face's: not read at all)


def _white_dragon(by_x):
    (dragon,) = [r for r in by_x if r.top[0][0] == "5z"]  # (scene_11's is blank)
    return dragon


def test_a_framed_white_dragon_missed_in_a_row_is_read_at_its_place(hand):
    ph, by_x = hand
    dragon = _white_dragon(by_x)
    q = dragon.quad.astype(np.float64)
    c = q.mean(0)
    framed = ph.image.copy()
    for share, thickness in ((0.62, 3), (0.5, 1)):  # (a red frame and a thin one inside it)
        cv2.polylines(framed, [np.round((q - c) * share + c).astype(np.int32)], True, (40, 40, 190), thickness)
    ph_framed = photo.load(cv2.imencode(".png", framed)[1].tobytes())
    others = [r for r in by_x if r is not dragon]
    (found,) = placed_boxes_module._grid_cells_read(ph_framed, others, None)
    assert found.top[0][0] == "5z"
    assert found.candidate.ink >= layout_rules_module.BLANK_FACE_INK  # (measured at its place)
    assert np.hypot(*(found.quad.mean(0) - c)) < 0.3 * readings_module._short_side(q)
    assert not found.sure


def test_a_blank_white_dragon_missed_in_a_row_is_left_to_the_finder(hand):
    ph, by_x = hand
    dragon = _white_dragon(by_x)
    assert dragon.candidate.ink < layout_rules_module.BLANK_FACE_INK
    others = [r for r in by_x if r is not dragon]
    assert placed_boxes_module._grid_cells_read(ph, others, None) == []
