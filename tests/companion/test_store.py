"""The ledger store and the server: WAL, append-only events, migrations, waitress, concurrent writers."""

from __future__ import annotations

import sqlite3

import pytest

from companion.app import create_app
from companion.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Store, StoreError

from .helpers import new_table


def test_wal_append_only_and_schema_version(tmp_path, client, app):
    store = app.extensions["mjc_store"]
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.schema_version() == SCHEMA_VERSION
    t = new_table(client)["table"]["token"]
    client.post(f"/api/tables/{t}/draws")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("DELETE FROM events")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("UPDATE events SET kind = 'x'")


def test_migration_from_version_1_keeps_data(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    conn = sqlite3.connect(folder / DB_NAME)
    conn.executescript(MIGRATIONS[0])
    conn.execute(
        "INSERT INTO tables (token, watch_token, variant, options, players, first_dealer, start_points,"
        " created_at) VALUES ('tok', 'w', 'ningxia', '{}', '[\"a\",\"b\",\"c\",\"d\"]', 2, 0, 'then')"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    store = Store(folder)
    assert store.schema_version() == SCHEMA_VERSION
    table, control = store.find_table("tok")
    assert control and table.first_dealer == 2 and table.name == ""
    client = create_app(folder).test_client()
    assert client.get("/api/tables/tok").json["ledger"]["state"]["dealer"] == 2

    newer = tmp_path / "newer"
    newer.mkdir()
    conn = sqlite3.connect(newer / DB_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        Store(newer)


def test_serve_prints_the_address_and_uses_waitress(tmp_path, monkeypatch, capsys):
    import waitress

    from companion import server

    seen = {}

    class Dummy:
        def run(self):
            seen["ran"] = True

        def close(self):
            seen["closed"] = True

    def fake_create_server(app, **kw):
        seen.update(kw)
        return Dummy()

    monkeypatch.setattr(waitress, "create_server", fake_create_server)
    monkeypatch.setattr(server, "lan_addresses", lambda: ["192.168.1.23"])
    assert server.serve(host="0.0.0.0", port=8765, data_dir=str(tmp_path / "d")) == 0
    out = capsys.readouterr().out
    assert "http://192.168.1.23:8765/" in out and seen["threads"] >= 2 and seen["ran"] and seen["closed"]
    assert (tmp_path / "d" / DB_NAME).exists()


def test_concurrent_writers_are_serialised(app):
    """Several devices recording at once: one transaction per event, nothing lost, seq has no gaps."""
    import threading

    t = new_table(app.test_client())["table"]["token"]
    codes: list[int] = []

    def worker():
        client = app.test_client()
        for _ in range(5):
            codes.append(client.post(f"/api/tables/{t}/draws").status_code)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert codes == [201] * 20
    ledger = app.test_client().get(f"/api/tables/{t}/ledger").json
    assert [e["seq"] for e in ledger["log"]] == list(range(1, 21))
    assert ledger["state"]["hand_no"] == 21 and ledger["state"]["dealer_streak"] == 20
