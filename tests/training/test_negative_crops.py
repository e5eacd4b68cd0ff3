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


@pytest.mark.parametrize("seed", range(6))
def test_printed_matter_is_letters_on_its_sheet(seed: int) -> None:
    """draw_print: what it draws lies on its sheet (turned with it), and it is many small marks
    (letters, numbers, ruled lines), each far smaller than a tile."""
    import cv2

    from training import clutter

    canvas = np.full((700, 900, 3), 128, np.float32)
    unit = 80.0
    poly = clutter.draw_print(canvas, (450.0, 350.0), 25.0, unit, np.random.default_rng(seed))
    changed = (np.abs(canvas - 128).max(2) > 1).astype(np.uint8)
    sheet = np.zeros_like(changed)
    cv2.fillPoly(sheet, [np.round(poly).astype(np.int32)], 1)
    sheet = cv2.dilate(sheet, np.ones((5, 5), np.uint8))
    assert changed.sum() > 0 and (changed & (1 - sheet)).sum() == 0
    dark = (canvas.mean(2) < 110).astype(np.uint8) * sheet
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    marks = stats[1:, cv2.CC_STAT_AREA]
    assert n - 1 >= 5 and float(np.median(marks)) < (0.5 * unit) ** 2
