"""Writes to a real ``mjc serve`` over HTTP: throughput, latency under load, cost as history grows,
and ``kill -9`` rounds.

The server runs as a subprocess (:mod:`bench.serverproc`) on a fresh data folder; clients are
threads of this process, each with its own keep-alive connection, writing hands (two drawn, one
won) as fast as the answers come. Rows:

* one client, one table, at event 1 — the baseline every ratio is against;
* one client, one table, at event 1,000 (the same table after 1,000 writes);
* 1 table × 30 clients and 50 tables × 50 clients: writes per second and p50/p99 latency over
  :data:`ROUNDS` runs on fresh tables.

``--compare DIR`` measures a second source tree (e.g. an export of an earlier commit:
``git archive COMMIT | tar -x -C DIR``) in the same run: both servers run side by side and take
turns at each load, so a busy machine slows them alike.
``--crash-rounds N`` then runs N ``kill -9`` rounds (:func:`bench.serverproc.crash_round`) and
prints what each found.
``--database-url URL`` adds the back ends' table: :data:`PG_WORKERS` ``mjc serve`` processes on
that PostgreSQL database (clients spread over them round-robin, as a reverse proxy would), one
process on the same database, and one process on SQLite, taking turns at 50 tables × 50 clients;
``--database-url throwaway`` starts a throwaway PostgreSQL server for it (:mod:`bench.pgcluster`,
``fsync`` on). Run: ``python3 run.py bench server`` (options after the name).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from pgcluster import Cluster
from serverproc import ROOT, Client, Served, cpu_seconds, crash_round

SEQUENTIAL = 60
FILL_TO = 1000
FILL_CLIENTS = 4
LOADS = ((1, 30, 20), (50, 50, 12))  # tables, clients, writes per client
ROUNDS = 3
PER_TABLE = "one client, one table"
PG_WORKERS = 4
BACKEND_LOAD = (50, 50, 12)  # tables, clients, writes per client


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def timed_writes(
    port: int | list[int], tokens: list[str], clients: int, each: int, poll: bool = False
) -> tuple[list[float], float]:
    """``clients`` threads (client i on table i mod len(tokens), and on port i mod len(ports) when
    several servers share the ledger) each writing ``each`` hands at once (or, with ``poll``,
    asking ``each`` times whether the ledger changed, as the page does every few seconds); the
    latencies in ms and the wall time in s."""
    ports = port if isinstance(port, list) else [port]
    lat: list[list[float]] = [[] for _ in range(clients)]
    start = threading.Barrier(clients + 1)

    def run(i: int) -> None:
        client = Client(ports[i % len(ports)], timeout=120)
        client.call("GET", "/api/health")  # connected before the clock starts
        start.wait()
        for n in range(each):
            t0 = time.perf_counter()
            if poll:
                client.call("GET", f"/api/tables/{tokens[i % len(tokens)]}/ledger?since=0")  # unchanged: no events
            else:
                client.write(tokens[i % len(tokens)], n + i)
            lat[i].append((time.perf_counter() - t0) * 1000)
        client.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return [x for xs in lat for x in xs], time.perf_counter() - t0


Row = tuple[str, int, float, float, float]


class Subject:
    """One server under test and its tables."""

    def __init__(self, label: str, tree: Path) -> None:
        self.label = label
        self.server = Served(Path(tempfile.mkdtemp(prefix="mjc-bench-")) / "data", tree).start()
        self.client = Client(self.server.port)
        self.long = self.client.new_table()  # the table whose history grows to event 1,000

    def writes(self, tables: int, clients: int, each: int) -> tuple[list[float], float]:
        tokens = [self.client.new_table() for _ in range(tables)]
        return timed_writes(self.server.port, tokens, clients, each)

    def close(self) -> None:
        self.client.close()
        self.server.stop()


def measure(trees: dict[str, Path]) -> dict[str, list[Row]]:
    """Rows (what, writes, writes/s, p50 ms, p99 ms) per server; the servers run side by side and
    take turns, :data:`ROUNDS` times per load, so a busy machine slows them alike."""
    subjects = [Subject(label, tree) for label, tree in trees.items()]
    rows: dict[str, list[Row]] = {s.label: [] for s in subjects}

    def add(what: str, runs: dict[str, list[tuple[list[float], float]]]) -> None:
        for label, found in runs.items():
            lat = [x for samples, _ in found for x in samples]
            wall = sum(w for _, w in found)
            rows[label].append((what, len(lat), len(lat) / wall, statistics.median(lat), p99(lat)))

    try:
        for s in subjects:
            timed_writes(s.server.port, [s.client.new_table()], 1, 20)  # warm up
        add(
            f"{PER_TABLE}, at event 1",
            {s.label: [timed_writes(s.server.port, [s.long], 1, SEQUENTIAL)] for s in subjects},
        )
        for s in subjects:
            timed_writes(s.server.port, [s.long], FILL_CLIENTS, (FILL_TO - SEQUENTIAL) // FILL_CLIENTS)
        add(
            f"{PER_TABLE}, at event {FILL_TO:,}",
            {s.label: [timed_writes(s.server.port, [s.long], 1, SEQUENTIAL)] for s in subjects},
        )
        for tables, clients, each in LOADS:
            runs: dict[str, list[tuple[list[float], float]]] = {s.label: [] for s in subjects}
            for _ in range(ROUNDS):
                for s in subjects:
                    runs[s.label].append(s.writes(tables, clients, each))
            add(f"{tables} table(s) × {clients} clients", runs)
    finally:
        for s in subjects:
            s.close()
    return rows


def print_table(results: dict[str, list[Row]]) -> None:
    base = next(iter(results.values()))[0][3]
    print(f"\nWrites to mjc serve over HTTP (ratios against the first row's p50: {base:.2f} ms)")
    print(
        f"{'server':<12} {'load':<38} {'writes':>7} {'writes/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'p50/base':>9} {'p99/base':>9}"
    )
    for label, rows in results.items():
        for what, n, rate, p50, p99_ in rows:
            print(
                f"{label:<12} {what:<38} {n:>7} {rate:9.0f} {p50:8.2f} {p99_:8.2f} {p50 / base:8.2f}x {p99_ / base:8.2f}x"
            )


class Workers:
    """``count`` servers on one ledger (a PostgreSQL database, or SQLite when ``url`` is None)."""

    def __init__(self, label: str, count: int, url: str | None) -> None:
        self.label = label
        self.url = url
        self.folder = Path(tempfile.mkdtemp(prefix="mjc-bench-"))
        self.servers = [Served(self.folder / "data", ROOT, database_url=url).start() for _ in range(count)]
        self.client = Client(self.servers[0].port)

    def writes(self, tables: int, clients: int, each: int, poll: bool = False) -> tuple[list[float], float]:
        tokens = [self.client.new_table() for _ in range(tables)]
        return timed_writes([s.port for s in self.servers], tokens, clients, each, poll)

    def cpu(self) -> float:
        """CPU seconds the servers have used."""
        return sum(cpu_seconds(s.proc.pid) for s in self.servers if s.proc is not None)

    def close(self) -> None:
        self.client.close()
        for server in self.servers:
            server.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


#: (ledger, requests, per s, p50 ms, p99 ms, app CPU ms per request, database CPU ms per request or None)
BackendRow = tuple[str, int, float, float, float, float, float | None]


def measure_backends(url: str, db_pid: int | None) -> dict[str, list[BackendRow]]:
    """Rows per kind of request (writes, unchanged polls) and back end (SQLite 1 process,
    PostgreSQL 1 and :data:`PG_WORKERS` processes) at :data:`BACKEND_LOAD`, :data:`ROUNDS` turns
    each, taking turns; with the CPU time the servers (and the database server ``db_pid``, when it
    runs here) used per request."""
    tables, clients, each = BACKEND_LOAD
    subjects: list[Workers] = []
    results: dict[str, list[BackendRow]] = {}
    db_cpu = (lambda: cpu_seconds(db_pid, children=True)) if db_pid else (lambda: 0.0)
    try:
        subjects.append(Workers("SQLite, 1 process", 1, None))
        subjects.append(Workers("PostgreSQL, 1 process", 1, url))
        subjects.append(Workers(f"PostgreSQL, {PG_WORKERS} processes", PG_WORKERS, url))
        for s in subjects:
            s.writes(2, 4, 5)  # warm up
        for kind, poll in (("writes", False), ("unchanged polls", True)):
            runs: dict[str, list[tuple[list[float], float]]] = {s.label: [] for s in subjects}
            cpu = {s.label: [0.0, 0.0] for s in subjects}
            for _ in range(ROUNDS):
                for s in subjects:
                    app0, db0 = s.cpu(), db_cpu()
                    runs[s.label].append(s.writes(tables, clients, each * (4 if poll else 1), poll))
                    cpu[s.label][0] += s.cpu() - app0
                    cpu[s.label][1] += db_cpu() - db0
            results[kind] = [_row(s, runs[s.label], cpu[s.label], db_pid is not None) for s in subjects]
    finally:
        for s in subjects:
            s.close()
    return results


def _row(s: Workers, found: list[tuple[list[float], float]], cpu: list[float], db_known: bool) -> BackendRow:
    lat = [x for samples, _ in found for x in samples]
    n = len(lat)
    db = 1000 * cpu[1] / n if db_known and s.url is not None else None
    return s.label, n, n / sum(w for _, w in found), statistics.median(lat), p99(lat), 1000 * cpu[0] / n, db


def print_backends(results: dict[str, list[BackendRow]]) -> None:
    tables, clients, _ = BACKEND_LOAD
    for kind, rows in results.items():
        base = rows[0]
        print(
            f"\nBack ends, {kind}: {tables} tables × {clients} clients over HTTP, {ROUNDS} rounds (ratios against {base[0]})"
        )
        print(
            f"{'ledger':<26} {'requests':>8} {'per s':>7} {'p50 ms':>8} {'p99 ms':>8} {'rate/base':>10} {'p50/base':>9}"
            f" {'app CPU ms':>10} {'db CPU ms':>9}"
        )
        for what, n, rate, p50, p99_, app, db in rows:
            print(
                f"{what:<26} {n:>8} {rate:7.0f} {p50:8.2f} {p99_:8.2f} {rate / base[2]:9.2f}x {p50 / base[3]:8.2f}x"
                f" {app:10.2f} {'-' if db is None else f'{db:.2f}':>9}"
            )
    print("(CPU ms: the servers' CPU time per request; db: the PostgreSQL server's, when it runs on this machine)")


def backends_table(url: str) -> None:
    """The back ends' table on ``url`` (``throwaway``: a throwaway server started and removed here)."""
    cluster = Cluster(durable=True).start() if url == "throwaway" else None
    try:
        print_backends(measure_backends(cluster.new_database() if cluster else url, cluster.pid if cluster else None))
    finally:
        if cluster:
            cluster.stop()


