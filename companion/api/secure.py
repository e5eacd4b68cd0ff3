"""Setting a tablet up for HTTPS (``mjc serve --https``), over plain HTTP as well as HTTPS.

* ``/ca.crt``: the local certificate authority (DER, ``application/x-x509-ca-cert``, the type
  iOS, Android and desktop browsers offer to install); 404 when the server has no HTTPS.
* ``/https`` (and ``/https/t/<token>``, which sends the tablet back to its table): a page, in
  English or Chinese (``?lang=zh``), with the download link, the steps to trust the authority on
  iPad/iPhone, Android and a desktop, the authority's SHA-256 fingerprint to compare, and each
  secure address with its QR code (made here: no script, no outside service).
* ``/https/qr/<host>.svg`` (and ``/https/qr/<host>/t/<token>.svg``): the QR code of
  ``https://<host>:<port>/`` (or that table's page); only for a host the certificate covers.
"""

from __future__ import annotations

import hashlib
import io
import ipaddress
from dataclasses import dataclass, field
from html import escape

from flask import Blueprint, Response, abort, current_app, request

from .guards import _host_name

HTTPS_KEY = "mjc_https"
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

bp = Blueprint("secure", __name__)


@dataclass(frozen=True)
class HttpsInfo:
    """What ``mjc serve --https`` listens with: its port, the authority (DER) and the names and
    addresses its certificate covers."""

    port: int
    ca_der: bytes
    names: frozenset[str] = field(default_factory=frozenset)
    addresses: tuple[str, ...] = ()

    @property
    def fingerprint(self) -> str:
        digest = hashlib.sha256(self.ca_der).hexdigest().upper()
        return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


TEXT = {
    "en": {
        "title": "Live camera: a secure connection (HTTPS)",
        "why": "A tablet's browser shows the live camera only on a secure page. This server speaks HTTPS with "
        "a certificate of its own authority; trust that authority once per tablet, then open the secure address.",
        "off": "This server was started without HTTPS. Stop it and start it with mjc serve --https "
        "(or python3 run.py serve --https), then open this page again.",
        "step1": "1 · Download the authority",
        "download": "Download the certificate authority (ca.crt)",
        "fingerprint": "Its SHA-256 fingerprint (compare it with the one the tablet shows):",
        "step2": "2 · Trust it",
        "ios": "iPad / iPhone (Safari): tap the download link and Allow. Settings → General → VPN & Device "
        "Management → the “Mahjong companion local CA” profile → Install. Then Settings → General → About → "
        "Certificate Trust Settings → turn on full trust for it.",
        "android": "Android: tap the download link; if it does not offer to install it, Settings → Security → "
        "Encryption & credentials → Install a certificate → CA certificate → choose ca.crt.",
        "desktop": "Desktop: Windows: open ca.crt → Install Certificate → Trusted Root Certification Authorities. "
        "macOS: open it in Keychain Access → the certificate → Trust → Always Trust. Chrome on Linux: Settings → "
        "Privacy and security → Security → Manage certificates → Authorities → Import. Firefox: Settings → "
        "Certificates → View Certificates → Authorities → Import, and tick “Trust this CA to identify websites”.",
        "step3": "3 · Open the secure address",
        "scan": "Scan the code with the tablet's camera, or tap the address:",
        "back": "Back to the table over HTTP",
    },
    "zh": {
        "title": "实时相机：安全连接（HTTPS）",
        "why": "平板的浏览器只在安全页面上打开实时相机。本服务器用它自己的证书颁发机构签发的证书提供 HTTPS；"
        "每台平板信任一次这个颁发机构，然后打开安全地址。",
        "off": "本服务器启动时没有开启 HTTPS。请停止它，用 mjc serve --https（或 python3 run.py serve --https）"
        "重新启动，再打开本页。",
        "step1": "1 · 下载颁发机构证书",
        "download": "下载证书颁发机构（ca.crt）",
        "fingerprint": "它的 SHA-256 指纹（与平板上显示的对照）：",
        "step2": "2 · 信任它",
        "ios": "iPad / iPhone（Safari）：点下载链接并允许。设置 → 通用 → VPN 与设备管理 → “Mahjong companion "
        "local CA” 描述文件 → 安装。然后 设置 → 通用 → 关于本机 → 证书信任设置 → 对它启用完全信任。",
        "android": "安卓：点下载链接；若没有提示安装，设置 → 安全 → 加密与凭据 → 安装证书 → CA 证书 → 选择 ca.crt。",
        "desktop": "电脑：Windows：打开 ca.crt → 安装证书 → 受信任的根证书颁发机构。macOS：在“钥匙串访问”中打开 → "
        "该证书 → 信任 → 始终信任。Linux 上的 Chrome：设置 → 隐私和安全 → 安全 → 管理证书 → 授权机构 → 导入。"
        "Firefox：设置 → 证书 → 查看证书 → 证书颁发机构 → 导入，并勾选“信任由此证书颁发机构来标识网站”。",
        "step3": "3 · 打开安全地址",
        "scan": "用平板的相机扫描二维码，或点地址：",
        "back": "经 HTTP 回到牌桌",
    },
}


