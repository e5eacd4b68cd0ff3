"""Face-down tiles in a pile: a back read unsurely (:data:`vision.read_finds.BACK_AMONG_BACKS_MIN`)
or from a part of a find boxed with its neighbour (:func:`vision.placed_boxes._oversized_read_again`)
is kept only where the photo shows backs read surely, and only of their colour
(:func:`vision.crops._like_the_backs`): a set has backs of one colour, and a patch of a table,
a wall or a cloth that reads as a back rarely has it. A back the finder missed is looked for by
that colour (:func:`vision.placed_boxes._backs_by_colour`).

The classifier here reads a crop by its middle's colour: the tests are about which readings the
recogniser keeps, not about the network."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision import crops as crops_module
from vision import photo
from vision import placed_boxes as placed_boxes_module
from vision import read_finds as read_finds_module
from vision import readings as readings_module
from vision.classifier import NOT_A_TILE
from vision.finders.candidate import Candidate
from vision.finders.geometry import with_crops

IVORY = (215, 230, 235)  # BGR
BLUE = (170, 90, 30)
RED = (40, 40, 200)
W, H = 48, 64  # a tile's face, pixels


class _ByColour:
    """Reads a crop by the colour of its middle: blue or red as a back (at ``unsure_p`` for a crop
    whose top-left pixel is marked dark: an unsure back), ivory with ink as ``1m``; anything else as
    no tile."""

    def __init__(self, unsure_p: float = 0.4):
        self.unsure_p = unsure_p

    def classify(self, crops, top_k: int = 3):
        out = []
        for c in crops:
            h, w = c.shape[:2]
            middle = c[h // 4 : h - h // 4, w // 4 : w - w // 4].reshape(-1, 3).astype(float)
            b, g, r = middle.mean(0)
            unsure = c[0, 0].max() < 20
            if b > 120 and r < 80 or r > 150 and b < 80:  # (blue or red all over)
                p = self.unsure_p if unsure else 0.97
                out.append([("back", p), (NOT_A_TILE, (1 - p) / 2), ("1s", (1 - p) / 2)])
            elif middle.min() < 100 and middle.mean() > 150:  # (ivory with a stroke of ink)
                out.append([("1m", 0.99), ("2m", 0.005), (NOT_A_TILE, 0.005)])
            else:
                out.append([(NOT_A_TILE, 0.95), ("1m", 0.03), ("back", 0.02)])
        return out

    def is_sure(self, code, p):
        return code != NOT_A_TILE and p >= 0.9


def _quad(x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + W, y], [x + W, y + H], [x, y + H]], np.float32)


def _face(img: np.ndarray, x: int, y: int, colour, marked: bool = False) -> None:
    """A tile at ``(x, y)``: an ivory face with a stroke, or a back of ``colour``; ``marked``: its
    top-left pixel dark (read as an unsure back)."""
    cv2.rectangle(img, (x, y), (x + W - 1, y + H - 1), colour, -1)
    if colour == IVORY:
        cv2.line(img, (x + 12, y + 32), (x + 36, y + 32), (20, 20, 20), 4)
    if marked:
        img[y : y + 2, x : x + 2] = 5


def _table(backs: list[tuple], unsure: tuple | None) -> tuple[np.ndarray, list[Candidate]]:
    """A green table with three faces in a row, then the backs of ``backs`` (colours) and the
    unsure back ``unsure`` (its colour), each a tile apart; the finds, one per tile, with crops."""
    img = np.full((240, 640, 3), (60, 120, 60), np.uint8)
    tiles = [IVORY] * 3 + list(backs) + ([unsure] if unsure else [])
    cands = []
    for i, colour in enumerate(tiles):
        x = 20 + i * (W + 6)
        _face(img, x, 80, colour, marked=unsure is not None and i == len(tiles) - 1)
        cd = Candidate(_quad(x, 80), source="learned", ink=0.05 if colour == IVORY else 0.0, blob_size=len(tiles))
        cands.append(with_crops(img, cd))
    return img, cands


def _codes(readings) -> list[str]:
    return [r.top[0][0] for r in sorted(readings, key=lambda r: r.quad[:, 0].min())]


def test_an_unsure_back_of_the_backs_colour_is_kept():
    _img, cands = _table([BLUE, BLUE], BLUE)
    readings, _, _ = read_finds_module._read(cands, _ByColour())
    assert _codes(readings) == ["1m", "1m", "1m", "back", "back", "back"]
    assert not max(readings, key=lambda r: r.quad[:, 0].min()).sure


@pytest.mark.parametrize(
    "backs, unsure, why",
    [
        ([BLUE, BLUE], RED, "not the colour of the photo's backs"),
        ([BLUE], BLUE, "one back read surely is no sign of a pile"),
        ([], BLUE, "no back read surely"),
    ],
)
def test_an_unsure_back_is_dropped(backs, unsure, why):
    _img, cands = _table(backs, unsure)
    readings, _, _ = read_finds_module._read(cands, _ByColour())
    assert _codes(readings) == ["1m"] * 3 + ["back"] * len(backs), why


def test_a_back_read_too_unsurely_is_dropped_among_backs():
    _img, cands = _table([BLUE, BLUE], BLUE)
    readings, _, _ = read_finds_module._read(cands, _ByColour(unsure_p=read_finds_module.BACK_AMONG_BACKS_MIN - 0.05))
    assert _codes(readings) == ["1m", "1m", "1m", "back", "back"]


def test_backs_as_ivory_as_the_faces_vouch_for_no_back():
    """Faces misread as backs (small far tiles of a tray) have the faces' colour: they are no sign
    that the photo shows face-down tiles."""
    _img, cands = _table([], None)
    readings, _, _ = read_finds_module._read(cands, _ByColour())
    faces_as_backs = [readings_module.Reading(r.candidate, r.quad, r.rotation, [("back", 0.97)]) for r in readings[:2]]
    ivory = cands[2]
    assert crops_module._like_the_backs([ivory], faces_as_backs + readings[2:]) == [False]


def test_the_colour_is_measured_on_the_middle_of_the_crop():
    crop = np.full((64, 48, 3), IVORY, np.uint8)
    crop[16:48, 12:36] = BLUE
    blue = cv2.cvtColor(np.array([[BLUE]], np.float32) / 255, cv2.COLOR_BGR2Lab).reshape(3)
    colour, none = crops_module._face_colours([Candidate(_quad(0, 0), crops=((0, crop),)), Candidate(_quad(0, 0))])
    assert np.allclose(colour, blue, atol=0.5)
    assert none is None


def _pile(with_backs: bool, part_colour) -> tuple[photo.Photo, list, list[Candidate]]:
    """Three faces and, where ``with_backs``, two blue backs in a row, read; beside them a tile of
    ``part_colour`` with the table beside it, boxed as one find 1.6 tiles long."""
    backs = [BLUE, BLUE] if with_backs else []
    img, cands = _table(backs, None)
    x = 20 + (3 + len(backs)) * (W + 6)
    _face(img, x, 80, part_colour)
    readings, _, _ = read_finds_module._read(cands, _ByColour())
    grown = Candidate(
        np.array([[x, 80], [x + 1.6 * W, 80], [x + 1.6 * W, 80 + H], [x, 80 + H]], np.float32), source="learned"
    )
    ph = photo.Photo(img, img.shape[1], img.shape[0], 1.0, 1.0, "png")
    return ph, readings, [*cands, with_crops(img, grown)]


def test_a_back_boxed_with_the_table_is_read_again_among_backs():
    ph, readings, cands = _pile(True, BLUE)
    assert _codes(readings) == ["1m", "1m", "1m", "back", "back"]
    more = placed_boxes_module._oversized_read_again(ph, cands, readings, _ByColour())
    assert [r.top[0][0] for r in more] == ["back"] and not more[0].sure
    x = 20 + 5 * (W + 6)
    assert abs(float(more[0].quad[:, 0].min()) - x) < 0.3 * W


@pytest.mark.parametrize(
    "with_backs, colour, why",
    [
        (False, BLUE, "a photo without backs: a patch of table reads as one as surely"),
        (True, RED, "not the colour of the photo's backs"),
    ],
)
def test_no_back_is_read_from_parts(with_backs, colour, why):
    ph, readings, cands = _pile(with_backs, colour)
    assert placed_boxes_module._oversized_read_again(ph, cands, readings, _ByColour()) == [], why


def _unfound(colour, size=(W, H)) -> tuple[photo.Photo, list]:
    """Three faces and two blue backs in a row, read, and beyond them a patch of ``colour`` the
    finder did not find, ``size`` large."""
    img, cands = _table([BLUE, BLUE], None)
    readings, _, _ = read_finds_module._read(cands, _ByColour())
    x = 20 + 5 * (W + 6) + 10
    cv2.rectangle(img, (x, 80), (x + size[0] - 1, 80 + size[1] - 1), colour, -1)
    return photo.Photo(img, img.shape[1], img.shape[0], 1.0, 1.0, "png"), readings


def test_a_back_the_finder_missed_is_found_by_its_colour():
    ph, readings = _unfound(BLUE)
    found = placed_boxes_module._backs_by_colour(ph, readings, _ByColour())
    assert [r.top[0][0] for r in found] == ["back"] and not found[0].sure
    x = 20 + 5 * (W + 6) + 10
    box = found[0].quad
    assert abs(box[:, 0].min() - x) < 4 and abs(box[:, 0].max() - (x + W)) < 4
    assert abs(box[:, 1].min() - 80) < 4 and abs(box[:, 1].max() - (80 + H)) < 4


@pytest.mark.parametrize(
    "colour, size, why",
    [
        (RED, (W, H), "not the backs' colour"),
        (BLUE, (3 * W, H), "three backs' size: a cloth or a box of the backs' colour, no tile"),
        (BLUE, (W // 3, H // 2), "a sixth of a back"),
        (BLUE, (2 * W, 26), "a back's area, but a strip: the bodies of a row of tiles seen from the side"),
    ],
)
def test_no_back_is_found_by_colour(colour, size, why):
    ph, readings = _unfound(colour, size)
    assert placed_boxes_module._backs_by_colour(ph, readings, _ByColour()) == [], why


def test_no_back_is_searched_for_in_a_photo_without_backs():
    img, cands = _table([], None)
    readings, _, _ = read_finds_module._read(cands, _ByColour())
    cv2.rectangle(img, (300, 80), (300 + W - 1, 80 + H - 1), BLUE, -1)
    ph = photo.Photo(img, img.shape[1], img.shape[0], 1.0, 1.0, "png")
    assert placed_boxes_module._backs_by_colour(ph, readings, _ByColour()) == []


def _lone_back(linked: int, colour, marked: bool = False, size: tuple[int, int] = (W, H)) -> list[str]:
    """Three faces in a row with ``linked`` blue backs beside them, and six tiles beyond the row's
    end (past a kong's reach) a back of ``colour`` and ``size``; the codes ``_read`` keeps."""
    img = np.full((240, 1000, 3), (60, 120, 60), np.uint8)
    places = [(IVORY, 20 + i * (W + 6)) for i in range(3)] + [(BLUE, 20 + (3 + i) * (W + 6)) for i in range(linked)]
    cands = []
    for c, x in places:
        _face(img, x, 80, c)
        cands.append(Candidate(_quad(x, 80), source="learned", ink=0.05 if c == IVORY else 0.0, blob_size=1))
    x = 20 + (3 + linked + 6) * (W + 6)
    cv2.rectangle(img, (x, 80), (x + size[0] - 1, 80 + size[1] - 1), colour, -1)
    if marked:
        img[80:82, x : x + 2] = 5
    lone = np.array([[x, 80], [x + size[0], 80], [x + size[0], 80 + size[1]], [x, 80 + size[1]]], np.float32)
    cands.append(Candidate(lone, source="learned", blob_size=1))
    readings, _, _ = read_finds_module._read([with_crops(img, cd) for cd in cands], _ByColour())
    return _codes(readings)


def test_a_lone_back_of_the_backs_colour_is_kept():
    """A loose pile: a face-down tile lies anywhere, not only beside a face-up one. Where the photo
    shows backs beside its faces, a back read surely far from every tile, of their colour, is one."""
    assert _lone_back(2, BLUE) == ["1m"] * 3 + ["back"] * 3


@pytest.mark.parametrize(
    "linked, colour, marked, size, why",
    [
        (2, RED, False, (W, H), "not the colour of the photo's backs"),
        (1, BLUE, False, (W, H), "one back beside the faces is no sign of a pile"),
        (0, BLUE, False, (W, H), "no back beside the faces"),
        (2, BLUE, True, (W, H), "read as a back unsurely"),
        (2, BLUE, False, (2 * W, 2 * H), "four tiles' area: a box of the backs' colour"),
    ],
)
def test_a_lone_back_is_dropped(linked, colour, marked, size, why):
    assert _lone_back(linked, colour, marked, size) == ["1m"] * 3 + ["back"] * linked, why


def test_backs_read_in_a_straightened_view_still_give_their_colour():
    """From a seat, the readings that stand may come from the straightened view, whose crops were
    let go (:func:`vision.views._seen_as_taken`): their colour is measured on the photo again,
    and the search by colour still runs."""
    ph, readings = _unfound(BLUE)
    let_go = [dataclasses.replace(r, candidate=dataclasses.replace(r.candidate, crops=())) for r in readings]
    assert crops_module._backs_colour(let_go) is None
    assert crops_module._backs_colour(let_go, ph) is not None
    found = placed_boxes_module._backs_by_colour(ph, let_go, _ByColour())
    assert [r.top[0][0] for r in found] == ["back"]
