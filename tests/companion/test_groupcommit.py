"""Group commit (:mod:`companion.groupcommit`): concurrent writes share transactions, each is
answered only once committed, a refused write is rolled back alone, a failed commit records
nothing and answers every write of its batch with the error. Concurrent writes are recorded once
and in order on both back ends (PostgreSQL: a transaction per write); the batch tests are SQLite's."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.groupcommit import Batch, group_commit
from companion.ledger import replay
from companion.live import ledger_of, ledgers, record
from companion.rules import TableRules
from companion.storage import Storage, open_store
from companion.store import Store

PLAYERS = ["Alice", "Bob", "Chen", "Dora"]


def draw(led: Any) -> tuple[str, dict[str, Any], None]:
    state = led.state
    data = {"hand_no": state.hand_no, "outcome": "draw", "state": state.to_dict(), "claims": led.claims}
    return "hand", data | {"payments": [0, 0, 0, 0]}, None


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "data")


@pytest.fixture()
def any_store(tmp_path: Path, database_url: str | None) -> Any:
    found = open_store(tmp_path / "data", database_url)
    yield found
    found.close()


def new_table(store: Storage) -> Any:
    return store.create_table(variant="ningxia", options={}, players=PLAYERS, first_dealer=0, start_points=0)


def test_concurrent_writes_each_recorded_once_in_order(any_store: Storage) -> None:
    store = any_store
    table = new_table(store)
    rules = TableRules.of(table)
    answered: list[int] = []
    lock = threading.Lock()

    def client() -> None:
        for _ in range(10):
            event, changes = record(store, table, rules, draw)
            assert changes.version == event.seq
            with lock:
                answered.append(event.seq)

    threads = [threading.Thread(target=client) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = store.events(table.id)
    assert sorted(answered) == [e.seq for e in stored] == list(range(1, 121))
    assert [e["state"]["hand_no"] for e in (ev.data for ev in stored)] == list(range(1, 121))
    assert ledger_of(store, table, rules).to_dict() == replay(table, rules, stored).to_dict()


def queued_behind_a_leader(store: Store, works: list[Any]) -> list[tuple[Any, BaseException | None]]:
    """Run ``works`` as one batch: they queue while a first job holds the leader, then commit together."""
    release, started = threading.Event(), threading.Event()
    commit = group_commit(store)

    def blocker(batch: Batch) -> str:
        started.set()
        release.wait(10)
        return "first"

    out: list[tuple[Any, BaseException | None]] = [(None, None)] * len(works)

    def run(i: int, work: Any) -> None:
        try:
            out[i] = (commit.run(work), None)
        except Exception as err:
            out[i] = (None, err)

    first = threading.Thread(target=commit.run, args=(blocker,))
    first.start()
    started.wait(10)
    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate(works)]
    for t in threads:
        t.start()
    while len(commit._queue) < len(works):  # every job queued behind the leader
        threading.Event().wait(0.01)
    release.set()
    for t in [first, *threads]:
        t.join()
    return out


def test_a_write_refused_before_writing_is_answered_alone(store: Store) -> None:
    table = new_table(store)

    def insert(n: int) -> Any:
        def work(batch: Batch) -> int:
            return store.append(batch.conn, table.id, "note", {"n": n}).seq

        return work

    def refused(batch: Batch) -> None:
        raise ValueError("refused by the rules")

    out = queued_behind_a_leader(store, [insert(1), refused, insert(2)])
    assert out[0] == (1, None) and out[2] == (2, None)
    assert isinstance(out[1][1], ValueError)
    assert [e.data for e in store.events(table.id)] == [{"n": 1}, {"n": 2}]


def test_a_write_failing_after_writing_fails_its_batch(store: Store) -> None:
    table = new_table(store)

    def insert(batch: Batch) -> int:
        return store.append(batch.conn, table.id, "note", {"n": 1}).seq

    def fails_late(batch: Batch) -> None:
        store.append(batch.conn, table.id, "note", {"n": "half"})
        raise ValueError("failed after writing")

    out = queued_behind_a_leader(store, [insert, fails_late])
    assert all(isinstance(err, ValueError) for _, err in out)
    assert store.events(table.id) == []


def test_a_failed_commit_records_nothing_and_answers_every_write(store: Store) -> None:
    table = new_table(store)
    rules = TableRules.of(table)
    record(store, table, rules, draw)
    undone: list[int] = []

    def live_write(batch: Batch) -> Any:
        batch.hold("t", lambda: ledgers(store).holding(table, rules), lambda: undone.append(1))
        return store.append(batch.conn, table.id, "note", {"n": 1})

    def breaks_the_commit(batch: Batch) -> None:
        batch.conn.execute("PRAGMA defer_foreign_keys=ON")  # checked at COMMIT, which then fails
        store.append(batch.conn, 999, "note", {})

    out = queued_behind_a_leader(store, [live_write, breaks_the_commit])
    assert all(isinstance(err, sqlite3.IntegrityError) for _, err in out)
    assert undone == [1]
    assert [e.seq for e in store.events(table.id)] == [1]
    event, _ = record(store, table, rules, draw)  # the store goes on working
    assert event.seq == 2
