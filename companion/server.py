"""``mjc serve``: the companion app under waitress (a production WSGI server), nothing else to run.

The server keeps answering however many clients sit idle or send slowly: waitress buffers a whole
request before a thread sees it, so slow clients hold no thread; up to :data:`CONNECTION_LIMIT`
connections are open at once (the file-descriptor limit is raised to fit where the system
allows), one that sends nothing for :data:`CHANNEL_TIMEOUT_S` seconds is closed, headers are
capped at :data:`MAX_HEADER_BYTES`, and ``poll()`` replaces ``select()`` (which stops at 1,024
sockets). Log lines never hold a table token (:mod:`companion.logs`).
"""

from __future__ import annotations

import logging
import resource
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .care import CareError, ServerLock
from .logs import redact_loggers
from .store import StoreError

THREADS = 16
"""Threads answering requests (recognition takes at most three: :mod:`companion.api.recognition_queue`).
A write's thread waits, idle, for the group commit that holds it (:mod:`companion.groupcommit`);
with 8 threads a busy table had every thread waiting on one commit while the next requests queued
unread, with 16 the next batch is parsed while the last one syncs (``python3 run.py bench server``)."""
CONNECTION_LIMIT = 2000
"""Connections open at once; beyond it new ones wait in the listen backlog."""
CHANNEL_TIMEOUT_S = 30
"""A connection that sends or receives nothing for this long is closed."""
MAX_HEADER_BYTES = 16 * 1024
"""The largest request line and headers."""
BACKLOG = 1024
"""Connections the system queues before the server accepts them."""


def server_options(max_upload: int, threads: int = THREADS) -> dict[str, Any]:
    """waitress's settings for the limits above; a body over ``max_upload`` (plus room for the
    multipart envelope) is refused by waitress before the app reads it."""
    return {
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT_S,
        "cleanup_interval": 10,
        "max_request_header_size": MAX_HEADER_BYTES,
        "max_request_body_size": max_upload + 64 * 1024,
        "backlog": BACKLOG,
        "asyncore_use_poll": True,
        "ident": "mjc",
    }


def raise_file_limit(needed: int = CONNECTION_LIMIT + 256) -> int:
    """Raise this process's open-file limit to ``needed`` where the hard limit allows; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def lan_addresses() -> list[str]:
    """The addresses other devices on this network can reach (best effort, no packet is sent)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if addr not in found and not addr.startswith("127."):
                found.append(addr)
    except OSError:
        pass
    return found


def serve(
    host: str = "0.0.0.0",
    port: int = 8080,
    data_dir: str = "data",
    threads: int = THREADS,
    hosts: Sequence[str] = (),
    database_url: str | None = None,
) -> int:
    """Serve the app on ``host:port``; ``hosts`` are extra names it answers to (besides localhost,
    IP addresses, ``host`` and this machine's name). With ``database_url`` the ledger and photos
    are in that PostgreSQL database, which several servers may share (no folder lock then)."""
    from waitress import create_server

    from .app import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact_loggers(handlers=True)
    # waitress warns on every request that waits for a thread: under load that is a log line per
    # write, costing the CPU the writes need; the queue's depth is no fault
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    raise_file_limit()
    names = [*hosts, host, socket.gethostname(), f"{socket.gethostname()}.local"]
    lock = None
    try:
        if not database_url:
            lock = ServerLock(data_dir).acquire()  # held until the process ends: one server per folder
        app = create_app(data_dir, hosts=names, database_url=database_url)
    except (CareError, StoreError, ValueError) as err:  # ValueError: a setting from the environment
        print(f"mjc serve: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"mjc serve: cannot use the data folder {data_dir!r}: {err.strerror or err}", file=sys.stderr)
        return 2
    if app.extensions["mjc_store"].damage is not None:
        print("mjc serve: the ledger is damaged: reads still answer, writes are refused; run `mjc check`", flush=True)
    try:
        options = server_options(app.config["MAX_CONTENT_LENGTH"], threads)
        server = create_server(app, host=host, port=port, **options)
    except OSError as err:
        print(
            f"mjc serve: cannot listen on {host}:{port}: {err.strerror or err}; "
            f"is another server running? Try --port {port + 1}",
            file=sys.stderr,
        )
        return 2
    where = app.extensions["mjc_store"].describe() if database_url else Path(data_dir).resolve()
    print(f"Mahjong table companion — ledger in {where}", flush=True)
    if host in ("0.0.0.0", "::", ""):
        addrs = lan_addresses()
        for addr in addrs:
            print(f"  On the tablet (same Wi-Fi), open:  http://{addr}:{port}/", flush=True)
        print(f"  On this computer:                  http://127.0.0.1:{port}/", flush=True)
    else:
        print(f"  Open: http://{host}:{port}/", flush=True)
    print("  Press Ctrl+C to stop.", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        print("stopped", flush=True)
    finally:
        server.close()
        if lock is not None:
            lock.release()
    return 0
