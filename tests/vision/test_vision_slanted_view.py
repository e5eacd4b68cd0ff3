"""Photos taken at a slant, as a player photographs a hand from a seat at the table.

A face 0.75 as wide as high, seen ``t`` degrees off straight above, looks ``0.75 / cos t`` as wide
as high: from about 53 degrees it is shaped like a lying tile. Such a candidate is *slanted*
(:func:`vision.finders.geometry.may_be_slanted`): its lying crop is read first and, when that
reads unsurely, its upright crop too (:func:`vision.read_finds._classify`). The viewpoint model
(:mod:`training.viewpoint`) makes the benchmark's tables b11 and c3; here it is checked against the
geometry it claims, and the shipped models against a real photo and a synthetic hand seen so.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.seat_views import hands_seen_from_a_seat, needs_artwork, read_right
from training import phone_scenes
from training.evaluate import load_labels
from training.viewpoint import camera, scene_seen_from, seen_from
from vision import grouping, recognize, slant
from vision import seat as seat_module
from vision.classifier import NOT_A_TILE
from vision.finders import Candidate, geometry
from vision.read_finds import CONTESTED_MIN, SLANT_RECHECK_BELOW, _read

recognize_module = sys.modules["vision.recognize"]

REPO = Path(__file__).resolve().parent.parent.parent
REAL = REPO.parent / "shared" / "vision-data" / "camerash-mahjong-dataset" / "untagged-images-raw"


@pytest.mark.parametrize(
    ("ratio", "slanted", "why"),
    [
        (0.75, False, "an upright face seen from above"),
        (0.75 / math.cos(math.radians(45)), False, "an upright face at 45 degrees: squarish, read both ways"),
        (1.25, False, "the squarish band's edge"),
        (0.75 / math.cos(math.radians(55)), True, "an upright face at 55 degrees"),
        (4 / 3, True, "a lying tile seen from above: asked upright only when read unsurely"),
        (0.75 / math.cos(math.radians(63)), True, "an upright face at 63 degrees"),
        (1.75, False, "flatter than a face at 64 degrees: a lying tile"),
        (2.0, False, "a lying tile seen at a slant across its length"),
    ],
)
def test_which_shapes_may_be_an_upright_face_at_a_slant(ratio, slanted, why):
    assert geometry.may_be_slanted(ratio) is slanted, why


def test_a_slanted_candidate_has_its_lying_crop_first_and_its_upright_one_after():
    img = np.full((200, 300, 3), 200, np.uint8)
    quad = np.array([[50, 50], [200, 50], [200, 150], [50, 150]], np.float32)  # 1.5 wide for its height
    cd = geometry.with_crops(img, Candidate(quad, lying=True, slanted=True))
    assert [rot for rot, _ in cd.crops] == [90, 0]
    assert [crop.shape[0] < crop.shape[1] for _, crop in cd.crops] == [False, True]
    plain = geometry.with_crops(img, Candidate(quad, lying=True))
    assert [rot for rot, _ in plain.crops] == [90]


class _ByTurn:
    """A classifier that reads a tall crop (a lying candidate's, turned upright) as ``lying`` and a
    wide one (the upright crop of a squat quad) as ``upright``, and counts the crops it is given."""

    def __init__(self, lying: tuple[str, float], upright: tuple[str, float]):
        self.lying, self.upright, self.read = lying, upright, 0

    def classify(self, crops, top_k: int = 3):
        self.read += len(crops)
        return [[self.lying if c.shape[0] > c.shape[1] else self.upright] for c in crops]


def _slanted_candidate() -> Candidate:
    img = np.full((200, 300, 3), 200, np.uint8)
    img[70:130, 80:170] = 40
    quad = np.array([[50, 50], [200, 50], [200, 150], [50, 150]], np.float32)
    return geometry.with_crops(img, Candidate(quad, lying=True, slanted=True, ink=0.3))


@pytest.mark.parametrize(
    ("lying", "upright", "code", "rotation", "crops_read"),
    [
        (("2p", 0.97), ("5s", 0.99), "2p", 90, 1),  # read surely lying: the upright crop is never read
        (("4p", 0.45), ("2p", 0.96), "2p", 0, 2),  # unsurely: the upright crop reads more surely and wins
        (("4p", 0.60), ("2p", 0.30), "4p", 90, 2),  # ... or less surely: the lying reading stays
        ((NOT_A_TILE, 0.95), ("7p", 0.8), "7p", 0, 2),  # not a tile lying: asked upright
    ],
)
def test_a_slanted_candidate_is_read_upright_only_when_read_unsurely_lying(lying, upright, code, rotation, crops_read):
    clf = _ByTurn(lying, upright)
    readings, reason, _ = _read([_slanted_candidate()], clf)
    assert reason is None
    assert [(r.top[0][0], r.rotation) for r in readings] == [(code, rotation)]
    assert clf.read == crops_read
    assert (lying[1] >= SLANT_RECHECK_BELOW and lying[0] != NOT_A_TILE) == (crops_read == 1)


class _SureByTurn(_ByTurn):
    """:class:`_ByTurn` that vouches for every tile reading."""

    def is_sure(self, code: str, probability: float) -> bool:
        return code != NOT_A_TILE


@pytest.mark.parametrize(
    ("lying", "upright", "sure"),
    [
        (("4p", 0.45), ("2p", 0.96), True),  # the lying crop read another tile, but unsurely
        (("9p", 0.85), ("9s", 0.70), False),  # both ways round a plausible tile: which way is in doubt
        (("5p", 0.85), ("5p", 0.70), True),  # both ways the same tile
        ((NOT_A_TILE, 0.80), ("7p", 0.60), True),  # lying, no tile
    ],
)
def test_a_reading_contested_by_the_other_way_round_is_not_sure(lying, upright, sure):
    """Read both ways round, a face that reads as two different tiles, the less likely at least
    CONTESTED_MIN, is read as the likelier but never shown as sure."""
    assert (min(lying[1], upright[1]) >= CONTESTED_MIN and lying[0] not in (upright[0], NOT_A_TILE)) is not sure
    readings, _, _ = _read([_slanted_candidate()], _SureByTurn(lying, upright))
    assert [r.sure for r in readings] == [sure]


# ----------------------------------------------------------------------------------------------
# the viewpoint model


def test_straight_above_the_photo_is_unchanged():
    m, size = camera(800, 600, 0.0)
    assert size == (800, 600)
    assert np.allclose(m, np.eye(3), atol=1e-9)


@pytest.mark.parametrize("degrees", [30.0, 45.0, 55.0])
def test_at_a_slant_the_far_side_is_smaller_and_a_square_squatter(degrees):
    w, h = 1000, 1000
    m, (vw, vh) = camera(w, h, degrees)
    assert vw <= w and vh <= h
    seen = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), m)[0]
    far, near = seen[1, 0] - seen[0, 0], seen[2, 0] - seen[3, 0]
    assert far < near
    # a small square at the table's centre: as wide as high times cos t (the camera's foreshortening)
    sq = np.array([[[490, 490], [510, 490], [510, 510], [490, 510]]], np.float64)
    s = cv2.perspectiveTransform(sq, m)[0]
    width, height = s[1, 0] - s[0, 0], s[3, 1] - s[0, 1]
    assert height / width == pytest.approx(math.cos(math.radians(degrees)), rel=0.05)


def test_a_scene_seen_from_a_seat_keeps_every_tile_it_shows_whole():
    sc = phone_scenes.make_phone_scene(
        5, "diagonal", size=(1200, 900), n_clutter=0, finger=False, degrade=False, real_background=False
    )
    seen = scene_seen_from(sc, 50.0)
    assert seen.image.shape == sc.image.shape
    assert len(seen.tiles) + len(seen.partial) == len(sc.tiles) + len(sc.partial)
    h, w = seen.image.shape[:2]
    for t in seen.tiles:
        q = np.asarray(t["quad"])
        assert q[:, 0].min() >= 0 and q[:, 1].min() >= 0 and q[:, 0].max() <= w and q[:, 1].max() <= h
    # the tiles are zoomed to their width in the scene, and come out squatter
    widths = [np.linalg.norm(np.subtract(t["quad"][1], t["quad"][0])) for t in sc.tiles]
    seen_widths = [np.linalg.norm(np.subtract(t["quad"][1], t["quad"][0])) for t in seen.tiles]
    assert np.median(seen_widths) == pytest.approx(np.median(widths), rel=0.25)


# ----------------------------------------------------------------------------------------------
# the shipped models


@needs_artwork
def test_hands_seen_from_a_seat_are_read_upright(monkeypatch):
    """Six synthetic hands (rows across the photo, plain table) seen 50 degrees off straight above:
    their faces come out squarish or as wide as lying tiles. At least 80 % of the upright tiles are
    read upright and right; without reading slanted faces upright too, nor the photo again seen
    from straight above (:mod:`vision.slant`), about half (37-40 of 75, depending on the artwork the scenes are drawn
    with)."""
    photos = hands_seen_from_a_seat("clutter", 50.0)
    upright = sum(not t["rotated"] for seen in photos for t in seen.tiles)
    right = read_right(photos, upright_only=True)
    assert right >= 0.8 * upright
    monkeypatch.setattr(geometry, "SLANT_RATIO_MAX", geometry.AMBIGUOUS_RATIO[1])
    monkeypatch.setattr(slant, "MIN_STRETCH", math.inf)
    monkeypatch.setattr(slant, "MIN_DEPTH", math.inf)
    monkeypatch.setattr(seat_module, "DOUBT_BELOW", 0.0)  # (nor in the guessed view)
    assert right >= read_right(photos, upright_only=True) + 0.2 * upright


@pytest.mark.skipif(not REAL.exists(), reason="../shared/vision-data (Camerash photos) not available")
def test_a_row_so_squat_that_no_face_reads_as_a_tile_is_read_from_a_seat(monkeypatch):
    """A row of seven honours (2-2.jpg) at the far edge of a plain table, seen from a seat 55
    degrees off straight above with the phone turned 5: its faces come out so squat that every
    one first reads as no tile. They lie in a row, so the slant is measured on them and the
    photo read again straightened (:func:`vision.seat._read_from_a_seat`), where all seven
    are read. Before session 37 a photo whose first reading read no tile at all was not read
    again, and came back empty (as it still does with that step left out)."""
    row = cv2.imread(str(REAL.parent / "raw-images" / "2-2.jpg"))
    table = np.full((1000, 1500, 3), 90, np.uint8)
    w = 495
    h = row.shape[0] * w // row.shape[1]
    table[30 : 30 + h, 652 : 652 + w] = cv2.resize(row, (w, h), interpolation=cv2.INTER_AREA)
    photo = cv2.imencode(".jpg", seen_from(table, 55.0, roll=5.0), [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    assert Counter(recognize(photo).codes) == Counter(load_labels()["2-2.jpg"])
    seat = seat_module._read_from_a_seat
    monkeypatch.setattr(recognize_module, "_read_from_a_seat", lambda ph, rs, *a: seat(ph, rs, *a) if rs else None)
    assert recognize(photo).codes == []


def _squat_find(x: float, blob_size: int = 1, width: float = 60.0, height: float = 30.0) -> Candidate:
    """A find ``width`` x ``height`` (a face seen so squat from a seat) centred at ``(x, 100)``."""
    quad = np.array(
        [[x - width / 2, 85], [x + width / 2, 85], [x + width / 2, 85 + height], [x - width / 2, 85 + height]]
    )
    return Candidate(quad.astype(np.float32), source="learned", blob_size=blob_size)


@pytest.mark.parametrize(
    ("finds", "in_rows", "why"),
    [
        ([_squat_find(x, 3) for x in (0, 60, 120)], 3, "one face region of three finds: touching tiles"),
        ([_squat_find(x) for x in (0, 66, 132, 198)], 4, "four faces apart, a tenth of a face between them"),
        ([_squat_find(x) for x in (0, 90, 180)], 3, "three faces apart, half a face between them"),
        ([_squat_find(x) for x in (0, 66)], 0, "two faces: no row"),
        ([_squat_find(x) for x in (0, 66, 400, 800)], 0, "two faces together, two alone"),
        ([_squat_find(x) for x in (0, 80, 160)] + [_squat_find(700)], 3, "a row of three, one find alone"),
        ([_squat_find(x, width=20, height=20) for x in (0, 50, 100)], 0, "specks 2.5 widths apart"),
    ],
)
def test_which_finds_lie_in_a_row(finds, in_rows, why):
    """Where a first reading reads too few faces to measure a slant on, the finds lying in rows are
    taken for upright faces (:func:`vision.seat._in_rows`): those in a face region of three or
    more, or linked with as many by centres within 1.5 of a find's long side."""
    assert len(seat_module._in_rows(finds)) == in_rows, why


@pytest.mark.skipif(not REAL.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize(
    ("gap", "degrees", "roll", "finds"),
    [
        (0.0, 50.0, 0.0, True),
        (0.15, 55.0, 5.0, True),
        (0.15, 60.0, 0.0, True),
        (0.3, 60.0, 5.0, True),
        (0.5, 55.0, 5.0, False),
        (0.5, 60.0, 0.0, False),
    ],
)
def test_a_row_of_squat_faces_apart_is_read_from_a_seat(monkeypatch, gap, degrees, roll, finds):
    """The seven honours of 2-2.jpg cut apart and laid in a row ``gap`` of a tile's width apart (a
    hand not pushed together) at the far edge of a plain table, seen from a seat: the finder finds
    the squat faces one by one, each a face region of its own, and every one first reads as no
    tile; half a tile apart it finds none of them (``finds`` false), but its face map marks each.
    They lie in a row, so the slant is measured on them (:func:`vision.seat._in_rows`, on the
    finds or else on the face map's regions) and the photo read again straightened, where all seven
    are read. Taking only finds in a face region of three or more for a row (sessions 37-52), these
    photos read 1, 0, 0, 0, 0 and 0 tiles."""
    row = cv2.imread(str(REAL.parent / "raw-images" / "2-2.jpg"))
    labels = load_labels()["2-2.jpg"]
    table = np.full((1000, 1500, 3), 90, np.uint8)
    scale = 495 / row.shape[1]
    h, each = int(row.shape[0] * scale), row.shape[1] / len(labels)
    x = 652 - int(3 * gap * each * scale)
    for i in range(len(labels)):
        tile = cv2.resize(
            row[:, int(i * each) : int((i + 1) * each)], (int(each * scale), h), interpolation=cv2.INTER_AREA
        )
        table[30 : 30 + h, x : x + tile.shape[1]] = tile
        x += int(tile.shape[1] * (1 + gap))
    photo = cv2.imencode(".jpg", seen_from(table, degrees, roll=roll), [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    assert Counter(recognize(photo).codes) == Counter(labels)
    monkeypatch.setattr(
        seat_module,
        "_in_rows",
        lambda cands: [cd for cd in cands if cd.blob_size >= seat_module.ROW_OF_FACES],
    )
    assert len(recognize(photo).codes) <= 1


def test_the_face_maps_regions_are_boxed_in_working_pixels():
    """:func:`vision.seat._face_regions`: each region the face map marks (over 0.5), boxed by
    its bounding rectangle and taken from map pixels to working pixels by the map's scale; regions
    under 8 map pixels across (specks) left out."""
    face = np.zeros((60, 200), np.float32)
    for x in (10, 40, 70):
        face[20:33, x : x + 22] = 0.9  # three squat faces, 22 x 13 map pixels
    face[50:54, 150:190] = 0.9  # a streak 4 pixels high
    face[5:15, 150:160] = 0.4  # faint: no face
    regions = seat_module._face_regions({"face": face, "scale": 2.0})
    assert [cd.quad.tolist() for cd in regions] == [
        [[2 * x, 40], [2 * (x + 22), 40], [2 * (x + 22), 66], [2 * x, 66]] for x in (10, 40, 70)
    ]
    assert len(seat_module._in_rows(regions)) == 3
    assert seat_module._face_regions({}) == []


@pytest.mark.skipif(not REAL.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize("degrees", [45.0, 50.0, 55.0, 60.0])
def test_a_real_photo_seen_from_a_seat_is_read(degrees):
    """dots2.jpg (four rows of 1p-9p on blue cloth; a photo no model was trained on) seen from a
    seat: before slanted faces were read upright too, 45 degrees read 30 of its 36 tiles; before
    the photo was read again straightened (:mod:`vision.slant`), 55 degrees read 30 and 60
    degrees 23."""
    img = cv2.imread(str(REAL / "dots2.jpg"))
    ok, buf = cv2.imencode(".jpg", seen_from(img, degrees), [cv2.IMWRITE_JPEG_QUALITY, 90])
    rec = recognize(buf.tobytes())
    labels = Counter(load_labels()["dots2.jpg"])
    hits = sum((labels & Counter(t.code for t in rec.tiles)).values())
    assert hits >= 35
    assert len(rec.tiles) <= 37


@pytest.mark.skipif(not REAL.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize(
    ("roll", "along_neighbours", "in_order"),
    [
        (True, True, True),
        (False, True, True),
        (True, False, True),
        (False, False, False),
    ],
)
def test_a_real_photo_from_a_phone_held_askew_is_read_in_its_rows(monkeypatch, roll, along_neighbours, in_order):
    """dots2.jpg (four rows of 1p-9p) seen 55 degrees off straight above by a phone turned 8
    degrees either way about its own axis: every tile is read, and row by row in the photo's order.
    Seen from a seat the rows lie close together, and turned they ran into each other. Either
    turning the view back by the roll (:func:`vision.slant.view_of`) or arranging the tiles along
    their nearest neighbours seen from straight above (:func:`vision.grouping.along_neighbours`)
    keeps them apart; without both, neither photo came out in order."""
    if not roll:
        monkeypatch.setattr(slant, "MIN_ROLL", math.inf)
    if not along_neighbours:
        monkeypatch.setattr(grouping, "along_neighbours", grouping.row_angle)
    img = cv2.imread(str(REAL / "dots2.jpg"))
    labels = load_labels()["dots2.jpg"]
    for turn in (-8.0, 8.0):
        ok, buf = cv2.imencode(".jpg", seen_from(img, 55.0, roll=turn), [cv2.IMWRITE_JPEG_QUALITY, 90])
        codes = recognize(buf.tobytes()).codes
        assert sorted(codes) == sorted(labels)
        assert (codes == labels) is in_order
