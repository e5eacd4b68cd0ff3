"""Care of the data folder: a damaged ledger (health, reads, refused writes), unusable folders,
`mjc check`, `mjc backup` under writes, `mjc restore`, durable photos and their .tmp files."""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from companion import care
from companion import store as S
from companion.app import create_app
from companion.cli import main
from companion.store import DB_NAME, Store

from .helpers import E2E_PHOTO, WIN_S, FakeReading, err, new_table


def _filled(folder: Path, tables: int = 30, hands: int = 20) -> list[str]:
    """A ledger of ``tables`` tables with ``hands`` hands each, checkpointed into the main file."""
    client = create_app(folder).test_client()
    tokens = []
    for _ in range(tables):
        t = new_table(client, name="x" * 80)["table"]["token"]
        for _ in range(hands):
            client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]})
        tokens.append(t)
    conn = sqlite3.connect(folder / DB_NAME)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return tokens


def _damage(path: Path) -> None:
    """64 KB of garbage in the middle of the file."""
    with open(path, "r+b") as fh:
        fh.seek(os.path.getsize(path) // 2)
        fh.write(os.urandom(65536))


def _digest(folder: Path) -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(folder.glob(DB_NAME + "*")))).hexdigest()


def test_a_damaged_ledger_answers_reads_refuses_writes_and_writes_nothing(tmp_path):
    folder = tmp_path / "data"
    tokens = _filled(folder)
    _damage(folder / DB_NAME)
    client = create_app(folder, recognizer=lambda data: FakeReading()).test_client()
    health = client.get("/api/health")
    assert (
        health.status_code == 503 and health.json["integrity"] == "damaged" and "mjc restore" in health.json["message"]
    )
    before = _digest(folder)
    reads = [client.get(f"/api/tables/{t}") for t in tokens]
    assert {r.status_code for r in reads} <= {200, 503} and any(r.status_code == 200 for r in reads)
    assert all(err(r)["code"] == "database_damaged" for r in reads if r.status_code == 503)
    writes = [
        client.post(f"/api/tables/{tokens[0]}/draws"),
        client.post("/api/tables", json={"variant": "ningxia", "players": ["a", "b", "c", "d"], "first_dealer": 0}),
        client.post(f"/api/tables/{tokens[0]}/photos", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")}),
    ]
    for resp in writes:
        assert resp.status_code == 503 and err(resp)["code"] == "database_damaged", resp.json
        assert "nothing was written" in err(resp)["message"] and "mjc restore" in err(resp)["message"]
    assert _digest(folder) == before and not (folder / "photos").exists()


def test_a_sound_ledger_reports_ok_in_health(client):
    assert client.get("/api/health").json == {"ok": True, "schema_version": S.SCHEMA_VERSION, "integrity": "ok"}


def test_a_corruption_met_while_reading_refuses_writes_from_then_on(app, client, monkeypatch):
    t = new_table(client)["table"]["token"]
    store = app.extensions["mjc_store"]

    def corrupt(*args, **kwargs):
        error = sqlite3.DatabaseError("database disk image is malformed")
        error.sqlite_errorcode = 11  # type: ignore[attr-defined]
        raise error

    monkeypatch.setattr(Store, "last_seq", corrupt)
    assert err(client.get(f"/api/tables/{t}"))["code"] == "database_damaged"
    monkeypatch.undo()
    assert store.damage and client.get("/api/health").status_code == 503
    assert err(client.post(f"/api/tables/{t}/draws"))["code"] == "database_damaged"


def _garbage_file(folder: Path) -> Path:
    folder.mkdir()
    (folder / DB_NAME).write_bytes(os.urandom(100_000))
    return folder


def _directory_as_file(folder: Path) -> Path:
    (folder / DB_NAME).mkdir(parents=True)
    return folder


def _file_as_folder(folder: Path) -> Path:
    folder.write_text("not a folder")
    return folder / "data"


def _damaged_old_schema(folder: Path) -> Path:
    _filled(folder, tables=30, hands=5)
    conn = sqlite3.connect(folder / DB_NAME)
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    _damage(folder / DB_NAME)
    return folder


@pytest.mark.parametrize(
    "make, says",
    [
        (_garbage_file, "not a readable ledger"),
        (_directory_as_file, "is not a file"),
        (_file_as_folder, "cannot use the data folder"),
        (_damaged_old_schema, "damaged and older"),
    ],
)
def test_an_unusable_data_folder_is_one_line_and_exit_2(tmp_path, capsys, make, says):
    folder = make(tmp_path / "data")
    assert main(["serve", "--data-dir", str(folder), "--port", "1"]) == 2
    out = capsys.readouterr()
    assert says in out.err and out.err.count("\n") == 1 and "Traceback" not in out.err + out.out


def test_a_read_only_ledger_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    """A file SQLite may not write (read-only file or folder; as root, permissions are not enough
    to make one, so SQLite's own error is raised where it would be)."""
    folder = tmp_path / "data"
    Store(folder)

    def read_only(self):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Store, "migrate", read_only)
    assert main(["serve", "--data-dir", str(folder), "--port", "1"]) == 2
    line = capsys.readouterr().err
    assert "cannot be written" in line and "writable" in line and line.count("\n") == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only folders")
def test_a_read_only_folder_is_one_line_and_exit_2(tmp_path, capsys):
    folder = tmp_path / "data"
    Store(folder)
    folder.chmod(0o555)
    try:
        assert main(["serve", "--data-dir", str(folder), "--port", "1"]) == 2
    finally:
        folder.chmod(0o755)
    assert capsys.readouterr().err.count("\n") == 1


