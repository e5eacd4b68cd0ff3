"""Tiles of a pile read in the photo turned 45 degrees (:func:`vision.looks_again._read_turned`).

Tiles dropped in a pile lie every way. The finder's box follows a tile turned up to about 20
degrees; at 45, among other tiles, it can come out askew and its crop read as no tile, while the
photo turned 45 degrees shows that tile square. So where the readings lie every way (a share of
them unlike their neighbours, :func:`vision.looks_again._lying_unlike_neighbours`), the part of the
photo round them is read again turned, and a tile read surely there at a place the readings left
empty is kept, and one read surely at a place the readings hold only unsurely (by a margin) takes
it. Rows, racks, trays and grids lie alike, a grid turned as a whole too: those photos are not
read again.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from training.evaluate import match_quads, quad_iou
from vision import looks_again as looks_again_module
from vision import photo
from vision import read_finds as read_finds_module
from vision import views as views_module
from vision.finders import Candidate, find_candidates
from vision.finders.geometry import rectify
from vision.readings import Reading

recognize_module = sys.modules["vision.recognize"]

PHOTOS = Path(__file__).resolve().parent.parent / "fixtures" / "photos"

#: the composed pile: each tile's turn (degrees), every other one 45
PILE_TURNS = [0, 45, 20, 45, 70, 45, 10, 45, 60, 45, 30, 45]


def _face(centre, turn: float, w: float = 90.0, h: float = 126.0) -> np.ndarray:
    """The quad of a face ``w`` x ``h`` centred at ``centre``, turned ``turn`` degrees (clockwise
    on the photo), corner 0 its top-left."""
    t = math.radians(turn)
    u, v = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    c = np.asarray(centre, np.float64)
    return np.array(
        [c - u * w / 2 - v * h / 2, c + u * w / 2 - v * h / 2, c + u * w / 2 + v * h / 2, c - u * w / 2 + v * h / 2]
    )


def _readings(quads) -> list:
    return [Reading(Candidate(q.astype(np.float32)), q, 0, [("1m", 1.0)], True) for q in quads]


@pytest.mark.parametrize("turn", [0.0, 30.0, 45.0, -12.0])
def test_a_row_lies_alike_whatever_its_turn(turn):
    t = math.radians(turn)
    step = np.array([math.cos(t), math.sin(t)]) * 92
    row = [_face(np.array([400.0, 300.0]) + i * step, turn) for i in range(14)]
    assert not looks_again_module._lying_unlike_neighbours(_readings(row)).any()


def test_a_tile_lying_a_quarter_turned_in_a_row_lies_alike():
    """A meld's claimed tile lies across the row: a quarter turn is the same lie."""
    row = [_face((100 + i * 92, 300), 90.0 if i == 3 else 0.0) for i in range(8)]
    assert not looks_again_module._lying_unlike_neighbours(_readings(row)).any()


