"""The ledger kept up to date in memory, so a write costs the same at event 1,000 as at event 1.

The events stay the source of truth (:mod:`companion.ledger`); what is kept here is derivable
from them and is checked against the full replay (:func:`companion.ledger.replay`) in the tests.

* :class:`LiveLedger` is an :class:`~companion.ledger.Evening` that also keeps the effective
  events in the evening's order with their entries, balances and chart points. Folding an event
  recomputes the entries from the first place it changed: a new hand, kong or claim only its own;
  a correction or the undo of one the entries after the hand it replaces (arithmetic, no replay).
* :class:`Ledgers` holds one live ledger per table for a :class:`~companion.storage.Storage`, with the
  version (the last event's ``seq``) it was folded up to. Before use it reads only the events
  after that version (the *tail*: another process may have written), so a write reads one row,
  not the whole history. At most :data:`KEEP_TABLES` tables are kept; the others are folded again
  from their events when next used.
* :func:`record` appends a write's event and answers its :class:`Changes`: the new and changed
  entries, chart points and log rows, the balances, state and version — not the whole ledger.
  Inside the write transaction it first takes the table's lock in the store
  (:meth:`~companion.storage.Storage.lock_table`; with PostgreSQL other processes write too), then
  catches the live ledger up with what they appended, so every write is computed from the last
  event and appended as the next ``seq``.
* A write may carry an idempotency key (kept in its event's ``data``, :data:`KEY_FIELD`): the live
  ledger indexes the keys as it folds the events (so a restart, or another process, knows them
  too), and a write that finds its key already recorded raises :class:`AlreadyRecorded`, which
  :func:`record` answers with that event and no change.
"""

from __future__ import annotations

import bisect
import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine.seats import Seat

from .groupcommit import Batch, group_commit
from .ledger import Evening, HandState, Replay, claims_of, ledger_entry, timeline_point
from .rules import TableRules
from .storage import Event, Storage, Table

#: tables whose live ledger stays in memory (least recently used ones are dropped first)
KEEP_TABLES = 256
#: where an event's ``data`` keeps the idempotency key of the write that recorded it:
#: ``{"key": …, "request": the request's fingerprint}``
KEY_FIELD = "idempotency"


class AlreadyRecorded(Exception):
    """Raised by a write (a :data:`Build`) whose idempotency key is already recorded: :func:`record`
    appends nothing and answers ``event``, the one recorded before, with no change."""

    def __init__(self, event: Event) -> None:
        super().__init__(f"already recorded as event {event.id}")
        self.event = event


@dataclass(frozen=True)
class Current:
    """What a write is computed from: the next hand's state and claims, balances, the latest
    effective event and the effective entries by id; the version, the events recorded after a
    version (``since``) and the event recorded with an idempotency key (``keyed``)."""

    state: HandState
    claims: dict[str, dict[str, int]]
    balances: list[int]
    last_undoable: int | None
    entry: Callable[[int], dict | None]
    version: int
    since: Callable[[int], list[Event]]
    keyed: Callable[[str], Event | None]
    players: list[str] = dataclasses.field(default_factory=list)  # the players' names now
    rules: TableRules | None = None  # the house rules of the current hand
    options: dict[str, Any] = dataclasses.field(default_factory=dict)  # the latest house rules
    started: bool = False  # the current hand has a claim or a kong recorded
    rules_at: Callable[[int | None], TableRules] | None = None  # the house rules a hand's `state.rules` names


@dataclass(frozen=True)
class Changes:
    """What one write changed, for a page that holds the ledger at ``from_version``: replace the
    entries from index ``entries_from`` on with ``entries`` (and the chart points after the start
    point's ``entries_from`` likewise with ``timeline``), put each ``log`` row in place by id
    (appending new ones), and take ``state``, ``claims``, ``balances``, ``last_undoable`` and
    ``version`` as they are. A page at another version reloads the ledger instead."""

    from_version: int
    version: int
    state: HandState
    claims: dict[str, dict[str, int]]
    balances: list[int]
    last_undoable: int | None
    entries_from: int
    entries: list[dict]
    timeline: list[dict]
    log: list[dict]

    def to_dict(self) -> dict[str, Any]:
        return {
            "from_version": self.from_version,
            "version": self.version,
            "state": self.state.to_dict(),
            "claims": self.claims,
            "balances": self.balances,
            "last_undoable": self.last_undoable,
            "entries_from": self.entries_from,
            "entries": self.entries,
            "timeline": self.timeline,
            "log": self.log,
        }


