"""Behind reverse proxies (docs/deploy.md): with ``MJC_PROXY_HOPS`` the rate limits count each
client by its forwarded address, not the proxy's; without it the header is ignored; a bad value is
one line and exit 2."""

from __future__ import annotations

import pytest

from companion.app import PROXY_ENV, create_app
from companion.cli import main

from .helpers import FakeReading, new_table


def guesses_until_limited(client, forwarded: str) -> int:
    """Wrong table links sent from ``forwarded`` until one answers 429."""
    for n in range(1, 200):
        resp = client.get("/api/tables/" + "x" * 24, headers={"X-Forwarded-For": forwarded})
        if resp.status_code == 429:
            return n
    return 0


@pytest.mark.parametrize("hops, shared", [("1", False), ("", True)])
def test_rate_limits_count_forwarded_clients_only_when_told(tmp_path, monkeypatch, hops, shared):
    monkeypatch.setenv(PROXY_ENV, hops)
    client = create_app(tmp_path / "data", recognizer=lambda data: FakeReading()).test_client()
    t = new_table(client)["table"]["token"]
    assert guesses_until_limited(client, "203.0.113.7") > 0
    other = client.get(f"/api/tables/{t}", headers={"X-Forwarded-For": "198.51.100.9"})
    assert other.status_code == (429 if shared else 200)


def test_a_bad_proxy_setting_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(PROXY_ENV, "many")
    assert main(["serve", "--data-dir", str(tmp_path / "data"), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert PROXY_ENV in err and err.count("\n") == 1
