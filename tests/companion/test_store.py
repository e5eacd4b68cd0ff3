"""The ledger store and the server: WAL, append-only events, migrations, waitress, concurrent writers;
on both back ends (SQLite, PostgreSQL) where the behaviour is the storage interface's."""

from __future__ import annotations

import io
import sqlite3
import threading

import psycopg
import pytest

from companion import pgstore
from companion.app import create_app
from companion.cli import main
from companion.pgstore import PgStore
from companion.storage import ENV_URL
from companion.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Store, StoreError

from .helpers import E2E_PHOTO, WIN_S, err, new_table


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


def test_concurrent_writers_are_serialised(any_app):
    """Several devices recording at once: one transaction per event, nothing lost, seq has no gaps."""
    app = any_app
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


def test_events_are_append_only_in_the_database(any_app):
    """The database itself refuses to change or remove an event (a trigger on both back ends)."""
    store = any_app.extensions["mjc_store"]
    t = new_table(any_app.test_client())["table"]["token"]
    assert any_app.test_client().post(f"/api/tables/{t}/draws").status_code == 201
    statements = ["DELETE FROM events", "UPDATE events SET kind = 'x'"]
    if isinstance(store, PgStore):
        statements.append("TRUNCATE events CASCADE")
    for statement in statements:
        with pytest.raises((sqlite3.DatabaseError, psycopg.Error), match="append-only"):
            with store.transaction() as conn:
                conn.execute(statement)
    assert [e.seq for e in store.events(store.find_table(t)[0].id)] == [1]
    assert store.schema_version() == SCHEMA_VERSION == pgstore.SCHEMA_VERSION


def test_postgres_migration_from_version_1_keeps_data_and_refuses_newer(pg_cluster):
    url = pg_cluster.new_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(pgstore.MIGRATIONS[0])
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (1)")
        conn.execute(
            "INSERT INTO tables (token, watch_token, variant, options, players, first_dealer, start_points,"
            """ created_at) VALUES ('tok', 'w', 'ningxia', '{}', '["a","b","c","d"]', 2, 0, 'then')"""
        )
    stores = [PgStore(url) for _ in range(3)]  # servers starting together migrate once
    assert {s.schema_version() for s in stores} == {SCHEMA_VERSION}
    table, control = stores[0].find_table("tok")
    assert control and table.first_dealer == 2 and table.name == ""
    client = create_app(database_url=url).test_client()
    assert client.get("/api/tables/tok").json["ledger"]["state"]["dealer"] == 2
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer"):
        PgStore(url)


def test_photos_are_stored_with_the_ledger_and_read_back(any_app):
    client = any_app.test_client()
    t = new_table(client)["table"]["token"]
    other = new_table(client)["table"]["token"]
    jpeg = E2E_PHOTO.read_bytes()
    resp = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(jpeg), "h.jpg")})
    assert resp.status_code == 201
    pid = resp.json["photo_id"]
    assert client.get(f"/api/tables/{t}/photos/{pid}").data == jpeg
    for path in (
        f"/api/tables/{other}/photos/{pid}",
        f"/api/tables/{t}/photos/{pid + 1}",
        f"/api/tables/{t}/photos/{2**63}",
    ):
        assert client.get(path).status_code == 404, path


def test_a_hand_names_a_photo_checked_without_reading_it(any_app, monkeypatch):
    """``has_photo`` on either back end: the table's own photo only, any other id (another table's,
    none, 0, negative, past 64 bits) is not; a hand naming a photo is checked with it, never by
    reading the photo's bytes."""
    client = any_app.test_client()
    storage = any_app.extensions["mjc_store"]
    view, other = new_table(client), new_table(client)
    t = view["table"]["token"]
    pid = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(E2E_PHOTO.read_bytes()), "h.jpg")})
    pid = pid.json["photo_id"]
    tid = storage.find_table(t)[0].id
    oid = storage.find_table(other["table"]["token"])[0].id
    assert storage.has_photo(tid, pid)
    for table_id, photo_id in ((oid, pid), (tid, pid + 1), (tid, 0), (tid, -1), (tid, 2**63)):
        assert not storage.has_photo(table_id, photo_id), (table_id, photo_id)

    def no_reading(*args):
        raise AssertionError("a hand's photo id is checked without reading the photo")

    monkeypatch.setattr(storage, "photo", no_reading)
    win = {"winners": [WIN_S], "photo_id": pid}
    assert client.post(f"/api/tables/{t}/hands", json=win).status_code == 201
    refused = client.post(f"/api/tables/{other['table']['token']}/hands", json=win)
    assert refused.status_code == 400 and err(refused)["field"] == "photo_id"


