"""A throwaway PostgreSQL server: what the storage tests (``tests/companion/conftest.py``) and the
server benchmark (``python3 run.py bench server --database-url throwaway``) start.

* :func:`find_bin` finds ``initdb`` and ``pg_ctl`` (``$PATH``, then Debian's
  ``/usr/lib/postgresql/<version>/bin``, newest first); None when PostgreSQL is not installed
  (``python3 run.py test`` installs Debian's ``postgresql`` package as root).
* :class:`Cluster` runs ``initdb`` into a new temporary folder (as the ``postgres`` user when this
  process is root: PostgreSQL refuses to run as root), starts the server on a free port of
  127.0.0.1 with its unix socket in that folder, password login (scram) for one user, and
  :meth:`Cluster.stop` stops it and removes the folder.
* :meth:`Cluster.new_database` makes an empty database and answers its URL.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "mjc"
SERVICE_USER = "postgres"


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``; None when PostgreSQL is not installed."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found else []
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: _version(p.parent.name), reverse=True)
    for folder in [*candidates, *debian]:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _version(name: str) -> int:
    return int(name) if name.isdigit() else 0


def why_not() -> str | None:
    """Why no throwaway server can start here (None when it can)."""
    if find_bin() is None:
        return "PostgreSQL is not installed (Debian: apt-get install postgresql; `python3 run.py test` does it as root)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVICE_USER)
        except KeyError:
            return f"running as root and there is no {SERVICE_USER!r} user to run PostgreSQL as"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One throwaway PostgreSQL server (see the module's docstring). ``durable=False`` turns
    ``fsync`` off (tests: nothing here is about surviving a power cut); the benchmark keeps it on."""

    def __init__(self, durable: bool = False, max_connections: int = 300) -> None:
        bin_dir = find_bin()
        if bin_dir is None:
            raise RuntimeError(why_not() or "PostgreSQL is not installed")
        self.bin = bin_dir
        self.durable = durable
        self.max_connections = max_connections
        self.password = secrets.token_hex(12)
        self.port = 0
        self.root = Path(tempfile.mkdtemp(prefix="mjc-pg-"))
        self.data = self.root / "db"
        self._as: list[str] = []
        if os.geteuid() == 0:
            entry = pwd.getpwnam(SERVICE_USER)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self._as = ["runuser", "-u", SERVICE_USER, "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{Path(args[0]).name} failed ({done.returncode}): {done.stderr or done.stdout}")

    def start(self) -> Cluster:
        """``initdb`` and start the server; RuntimeError with its output when either fails."""
        pwfile = self.root / "pw"
        pwfile.write_text(self.password)
        if self._as:
            shutil.chown(pwfile, SERVICE_USER)
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            f"--pwfile={pwfile}",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        pwfile.unlink()
        self.port = free_port()
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections={self.max_connections}"
            f" -c fsync={'on' if self.durable else 'off'} -c synchronous_commit={'on' if self.durable else 'off'}"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start"
        )
        return self

    @property
    def pid(self) -> int:
        """The server's main process (its first line of ``postmaster.pid``)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, database: str = "postgres", password: str | None = None) -> str:
        """The URL of ``database`` on this server (with the right password unless another is given)."""
        return f"postgresql://{USER}:{password or self.password}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"t_{secrets.token_hex(6)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except RuntimeError:
                pass  # already gone: the folder goes all the same
        shutil.rmtree(self.root, ignore_errors=True)
