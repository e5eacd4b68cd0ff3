"""``--slant-small`` and ``--undistilled-slant``: the classifier's crops of a far tile seen from a
seat. Seen from a seat 50-60 degrees off straight above, a tile at the far end of a row or a rack
shows a squat face some 15-30 pixels high, where the shipped classifier reads the two strokes of
``2m`` as the three of ``3m``. A share of the crops seen at a slant (:func:`training.render.squashed`)
is seen small too, and the starting model, which reads them so, does not teach them (no
distillation on the crops seen at a slant)."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from training import render

#: two black strokes across an ivory face, as the character two
TWO = np.full((64, 48, 3), 235, np.uint8)
TWO[20:24, 8:40] = 0
TWO[40:44, 6:42] = 0


def _detail(img: np.ndarray) -> float:
    """The crop's sharpness: its steepest differences between neighbouring rows (the strokes' edges)."""
    return float(np.percentile(np.abs(np.diff(img.astype(np.float32), axis=0)), 99))


def test_a_crop_seen_small_keeps_less_detail_than_one_seen_at_a_slant_alone():
    slanted = [_detail(render.squashed(TWO, np.random.default_rng(s))) for s in range(40)]
    small = [_detail(render.squashed(TWO, np.random.default_rng(s), small=1.0)) for s in range(40)]
    assert np.mean(small) < 0.85 * np.mean(slanted)
    assert all(render.squashed(TWO, np.random.default_rng(s), small=1.0).shape == TWO.shape for s in range(5))


def test_no_crop_seen_small_is_the_crop_seen_at_a_slant_as_before():
    for seed in range(10):
        a = render.squashed(TWO, np.random.default_rng(seed))
        b = render.squashed(TWO, np.random.default_rng(seed), small=0.0)
        assert np.array_equal(a, b)


@pytest.mark.parametrize("undistilled", [False, True])
def test_crops_seen_at_a_slant_are_not_distilled_with_undistilled_slant(undistilled):
    torch = pytest.importorskip("torch")
    from training.train_classifier import CLASSES, MODEL_CLASSES, _loss

    n = len(MODEL_CLASSES)
    yt = torch.tensor([CLASSES.index("2m"), CLASSES.index("2m")])
    logits = torch.zeros(2, n)
    logits[:, CLASSES.index("2m")] = 4.0
    teacher = torch.zeros(2, len(CLASSES))
    teacher[:, CLASSES.index("3m")] = 4.0  # the starting model reads them as 3m
    real = torch.tensor([True, True])
    slanted = torch.tensor([True, True])
    a = argparse.Namespace(distill=1.0, distill_temp=2.0, undistilled_slant=undistilled)
    plain = _loss(logits, yt, real, None, a)
    loss = _loss(logits, yt, real, teacher, a, slanted)
    assert (float(loss) == pytest.approx(float(plain))) is undistilled
    assert float(_loss(logits, yt, real, teacher, a, torch.tensor([False, False]))) > float(plain)
