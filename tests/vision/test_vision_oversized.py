"""A find whose box is half as large again as the tiles beside it, read as no tile, read again in
parts of their size (:func:`vision.placed_boxes._oversized_read_again`).

In a pile a tile lies on others, and the finder's box round its face can take in the edge or the
face of the tile under it: the crop reads as no tile while the tile is plain to see. The parts are
the tiles' size, at the ends, quarters and middle of each of the box's sides; the part read surely
as a tile with artwork, at a place no reading holds, is kept, never shown as sure. In a photo
without backs, the parts are read by the classifier's own network alone (no featureless reading
of a part is taken there). A box over two whole tiles (up to four tiles' area) gives both, each
from a part of its own.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.first_reading import reading_of
from training.evaluate import quad_iou
from vision import placed_boxes as placed_boxes_module
from vision import readings as readings_module
from vision.finders import Candidate


def _grown(r, right: float, left: float = 0.0):
    """The candidate of the reading ``r`` with its box grown along its top edge by ``right`` (and
    ``left``) times its width, as a find that took in what lies beside the tile."""
    q = r.candidate.quad.astype(np.float64)
    u = q[1] - q[0]
    grown = q + np.array([-u * left, u * right, u * right, -u * left])
    return dataclasses.replace(r.candidate, quad=grown.astype(np.float32), crops=())


def test_a_tile_boxed_with_the_table_beside_it_is_read(scene_11):
    ph, readings, labelled = scene_11
    code, quad = labelled[-2]  # the 7s at the right end of the meld
    assert code == "7s"
    r = reading_of(readings, quad)
    others = [x for x in readings if x is not r]
    found = placed_boxes_module._oversized_read_again(ph, [_grown(r, 0.6)], others, None)
    assert [x.top[0][0] for x in found] == ["7s"]
    assert quad_iou(found[0].quad, quad) > 0.6
    assert not found[0].sure


def test_the_part_over_a_tile_read_already_is_not_taken(scene_11):
    """The box takes in half the 8p beside the 7s: the 8p's place is held, the 7s's is not."""
    ph, readings, labelled = scene_11
    code, quad = labelled[-2]
    r = reading_of(readings, quad)
    others = [x for x in readings if x is not r]
    found = placed_boxes_module._oversized_read_again(ph, [_grown(r, 0.0, left=0.6)], others, None)
    assert [x.top[0][0] for x in found] == ["7s"]
    assert quad_iou(found[0].quad, quad) > 0.6


def test_a_box_of_table_and_a_box_of_a_tile_s_size_are_not_read_again(scene_11):
    ph, readings, labelled = scene_11
    _, quad = labelled[-2]
    r = reading_of(readings, quad)
    others = [x for x in readings if x is not r]
    table = dataclasses.replace(r.candidate, quad=(r.candidate.quad + np.float32([0, 250])) * 1.0, crops=())
    table = _grown(dataclasses.replace(r, candidate=table), 0.6)  # (1.6 tiles of cloth below the row)
    assert placed_boxes_module._oversized_read_again(ph, [table], others, None) == []
    # a find of the tiles' own size read as no tile is for the other rules: not read in parts
    assert placed_boxes_module._oversized_read_again(ph, [r.candidate], others, None) == []


def test_a_tile_a_quarter_off_in_a_box_twice_its_width_is_read(scene_11):
    """The box takes in a quarter of a tile on one side and three quarters on the other: the tile
    lies a quarter of the box's slack from its end, where only a part at the quarters fits it."""
    ph, readings, labelled = scene_11
    code, quad = labelled[-2]
    r = reading_of(readings, quad)
    others = [x for x in readings if x is not r]
    for right, left in ((0.75, 0.25), (0.25, 0.75)):
        found = placed_boxes_module._oversized_read_again(ph, [_grown(r, right, left)], others, None)
        assert [x.top[0][0] for x in found] == ["7s"], (right, left)
        assert quad_iou(found[0].quad, quad) > 0.8
        assert not found[0].sure


def _row_end(scene_11):
    """scene_11's 7p and 9p (side by side at the right end of the hand's row), their readings, the
    rest."""
    ph, readings, labelled = scene_11
    (c7, q7), (c9, q9) = labelled[10], labelled[11]
    assert (c7, c9) == ("7p", "9p")
    r7, r9 = reading_of(readings, q7), reading_of(readings, q9)
    return ph, (q7, q9), r9, [x for x in readings if x is not r7 and x is not r9]


