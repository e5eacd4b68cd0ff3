"""The benchmark's scene tables say how many of the tiles shown as sure are right (the sure
promise: >= 99.5 %), pooled over the photos, and ``-`` for a system that has no sureness."""

from __future__ import annotations

from training.evaluate import SCENE_HEADER, _fmt_summary, _summ


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
