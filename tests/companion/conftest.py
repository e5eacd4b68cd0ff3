"""Fixtures: a companion app on a fresh data folder with the stand-in recogniser, and its client;
for the storage tests, the same over both back ends (``any_app``, ``database_url``): SQLite in the
test's folder, and PostgreSQL in a new database on a throwaway server started once per session
(:mod:`bench.pgcluster`; skipped, saying why, where PostgreSQL is not installed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from bench import pgcluster
from companion.app import create_app

from .helpers import FakeReading

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture()
def app(tmp_path: Path) -> Flask:
    return create_app(tmp_path / "data", recognizer=lambda data: FakeReading())


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[pgcluster.Cluster]:
    """A throwaway PostgreSQL server for the session, stopped and removed afterwards."""
    reason = pgcluster.why_not()
    if reason is not None:
        pytest.skip(f"the PostgreSQL back end is not tested here: {reason}")
    cluster = pgcluster.Cluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str | None:
    """None (SQLite in the test's data folder), or the URL of a new PostgreSQL database."""
    if request.param == "sqlite":
        return None
    cluster: pgcluster.Cluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture()
def any_app(tmp_path: Path, database_url: str | None) -> Iterator[Flask]:
    """The app on either back end."""
    app = create_app(tmp_path / "data", recognizer=lambda data: FakeReading(), database_url=database_url)
    yield app
    app.extensions["mjc_store"].close()
