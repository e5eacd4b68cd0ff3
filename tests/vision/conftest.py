"""Fixtures shared by the vision tests."""

from __future__ import annotations

import pytest

from tests.first_reading import first_reading


@pytest.fixture(scope="module")
def scene_11() -> tuple:
    """scene_11 (a hand of 16 on a cloth) loaded, its first reading, and its labelled tiles in the
    working image's pixels (:func:`tests.first_reading.first_reading`)."""
    return first_reading("scene_11")
