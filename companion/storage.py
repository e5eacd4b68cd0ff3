"""The one storage interface the companion writes its ledger through, and what both back ends share.

Two back ends implement :class:`Storage`; nothing above them (the API, the live ledgers, the
exports, the command line) knows which one it talks to:

* :class:`companion.store.Store`: SQLite, one file in the data folder: the embedded default,
  needing nothing; one server process per folder.
* :class:`companion.pgstore.PgStore`: PostgreSQL behind a database URL (``mjc serve
  --database-url postgresql://…``), shared by several server processes on several machines.

What every back end guarantees:

* the same logical schema: ``tables``, append-only ``events`` (``table_id, seq, kind, target,
  data, created_at``; ``UNIQUE (table_id, seq)``; ``UPDATE`` and ``DELETE`` refused by the
  database itself), ``photos``; a schema version and migrations run when the store opens;
* :meth:`Storage.transaction` is one atomic, durable transaction: an event is acknowledged only
  once it outlives a power cut;
* :meth:`Storage.lock_table`, inside a write transaction, makes every other writer of that table
  (in this process or another) wait until the transaction ends, so the events it reads after the
  lock are the last ones and the event it appends is computed from them;
* a photo is as durable as the ledger once :meth:`Storage.save_photo` answers, and readable by every
  server process using the store;
* a store that cannot be used raises :class:`StoreError` with one line saying what and what to do;
* text it stores as it is (a table's name) holds no NUL character, on both back ends alike
  (PostgreSQL's ``text`` cannot hold one): :func:`storable_text` refuses it with a 400 naming the
  field. Text inside JSON (players, event data) is escaped and needs no such rule.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from .errors import bad

T = TypeVar("T")

ENV_URL = "MJC_DATABASE_URL"
"""The environment variable that names the database (``postgresql://…``) when no option does."""


class StoreError(Exception):
    """The store cannot be used (newer schema than this program, unreadable, not writable, the
    database server unreachable)."""


class DamagedError(StoreError):
    """A write refused because the ledger is damaged."""


class DiskFullError(StoreError):
    """A write that failed for want of disk space (nothing was recorded)."""


def storable_text(value: str, field: str) -> str:
    """``value`` when a store can hold it as it is; :class:`~companion.errors.ApiError` 400 naming
    ``field`` when it holds a NUL character."""
    if "\x00" in value:
        raise bad(f"field '{field}' holds the NUL character (\\u0000); remove it", field=field)
    return value


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


#: the columns of a new ``tables`` row, in the order :func:`new_table_row` gives their values
TABLE_COLUMNS = "token, watch_token, variant, options, players, first_dealer, start_points, name, created_at"


def new_table_row(
    *, variant: str, options: dict, players: list[str], first_dealer: int, start_points: int, name: str = ""
) -> tuple[Any, ...]:
    """A new table's values for :data:`TABLE_COLUMNS` (both back ends): fresh control and watch
    tokens, the options and players as JSON, the name checked (:func:`storable_text`), the time now."""
    return (
        secrets.token_urlsafe(18),
        secrets.token_urlsafe(18),
        variant,
        json.dumps(options),
        json.dumps(players, ensure_ascii=False),
        first_dealer,
        start_points,
        storable_text(name, "name"),
        now(),
    )


@dataclass
class Table:
    id: int
    token: str
    watch_token: str
    variant: str
    options: dict
    players: list[str]
    first_dealer: int
    start_points: int
    name: str
    created_at: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Table:
        return cls(
            row["id"],
            row["token"],
            row["watch_token"],
            row["variant"],
            json.loads(row["options"]),
            json.loads(row["players"]),
            row["first_dealer"],
            row["start_points"],
            row["name"],
            row["created_at"],
        )


@dataclass
class Event:
    id: int
    seq: int
    kind: str
    target: int | None
    data: dict
    created_at: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Event:
        return cls(row["id"], row["seq"], row["kind"], row["target"], json.loads(row["data"]), row["created_at"])

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "seq": self.seq,
            "kind": self.kind,
            "target": self.target,
            "data": self.data,
            "created_at": self.created_at,
        }


