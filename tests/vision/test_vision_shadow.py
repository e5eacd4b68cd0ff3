"""Shadows cast across a photo: a phone or an arm shades part of a hand under a lamp. The shadow
drawn for the finder's training patches and for the benchmark's table (c11) (:mod:`training.shadow`),
and the finder trained on them reading a hand with a shadow across it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training.shadow import TRAIN_DARKNESS, cast, cast_on_patch, darknesses, shadow_across, shadowed

PHOTOS = Path(__file__).resolve().parent.parent / "fixtures" / "photos"


def test_the_shaded_side_is_darkened_by_the_darkness_and_the_penumbra_ramps_between():
    img = np.full((20, 100, 3), 200.0, np.float32)
    out = cast(img, (1.0, 0.0, -50.0), 0.4, 10.0)  # shadow where x > 50, penumbra 45..55
    row = out[10, :, 0]
    assert np.allclose(row[:45], 200.0)
    assert np.allclose(row[56:], 80.0)
    assert np.all(np.diff(row[44:57]) <= 0) and 80.0 < row[50] < 200.0


def test_a_band_shadow_is_lit_again_beyond_its_width():
    img = np.full((10, 100, 3), 100.0, np.float32)
    row = cast(img, (1.0, 0.0, -20.0), 0.5, 2.0, band=30.0)[5, :, 1]
    assert row[10] == pytest.approx(100.0) and row[35] == pytest.approx(50.0) and row[70] == pytest.approx(100.0)


def test_a_training_patch_gets_one_shadow_within_the_drawn_darkness():
    rng = np.random.default_rng(3)
    img = np.full((192, 192, 3), 200.0, np.float32)
    for _ in range(20):
        out = cast_on_patch(img, rng)
        darkest = float(out.min()) / 200.0
        assert TRAIN_DARKNESS[0] - 1e-6 <= darkest <= TRAIN_DARKNESS[1] + 1e-6
        assert float(out.max()) == pytest.approx(200.0)  # (the lit side as it was)


def test_the_benchmarks_shadow_covers_about_half_the_photo_the_same_every_run():
    img = np.full((300, 800, 3), 180, np.uint8)
    a, b = shadow_across(img, 0.5, 7), shadow_across(img, 0.5, 7)
    assert np.array_equal(a, b)
    shaded = float((a[..., 0] < 120).mean())
    assert 0.25 < shaded < 0.75
    assert not np.array_equal(a, shadow_across(img, 0.5, 8))


def test_shadowed_keeps_the_labels_and_names():
    img = np.full((60, 80, 3), 200, np.uint8)
    raw = cv2.imencode(".png", img)[1].tobytes()
    out = list(shadowed([("a.jpg", raw, ["1m", "2m"])], [0.6, 0.3]))
    assert [(k, n, gt) for k, n, _, gt in out] == [(0.6, "a.jpg", ["1m", "2m"]), (0.3, "a.jpg", ["1m", "2m"])]


def test_the_benchmarks_darknesses_lie_between_zero_and_one():
    assert darknesses("0.6, 0.45,0.3") == [0.6, 0.45, 0.3]
    assert darknesses("") == []
    for bad in ("0", "1", "1.5"):
        with pytest.raises(ValueError):
            darknesses(bad)
