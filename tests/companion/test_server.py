"""The served app under waitress with ``mjc serve``'s settings: idle and slow clients never starve
real ones, bodies without a length are capped while read, the decode budget refuses a photo
whose pixels would not fit before decoding it."""

from __future__ import annotations

import http.client
import io
import json
import socket
import struct
import threading
import zlib
from collections.abc import Iterator

import pytest

from companion.app import create_app
from companion.jsonlimits import CONTRACT_BYTES
from companion.server import CONNECTION_LIMIT, MAX_HEADER_BYTES, raise_file_limit, server_options
from vision.errors import ImageError
from vision.photo import MAX_DECODE_BYTES, MAX_PIXELS, check_size, probe

from .helpers import FakeReading

IDLE = 1000


@pytest.fixture()
def served(tmp_path) -> Iterator[int]:
    """The app under waitress on 127.0.0.1 with ``mjc serve``'s options; its port."""
    from waitress import create_server

    app = create_app(tmp_path / "d", recognizer=lambda data: FakeReading())
    server = create_server(app, host="127.0.0.1", port=0, **server_options(app.config["MAX_CONTENT_LENGTH"]))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield int(server.effective_port)  # type: ignore[union-attr]
    server.close()
    thread.join(5)


def get(port: int, path: str, timeout: float = 5.0) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def test_a_thousand_idle_connections_do_not_stop_the_server(served):
    if raise_file_limit(2 * IDLE + 256) < 2 * IDLE + 256:
        pytest.skip("the system's open-file limit is below what both ends of 1,000 connections need")
    assert CONNECTION_LIMIT > IDLE
    idle: list[socket.socket] = []
    try:
        for _ in range(IDLE):
            idle.append(socket.create_connection(("127.0.0.1", served), timeout=5))
        slow = idle[-1]
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
        status, body = get(served, "/api/health")
        assert status == 200 and body["ok"] is True
    finally:
        for s in idle:
            s.close()


def test_a_chunked_body_is_capped_while_it_is_read(served):
    with socket.create_connection(("127.0.0.1", served), timeout=10) as s:
        head = (
            "POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        chunk = b'{"variant": "' + b"x" * (CONTRACT_BYTES * 2) + b'"}'
        s.sendall(head.encode() + f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n")
        answer = b""
        while part := s.recv(65536):
            answer += part
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"too_large"' in answer


def png_header(width: int, height: int, bit_depth: int, colour_type: int) -> bytes:
    """A PNG with a real IHDR and no pixel data (enough for the header check)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"") + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    ("bit_depth", "colour_type", "refused"),
    [(16, 2, True), (16, 6, True), (8, 6, True), (8, 2, False), (16, 0, False), (8, 3, False)],
)
def test_the_decode_budget_counts_bytes_per_pixel(bit_depth, colour_type, refused):
    data = png_header(7070, 7070, bit_depth, colour_type)
    assert 7070 * 7070 <= MAX_PIXELS
    if refused:
        with pytest.raises(ImageError) as caught:
            probe(data)
        assert caught.value.code == "too_large" and f"{MAX_DECODE_BYTES // 1_000_000} MB" in caught.value.message
    else:
        assert probe(data).width == 7070


def test_a_50_megapixel_8_bit_photo_still_fits():
    check_size(8660, 5773)  # 50 MP x 3 bytes
    with pytest.raises(ImageError):
        check_size(8660, 5773, 6)


def test_a_16_bit_png_bomb_is_refused_by_the_real_recogniser_before_decoding(tmp_path):
    pytest.importorskip("cv2")
    client = create_app(tmp_path / "d").test_client()
    data = png_header(7070, 7070, 16, 2)
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(data), "bomb.png")})
    assert resp.status_code == 400
    assert resp.json["error"]["code"] == "too_large" and resp.json["error"]["field"] == "photo"


def test_headers_over_the_limit_are_refused_by_the_server(served):
    with socket.create_connection(("127.0.0.1", served), timeout=10) as s:
        padding = "x" * (MAX_HEADER_BYTES + 1)
        s.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {padding}\r\n\r\n".encode())
        answer = s.recv(65536)
    assert answer.split(b" ", 2)[1] in (b"400", b"431"), answer[:200]
    status, body = get(served, "/api/health")
    assert status == 200 and body["ok"] is True
