"""Care of the data folder: ``mjc check``, ``mjc backup DEST``, ``mjc restore SRC``, and the lock a
running server holds on its folder.

* :func:`check` runs SQLite's full ``integrity_check`` on the ledger (read-only; a running server
  may keep writing) and counts what it holds; photos whose file is missing are named.
* :func:`backup` copies the ledger with SQLite's online backup API — one consistent snapshot even
  while the server writes — into a new folder, checks the copy, then copies the photos its rows
  name (a photo's file is durable before its row commits, so every row in the copy has its file).
* :func:`restore` checks a backup first (integrity, a known schema, the ledger's tables), refuses
  while a server holds the folder, and never deletes: the file it replaces is renamed
  ``replaced-<time>.sqlite3`` (with its ``-wal``) beside it.
* :class:`ServerLock` (``server.lock`` in the folder, an advisory ``flock``) is held by ``mjc
  serve`` for as long as it runs (and by a restore while it works): a second server on the same folder and a restore under a
  running server are refused.

With a PostgreSQL ledger (``--database-url``, :func:`database_care`) ``mjc check`` checks the
database and ``backup``/``restore`` are refused, naming ``pg_dump``/``pg_restore``, which back up a
live PostgreSQL database consistently (photos included, they are rows there); there is no folder
lock, several servers share the database.

Each operation answers the lines it reports; problems raise :class:`CareError` with an exit status
(1: the ledger or the backup is damaged or not a ledger; 2: it cannot be done as asked).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .storage import StoreError
from .store import DB_NAME, RESTORE_HINT, SCHEMA_VERSION, fsync_dir

LOCK_NAME = "server.lock"
LEDGER_TABLES = ("tables", "events")


class CareError(Exception):
    """A check, backup or restore that cannot go on: a message and the exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Contents:
    """What a ledger file holds."""

    schema_version: int
    tables: int
    events: int
    photos: list[str]  # the photo files its rows name, relative to its folder

    def summary(self) -> str:
        return f"{self.tables} tables, {self.events} events, {len(self.photos)} photos (schema {self.schema_version})"


