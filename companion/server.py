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
import ssl
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .care import CareError, ServerLock
from .logs import redact_loggers
from .store import StoreError

if TYPE_CHECKING:
    from flask import Flask

    from .camera import CameraFeed

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
    https_port: int | None = None,
    camera: str | None = None,
    database_url: str | None = None,
) -> int:
    """Serve the app on ``host:port``; ``hosts`` are extra names it answers to (besides localhost,
    IP addresses, ``host`` and this machine's name). With ``https_port`` it also serves HTTPS
    there (:func:`add_https`); with ``camera`` the table camera feeds the page (:func:`add_camera`).
    With ``database_url`` the ledger and photos are in that PostgreSQL database, which several
    servers may share (no folder lock then)."""
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
    secure = add_https(app, server, data_dir, host, https_port, names, options) if https_port is not None else None
    if https_port is not None and secure is None:
        server.close()
        if lock is not None:
            lock.release()
        return 2
    feed = add_camera(app, camera) if camera is not None else None
    where = app.extensions["mjc_store"].describe() if database_url else Path(data_dir).resolve()
    print(f"Mahjong table companion — ledger in {where}", flush=True)
    print_addresses(host, port, int(secure.effective_port) if secure is not None else None)
    try:
        server.run()
    except KeyboardInterrupt:
        print("stopped", flush=True)
    finally:
        if feed is not None:
            feed.stop()
        if secure is not None:
            secure.close()
        server.close()
        if lock is not None:
            lock.release()
    return 0


def print_addresses(host: str, port: int, https_port: int | None) -> None:
    """The addresses to open: on the tablet (each LAN address) and on this computer, or the one
    ``host``; with HTTPS, its address beside each and where to trust the certificate."""
    if host in ("0.0.0.0", "::", ""):
        for addr in lan_addresses():
            print(f"  On the tablet (same Wi-Fi), open:  http://{addr}:{port}/", flush=True)
            if https_port is not None:
                print(f"    with the live camera (HTTPS):    https://{addr}:{https_port}/", flush=True)
        print(f"  On this computer:                  http://127.0.0.1:{port}/", flush=True)
    else:
        print(f"  Open: http://{host}:{port}/", flush=True)
        if https_port is not None:
            print(f"  With the live camera (HTTPS): https://{host}:{https_port}/", flush=True)
    if https_port is not None:
        print(f"  Trust the certificate once per tablet: http://<address>:{port}/https", flush=True)
    print("  Press Ctrl+C to stop.", flush=True)


def add_https(
    app: Flask, server: Any, data_dir: str, host: str, port: int, names: Sequence[str], options: dict[str, Any]
) -> Any | None:
    """Listen for HTTPS on ``host:port`` beside the plain ``server`` (same event loop, same
    threads, same limits), with the local authority's certificate for this machine's names and
    addresses (:mod:`companion.tls`, made or renewed here); the page's ``/https`` setup then
    answers with the address and the authority. The HTTPS server; None, with one line on stderr,
    when it cannot."""
    from waitress import create_server

    from .api.secure import HTTPS_KEY, HttpsInfo
    from .tls import TlsError, certificate_names, ensure_certificates
    from .tls_channel import use_tls

    addresses = lan_addresses()
    dns, ips = certificate_names(names, addresses)
    try:
        files = ensure_certificates(data_dir, dns, ips)
        context = files.context()
    except (TlsError, ssl.SSLError) as err:
        print(f"mjc serve: {err}", file=sys.stderr)
        return None
    try:
        secure = create_server(
            app,
            map=server._map,
            _dispatcher=server.task_dispatcher,
            host=host,
            port=port,
            url_scheme="https",
            **options,
        )
    except OSError as err:
        print(
            f"mjc serve: cannot listen for HTTPS on {host}:{port}: {err.strerror or err}; try --https-port {port + 1}",
            file=sys.stderr,
        )
        return None
    use_tls(secure, context)
    covered = frozenset(dns | {str(ip) for ip in ips})
    app.extensions[HTTPS_KEY] = HttpsInfo(int(secure.effective_port), files.ca_der(), covered, tuple(addresses))
    made = "made" if files.ca_created else ("renewed" if files.server_created else "kept")
    print(f"  HTTPS certificate {made} in {files.folder} (authority: {files.ca_cert.name})", flush=True)
    return secure


def add_camera(app: Flask, source: str) -> CameraFeed | None:
    """Start the table camera ``source`` (a device index, a file or a URL) in a background thread
    and offer it to the page; a camera that cannot be opened is one line, and the server serves on
    without it."""
    from .camera import CAMERA_KEY, CameraError, CameraFeed

    try:
        feed = CameraFeed(source).start()
    except CameraError as err:
        print(f"mjc serve: {err}; serving without the table camera", flush=True)
        return None
    app.extensions[CAMERA_KEY] = feed
    print(f"  Table camera: {feed.describe()}", flush=True)
    return feed
