"""``--strong-blur`` (:func:`training.render.strong_blur`): a hard motion streak or defocus that
keeps the crop's size, type and mean, and takes away most of its fine detail."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training.render import strong_blur


def _detail(img: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


@pytest.mark.parametrize("seed", range(12))
def test_strong_blur_takes_away_fine_detail_and_keeps_the_crop(seed):
    rng = np.random.default_rng(seed)
    crop = np.full((64, 48, 3), 235, np.uint8)
    for _ in range(12):  # ink strokes and pips
        x, y = (int(v) for v in rng.integers(4, 44, 2))
        cv2.circle(crop, (x, y + 8), int(rng.integers(2, 5)), tuple(int(c) for c in rng.integers(0, 120, 3)), -1)
    out = strong_blur(crop, rng)
    assert out.shape == crop.shape and out.dtype == np.uint8
    assert abs(float(out.mean()) - float(crop.mean())) < 6
    assert _detail(out) < 0.5 * _detail(crop)


@pytest.mark.parametrize("blur", ["motion streak 0.5 % of the width", "defocus sigma 0.15 % of the width"])
def test_the_benchmarks_blurred_photos_are_the_b8_photos_with_less_detail(blur):
    """Table b9 blurs the b8 photos: same scenes (same ground truth), less fine detail."""
    from training.evaluate import blurred_scenes, phone_scenes

    ((name, data, sc),) = phone_scenes("clutter", 1)
    ((bname, bdata, bsc),) = blurred_scenes(1, blur)
    assert bsc is sc or bsc.tiles == sc.tiles
    assert bname.startswith(name)
    sharp, blurred = (cv2.imdecode(np.frombuffer(d, np.uint8), cv2.IMREAD_COLOR) for d in (data, bdata))
    assert blurred.shape == sharp.shape
    assert _detail(blurred) < 0.6 * _detail(sharp)
