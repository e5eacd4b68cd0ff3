"""The batched geometry helpers give, for many quads at once, exactly what their one-quad
counterparts give for each: the recogniser's readings must not move by a bit when a loop over
tiles becomes one array operation (session 45)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import readings as readings_module
from vision.finders import learned
from vision.finders.geometry import order_quad, order_quads

_rects = st.tuples(
    st.floats(0, 2000),
    st.floats(0, 2000),
    st.floats(0.5, 200),
    st.floats(0.5, 200),
    st.one_of(st.sampled_from([0.0, 45.0, 90.0, -45.0, 89.99, 0.01]), st.floats(-90, 90)),
    st.sampled_from([1.0, 2.0, 3.125, 0.8]),
)


def _one_by_one(pts: np.ndarray) -> np.ndarray:
    """The rule :func:`order_quad` implements, worked point by point in plain floats (the finder's
    own code before session 45): the reference the batched ordering must match exactly."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    xy = pts.tolist()
    # (summed from the first point: Python's sum() starts at 0, and 0 + -0.0 is 0.0, a sign that
    # only points on the line y = -0 show, where the turn of a point on it flips by a half-turn)
    cx, cy = (((xy[0][0] + xy[1][0]) + xy[2][0]) + xy[3][0]) / 4, (((xy[0][1] + xy[1][1]) + xy[2][1]) + xy[3][1]) / 4
    order = sorted(range(4), key=lambda i: math.atan2(xy[i][1] - cy, xy[i][0] - cx))
    xy = [xy[i] for i in order]

    def key(s: int) -> tuple[float, float]:
        (x0, y0), (x1, y1) = xy[s], xy[(s + 1) % 4]
        return abs(math.atan2(y1 - y0, x1 - x0)), (y0 + y1) / 2

    starts = [s for s in range(4) if xy[(s + 1) % 4][0] - xy[s][0] > 0]
    best = min(starts, key=key) if starts else 0
    return pts[[order[(best + k) % 4] for k in range(4)]]


def _box(cx: float, cy: float, w: float, h: float, angle: float, scale: float) -> np.ndarray:
    """A rectangle's corners as the learned finder makes them (``cv2.boxPoints``, then scaled)."""
    return cv2.boxPoints(((cx, cy), (w, h), angle)) * scale


@settings(max_examples=200, deadline=None)
@given(st.lists(_rects, min_size=1, max_size=40))
def test_order_quads_orders_each_rectangle_as_order_quad(rects):
    assert all(np.array_equal(order_quad(b), _one_by_one(b)) for b in (_box(*r) for r in rects))
    boxes = [_box(*r) for r in rects]
    assert np.array_equal(order_quads(np.stack(boxes)), np.stack([_one_by_one(b) for b in boxes]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.floats(-500, 3000), min_size=8, max_size=8), min_size=1, max_size=20))
def test_order_quads_orders_any_four_points_as_order_quad(points):
    quads = np.array(points, np.float32).reshape(-1, 4, 2)
    assert np.array_equal(order_quads(quads), np.stack([_one_by_one(q) for q in quads]))


def test_order_quads_of_squares_turned_45_degrees_and_points_that_coincide():
    """Ties: a square turned 45 degrees has two edges equally level; four equal points none."""
    quads = np.stack(
        [
            _box(10, 10, 8, 8, 45.0, 1.0),
            np.zeros((4, 2), np.float32),
            np.array([[1, 1], [1, 1], [2, 2], [2, 2]], np.float32),
        ]
    )
    assert np.array_equal(order_quads(quads), np.stack([_one_by_one(q) for q in quads]))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.floats(-500, 3000), min_size=8, max_size=8), min_size=0, max_size=20), st.booleans())
def test_areas_and_centres_of_many_quads_are_those_of_each(points, mixed):
    quads = [np.array(p, np.float64).reshape(4, 2) for p in points]
    if mixed:  # (quads of two precisions: each worked in its own)
        quads = [q.astype(np.float32) if i % 2 else q for i, q in enumerate(quads)]
    assert readings_module._quad_areas(quads).tolist() == [readings_module._quad_area(q) for q in quads]
    assert np.array_equal(
        readings_module._centres(quads), np.array([q.mean(0) for q in quads], np.float64).reshape(-1, 2)
    )


def test_one_find_is_a_speck_as_a_list_of_it_is():
    rng = np.random.default_rng(45)
    for _ in range(500):
        t = learned.LearnedTile(rng.uniform(0, 40, (4, 2)).astype(np.float32), False, False, False, 1.0, 1, 2)
        r = float(rng.uniform(0.1, 2.0))
        assert learned._speck(t, r) == learned._specks([t], r)
