"""A real ``mjc serve`` in a subprocess and HTTP clients for it: what the server benchmark
(:mod:`bench.bench_server`) and the crash test (``tests/companion/test_crash.py``) share.

* :class:`Served` starts ``python -m companion serve`` from a source tree on a free port and a
  data folder (or a PostgreSQL database URL), waits until ``/api/health`` answers, and stops it
  (politely, or with ``SIGKILL``).
* :class:`Client` is one keep-alive HTTP connection that creates tables and records drawn hands.
* :func:`crash_round` writes from a few client threads, kills the server with ``SIGKILL`` at a
  random moment, restarts it and checks that every acknowledged write is there exactly once and
  unchanged, that the ledger's integrity is ok and that the balances sum to zero.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Alice", "Bob", "Chen", "Dora"]
WIN = {"winner": "S", "win": {"by": "self_draw"}, "hand": {"concealed": "123m456p789s11222z", "winning_tile": "2z"}}
START_S = 30.0


def cpu_seconds(pid: int, children: bool = False) -> float:
    """The CPU time (user + system) process ``pid`` and its ended children have used (with
    ``children``: plus that of its live child processes), from ``/proc``; 0 where it has gone."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    if children:
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11 : 15 if one == pid else 13]) / tick  # the root's: + waited children
    return total


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``mjc serve`` from ``tree`` on ``data_dir``, or on the PostgreSQL database ``database_url``
    (started by :meth:`start`)."""

    def __init__(self, data_dir: Path, tree: Path = ROOT, database_url: str | None = None) -> None:
        self.data_dir = data_dir
        self.tree = tree
        self.database_url = database_url
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Served:
        """Start the server and wait until it answers (RuntimeError with its output if it does not)."""
        self.port = free_port()
        env = dict(os.environ, PYTHONPATH=str(self.tree))
        env.pop("MJC_DATABASE_URL", None)  # the store is the one named here
        args = ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.database_url:
            args += ["--database-url", self.database_url]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", *args],
            cwd=self.tree,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"mjc serve exited with {self.proc.returncode}: {out}")
            try:
                status, _ = Client(self.port).call("GET", "/api/health")
                if status == 200:
                    threading.Thread(target=self._drain, daemon=True).start()
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"mjc serve did not answer on port {self.port} within {START_S} s")

    def _drain(self) -> None:
        """Read the server's log so its pipe never fills."""
        proc = self.proc
        if proc is not None and proc.stdout is not None:
            for _ in proc.stdout:
                pass

    def kill(self) -> None:
        """``kill -9``: the process ends at once, whatever it was doing."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        """Stop the server as Ctrl+C does."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class Client:
    """One keep-alive connection to the server."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The answer's status and JSON body."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = self.conn.getresponse()
        data = resp.read()
        return resp.status, json.loads(data) if data else None

    def new_table(self) -> str:
        """A new Ningxia table's control token."""
        status, body = self.call("POST", "/api/tables", {"variant": "ningxia", "players": PLAYERS, "first_dealer": 0})
        if status != 201:
            raise RuntimeError(f"creating a table answered {status}: {body}")
        return str(body["table"]["token"])

    def write(self, token: str, n: int) -> tuple[int, dict]:
        """Record a hand on the table (every third one a win, the others drawn); the event."""
        path, body = (
            (f"/api/tables/{token}/hands", {"winners": [WIN]}) if n % 3 == 2 else (f"/api/tables/{token}/draws", {})
        )
        status, answer = self.call("POST", path, body)
        if status != 201:
            raise RuntimeError(f"a write answered {status}: {answer}")
        return status, answer["event"]

    def close(self) -> None:
        self.conn.close()


@dataclass
class CrashRound:
    """What one :func:`crash_round` found."""

    acknowledged: int = 0
    stored: int = 0
    lost: list[int] = field(default_factory=list)
    altered: list[int] = field(default_factory=list)
    duplicated: list[int] = field(default_factory=list)
    integrity: str = ""
    balances_sum: int = 0
    killed_after_s: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.altered or self.duplicated) and self.integrity == "ok" and self.balances_sum == 0


def _writer(port: int, token: str, acked: list[dict], stop: threading.Event) -> None:
    """Write until the server dies; keep every event it acknowledged."""
    client = Client(port, timeout=10)
    n = 0
    try:
        while not stop.is_set():
            _, event = client.write(token, n)
            acked.append(event)
            n += 1
    except (OSError, http.client.HTTPException, RuntimeError, ValueError):
        pass  # the server was killed mid-request: that write was never acknowledged
    finally:
        client.close()


def crash_round(
    data_dir: Path, *, clients: int = 4, tables: int = 2, max_s: float = 1.5, seed: int | None = None
) -> CrashRound:
    """Write to a served table from ``clients`` threads, ``kill -9`` the server after a random
    time up to ``max_s``, restart it and compare what it acknowledged with what it has."""
    rng = random.Random(seed)
    server = Served(data_dir).start()
    try:
        setup = Client(server.port)
        tokens = [setup.new_table() for _ in range(tables)]
        setup.close()
        acked: list[list[dict]] = [[] for _ in range(clients)]
        stop = threading.Event()
        threads = [
            threading.Thread(target=_writer, args=(server.port, tokens[i % tables], acked[i], stop))
            for i in range(clients)
        ]
        for t in threads:
            t.start()
        wait = rng.uniform(0.2, max_s)
        time.sleep(wait)
        server.kill()
        stop.set()
        for t in threads:
            t.join()
    finally:
        server.kill()
    found = CrashRound(killed_after_s=wait, acknowledged=sum(len(evs) for evs in acked))
    server = Served(data_dir).start()
    try:
        check = Client(server.port)
        _, health = check.call("GET", "/api/health")
        found.integrity = str(health["integrity"])
        stored: dict[int, list[dict]] = {}
        for token in tokens:
            _, export = check.call("GET", f"/api/tables/{token}/export.json")
            found.balances_sum += sum(export["ledger"]["balances"])
            for ev in export["events"]:
                stored.setdefault(ev["id"], []).append(ev)
        check.close()
    finally:
        server.stop()
    found.stored = sum(len(evs) for evs in stored.values())
    found.duplicated = sorted(i for i, evs in stored.items() if len(evs) > 1)
    for ev in (ev for evs in acked for ev in evs):
        if ev["id"] not in stored:
            found.lost.append(ev["id"])
        elif stored[ev["id"]][0] != ev:
            found.altered.append(ev["id"])
    return found
