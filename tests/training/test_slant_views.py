"""The benchmark's (c3) views: degrees off straight above, and the camera's distance."""

from __future__ import annotations

import pytest

from training.evaluate import _view_name, slant_views
from training.viewpoint import DISTANCE


@pytest.mark.parametrize(
    ("spec", "views"),
    [
        ("30,45,55", [(30.0, DISTANCE), (45.0, DISTANCE), (55.0, DISTANCE)]),
        ("50@0.8", [(50.0, 0.8)]),
        (" 45 , 50@0.6,", [(45.0, DISTANCE), (50.0, 0.6)]),
        ("", []),
    ],
)
def test_slant_views_are_read_from_the_option(spec, views):
    assert slant_views(spec) == views


def test_a_view_is_named_by_its_angle_and_a_closer_camera():
    assert _view_name((45.0, DISTANCE)) == "45 deg"
    assert _view_name((50.0, 0.8)) == "50 deg, 0.8 away"


def test_a_view_that_is_not_a_number_is_an_error():
    with pytest.raises(ValueError):
        slant_views("steep")
