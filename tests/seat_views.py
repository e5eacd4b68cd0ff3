"""Synthetic hands photographed from a seat at the table, and how many of their tiles are read right:
shared by the tests of slanted faces (tests/vision/test_vision_slanted_view.py) and of the second
reading seen from straight above (tests/vision/test_vision_slant.py); rows of faces as a seat sees
them (:func:`table_faces`, there and in tests/vision/test_vision_turned_photo.py); and the mark of
the tests that need the tile artwork to draw them (:data:`needs_artwork`)."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from training import phone_scenes
from training.artwork import DEFAULT_DATA
from training.evaluate import match_quads
from training.scenes import Scene
from training.viewpoint import DISTANCE, camera, scene_seen_from
from vision import recognize

#: a test that reads synthetic photos with the shipped models needs the tile artwork they are drawn
#: with: without ../shared/vision-data the faces are placeholders the classifier does not read, and
#: without ``rsvg-convert`` the SVG sets are left out, so the photos are drawn from other faces than
#: the ones the tests' counts were measured on (``python3 run.py test`` installs it, as root)
needs_artwork = pytest.mark.skipif(
    not DEFAULT_DATA.exists() or shutil.which("rsvg-convert") is None,
    reason="../shared/vision-data (tile artwork) or rsvg-convert (librsvg2-bin) not available to draw the faces with",
)


def hands_seen_from_a_seat(kind: str, degrees: float) -> list[Scene]:
    """Six synthetic hands of ``kind`` (:func:`training.phone_scenes.make_phone_scene`: seeds 11-16,
    1600 x 1200, a plain table, nothing else on it) seen ``degrees`` off straight above."""
    return [
        scene_seen_from(
            phone_scenes.make_phone_scene(
                seed, kind, size=(1600, 1200), n_clutter=0, finger=False, degrade=False, real_background=False
            ),
            degrees,
        )
        for seed in range(11, 17)
    ]


def read_right(photos: list[Scene], upright_only: bool = False) -> int:
    """How many tiles of ``photos`` are found and read right (``upright_only``: of the upright
    tiles, read upright)."""
    right = 0
    for seen in photos:
        ok, buf = cv2.imencode(".jpg", seen.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        rec = recognize(buf.tobytes())
        for g, p, _ in match_quads([t["quad"] for t in seen.tiles], [t.quad for t in rec.tiles]):
            tile, read = seen.tiles[g], rec.tiles[p]
            if upright_only:
                right += not tile["rotated"] and read.code == tile["code"] and not read.rotated
            else:
                right += read.code == tile["code"]
    return right


def table_faces(degrees: float, distance: float = DISTANCE, roll: float = 0.0) -> list[np.ndarray]:
    """Upright faces 60 x 80 in four rows of twelve on a table photographed 1600 x 1200 from
    straight above, as :func:`training.viewpoint.camera` sees them ``degrees`` off straight above
    from ``distance`` photo lengths, turned ``roll`` degrees about its own axis (corner 0 each
    face's top-left, clockwise)."""
    m, _ = camera(1600, 1200, degrees, distance, roll)
    faces = []
    for row in range(4):
        for col in range(12):
            x, y = 230 + 95 * col, 300 + 170 * row
            q = np.array([[x, y], [x + 60, y], [x + 60, y + 80], [x, y + 80]], np.float64)
            faces.append(cv2.perspectiveTransform(q.reshape(1, 4, 2), m).reshape(4, 2))
    return faces
