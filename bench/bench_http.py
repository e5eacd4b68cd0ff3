"""HTTP hardening benchmark: what the server's limits cost and what they save, measured in one run.

1. ``/api/health`` over a real socket while 1,000 idle connections are open, under waitress's
   defaults (the server before issue 11) and under ``mjc serve``'s settings
   (:func:`companion.server.server_options`), against the same with no idle connection.
2. ``/api/score``: an ordinary hand against a 14 MB tile string (issue 11 item 6), and the JSON read
   under limits (:func:`companion.jsonlimits.loads`) against :func:`json.loads` on the same body.

Prints tables of milliseconds or microseconds (median and 99th percentile) with the ratio to the
baseline of each table. Run: ``python3 run.py bench http``.
"""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from companion import jsonlimits
from companion.app import create_app
from companion.server import raise_file_limit, server_options

IDLE = 1000
REQUESTS = 50
TIMEOUT_S = 5.0
WIN = {
    "variant": "ningxia",
    "winner": "S",
    "win": {"by": "self_draw"},
    "hand": {"concealed": "123m456p789s11222z", "winning_tile": "2z"},
}


def percentiles(samples: list[float]) -> tuple[float, float]:
    """Median and 99th percentile."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def health_ms(port: int) -> float | None:
    """One GET /api/health on a fresh connection, in ms; None when no answer came in time."""
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
        conn.request("GET", "/api/health")
        conn.getresponse().read()
        conn.close()
    except OSError:
        return None
    return (time.perf_counter() - start) * 1000


def served(options: dict[str, Any]) -> tuple[Any, int]:
    from waitress import create_server

    app = create_app(tempfile.mkdtemp(prefix="mjc-bench-"))
    server = create_server(app, host="127.0.0.1", port=0, **options)
    threading.Thread(target=server.run, daemon=True).start()
    return server, int(server.effective_port)


def health_under_idle(options: dict[str, Any], idle: int) -> list[float | None]:
    """Health latencies with ``idle`` connections open (after the server had time to accept them)."""
    server, port = served(options)
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(idle)]
    time.sleep(1.0 if idle else 0.1)
    out = [health_ms(port) for _ in range(REQUESTS if idle == 0 or options.get("connection_limit") else 2)]
    for s in sockets:
        s.close()
    server.close()
    return out


def table_connections() -> None:
    raise_file_limit(2 * IDLE + 512)
    rows: list[tuple[str, list[float | None]]] = [
        ("mjc serve settings, no idle connection", health_under_idle(server_options(16 << 20), 0)),
        ("waitress defaults, 1,000 idle", health_under_idle({"threads": 6}, IDLE)),
        ("mjc serve settings, 1,000 idle", health_under_idle(server_options(16 << 20), IDLE)),
    ]
    base = percentiles([x for x in rows[0][1] if x is not None])[0]
    print(f"\nGET /api/health on a fresh connection ({REQUESTS} requests; ms)")
    print(f"{'server':<42} {'answered':>9} {'p50 ms':>9} {'p99 ms':>9} {'p50 / base':>11}")
    for name, samples in rows:
        ok = [x for x in samples if x is not None]
        if not ok:
            print(
                f"{name:<42} {'0/' + str(len(samples)):>9} {'—':>9} {'—':>9} {'no answer in ' + str(TIMEOUT_S) + ' s':>11}"
            )
            continue
        p50, p99 = percentiles(ok)
        print(f"{name:<42} {f'{len(ok)}/{len(samples)}':>9} {p50:9.2f} {p99:9.2f} {p50 / base:10.2f}x")


def time_us(fn: Callable[[], Any], n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - start) / 1000)
    return out


def table_bodies() -> None:
    client = create_app(tempfile.mkdtemp(prefix="mjc-bench-")).test_client()
    hand = json.dumps(WIN)
    huge = json.dumps({**WIN, "hand": {"concealed": "1m" * 7_000_000, "winning_tile": "2z"}})
    three = json.dumps([WIN | {"winner": w, "win": {"by": "discard", "from": "E"}} for w in ("S", "W", "N")])

    def post(body: str) -> Callable[[], Any]:
        env = {"REMOTE_ADDR": "10.0.0.1"}
        return lambda: client.post("/api/score", data=body, content_type="application/json", environ_base=env)

    client.application.extensions["mjc_limiter"].public_buckets.burst = 10**9  # not what is measured
    rows = [
        ("/api/score, an ordinary hand (200)", time_us(post(hand), 200)),
        ("/api/score, a 14 MB tile string (413)", time_us(post(huge), 5)),
        ("json.loads, a three-winner body", time_us(lambda: json.loads(three), 2000)),
        ("jsonlimits.loads, the same body", time_us(lambda: jsonlimits.loads(three), 2000)),
    ]
    print("\nRequest bodies (µs per call)")
    print(f"{'what':<42} {'p50 µs':>10} {'p99 µs':>10} {'p50 / base':>11}")
    for i, (name, samples) in enumerate(rows):
        base = percentiles(rows[0 if i < 2 else 2][1])[0]
        p50, p99 = percentiles(samples)
        print(f"{name:<42} {p50:10.1f} {p99:10.1f} {p50 / base:10.2f}x")
    print(f"(the 14 MB body is {len(huge) / 1e6:.1f} MB; before issue 11 it was parsed for about 15 s)")


if __name__ == "__main__":
    table_connections()
    table_bodies()
