"""The companion's Flask app: the JSON API under ``/api/`` and the tablet page.

``create_app(data_dir=…)`` is the factory (:mod:`companion.server` serves it with waitress): it
opens the ledger store (removing the photo ``.tmp`` files a crash left), registers the blueprints
of :mod:`companion.api` and the error handlers, the request guards (host, rate limits, body size,
Content-Type) and the security headers (:mod:`companion.api.guards`). Every error under ``/api/``
is JSON (:mod:`companion.api.errors`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .api import BLUEPRINTS
from .api.errors import register_error_handlers
from .api.guards import HOSTS_KEY, allowed_hosts, check_request, security_headers
from .api.ratelimit import LIMITER_KEY, Limiter
from .api.recognition_queue import QUEUE_KEY, RecognitionQueue
from .api.request import STORE_KEY
from .api.uploads import RECOGNIZER_KEY, Recognizer
from .logs import redact_loggers
from .storage import open_store

DEFAULT_MAX_UPLOAD = 16 * 1024 * 1024
PROXY_ENV = "MJC_PROXY_HOPS"
"""How many reverse proxies stand in front of the server (docs/deploy.md): with N > 0 the client's
address is read from the N-th ``X-Forwarded-For`` entry from the right (and the scheme from
``X-Forwarded-Proto``), so rate limits count each client, not the proxy. Default 0: the headers
are ignored (a client could write them)."""
MAX_PROXY_HOPS = 5


def proxy_hops() -> int:
    """:data:`PROXY_ENV` as a number; ValueError saying what to set when it is not one."""
    raw = os.environ.get(PROXY_ENV, "").strip() or "0"
    if not raw.isdigit() or int(raw) > MAX_PROXY_HOPS:
        raise ValueError(
            f"{PROXY_ENV} must be the number of reverse proxies in front of the server (0-{MAX_PROXY_HOPS}), "
            f"got {raw[:20]!r}"
        )
    return int(raw)


def create_app(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    max_upload: int | None = None,
    recognizer: Recognizer | None = None,
    hosts: Iterable[str] = (),
    database_url: str | None = None,
) -> Flask:
    """The companion app. ``data_dir`` holds the SQLite ledger and the photos (default ``data``),
    unless ``database_url`` names a PostgreSQL database that holds both (:mod:`companion.storage`);
    ``max_upload`` caps a photo upload (default ``MJC_MAX_UPLOAD`` or 16 MB); ``recognizer``
    replaces :func:`vision.recognize` (tests); ``hosts`` are the names the app answers to besides
    ``localhost``, IP addresses and ``MJC_ALLOWED_HOSTS``; behind reverse proxies :data:`PROXY_ENV`
    says how many."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = max_upload or int(os.environ.get("MJC_MAX_UPLOAD", DEFAULT_MAX_UPLOAD))
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    store = app.extensions[STORE_KEY] = open_store(data_dir, database_url)
    store.remove_stale_tmp()
    app.extensions[RECOGNIZER_KEY] = recognizer
    app.extensions[HOSTS_KEY] = allowed_hosts(hosts)
    app.extensions[LIMITER_KEY] = Limiter()
    app.extensions[QUEUE_KEY] = RecognitionQueue()
    redact_loggers()
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    register_error_handlers(app)
    app.before_request(check_request)
    app.after_request(security_headers)
    hops = proxy_hops()
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    return app
