"""The benchmark's scene tables say how many of the tiles shown as sure are right (the sure
promise: >= 99.5 %), pooled over the photos, and ``-`` for a system that has no sureness; the
labelled real photos' tables, at the least and at the most."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from training.evaluate import SCENE_HEADER, _fmt_summary, _summ, _sure_range, sure_wrong_bounds


def _row(sure: int, right: int) -> dict:
    return {
        "n_gt": 10,
        "n_pred": 10,
        "multiset_hits": 10,
        "order_acc": 1.0,
        "exact": True,
        "found": 10,
        "read": 10,
        "exact_photo": True,
        "ms": 50.0,
        "sure": sure,
        "sure_right": right,
    }


def test_sure_tiles_right_are_pooled_over_the_photos():
    s = _summ([_row(8, 8), _row(12, 11)])
    assert (s["sure"], s["sure_right"]) == (20, 19)
    cells = dict(zip(SCENE_HEADER, _fmt_summary("ours", s)))
    assert cells["sure right"] == " 95.0% of 20"


def test_a_system_without_sureness_shows_a_dash():
    row = _row(0, 0)
    del row["sure"], row["sure_right"]
    cells = dict(zip(SCENE_HEADER, _fmt_summary("detector", _summ([row]))))
    assert cells["sure right"] == "-" and cells["found"] == "100.0%"
    assert dict(zip(SCENE_HEADER, _fmt_summary("ours", _summ([_row(0, 0)]))))["sure right"] == "- of 0"


def _tile(code: str, sure: bool = True) -> SimpleNamespace:
    return SimpleNamespace(code=code, sure=sure)


@pytest.mark.parametrize(
    ("labels", "read", "bounds", "why"),
    [
        ("1m 2m 3m", "1m 2m 3m", (0, 0), "read right, in order"),
        ("1m 2m 3m", "1m 5m 3m", (1, 1), "a sure reading of a tile the photo has not"),
        ("1m 2m 3m", "1m 5m? 3m", (0, 0), "... shown unsure"),
        ("1m 2m 3m", "1m 2m 3m 7p", (1, 1), "a sure tile where there is none"),
        ("1m 2m 3m 4m", "3m 4m 1m 2m", (0, 4), "rows read in the wrong order: every reading right, or none"),
        ("1m 2m 2m", "1m 1m 2m", (1, 1), "one of two 1m is wrong, and it is the sure one"),
    ],
)
def test_a_labelled_photo_bounds_its_wrong_sure_tiles(labels, read, bounds, why):
    """A labelled real photo gives its tiles' codes in reading order but not their places, so how
    many sure readings are wrong is bounded from both sides (by counts, by an alignment)."""
    tiles = [_tile(c.rstrip("?"), not c.endswith("?")) for c in read.split()]
    assert sure_wrong_bounds(labels.split(), tiles) == bounds, why


def _labelled_row(sure: int, wrong: tuple[int, int]) -> dict:
    """A labelled photo's row: no places, so no tiles found or read, and the sure tiles' wrong
    readings as bounds."""
    row = {k: v for k, v in _row(sure, 0).items() if k not in ("found", "read", "exact_photo", "sure_right")}
    return {**row, "sure_wrong": wrong}


def test_the_labelled_photos_sure_column_gives_the_range():
    rows = [_labelled_row(200, (1, 3)), _labelled_row(200, (0, 0))]
    s = _summ(rows)
    assert s["sure_right_range"] == [397, 399]
    assert _sure_range(s) == "99.2-99.8% of 400"
    assert _sure_range(_summ(rows[1:])) == "100.0% of 200"
    assert _sure_range(_summ([{k: v for k, v in rows[0].items() if k not in ("sure", "sure_wrong")}])) == "-"


def test_labels_without_order_are_scored_as_multisets():
    """Table (c7) pastes several labelled photos into one: its labels have no order."""
    from training.evaluate import sequence_scores, sure_wrong_unordered

    gt, pred = ["1m", "2m", "3p"], ["3p", "1m", "2m"]
    assert sequence_scores(gt, pred)["exact"] is False
    unordered = sequence_scores(gt, pred, ordered=False)
    assert unordered["exact"] is True and unordered["order_acc"] != unordered["order_acc"]  # (NaN)
    tiles = [SimpleNamespace(code=c, sure=s) for c, s in (("3p", True), ("1m", True), ("1m", True), ("2m", False))]
    # one 1m too many, both sure: at least one sure reading is wrong, at most both
    assert sure_wrong_unordered(gt, tiles) == (1, 2)
    assert sure_wrong_unordered(gt, tiles[:2] + tiles[3:]) == (0, 0)


def test_hand_scores_count_the_tiles_marked_as_the_hand_against_the_hands_labels():
    """(c7)'s hand table: photos whose hand is known are scored as multisets, the others left out."""
    from training.evaluate import hand_scores

    rows = [
        {"hand_labels": ["1m", "2m", "3m"], "hand_pred": ["3m", "1m", "2m"]},  # exact, in any order
        {"hand_labels": ["5p", "5p", "6p", "7p"], "hand_pred": ["5p", "6p", "9s"]},  # 2 of 4 marked, 1 stray
        {"hand_labels": None, "hand_pred": ["1z"]},  # a grid near the camera: not scored
    ]
    assert hand_scores(rows) == {"photos": 2, "exact": 1, "recall": 5 / 7, "precision": 5 / 6}
    empty = hand_scores(rows[2:])
    assert empty["photos"] == 0 and empty["recall"] != empty["recall"]  # (NaN: nothing to score)