class LiveLedger(Evening):
    """An evening whose derived ledger is kept up to date as events are folded in."""

    def __init__(self, table: Table, rules: TableRules) -> None:
        super().__init__(table, rules)
        self._order: list[Event] = []  # effective events in the evening's order
        self._places: list[int] = []  # their places (the original hand's seq), ascending
        self._entries: list[dict] = []  # an entry per effective event, balances after it
        self._timeline: list[dict] = [{"seq": 0, "label": "start", "balances": [int(table.start_points)] * 4}]
        self._stale = 0  # entries from this index on are to be recomputed
        self._log_rows: dict[int, dict] = {}  # event id -> its log row (in fold order)
        self._undoable: Event | None = None
        self._changed_from = 0  # since mark(): the first entry index that changed
        self._touched: set[int] = set()  # since mark(): log rows added or changed
        self._keys: dict[str, Event] = {}  # idempotency key -> the event recorded with it

    @property
    def version(self) -> int:
        return self._events[-1].seq if self._events else 0

    def since(self, version: int) -> list[Event]:
        """The events recorded after ``version`` (every kind, in ``seq`` order)."""
        return self._events[bisect.bisect_right(self._events, version, key=lambda e: e.seq) :]

    # ------------------------------------------------------------------ folding
    def fold(self, ev: Event, next_wind: Seat | None = None) -> None:
        super().fold(ev, next_wind)
        self._log_rows[ev.id] = self._log_row(ev)
        self._touched.add(ev.id)
        key = ev.data.get(KEY_FIELD)
        if isinstance(key, dict) and isinstance(key.get("key"), str):
            self._keys.setdefault(key["key"], ev)

    def _activate(self, ev: Event) -> None:
        super()._activate(ev)
        place = self._position(ev)
        at = bisect.bisect_right(self._places, place)
        self._places.insert(at, place)
        self._order.insert(at, ev)
        self._changed(at, ev)
        if self._undoable is None or ev.seq > self._undoable.seq:
            self._undoable = ev

    def _deactivate(self, ev: Event, status: str) -> None:
        super()._deactivate(ev, status)
        at = self._order.index(ev, bisect.bisect_left(self._places, self._position(ev)))
        del self._places[at], self._order[at]
        self._changed(at, ev)
        if self._undoable is ev:
            self._undoable = max(self._active.values(), key=lambda e: e.seq) if self._active else None

    def _changed(self, at: int, ev: Event) -> None:
        self._stale = min(self._stale, at)
        self._changed_from = min(self._changed_from, at)
        if ev.id in self._log_rows:
            self._log_rows[ev.id]["status"] = self._status[ev.id]
            self._touched.add(ev.id)

    def _refresh(self) -> None:
        """Recompute the entries and chart points from the first stale one."""
        if self._stale >= len(self._entries) and len(self._entries) == len(self._order):
            return
        del self._entries[self._stale :], self._timeline[self._stale + 1 :]
        balances = self._timeline[-1]["balances"]
        for ev in self._order[self._stale :]:
            entry = ledger_entry(ev, balances)
            balances = entry["balances"]
            self._entries.append(entry)
            self._timeline.append(timeline_point(entry))
        self._stale = len(self._order)

    # ------------------------------------------------------------------ reading
    def current(self) -> Current:
        """The ledger a write is computed from (no copy of the history)."""
        self._refresh()
        cut = len(self._order)
        while cut and self._order[cut - 1].kind not in ("hand", "correct"):
            cut -= 1
        state = self._state_after(self._order[cut - 1] if cut else None)
        entries = self._entries

        def entry(event_id: int) -> dict | None:
            return next((e for e in reversed(entries) if e["id"] == event_id), None)

        undoable = self._undoable.id if self._undoable is not None else None
        claims = claims_of(self._order[cut:], state.hand_no)
        started = any(e.kind in ("claim", "kong") and e.data.get("hand_no") == state.hand_no for e in self._order[cut:])
        balances = list(self._timeline[-1]["balances"])
        rules = self.rules_at(state.rules)
        players, options = self.players(), self.latest_options()
        return Current(
            state,
            claims,
            balances,
            undoable,
            entry,
            self.version,
            self.since,
            self._keys.get,
            players,
            rules,
            options,
            started,
            self.rules_at,
        )

    def snapshot(self) -> Replay:
        """The whole ledger, as :func:`companion.ledger.replay` derives it."""
        now = self.current()
        rows = list(self._log_rows.values())
        return Replay(
            now.state,
            now.claims,
            now.balances,
            list(self._entries),
            [dict(r) for r in rows],
            list(self._timeline),
            self.version,
            now.last_undoable,
            now.players,
            now.rules,
            now.options,
            self.rules_at,
        )

    def mark(self) -> None:
        """Start collecting :meth:`changes`."""
        self._refresh()
        self._changed_from = len(self._order)
        self._touched = set()

    def changes(self, from_version: int) -> Changes:
        """What changed since :meth:`mark`."""
        now = self.current()
        at = min(self._changed_from, len(self._entries))
        rows = [dict(self._log_rows[i]) for i in sorted(self._touched, key=lambda i: self._log_rows[i]["seq"])]
        return Changes(
            from_version,
            self.version,
            now.state,
            now.claims,
            now.balances,
            now.last_undoable,
            at,
            self._entries[at:],
            self._timeline[at + 1 :],
            rows,
        )


