"""Security: Content-Type and Host checked, security headers, rate limits with Retry-After, tokens
never logged, CSV cells that no spreadsheet runs, 405 with Allow, the recognition queue."""

from __future__ import annotations

import csv
import io
import logging
import threading

import pytest

from companion.api import ratelimit
from companion.api.guards import CSP, HOSTS_ENV
from companion.api.recognition_queue import RECOGNITION_SLOTS, RECOGNITION_WAITING, RETRY_AFTER_S
from companion.api.request import MAX_TOKEN
from companion.app import create_app
from companion.exports import cell
from companion.logs import redact

from .helpers import PLAYERS, WIN_S, FakeReading, err, new_table

NEW = {"variant": "ningxia", "players": PLAYERS}


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_cross_site_form_post_creates_nothing(client, content_type):
    import json

    resp = client.post("/api/tables", data=json.dumps(NEW), content_type=content_type)
    assert resp.status_code == 415 and err(resp)["code"] == "unsupported_media_type"
    assert "application/json" in err(resp)["message"]
    t = new_table(client)["table"]["token"]
    resp = client.post(f"/api/tables/{t}/hands", data=json.dumps({"winners": [WIN_S]}), content_type=content_type)
    assert resp.status_code == 415
    assert client.get(f"/api/tables/{t}/ledger").json["version"] == 0


def test_json_endpoints_take_json_and_empty_bodies_where_optional(client):
    t = new_table(client)["table"]["token"]
    assert client.post(f"/api/tables/{t}/draws").status_code == 201
    assert client.post(f"/api/tables/{t}/undo").status_code == 201
    resp = client.post(f"/api/tables/{t}/draws", data="{}", content_type="application/problem+json")
    assert resp.status_code == 201
    resp = client.post(f"/api/tables/{t}/undo", data="{}")  # a body with no Content-Type
    assert resp.status_code == 415


def test_photo_endpoints_take_multipart(client):
    resp = client.post("/api/recognize", data=b"\xff\xd8\xff", content_type="image/jpeg")
    assert resp.status_code == 415 and "multipart/form-data" in err(resp)["message"]


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("localhost", 200),
        ("localhost:8080", 200),
        ("127.0.0.1:8080", 200),
        ("192.168.1.23", 200),
        ("[::1]:8080", 200),
        ("[fe80::1]", 200),
        ("LOCALHOST.", 200),
        ("mahjong.lan", 200),
        ("evil.example", 400),
        ("localhost.evil.example", 400),
        ("127.0.0.1.nip.io", 400),
    ],
)
def test_host_header_is_checked_against_dns_rebinding(tmp_path, host, status):
    app = create_app(tmp_path / "d", hosts=["mahjong.lan"])
    resp = app.test_client().get("/api/health", headers={"Host": host})
    assert resp.status_code == status
    if status == 400:
        assert err(resp)["code"] == "unknown_host" and "--allow-host" in err(resp)["message"]


