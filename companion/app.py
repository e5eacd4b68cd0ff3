"""The companion's Flask app: the JSON API under ``/api/`` and the tablet page.

``create_app(data_dir=…)`` is the factory (:mod:`companion.server` serves it with waitress): it
opens the ledger store (removing the photo ``.tmp`` files a crash left), registers the blueprints of :mod:`companion.api` and the error handlers,
and sets the security headers. Every error under ``/api/`` is JSON (:mod:`companion.api.errors`).
"""

from __future__ import annotations

import os

from flask import Flask, Response, request

from .api import BLUEPRINTS
from .api.errors import register_error_handlers
from .api.request import STORE_KEY
from .api.uploads import RECOGNIZER_KEY, Recognizer
from .store import Store

DEFAULT_MAX_UPLOAD = 16 * 1024 * 1024


def create_app(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    max_upload: int | None = None,
    recognizer: Recognizer | None = None,
) -> Flask:
    """The companion app. ``data_dir`` holds the SQLite ledger and the photos (default ``data``);
    ``max_upload`` caps a request body (default ``MJC_MAX_UPLOAD`` or 16 MB); ``recognizer``
    replaces :func:`vision.recognize` (tests)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = max_upload or int(os.environ.get("MJC_MAX_UPLOAD", DEFAULT_MAX_UPLOAD))
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    store = app.extensions[STORE_KEY] = Store(data_dir or "data")
    store.remove_stale_tmp()
    app.extensions[RECOGNIZER_KEY] = recognizer
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    register_error_handlers(app)
    app.after_request(_security_headers)
    return app


def _security_headers(resp: Response) -> Response:
    """No content sniffing; API answers are never cached."""
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.path.startswith("/api/"):
        resp.headers.setdefault("Cache-Control", "no-store")
    return resp