@pytest.mark.parametrize(
    ("right", "why"),
    [
        (0.1, "two tiles and a margin: 2.2 tiles' area"),
        (1.2, "two tiles and more than a tile of cloth beside them: 3.25 tiles' area"),
    ],
)
def test_a_find_over_two_whole_tiles_gives_both(scene_11, right, why):
    """One find boxes two tiles side by side (as two birds of ``1s`` at a photo's edge came out in a
    set no model saw), read as no tile, and neither tile has a find of its own: each is read from
    a part of its own, never shown as sure."""
    ph, (q7, q9), r9, others = _row_end(scene_11)
    found = placed_boxes_module._oversized_read_again(ph, [_grown(r9, right, left=1.05)], others, None)
    assert sorted(x.top[0][0] for x in found) == ["7p", "9p"], why
    by_code = {x.top[0][0]: x for x in found}
    assert quad_iou(by_code["7p"].quad, q7) > 0.6 and quad_iou(by_code["9p"].quad, q9) > 0.6, why
    assert not any(x.sure for x in found)


def test_two_parts_of_one_find_on_one_tile_are_one_tile():
    """Parts of one find are two tiles only where they lie a tile's width apart (or nearly)."""
    a = np.array([[0, 0], [30, 0], [30, 40], [0, 40]], np.float64)

    def side_by_side(b: np.ndarray) -> bool:
        kept = [readings_module.Reading(Candidate(a), a, 0, [])]
        return readings_module._empty_places([b], kept, placed_boxes_module.OVERSIZED_PARTS_APART)[0]

    assert side_by_side(a + [30, 0])
    assert side_by_side(a + [0, 40])
    assert not side_by_side(a + [15, 0])
    assert not side_by_side(a + [22, 0])


def test_a_find_four_tiles_large_and_more_is_not_read_in_parts(scene_11):
    """A box of 4.2 tiles' area over the two tiles and cloth: more than one tile boxed with a
    little of others (a find that size is a patch of the room, or a row the finder ran together)."""
    ph, _quads, r9, others = _row_end(scene_11)
    assert placed_boxes_module._oversized_read_again(ph, [_grown(r9, 2.15, left=1.05)], others, None) == []


class _Counting:
    """The shipped classifier, counting how often :meth:`without_fallback` is asked for."""

    def __init__(self):
        from vision.classifier import get_classifier

        self.clf, self.alone = get_classifier(), 0

    def __getattr__(self, name):
        return getattr(self.clf, name)

    def without_fallback(self):
        self.alone += 1
        return self.clf.without_fallback()


def test_in_a_photo_without_backs_the_parts_are_read_without_the_fallback(scene_11):
    ph, readings, labelled = scene_11
    code, quad = labelled[-2]
    r = reading_of(readings, quad)
    others = [x for x in readings if x is not r]
    clf = _Counting()
    found = placed_boxes_module._oversized_read_again(ph, [_grown(r, 0.6)], others, clf)
    assert [x.top[0][0] for x in found] == ["7s"]
    assert clf.alone == 1


def test_the_parts_have_the_tiles_size_at_the_ends_quarters_and_middle_of_the_box_s_sides():
    box = np.array([[0, 0], [30, 0], [30, 40], [0, 40]], np.float64)
    parts = placed_boxes_module._parts_of(box, 20.0, 30.0)
    # upright 20 x 30: five places along each side, 25; lying 30 x 20 fills the width: five down it
    assert len(parts) == 30
    lefts = sorted({round(float(p[:, 0].min()), 6) for p in parts if np.ptp(p[:, 0]) < 25})
    assert lefts == [0.0, 2.5, 5.0, 7.5, 10.0]
    sides = {tuple(sorted(np.round([np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[3] - p[0])], 6))) for p in parts}
    assert sides == {(20.0, 30.0)}
    assert all(p.min() >= -1e-9 and p[:, 0].max() <= 30 + 1e-9 and p[:, 1].max() <= 40 + 1e-9 for p in parts)
    # a box too small for the tile either way round has no parts
    assert placed_boxes_module._parts_of(box * 0.5, 20.0, 30.0) == []
