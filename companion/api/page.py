"""The tablet page: ``/`` (create a table), ``/t/<token>`` (the tablet's table), ``/w/<token>``
(the read-only watch link) all answer ``index.html``; ``/static/<name>`` its files.

The files are the ``web`` package's data, found through :func:`importlib.resources.files`, so an
installed wheel serves the page as well as a checkout. Only the page's kinds of file are served,
each with its Content-Type (``.js`` as ``text/javascript``); the browser revalidates them on
every load (``no-cache``, with an ETag).
"""

from __future__ import annotations

import hashlib
import io
from importlib.resources import files
from typing import TYPE_CHECKING

from flask import Blueprint, Response, abort, send_file

if TYPE_CHECKING:
    from importlib.abc import Traversable

bp = Blueprint("page", __name__)

CONTENT_TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
}


@bp.get("/")
@bp.get("/t/<token>")
@bp.get("/w/<token>")
def page(token: str | None = None) -> Response:
    return _send(web_file("index.html"))


@bp.get("/static/<path:name>")
def static_file(name: str) -> Response:
    return _send(web_file(name))


def web_file(name: str) -> Traversable:
    """The page's file ``name`` (a path inside the ``web`` package); 404 when there is none or it
    is not one of the page's kinds of file."""
    parts = name.split("/")
    if any(p in ("", ".", "..") or p.startswith(".") for p in parts):
        abort(404)
    found = files("web").joinpath(*parts)
    if _suffix(parts[-1]) not in CONTENT_TYPES or not found.is_file():
        abort(404)
    return found


def _suffix(name: str) -> str:
    return name[name.rfind(".") :] if "." in name else ""


def _send(file: Traversable) -> Response:
    data = file.read_bytes()
    resp = send_file(
        io.BytesIO(data),
        mimetype=CONTENT_TYPES[_suffix(file.name)],
        etag=hashlib.sha256(data).hexdigest()[:32],
        conditional=True,
    )
    resp.headers["Cache-Control"] = "no-cache"
    return resp
