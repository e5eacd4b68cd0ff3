"""``--shadow`` and ``--distil``: the finder continued towards what it already does, under a shadow
cast across a patch as without it (:mod:`training.shadow`, :func:`training.train_segmenter._distil_loss`)."""

from __future__ import annotations

import numpy as np
import pytest

import training.train_segmenter as ts


def _samples() -> list:
    tiles = [{"quad": [[40 + 31 * i, 60], [70 + 31 * i, 60], [70 + 31 * i, 100], [40 + 31 * i, 100]]} for i in range(5)]
    img = np.full((200, 260, 3), 200, np.uint8)
    face, core = ts.target_masks(tiles, (200, 260), 1.0)
    quads = [np.array(t["quad"], np.float32) for t in tiles]
    return [ts.Sample(img, face, core, quads, np.ones((200, 260), np.uint8), ts.seam_mask(tiles, (200, 260), 1.0))]


def test_without_a_shadow_the_patches_are_as_before_and_clean_is_the_input():
    data = _samples()
    plain = ts.make_batch(data, np.random.default_rng(1), 6, 64)
    clean = np.empty((6, 3, 64, 64), np.float32)
    xs, ys, ws = ts.make_batch(data, np.random.default_rng(1), 6, 64, clean=clean)
    assert all(np.array_equal(a, b) for a, b in zip((xs, ys, ws), plain))
    assert np.array_equal(clean, xs)


def test_a_shadowed_patch_is_darker_than_its_clean_copy_and_its_targets_stay():
    clean = np.empty((8, 3, 64, 64), np.float32)
    xs, ys, _ = ts.make_batch(_samples(), np.random.default_rng(2), 8, 64, shadow=1.0, clean=clean)
    plain = ts.make_batch(_samples(), np.random.default_rng(2), 8, 64)
    assert (xs <= clean + 1e-6).all() and (xs < clean - 0.05).any(axis=(1, 2, 3)).all()
    assert np.array_equal(ys[0], plain[1][0])  # (nothing moved: the first patch's maps, drawn before its shadow)


def test_distilling_needs_the_finder_it_keeps():
    with pytest.raises(SystemExit):
        ts._arguments(["--distil"])
    assert ts._arguments(["--distil", "--init-onnx", "m.onnx"]).distil


def test_fresh_batches_carry_the_clean_patches_when_distilling(monkeypatch):
    monkeypatch.setattr(ts, "make_sample", lambda seed: _samples()[0])
    monkeypatch.setattr(ts, "FRESH_POOL", 2)
    a = ts._arguments(["--distil", "--init-onnx", "m.onnx", "--shadow", "1", "--batch", "3", "--patch", "64"])
    xs, ys, ws, clean = next(ts.fresh_batches(a, 0))
    assert clean.shape == xs.shape and (xs < clean - 0.05).any(axis=(1, 2, 3)).all()
    a = ts._arguments(["--batch", "3", "--patch", "64"])
    assert len(next(ts.fresh_batches(a, 0))) == 3


def test_the_distil_loss_is_least_where_the_new_maps_are_the_old_ones_of_the_clean_patch():
    torch = pytest.importorskip("torch")
    teacher = ts.build_model().eval()
    clean = torch.rand(2, 3, 64, 64) - 0.5
    with torch.no_grad():
        same = teacher(clean)
    assert ts._distil_loss(same, teacher, clean) < ts._distil_loss(-same, teacher, clean)
    assert ts._distil_loss(same, teacher, clean) < ts._distil_loss(same + 2.0, teacher, clean)