def test_allowed_hosts_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(HOSTS_ENV, "kitchen.local, Table.Example")
    client = create_app(tmp_path / "d").test_client()
    for host in ("kitchen.local", "table.example:8080"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200
    assert client.get("/", headers={"Host": "other.example"}).status_code == 400


@pytest.mark.parametrize("path", ["/", "/static/main.js", "/api/health", "/api/nope"])
def test_every_answer_carries_the_security_headers(client, path):
    resp = client.get(path)
    assert resp.headers["Content-Security-Policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "'unsafe-inline'" not in CSP
    assert resp.headers["Referrer-Policy"] == "no-referrer"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert resp.headers["X-Frame-Options"] == "DENY"


def test_the_page_has_no_inline_script_or_style(client):
    html = client.get("/").data.decode()
    assert "<script>" not in html and " style=" not in html and "onclick" not in html.lower()


def test_405_answers_carry_allow(client):
    resp = client.get("/api/score")
    assert resp.status_code == 405 and err(resp)["code"] == "method_not_allowed"
    assert set(resp.headers["Allow"].split(", ")) >= {"POST"}
    t = new_table(client)["table"]["token"]
    resp = client.delete(f"/api/tables/{t}")
    assert resp.status_code == 405 and "GET" in resp.headers["Allow"]


@pytest.fixture()
def frozen(app):
    """The app with its rate limits on a clock that stands still (tests do not depend on speed)."""
    app.extensions[ratelimit.LIMITER_KEY] = ratelimit.Limiter(clock=lambda: 1000.0)
    return app.test_client()


def test_public_endpoints_are_rate_limited_per_address(frozen):
    client = frozen
    body = {"tiles": "123m"}
    codes = [client.post("/api/notation", json=body).status_code for _ in range(ratelimit.PUBLIC_BURST + 5)]
    assert codes == [200] * ratelimit.PUBLIC_BURST + [429] * 5
    resp = client.post("/api/score", json={"variant": "ningxia", **WIN_S})
    assert resp.status_code == 429 and err(resp)["code"] == "rate_limited"
    assert int(resp.headers["Retry-After"]) >= 1
    other = client.post("/api/notation", json=body, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 200  # another address is not slowed down
    assert client.get("/api/health").status_code == 200  # liveness is never limited


def test_token_guesses_are_slowed_down_and_right_tokens_wait_too(frozen):
    client = frozen
    t = new_table(client)["table"]["token"]
    codes = [client.get(f"/api/tables/guess{i:019d}").status_code for i in range(ratelimit.GUESS_BURST + 3)]
    assert codes == [404] * ratelimit.GUESS_BURST + [429] * 3
    resp = client.get(f"/api/tables/{t}")
    assert resp.status_code == 429 and err(resp)["code"] == "rate_limited"
    assert resp.headers["Retry-After"] == str(round(1 / ratelimit.GUESS_PER_S))
    assert client.get(f"/api/tables/{t}", environ_base={"REMOTE_ADDR": "10.0.0.8"}).status_code == 200


def test_a_bucket_refills_with_time():
    now = [0.0]
    buckets = ratelimit.Buckets(2, 0.5, clock=lambda: now[0])
    assert [buckets.take("a"), buckets.take("a")] == [0.0, 0.0]
    assert buckets.take("a") == pytest.approx(2.0)
    now[0] = 1.0
    assert buckets.take("a") == pytest.approx(1.0)
    now[0] = 2.0
    assert buckets.take("a") == 0.0


def test_a_500_does_not_log_the_token(tmp_path, caplog):
    def broken(data):
        raise RuntimeError("recogniser crashed")

    app = create_app(tmp_path / "d", recognizer=broken)
    client = app.test_client()
    view = new_table(client)["table"]
    t, watch = view["token"], view["watch_token"]
    with caplog.at_level(logging.ERROR):
        resp = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")})
    assert resp.status_code == 500 and err(resp)["code"] == "internal"
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "unexpected error" in logged and "<token>" in logged
    assert t not in logged and t not in caplog.text and watch not in caplog.text


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("GET /t/AbCdEfGhIjKlMnOpQrStUvWx HTTP/1.1", "GET /t/<token> HTTP/1.1"),
        ("POST /api/tables/abc-DEF_123/hands", "POST /api/tables/<token>/hands"),
        ("token=Zx9_Zx9_Zx9_Zx9_Zx9_Zx9_ rest", "token=<token> rest"),
        ("File /work/companion/api/hands.py, line 10", "File /work/companion/api/hands.py, line 10"),
        ("the_lower_case_identifier ok", "the_lower_case_identifier ok"),
    ],
)
def test_redact(line, shown):
    assert redact(line) == shown


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Alice", "Alice"),
        (-8, -8),
    ],
)
def test_csv_cells_never_start_a_formula(name, written):
    assert cell(name) == written


def test_the_csv_export_escapes_names_and_names_its_charset_once(client):
    view = new_table(client, players=["=cmd|' /C calc'!A0", "+Bob", "-Chen", "@Dora"], start_points=5)
    t = view["table"]["token"]
    client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]})
    resp = client.get(f"/api/tables/{t}/export.csv")
    assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(resp.data.decode("utf-8-sig"))))
    for row in rows:
        for value in row:
            assert not value.startswith(("=", "+", "@")), value
            assert not value.startswith("-") or value.lstrip("-").isdigit(), value
    assert rows[0][7] == "'=cmd|' /C calc'!A0 change" and any(r[6].startswith("'+Bob") for r in rows[2:])
    assert any(v.startswith("-") and v[1:].isdigit() for r in rows[2:] for v in r)  # losses stay numbers


def test_a_full_recognition_queue_answers_503_with_retry_after(tmp_path):
    release = threading.Event()
    started = threading.Semaphore(0)

    def slow(data):
        started.release()
        release.wait(10)
        return FakeReading()

    app = create_app(tmp_path / "d", recognizer=slow)
    held = RECOGNITION_SLOTS + RECOGNITION_WAITING
    codes: list[int] = []

    def upload():
        resp = app.test_client().post("/api/recognize", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")})
        codes.append(resp.status_code)

    threads = [threading.Thread(target=upload) for _ in range(held)]
    for th in threads:
        th.start()
    for _ in range(RECOGNITION_SLOTS):
        assert started.acquire(timeout=10)
    while app.extensions["mjc_recognition_queue"].admitted < held:
        threading.Event().wait(0.01)
    resp = app.test_client().post("/api/recognize", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")})
    assert resp.status_code == 503 and err(resp)["code"] == "busy" and err(resp)["field"] == "photo"
    assert resp.headers["Retry-After"] == str(RETRY_AFTER_S)
    assert app.test_client().get("/api/health").status_code == 200
    release.set()
    for th in threads:
        th.join(10)
    assert codes == [200] * held
    assert app.extensions["mjc_recognition_queue"].admitted == 0


def test_a_token_longer_than_any_is_not_looked_up(client):
    resp = client.get(f"/api/tables/{'t' * (MAX_TOKEN + 1)}")
    assert resp.status_code == 404 and err(resp)["code"] == "no_such_table"
