"""A reading far smaller than the photo's sure tiles is not shown sure, in the photo's own pixels
(:func:`vision.layout_rules._small_not_sure`), unless it lies among sure readings of its own size.

A photo from a seat is read again straightened, and that view magnifies its far side: a key of a
keyboard beyond the hand comes out a tile's size there and reads as a sure tile. In the photo it is
a fifth of a tile's area, alone; another player's row across the table is small too, but its tiles
lie side by side at one size.
"""

from __future__ import annotations

import numpy as np

from tests.first_reading import boxed_as, reading_of
from vision import layout_rules as layout_rules_module


def _shrunk(q: np.ndarray, by: float, to: np.ndarray) -> np.ndarray:
    """``q`` shrunk ``by`` about its centre and moved so that its centre lies at ``to``."""
    q = q.astype(np.float64)
    return (q - q.mean(0)) * by + to


def test_a_lone_small_sure_reading_is_not_sure_and_stays(scene_11):
    _ph, readings, labelled = scene_11
    r = reading_of(readings, labelled[13][1])
    key = boxed_as(r, _shrunk(r.quad, 0.4, r.quad.mean(0) + [0.0, -6 * 40.0]), "7z")
    out = layout_rules_module._small_not_sure([*readings, key])
    assert out[:-1] == readings  # (the tiles of the hand as they were)
    assert out[-1].top == key.top and not out[-1].sure


def test_a_row_of_small_sure_readings_stays_sure(scene_11):
    _ph, readings, labelled = scene_11
    r = reading_of(readings, labelled[13][1])
    step = (r.quad[1] - r.quad[0]).astype(np.float64) * 0.45
    far = [boxed_as(r, _shrunk(r.quad, 0.45, r.quad.mean(0) + [0.0, -6 * 40.0] + k * step), "9m") for k in range(4)]
    out = layout_rules_module._small_not_sure([*readings, *far])
    assert out == [*readings, *far]
