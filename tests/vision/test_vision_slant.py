"""A photo taken from a seat, read again seen from straight above (:mod:`vision.slant`).

Seen ``t`` degrees off straight above, the table's depth is shortened by ``cos t``: faces look
squatter, tiles lying at a diagonal look like parallelograms, and the far tiles come out smaller
than the near ones. The view that gives the faces read in a first reading their true shape (0.75 as
wide as high) and one size is measured (:func:`vision.slant.view_of`); when it is slanted
(:attr:`vision.slant.View.slanted`) the part of the photo the tiles lie in is read again seen from
straight above (:func:`vision.slant.straightening`), and that reading is kept when it reads more
tiles surely.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections import Counter

import cv2
import numpy as np
import pytest

from tests.seat_views import hands_seen_from_a_seat, needs_artwork, read_right, table_faces
from training import phone_scenes
from vision import layout_rules as layout_rules_module
from vision import looks_again as looks_again_module
from vision import photo, slant
from vision import readings as readings_module
from vision import seat as seat_module
from vision import views as views_module
from vision.classifier import get_classifier
from vision.finders import Candidate, geometry
from vision.finders.geometry import FACE_ASPECT
from vision.readings import Reading
from vision.seat import _agreeing, _faces, _read_from_a_seat, _straightened_stands
from vision.views import _seen_as_taken

recognize_module = sys.modules["vision.recognize"]

BOX = (0, 0, 1600, 1200)


def _face(turn: float, squash: float, at: tuple[float, float] = (500.0, 400.0), size: float = 60.0) -> np.ndarray:
    """An upright face (corner 0 its top-left, clockwise) turned ``turn`` degrees on the table,
    photographed with the table's depth (image up and down) shortened to ``squash``, centred ``at``."""
    w, h = FACE_ASPECT * size, size
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    t = math.radians(turn)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return (corners @ rot.T) * [1.0, squash] + at


@pytest.mark.parametrize(
    ("turns", "degrees", "why"),
    [
        ([0.0] * 5, 0.0, "a hand from straight above"),
        ([0.0, 90.0, 0.0, 90.0, 3.0], 0.0, "upright and lying tiles from above"),
        ([0.0] * 5, 40.0, "a hand across the photo, 40 degrees off straight above"),
        ([0.0] * 14, 55.0, "... 55 degrees"),
        ([90.0] * 4, 50.0, "tiles lying across the row, 50 degrees"),
        ([30.0, 32.0, 28.0, 31.0], 55.0, "a row at 30 degrees, 55 degrees off straight above"),
        ([0.0, 35.0, 80.0, 120.0, 160.0, 200.0, 250.0], 50.0, "a pile at every turn, 50 degrees"),
    ],
)
def test_the_view_gives_faces_their_true_shape(turns, degrees, why):
    squash = math.cos(math.radians(degrees))
    faces = [_face(t, squash, (300.0 + 70 * i, 600.0)) for i, t in enumerate(turns)]
    view = slant.view_of(faces, BOX)
    assert view.stretch == pytest.approx(1 / squash, abs=0.05), why
    assert view.depth == 0.0, why
    assert view.slanted == (degrees >= 40), why


def _spread(faces: list[np.ndarray], m: np.ndarray) -> tuple[float, float]:
    """The largest log ratio of a face's width over height to 0.75, and of its width to the
    median width, once ``faces`` are moved by ``m``."""
    q = cv2.perspectiveTransform(np.asarray(faces, np.float64).reshape(1, -1, 2), m).reshape(-1, 4, 2)
    across, up = np.linalg.norm(q[:, 1] - q[:, 0], axis=1), np.linalg.norm(q[:, 0] - q[:, 3], axis=1)
    return float(np.abs(np.log(across / up / FACE_ASPECT)).max()), float(
        np.abs(np.log(across / np.median(across))).max()
    )


@pytest.mark.parametrize(("degrees", "distance"), [(45.0, 1.3), (55.0, 1.3), (50.0, 0.8)])
def test_seen_from_straight_above_again_the_faces_are_one_shape_and_size(degrees, distance):
    """Rows of faces seen from a seat, the phone 1.3 or 0.8 photo lengths from the table's centre:
    the far faces smaller and squatter than the near ones. Straightened, every face is within 8 %
    of a face's shape and 8 % of the median width; a uniform stretch leaves the far and near rows
    apart in size (by 15 % and more, the phone 0.8 lengths away)."""
    faces = table_faces(degrees, distance)
    box = slant.window(faces, (1200, 1600))
    view = slant.view_of(faces, box)
    assert view.slanted and view.depth > 0
    m, (w, h) = slant.straightening(view, box, faces)
    shape, size = _spread(faces, m)
    assert shape < math.log(1.08) and size < math.log(1.08)
    if distance < 1:
        uniform, _ = slant.straightening(slant.View(view.stretch, 0.0), box, faces)
        assert _spread(faces, uniform)[1] > math.log(1.15)


@pytest.mark.parametrize(("picked", "depth"), [((0, 6, 11, 42, 47), True), ((0, 11, 42, 47), False)])
def test_a_close_up_of_a_few_faces_has_a_depth(picked, depth):
    """A close-up from a seat (50 degrees off straight above, 0.8 photo lengths away) of which a
    first reading read only a few faces surely, on the far and the near row: five say how much
    smaller the far side comes out (:data:`vision.slant.MIN_FACES_FOR_DEPTH`), and straightened
    they are one size within 8 %; four let the depth trade off against the stretch, and say none."""
    faces = [table_faces(50.0, 0.8)[i] for i in picked]
    box = slant.window(faces, (1200, 1600))
    view = slant.view_of(faces, box)
    assert view.slanted and (view.depth > 0) == depth
    if depth:
        m, _ = slant.straightening(view, box, faces)
        assert _spread(faces, m)[1] < math.log(1.08)


def _skew(faces: list[np.ndarray], m: np.ndarray) -> float:
    """The most any of ``faces``, moved by ``m``, is sheared: how far (degrees) the angle between
    its top and left edges is from a right angle."""
    q = cv2.perspectiveTransform(np.asarray(faces, np.float64).reshape(1, -1, 2), m).reshape(-1, 4, 2)
    top, left = q[:, 1] - q[:, 0], q[:, 3] - q[:, 0]
    cos = (top * left).sum(1) / np.linalg.norm(top, axis=1) / np.linalg.norm(left, axis=1)
    return float(np.degrees(np.abs(np.arcsin(np.clip(cos, -1, 1)))).max())


