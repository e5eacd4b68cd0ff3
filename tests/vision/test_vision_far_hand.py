"""A hand far from a 12-megapixel camera: its tiles are 7-14 px wide at the finder's first look,
specks or nothing at all, and the first look is taken again twice as large
(:data:`vision.finders.learned.FAR_LOOK`); after that look a lone find is no tile."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.keyboard import draw_keyboard
from training.evaluate import load_labels
from vision import recognize

learned = sys.modules["vision.finders.learned"]

REAL = Path(__file__).resolve().parent.parent.parent.parent / "shared" / "vision-data" / "camerash-mahjong-dataset"


def _table() -> np.ndarray:
    """A 4000 x 3000 photo of a plain light wooden table, with a little sensor noise."""
    rng = np.random.default_rng(0)
    table = np.full((3000, 4000, 3), (150, 185, 215), np.float64) + rng.normal(0, 6, (3000, 4000, 3))
    return np.clip(table, 0, 255).astype(np.uint8)


def _jpeg(img: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


@pytest.mark.skipif(not REAL.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize(
    ("photo", "share", "why"),
    [
        ("untagged-images-raw/bams2.jpg", 0.12, "four rows of 1s-9s, a set no model was trained on: specks"),
        ("raw-images/2-1.jpg", 0.12, "one row of nine bamboo tiles: specks"),
    ],
)
def test_a_hand_far_from_the_camera_is_read(monkeypatch, photo, share, why):
    """A labelled photo pasted at ``share`` of the width of a 12 MP photo of a light table (its
    tiles about 50 px wide there): every tile is read; without the look twice as large, none."""
    img = cv2.imread(str(REAL / photo))
    canvas = _table()
    w = int(4000 * share)
    h = int(img.shape[0] * w / img.shape[1])
    canvas[1200 : 1200 + h, 1500 : 1500 + w] = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    data = _jpeg(canvas)
    labels = Counter(load_labels()[Path(photo).name])
    read = Counter(t.code for t in recognize(data).tiles)
    assert read == labels, why
    monkeypatch.setattr(learned, "FAR_LOOK", 0)
    assert not recognize(data).tiles, why


def test_the_letters_of_a_keyboard_seen_twice_as_large_are_no_tiles():
    """A keyboard on the table, 12 MP: its letters are specks at the first look and, twice as
    large, each a lone find on its key: no tile (without the lone-find rule, letters read as tiles)."""
    canvas = _table()
    draw_keyboard(canvas, (1500, 1100), 3.0)
    assert recognize(_jpeg(canvas)).tiles == []
