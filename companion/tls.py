"""``mjc serve --https``: a local certificate authority and a server certificate signed by it.

The live camera needs a secure page (``getUserMedia`` is offered only over HTTPS or on
``localhost``), and a tablet reaches the server by its LAN address. So on first use the server
makes, in ``<data folder>/tls/``:

* ``ca.key`` + ``ca.crt``: a certificate authority of this machine only (EC P-256, ten years).
  The key is readable by the owner only (0600, in a 0700 folder) and never leaves the folder; the
  certificate is what a tablet installs and trusts once (``/ca.crt``).
* ``server.key`` + ``server.crt``: the server's certificate, signed by that authority, for every
  name the tablet may use: the LAN addresses, ``localhost``, ``127.0.0.1``, ``::1``, the host
  name and ``<host name>.local``, and the names given with ``--allow-host``. It lives
  :data:`SERVER_DAYS` days (within what iOS accepts, 825) and is made again when a name is
  missing from it (the machine moved to another network) or when it has under
  :data:`RENEW_DAYS` days left; the authority stays, so a tablet trusts the new one at once.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
import ssl
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 3650
"""How long the local authority lives."""
SERVER_DAYS = 397
"""How long a server certificate lives (Apple's limit for TLS server certificates is 825 days)."""
RENEW_DAYS = 30
"""A server certificate with fewer days left than this is made again at start."""
TLS_DIR = "tls"

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class TlsError(Exception):
    """The certificate files cannot be made or read; the message says which and what to do."""


@dataclass(frozen=True)
class TlsFiles:
    """Where the authority and the server certificate are, and whether this start made them."""

    folder: Path
    ca_created: bool
    server_created: bool

    @property
    def ca_cert(self) -> Path:
        return self.folder / "ca.crt"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca.key"

    @property
    def server_cert(self) -> Path:
        return self.folder / "server.crt"

    @property
    def server_key(self) -> Path:
        return self.folder / "server.key"

    def ca_der(self) -> bytes:
        """The authority's certificate in DER, as a tablet installs it."""
        return load_cert(self.ca_cert).public_bytes(serialization.Encoding.DER)

    def context(self) -> ssl.SSLContext:
        """A server TLS context (TLS 1.2 or newer) with the server certificate and its chain."""
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(self.server_cert, self.server_key)
        return ctx


def certificate_names(hosts: Iterable[str] = (), addresses: Iterable[str] = ()) -> tuple[set[str], set[IpAddress]]:
    """The DNS names and IP addresses the server certificate must cover: ``localhost``, the
    loopback addresses, this machine's name (and ``.local``), ``hosts`` and ``addresses``."""
    dns = {"localhost"}
    ips: set[IpAddress] = {ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")}
    name = socket.gethostname()
    for entry in (name, f"{name}.local", *hosts, *addresses):
        entry = entry.strip().rstrip(".").lower()
        if not entry or entry in ("0.0.0.0", "::"):
            continue
        try:
            ips.add(ipaddress.ip_address(entry))
        except ValueError:
            dns.add(entry)
    return dns, ips


def ensure_certificates(
    data_dir: str | os.PathLike[str],
    dns: set[str],
    ips: set[IpAddress],
    *,
    now: dt.datetime | None = None,
) -> TlsFiles:
    """The authority and a server certificate covering ``dns`` and ``ips`` under
    ``data_dir/tls``: kept when they are there and fit, made (or the server's remade) otherwise."""
    now = now or dt.datetime.now(dt.timezone.utc)
    folder = Path(data_dir) / TLS_DIR
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        files = TlsFiles(folder, False, False)
        ca_created = not (files.ca_cert.exists() and files.ca_key.exists())
        if ca_created:
            _make_ca(files, now)
        ca_cert, ca_key = load_cert(files.ca_cert), _load_key(files.ca_key)
        server_created = ca_created or not _server_fits(files, ca_cert, dns, ips, now)
        if server_created:
            _make_server(files, ca_cert, ca_key, dns, ips, now)
    except OSError as err:
        raise TlsError(f"cannot write the certificates in {folder}: {err.strerror or err}") from None
    except ValueError as err:
        raise TlsError(
            f"the certificate files in {folder} cannot be read ({err}); remove that folder to make new ones "
            "(tablets then trust the new ca.crt again)"
        ) from None
    return TlsFiles(folder, ca_created, server_created)


def load_cert(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def _load_key(path: Path) -> ec.EllipticCurvePrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{path.name} is not an EC key")
    return key


def _server_fits(
    files: TlsFiles, ca_cert: x509.Certificate, dns: set[str], ips: set[IpAddress], now: dt.datetime
) -> bool:
    """Whether the server certificate is there, signed by this authority, covers every name and
    has at least :data:`RENEW_DAYS` days left."""
    if not (files.server_cert.exists() and files.server_key.exists()):
        return False
    cert = load_cert(files.server_cert)
    if cert.issuer != ca_cert.subject:
        return False
    try:
        cert.verify_directly_issued_by(ca_cert)
    except (InvalidSignature, ValueError, TypeError):
        return False
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    covered = set(san.get_values_for_type(x509.DNSName)), set(san.get_values_for_type(x509.IPAddress))
    fresh = cert.not_valid_after_utc - now > dt.timedelta(days=RENEW_DAYS)
    return dns <= covered[0] and ips <= covered[1] and fresh


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by the owner only (0600), replacing it whole."""
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _write_public(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _make_ca(files: TlsFiles, now: dt.datetime) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Mahjong table companion"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Mahjong companion local CA ({socket.gethostname()})"[:64]),
        ]
    )
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(cert_sign=True), critical=True)
        .add_extension(ski, critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_private(files.ca_key, _key_pem(key))
    _write_public(files.ca_cert, cert.public_bytes(serialization.Encoding.PEM))


def _make_server(
    files: TlsFiles,
    ca_cert: x509.Certificate,
    ca_key: ec.EllipticCurvePrivateKey,
    dns: set[str],
    ips: set[IpAddress],
    now: dt.datetime,
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    san = [x509.DNSName(n) for n in sorted(dns)] + [x509.IPAddress(ip) for ip in sorted(ips, key=str)]
    ca_ski = ca_cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, socket.gethostname()[:64] or "localhost")]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=SERVER_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(cert_sign=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(san), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    _write_private(files.server_key, _key_pem(key))
    _write_public(files.server_cert, cert.public_bytes(serialization.Encoding.PEM))


def _key_usage(cert_sign: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not cert_sign,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=cert_sign,
        crl_sign=cert_sign,
        encipher_only=False,
        decipher_only=False,
    )
