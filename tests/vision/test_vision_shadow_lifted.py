"""A shadow cast across part of a hand (a phone's or an arm's under a lamp): the light on the tile
faces measured, the photo lifted to the lit faces' light (:mod:`vision.shadow`), and the hand read
whole (session 54)."""

from __future__ import annotations

import sys
import zlib
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import shadow
from vision.recognize import recognize

LABELLED = Path(__file__).resolve().parents[2].parent / "shared" / "vision-data" / "camerash-mahjong-dataset"


def _row_of_faces(shade: float, lit: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """A 400 x 1200 photo of a grey table with a row of ten ivory faces (80 x 110, black ink in
    the middle), the right half's light ``shade`` times the left's (``lit`` times full), and the
    face map a finder would give it (1 on the faces, at half the size)."""
    img = np.full((400, 1200, 3), 100, np.float32)
    face = np.zeros((200, 600), np.float32)
    for i in range(10):
        x = 70 + 110 * i
        img[140:250, x : x + 80] = (200, 228, 236)
        img[180:210, x + 25 : x + 55] = 20
        face[70:125, x // 2 : (x + 80) // 2] = 1.0
    img *= lit
    img[:, 600:] *= shade
    return np.clip(img, 0, 255).astype(np.uint8), face


@pytest.mark.parametrize("shade", [0.3, 0.45, 0.6])
def test_the_light_on_shaded_faces_is_measured(shade):
    """Faces under a shadow get the gain that brings them to the lit faces' light, the lit faces
    none (a tile or two from the shadow's edge, where the light measured is blurred)."""
    img, face = _row_of_faces(shade)
    gain = shadow.light_on_faces(img, face, 2.0, 80.0)
    assert gain is not None and gain.shape == face.shape
    assert gain[95, 35:200].max() == pytest.approx(1.0, abs=0.02)  # (the lit faces, a shadow's blur away)
    assert gain[95, 420:580].min() == pytest.approx(1 / shade, rel=0.1)  # (the shaded faces)
    lifted = cv2.resize(gain, (1200, 400))[:, :, None] * img
    assert lifted[150:240, 980:1000].mean() == pytest.approx(img[150:240, 100:120].mean(), rel=0.1)


@pytest.mark.parametrize("lit", [1.0, 0.3])
def test_a_photo_lit_evenly_or_dim_all_over_is_not_lifted(lit):
    """No part of the faces is darker than the rest: nothing to lift, bright or dim."""
    img, face = _row_of_faces(1.0, lit)
    assert shadow.light_on_faces(img, face, 2.0, 80.0) is None


def test_a_coloured_table_the_face_map_marks_is_no_shaded_face():
    """The face map marks a strip of brown wood grain beside the faces (as it does on a wooden
    table seen from a seat): darker than the faces, but coloured, so no shadow; a shadow darkens
    without colouring, and the same strip grey and as dark is taken for shaded faces."""
    img, face = _row_of_faces(1.0)
    img[20:100, 100:1100] = (40, 80, 140)  # (brown wood, BGR)
    face[10:50, 50:550] = 0.6
    assert shadow.light_on_faces(img, face, 2.0, 80.0) is None
    img[20:100, 100:1100] = 80  # (grey, as dark)
    assert shadow.light_on_faces(img, face, 2.0, 80.0) is not None


def test_no_faces_measure_nothing():
    img, face = _row_of_faces(0.3)
    assert shadow.light_on_faces(img, np.zeros_like(face), 2.0, 80.0) is None


def test_a_lifted_photo_keeps_its_framing_and_is_never_darkened():
    from vision import photo

    img, face = _row_of_faces(0.3)
    ph = photo.load(cv2.imencode(".png", img)[1].tobytes())
    gain = shadow.light_on_faces(
        ph.image, cv2.resize(face, (ph.image.shape[1] // 2, ph.image.shape[0] // 2)), 2.0, 80.0
    )
    assert gain is not None
    up = shadow.lifted(ph, gain)
    assert up.image.shape == ph.image.shape and (up.width, up.height) == (ph.width, ph.height)
    assert (up.image.astype(int) >= ph.image.astype(int)).all()
    assert (up.detail is None) == (ph.detail is None)


@pytest.mark.skipif(not LABELLED.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize(("name", "darkness"), [("2-4.jpg", 0.3), ("6-2.png", 0.3), ("2-2.jpg", 0.45)])
def test_a_hand_with_a_shadow_across_it_is_read_whole(name, darkness, monkeypatch):
    """Real hands (a row of nine dots, a grid of 36, a row of seven honours) with a shadow cast
    across about half of each, as the benchmark's table (c11) casts it: read whole. Searched as
    the photo is (no lift, and only the last look's finds), tiles of the shaded side are missed."""
    from training.evaluate import load_labels
    from training.shadow import shadow_across

    labels = Counter(load_labels()[name])
    img = shadow_across(cv2.imread(str(LABELLED / "raw-images" / name)), darkness, zlib.crc32(name.encode()))
    shaded = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    assert Counter(recognize(shaded).codes) == labels
    monkeypatch.setattr(sys.modules["vision.finders.learned"], "_with_tiles_lost_smaller", lambda found, *args: found)
    monkeypatch.setattr(
        sys.modules["vision.recognize"], "_search_lifted", lambda ph, cands, fm, _finder: (ph, cands, fm)
    )
    assert (Counter(recognize(shaded).codes) & labels).total() < labels.total()
