"""The API's error handlers: every error under ``/api/`` answers JSON, never a stack trace.

* :class:`~companion.errors.ApiError`: its status and body.
* :class:`~engine.errors.MahjongError`: a refusal by the rules (:class:`~engine.rules.base.Refusal`)
  answers 422, any other engine error (malformed input) 400, with the engine's code and field.
* HTTP errors (404, 405, 413) under ``/api/``: JSON with a stable code and the headers HTTP asks
  for (``Allow`` on a 405); elsewhere as Flask has them.
* The data file (:mod:`companion.store`): 503 ``database_damaged`` (a damaged file: writes are
  refused, the message says how to restore), ``disk_full`` or ``storage_unavailable``. 503, not 500:
  the request was sound and the server is not at fault in its code; it cannot record until the
  person running it acts. A corruption met while reading marks the store damaged.
* Anything else: a clean 500 ``internal``; the request recorded nothing (writes are one transaction).
  The log line names the request's path with its token redacted (:mod:`companion.logs`).
"""

from __future__ import annotations

import logging
import sqlite3

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from engine.errors import MahjongError

from ..errors import ApiError
from ..logs import redact
from ..store import RESTORE_HINT, DamagedError, DiskFullError, StoreError, is_corruption
from .request import store

log = logging.getLogger("companion")

HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def register_error_handlers(app: Flask) -> None:
    """Install the handlers above on ``app``."""
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(MahjongError, _engine_error)
    app.register_error_handler(StoreError, _store_error)
    app.register_error_handler(sqlite3.DatabaseError, _database_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)


def _answer(err: ApiError) -> tuple[Response, int]:
    resp = jsonify(err.to_dict())
    resp.headers.update(err.headers)
    return resp, err.status


def _api_error(err: ApiError) -> tuple[Response, int]:
    return _answer(err)


def _engine_error(err: MahjongError) -> tuple[Response, int]:
    return _answer(ApiError.from_engine(err))


def _store_error(err: StoreError) -> tuple[Response, int]:
    codes = {DamagedError: "database_damaged", DiskFullError: "disk_full"}
    code = codes.get(type(err), "storage_unavailable")
    return _answer(ApiError(503, code, str(err)))


def _database_error(err: sqlite3.DatabaseError) -> tuple[Response, int]:
    if not is_corruption(err):
        return _unexpected(err)
    rule = request.url_rule.rule if request.url_rule else "?"  # the route, not the path: no token in the log
    log.error("the ledger file is damaged: %s (on %s %s)", err, request.method, rule)
    store().mark_damaged(str(err))
    return _store_error(DamagedError(f"the ledger file is damaged ({err}); nothing was written: {RESTORE_HINT}"))


def _http_error(err: HTTPException) -> HTTPException | tuple[Response, int]:
    if not request.path.startswith("/api/"):
        return err
    status = err.code or 500
    messages = {
        404: "no such API resource; see /api/openapi.json",
        405: f"{request.method} is not allowed here; see /api/openapi.json",
        413: _too_large(),
    }
    answer = ApiError(status, HTTP_CODES.get(status, "http_error"), messages.get(status, err.description or "error"))
    answer.headers.update((k, v) for k, v in err.get_headers() if k in ("Allow", "Retry-After"))
    return _answer(answer)


def _too_large() -> str:
    limit = request.max_content_length or current_app.config["MAX_CONTENT_LENGTH"] or 0
    if limit >= 1024 * 1024:
        return f"the upload is larger than {limit // (1024 * 1024)} MB; send a smaller photo (the page downscales photos before upload)"
    return f"the request body is larger than {limit} bytes, the most this endpoint takes"


def _unexpected(err: Exception) -> tuple[Response, int]:
    log.exception("unexpected error on %s %s", request.method, redact(request.path))
    message = (
        "something went wrong on the server; nothing was recorded by this request. "
        "Try again, and if it persists note what you did."
    )
    return _answer(ApiError(500, "internal", message))
