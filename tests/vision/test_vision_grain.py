"""Grainy photos: a phone in a dim room, or a photo taken underexposed and brightened, carries its
sensor's noise into the picture. The working image's grain is measured on its flattest pixels
(:func:`vision.photo.noise_level`), and a photo whose grain would break the faces up for the networks
is smoothed a little before it is read (:func:`vision.photo.smoothed`); one without grain is left as
it is, since small tiles need their sharp strokes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from training.grain import add_grain, grains
from vision import photo, recognize

PHOTOS = Path(__file__).resolve().parent.parent / "fixtures" / "photos"


def _table(sigma: float = 0.0) -> np.ndarray:
    """A grey table with a few ivory tiles on it (sharp edges), ``sigma`` grey levels of grain."""
    img = np.full((600, 800, 3), 90, np.uint8)
    for i in range(6):
        cv2.rectangle(img, (100 + 90 * i, 250), (180 + 90 * i, 360), (225, 235, 240), -1)
        cv2.putText(img, str(i + 1), (120 + 90 * i, 330), cv2.FONT_HERSHEY_SIMPLEX, 2, (30, 30, 160), 4)
    return add_grain(img, sigma) if sigma else img


#: the grey image's share of noise added to each colour channel on its own (the root of the sum of
#: the squared weights of cv2's BGR -> grey conversion)
GREY_SHARE = float(np.sqrt(0.299**2 + 0.587**2 + 0.114**2))


@pytest.mark.parametrize("sigma", [4.0, 8.0, 16.0])
def test_the_grain_is_measured_on_the_flat_parts_not_the_edges(sigma):
    assert photo.noise_level(_table()) < 0.5  # (the tiles' edges and ink do not count as grain)
    assert photo.noise_level(_table(sigma)) == pytest.approx(GREY_SHARE * sigma, rel=0.1)


def test_a_photo_without_grain_is_read_as_it_is(monkeypatch):
    data = (PHOTOS / "scene_11.jpg").read_bytes()
    kept = photo.load(data).image
    monkeypatch.setattr(photo, "NOISY_ABOVE", float("inf"))
    assert np.array_equal(kept, photo.load(data).image)


def test_a_grainy_photo_is_smoothed_before_it_is_read(monkeypatch):
    """scene_13 (21 tiles) with 32 grey levels of grain: smoothed, 20 of its tiles are read right
    (as without the grain); left grainy, 13 were (session 38)."""
    labels = Counter(t["code"] for t in json.loads((PHOTOS / "scene_13.json").read_text())["tiles"])
    img = cv2.imread(str(PHOTOS / "scene_13.jpg"))
    data = cv2.imencode(".jpg", add_grain(img, 32.0), [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    raw = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert photo.noise_level(raw) > photo.NOISY_ABOVE
    assert photo.noise_level(photo.load(data).image) <= photo.NOISY_ABOVE
    smoothed = sum((labels & Counter(recognize(data).codes)).values())
    monkeypatch.setattr(photo, "NOISY_ABOVE", float("inf"))
    grainy = sum((labels & Counter(recognize(data).codes)).values())
    assert smoothed >= sum(labels.values()) - 2
    assert grainy < smoothed - 3


def test_the_benchmarks_grains_are_deviations_over_zero():
    assert grains("12,17, 24") == [12.0, 17.0, 24.0]
    assert grains("") == []
    with pytest.raises(ValueError):
        grains("0")


def test_the_same_grain_every_run():
    img = _table()
    assert np.array_equal(add_grain(img, 12.0), add_grain(img, 12.0))
    assert not np.array_equal(add_grain(img, 12.0), add_grain(img, 17.0))
