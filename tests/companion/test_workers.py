"""Several server processes on one PostgreSQL database (``mjc serve --database-url``), writing to
one table at once: every acknowledged write is stored exactly once and unchanged, the table's
``seq`` runs without a gap, each hand follows the one before it, the balances sum to zero; racing
undos of the same event: exactly one wins, the others answer 409; a watch link served by one
process sees what the others wrote."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from bench.serverproc import Client, Served

WORKERS = 3
CLIENTS_PER_WORKER = 3
WRITES = 8


@pytest.fixture()
def workers(pg_cluster: Any, tmp_path: Path) -> Any:
    url = pg_cluster.new_database()
    started: list[Served] = []
    try:
        for i in range(WORKERS):
            started.append(Served(tmp_path / f"unused-{i}", database_url=url).start())
        yield started
    finally:
        for served in started:
            served.stop()


def at_once(jobs: list[Any]) -> list[Any]:
    """Run ``jobs`` in threads released together; their results in order."""
    gate = threading.Barrier(len(jobs))
    out: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        gate.wait()
        out[i] = jobs[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_processes_writing_one_table_keep_every_write_once_in_order(workers: list[Served]) -> None:
    token = Client(workers[0].port).new_table()
    ports = [w.port for w in workers for _ in range(CLIENTS_PER_WORKER)]

    def writer(port: int, first: int) -> Any:
        client = Client(port)
        try:
            return [client.write(token, first + n)[1] for n in range(WRITES)]
        finally:
            client.close()

    acked = [ev for evs in at_once([lambda p=p, i=i: writer(p, i) for i, p in enumerate(ports)]) for ev in evs]
    _, export = Client(workers[-1].port).call("GET", f"/api/tables/{token}/export.json")
    stored = {ev["id"]: ev for ev in export["events"]}
    assert len(acked) == len(ports) * WRITES == len(export["events"]) == len(stored)
    assert all(stored[ev["id"]] == ev for ev in acked)
    assert [ev["seq"] for ev in export["events"]] == list(range(1, len(acked) + 1))
    assert [ev["data"]["hand_no"] for ev in export["events"]] == list(range(1, len(acked) + 1))
    assert sum(export["ledger"]["balances"]) == 0 and any(ev["data"]["outcome"] == "win" for ev in acked)

    last = export["ledger"]["last_undoable"]

    def undo(port: int) -> int:
        return Client(port).call("POST", f"/api/tables/{token}/undo", {"event_id": last})[0]

    assert sorted(at_once([lambda p=p: undo(p) for p in ports])) == [201] + [409] * (len(ports) - 1)
    _, after = Client(workers[1].port).call("GET", f"/api/tables/{token}/ledger")
    assert after["version"] == len(acked) + 1 and after["last_undoable"] != last


def test_a_watch_link_on_one_process_sees_writes_through_another(workers: list[Served]) -> None:
    first, second = Client(workers[0].port), Client(workers[1].port)
    _, view = first.call(
        "POST", "/api/tables", {"variant": "ningxia", "players": ["a", "b", "c", "d"], "first_dealer": 0}
    )
    watch = view["table"]["watch_token"]
    _, polled = second.call("GET", f"/api/tables/{watch}/ledger?since=0")
    assert polled == {"ok": True, "changed": False, "version": 0}
    first.write(view["table"]["token"], 0)
    _, polled = second.call("GET", f"/api/tables/{watch}/ledger?since=0")
    assert polled["changed"] is True and polled["version"] == 1