def test_grids_turned_each_its_own_way_lie_alike():
    """Other players' tiles far across a table: each grid as a whole at its own turn."""
    quads = []
    for g, turn in enumerate([0.0, 35.0, 60.0, 15.0]):
        t = math.radians(turn)
        u, v = np.array([math.cos(t), math.sin(t)]) * 92, np.array([-math.sin(t), math.cos(t)]) * 128
        origin = np.array([300.0 + 900 * (g % 2), 300.0 + 900 * (g // 2)])
        quads += [_face(origin + i * u + j * v, turn) for i in range(4) for j in range(3)]
    assert not looks_again_module._lying_unlike_neighbours(_readings(quads)).any()


def test_a_pile_lies_every_way():
    quads = [_face((140 + (i % 4) * 160, 150 + (i // 4) * 180), turn) for i, turn in enumerate(PILE_TURNS)]
    unlike = looks_again_module._lying_unlike_neighbours(_readings(quads))
    assert unlike.mean() >= looks_again_module.TURNED_SHARE_MIN


def test_a_tile_with_no_neighbour_lies_alike():
    quads = [_face((100, 100), 0.0), _face((2000, 2000), 45.0)]
    assert not looks_again_module._lying_unlike_neighbours(_readings(quads)).any()


@settings(max_examples=40, deadline=None)
@given(
    turns=st.lists(st.floats(-90, 90), min_size=3, max_size=12),
    whole=st.floats(-180, 180),
)
def test_turning_the_whole_photo_changes_no_tile_s_lie(turns, whole):
    """How tiles lie against their neighbours does not depend on how the phone was held (centres
    a little off a grid, so that no two neighbours tie)."""
    jitter = np.random.default_rng(7).uniform(-20, 20, (12, 2))
    centres = [np.array([140.0 + (i % 4) * 160, 150.0 + (i // 4) * 180]) + jitter[i] for i in range(len(turns))]
    t = math.radians(whole)
    r = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    flat = [_face(c, a) for c, a in zip(centres, turns)]
    turned = [q @ r.T for q in flat]
    a = looks_again_module._turn_agreement(_readings(flat))
    b = looks_again_module._turn_agreement(_readings(turned))
    assert np.allclose(a, b, atol=1e-9)


def test_the_turned_view_shows_the_part_round_the_readings_turned_45_degrees_and_shrunk():
    image = np.zeros((900, 1200, 3), np.uint8)
    quads = [_face((300 + i * 200, 400), 45.0, 60, 84) for i in range(4)]
    view, m, part = looks_again_module._turned_view(image, _readings(quads), 60.0)
    x0, y0, x1, y1 = part
    assert x0 <= min(q[:, 0].min() for q in quads) and x1 >= max(q[:, 0].max() for q in quads)
    assert y0 <= min(q[:, 1].min() for q in quads) and y1 >= max(q[:, 1].max() for q in quads)
    seen = cv2.perspectiveTransform(quads[0].reshape(1, 4, 2), m).reshape(4, 2)
    top = seen[1] - seen[0]
    assert (
        abs(math.degrees(math.atan2(top[1], top[0])) % 90) < 1e-6
        or abs(math.degrees(math.atan2(top[1], top[0])) % 90 - 90) < 1e-6
    )
    assert np.linalg.norm(top) == pytest.approx(looks_again_module.TURNED_TILE_PX, rel=0.02)
    corners = cv2.perspectiveTransform(np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64), m)[0]
    assert corners.min() >= -1 and (corners.max(0) <= np.array(view.shape[1::-1]) + 1).all()


@pytest.fixture(scope="module")
def pile():
    """Twelve tiles of scene_11 (a hand of 16 on a cloth) laid on a green cloth as a pile, every
    other one turned 45 degrees, the others 0-70; the photo loaded and its tiles' labels and quads
    in its working pixels."""
    img = cv2.imread(str(PHOTOS / "scene_11.jpg"))
    labelled = json.loads((PHOTOS / "scene_11.json").read_text())["tiles"]
    s = img.shape[1] / 960
    rng = np.random.default_rng(0)
    canvas = np.clip(np.full((800, 1000, 3), (60, 110, 40), np.float64) + rng.normal(0, 6, (800, 1000, 3)), 0, 255)
    canvas = canvas.astype(np.uint8)
    truth = []
    for i, turn in enumerate(PILE_TURNS):
        face = rectify(img, np.array(labelled[i]["quad"], np.float32) * s, 90, 126)
        m = cv2.getRotationMatrix2D((45, 63), turn, 1.0)
        m[:, 2] += (140 + (i % 4) * 240 - 45, 150 + (i // 4) * 250 - 63)
        placed = cv2.warpAffine(face, m, (1000, 800))
        mask = cv2.warpAffine(np.full((126, 90), 255, np.uint8), m, (1000, 800)) > 128
        canvas[mask] = placed[mask]
        quad = cv2.transform(np.array([[[0, 0], [90, 0], [90, 126], [0, 126]]], np.float64), m)[0]
        truth.append((labelled[i]["code"], turn, quad))
    jpeg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    ph = photo.load(jpeg)
    scale = np.array([ph.scale_x, ph.scale_y])
    return ph, [(code, turn, quad / scale) for code, turn, quad in truth], jpeg


def test_the_tiles_at_45_degrees_are_read_in_the_turned_view(pile):
    """The first reading's tiles on the middle row's two tiles at 45 degrees left out, as a first
    reading that missed them: the turned view reads both, each at its place, and whatever else it
    adds is a tile of the pile, read right."""
    ph, truth, _ = pile
    readings, _, _ = read_finds_module._read(find_candidates(ph.image, detail=ph.detail), None)
    missed = [truth[5], truth[7]]  # (the 6z and the 9p)
    assert [turn for _, turn, _ in missed] == [45, 45]
    away = [r for r in readings if all(quad_iou(r.quad, q) < 0.3 for _, _, q in missed)]
    found = [r for r in looks_again_module._read_turned(ph, away, None, None) if all(r is not a for a in away)]
    pairs = match_quads([q for _, _, q in truth], [r.quad for r in found])
    assert len(pairs) == len(found)
    assert all(found[p].top[0][0] == truth[g][0] for g, p, _ in pairs)
    assert {5, 7} <= {g for g, _, _ in pairs}


def test_the_pile_is_read_whole(pile):
    """Every tile read, and read right (the first reading alone misses the 5z at 45 degrees)."""
    ph, truth, jpeg = pile
    rec = recognize_module.recognize(jpeg)
    scale = np.array([rec.width / ph.image.shape[1], rec.height / ph.image.shape[0]])
    pairs = match_quads([q * scale for _, _, q in truth], [np.asarray(t.quad) for t in rec.tiles])
    assert len(pairs) == len(truth) == len(rec.tiles)
    assert all(rec.tiles[p].code == truth[g][0] for g, p, _ in pairs)


def test_a_row_is_not_read_again_turned(monkeypatch):
    """scene_11's hand lies in rows: the finder is not asked again."""
    ph = photo.load((PHOTOS / "scene_11.jpg").read_bytes())
    readings, _, _ = read_finds_module._read(find_candidates(ph.image, detail=ph.detail), None)

    def asked(*a, **k):
        raise AssertionError("the turned view was read")

    monkeypatch.setattr(views_module, "find_candidates", asked)
    assert looks_again_module._read_turned(ph, readings, None, None) == readings


def _held_unsurely_as(readings, truth, wrong: str, prob: float):
    """``readings`` with the reading of the first tile at 45 degrees read ``wrong`` at ``prob``,
    unsure (a box askew over a turned tile); that tile's label and quad."""
    code, _turn, quad = next(t for t in truth if t[1] == 45 and any(quad_iou(r.quad, t[2]) >= 0.3 for r in readings))
    held = next(r for r in readings if quad_iou(r.quad, quad) >= 0.3)
    doubted = dataclasses.replace(held, top=[(wrong, prob)], sure=False)
    return [doubted if r is held else r for r in readings], doubted, code, quad


def test_a_place_held_unsurely_takes_the_turned_reading(pile):
    ph, truth, _ = pile
    readings, _, _ = read_finds_module._read(find_candidates(ph.image, detail=ph.detail), None)
    doubted_readings, doubted, code, quad = _held_unsurely_as(readings, truth, "9s", 0.3)
    out = looks_again_module._read_turned(ph, doubted_readings, None, None)
    assert all(r is not doubted for r in out)
    (there,) = [r for r in out if quad_iou(r.quad, quad) >= 0.3]
    assert there.top[0][0] == code and there.sure


def test_a_place_held_nearly_as_surely_keeps_its_reading(pile):
    """Surer turned by less than TURNED_SURER_BY: the first reading stands."""
    ph, truth, _ = pile
    readings, _, _ = read_finds_module._read(find_candidates(ph.image, detail=ph.detail), None)
    doubted_readings, doubted, _code, _quad = _held_unsurely_as(readings, truth, "9s", 0.89)
    out = looks_again_module._read_turned(ph, doubted_readings, None, None)
    assert any(r is doubted for r in out)
