"""The tablet page and its files, served from the ``web`` package."""

from __future__ import annotations

import re
from importlib.resources import files

from flask.testing import FlaskClient

PAGE_FILES = {"app.js": "text/javascript", "i18n.js": "text/javascript", "style.css": "text/css"}


def test_page_and_static_files_are_local(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b"/static/app.js" in page.data
    assert page.mimetype == "text/html" and page.headers["Cache-Control"] == "no-cache"
    for url in ("/t/sometoken", "/w/sometoken"):
        resp = client.get(url)
        assert resp.status_code == 200 and resp.data == page.data
    for name, mimetype in PAGE_FILES.items():
        resp = client.get(f"/static/{name}")
        assert resp.status_code == 200 and resp.mimetype == mimetype
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
    first = client.get("/static/app.js")
    assert first.headers["ETag"]
    again = client.get("/static/app.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
