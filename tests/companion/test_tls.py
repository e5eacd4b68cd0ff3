"""``mjc serve --https``: the local authority and the server certificate (names, signature, reuse,
renewal, file modes), a real TLS handshake against the authority, and the set-up page."""

from __future__ import annotations

import datetime as dt
import http.client
import ipaddress
import json
import socket
import ssl
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID

from companion.api.secure import HTTPS_KEY, HttpsInfo
from companion.app import create_app
from companion.server import add_https, server_options
from companion.tls import RENEW_DAYS, SERVER_DAYS, TlsError, certificate_names, ensure_certificates, load_cert

from .helpers import FakeReading, new_table

LAN = "192.168.7.23"


def names(*extra: str) -> tuple[set[str], set[ipaddress.IPv4Address | ipaddress.IPv6Address]]:
    return certificate_names(["mahjong.lan"], [LAN, *extra])


def san_of(cert: x509.Certificate) -> tuple[set[str], set[str]]:
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(san.get_values_for_type(x509.DNSName)), {str(ip) for ip in san.get_values_for_type(x509.IPAddress)}


def test_first_use_makes_an_authority_and_a_server_certificate_it_signs(tmp_path):
    files = ensure_certificates(tmp_path, *names())
    assert files.ca_created and files.server_created
    ca, server = load_cert(files.ca_cert), load_cert(files.server_cert)
    server.verify_directly_issued_by(ca)  # raises when the authority did not sign it
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is True
    assert server.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False
    eku = server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert ExtendedKeyUsageOID.SERVER_AUTH in eku
    dns, ips = san_of(server)
    host = socket.gethostname().lower()
    assert {"localhost", "mahjong.lan", host, f"{host}.local"} <= dns
    assert {"127.0.0.1", "::1", LAN} <= ips
    life = server.not_valid_after_utc - server.not_valid_before_utc
    assert dt.timedelta(days=SERVER_DAYS) <= life <= dt.timedelta(days=825)


def test_the_keys_are_readable_by_the_owner_only(tmp_path):
    files = ensure_certificates(tmp_path, *names())
    assert stat.S_IMODE(files.ca_key.stat().st_mode) == 0o600
    assert stat.S_IMODE(files.server_key.stat().st_mode) == 0o600
    assert stat.S_IMODE(files.folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(files.ca_cert.stat().st_mode) == 0o644
    assert not list(files.folder.glob("*.tmp"))


def test_the_next_start_reuses_both(tmp_path):
    first = ensure_certificates(tmp_path, *names())
    before = {p: p.read_bytes() for p in (first.ca_cert, first.ca_key, first.server_cert, first.server_key)}
    again = ensure_certificates(tmp_path, *names())
    assert not again.ca_created and not again.server_created
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize(
    ("case", "dns_extra", "ip_extra", "days_later", "remade"),
    [
        ("same names, fresh", (), (), 0, False),
        ("fewer names asked", (), (), 0, False),
        ("a new LAN address", (), ("10.0.0.9",), 0, True),
        ("a new host name", ("table.example",), (), 0, True),
        ("well before expiry", (), (), SERVER_DAYS - RENEW_DAYS - 5, False),
        ("near expiry", (), (), SERVER_DAYS - RENEW_DAYS + 1, True),
    ],
)
def test_the_server_certificate_is_remade_when_names_change_or_it_nears_expiry(
    tmp_path, case, dns_extra, ip_extra, days_later, remade
):
    first = ensure_certificates(tmp_path, *names())
    ca_before, server_before = first.ca_cert.read_bytes(), first.server_cert.read_bytes()
    dns, ips = certificate_names(["mahjong.lan", *dns_extra], [LAN, *ip_extra])
    if case == "fewer names asked":
        dns.discard("mahjong.lan")
    later = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=days_later)
    again = ensure_certificates(tmp_path, dns, ips, now=later)
    assert again.server_created is remade, case
    assert (again.server_cert.read_bytes() != server_before) is remade
    assert again.ca_cert.read_bytes() == ca_before  # the tablets' trust survives
    load_cert(again.server_cert).verify_directly_issued_by(load_cert(again.ca_cert))
    got_dns, got_ips = san_of(load_cert(again.server_cert))
    assert dns <= got_dns and {str(ip) for ip in ips} <= got_ips


def test_a_damaged_certificate_file_is_a_clear_error(tmp_path):
    files = ensure_certificates(tmp_path, *names())
    files.ca_cert.write_text("not a certificate")
    with pytest.raises(TlsError, match="cannot be read.*remove that folder"):
        ensure_certificates(tmp_path, *names())


IDLE_S = 1