def https_info() -> HttpsInfo | None:
    found: HttpsInfo | None = current_app.extensions.get(HTTPS_KEY)
    return found


@bp.get("/ca.crt")
def ca_certificate() -> Response:
    info = https_info()
    if info is None:
        return Response(
            "This server was started without --https: it has no certificate authority.\n",
            status=404,
            mimetype="text/plain",
        )
    return Response(
        info.ca_der,
        mimetype="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="mahjong-companion-ca.crt"', "Cache-Control": "no-cache"},
    )


@bp.get("/https")
@bp.get("/https/t/<token>")
def setup_page(token: str | None = None) -> Response:
    lang = "zh" if request.args.get("lang") == "zh" else "en"
    text = TEXT[lang]
    path = _table_path(token)
    info = https_info()
    body = [f"<h1>{escape(text['title'])}</h1>", f"<p class='hint'>{escape(text['why'])}</p>"]
    if info is None:
        body.append(f"<p class='banner' id='https-off'>{escape(text['off'])}</p>")
    else:
        body += _steps(info, text, path)
    if request.scheme == "http":
        body.append(f"<p><a class='button' href='{escape(path)}'>{escape(text['back'])}</a></p>")
    html = (
        f"<!doctype html><html lang='{'zh-Hans' if lang == 'zh' else 'en'}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(text['title'])}</title><link rel='icon' href='data:,'><link rel='stylesheet' href='/static/style.css'></head>"
        f"<body><main><section class='card https-setup'>{''.join(body)}</section></main></body></html>"
    )
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})


@bp.get("/https/qr/<host>.svg")
@bp.get("/https/qr/<host>/t/<token>.svg")
def qr_code(host: str, token: str | None = None) -> Response:
    info = https_info()
    if info is None or host not in _hosts(info):
        abort(404)
    import segno

    out = io.BytesIO()
    segno.make(_secure_url(info, host, _table_path(token)), error="m").save(
        out, kind="svg", scale=6, border=2, xmldecl=False, svgclass=None, lineclass=None
    )
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def _steps(info: HttpsInfo, text: dict[str, str], path: str) -> list[str]:
    rows = []
    for host in _hosts(info):
        url = _secure_url(info, host, path)
        qr = f"/https/qr/{host}{path.rstrip('/') if path != '/' else ''}.svg"
        rows.append(
            f"<li class='https-address'><img class='qr' src='{escape(qr)}' alt='QR' width='222' height='222'>"
            f"<a href='{escape(url)}'>{escape(url)}</a></li>"
        )
    return [
        f"<h2>{escape(text['step1'])}</h2>",
        f"<p><a class='button primary' id='ca-link' href='/ca.crt' download>{escape(text['download'])}</a></p>",
        f"<p class='hint'>{escape(text['fingerprint'])}<br><code class='fingerprint'>{info.fingerprint}</code></p>",
        f"<h2>{escape(text['step2'])}</h2>",
        f"<ul class='https-steps'><li>{escape(text['ios'])}</li><li>{escape(text['android'])}</li>"
        f"<li>{escape(text['desktop'])}</li></ul>",
        f"<h2>{escape(text['step3'])}</h2><p>{escape(text['scan'])}</p>",
        f"<ul class='https-addresses'>{''.join(rows)}</ul>",
    ]


def _hosts(info: HttpsInfo) -> list[str]:
    """The hosts to offer: the one this page was opened by (when the certificate covers it and
    it is not this computer's loopback), then the LAN addresses."""
    asked = _host_name(request.host or "")
    loopback = asked == "localhost"
    try:
        loopback = loopback or ipaddress.ip_address(asked).is_loopback
    except ValueError:
        pass
    first = [asked] if asked in info.names and not loopback and ":" not in asked else []
    return list(dict.fromkeys([*first, *info.addresses]))


def _table_path(token: str | None) -> str:
    if token is None:
        return "/"
    if not (0 < len(token) <= 64 and set(token) <= TOKEN_CHARS):
        abort(404)
    return f"/t/{token}"


def _secure_url(info: HttpsInfo, host: str, path: str) -> str:
    return f"https://{host}{'' if info.port == 443 else f':{info.port}'}{path}"
