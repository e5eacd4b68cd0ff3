"""A photo taken from a seat, read again stretched up and down to undo its slant (:mod:`vision.slant`).

Seen ``t`` degrees off straight above, the table's depth is shortened by ``cos t``: faces look
squatter, and tiles lying at a diagonal look like parallelograms. The stretch that gives the faces
read in a first reading their true shape (0.75 as wide as high) is measured
(:func:`vision.slant.stretch_of`); from :data:`vision.slant.MIN_STRETCH` the photo is read again
stretched, and that reading is kept when it reads more tiles surely.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from training import phone_scenes
from training.evaluate import match_quads
from training.viewpoint import scene_seen_from
from vision import recognize, slant
from vision.finders import Candidate
from vision.finders.geometry import FACE_ASPECT
from vision.recognize import Reading, _faces, _unstretched


def _face(turn: float, squash: float, size: float = 60.0) -> np.ndarray:
    """An upright face (corner 0 its top-left, clockwise) turned ``turn`` degrees on the table,
    photographed with the table's depth (image up and down) shortened to ``squash``."""
    w, h = FACE_ASPECT * size, size
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    t = math.radians(turn)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return (corners @ rot.T) * [1.0, squash] + [500.0, 400.0]


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
def test_the_stretch_gives_faces_their_true_shape(turns, degrees, why):
    squash = math.cos(math.radians(degrees))
    faces = [_face(t, squash) for t in turns]
    assert slant.stretch_of(faces) == pytest.approx(1 / squash, abs=0.05), why


def test_too_few_faces_say_nothing():
    squashed = [_face(0.0, 0.6), _face(0.0, 0.6)]
    assert slant.stretch_of(squashed) == 1.0
    assert slant.stretch_of([]) == 1.0


def test_a_tilt_under_about_30_degrees_is_not_read_again():
    assert slant.stretch_of([_face(0.0, math.cos(math.radians(25)))] * 5) < slant.MIN_STRETCH
    assert slant.stretch_of([_face(0.0, math.cos(math.radians(35)))] * 5) >= slant.MIN_STRETCH


def test_stretched_photo_and_the_stretch_it_comes_to():
    img = np.zeros((301, 400, 3), np.uint8)
    out, k = slant.stretched(img, 1.45)
    assert out.shape == (436, 400, 3)
    assert k == pytest.approx(436 / 301)


def _reading(code: str, conf: float, quad: np.ndarray) -> Reading:
    return Reading(Candidate(quad.astype(np.float32)), quad, 0, [(code, conf)])


def test_the_slant_is_measured_on_sure_enough_faces_with_an_up():
    face = _face(0.0, 0.6)
    readings = [
        _reading("1m", 0.95, face),
        _reading("back", 0.99, face),  # a face-down tile has no up
        _reading("5z", 0.99, face),  # nor has a blank white dragon
        _reading("2m", slant.FACE_CONFIDENCE - 0.01, face),
        _reading("?", 0.0, face),
    ]
    assert len(_faces(readings)) == 1


def test_a_reading_in_the_stretched_photo_comes_back_to_the_photo():
    quad = np.array([[10, 20], [40, 20], [40, 80], [10, 80]], np.float64)
    back = _unstretched(_reading("3p", 0.9, quad), 2.0)
    assert back.quad.tolist() == [[10, 10], [40, 10], [40, 40], [10, 40]]
    assert back.candidate.quad.tolist() == back.quad.tolist()
    assert back.candidate.crops == ()
    assert back.top == [("3p", 0.9)]


# ----------------------------------------------------------------------------------------------
# the shipped models


def _read_right(photos) -> int:
    """How many tiles of ``photos`` (scenes) are found and read right."""
    right = 0
    for seen in photos:
        ok, buf = cv2.imencode(".jpg", seen.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        rec = recognize(buf.tobytes())
        for g, p, _ in match_quads([t["quad"] for t in seen.tiles], [t.quad for t in rec.tiles]):
            right += rec.tiles[p].code == seen.tiles[g]["code"]
    return right


def test_rows_at_a_diagonal_seen_from_a_seat_are_read(monkeypatch):
    """Six synthetic hands in rows at 20-45 degrees seen 55 degrees off straight above: the faces
    are parallelograms. Read again stretched, at least 90 % are read right (75 of 78); read as they
    are, about two thirds (53)."""
    photos = [
        scene_seen_from(
            phone_scenes.make_phone_scene(
                seed, "diagonal", size=(1600, 1200), n_clutter=0, finger=False, degrade=False, real_background=False
            ),
            55.0,
        )
        for seed in range(11, 17)
    ]
    tiles = sum(len(seen.tiles) for seen in photos)
    right = _read_right(photos)
    assert right >= 0.9 * tiles
    monkeypatch.setattr(slant, "MIN_STRETCH", math.inf)
    assert right >= _read_right(photos) + 0.15 * tiles


def test_a_photo_from_above_is_read_once(monkeypatch):
    """Hands photographed from straight above, rows across and at a diagonal: no second reading."""
    calls = []

    def stretched(img: np.ndarray, stretch: float) -> tuple[np.ndarray, float]:
        calls.append(stretch)
        return img, 1.0

    monkeypatch.setattr(slant, "stretched", stretched)
    photos = [
        phone_scenes.make_phone_scene(seed, kind, size=(1600, 1200), n_clutter=0, finger=False, degrade=False)
        for seed, kind in [(21, "clutter"), (22, "diagonal"), (23, "rack")]
    ]
    assert _read_right(photos) >= 0.95 * sum(len(p.tiles) for p in photos)
    assert calls == []
