"""The SQLite back end of :class:`companion.storage.Storage`: the table ledger in one file in
the data folder (the embedded default; PostgreSQL is :mod:`companion.pgstore`).

* WAL journal, ``synchronous=FULL``: a recorded event survives a power cut of the tablet.
* ``BEGIN IMMEDIATE`` transactions, so two devices writing at once are serialised and the state an
  event was computed from is the state it is appended to; a table's writes arriving together share
  one transaction and one sync (:mod:`companion.groupcommit`).
* Events are append-only: triggers refuse ``UPDATE`` and ``DELETE`` on ``events``. Undo and
  correction are themselves events (see :mod:`companion.ledger`).
* ``PRAGMA user_version`` holds the schema version; :data:`MIGRATIONS` brings an older file up to
  date in one transaction when the store opens.
* ``PRAGMA quick_check`` runs when the store opens. A damaged file (:attr:`Store.damage` says
  how) still answers the reads that work, but every write is refused with :class:`DamagedError`
  before anything is written: nothing goes into a damaged file. A corruption met later, while
  reading, marks the store damaged the same way (:meth:`Store.mark_damaged`).
* A folder or file that cannot be used at all (not a database, read-only, a directory where the
  file should be) raises :class:`StoreError` with one line saying what and what to do.
* A photo's file is written to a ``.tmp`` file, fsynced, renamed and its folder fsynced before its
  row commits; a failed write removes its ``.tmp``; :meth:`Store.remove_stale_tmp` (at server
  start) removes those a crash left behind.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .storage import RESTORE_HINT, TABLE_COLUMNS, DiskFullError, Event, Storage, StoreError, Table, new_table_row, now
from .storage import DamagedError as DamagedError  # the errors and records are importable from here too

DB_NAME = "companion.sqlite3"

#: Each entry upgrades the schema from version ``i`` to ``i + 1``.
MIGRATIONS: list[str] = [
    # 0 -> 1: tables and their events
    """
    CREATE TABLE tables (
        id            INTEGER PRIMARY KEY,
        token         TEXT NOT NULL UNIQUE,
        watch_token   TEXT NOT NULL UNIQUE,
        variant       TEXT NOT NULL,
        options       TEXT NOT NULL,
        players       TEXT NOT NULL,
        first_dealer  INTEGER NOT NULL,
        start_points  INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT NOT NULL
    );
    CREATE TABLE events (
        id          INTEGER PRIMARY KEY,
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        seq         INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        target      INTEGER REFERENCES events(id),
        data        TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        UNIQUE (table_id, seq)
    );
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
    # 1 -> 2: a display name for the table, and the photos behind recorded hands
    """
    ALTER TABLE tables ADD COLUMN name TEXT NOT NULL DEFAULT '';
    CREATE TABLE photos (
        id          INTEGER PRIMARY KEY,
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        sha256      TEXT NOT NULL,
        path        TEXT NOT NULL,
        recognition TEXT NOT NULL,
        created_at  TEXT NOT NULL
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


#: SQLite's primary result codes for a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB)
CORRUPT_CODES = (11, 26)
#: SQLite's result code for a full disk (SQLITE_FULL)
FULL_CODE = 13


def is_corruption(err: sqlite3.Error) -> bool:
    """Does ``err`` say the file is damaged?"""
    return getattr(err, "sqlite_errorcode", 0) & 0xFF in CORRUPT_CODES


class Store(Storage):
    """The SQLite back end: thread-safe access to the file (a connection per thread)."""

    shares_commits = True

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / DB_NAME
        self.photo_dir = self.data_dir / "photos"
        self._local = threading.local()
        #: None while the file is sound; else what ``quick_check`` (or a failed read) reported
        self.damage: str | None = None
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and not self.path.is_file():
                raise StoreError(f"{self.path} is not a file; move it away or use another --data-dir")
            self.damage = quick_check(self.conn)
            if self.damage is None:
                self.migrate()
            elif self.schema_version() != SCHEMA_VERSION:
                raise StoreError(f"{self.path} is damaged and older than this program ({self.damage}): {RESTORE_HINT}")
        except sqlite3.Error as err:
            raise StoreError(unusable(self.path, err)) from None
        except OSError as err:
            raise StoreError(
                f"cannot use the data folder {self.data_dir}: {err.strerror or err}; {FOLDER_HINT}"
            ) from None

    # ------------------------------------------------------------------ connections
    def describe(self) -> str:
        return str(self.path)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=15, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=15000")
        return conn

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; rolled back on any exception. Refused on a damaged
        file (:class:`DamagedError`); a full disk raises :class:`DiskFullError`."""
        self.refuse_if_damaged()
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as err:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(err, sqlite3.Error) and getattr(err, "sqlite_errorcode", 0) & 0xFF == FULL_CODE:
                raise DiskFullError(DISK_FULL) from None
            raise

    def lock_table(self, conn: sqlite3.Connection, table_id: int) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` holds the whole file for the transaction."""

    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def migrate(self) -> None:
        with self.transaction() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer version (schema {version}, this program "
                    f"knows {SCHEMA_VERSION}); upgrade the program or use another --data-dir"
                )
            for i in range(version, SCHEMA_VERSION):
                for statement in _split_sql(MIGRATIONS[i]):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {i + 1}")

    # ------------------------------------------------------------------ tables
    def create_table(
        self, *, variant: str, options: dict, players: list[str], first_dealer: int, start_points: int, name: str = ""
    ) -> Table:
        row_values = new_table_row(
            variant=variant,
            options=options,
            players=players,
            first_dealer=first_dealer,
            start_points=start_points,
            name=name,
        )
        marks = ", ".join(["?"] * len(row_values))
        with self.transaction() as conn:
            cur = conn.execute(f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES ({marks})", row_values)
            row = conn.execute("SELECT * FROM tables WHERE id = ?", (cur.lastrowid,)).fetchone()
        return Table.from_row(row)

    def find_table(self, token: str) -> tuple[Table, bool] | None:
        """The table whose control or watch token is ``token``, and whether it is the control token."""
        row = self.conn.execute("SELECT * FROM tables WHERE token = ? OR watch_token = ?", (token, token)).fetchone()
        if row is None:
            return None
        return Table.from_row(row), secrets.compare_digest(row["token"], token)

    # ------------------------------------------------------------------ events
    def events(self, table_id: int, conn: sqlite3.Connection | None = None, *, after: int = 0) -> list[Event]:
        """The table's events in ``seq`` order (those after ``after`` only)."""
        rows = (
            (conn or self.conn)
            .execute("SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after))
            .fetchall()
        )
        return [Event.from_row(r) for r in rows]

    def last_seq(self, table_id: int, conn: sqlite3.Connection | None = None) -> int:
        """The ``seq`` of the table's latest event (0 when none): the ledger's version."""
        row = (conn or self.conn).execute("SELECT MAX(seq) FROM events WHERE table_id = ?", (table_id,)).fetchone()
        return int(row[0] or 0)

    def append(
        self,
        conn: sqlite3.Connection,
        table_id: int,
        kind: str,
        data: dict,
        target: int | None = None,
        seq: int | None = None,
    ) -> Event:
        """Append one event inside an open transaction, as ``seq`` when the caller knows the table's
        next one (else it is read); ``UNIQUE (table_id, seq)`` refuses a wrong guess."""
        if seq is None:
            seq = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()[0]
        created = now()
        cur = conn.execute(
            "INSERT INTO events (table_id, seq, kind, target, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, seq, kind, target, json.dumps(data, ensure_ascii=False), created),
        )
        return Event(_row_id(cur), seq, kind, target, data, created)

    # ------------------------------------------------------------------ photos
    def save_photo(self, table_id: int, data: bytes, recognition: dict) -> int:
        """Store a photo's file (fsynced with its folder) and then its row; a failed write leaves
        no ``.tmp`` behind and records nothing."""
        self.refuse_if_damaged()
        sha = hashlib.sha256(data).hexdigest()
        folder = self.photo_dir / str(table_id)
        path = folder / f"{sha[:32]}.img"
        try:
            _write_durably(path, data)
        except OSError as err:
            if err.errno == errno.ENOSPC:
                raise DiskFullError(DISK_FULL) from None
            raise StoreError(f"cannot store the photo in {folder}: {err.strerror or err}; {FOLDER_HINT}") from None
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO photos (table_id, sha256, path, recognition, created_at) VALUES (?, ?, ?, ?, ?)",
                (table_id, sha, str(path.relative_to(self.data_dir)), json.dumps(recognition), now()),
            )
        return _row_id(cur)

    def remove_stale_tmp(self) -> list[Path]:
        """Remove the ``.tmp`` files a crash left among the photos (run before serving); answers them."""
        stale = sorted(self.photo_dir.glob("*/*.tmp")) if self.photo_dir.is_dir() else []
        for tmp in stale:
            tmp.unlink(missing_ok=True)
        return stale

    def has_photo(self, table_id: int, photo_id: int) -> bool:
        if not 0 < photo_id <= MAX_ID:
            return False
        sql = "SELECT 1 FROM photos WHERE id = ? AND table_id = ?"
        return self.conn.execute(sql, (photo_id, table_id)).fetchone() is not None

    def photo(self, table_id: int, photo_id: int) -> tuple[bytes | None, dict] | None:
        row = self.conn.execute("SELECT * FROM photos WHERE id = ? AND table_id = ?", (photo_id, table_id)).fetchone()
        if row is None:
            return None
        path = self.data_dir / row["path"]
        return (path.read_bytes() if path.is_file() else None), json.loads(row["recognition"])


#: the largest id SQLite stores (a 64-bit signed integer)
MAX_ID = 2**63 - 1

FOLDER_HINT = "check the folder's permissions and free space, or use another --data-dir"
DISK_FULL = "the server's disk is full; nothing was recorded. Free some space on it and try again"


def quick_check(conn: sqlite3.Connection) -> str | None:
    """``PRAGMA quick_check``: None when the file is sound, else the first problems it names."""
    try:
        rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
    except sqlite3.DatabaseError as err:
        if not is_corruption(err):
            raise
        return str(err)
    if rows == ["ok"]:
        return None
    lines = [line for row in rows for line in row.splitlines() if line and not line.startswith("***")]
    more = f" (and {len(lines) - 3} more)" if len(lines) > 3 else ""
    return "; ".join(lines[:3]) + more


def unusable(path: Path, err: sqlite3.Error) -> str:
    """One line for a data file SQLite cannot use, saying what to do."""
    if is_corruption(err):
        return f"{path} is not a readable ledger ({err}): {RESTORE_HINT}, or use another --data-dir"
    if "readonly" in str(err) or "read-only" in str(err):
        return f"{path} cannot be written ({err}); make the file and its folder writable, or use another --data-dir"
    return f"cannot open {path} ({err}); {FOLDER_HINT}"


def _write_durably(path: Path, data: bytes) -> None:
    """``data`` into ``path`` through a fsynced ``.tmp`` file, then the folder fsynced (and its
    parent when the folder is new), so the file outlives a power cut once its row commits."""
    if path.exists():
        return
    folder = path.parent
    new_folder = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(folder)
    if new_folder:
        fsync_dir(folder.parent)
        fsync_dir(folder.parent.parent)


def fsync_dir(folder: Path) -> None:
    """Make a folder's entries (a renamed or new file) durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _row_id(cur: sqlite3.Cursor) -> int:
    """The id of the row an ``INSERT`` just added."""
    if cur.lastrowid is None:  # pragma: no cover - SQLite sets it on every INSERT
        raise StoreError("the database did not report the new row's id")
    return cur.lastrowid


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (triggers keep their inner ``;``)."""
    out, buf = [], []
    for line in script.strip().splitlines():
        buf.append(line)
        text = "\n".join(buf).strip()
        if text.endswith(";") and (not text.upper().startswith("CREATE TRIGGER") or text.upper().endswith("END;")):
            out.append(text)
            buf = []
    if "\n".join(buf).strip():
        out.append("\n".join(buf).strip())
    return out