@pytest.mark.parametrize(("degrees", "roll"), [(55.0, 0.0), (55.0, 4.0), (50.0, -7.0), (45.0, 10.0), (0.0, 6.0)])
def test_the_rows_turn_is_measured_across_the_photo(degrees, roll):
    """Seen from a seat, four rows of twelve lie closer together than the faces along a row; the
    rows' turn is measured from each face to its nearest neighbour across the photo."""
    faces = np.asarray(table_faces(degrees, 1.3, roll))
    assert slant.row_turn(faces) == pytest.approx(roll, abs=0.5)


@pytest.mark.parametrize("roll", [6.0, -9.0])
def test_a_phone_turned_about_its_own_axis_is_turned_back(roll):
    """A phone 50 degrees off straight above, turned a little about its own axis: the table's depth
    runs up the photo at that angle. The view has that roll, and straightened the faces are square
    again (within 2 degrees) and of one shape and size; stretched straight up the photo instead,
    they come out sheared by over 4 degrees."""
    faces = table_faces(50.0, 1.3, roll)
    box = slant.window(faces, (1200, 1600))
    view = slant.view_of(faces, box)
    assert view.roll == pytest.approx(roll, abs=1.0) and view.slanted
    m, _ = slant.straightening(view, box, faces)
    assert _skew(faces, m) < 2.0
    shape, size = _spread(faces, m)
    assert shape < math.log(1.08) and size < math.log(1.08)
    unturned, _ = slant.straightening(slant.View(view.stretch, view.depth), box, faces)
    assert _skew(faces, unturned) > 4.0


def test_rows_turned_in_a_photo_from_above_have_no_roll():
    """From straight above a roll changes nothing; measured anyway, it let a rack turned 8 degrees
    on the table pass for a depth, and the photo was read twice."""
    faces = table_faces(0.0, 1.3, 8.0)
    view = slant.view_of(faces, slant.window(faces, (1200, 1600)))
    assert view == slant.View() and not view.slanted


def test_rows_turned_further_are_rows_turned_on_the_table():
    """Rows turned beyond :data:`vision.slant.MAX_ROLL` are rather turned on the table (their faces
    sheared in the photo, not turned): the view has no roll."""
    faces = table_faces(50.0, 1.3, slant.MAX_ROLL + 8)
    assert slant.view_of(faces, slant.window(faces, (1200, 1600))).roll == 0.0


@pytest.mark.parametrize(("rolled", "kept"), [(slant.View(1.0, 0.1, -10.0), 0.0), (slant.View(1.6, 0.1, -10.0), -10.0)])
def test_a_roll_that_leaves_the_photo_flat_is_no_roll(monkeypatch, rolled, kept):
    """The rows 10 degrees off the photo's, measured slanted without a roll: turned back by the
    rows' turn, the photo measures flat (a grid turned on the table, not a phone turned in the
    hand), and the view without the roll stands; one still slanted turned back keeps its roll."""
    monkeypatch.setattr(slant, "row_turn", lambda q: -10.0)
    monkeypatch.setattr(slant, "_fitted", lambda q, box, roll, spreads=None: rolled if roll else slant.View(1.85, 0.1))
    faces = [_face(0.0, 0.6, (300.0 + 70 * i, 600.0)) for i in range(5)]
    assert slant.view_of(faces, BOX).roll == kept


def _spread_of(turn: float, squash: float, size: float = 60.0) -> np.ndarray:
    """The second moments of a uniform face as :func:`_face` shows it (photo pixels squared)."""
    t = math.radians(turn)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    shown = np.diag([1.0, squash]) @ rot
    return shown @ np.diag([(FACE_ASPECT * size) ** 2 / 12, size**2 / 12]) @ shown.T


def _boxed(face: np.ndarray) -> np.ndarray:
    """The rectangle the finder puts round a face (the least-area one, ordered up = image up)."""
    return geometry.order_quad(cv2.boxPoints(cv2.minAreaRect(face.astype(np.float32))).astype(np.float64))


JITTER = (0.0, 2.0, -1.0, 1.0, 0.0, -2.0, 1.0, 0.0)


