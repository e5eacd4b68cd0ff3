"""A photo from a seat whose table's depth runs across it: turned up, then read (:func:`vision.slant.
quarter_roll`, :func:`vision.seat._quarter_turns`, :func:`vision.photo.turned`).

A phone stores a picture taken upright turned a quarter, and an EXIF tag says so; a photo passed on
may lose the tag, and a player may turn a photo of the hand at the next seat so that it reads
upright. Either way the table's depth runs across the photo, not up it, and the faces are squashed
across it. The view that straightens a seat photo is measured up the photo, so such a photo is
measured with its depth across it too, and where that fits its faces far better, it is turned up
and read.
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest

from tests.seat_views import hands_seen_from_a_seat, needs_artwork, read_right, table_faces
from training.scenes import Scene
from vision import photo, slant
from vision.finders import Candidate
from vision.readings import Reading
from vision.seat import _quarter_turns

recognize_module = sys.modules["vision.recognize"]

WIDTH, HEIGHT = 1600, 1200


def _quarter(points: np.ndarray, quarters: int, width: int, height: int) -> np.ndarray:
    """``points`` (... x 2) of a ``width`` x ``height`` photo, where :func:`numpy.rot90` turning the
    photo ``quarters`` times puts them."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    for _ in range(quarters % 4):  # (x, y) -> (y, width - x), the photo's sides swapped
        p = np.column_stack([p[:, 1], width - p[:, 0]])
        width, height = height, width
    return p.reshape(np.shape(points))


def _readings(faces: list[np.ndarray]) -> list[Reading]:
    """Each face, found by the learned finder, read surely as a tile with an up."""
    return [Reading(Candidate(q.astype(np.float32), source="learned"), q, 0, [("1m", 0.99)]) for q in faces]


def _quarters(faces: list[np.ndarray], quarters: int) -> int:
    """The quarter turns :func:`vision.seat._quarter_turns` gives a photo whose faces are ``faces``
    turned ``quarters`` times (the photo's size turned with them)."""
    size = (WIDTH, HEIGHT) if quarters % 2 == 0 else (HEIGHT, WIDTH)
    turned = [_quarter(q, quarters, WIDTH, HEIGHT) for q in faces]
    ph = photo.Photo(np.zeros((size[1], size[0], 3), np.uint8), *size, 1.0, 1.0, "jpeg")
    return _quarter_turns(ph, _readings(turned))


@pytest.mark.parametrize("quarters", [0, 1, 2, 3])
def test_a_photo_turned_comes_back_pixel_for_pixel(quarters):
    """:func:`vision.photo.turned` turns the working and detail images as :func:`numpy.rot90` does,
    and the photo's size and scales with them; :func:`vision.photo.turned_back` takes a point of the
    turned photo back to where it was."""
    img = np.zeros((30, 50, 3), np.uint8)
    img[2, 40] = 255
    ph = photo.Photo(img, 100, 60, 2.0, 3.0, "jpeg", np.repeat(np.repeat(img, 2, 0), 2, 1))
    t = photo.turned(ph, quarters)
    assert np.array_equal(t.image, np.rot90(img, quarters)) and t.detail is not None
    assert np.array_equal(t.detail, np.rot90(ph.detail, quarters))
    odd = quarters % 2 == 1
    assert (t.width, t.height, t.scale_x, t.scale_y) == ((60, 100, 3.0, 2.0) if odd else (100, 60, 2.0, 3.0))
    ys, xs = np.nonzero(t.image[..., 0])
    back = photo.turned_back(np.array([[xs[0] + 0.5, ys[0] + 0.5]]), quarters, t.image.shape[1], t.image.shape[0])
    assert back.tolist() == [[40.5, 2.5]]
    assert _quarter(np.array([[xs[0] + 0.5, ys[0] + 0.5]]), -quarters, t.image.shape[1], t.image.shape[0]).tolist() == [
        [40.5, 2.5]
    ]


@pytest.mark.parametrize("degrees", [45.0, 55.0])
@pytest.mark.parametrize("quarters", [1, 3])
def test_a_seat_photo_turned_a_quarter_is_turned_up(degrees, quarters):
    """Four rows of faces seen from a seat, the photo turned a quarter either way: measured up the
    photo, the faces show no slant; the photo is turned back up (towards the side the faces grow
    smaller on, the far side, which the turn brings to the top)."""
    faces = table_faces(degrees)
    turned = [_quarter(q, quarters, WIDTH, HEIGHT) for q in faces]
    assert not slant.view_of(turned, slant.window(turned, (WIDTH, HEIGHT))).slanted
    assert (quarters + _quarters(faces, quarters)) % 4 == 0