class Ledgers:
    """The live ledgers of one store's tables, each with a lock (see the module's docstring)."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._tables: OrderedDict[int, tuple[threading.Lock, LiveLedger | None]] = OrderedDict()

    @contextmanager
    def holding(self, table: Table, rules: TableRules) -> Iterator[LiveLedger]:
        """The table's live ledger brought up to the stored events, held for the block (a group
        commit holds it for its whole transaction, so writes fold in the order they commit and no
        read sees a ledger folded ahead of the file)."""
        lock = self._table_lock(table.id)
        with lock:
            with self._lock:
                entry = self._tables.get(table.id)
            live = entry[1] if entry is not None and entry[0] is lock else None
            if live is None or self.store.last_seq(table.id) < live.version:  # new, or a restored file
                live = LiveLedger(table, rules)
            catch_up(live, self.store)
            with self._lock:
                entry = self._tables.get(table.id)
                if entry is None or entry[0] is lock:  # not replaced while this thread waited
                    self._tables[table.id] = (lock, live)
            yield live

    def forget(self, table_id: int) -> None:
        """Drop the table's live ledger (it was folded past what the file holds): its next use
        folds it again from the stored events."""
        with self._lock:
            entry = self._tables.get(table_id)
            if entry is not None:
                self._tables[table_id] = (entry[0], None)

    def _table_lock(self, table_id: int) -> threading.Lock:
        """The table's lock (made on first use); the least recently used tables not in use are
        dropped beyond :data:`KEEP_TABLES`."""
        with self._lock:
            if table_id not in self._tables:
                self._tables[table_id] = (threading.Lock(), None)
            self._tables.move_to_end(table_id)
            idle = [k for k, (lock, _) in self._tables.items() if not lock.locked() and k != table_id]
            for k in idle[: max(0, len(self._tables) - KEEP_TABLES)]:
                del self._tables[k]
            return self._tables[table_id][0]


def ledgers(store: Storage) -> Ledgers:
    """The live ledgers kept for ``store``."""
    return store.attached(Ledgers)


def ledger_of(store: Storage, table: Table, rules: TableRules) -> Replay:
    """The table's whole ledger (reads): the live ledger brought up to date, copied."""
    with ledgers(store).holding(table, rules) as live:
        return live.snapshot()


#: a write: from the ledger as it stands, the event's kind, data and target (raise to refuse)
Build = Callable[[Current], tuple[str, dict[str, Any], int | None]]


def record(store: Storage, table: Table, rules: TableRules, build: Build) -> tuple[Event, Changes]:
    """Append the event ``build`` computes from the ledger and return it with what it changed, once
    committed: writes queued at the same time share one transaction and one sync
    (:mod:`companion.groupcommit`); the table stays locked until that commit. A hand the rule set
    cannot name the next dealer after raises the rule set's error, and nothing is recorded. A
    ``build`` raising :class:`AlreadyRecorded` records nothing: the answer is that earlier event
    (its ``seq`` at most the changes' ``from_version``) and no change."""
    kept = ledgers(store)

    def work(batch: Batch) -> tuple[Event, Changes]:
        store.lock_table(batch.conn, table.id)  # other processes' writers of the table wait from here
        live: LiveLedger = batch.hold(table.id, lambda: kept.holding(table, rules), lambda: kept.forget(table.id))
        # caught up inside the transaction (``holding``), so no other process writes before the
        # commit: the next seq is the live ledger's version + 1
        before = live.version
        live.mark()
        try:
            kind, data, target = build(live.current())
        except AlreadyRecorded as again:
            return again.event, live.changes(before)
        wind = live.hand_rules(data).next_wind(data) if kind in ("hand", "correct") else None
        event = store.append(batch.conn, table.id, kind, data, target, seq=before + 1)
        try:
            live.fold(event, next_wind=wind)
            return event, live.changes(before)
        except BaseException:  # pragma: no cover - folding a stored event does not fail
            kept.forget(table.id)
            raise

    return group_commit(store).run(work)


def catch_up(live: LiveLedger, store: Storage) -> None:
    """Fold the events stored after the live ledger's version (one indexed read when there are none)."""
    if store.last_seq(live.table.id) > live.version:
        for ev in store.events(live.table.id, after=live.version):
            live.fold(ev)
