"""HTTPS under waitress: waitress speaks plain HTTP only, so the HTTPS listener's connections use
:class:`TlsChannel`, waitress's own channel over a TLS-wrapped socket.

Everything else stays waitress's: the connection limit, the header cap, the request body cap,
the threads, the idle timeout (a client that never finishes its handshake is closed like an idle
one). The channel wraps each accepted socket without a handshake, then drives the handshake from
waitress's event loop; afterwards it reads until the TLS layer has nothing buffered (data TLS has
already taken off the socket raises no poll event) and treats "TLS wants to read/write" as "would
block". The TLS object is used under one lock, as waitress may flush from a worker thread.
"""

from __future__ import annotations

import ssl
import threading
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer

_WOULD_BLOCK = (ssl.SSLWantReadError, ssl.SSLWantWriteError)


class TlsChannel(HTTPChannel):
    """A waitress channel whose socket speaks TLS (the server's ``tls_context``)."""

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        self._tls_lock = threading.Lock()
        self._handshaken = False
        self._wants_write = False
        sock = server.tls_context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        super().__init__(server, sock, addr, adj, map)

    def readable(self) -> bool:
        return True if not self._handshaken else bool(super().readable())

    def writable(self) -> bool:
        if not self._handshaken:  # the idle timeout's will_close must reach handle_write
            return self._wants_write or bool(self.will_close)
        return bool(super().writable())

    def handle_read(self) -> None:
        if not self._handshaken:
            self._handshake()
            return
        self._drain()

    def handle_write(self) -> None:
        if not self._handshaken:
            if self.will_close:
                self.handle_close()
            else:
                self._handshake()
            return
        super().handle_write()

    def send(self, data: Any, do_close: bool = True) -> int:
        """Send what TLS takes now; 0 when it would block; a broken connection is closed."""
        try:
            with self._tls_lock:
                return int(self.socket.send(data))
        except _WOULD_BLOCK:
            return 0
        except OSError:
            if do_close:
                self.handle_close()
            return 0

    def _handshake(self) -> None:
        try:
            with self._tls_lock:
                self.socket.do_handshake()
        except ssl.SSLWantReadError:
            self._wants_write = False
            return
        except ssl.SSLWantWriteError:
            self._wants_write = True
            return
        except OSError:  # a bad client hello, an untrusted certificate, a reset: just close
            self.handle_close()
            return
        self._handshaken = True
        self._wants_write = False
        self.last_activity = time.time()
        self._drain()  # the request may have come with the handshake's last message

    def _drain(self) -> None:
        """Hand waitress every byte TLS has, until it would block or the client is gone."""
        while True:
            try:
                with self._tls_lock:
                    data = self.socket.recv(self.adj.recv_bytes)
            except _WOULD_BLOCK:
                return
            except OSError:
                self.handle_close()
                return
            if not data:
                self.connected = False  # the client closed its side
                self.handle_close()
                return
            self.last_activity = time.time()
            self.received(data)


def use_tls(server: BaseWSGIServer, context: ssl.SSLContext) -> None:
    """Make the waitress ``server``'s new connections TLS ones, with ``context``."""
    server.tls_context = context  # type: ignore[attr-defined]
    server.channel_class = TlsChannel  # type: ignore[assignment]
