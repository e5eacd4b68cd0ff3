"""``--seam-weight``: the finder's core map weighed more where two tiles meet
(:func:`training.train_segmenter.seam_mask`), so that the cores of touching tiles, and of a tile
lying on another, are taught to stay apart."""

from __future__ import annotations

import numpy as np

import training.train_segmenter as ts


def _tile(x: float, y: float, w: float = 30, h: float = 40) -> dict:
    return {"quad": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}


def test_two_touching_tiles_meet_in_a_band_along_their_shared_edge():
    tiles = [_tile(20, 20), _tile(50, 20)]  # side by side, touching at x = 50
    seam = ts.seam_mask(tiles, (80, 100), 1.0)
    ys, xs = np.nonzero(seam)
    assert len(xs)
    assert xs.min() >= 50 - 0.1 * 30 - 1 and xs.max() <= 50 + 0.1 * 30 + 1  # a band about the edge
    assert ys.min() >= 20 - 0.1 * 40 - 1 and ys.max() <= 60 + 0.1 * 40 + 1
    face, core = ts.target_masks(tiles, (80, 100), 1.0)
    assert not (seam & core).any()  # the cores stay apart: the band lies between them


def test_lone_and_distant_tiles_meet_nowhere():
    assert not ts.seam_mask([_tile(20, 20)], (80, 100), 1.0).any()
    assert not ts.seam_mask([_tile(5, 20), _tile(60, 20)], (80, 100), 1.0).any()


def test_a_tile_lying_on_a_half_hidden_one_meets_it():
    """A pile: the tile beneath is only partly shown (``partial``), yet the two meet."""
    met = ts._met([_tile(30, 20)], [np.array(_tile(45, 30)["quad"], np.float64)])
    assert ts.seam_mask(met, (90, 110), 1.0).sum() > 100


def _samples() -> list:
    tiles = [_tile(40 + 31 * i, 60) for i in range(5)]
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (200, 260, 3), np.uint8)
    face, core = ts.target_masks(tiles, (200, 260), 1.0)
    care = np.ones((200, 260), np.uint8)
    return [
        ts.Sample(
            img,
            face,
            core,
            [np.array(t["quad"], np.float32) for t in tiles],
            care,
            ts.seam_mask(tiles, (200, 260), 1.0),
        )
    ]


def test_without_a_seam_weight_both_maps_weigh_as_the_care_mask():
    xs, ys, ws = ts.make_batch(_samples(), np.random.default_rng(1), 6, 64)
    assert ws.shape[1] == 2 and np.array_equal(ws[:, 0], ws[:, 1])


def test_a_seam_weight_weighs_the_core_map_more_where_tiles_meet_and_only_there():
    data = _samples()
    plain = ts.make_batch(data, np.random.default_rng(1), 6, 64)
    xs, ys, ws = ts.make_batch(data, np.random.default_rng(1), 6, 64, seam_weight=4.0)
    assert np.array_equal(xs, plain[0]) and np.array_equal(ys, plain[1])  # the same patches
    assert np.array_equal(ws[:, 0], plain[2][:, 0])  # the face map as before
    assert (ws[:, 1] >= ws[:, 0]).all() and ws[:, 1].max() > 4.0
    assert (ys[:, 1][ws[:, 1] > 2.0] < 0.5).all()  # where weighed most, the target is no core
