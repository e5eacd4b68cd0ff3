"""Face regions the finder found nothing in (:func:`vision.looks_again._unfound_faces_read`): a hand
near the camera sets the finder's looks, and tiles four or five times smaller beyond it are a few
pixels across there; the face map marks them, no core stands out, and they are read only when
their region is found and read as a photo of its own."""

from __future__ import annotations

import sys
from collections import Counter

import cv2
import numpy as np
import pytest

from tests.vision.test_vision_far_hand import REAL, _table
from training.evaluate import load_labels
from vision import looks_again as looks_again_module
from vision import photo, recognize
from vision import readings as readings_module
from vision.finders import Candidate

recognizer = sys.modules["vision.recognize"]


def _square(x: float, y: float, size: float) -> np.ndarray:
    return np.array([[x, y], [x + size, y], [x + size, y + size], [x, y + size]], np.float32)


@pytest.mark.parametrize(
    ("marked", "found_there", "sure_in_part", "finder", "parts", "kept", "why"),
    [
        ((40, 30, 60, 20), False, 4, None, 1, 4, "a face region with no find, read on its own: 4 sure tiles"),
        ((40, 30, 60, 20), False, 2, None, 1, 0, "... where its part reads two tiles surely: no tiles"),
        ((40, 30, 60, 20), True, 4, None, 0, 0, "a region a find covers is read by the other steps"),
        ((40, 30, 8, 6), False, 4, None, 0, 0, "a region smaller than three far tiles: not looked at"),
        ((40, 30, 60, 20), False, 4, "classical", 0, 0, "the classical finder gives no face map"),
    ],
)
def test_a_face_region_with_no_find_is_read_on_its_own(
    monkeypatch, marked, found_there, sure_in_part, finder, parts, kept, why
):
    """A face map (scale 2: a map pixel is two working pixels) that marks the hand's row and one
    region beyond it; the part round that region (its box grown :data:`UNFOUND_PAD` of its longer
    side) is found and read, its readings moved back into the photo's working pixels."""
    face = np.zeros((300, 400), np.float32)
    face[200:230, 20:220] = 1.0  # (the hand: five tiles of 80 px, read)
    x, y, w, h = marked
    face[y : y + h, x : x + w] = 1.0
    hand = [Candidate(_square(40.0 + 80 * i, 400.0, 60.0), source="learned", blob=1, blob_size=5) for i in range(5)]
    readings = [readings_module.Reading(cd, cd.quad, 0, [("1m", 0.99)], True) for cd in hand]
    there = [Candidate(_square(2 * x, 2 * y, 2 * max(w, h)), source="learned", blob=2, blob_size=1)]
    cands = hand + (there if found_there else [])
    looked = []

    def find_candidates(img, finder=None, detail=None):
        looked.append(img.shape[:2])
        return [Candidate(_square(10.0 + 15 * i, 10.0, 12.0), source="learned", blob=1, blob_size=4) for i in range(4)]

    def read(cands, classifier):
        return (
            [readings_module.Reading(cd, cd.quad, 0, [("5p", 0.99)], i < sure_in_part) for i, cd in enumerate(cands)],
            None,
            0,
        )

    monkeypatch.setattr(looks_again_module, "find_candidates", find_candidates)
    monkeypatch.setattr(looks_again_module, "_read", read)
    ph = photo.Photo(np.zeros((600, 800, 3), np.uint8), 800, 600, 1.0, 1.0, "jpeg")
    face_map = {} if finder == "classical" else {"face": face, "scale": 2.0, "look": 400}
    out = looks_again_module._unfound_faces_read(ph, cands, readings, finder, None, face_map)
    assert len(looked) == parts, why
    assert len(out) == kept, why
    if kept:
        pad = looks_again_module.UNFOUND_PAD * 2 * max(w, h)
        assert looked[0] == (
            int(np.ceil(2 * (y + h) + pad)) - int(2 * y - pad),
            int(np.ceil(2 * (x + w) + pad)) - int(2 * x - pad),
        )
        assert np.allclose(out[0].quad[0], [int(2 * x - pad) + 10.0, int(2 * y - pad) + 10.0])


@pytest.mark.skipif(not REAL.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize(("far", "share"), [("raw-images/1-2.jpg", 0.15), ("untagged-images-raw/dots2.jpg", 0.12)])
def test_a_small_grid_beyond_a_near_hand_is_read(monkeypatch, far, share):
    """A real hand of nine tiles pasted across 0.7 of a 2000 x 1500 photo of a table, near the
    camera, and a real grid of 36 tiles pasted at ``share`` of its width beyond it (tiles a fifth
    to a sixth as wide as the hand's): every tile is read, but one. Without the face regions read
    on their own, only the hand is."""
    table = cv2.resize(_table(), (2000, 1500))
    for name, at, part in (("raw-images/2-1.jpg", (200, 1000), 0.7), (far, (800, 150), share)):
        img = cv2.imread(str(REAL / name))
        w = int(2000 * part)
        h = int(img.shape[0] * w / img.shape[1])
        table[at[1] : at[1] + h, at[0] : at[0] + w] = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    data = cv2.imencode(".jpg", table, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    labels = load_labels()
    hand, grid = Counter(labels["2-1.jpg"]), Counter(labels[far.split("/")[1]])
    read = Counter(recognize(data).codes)
    assert (read & (hand + grid)).total() >= (hand + grid).total() - 1 and (read - (hand + grid)).total() <= 1
    monkeypatch.setattr(recognizer, "_unfound_faces_read", lambda *args: [])
    assert (Counter(recognize(data).codes) & grid).total() < grid.total() / 4
