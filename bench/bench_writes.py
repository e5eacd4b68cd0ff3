"""What a write's checks cost (``companion/api/writes.py``): a drawn hand through the Flask app
without ``base_version`` and ``Idempotency-Key`` (the baseline) against the same write with both,
and a retry of it (answered from the key, nothing written), measured alternately in one run at
event 1 and at event 1,000 of a realistic evening (claims, kongs, won hands, draws).

Prints the median CPU and wall milliseconds of :data:`REPEAT` writes each way and the ratio to the
baseline. Run: ``python3 run.py bench writes``.
"""

from __future__ import annotations

import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from typing import Any

from bench_ledger import FILL  # the same mix of writes as the ledger benchmark
from flask.testing import FlaskClient

from companion.app import create_app

CHECKPOINTS = (1, 1000)
REPEAT = 40


class Table:
    """One table written through the app; each write's CPU and wall seconds."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        body = {"variant": "ningxia", "players": ["Alice", "Bob", "Chen", "Dora"]}
        created: dict[str, Any] = client.post("/api/tables", json=body).json or {}
        self.token = created["table"]["token"]
        self.version = 0

    def write(self, path: str, body: dict[str, Any], key: str | None = None) -> tuple[float, float]:
        headers = {"Idempotency-Key": key} if key else {}
        cpu, wall = time.process_time(), time.perf_counter()
        resp = self.client.post(f"/api/tables/{self.token}/{path}", json=body, headers=headers)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        answer: dict[str, Any] = resp.json or {}
        assert resp.status_code in (200, 201), answer
        self.version = answer["changes"]["version"]
        return cpu, wall


def ways(table: Table) -> dict[str, Callable[[], tuple[float, float]]]:
    """The three writes compared: plain, checked, and a checked one's retry."""
    keys: list[str] = []

    def checked() -> tuple[float, float]:
        keys.append(uuid.uuid4().hex)
        return table.write("draws", {"base_version": table.version}, keys[-1])

    def retry() -> tuple[float, float]:  # the checked write just made, sent again: answered from its key
        return table.write("draws", {"base_version": table.version - 1}, keys[-1])

    return {
        "plain (baseline)": lambda: table.write("draws", {}),
        "base_version + key": checked,
        "a retry (replayed)": retry,
    }


def main() -> None:
    table = Table(create_app(tempfile.mkdtemp(prefix="mjc-bench-writes-")).test_client())
    compared = ways(table)
    print("| at event | write | CPU ms | wall ms | CPU ratio | wall ratio |")
    print("|---|---|---|---|---|---|")
    filled = 0
    for checkpoint in CHECKPOINTS:
        while table.version < checkpoint - 1:
            table.write(*FILL[filled % len(FILL)])
            filled += 1
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in compared}
        for _ in range(REPEAT):
            for name, way in compared.items():
                samples[name].append(way())
        medians = {
            n: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v)) for n, v in samples.items()
        }
        base_cpu, base_wall = medians["plain (baseline)"]
        for name, (cpu, wall) in medians.items():
            print(
                f"| {checkpoint:,} | {name} | {cpu * 1000:.2f} | {wall * 1000:.2f} "
                f"| {cpu / base_cpu:.2f} | {wall / base_wall:.2f} |"
            )


if __name__ == "__main__":
    main()