def _turned_row(turn: float, degrees: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Eight faces turned about ``turn`` degrees on the table, seen ``degrees`` off straight above:
    the finder's rectangles round them, and their spreads."""
    squash = math.cos(math.radians(degrees))
    at = [(300.0 + 70 * i, 500.0 + 90 * (i % 2)) for i in range(len(JITTER))]
    faces = [_face(turn + d, squash, c) for d, c in zip(JITTER, at)]
    return [_boxed(f) for f in faces], [_spread_of(turn + d, squash) for d in JITTER]


@pytest.mark.parametrize(("turn", "degrees"), [(25.0, 45.0), (35.0, 45.0)])
def test_sheared_faces_are_measured_on_their_spreads(turn, degrees):
    """Faces turned on the table and seen from a seat are parallelograms; the rectangles round them
    look as if seen from straight above, while their spreads keep the shear and give the slant."""
    rects, spreads = _turned_row(turn, degrees)
    assert slant.view_of(rects, BOX).stretch <= 1.05  # (1.41 true)
    view = slant.view_of(rects, BOX, spreads)
    assert view.stretch == pytest.approx(1 / math.cos(math.radians(degrees)), abs=0.05)


@pytest.mark.parametrize(("turn", "degrees"), [(0.0, 0.0), (25.0, 0.0), (0.0, 45.0), (0.0, 55.0), (15.0, 45.0)])
def test_the_spreads_never_make_a_view_less_steep(turn, degrees):
    """Where the spreads do not say the faces are foreshortened by :data:`vision.slant.STEEPER_BY`
    more than their rectangles do (faces from straight above, or square to the photo's rows, or a
    rectangle that already measures a steeper slant), the rectangles' view stands."""
    rects, spreads = _turned_row(turn, degrees)
    assert slant.view_of(rects, BOX, spreads) == slant.view_of(rects, BOX)


def test_faces_without_a_spread_are_left_out_of_the_second_measurement():
    rects, spreads = _turned_row(25.0, 45.0)
    assert slant.view_of(rects, BOX, [None] * len(rects)) == slant.view_of(rects, BOX)
    assert slant.view_of(rects, BOX, spreads[:2] + [None] * 6) == slant.view_of(rects, BOX)  # under MIN_FACES
    view = slant.view_of(rects, BOX, [None, None, *spreads[2:]])
    assert view.stretch == pytest.approx(math.sqrt(2), abs=0.05)


def test_too_few_faces_say_nothing():
    squashed = [_face(0.0, 0.6, (300.0 + 70 * i, 600.0)) for i in range(2)]
    assert slant.view_of(squashed, BOX) == slant.View()
    assert slant.view_of([], BOX) == slant.View()


@pytest.mark.parametrize(
    ("view", "slanted", "steep"),
    [
        (slant.View(), False, False),
        (slant.View(1.1, 0.1), False, False),
        (slant.View(1.15, 0.0), True, False),
        (slant.View(1.0, 0.2), True, False),
        (slant.View(1.5, 0.0), True, True),
        (slant.View(1.2, 0.4), True, True),
    ],
)
def test_which_views_are_read_again(view, slanted, steep):
    assert (view.slanted, view.steep) == (slanted, steep)


def test_the_straightened_part_starts_at_the_origin_and_keeps_tiles_readable():
    faces = [_face(0.0, 0.6, (300.0 + 70 * i, 600.0), size=120.0) for i in range(6)]
    box = slant.window(faces, (1200, 1600))
    m, (w, h) = slant.straightening(slant.View(1 / 0.6, 0.0), box, faces)
    x0, y0, x1, y1 = box
    corners = cv2.perspectiveTransform(np.array([[[x0, y0], [x1, y1]]], np.float64), m).reshape(2, 2)
    assert corners[0] == pytest.approx([0, 0], abs=1e-6)
    assert corners[1] == pytest.approx([w, h], abs=1.0)
    moved = cv2.perspectiveTransform(np.asarray(faces, np.float64).reshape(1, -1, 2), m).reshape(-1, 4, 2)
    assert slant.tile_width(list(moved)) == pytest.approx(slant.TILE_PX[1], rel=0.01)  # 90 px wide: 64
    assert slant.width_seen(faces, m) == pytest.approx(slant.tile_width(list(moved)))  # what the finder is told
    _, (w2, h2) = slant.straightening(slant.View(2.0, 1.2), (0, 0, 1600, 1200), faces)
    assert w2 * h2 <= slant.MAX_PIXELS * 1.01


def test_the_part_read_again_reaches_two_tile_widths_beyond_the_tiles():
    quads = [np.array([[100, 200], [130, 200], [130, 240], [100, 240]]) + [40 * i, 0] for i in range(4)]
    assert slant.tile_width(quads) == 30
    assert slant.window(quads, (1000, 1000, 3)) == (40, 140, 310, 300)
    assert slant.window(quads, (260, 280, 3)) == (40, 140, 280, 260)


def test_a_crop_is_cut_from_the_photo_through_the_view():
    """A tile found in a view of the photo (a homography away) is cut from the photo itself."""
    rng = np.random.default_rng(3)
    photo = rng.integers(0, 255, (300, 400, 3), dtype=np.uint8)
    quad = np.array([[120, 80], [180, 90], [175, 170], [110, 160]], np.float32)  # in the photo
    view_of_photo = np.array([[1.2, 0.1, 5], [0.0, 1.6, -20], [0.0, 0.001, 1]])
    in_view = cv2.perspectiveTransform(quad.reshape(1, 4, 2).astype(np.float64), view_of_photo).reshape(4, 2)
    cd = geometry.with_crops(photo, Candidate(in_view.astype(np.float32)), homography=np.linalg.inv(view_of_photo))
    ((rot, crop),) = cd.crops
    side = float(np.linalg.norm(quad[3] - quad[0]))
    expected = geometry.rectify(photo, quad, crop.shape[1], crop.shape[0])
    assert rot == 0 and crop.shape[0] == int(side)
    assert np.abs(crop.astype(int) - expected.astype(int)).max() <= 1


def _reading(code: str, conf: float, quad: np.ndarray) -> Reading:
    return Reading(Candidate(quad.astype(np.float32)), quad, 0, [(code, conf)])


def test_the_slant_is_measured_on_sure_enough_faces_with_an_up():
    face = _face(0.0, 0.6)
    unsure = slant.FACE_CONFIDENCE - 0.01
    others = [
        _reading("back", 0.99, face),  # a face-down tile has no up
        _reading("5z", 0.99, face),  # nor has a blank white dragon
        _reading("2m", unsure, face),
        _reading("?", 0.0, face),
    ]
    sure = [_reading(code, 0.95, face) for code in ("1m", "2p", "3s")]
    assert len(_faces(sure + others)) == 3
    # too few sure: every reading with an up (a photo the first reading mostly failed)
    assert len(_faces(sure[:2] + others)) == 3
    assert _faces(others[:2]) == []


def test_a_reading_in_the_view_comes_back_to_the_photo():
    quad = np.array([[10, 20], [40, 20], [40, 80], [10, 80]], np.float64)
    back = np.array([[1.0, 0, 100], [0, 0.5, 50], [0, 0, 1]])
    moved = _seen_as_taken(_reading("3p", 0.9, quad), back)
    assert moved.quad.tolist() == [[110, 60], [140, 60], [140, 90], [110, 90]]
    assert moved.candidate.quad.tolist() == moved.quad.tolist()
    assert moved.candidate.crops == ()
    assert moved.top == [("3p", 0.9)]


@pytest.mark.parametrize(
    ("first", "offset", "sure", "why"),
    [
        ("5m", (0, 0), True, "both readings agree"),
        ("5m", (5, 10), True, "... and the boxes are nearly the same"),
        ("3m", (0, 0), False, "the first reading read another face there"),
        ("3m", (0, 20), False, "... a box on half of it (a half tile read as a sure 2p)"),
        ("3m", (40, 0), True, "another face a tile further on is another tile"),
    ],
)
def test_a_second_reading_the_first_contradicts_is_not_sure(first, offset, sure, why):
    quad = np.array([[100, 100], [160, 100], [160, 180], [100, 180]], np.float64)
    again = _reading("5m", 0.99, quad)
    again = dataclasses.replace(again, sure=True)
    (out,) = _agreeing([again], [_reading(first, 0.7, quad + offset)])
    assert out.sure is sure, why
    assert out.top == again.top


def _row(codes: str, sure: str) -> list[Reading]:
    """Readings of a row of tiles 60 px apart: ``codes`` two characters each, ``sure`` a ``y`` or
    ``n`` per tile."""
    quad = np.array([[100, 100], [160, 100], [160, 180], [100, 180]], np.float64)
    return [
        dataclasses.replace(_reading(codes[2 * i : 2 * i + 2], 0.99, quad + [62 * i, 0]), sure=flag == "y")
        for i, flag in enumerate(sure)
    ]


@pytest.mark.parametrize(
    ("first", "first_sure", "again", "again_sure", "stands", "why"),
    [
        ("1m2m3m", "yyy", "1m2m3m", "yyy", True, "a tie: the reading of the straightened photo stands"),
        ("1m2m3m", "yyn", "1m2m3m", "yny", True, "... however the sure ones fall"),
        ("1m2m3m", "yyy", "1m2m3m", "yyn", False, "the straightened reading reads fewer surely"),
        ("1m2m3m", "yny", "1m2m3m", "yyy", True, "... or more"),
        ("1m2m5m", "yyy", "1m2m3m", "yyn", True, "a sure reading the other reads as another face is in doubt"),
        ("1m2m5m", "yyy", "1m2m", "yy", False, "... where the other reads nothing, it counts"),
        ("1m2m3m", "nnn", "1m2m3m", "nnn", True, "... also where neither reads a tile surely"),
    ],
)
def test_the_straightened_reading_stands_unless_it_reads_fewer_surely(
    first, first_sure, again, again_sure, stands, why
):
    assert _straightened_stands(_row(again, again_sure), _row(first, first_sure)) is stands, why


def test_too_few_faces_read_the_slant_is_measured_on_rows_of_candidates(monkeypatch):
    """A first reading that read too few faces (a row of squat faces read as no tile): the slant is
    measured on the candidates lying in rows of three or more touching ones, taken as upright."""
    measured = []

    def view_of(faces: list, box: tuple, spreads: list) -> slant.View:
        assert len(spreads) == len(faces)  # (the candidates' spreads go with them)
        measured.append(len(faces))
        return slant.View()

    monkeypatch.setattr(slant, "view_of", view_of)
    ph = photo.Photo(np.zeros((600, 800, 3), np.uint8), 800, 600, 1.0, 1.0, "jpeg")
    face = _face(0.0, 0.6, (300.0, 300.0))
    row = [Candidate(face.astype(np.float32) + [50 * i, 0], blob=1, blob_size=4) for i in range(4)]
    lone = [Candidate(face.astype(np.float32) + [0, 200], blob=2, blob_size=1)]
    one = [_reading("1m", 0.95, face)]
    assert _read_from_a_seat(ph, one, None, None, row + lone) is None
    assert measured == [4]
    three = [_reading(code, 0.95, face + [50 * i, 0]) for i, code in enumerate(("1m", "2m", "3m"))]
    _read_from_a_seat(ph, three, None, None, row + lone)
    assert measured == [4, 3]


def _parts_measured(monkeypatch) -> list[tuple]:
    """The parts of the photo (``x0, y0, x1, y1``) the slant is measured in from now on, recorded as
    :func:`vision.slant.view_of` is asked for them; every view comes out straight above."""
    boxes: list[tuple] = []

    def view_of(faces: list, box: tuple, spreads: list) -> slant.View:
        boxes.append(box)
        return slant.View()

    monkeypatch.setattr(slant, "view_of", view_of)
    return boxes


def test_slant_measured_on_rows_the_part_read_again_still_takes_in_every_tile_read(monkeypatch):
    """Where the slant is measured on the candidates in rows (too few faces read with an up: a
    loose pile, mostly backs), the part of the photo read again still reaches every tile read: a
    sure tile off to one side of the rows is read again with them, not left out."""
    boxes = _parts_measured(monkeypatch)
    ph = photo.Photo(np.zeros((600, 1600, 3), np.uint8), 1600, 600, 1.0, 1.0, "jpeg")
    face = _face(0.0, 0.6, (300.0, 300.0))
    row = [Candidate(face.astype(np.float32) + [50 * i, 0], blob=1, blob_size=4) for i in range(4)]
    aside = _reading("7m", 0.99, face + [900, 100])
    _read_from_a_seat(ph, [aside], None, None, row)
    x0, y0, x1, y1 = boxes[-1]
    assert x1 >= aside.quad[:, 0].max() and y1 >= aside.quad[:, 1].max()
    assert x0 <= row[0].quad[:, 0].min()


def test_the_part_read_again_takes_in_the_rows_of_the_tiles_read(monkeypatch):
    """The part of the photo read again straightened reaches past the tiles read to the candidates
    on their face regions (a far tile of the row, squat, read as no tile), not to other regions."""
    boxes = _parts_measured(monkeypatch)
    ph = photo.Photo(np.zeros((600, 1600, 3), np.uint8), 1600, 600, 1.0, 1.0, "jpeg")
    face = _face(0.0, 0.6, (300.0, 300.0))
    row = [Candidate(face.astype(np.float32) + [50 * i, 0], blob=1, blob_size=8) for i in range(8)]
    apart = [Candidate(face.astype(np.float32) + [50 * i, 0], blob=2, blob_size=2) for i in (20, 21)]
    three = [
        dataclasses.replace(_reading(code, 0.95, face + [50 * i, 0]), candidate=row[i])
        for i, code in enumerate(("1m", "2m", "3m"))
    ]
    _read_from_a_seat(ph, three, None, None, row + apart)
    x1 = boxes[0][2]
    reach = slant.REACH * slant.tile_width([r.quad for r in three])
    assert x1 == int(np.ceil(row[-1].quad[:, 0].max() + reach))  # the row's last candidate, not the tiles read
    assert x1 < apart[0].quad[:, 0].min()  # another region stays out


@pytest.mark.parametrize(("finds", "read_again"), [(15, True), (45, True), (300, False)])
def test_a_texture_enlarged_with_the_tiles_leaves_the_first_reading(monkeypatch, finds, read_again):
    """Ten faces read at a slant; the part read again straightened finds as many tiles (and some
    missed), or far more (the dots of a patterned cloth, enlarged with the tiles), which read as no
    tile: the first reading stands (:func:`vision.seat._texture`). More finds than a set has
    tiles are not read at all."""
    ph = photo.Photo(np.full((900, 1200, 3), 128, np.uint8), 1200, 900, 1.0, 1.0, "jpeg")
    first = [
        dataclasses.replace(_reading("1m", 0.99, _face(0.0, 0.6, (300.0 + 55 * i, 450.0))), sure=True)
        for i in range(10)
    ]
    found = [Candidate(_face(0.0, 1.0, (50.0 + 4 * i, 100.0)).astype(np.float32)) for i in range(finds)]
    read = []
    monkeypatch.setattr(views_module, "find_candidates", lambda img, **kw: found)
    monkeypatch.setattr(seat_module, "_read", lambda cands, clf: read.append(len(cands)) or ([], None, 0))
    seat = _read_from_a_seat(ph, first, None, None)
    assert seat is not None and seat.readings is None
    assert read == ([finds] if read_again else [])


@pytest.mark.parametrize(
    ("measured", "milder_texture", "tried", "kept", "why"),
    [
        (
            slant.View(2.0, 1.2, 12.0),
            False,
            [slant.View(2.0, 1.2, 12.0), slant.View(1.8, 0.6, 12.0)],
            slant.View(1.8, 0.6, 12.0),
            "the steepest view read as a texture: read again with half the depth, the stretch halfway to 1.6",
        ),
        (
            slant.View(1.4, 0.4),
            False,
            [slant.View(1.4, 0.4), slant.View(1.5, 0.2)],
            slant.View(1.5, 0.2),
            "a milder stretch moves halfway up to 1.6",
        ),
        (
            slant.View(2.0, 1.2, 12.0),
            True,
            [slant.View(2.0, 1.2, 12.0), slant.View(1.8, 0.6, 12.0)],
            slant.View(2.0, 1.2, 12.0),
            "the milder view a texture too: the first reading stands, in the view measured",
        ),
        (slant.View(1.8), False, [slant.View(1.8)], slant.View(1.8), "no depth to take off: a texture it is"),
    ],
)
def test_a_view_whose_straightened_part_reads_as_a_texture_is_tried_once_milder(
    monkeypatch, measured, milder_texture, tried, kept, why
):
    """The depth measured on one row of faces trades off against the stretch (session 38): a view
    measured too deep draws the far tiles out past a tile's shape, and the straightened part reads
    as a texture (:func:`vision.seat._texture`). It is read once more in a milder view
    (:func:`vision.seat._milder`), whose reading is taken where it is not a texture too."""
    ph = photo.Photo(np.full((900, 1200, 3), 128, np.uint8), 1200, 900, 1.0, 1.0, "jpeg")
    first = [
        dataclasses.replace(_reading("1m", 0.99, _face(0.0, 0.6, (300.0 + 55 * i, 450.0))), sure=True)
        for i in range(10)
    ]
    again = [dataclasses.replace(r, sure=True) for r in first + [_reading("2m", 0.99, _face(0.0, 0.6, (300.0, 250.0)))]]
    seen = []

    def read_as_seen(ph, readings, view, box, faces, finder, clf):
        seen.append(view)
        texture = view == measured or milder_texture
        return seat_module.SeatReading(np.eye(3), None if texture else again, texture=texture)

    monkeypatch.setattr(slant, "view_of", lambda faces, box, spreads: measured)
    monkeypatch.setattr(seat_module, "_read_as_seen", read_as_seen)
    seat = _read_from_a_seat(ph, first, None, None)
    assert seen == tried, why
    assert seat is not None and seat.part is not None and seat.part[0] == kept, why
    assert seat.readings == (again if kept != measured else None), why


# ----------------------------------------------------------------------------------------------
# the shipped models


@needs_artwork
def test_rows_at_a_diagonal_seen_from_a_seat_are_read(monkeypatch):
    """Six synthetic hands in rows at 20-45 degrees seen 55 degrees off straight above: the faces
    are parallelograms. Read again seen from straight above, at least 90 % are read right (75 of
    78); read as they are, about two thirds (53)."""
    photos = hands_seen_from_a_seat("diagonal", 55.0)
    tiles = sum(len(seen.tiles) for seen in photos)
    right = read_right(photos)
    assert right >= 0.9 * tiles
    monkeypatch.setattr(slant, "MIN_STRETCH", math.inf)
    monkeypatch.setattr(slant, "MIN_DEPTH", math.inf)
    monkeypatch.setattr(seat_module, "DOUBT_BELOW", 0.0)  # (nor in the guessed view)
    assert right >= read_right(photos) + 0.15 * tiles


@needs_artwork
def test_a_photo_from_above_is_read_once(monkeypatch):
    """Hands photographed from straight above, rows across and at a diagonal: no second reading
    (the finder is never asked to look at a straightened part of the photo)."""
    calls = []
    find = views_module.find_candidates

    def spy(img: np.ndarray, **kw) -> list:
        if kw.get("to_detail") is not None:
            calls.append(img.shape)
        return find(img, **kw)

    monkeypatch.setattr(views_module, "find_candidates", spy)
    photos = [
        phone_scenes.make_phone_scene(seed, kind, size=(1600, 1200), n_clutter=0, finger=False, degrade=False)
        for seed, kind in [(21, "clutter"), (22, "diagonal"), (23, "rack")]
    ]
    assert read_right(photos) >= 0.95 * sum(len(p.tiles) for p in photos)
    assert calls == []


# ----------------------------------------------------------------------------------------------
# a first reading in doubt is also read in the view a seat most often gives


def _seat_readings(sure: str, code: str = "1m") -> list[Reading]:
    """A row of readings of ``code`` across the photo, sure where ``sure`` has a ``y``."""
    return [
        dataclasses.replace(_reading(code, 0.99, _face(0.0, 1.0, (300.0 + 70 * i, 400.0))), sure=flag == "y")
        for i, flag in enumerate(sure)
    ]


@pytest.mark.parametrize(
    ("codes", "sure", "in_doubt", "why"),
    [
        ("1m", "yyyyy", False, "every tile read surely"),
        ("1m", "yyyyn", False, "four of five: 0.8"),
        ("1m", "yyynn", True, "three of five"),
        ("1m", "nn", False, "two tiles are too few to doubt"),
        ("1f", "nnnnn", False, "flowers are never sure, and leave no doubt"),
    ],
)
def test_a_reading_is_in_doubt_where_few_of_its_tiles_were_read_surely(codes, sure, in_doubt, why):
    clf = get_classifier()
    assert seat_module._in_doubt(_seat_readings(sure, codes), clf) is in_doubt, why


@pytest.mark.parametrize(
    ("first", "measured", "straightened", "guessed", "kept", "why"),
    [
        ("yyyyy", 1.0, None, None, None, "a sure reading from straight above is left alone"),
        ("yynnn", 1.0, None, "yyyyn", "guessed", "in doubt, flat as measured: the guessed view reads more surely"),
        ("yynnn", 1.0, None, "yynnn", None, "... no more surely: the first reading stands"),
        ("ynnnn", 1.3, "yyyyn", None, "measured", "the measured view read it surely: no guess"),
        ("ynnnn", 1.3, "yynnn", "yyynn", "guessed", "... still in doubt: the guessed view reads more surely"),
        ("ynnnn", 1.3, "yyynn", "yyynn", "measured", "... as surely: the measured view's reading stands"),
        ("ynnnn", 1.3, "yyynn", "yyyy", "measured", "... more surely, but fewer tiles: the measured view's stands"),
        ("yyyyyyy", 1.3, "yyyyy", "yyyyyyy", "guessed", "lost 2 of 7 places: the guessed view reads them"),
        ("yyyyyy", 1.3, "yyyyy", None, "measured", "... lost 1 of 6 places: 5 of 6 sure is no doubt"),
    ],
)
def test_a_reading_in_doubt_is_read_again_in_the_guessed_view(
    monkeypatch, first, measured, straightened, guessed, kept, why
):
    """The views a photo is read again in, and which reading is kept: the first reading of five
    tiles (sure where ``first`` says), the view measured on its faces (a stretch), the reading in
    that view and in :data:`vision.seat.GUESSED_VIEW` (``None``: never read). The guessed
    view's reading is kept where it reads more tiles surely and no fewer tiles."""
    asked = []
    readings = {measured: straightened, seat_module.GUESSED_VIEW.stretch: guessed}

    def read_as_seen(ph, first_reading, view, box, faces, finder, classifier):
        asked.append(view.stretch)
        return seat_module.SeatReading(np.eye(3) * view.stretch, _seat_readings(readings[view.stretch]))

    monkeypatch.setattr(slant, "view_of", lambda faces, box, spreads: slant.View(stretch=measured))
    monkeypatch.setattr(seat_module, "_read_as_seen", read_as_seen)
    ph = photo.Photo(np.zeros((600, 800, 3), np.uint8), 800, 600, 1.0, 1.0, "jpeg")
    seat = _read_from_a_seat(ph, _seat_readings(first), None, None)
    assert asked == [s for s, r in readings.items() if r is not None], why
    if kept is None:
        assert seat is None, why
    else:
        stretch = measured if kept == "measured" else seat_module.GUESSED_VIEW.stretch
        assert seat is not None and seat.to_view[0, 0] == stretch, why


def _find_at(x: float, y: float, size: float = 60.0) -> Candidate:
    """A find of a face ``size`` high centred at ``(x, y)``."""
    return Candidate(_face(0.0, 1.0, (x, y), size).astype(np.float32))


@pytest.mark.parametrize(
    ("sure", "finds", "in_doubt", "why"),
    [
        ("yyy", [(300.0, 520.0), (370.0, 520.0)], True, "two tile-sized finds unread below a sure row of three"),
        ("yyy", [(300.0, 520.0)], False, "one unread find is no doubt (a stray back dropped)"),
        ("yyy", [(300.0, 400.0), (370.0, 400.0)], False, "finds at the places read are no unread tiles"),
        ("yyy", [(300.0, 620.0, 150.0), (500.0, 620.0, 150.0)], False, "finds far larger than a tile"),
        ("yyyyyyyy", [(300.0, 520.0), (370.0, 520.0)], False, "eight of ten read surely: 0.8"),
        ("yy", [(300.0, 520.0), (370.0, 520.0)], True, "two sure and two unread: counted four tiles"),
    ],
)
def test_tile_sized_finds_left_unread_put_a_sure_reading_in_doubt(sure, finds, in_doubt, why):
    """:func:`vision.seat._unread_in_doubt`: the finds at places a reading left empty, of a
    tile's size, counted as tiles it did not read surely; two of them at least."""
    clf = get_classifier()
    cands = [_find_at(*f) for f in finds]
    assert seat_module._unread_in_doubt(_seat_readings(sure), cands, clf) is in_doubt, why


@pytest.mark.parametrize(
    ("kept", "first", "in_doubt", "why"),
    [
        ("yyyyy", 7, True, "a sure row of five where the first reading read seven: 5 of 7 counted sure"),
        ("yyyyy", 6, False, "... where it read six: 5 of 6"),
        ("yyyyyyyy", 10, False, "eight sure of ten counted: 0.8"),
        ("nn", 4, True, "two tiles, none sure, where the first reading read four (a pile)"),
        ("yyynn", 5, False, "no place lost: doubt is the reading's own (_in_doubt)"),
        ("yyyyy", None, False, "the first reading kept: nothing lost"),
    ],
)
def test_places_the_first_reading_read_put_the_straightened_reading_in_doubt(kept, first, in_doubt, why):
    """:func:`vision.seat._lost_in_doubt`: the first reading's tiles at places the straightened
    reading left empty are counted as tiles it did not read surely. ``first``: how many tiles the
    first reading read along the same row (``None``: the straightened reading is the first one)."""
    clf = get_classifier()
    again = _seat_readings(kept)
    before = again if first is None else _seat_readings("y" * first)
    assert seat_module._lost_in_doubt(again, before, clf) is in_doubt, why


def test_the_guessed_view_adds_sure_faces_where_a_sure_reading_left_finds_unread(monkeypatch):
    """A first reading of three faces, every one sure, beside two tile-sized finds it read as no
    tile, in a photo measured flat: it is read in :data:`vision.seat.GUESSED_VIEW`, which reads
    the three faces and both finds surely. The first reading stands (it was not in doubt by its own
    tiles); the guessed view's sure faces at the two empty places are added, not its sure back at
    a third, nor its unsure face at a fourth, nor its reading of a place the first one read."""
    first = _seat_readings("yyy")
    empty = [(300.0, 520.0), (370.0, 520.0), (440.0, 520.0), (510.0, 520.0)]
    cands = [_find_at(*at) for at in empty[:2]]
    faces = [_inked("6p", _face(0.0, 1.0, empty[0])), _inked("2s", _face(0.0, 1.0, empty[1]))]
    guessed = [
        _inked("9m", first[0].quad),  # (a place the first reading read)
        *faces,
        _inked("back", _face(0.0, 1.0, empty[2])),
        _inked("7z", _face(0.0, 1.0, empty[3]), sure=False),
    ]
    asked = []

    def read_as_seen(ph, first_reading, view, box, faces_, finder, classifier):
        asked.append(view.stretch)
        return seat_module.SeatReading(np.eye(3) * view.stretch, guessed)

    monkeypatch.setattr(slant, "view_of", lambda faces_, box, spreads: slant.View(stretch=1.0))
    monkeypatch.setattr(seat_module, "_read_as_seen", read_as_seen)
    ph = photo.Photo(np.zeros((600, 800, 3), np.uint8), 800, 600, 1.0, 1.0, "jpeg")
    seat = _read_from_a_seat(ph, first, None, None, cands)
    assert asked == [seat_module.GUESSED_VIEW.stretch]
    assert seat is not None and seat.readings is None and seat.to_view is None
    assert seat.guessed_sure == faces
    asked.clear()
    assert _read_from_a_seat(ph, first, None, None, cands[:1]) is None  # (one unread find: no doubt)
    assert asked == []


@needs_artwork
def test_the_guessed_views_sure_faces_join_the_reading_at_empty_places(monkeypatch):
    """:func:`vision.recognize.recognize` adds a seat reading's ``guessed_sure`` faces at places the
    readings left empty, and not where a tile was read: one tile of a photo read again shifted
    into the table beside the hand joins it, one at its own place does not."""
    sc = phone_scenes.make_phone_scene(21, "clutter", size=(1600, 1200), n_clutter=0, finger=False, degrade=False)
    data = sc.jpeg(92)
    seen: list = []
    seat = seat_module._read_from_a_seat

    def spy(ph, readings, *a):
        seen.append(list(readings))
        return seat(ph, readings, *a)

    monkeypatch.setattr(recognize_module, "_read_from_a_seat", spy)
    before = Counter(recognize_module.recognize(data).codes)
    one = max((r for r in seen[0] if r.sure and readings_module._has_artwork(r)), key=lambda r: r.quad[:, 1].max())
    side = float(np.ptp(one.quad[:, 1]))
    moved = dataclasses.replace(one, quad=one.quad + [0.0, 3 * side], candidate=dataclasses.replace(one.candidate))
    for extra, more in (([moved], 1), ([one], 0)):
        monkeypatch.setattr(
            recognize_module,
            "_read_from_a_seat",
            lambda ph, rs, *a, e=extra: seat_module.SeatReading(None, guessed_sure=e),
        )
        after = Counter(recognize_module.recognize(data).codes)
        assert after[one.top[0][0]] == before[one.top[0][0]] + more


def _inked(code: str, quad: np.ndarray, sure: bool = True) -> Reading:
    return Reading(Candidate(quad.astype(np.float32), ink=0.2), quad, 0, [(code, 0.99)], sure)


def _halves(quad: np.ndarray) -> list[np.ndarray]:
    """A face's quad (corner 0 top-left, clockwise) cut across into its top and bottom halves."""
    top, bottom = (quad[0] + quad[3]) / 2, (quad[1] + quad[2]) / 2
    return [np.array([quad[0], quad[1], bottom, top]), np.array([top, bottom, quad[2], quad[3]])]


@pytest.mark.parametrize(
    ("cut", "tiles", "expected", "why"),
    [
        (0, 12, False, "the same tiles read again"),
        (1, 12, False, "one of twelve tiles in halves"),
        (2, 12, False, "two of twelve: too few to tell"),
        (3, 12, True, "three of twelve: tiles read in pieces"),
        (12, 12, True, "every tile in halves"),
        (3, 50, True, "three of fifty: a count, not a share (a grid among tables seen nearly from above)"),
        (5, 50, True, "five of fifty: the photo once kept that way, two halves read surely and wrongly"),
    ],
)
def test_a_reading_that_reads_tiles_in_pieces_cuts_them(cut, tiles, expected, why):
    faces = [_face(0.0, 1.0, (100.0 + 50 * (i % 12), 400.0 + 100 * (i // 12)), 60.0) for i in range(tiles)]
    first = [_inked("1s", q) for q in faces]
    again = [_inked("9s", h) for q in faces[:cut] for h in _halves(q)] + [_inked("1s", q) for q in faces[cut:]]
    assert seat_module._cuts_tiles(again, first) is expected, why


def test_the_guessed_view_is_not_kept_where_it_reads_tiles_in_pieces(monkeypatch):
    """A grid of tiles seen from straight above, drawn out 1.6 times in the guessed view, comes out
    in halves there, each read as a tile, many surely: more sure readings than the first reading
    had, yet the first reading stands (:func:`vision.seat._cuts_tiles`)."""
    faces = [_face(0.0, 1.0, (300.0 + 70 * i, 400.0)) for i in range(5)]
    first = [_inked("1s", q, sure=i < 3) for i, q in enumerate(faces)]  # (three of five: in doubt)
    halves = [_inked("9s", h) for q in faces for h in _halves(q)]

    def read_as_seen(ph, first_reading, view, box, faces, finder, classifier):
        return seat_module.SeatReading(np.eye(3) * view.stretch, halves)

    monkeypatch.setattr(slant, "view_of", lambda faces, box, spreads: slant.View(stretch=1.0))
    monkeypatch.setattr(seat_module, "_read_as_seen", read_as_seen)
    ph = photo.Photo(np.zeros((600, 800, 3), np.uint8), 800, 600, 1.0, 1.0, "jpeg")
    assert _read_from_a_seat(ph, first, None, None) is None


@pytest.mark.parametrize(
    ("finds", "first", "sure", "texture", "why"),
    [
        (30, 9, 0, False, "as many finds as the first reading's tiles allow (3 x 9 + 12): read as they are"),
        (123, 9, 83, False, "far grids seen from a seat: 123 finds, 83 read surely"),
        (87, 25, 17, False, "87 finds beside 25 first tiles: not far more (3 x 25 + 12)"),
        (102, 25, 17, True, "102 finds, 17 read surely: a texture enlarged with the tiles"),
        (204, 10, 60, True, "dots round a far hand read as tiles, a few surely"),
    ],
)
def test_far_more_finds_are_a_texture_unless_most_read_surely(finds, first, sure, texture, why):
    """:func:`vision.seat._texture`: the straightened part's finds are a texture only where they
    are far more than the first reading's tiles and under half of them read surely."""
    quad = _face(0.0, 1.0)
    cands = [Candidate(quad.astype(np.float32)) for _ in range(finds)]
    seen = [_inked("1m", quad, sure=i < sure) for i in range(finds)]
    assert seat_module._texture(cands, seen, [_inked("1m", quad)] * first) is texture, why


def _in_region(code: str, quad: np.ndarray, region: int, size: int) -> Reading:
    return Reading(Candidate(quad.astype(np.float32), blob=region, blob_size=size), quad, 0, [(code, 0.99)])


@pytest.mark.parametrize(
    ("other", "taken", "why"),
    [
        ([("row", i) for i in range(9)], 6, "a far row the kept reading read 3 of: the 6 others"),
        ([("row", i) for i in (0, 1, 2)], 0, "where the kept reading read them already"),
        ([("row", i) for i in (3,)], 0, "one place of a row: too few to tell a row from a stray"),
        ([("sure", 3)], 0, "... even read surely"),
        ([("row", i) for i in (3, 4)], 0, "two places of a row, both read unsurely: too few"),
        ([("row", 3), ("sure", 4)], 2, "two places of a row, one read surely"),
        ([("row", i) for i in (3, 4, 5)], 3, "three places of a row"),
        ([("lone", 0)], 0, "a lone patch (a leaf read as a back)"),
        ([("lone", 0), ("lone", 1), ("lone", 2)], 0, "three lone patches, each its own region"),
    ],
)
def test_the_reading_passed_over_gives_the_rows_the_kept_one_missed(other, taken, why):
    """:func:`vision.seat._places_missed`: the kept reading read the hand and 3 tiles of a
    far row of 9; the reading passed over read what ``other`` says."""
    hand = [_in_region("1m", _face(0.0, 1.0, (300.0 + 50 * i, 600.0)), 1, 9) for i in range(9)]
    far = [_face(0.0, 0.6, (200.0 + 30 * i, 100.0), 36.0) for i in range(9)]
    kept = hand + [_in_region("9s", far[i], 2, 9) for i in (0, 1, 2)]
    readings = [
        dataclasses.replace(_in_region("5s", far[i], 7, 9), sure=kind == "sure")
        if kind in ("row", "sure")
        else _in_region("back", _face(0.0, 1.0, (900.0, 100.0 + 200 * i)), 8 + i, 1)
        for kind, i in other
    ]
    assert len(seat_module._places_missed(readings, kept)) == taken, why


def test_a_back_is_never_shown_as_sure_yet_counts_as_read_surely():
    """Backs are never shown as sure (their readings on sets never seen were never measured:
    :func:`training.calibration.unsure_suits`), but a back read surely still weighs the readings
    of a photo against each other (:func:`vision.layout_rules._weighs`), and the sure count a
    reading is judged by keeps it."""
    back = Reading(Candidate(np.zeros((4, 2), np.float32)), np.zeros((4, 2)), 0, [("back", 0.99)], True)
    face = dataclasses.replace(back, top=[("5p", 0.99)])
    flower = dataclasses.replace(back, top=[("3f", 0.99)])

    class Classifier:
        def suit_can_be_sure(self, code: str) -> bool:
            return code != "back" and not code.endswith("f")

    shown = layout_rules_module._shown_sure([back, face, flower], Classifier())
    assert [r.sure for r in shown] == [False, True, False]
    assert layout_rules_module._weighs(back) and not layout_rules_module._weighs(flower)


@pytest.mark.parametrize(
    ("finds", "least", "read_in_region", "sure_in_part", "kept", "why"),
    [
        (3, 3, False, 4, 4, "a far grid the first reading read nothing of, read on its own: 4 sure tiles"),
        (3, 3, False, 2, 0, "... where its part reads two tiles surely: keys or print, not tiles"),
        (3, 3, True, 4, 0, "a region the first reading read a tile in is not read again"),
        (1, 3, False, 4, 0, "one find over a far grid: not read again in a photo not from a seat"),
        (1, 1, False, 4, 4, "... and read again in a photo from a seat"),
    ],
)
def test_a_face_region_read_as_no_tiles_is_read_again_on_its_own(
    monkeypatch, finds, least, read_in_region, sure_in_part, kept, why
):
    """:func:`vision.looks_again._regions_read_again`: the learned finder's finds on one face region
    (far tiles, each find over several of them), none read; the part round them is found and read
    again as a photo of its own, its readings moved back into the photo's pixels."""
    far = [
        Candidate(
            _face(0.0, 0.5, (400.0 + 40 * i, 100.0), 40.0).astype(np.float32), source="learned", blob=3, blob_size=finds
        )
        for i in range(finds)
    ]
    hand = [
        Candidate(_face(0.0, 1.0, (300.0 + 50 * i, 500.0)).astype(np.float32), source="learned", blob=1, blob_size=5)
        for i in range(5)
    ]
    readings = [Reading(cd, cd.quad, 0, [("1m", 0.99)], True) for cd in hand]
    if read_in_region:
        readings.append(Reading(far[0], far[0].quad, 0, [("2m", 0.99)], True))
    parts = []

    def find_candidates(img, finder=None, detail=None):
        parts.append(img.shape)
        return [
            Candidate(
                _face(0.0, 1.0, (20.0 + 15 * i, 20.0), 12.0).astype(np.float32), source="learned", blob=1, blob_size=4
            )
            for i in range(4)
        ]

    def read(cands, classifier):
        return [Reading(cd, cd.quad, 0, [("5p", 0.99)], i < sure_in_part) for i, cd in enumerate(cands)], None, 0

    monkeypatch.setattr(looks_again_module, "find_candidates", find_candidates)
    monkeypatch.setattr(looks_again_module, "_read", read)
    ph = photo.Photo(np.zeros((600, 800, 3), np.uint8), 800, 600, 1.0, 1.0, "jpeg")
    out = looks_again_module._regions_read_again(ph, far + hand, readings, None, None, least)
    assert len(out) == kept, why
    assert len(parts) == (1 if finds >= least and not read_in_region else 0), why
    if kept:
        corners = np.concatenate([cd.quad for cd in far])
        x0, y0 = np.floor(corners.min(0) - 20.0).astype(int)  # (one find's width round them)
        assert np.allclose(out[0].quad.mean(0), [x0 + 20.0, y0 + 20.0], atol=1.0)
        assert len({r.candidate.blob for r in out}) == 1 and out[0].candidate.blob not in {1, 3}


def test_a_part_read_again_adds_no_tile_where_one_was_read():
    """A part read on its own can reach into a row read already: its readings there are not added
    (:func:`vision.readings._at_empty_places`)."""
    faces = [_face(0.0, 1.0, (100.0 + 50 * i, 100.0)) for i in range(4)]
    row = [Reading(Candidate(q.astype(np.float32)), q, 0, [("1m", 0.99)], True) for q in faces]
    again = [dataclasses.replace(r, quad=r.quad + [3.0, -2.0]) for r in row[:2]]
    apart = [dataclasses.replace(row[0], quad=row[0].quad + [0.0, 300.0])]
    assert readings_module._at_empty_places(again + apart, row) == apart
