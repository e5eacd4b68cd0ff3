"""A find boxed turned the wrong way, read as no tile, read again with a tile's box placed at its
centre at every turn (:func:`vision.placed_boxes._unread_finds_turned`).

In a loose pile the tiles lie at every turn, and the finder can box a tile turned across it: the
box takes in the table or the next tile at its corners and leaves the tile's own out, and its crop
reads as no tile. A tile's box (the readings' median sides) is placed at the find's centre at each
turn of :data:`vision.placed_boxes.TURNED_STEPS`; the turn read most surely as a tile with artwork,
at a place no reading holds, is kept, never shown as sure.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.first_reading import reading_of
from training.evaluate import quad_iou
from vision import placed_boxes as placed_boxes_module


def _turned(r, degrees: float, grow: float = 1.15):
    """The candidate of the reading ``r`` with its box turned ``degrees`` about its centre and grown
    ``grow`` times: a find boxed across its tile."""
    q = r.candidate.quad.astype(np.float64)
    c = q.mean(0)
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    moved = (q - c) @ turn.T * grow + c
    return dataclasses.replace(r.candidate, quad=moved.astype(np.float32), crops=())


@pytest.mark.parametrize("degrees", [35.0, -40.0])
def test_a_tile_boxed_turned_across_it_is_read(scene_11, degrees):
    ph, readings, labelled = scene_11
    code, quad = labelled[-2]  # the 7s at the right end of the meld
    assert code == "7s"
    r = reading_of(readings, quad)
    others = [x for x in readings if x is not r]
    found = placed_boxes_module._unread_finds_turned(ph, [_turned(r, degrees)], others, None)
    assert [x.top[0][0] for x in found] == ["7s"]
    assert quad_iou(found[0].quad, quad) > 0.6
    assert not found[0].sure


def test_a_find_at_a_place_held_or_of_another_size_is_not_read_again(scene_11):
    ph, readings, labelled = scene_11
    _, quad = labelled[-2]
    r = reading_of(readings, quad)
    others = [x for x in readings if x is not r]
    # the tile's own reading holds the place: nothing is placed there
    assert placed_boxes_module._unread_finds_turned(ph, [_turned(r, 35.0)], readings, None) == []
    # a find six times a tile's area is no tile boxed across
    assert placed_boxes_module._unread_finds_turned(ph, [_turned(r, 35.0, grow=2.5)], others, None) == []


def test_a_turned_box_of_table_reads_no_tile(scene_11):
    ph, readings, labelled = scene_11
    _, quad = labelled[-2]
    r = reading_of(readings, quad)
    cloth = dataclasses.replace(r.candidate, quad=r.candidate.quad + np.float32([0, 250]), crops=())
    assert (
        placed_boxes_module._unread_finds_turned(
            ph, [_turned(dataclasses.replace(r, candidate=cloth), 30.0)], readings, None
        )
        == []
    )


def test_no_box_is_placed_without_tiles_to_measure_on(scene_11):
    ph, readings, labelled = scene_11
    _, quad = labelled[-2]
    r = reading_of(readings, quad)
    assert placed_boxes_module._unread_finds_turned(ph, [_turned(r, 35.0)], [], None) == []


def test_a_tile_box_is_centred_and_turned():
    box = placed_boxes_module._tile_box(np.array([100.0, 50.0]), 30.0, 40.0, 90.0)
    assert np.allclose(box.mean(0), [100.0, 50.0])
    assert np.allclose(box[1] - box[0], [0.0, 30.0], atol=1e-9)  # (the top side turned to point down)
    assert np.isclose(placed_boxes_module._turn_of(box), 90.0)
