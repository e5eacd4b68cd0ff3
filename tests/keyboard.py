"""A keyboard drawn on a photo of a desk, shared by the tests that no tile is read on one
(tests/vision/test_vision_reject.py, from near, dark and white; tests/vision/test_vision_far_hand.py,
in a 12 MP photo where its letters are specks at the finder's first look)."""

from __future__ import annotations

import cv2
import numpy as np

#: the keys' letters, the same on each of the five rows
LETTERS = "QWERTYUIOP"


def draw_keyboard(img: np.ndarray, origin: tuple[int, int], scale: float = 1.0, white: bool = False) -> None:
    """Draw a dark keyboard of 5 rows of 10 grey keys, white letters on them, its top-left at
    ``origin`` in ``img`` (BGR, in place): 550 x 350 px, keys 46 x 58 px 53 and 66 px apart, at
    ``scale`` 1. ``white``: white keys with dark letters on a light grey plate, each row's letters
    moved on by three (a white key is a light face with a dark mark, as a tile face is)."""
    x0, y0 = origin

    def at(x: float, y: float) -> tuple[int, int]:
        return x0 + round(x * scale), y0 + round(y * scale)

    plate, key, ink = (
        ((200, 200, 200), (240, 240, 240), (40, 40, 40)) if white else ((35, 35, 35), (70, 70, 70), (230, 230, 230))
    )
    cv2.rectangle(img, at(0, 0), at(550, 350), plate, -1)
    for r in range(5):
        for k in range(10):
            x, y = 15 + k * 53, 15 + r * 66
            cv2.rectangle(img, at(x, y), at(x + 46, y + 58), key, -1)
            letter = LETTERS[(k + 3 * r) % 10] if white else LETTERS[k]
            cv2.putText(img, letter, at(x + 12, y + 38), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, round(2 * scale))
