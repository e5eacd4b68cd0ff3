"""The classifier's synthetic negatives: every kind draws a real crop, the scene clutter included."""

from __future__ import annotations

import numpy as np
import pytest

from training import negative_crops


@pytest.mark.parametrize("kind", sorted(set(negative_crops.DRAWERS) - {"tile_pair", "half_tile"}))
def test_each_object_kind_draws_a_crop_with_something_on_it(kind: str) -> None:
    rng = np.random.default_rng(7)
    crops = [np.asarray(negative_crops.DRAWERS[kind][1](rng)) for _ in range(8)]
    assert all(c.shape == (negative_crops.H, negative_crops.W, 3) for c in crops)
    assert max(float(c.std()) for c in crops) > 5.0  # not a blank table top


def test_synthetic_negatives_are_degraded_uint8_crops() -> None:
    out = negative_crops.synthetic_negatives(np.random.default_rng(3), 12)
    assert len(out) == 12
    assert all(c.dtype == np.uint8 and c.shape == (negative_crops.H, negative_crops.W, 3) for c in out)
