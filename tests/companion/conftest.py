"""Fixtures: a companion app on a fresh data folder with the stand-in recogniser, and its client."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.app import create_app

from .helpers import FakeReading


@pytest.fixture()
def app(tmp_path: Path) -> Flask:
    return create_app(tmp_path / "data", recognizer=lambda data: FakeReading())


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
