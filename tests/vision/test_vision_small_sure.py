"""A reading far smaller than the photo's sure tiles is not shown sure, in the photo's own pixels
(:func:`vision.layout_rules._small_not_sure`), unless it lies among sure readings of its own size.

A photo from a seat is read again straightened, and that view magnifies its far side: a key of a
keyboard beyond the hand comes out a tile's size there and reads as a sure tile. In the photo it is
a fifth of a tile's area, alone; another player's row across the table is small too, but its tiles
lie side by side at one size.

A reading far smaller than the sure tiles lying beyond it, right in front of them, is dropped
(:func:`vision.layout_rules._drop_smaller_in_front`): a set's tiles nearer the camera are never
smaller.
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


# ----------------------------------------------------------------------------------------------
# a reading far smaller than the sure tiles beyond it lies in front of them: no tile of the set


def _row_of_small(readings, by: float, below: float, across: float) -> list:
    """Four readings of ``1p``, sure, ``by`` the size of the hand's first tile, side by side in a
    row whose top lies ``below`` pixels under the hand's lowest box, starting ``across`` pixels
    right of the hand's leftmost box (negative: left of it)."""
    r = readings[0]
    lows = np.concatenate([q.quad for q in readings])
    w = float(np.linalg.norm(r.quad[1] - r.quad[0]))
    h = float(np.linalg.norm(r.quad[3] - r.quad[0]))
    x0, y0 = lows[:, 0].min() + across, lows[:, 1].max() + below + by * h / 2
    return [boxed_as(r, _shrunk(r.quad, by, np.array([x0 + (k + 0.5) * by * w * 1.1, y0])), "1p") for k in range(4)]


def test_readings_far_smaller_in_front_of_the_hand_are_dropped(scene_11):
    """Red dots of scoring sticks in front of a hand read as sure ``1p``: a tenth of the hand's
    tiles' area, below them in the photo, right in front of them. Tiles nearer the camera are
    never smaller."""
    _ph, readings, _labelled = scene_11
    dots = _row_of_small(readings, 0.3, 40.0, 0.0)
    assert layout_rules_module._drop_smaller_in_front([*readings, *dots]) == readings


def test_smaller_readings_beyond_or_beside_the_hand_or_not_that_small_stay(scene_11):
    """The rule's bounds: a row as small beyond the hand (another player's tiles), a row as small
    in front but off to the side of every tile of the hand (nothing right behind it), and a row in
    front at 0.6 of the hand's size (0.36 of its area: a face seen squatter) all stay."""
    _ph, readings, _labelled = scene_11
    r = readings[0]
    step = (r.quad[1] - r.quad[0]).astype(np.float64) * 0.33
    beyond = [boxed_as(r, _shrunk(r.quad, 0.3, r.quad.mean(0) + [0.0, -6 * 40.0] + k * step), "9m") for k in range(4)]
    width = float(np.ptp(np.concatenate([q.quad for q in readings])[:, 0]))
    beside = _row_of_small(readings, 0.3, 40.0, width + 100.0)
    squatter = _row_of_small(readings, 0.6, 40.0, 0.0)
    for row in (beyond, beside, squatter):
        assert layout_rules_module._drop_smaller_in_front([*readings, *row]) == [*readings, *row]
    assert layout_rules_module._drop_smaller_in_front(readings) == readings