class ServerLock:
    """The folder's ``server.lock``: :meth:`acquire` it while serving (or restoring), :meth:`release`
    after; the operating system releases it when the process ends, however it ends."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.path = Path(data_dir) / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> ServerLock:
        """Take the lock (creating the folder); :class:`CareError` 2 when a server holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise CareError(
                f"a server (`mjc serve`, pid {holder}) is using {self.path.parent}; stop it (Ctrl+C in its window) "
                "and try again",
                2,
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the flock
            self._fd = None


PG_TOOLS = (
    "a PostgreSQL ledger (photos included) is backed up with `pg_dump --format=custom --file=mjc.dump DBNAME` "
    "while the servers run and put back with `pg_restore --clean --dbname=DBNAME mjc.dump` (docs/deploy.md)"
)


def database_care(command: str, url: str) -> list[str]:
    """``mjc check`` against a PostgreSQL database (:func:`companion.pgstore.check_database`);
    ``backup`` and ``restore`` are refused (2) with what to use instead."""
    if command != "check":
        raise CareError(f"`mjc {command}` copies a SQLite data folder (leave --database-url out); {PG_TOOLS}", 2)
    from .pgstore import check_database

    try:
        lines, problems = check_database(url)
    except StoreError as err:
        raise CareError(str(err), 2) from None
    if problems:
        raise CareError(f"{'; '.join(problems)}; put back your latest pg_dump with pg_restore", 1)
    return lines


def check(data_dir: str | os.PathLike[str]) -> list[str]:
    """The integrity report of the folder's ledger; :class:`CareError` 1 when it is damaged."""
    path = _ledger_in(Path(data_dir))
    problems = _integrity(path, full=True)
    if problems:
        raise CareError(f"{path} is damaged ({'; '.join(problems)}): {RESTORE_HINT}", 1)
    contents = _contents(path)
    missing = [p for p in contents.photos if not (path.parent / p).is_file()]
    lines = [f"{path}: integrity ok", f"holds {contents.summary()}"]
    if missing:
        lines.append(f"{len(missing)} photo files are missing (their hands keep their tiles): {', '.join(missing[:5])}")
    return lines


def backup(data_dir: str | os.PathLike[str], dest: str | os.PathLike[str]) -> list[str]:
    """Copy the folder's ledger and its photos into ``dest`` (a new or empty folder)."""
    source = _ledger_in(Path(data_dir))
    target = Path(dest)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise CareError(f"{target} exists and is not an empty folder; name a new folder for the backup", 2)
    try:
        target.mkdir(parents=True, exist_ok=True)
        _copy_ledger(source, target / DB_NAME)
    except (OSError, sqlite3.Error) as err:
        raise CareError(f"cannot write the backup into {target}: {err}", 2) from None
    problems = _integrity(target / DB_NAME, full=False)
    if problems:
        raise CareError(
            f"the ledger {source} is damaged ({'; '.join(problems)}); a backup of it would be too. "
            "Keep your earlier backups; `mjc restore` one of them",
            1,
        )
    contents = _contents(target / DB_NAME)
    copied = _copy_photos(source.parent, target, contents.photos)
    return [f"backed up {contents.summary()} from {source} to {target}", f"{copied} photo files copied"]


def restore(data_dir: str | os.PathLike[str], src: str | os.PathLike[str]) -> list[str]:
    """Replace the folder's ledger with the backup ``src`` (a backup folder or a ledger file),
    checked first; the replaced file is kept beside it."""
    folder = Path(data_dir)
    given = Path(src)
    source = given / DB_NAME if given.is_dir() else given
    if not source.is_file():
        raise CareError(f"{given} is neither a backup folder (with {DB_NAME}) nor a ledger file", 2)
    problems = _integrity(source, full=True)
    if problems:
        raise CareError(f"the backup {source} is damaged ({'; '.join(problems)}); choose another backup", 1)
    contents = _contents(source)
    if not 1 <= contents.schema_version <= SCHEMA_VERSION:
        raise CareError(
            f"the backup {source} has schema {contents.schema_version}; this program reads 1 to {SCHEMA_VERSION}", 1
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = ServerLock(folder).acquire()
        try:
            kept = _set_aside(folder / DB_NAME)
            _copy_ledger(source, folder / DB_NAME)
            copied = _copy_photos(source.parent, folder, contents.photos)
        finally:
            lock.release()
    except OSError as err:
        raise CareError(f"cannot restore into {folder}: {err.strerror or err}", 2) from None
    lines = [f"restored {contents.summary()} from {source} into {folder}", f"{copied} photo files copied"]
    if kept:
        lines.append(f"the ledger it replaced is kept as {kept}")
    return lines


def _ledger_in(folder: Path) -> Path:
    path = folder / DB_NAME
    if path.exists() and not path.is_file():
        raise CareError(f"{path} is not a file; move it away or check --data-dir", 2)
    if not path.is_file():
        raise CareError(f"no ledger in {folder} ({DB_NAME} is missing); check --data-dir", 2)
    return path


def _open_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=15)


def _integrity(path: Path, *, full: bool) -> list[str]:
    """The problems SQLite finds in ``path`` (none: the file is sound)."""
    pragma = "integrity_check(20)" if full else "quick_check(20)"
    try:
        conn = _open_read_only(path)
        try:
            rows = [str(r[0]) for r in conn.execute(f"PRAGMA {pragma}").fetchall()]
            missing = [t for t in LEDGER_TABLES if not _has_table(conn, t)]
        finally:
            conn.close()
    except sqlite3.DatabaseError as err:
        return [str(err)]
    if rows != ["ok"]:
        return [line for row in rows for line in row.splitlines() if line and not line.startswith("***")]
    return [f"not a ledger: no table {', '.join(missing)}"] if missing else []


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


def _contents(path: Path) -> Contents:
    conn = _open_read_only(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
        events = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        photos = [r[0] for r in conn.execute("SELECT path FROM photos")] if _has_table(conn, "photos") else []
    finally:
        conn.close()
    return Contents(version, tables, events, photos)


def _copy_ledger(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into ``target`` (written as a ``.tmp``, fsynced, renamed)."""
    tmp = target.with_name(target.name + ".tmp")
    tmp.unlink(missing_ok=True)
    src = _open_read_only(source)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    tmp.replace(target)
    fsync_dir(target.parent)


def _copy_photos(source_dir: Path, target_dir: Path, photos: list[str]) -> int:
    """Copy the named photo files that exist in ``source_dir`` and not yet in ``target_dir``."""
    copied = 0
    for rel in photos:
        src, dst = source_dir / rel, target_dir / rel
        if not src.is_file() or dst.exists() or Path(rel).is_absolute() or ".." in Path(rel).parts:
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        copied += 1
    return copied


def _set_aside(path: Path) -> Path | None:
    """Rename the ledger ``path`` (and its ``-wal``, ``-shm``) to ``replaced-<time>.sqlite3``; its
    journal is folded in first where the file allows, so the renamed file stands alone."""
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(path, timeout=15)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    except sqlite3.Error:
        pass  # a damaged file: its journal moves with it
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"replaced-{stamp}.sqlite3")
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.replace(kept.with_name(kept.name + suffix))
    path.replace(kept)
    return kept
