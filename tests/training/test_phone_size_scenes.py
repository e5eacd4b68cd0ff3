"""Table b10 (:func:`training.evaluate.phone_size_scenes`): the b4-b8 kinds at the size a phone
camera takes, with their ground truth at that size, and seeds apart
from b4-b8's."""

from __future__ import annotations

import cv2
import numpy as np

from training.evaluate import PHONE_SIZE, PHONE_SIZE_SEED0, PHONE_TABLES, phone_size_scenes


def test_phone_size_scenes_are_12_megapixel_photos_with_their_tiles():
    ((name, data, sc),) = phone_size_scenes("tray", 1)
    assert name == f"tray{PHONE_SIZE_SEED0 + 20}"
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    w, h = PHONE_SIZE
    assert img.shape[:2] == (h, w)
    quads = np.array([t["quad"] for t in sc.tiles], np.float64)
    assert len(quads) >= 20
    centres = quads.mean(1)
    assert (centres >= 0).all() and (centres[:, 0] < w).all() and (centres[:, 1] < h).all()


def test_phone_size_seeds_are_not_the_b4_b8_seeds():
    b4_b8 = {seed0 + i for _, _, seed0 in PHONE_TABLES.values() for i in range(100)}
    b10 = {PHONE_SIZE_SEED0 + 20 * k + i for k in range(len(PHONE_TABLES)) for i in range(20)}
    assert not b4_b8 & b10