class Storage(ABC):
    """A ledger store (see the module's docstring). ``conn`` arguments are the back end's
    connection inside a transaction opened by :meth:`transaction`."""

    #: whether concurrent writes share one transaction (:mod:`companion.groupcommit`)
    shares_commits: bool = False
    #: None while the ledger is sound; else what was found wrong (writes are then refused)
    damage: str | None = None

    def __init__(self) -> None:
        self._attached: dict[Callable[[Any], Any], Any] = {}
        self._attached_lock = threading.Lock()

    def attached(self, kind: Callable[[Any], T]) -> T:
        """The one ``kind(self)`` kept with this store (created on first use): the live ledgers and
        the group commit that every request on this store shares."""
        with self._attached_lock:
            found = self._attached.get(kind)
            if found is None:
                found = self._attached[kind] = kind(self)
            return found

    @abstractmethod
    def describe(self) -> str:
        """Where the ledger lives, for people (a file path, or a database URL without its password)."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Any]:
        """One write transaction: committed when the block ends, rolled back on any exception;
        refused on a damaged ledger (:class:`DamagedError`), :class:`DiskFullError` when the disk is full."""

    @abstractmethod
    def lock_table(self, conn: Any, table_id: int) -> None:
        """Inside a write transaction: wait until no other writer holds the table, then hold it
        until the transaction ends."""

    @abstractmethod
    def schema_version(self) -> int: ...

    def refuse_if_damaged(self) -> None:
        """Raise :class:`DamagedError` when the ledger is known to be damaged."""
        if self.damage is not None:
            raise DamagedError(
                f"the ledger {self.describe()} is damaged ({self.damage}); nothing was written: {RESTORE_HINT}"
            )

    def mark_damaged(self, why: str) -> None:
        """A read met a damaged page: refuse writes from now on."""
        self.damage = self.damage or why

    @abstractmethod
    def create_table(
        self, *, variant: str, options: dict, players: list[str], first_dealer: int, start_points: int, name: str = ""
    ) -> Table: ...

    @abstractmethod
    def find_table(self, token: str) -> tuple[Table, bool] | None:
        """The table whose control or watch token is ``token``, and whether it is the control token."""

    @abstractmethod
    def events(self, table_id: int, conn: Any = None, *, after: int = 0) -> list[Event]:
        """The table's events in ``seq`` order (those after ``after`` only)."""

    @abstractmethod
    def last_seq(self, table_id: int, conn: Any = None) -> int:
        """The ``seq`` of the table's latest event (0 when none): the ledger's version."""

    @abstractmethod
    def append(
        self, conn: Any, table_id: int, kind: str, data: dict, target: int | None = None, seq: int | None = None
    ) -> Event:
        """Append one event inside an open transaction, as ``seq`` when the caller knows the table's
        next one (else it is read); ``UNIQUE (table_id, seq)`` refuses a wrong guess."""

    @abstractmethod
    def save_photo(self, table_id: int, data: bytes, recognition: dict) -> int:
        """Store a photo durably with its recognition; its id."""

    @abstractmethod
    def photo(self, table_id: int, photo_id: int) -> tuple[bytes | None, dict] | None:
        """The table's photo: its bytes (None when its file has gone) and its recognition; None
        when the table has no such photo."""

    @abstractmethod
    def has_photo(self, table_id: int, photo_id: int) -> bool:
        """Whether the table has the photo ``photo_id`` (its row; the bytes are not read): what a
        hand naming a photo is checked with. False for an id no photo can have (0, negative, too big)."""

    def remove_stale_tmp(self) -> list[Path]:
        """Remove what a crash left half-written (run before serving); answers what it removed."""
        return []

    def close(self) -> None:  # noqa: B027 - a store without connections to close does nothing
        """Close this thread's connections (the store opens new ones if used again)."""


RESTORE_HINT = (
    "restore your latest backup with `mjc restore BACKUP` (stop the server first; `mjc check` reports the damage)"
)


def open_store(data_dir: str | os.PathLike[str] | None = None, database_url: str | None = None) -> Storage:
    """The PostgreSQL store when ``database_url`` is given, else the SQLite one in ``data_dir``
    (default ``data``); :class:`StoreError` when it cannot be used."""
    if database_url:
        from .pgstore import PgStore

        return PgStore(database_url)
    from .store import Store

    return Store(data_dir or "data")