@pytest.mark.parametrize(
    ("degrees", "quarters", "why"),
    [
        (45.0, 0, "a seat photo the right way up"),
        (55.0, 0, "... 55 degrees off straight above"),
        (55.0, 2, "... upside down: its depth runs down the photo, and the faces are squashed up it"),
        (0.0, 0, "a photo from straight above"),
        (0.0, 1, "... turned a quarter: its faces are not squashed, nothing says which way is up"),
    ],
)
def test_photos_whose_depth_runs_up_or_down_them_are_not_turned(degrees, quarters, why):
    assert _quarters(table_faces(degrees), quarters) == 0, why


def _narrowed(face: np.ndarray, by: float) -> np.ndarray:
    """``face`` made ``by`` times as wide about its centre (across the photo)."""
    c = face.mean(0)
    return (face - c) * [by, 1.0] + c


def test_narrow_faces_seen_from_above_are_not_turned():
    """A set whose faces are narrower than most (0.6 as wide as high, not 0.75), photographed from
    straight above: a view stretched across the photo would fit them as well as a photo turned a
    quarter, but they stand upright in the photo, and a photo whose depth runs across it shows
    the hand's faces lying across it."""
    faces = [_narrowed(q, 0.8) for q in table_faces(0.0)]
    box = slant.window(faces, (HEIGHT, WIDTH))
    assert slant._fitted(np.asarray(faces), box, 90.0).stretch >= slant.QUARTER_STRETCH
    assert _quarters(faces, 0) == 0


def test_a_few_faces_lying_across_among_upright_ones_say_nothing():
    """A seat photo turned a quarter, of whose faces the first reading read as many upright (turned
    a quarter on the table: the tiles beyond the hand) as lying across: not turned."""
    turned = [_quarter(q, 1, WIDTH, HEIGHT) for q in table_faces(50.0)[:6]]
    upright = [np.roll(q, 1, axis=0) for q in turned]  # (the same boxes, their up along the photo)
    size = (HEIGHT, WIDTH)
    ph = photo.Photo(np.zeros((size[1], size[0], 3), np.uint8), *size, 1.0, 1.0, "jpeg")
    assert _quarter_turns(ph, _readings(turned)) == 3
    assert _quarter_turns(ph, _readings(turned + upright)) == 0


def test_the_classical_finders_faces_are_not_measured():
    faces = table_faces(45.0)
    turned = [_quarter(q, 1, WIDTH, HEIGHT) for q in faces]
    ph = photo.Photo(np.zeros((WIDTH, HEIGHT, 3), np.uint8), HEIGHT, WIDTH, 1.0, 1.0, "jpeg")
    classical = [dataclasses.replace(r, candidate=Candidate(r.candidate.quad)) for r in _readings(turned)]
    assert _quarter_turns(ph, _readings(turned)) == 3
    assert _quarter_turns(ph, classical) == 0


@pytest.mark.parametrize("faces", [3, 4, 12])
@pytest.mark.parametrize("quarters", [1, 3])
def test_with_no_size_to_go_by_a_turned_photo_is_turned_clockwise(faces, quarters):
    """One row of a hand seen 50 degrees off, the photo turned a quarter: three or four faces fit the
    view across the photo far better (:data:`vision.slant.TURN_GAIN_FEW`), and twelve too; all
    lie as far from the camera, so nothing says which side is the far one, and either way round the
    photo is turned clockwise (a phone's picture that lost its EXIF tag has its top on the left)."""
    assert _quarters(table_faces(50.0)[:faces], quarters) == 3


def test_two_faces_say_nothing():
    assert _quarters(table_faces(50.0)[:2], 1) == 0


# ----------------------------------------------------------------------------------------------
# the shipped models


def _turned_scene(scene: Scene, quarters: int) -> Scene:
    """``scene`` (a synthetic photo and its tiles) turned as :func:`numpy.rot90` turns it."""
    h, w = scene.image.shape[:2]

    def moved(q) -> list:
        return _quarter(np.asarray(q, np.float64), quarters, w, h).tolist()

    tiles = [{**t, "quad": moved(t["quad"])} for t in scene.tiles]
    return Scene(np.ascontiguousarray(np.rot90(scene.image, quarters)), tiles, [moved(q) for q in scene.partial])


@needs_artwork
@pytest.mark.parametrize("quarters", [1, 3])
def test_a_hand_photographed_from_a_seat_and_turned_a_quarter_is_read(monkeypatch, quarters):
    """Six synthetic hands in rows at 20-45 degrees, seen 45 degrees off straight above, the photos
    turned a quarter: read turned up, 75 of their 78 tiles or more are read right, in their places
    in the photo as it is (77 and 76 were; the photos the right way up, 77). Read as they are, 70
    and 66 were."""
    photos = [_turned_scene(p, quarters) for p in hands_seen_from_a_seat("diagonal", 45.0)]
    assert sum(len(p.tiles) for p in photos) == 78
    assert read_right(photos) >= 75
    monkeypatch.setattr(recognize_module, "_quarter_turns", lambda *a, **k: 0)
    assert read_right(photos) <= 72