def crash_table(rounds: int) -> int:
    print(f"\nkill -9 rounds ({rounds}): 4 clients on 2 tables, killed at a random moment, restarted")
    print(
        f"{'round':>5} {'killed at s':>11} {'acknowledged':>12} {'stored':>7} {'lost':>5} {'altered':>8} {'duplicated':>10} {'integrity':>9} {'sum':>4}"
    )
    bad = 0
    for i in range(rounds):
        r = crash_round(Path(tempfile.mkdtemp(prefix="mjc-crash-")) / "data", seed=i)
        bad += not r.ok
        print(
            f"{i + 1:>5} {r.killed_after_s:11.2f} {r.acknowledged:>12} {r.stored:>7} {len(r.lost):>5} "
            f"{len(r.altered):>8} {len(r.duplicated):>10} {r.integrity:>9} {r.balances_sum:>4}"
        )
    print(f"rounds with a lost, altered or duplicated write, bad integrity or balances: {bad} of {rounds}")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", type=Path, help="another source tree to measure in the same run, listed first")
    parser.add_argument("--crash-rounds", type=int, default=0, help="kill -9 rounds to run after the load")
    parser.add_argument("--no-load", action="store_true", help="only the kill -9 rounds (and the back ends' table)")
    parser.add_argument(
        "--database-url", help="a PostgreSQL database for the back ends' table, or 'throwaway' to start one"
    )
    args = parser.parse_args(argv)
    if not args.no_load:
        trees = {args.compare.name: args.compare} if args.compare else {}
        print_table(measure(trees | {"this tree": ROOT}))
    if args.database_url:
        backends_table(args.database_url)
    return crash_table(args.crash_rounds) if args.crash_rounds else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
