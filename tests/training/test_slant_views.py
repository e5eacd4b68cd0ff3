"""The benchmark's (c3) views: degrees off straight above, the camera's distance, and its roll."""

from __future__ import annotations

import argparse

import pytest

from training.evaluate import _shares, _view_name, slant_views
from training.viewpoint import DISTANCE


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
