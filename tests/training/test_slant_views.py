"""The benchmark's (c3) views: degrees off straight above, the camera's distance, and its roll; and
(c14)'s, seen from a seat and turned a quarter."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from training.evaluate import REAL_CHANGES, _shares, _view_name, slant_views, turned_views
from training.viewpoint import DISTANCE, slanted_turned


@pytest.mark.parametrize(
    ("spec", "views"),
    [
        ("30,45,55", [(30.0, DISTANCE, 0.0), (45.0, DISTANCE, 0.0), (55.0, DISTANCE, 0.0)]),
        ("50@0.8", [(50.0, 0.8, 0.0)]),
        (" 45 , 50@0.6,", [(45.0, DISTANCE, 0.0), (50.0, 0.6, 0.0)]),
        ("50r8,50@0.8r-8", [(50.0, DISTANCE, 8.0), (50.0, 0.8, -8.0)]),
        ("", []),
    ],
)
def test_slant_views_are_read_from_the_option(spec, views):
    assert slant_views(spec) == views


def test_a_view_is_named_by_its_angle_and_a_closer_camera():
    assert _view_name((45.0, DISTANCE, 0.0)) == "45 deg"
    assert _view_name((50.0, 0.8, 0.0)) == "50 deg, 0.8 away"
    assert _view_name((50.0, DISTANCE, 8.0)) == "50 deg, turned 8"


def test_a_view_that_is_not_a_number_is_an_error():
    with pytest.raises(ValueError):
        slant_views("steep")
    with pytest.raises(ValueError):
        slant_views("50rr8")


@pytest.mark.parametrize(("spec", "shares"), [("0.12,0.15,0.2", [0.12, 0.15, 0.2]), (" 0.3 ,", [0.3]), ("", [])])
def test_far_shares_are_read_from_the_option(spec, shares):
    assert _shares(spec) == shares


@pytest.mark.parametrize("spec", ["0", "1.5", "0.2,-0.1"])
def test_a_share_outside_the_width_is_refused(spec):
    with pytest.raises(argparse.ArgumentTypeError, match="between 0 and 1"):
        _shares(spec)


@pytest.mark.parametrize(
    ("spec", "views"),
    [
        ("45:1,45:3,55:1,55:3", [(45.0, 1), (45.0, 3), (55.0, 1), (55.0, 3)]),
        (" 50:5 , 30", [(50.0, 1), (30.0, 1)]),
        ("", []),
    ],
)
def test_turned_seats_are_read_from_the_option(spec, views):
    """(c14): degrees off straight above, and quarter turns counter-clockwise (a quarter where none
    is said)."""
    assert turned_views(spec) == views


def test_a_turned_seat_that_is_not_a_number_is_an_error():
    with pytest.raises(argparse.ArgumentTypeError, match="degrees:quarters"):
        turned_views("45:once")


def test_a_turned_view_is_named_by_its_angle_and_its_turn():
    name = REAL_CHANGES["c14"][2]
    assert name((45.0, 1)) == "45 deg, turned counter-clockwise"
    assert name((55.0, 3)) == "55 deg, turned clockwise"


def test_a_photo_seen_from_a_seat_and_turned_lies_across_and_keeps_its_labels():
    img = np.full((300, 400, 3), 90, np.uint8)
    img[100:200, 150:250] = 250
    ok, raw = cv2.imencode(".png", img)
    (view, name, jpeg, labels), *_ = slanted_turned([("p", raw.tobytes(), ["1m", "2m"])], [(45.0, 1)])
    seen = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert (view, name, labels) == ((45.0, 1), "p", ["1m", "2m"])
    assert seen.shape[0] > seen.shape[1]  # (a landscape photo, turned: portrait)
