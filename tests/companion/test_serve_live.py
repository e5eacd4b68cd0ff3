"""``mjc serve --https --camera SOURCE`` as a user runs it: a real process, its printed addresses,
HTTPS against the authority it made, the table camera, one clear line for a camera it cannot
open, and Ctrl+C stopping the server and the camera thread."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import make_video


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, list[str]]:
    """``mjc serve`` on 127.0.0.1 with ``args``; the process and its lines up to "Press Ctrl+C"."""
    cmd = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--data-dir", str(tmp_path / "d"), *args]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Ctrl+C as in a terminal
    )
    lines: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if "Press Ctrl+C" in line:
            return proc, lines
    proc.kill()
    raise AssertionError(f"the server did not start: {lines}")


def stop(proc: subprocess.Popen) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=20)
    return proc.returncode, out


def https_json(port: int, ca: Path, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPSConnection(
        "localhost", port, context=ssl.create_default_context(cafile=str(ca)), timeout=20
    )
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def test_serve_https_with_the_table_camera_then_ctrl_c(tmp_path):
    video = make_video(tmp_path / "table.avi")
    port, secure = free_port(), free_port()
    proc, lines = start(tmp_path, "--port", str(port), "--https", "--https-port", str(secure), "--camera", str(video))
    try:
        text = "\n".join(lines)
        assert f"https://127.0.0.1:{secure}/" in text and f"http://127.0.0.1:{port}/" in text
        assert "HTTPS certificate made" in text and "Table camera: file" in text
        ca = tmp_path / "d" / "tls" / "ca.crt"
        status, created = https_json(secure, ca, "POST", "/api/tables", {"variant": "ningxia", "players": list("ABCD")})
        assert status == 201
        status, camera = https_json(secure, ca, "GET", f"/api/tables/{created['table']['token']}/camera")
        assert status == 200 and camera["available"] is True and camera["width"] == 1200
    finally:
        code, out = stop(proc)
    assert code == 0 and "Traceback" not in out
    # the next start keeps the authority and the certificate
    proc, lines = start(tmp_path, "--port", str(port), "--https", "--https-port", str(secure))
    stop(proc)
    assert any("HTTPS certificate kept" in line for line in lines)


@pytest.mark.parametrize("source", ["/nonexistent/camera.avi", "7"])
def test_a_camera_that_cannot_be_opened_leaves_the_server_serving(tmp_path, source):
    port = free_port()
    proc, lines = start(tmp_path, "--port", str(port), "--camera", source)
    try:
        problem = [line for line in lines if line.startswith(("mjc serve:", "[")) or "WARN" in line]
        assert len(problem) == 1 and "cannot open the camera" in problem[0] and "serving without" in problem[0]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/health")
        assert conn.getresponse().status == 200
    finally:
        code, _ = stop(proc)
    assert code == 0
