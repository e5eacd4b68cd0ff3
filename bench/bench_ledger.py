"""Ledger write cost as a table's history grows: the full replay (before) against the live ledger
(after), measured in the same run on the same table.

One Ningxia table is filled through the API with a realistic evening (claims, kongs that pay,
won hands, draws). At events 1, 250, 500 and 1,000 it times, alternately, :data:`REPEAT` writes of
a drawn hand each way:

* before: the path every write took until the live ledger — read every event in the
  transaction, fold and derive the whole ledger, append, derive again, and answer the whole table
  view as JSON (:func:`full_replay_write`, the same calls the API made);
* after: :func:`companion.live.record` and its answer (the event and what it changed) as JSON;
* after, HTTP: the same write through the Flask app (``POST /draws``), routing and parsing included.

Prints the median milliseconds per write, the answer's size, the speed-up (before / after) and each
way's cost against its own cost at event 1. Then, past event 1,000, :data:`CLIENTS` threads write to
the table at once each way: writes per second and p50/p99 latency. Run: ``python3 run.py bench ledger``.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.api.request import TableRef
from companion.api.views import table_view
from companion.app import create_app
from companion.ledger import Evening
from companion.live import record
from companion.rules import TableRules
from companion.store import Store

CHECKPOINTS = (1, 250, 500, 1000)
REPEAT = 15
CLIENTS = 30
WRITES_EACH = 4
PLAYERS = ["Alice", "Bob", "Chen", "Dora"]
WIN = {"winner": "S", "win": {"by": "self_draw"}, "hand": {"concealed": "123m456p789s11222z", "winning_tile": "2z"}}
FILL: list[tuple[str, dict[str, Any]]] = [
    ("claims", {"claimer": "S", "from": "W"}),
    ("kongs", {"type": "kong", "declarer": "S", "from": "W"}),
    ("hands", {"winners": [WIN]}),
    ("kongs", {"type": "concealed_kong", "declarer": "N"}),
    ("draws", {}),
]


def draw(led: Any) -> tuple[str, dict[str, Any], None]:
    """A drawn hand under the ledger as it stands (works on a full replay and on the live ledger)."""
    state = led.state
    return "hand", {"hand_no": state.hand_no, "outcome": "draw", "state": state.to_dict(), "claims": led.claims,
                    "payments": [0, 0, 0, 0]}, None  # fmt: skip


def full_replay_write(store: Store, ref: TableRef) -> int:
    """The write as it was before the live ledger; answers the size of its JSON answer."""
    table, rules = ref.table, ref.rules
    with store.transaction() as conn:
        evening = Evening.of(table, rules, store.events(table.id, conn))
        kind, data, target = draw(evening.derive())
        wind = rules.next_wind(data)
        event = store.append(conn, table.id, kind, data, target)
    evening.fold(event, next_wind=wind)
    return len(json.dumps(table_view(ref, evening.derive()) | {"event": event.to_dict()}, ensure_ascii=False))


def live_write(store: Store, ref: TableRef) -> int:
    """The write as it is now; answers the size of its JSON answer."""
    event, changes = record(store, ref.table, ref.rules, draw)
    return len(json.dumps({"ok": True, "event": event.to_dict(), "changes": changes.to_dict()}, ensure_ascii=False))


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall-clock and CPU milliseconds of one call, and its result (the CPU time leaves out the
    wait for the disk's fsync, which other processes on a shared machine make noisy)."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "data")
        client = app.test_client()
        store: Store = app.extensions["mjc_store"]
        body = {"variant": "ningxia", "players": PLAYERS, "first_dealer": 0}
        token = str(client.post("/api/tables", json=body).get_json()["table"]["token"])
        found = store.find_table(token)
        assert found is not None
        ref = TableRef(found[0], True, TableRules.of(found[0]))
        rows = []
        events = 0
        for checkpoint in CHECKPOINTS:
            while events < checkpoint - 1:
                path, body = FILL[events % len(FILL)]
                assert client.post(f"/api/tables/{token}/{path}", json=body).status_code == 201
                events += 1
            samples: list[list[float]] = [[], [], [], [], []]
            sizes = [0, 0]
            for _ in range(REPEAT):
                wall, cpu, sizes[0] = timed(lambda: full_replay_write(store, ref))
                samples[0].append(wall)
                samples[1].append(cpu)
                wall, cpu, sizes[1] = timed(lambda: live_write(store, ref))
                samples[2].append(wall)
                samples[3].append(cpu)
                wall, _, resp = timed(lambda: client.post(f"/api/tables/{token}/draws"))
                assert resp.status_code == 201
                samples[4].append(wall)
            events += 3 * REPEAT
            rows.append((checkpoint, [statistics.median(s) for s in samples], sizes))
        _print(rows)
        crowd = {
            "before": crowded(lambda: full_replay_write(store, ref)),
            "after": crowded(lambda: live_write(store, ref)),
        }
    _print_crowd(events + 2 * CLIENTS * WRITES_EACH, crowd)


def crowded(write: Callable[[], Any]) -> tuple[float, list[float], int]:
    """:data:`CLIENTS` threads (the server's are threads too) each making :data:`WRITES_EACH`
    writes to the one table at once: the elapsed seconds, every write's milliseconds (a failed one
    too) and how many failed (SQLite's 15 s busy timeout)."""
    latencies: list[float] = []
    failed: list[BaseException] = []

    def client() -> None:
        for _ in range(WRITES_EACH):
            start = time.perf_counter()
            try:
                write()
            except sqlite3.OperationalError as err:
                failed.append(err)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, latencies, len(failed)


def _print_crowd(events: int, crowd: dict[str, tuple[float, list[float], int]]) -> None:
    print()
    print(f"{CLIENTS} clients writing to one table at once, {WRITES_EACH} writes each (history ~{events:,} events)")
    print(" | ".join(f"{h:>11}" for h in ("way", "writes/s", "p50 ms", "p99 ms", "max ms", "failed")))
    for name, (elapsed, lat, failed) in crowd.items():
        cuts = statistics.quantiles(lat, n=100)
        done = len(lat) - failed
        cells = (name, f"{done / elapsed:.0f}", f"{cuts[49]:.1f}", f"{cuts[98]:.1f}", f"{max(lat):.1f}", str(failed))
        print(" | ".join(f"{c:>11}" for c in cells))
    before, after = (statistics.quantiles(crowd[k][1], n=100)[98] for k in ("before", "after"))
    print(f"p99 before / after: {before / after:.1f}x")


def _print(rows: list[tuple[int, list[float], list[int]]]) -> None:
    first = rows[0][1]
    print(f"ledger write cost, drawn hand, median of {REPEAT} writes each way (ms; CPU: process time)")
    head = ("event", "before", "before CPU", "after", "after CPU", "after HTTP", "answer B", "speed-up",
            "before/ev1", "after/ev1", "aft CPU/ev1", "HTTP/ev1")  # fmt: skip
    print(" | ".join(f"{h:>11}" for h in head))
    for event, (before, before_cpu, after, after_cpu, http), (before_size, after_size) in rows:
        cells = (f"{event:,}", f"{before:.2f}", f"{before_cpu:.2f}", f"{after:.2f}", f"{after_cpu:.2f}",
                 f"{http:.2f}", f"{before_size // 1000}k/{after_size / 1000:.1f}k", f"{before / after:.1f}x",
                 f"{before / first[0]:.2f}", f"{after / first[2]:.2f}", f"{after_cpu / first[3]:.2f}",
                 f"{http / first[4]:.2f}")  # fmt: skip
        print(" | ".join(f"{c:>11}" for c in cells))
    print("(event: the table's history at the first timed write; each checkpoint writes 45 more events;")
    print(" answer B: the JSON answer's size before/after; x/ev1: the cost against the same way's at event 1)")


if __name__ == "__main__":
    main()