def test_check_reports_and_exits_0_sound_1_damaged_2_missing(tmp_path, capsys):
    folder = tmp_path / "data"
    _filled(folder, tables=30, hands=5)
    assert main(["check", "--data-dir", str(folder)]) == 0
    assert "integrity ok" in capsys.readouterr().out
    _damage(folder / DB_NAME)
    assert main(["check", "--data-dir", str(folder)]) == 1
    assert "is damaged" in capsys.readouterr().err
    assert main(["check", "--data-dir", str(tmp_path / "nowhere")]) == 2
    assert "no ledger" in capsys.readouterr().err


def test_backup_while_writing_is_consistent_and_restores(tmp_path, capsys):
    """A backup taken while a table is being written holds a prefix of its events, complete and
    in order, with its photos; it restores over a ledger (which is kept) and reads back."""
    folder = tmp_path / "data"
    app = create_app(folder, recognizer=lambda data: FakeReading())
    client = app.test_client()
    t = new_table(client)["table"]["token"]
    photo = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(E2E_PHOTO.read_bytes()), "h.jpg")})
    stop = threading.Event()

    def write() -> None:
        writer = app.test_client()
        while not stop.is_set():
            assert writer.post(f"/api/tables/{t}/claims", json={"claimer": "S", "from": "W"}).status_code == 201

    thread = threading.Thread(target=write)
    thread.start()
    try:
        for _ in range(20):
            client.post(f"/api/tables/{t}/claims", json={"claimer": "N", "from": "E"})
        assert main(["backup", str(tmp_path / "bk"), "--data-dir", str(folder)]) == 0
    finally:
        stop.set()
        thread.join()
    assert "1 photo files copied" in capsys.readouterr().out
    conn = sqlite3.connect(tmp_path / "bk" / DB_NAME)
    seqs = [r[0] for r in conn.execute("SELECT seq FROM events ORDER BY seq")]
    conn.close()
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 20
    assert main(["backup", str(tmp_path / "bk"), "--data-dir", str(folder)]) == 2  # not over a backup

    assert main(["restore", str(tmp_path / "bk"), "--data-dir", str(tmp_path / "fresh")]) == 0
    restored = create_app(tmp_path / "fresh").test_client()
    assert restored.get(f"/api/tables/{t}").json["ledger"]["version"] == len(seqs)
    assert restored.get(f"/api/tables/{t}/photos/{photo.json['photo_id']}").data == E2E_PHOTO.read_bytes()
    capsys.readouterr()
    assert main(["restore", str(tmp_path / "bk"), "--data-dir", str(folder)]) == 0
    kept = next(folder.glob("replaced-*.sqlite3"))
    assert f"kept as {kept}" in capsys.readouterr().out
    conn = sqlite3.connect(kept)
    assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] > len(seqs)  # nothing lost
    conn.close()


def test_restore_refuses_a_damaged_backup_and_a_running_server(tmp_path, capsys):
    folder, backup = tmp_path / "data", tmp_path / "bk"
    _filled(backup, tables=30, hands=5)
    Store(folder)
    lock = care.ServerLock(folder).acquire()
    try:
        assert main(["restore", str(backup), "--data-dir", str(folder)]) == 2
        assert "a server" in capsys.readouterr().err
        assert main(["serve", "--data-dir", str(folder), "--port", "1"]) == 2  # nor a second server
        assert "stop it" in capsys.readouterr().err
    finally:
        lock.release()
    _damage(backup / DB_NAME)
    assert main(["restore", str(backup), "--data-dir", str(folder)]) == 1
    assert "damaged" in capsys.readouterr().err
    not_a_ledger = tmp_path / "other.sqlite3"
    sqlite3.connect(not_a_ledger).execute("CREATE TABLE x (y)").connection.close()
    assert main(["restore", str(not_a_ledger), "--data-dir", str(folder)]) == 1
    assert "not a ledger" in capsys.readouterr().err


def test_photo_file_and_folder_are_fsynced_before_the_row_commits(app, client, monkeypatch):
    order: list[str] = []
    fsync, transaction = os.fsync, Store.transaction
    monkeypatch.setattr(S.os, "fsync", lambda fd: (order.append("fsync"), fsync(fd))[1])
    monkeypatch.setattr(S, "fsync_dir", lambda folder: order.append(f"dir {folder.name}"))

    def recording(self):
        order.append("commit")
        return transaction(self)

    monkeypatch.setattr(Store, "transaction", recording)
    t = new_table(client)["table"]["token"]
    order.clear()
    resp = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")})
    assert resp.status_code == 201
    assert order == ["fsync", "dir 1", "dir photos", "dir data", "commit"]


def test_a_full_disk_leaves_no_tmp_and_records_nothing(app, client, monkeypatch, tmp_path):
    def full(fd):
        raise OSError(28, "No space left on device")

    t = new_table(client)["table"]["token"]
    monkeypatch.setattr(S.os, "fsync", full)
    resp = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")})
    assert resp.status_code == 503 and err(resp)["code"] == "disk_full"
    assert list((tmp_path / "data" / "photos").rglob("*")) == [tmp_path / "data" / "photos" / "1"]
    assert app.extensions["mjc_store"].conn.execute("SELECT COUNT(*) FROM photos").fetchone()[0] == 0


def test_stale_tmp_files_are_removed_at_start(tmp_path):
    folder = tmp_path / "data" / "photos" / "3"
    folder.mkdir(parents=True)
    (folder / "abc.1234.tmp").write_bytes(b"half a photo")
    (folder / "abc.img").write_bytes(b"a photo")
    create_app(tmp_path / "data")
    assert [p.name for p in folder.iterdir()] == ["abc.img"]
