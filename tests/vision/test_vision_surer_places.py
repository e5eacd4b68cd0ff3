"""A place one reading holds only unsurely, where another reading of the same photo is sure
(:func:`vision.looks_again._surer_at_places`): a pile read again turned 45 degrees, a photo from a
seat read straightened and as taken.

The other reading's tile takes the place where it is sure and every reading there was read under
``TURNED_READ_MIN`` and ``TURNED_SURER_BY`` less surely; between the faces a squashed view reads a
stroke more or less on (``SQUASHED_ALIKE``: one, two and three characters) it never does.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import looks_again as looks_again_module
from vision.finders import Candidate
from vision.readings import Reading


def _at(x: float, code: str, p: float, sure: bool) -> Reading:
    """A reading of ``code`` at ``p`` on a 60 x 84 face centred at (``x``, 300)."""
    q = np.array([[x - 30, 258], [x + 30, 258], [x + 30, 342], [x - 30, 342]], np.float64)
    return Reading(Candidate(q.astype(np.float32)), q, 0, [(code, p)], sure)


@pytest.mark.parametrize(
    ("held", "other", "taken"),
    [
        (("6m", 0.5), ("7m", 0.99), True),  # (unsure there, sure here: the sure tile)
        (("7m", 0.6), ("7m", 0.95), True),  # (the same tile, surely: its sure reading)
        (("6m", 0.85), ("7m", 0.99), False),  # (surer by under TURNED_SURER_BY)
        (("6m", 0.92), ("7m", 1.0), False),  # (held at TURNED_READ_MIN or more)
    ],
)
def test_a_place_held_unsurely_takes_the_sure_reading(held, other, taken):
    kept = [_at(100, "1p", 1.0, True), _at(170, *held, False), _at(240, "9p", 1.0, True)]
    sure = _at(172, *other, True)
    left, surer = looks_again_module._surer_at_places([sure], kept)
    assert (surer == [sure]) is taken
    assert (kept[1] in left) is not taken
    assert kept[0] in left and kept[2] in left


def test_an_unsure_reading_takes_no_place():
    kept = [_at(170, "6m", 0.3, False)]
    assert looks_again_module._surer_at_places([_at(170, "7m", 0.99, False)], kept) == (kept, [])


def test_an_empty_place_is_not_taken_here():
    """(what lies at places left empty is :func:`_at_empty_places`'s)"""
    kept = [_at(100, "1p", 1.0, True)]
    assert looks_again_module._surer_at_places([_at(300, "7m", 0.99, True)], kept) == (kept, [])


@pytest.mark.parametrize(("held", "other"), [("2m", "3m"), ("3m", "2m"), ("1m", "2m")])
def test_a_stroke_more_or_less_seen_squashed_takes_no_place(held, other):
    alike = looks_again_module.SQUASHED_ALIKE
    kept = [_at(170, held, 0.6, False)]
    assert looks_again_module._surer_at_places([_at(170, other, 0.99, True)], kept, alike) == (kept, [])
    left, surer = looks_again_module._surer_at_places([_at(170, "5m", 0.99, True)], kept, alike)
    assert left == [] and len(surer) == 1  # (another face: taken)
