"""Table (c5)'s count of the labelled tiles a reading missed, by suit (:func:`training.evaluate.misses_by_suit`)."""

from __future__ import annotations

from collections import Counter

import pytest

from training.evaluate import SUITS_SHOWN, misses_by_suit


@pytest.mark.parametrize(
    ("rows", "missed"),
    [
        ([], {}),
        # every label read: nothing missed, whatever was read beyond them
        ([{"labels": ["1m", "2m", "3m"], "pred": ["3m", "1m", "2m", "9p"]}], {}),
        # a chrysanthemum read as autumn: one flower missed, the extra reading is no miss
        ([{"labels": ["1m", "3f", "4f"], "pred": ["1m", "7f", "4f"]}], {"f": 1}),
        # multisets: two 2p labelled, one read
        ([{"labels": ["2p", "2p", "5z"], "pred": ["2p", "3p", "5z"]}], {"p": 1}),
        # summed over photos, backs and honours by their own names
        (
            [
                {"labels": ["back", "back", "1z"], "pred": ["back"]},
                {"labels": ["7z", "8s"], "pred": []},
            ],
            {"back": 1, "z": 2, "s": 1},
        ),
    ],
)
def test_misses_are_counted_by_suit(rows, missed):
    assert misses_by_suit(rows) == Counter(missed)


def test_the_table_shows_every_suit_a_tile_has():
    assert set(SUITS_SHOWN) == {"m", "p", "s", "z", "f", "back"}
