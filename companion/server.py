"""``mjc serve``: the companion app under waitress (a production WSGI server), nothing else to run."""

from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path

from .care import CareError, ServerLock
from .store import StoreError


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


def serve(host: str = "0.0.0.0", port: int = 8080, data_dir: str = "data", threads: int = 6) -> int:
    from waitress import create_server

    from .app import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        lock = ServerLock(data_dir).acquire()  # held until the process ends: one server per folder
        app = create_app(data_dir)
    except (CareError, StoreError) as err:
        print(f"mjc serve: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"mjc serve: cannot use the data folder {data_dir!r}: {err.strerror or err}", file=sys.stderr)
        return 2
    if app.extensions["mjc_store"].damage is not None:
        print("mjc serve: the ledger is damaged: reads still answer, writes are refused; run `mjc check`", flush=True)
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="mjc")
    except OSError as err:
        print(
            f"mjc serve: cannot listen on {host}:{port}: {err.strerror or err}; "
            f"is another server running? Try --port {port + 1}",
            file=sys.stderr,
        )
        return 2
    data = Path(data_dir).resolve()
    print(f"Mahjong table companion — ledger in {data}", flush=True)
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
        lock.release()
    return 0
