"""The tablet page and its files, served from the ``web`` package."""

from __future__ import annotations

import re
from importlib.resources import files

from flask.testing import FlaskClient

MIMETYPES = {".js": "text/javascript", ".css": "text/css"}


def _page_files() -> list[str]:
    return sorted(p.name for p in files("web").iterdir() if p.name.endswith(tuple(MIMETYPES)))


def test_page_and_static_files_are_local(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert page.headers["Cache-Control"] == "no-cache"
    assert page.data == files("web").joinpath("index.html").read_bytes()
    for url in ("/t/sometoken", "/w/sometoken"):
        resp = client.get(url)
        assert resp.status_code == 200 and resp.data == page.data
    linked = re.findall(r"""(?:src|href)="/static/([\w./-]+)\"""", page.data.decode("utf-8"))
    assert linked and set(linked) <= set(_page_files())
    for name in _page_files():
        resp = client.get(f"/static/{name}")
        assert resp.status_code == 200 and resp.mimetype == MIMETYPES[name[name.rfind(".") :]], name
        assert resp.headers["Content-Type"].count("charset") == 1, resp.headers["Content-Type"]
        assert resp.data == files("web").joinpath(name).read_bytes()
    for path in files("web").iterdir():
        if path.name.endswith((".html", ".js", ".css")):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"""(src|href)\s*=\s*["']https?://""", text), f"{path.name} loads from the network"
            assert "@import url(http" not in text


def test_only_the_page_files_are_served(client: FlaskClient) -> None:
    for name in ("__init__.py", "../pyproject.toml", "nothing.js", ".hidden.js", "..%2Fpyproject.toml"):
        assert client.get(f"/static/{name}").status_code == 404, name


def test_page_files_are_revalidated_with_an_etag(client: FlaskClient) -> None:
    name = _page_files()[0]
    first = client.get(f"/static/{name}")
    assert first.headers["ETag"]
    again = client.get(f"/static/{name}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
