"""The off-tile rule for hard negatives mined from phone-like scenes, and the featureless filter."""

from __future__ import annotations

import numpy as np
import pytest

from training.negatives import OFF_TILE, _on_tile_fraction
from training.train_classifier import _middle_std


def _box(x0: float, y0: float, w: float, h: float) -> np.ndarray:
    return np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float32)


TILES = [_box(100, 100, 40, 52), _box(142, 100, 40, 52)]

# (proposal, share of it on a tile, whether it is mined as a negative)
CASES = [
    (_box(300, 300, 40, 52), 0.0, True),  # on the table, far from every tile
    (_box(100, 100, 40, 52), 1.0, False),  # a tile itself
    (_box(121, 100, 40, 52), 0.95, False),  # straddling two tiles: may be half a real tile, left out
    (_box(130, 140, 40, 52), 0.23, False),  # partly over a tile
    (_box(100, 148, 40, 52), 0.08, True),  # below the row, grazing it
]


@pytest.mark.parametrize(("proposal", "share", "negative"), CASES)
def test_only_proposals_off_every_tile_are_negatives(proposal, share, negative):
    got = _on_tile_fraction(proposal, TILES, (600, 600, 3))
    assert got == pytest.approx(share, abs=0.03)
    assert (got <= OFF_TILE) == negative


def test_middle_std_sees_only_the_middle():
    crop = np.full((128, 96, 3), 200, np.uint8)
    crop[:10] = 0  # a dark edge: a tile border or a rack, outside the middle
    assert _middle_std(crop) == 0.0
    crop[60:70, 40:50] = 0  # print in the middle
    assert _middle_std(crop) > 10