def test_a_watch_link_sees_what_another_server_wrote(tmp_path, database_url):
    """Two servers on one ledger (processes sharing a database): the watch link's version poll on
    one sees the writes made through the other."""
    writer = create_app(tmp_path / "data", database_url=database_url).test_client()
    watcher = create_app(tmp_path / "data", database_url=database_url).test_client()
    view = new_table(writer)["table"]
    watch = view["watch_token"]
    version = watcher.get(f"/api/tables/{watch}/ledger").json["version"]
    assert watcher.get(f"/api/tables/{watch}/ledger?since={version}").json == {
        "ok": True,
        "changed": False,
        "version": version,
    }
    assert writer.post(f"/api/tables/{view['token']}/draws").status_code == 201
    polled = watcher.get(f"/api/tables/{watch}/ledger?since={version}").json
    assert polled["changed"] is True and polled["version"] == version + 1 and len(polled["log"]) == 1


@pytest.mark.parametrize(
    "make_url, says",
    [
        (lambda c: "mysql://u:secret@127.0.0.1/x", "must start with postgresql://"),
        (lambda c: c.url(password="wrong-secret"), "password authentication failed"),
        (lambda c: c.url().replace(f":{c.port}/", ":1/"), "cannot connect"),
        (lambda c: c.url("no_such_db"), "does not exist"),
    ],
)
def test_an_unusable_database_url_is_one_line_and_exit_2(pg_cluster, capsys, monkeypatch, make_url, says):
    url = make_url(pg_cluster)
    monkeypatch.setenv(ENV_URL, url)  # the environment names the database when no option does
    assert main(["serve", "--port", "1"]) == 2
    out = capsys.readouterr()
    assert says in out.err and out.err.count("\n") == 1 and "Traceback" not in out.err + out.out
    assert "secret" not in out.err and pg_cluster.password not in out.err


def test_check_backup_restore_against_postgres(pg_cluster, capsys, tmp_path):
    url = pg_cluster.new_database()
    client = create_app(database_url=url).test_client()
    t = new_table(client)["table"]["token"]
    client.post(f"/api/tables/{t}/draws")
    assert main(["check", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "ledger consistent" in out and "1 tables, 1 events, 0 photos" in out and pg_cluster.password not in out
    for args in (["backup", str(tmp_path / "bk")], ["restore", str(tmp_path / "bk")]):
        assert main([*args, "--database-url", url]) == 2
        assert "pg_dump" in capsys.readouterr().err
    assert not (tmp_path / "bk").exists()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_change")
        conn.execute("UPDATE events SET seq = 5")
    assert main(["check", "--database-url", url]) == 1
    err = capsys.readouterr().err
    assert "skip or repeat a seq" in err and "append-only" in err and err.count("\n") == 1


def test_connections_the_database_dropped_are_opened_again(pg_cluster):
    """After the database server ends the app's sessions (a restart, an idle timeout), reads open
    a new connection and go on; a write whose connection dropped answers 503 and records nothing."""
    url = pg_cluster.new_database()
    app = create_app(database_url=url)
    client = app.test_client()
    t = new_table(client)["table"]["token"]
    assert client.post(f"/api/tables/{t}/draws").status_code == 201

    def drop_sessions() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'mjc' AND datname = current_database()"
            )

    drop_sessions()
    assert client.get(f"/api/tables/{t}").json["ledger"]["version"] == 1
    assert client.post(f"/api/tables/{t}/draws").status_code == 201
    store = app.extensions["mjc_store"]
    drop_sessions()
    with pytest.raises(StoreError, match="did not answer"):
        with store.transaction() as conn:
            store.append(conn, store.find_table(t)[0].id, "note", {})
    assert client.post(f"/api/tables/{t}/draws").status_code == 201
    assert [e.seq for e in store.events(store.find_table(t)[0].id)] == [1, 2, 3]


def test_text_postgres_cannot_hold_is_refused_alike_on_both(any_app):
    """A NUL character: 400 naming the field for a table name, 404 for a table link, on both back
    ends (PostgreSQL's text cannot hold one; inside JSON it is escaped and stored)."""
    client = any_app.test_client()
    body = {"variant": "ningxia", "players": ["a\u0000", "b", "c", "d"], "first_dealer": 0}
    resp = client.post("/api/tables", json={**body, "name": "a\u0000b"})
    assert resp.status_code == 400 and err(resp)["field"] == "name"
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201 and made.json["table"]["players"][0] == "a\u0000"
    for path in ("/api/tables/%00abc", "/api/tables/abc%00/ledger"):
        assert client.get(path).status_code == 404