@pytest.fixture()
def https_served(tmp_path) -> Iterator[tuple[int, int, Path]]:
    """The app under waitress on 127.0.0.1 over HTTP and HTTPS, as ``mjc serve --https`` runs it
    (its idle timeout cut to :data:`IDLE_S`): (http port, https port, the authority's certificate)."""
    from waitress import create_server

    app = create_app(tmp_path / "d", recognizer=lambda data: FakeReading())
    options = server_options(app.config["MAX_CONTENT_LENGTH"], threads=4)
    options |= {"channel_timeout": IDLE_S, "cleanup_interval": IDLE_S}
    plain = create_server(app, host="127.0.0.1", port=0, **options)
    secure = add_https(app, plain, str(tmp_path / "d"), "127.0.0.1", 0, ["localhost"], options)
    assert secure is not None
    thread = threading.Thread(target=plain.run, daemon=True)
    thread.start()
    yield int(plain.effective_port), int(secure.effective_port), tmp_path / "d" / "tls" / "ca.crt"
    secure.close()
    plain.close()
    thread.join(5)


def https_get(port: int, path: str, ca: Path, host: str = "localhost") -> tuple[int, dict[str, str], bytes]:
    ctx = ssl.create_default_context(cafile=str(ca))
    conn = http.client.HTTPSConnection(host, port, context=ctx, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def test_https_answers_with_a_certificate_the_authority_vouches_for(https_served):
    _, port, ca = https_served
    for host in ("localhost", "127.0.0.1"):
        status, _, body = https_get(port, "/api/health", ca, host)
        assert status == 200 and json.loads(body)["ok"] is True
    # several requests on one kept-alive TLS connection, a large answer among them
    ctx = ssl.create_default_context(cafile=str(ca))
    conn = http.client.HTTPSConnection("localhost", port, context=ctx, timeout=10)
    try:
        for path in ("/api/openapi.json", "/static/win-review.js", "/api/health"):
            conn.request("GET", path)
            resp = conn.getresponse()
            assert resp.status == 200 and len(resp.read()) > 20
        conn.request("POST", "/api/tables", body=json.dumps(_table()), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        created = json.loads(resp.read())
        assert resp.status == 201 and created["table"]["token"]
    finally:
        conn.close()


def _table() -> dict:
    return {"variant": "ningxia", "players": ["A", "B", "C", "D"], "first_dealer": 0}


def test_an_untrusting_client_and_plain_http_on_the_https_port_do_not_stop_it(https_served):
    _, port, ca = https_served
    untrusting = ssl.create_default_context()  # the system's authorities only
    with pytest.raises(ssl.SSLCertVerificationError):
        http.client.HTTPSConnection("localhost", port, context=untrusting, timeout=10).request("GET", "/")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            reply = s.recv(100)
        except ConnectionResetError:
            reply = b""
        assert b"HTTP/1.1" not in reply  # a TLS alert or a reset, never an answer in clear
    status, _, _ = https_get(port, "/api/health", ca)
    assert status == 200


def test_the_authority_is_offered_over_plain_http(https_served):
    http_port, _, ca = https_served
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    conn.request("GET", "/ca.crt")
    resp = conn.getresponse()
    der = resp.read()
    assert resp.status == 200 and resp.getheader("Content-Type") == "application/x-x509-ca-cert"
    assert x509.load_der_x509_certificate(der) == load_cert(ca)


@pytest.mark.parametrize(("lang", "words"), [("en", "Download the certificate authority"), ("zh", "下载证书颁发机构")])
def test_the_setup_page_links_the_authority_and_shows_the_secure_addresses(tmp_path, lang, words):
    app = create_app(tmp_path / "d", recognizer=lambda data: FakeReading(), hosts=["mahjong.lan"])
    files = ensure_certificates(tmp_path / "d", *names())
    info = HttpsInfo(8443, files.ca_der(), frozenset({"localhost", LAN, "mahjong.lan"}), (LAN,))
    app.extensions[HTTPS_KEY] = info
    client = app.test_client()
    token = new_table(client)["table"]["token"]
    page = client.get(f"/https/t/{token}?lang={lang}", base_url="http://mahjong.lan:8080")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert words in html and "href='/ca.crt'" in html and info.fingerprint in html
    assert f"https://mahjong.lan:8443/t/{token}" in html and f"https://{LAN}:8443/t/{token}" in html
    assert "<script" not in html and "style=" not in html  # the page's CSP allows neither
    qr = client.get(f"/https/qr/{LAN}/t/{token}.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and qr.data.startswith(b"<svg")
    assert client.get("/https/qr/evil.example.svg").status_code == 404


def test_without_https_the_page_says_how_to_start_it(client):
    page = client.get("/https")
    assert page.status_code == 200 and "mjc serve --https" in page.get_data(as_text=True)
    ca = client.get("/ca.crt")
    assert ca.status_code == 404 and b"--https" in ca.data


def test_a_client_that_never_finishes_its_handshake_is_closed_like_an_idle_one(https_served):
    _, port, ca = https_served
    with socket.create_connection(("127.0.0.1", port), timeout=IDLE_S * 6) as silent:
        started = time.monotonic()
        try:
            assert silent.recv(100) == b""  # closed by the server
        except ConnectionResetError:
            pass
        assert time.monotonic() - started < IDLE_S * 5
    status, _, _ = https_get(port, "/api/health", ca)
    assert status == 200
