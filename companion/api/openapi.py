"""The OpenAPI 3.1 document served at ``/api/openapi.json``.

The paths are listed here (summary, parameters, request and answers); every schema comes from
the request and response models of :mod:`companion.api.models` (``model_json_schema``), the same
models that validate the request bodies. The scoring contract of ``/api/score`` and
``/api/waits`` is the engine's (:mod:`engine.contract` checks it): it is described as a
free-form object pointing there. The answers every request may get from the guards
(:mod:`.guards`: 413 over the body limit, 415 a body that is not JSON or multipart, 429 over a
rate limit, 404 a token that names no table, 503 a full recognition queue) are added to each
operation by :func:`guarded`. The test suite walks the document against the app: every route is
documented, every documented path and method answers, and every answer a request gets is
documented with the body the document names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from . import models as m

REF = "#/components/schemas/{model}"

#: the models that validate request bodies, by name in the document
REQUEST_MODELS: tuple[type[BaseModel], ...] = (
    m.NotationBody,
    m.NewTable,
    m.ClaimBody,
    m.KongBody,
    m.DrawBody,
    m.DrawnHand,
    m.WonHand,
    m.PreviewBody,
    m.UndoBody,
    m.SettingsBody,
)
RESPONSE_MODELS: tuple[type[BaseModel], ...] = (
    m.ErrorBody,
    m.Health,
    m.Variants,
    m.Tiles,
    m.Notation,
    m.Recognition,
    m.ScoreAnswer,
    m.Waits,
    m.TableView,
    m.Recorded,
    m.TableExport,
    m.LedgerPoll,
    m.HandPreview,
    m.CameraState,
    m.Conflict,
)

CONTRACT = {
    "type": "object",
    "description": "the scoring contract of `mjc score` (engine/contract.py, README.md): variant, options, "
    "round_wind, winner, win, hand, indicators, context; a list of such objects for several winners",
}
TOKEN = {
    "name": "token",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
    "description": "the table's control token (tablet link) or watch token (read-only link); "
    "an unknown token answers 404",
}
PHOTO = {
    "required": True,
    "content": {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["photo"],
                "properties": {"photo": {"type": "string", "format": "binary"}},
            }
        }
    },
}


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF.format(model=model.__name__)}


def _json(schema: dict[str, Any] | type[BaseModel], description: str = "OK") -> dict[str, Any]:
    body = schema if isinstance(schema, dict) else _ref(schema)
    return {"description": description, "content": {"application/json": {"schema": body}}}


def _error(description: str) -> dict[str, Any]:
    return _json(m.ErrorBody, description)


def _body(schema: dict[str, Any] | type[BaseModel], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": _json(schema)["content"]}


def _id(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "integer"}}


BAD = _error("malformed input; `error.field` names the culprit")
NOT_FOUND = _error("no table has this token (or, in the path, no such hand or photo)")
READ_ONLY = _error("a write with the watch token")
REFUSED = _error("the rules refuse the hand (`error.kind`: refused)")
TOO_LARGE = _error("the body is over this endpoint's size limit")
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
RATE_LIMITED = _error("too many requests (or wrong table tokens) from this address") | {"headers": RETRY_AFTER}
BUSY = _error("the recognition queue is full") | {"headers": RETRY_AFTER}
UNSUPPORTED = _error("the body's Content-Type is not the one this endpoint takes")
UNAVAILABLE = _error(
    "the data file is damaged (`database_damaged`), the disk is full (`disk_full`) or the photo folder cannot be written (`storage_unavailable`): nothing was recorded"
)
NO_CAMERA = _error("no table has this token, or the server has no table camera (`no_camera`)")
CAMERA_STARTING = _error("the table camera has given no frame yet (`camera_starting`)") | {"headers": RETRY_AFTER}
FULL_FRAME = {
    "name": "full",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": ["1"]},
    "description": "1: the frame at full size (for the capture)",
}
STALE = _json(
    m.Conflict,
    "the ledger changed since the body's `base_version` in a way that changes this request: `stale`, whose "
    "`stale` lists what was recorded since; nothing was recorded (undo: also `nothing_to_undo`)",
)
REPLAYED = _json(
    m.Recorded, "this `Idempotency-Key`'s write was recorded before: that event, `replayed: true`; nothing new recorded"
)
KEY_REUSED = _error("`idempotency_key_reused`: this `Idempotency-Key` was sent before with another request")
KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": "^[!-~]{1,200}$"},
    "description": "a new random id per user action, the same on each retry of it: a retry is answered with the "
    "event the first try recorded (200, `replayed: true`) and never recorded twice",
}
WRITE = {
    "200": REPLAYED,
    "400": BAD,
    "403": READ_ONLY,
    "404": NOT_FOUND,
    "409": STALE,
    "422": KEY_REUSED,
    "503": UNAVAILABLE,
}
PHOTO_WRITE = {"400": BAD, "403": READ_ONLY, "404": NOT_FOUND, "503": UNAVAILABLE}
REFUSED_OR_REUSED = _error(
    "the rules refuse the hand (`error.kind`: refused), or `idempotency_key_reused` (this `Idempotency-Key` "
    "was sent before with another request)"
)
HAND_BODY = {"oneOf": [_ref(m.WonHand), _ref(m.DrawnHand)]}


def op(
    summary: str, responses: dict[str, Any], *, body: dict[str, Any] | None = None, params: tuple[Any, ...] = ()
) -> dict[str, Any]:
    """One operation: its summary, parameters, request body and answers by status."""
    out: dict[str, Any] = {"summary": summary, "responses": responses}
    if params:
        out["parameters"] = list(params)
    if body is not None:
        out["requestBody"] = body
    return out


T = "/api/tables/{token}"


def write_op(
    summary: str, body: dict[str, Any], *, refused: bool = False, path_ids: tuple[Any, ...] = ()
) -> dict[str, Any]:
    """A ledger write: 201 with the event, every write's answers (``WRITE``; ``refused``: the rules
    may refuse it, 422), the table's token, ``path_ids`` and the ``Idempotency-Key`` header."""
    responses = {"201": _json(m.Recorded), **WRITE} | ({"422": REFUSED_OR_REUSED} if refused else {})
    return op(summary, responses, body=body, params=(TOKEN, *path_ids, KEY))


#: every route of the API (a test checks that each route of the app is here)
PATHS: dict[str, Any] = {
    "/api/health": {
        "get": op(
            "liveness, schema version and the data file's integrity",
            {"200": _json(m.Health), "503": _json(m.Health, "the data file is damaged: writes are refused")},
        )
    },
    "/api/openapi.json": {"get": op("this document", {"200": _json({"type": "object"})})},
    "/api/variants": {"get": op("the installed rule sets with their options and defaults", {"200": _json(m.Variants)})},
    "/api/tiles": {"get": op("tile codes with English and Chinese names (the picker)", {"200": _json(m.Tiles)})},
    "/api/notation": {
        "post": op(
            "read typed tiles (notation, Chinese names, Unicode glyphs) as tile codes",
            {"200": _json(m.Notation), "400": BAD},
            body=_body(m.NotationBody),
        )
    },
    "/api/recognize": {
        "post": op(
            "read the tiles in a photo (the `mjc recognize --json` output)",
            {"200": _json(m.Recognition), "400": _error("not a usable photo"), "413": TOO_LARGE},
            body=PHOTO,
        )
    },
    "/api/score": {
        "post": op(
            "score a won hand (the `mjc score` contract)",
            {
                "200": _json(m.ScoreAnswer),
                "400": _error("malformed: the contract's error body (`error.kind`: invalid)"),
                "422": _error("refused: the contract's error body (`error.kind`: refused)"),
            },
            body=_body(CONTRACT),
        )
    },
    "/api/waits": {
        "post": op(
            "the tiles that complete a hand one tile short (the `mjc waits` contract)",
            {
                "200": _json(m.Waits),
                "400": _error("malformed: the contract's error body (`error.kind`: invalid)"),
                "422": _error("refused: the contract's error body (`error.kind`: refused)"),
            },
            body=_body(CONTRACT),
        )
    },
    "/api/tables": {
        "post": op(
            "create a table; the answer holds its control token and watch link",
            {"201": _json(m.TableView), "400": BAD, "503": UNAVAILABLE},
            body=_body(m.NewTable),
        )
    },
    T: {
        "get": op(
            "the table, the current hand's state and the ledger",
            {"200": _json(m.TableView), "404": NOT_FOUND},
            params=(TOKEN,),
        )
    },
    f"{T}/ledger": {
        "get": op(
            "the ledger; `?since=VERSION` answers `changed: false` when nothing happened",
            {"200": _json(m.LedgerPoll), "400": BAD, "404": NOT_FOUND},
            params=(TOKEN, {"name": "since", "in": "query", "schema": {"type": "integer", "minimum": 0}}),
        )
    },
    f"{T}/claims": {
        "post": write_op(
            "record a pung or kong claimed from another player this hand",
            _body(m.ClaimBody),
        )
    },
    f"{T}/kongs": {
        "post": write_op(
            "record a kong with its immediate payments under the table's rule set",
            _body(m.KongBody),
        )
    },
    f"{T}/draws": {
        "post": write_op(
            "record a drawn hand; the deal moves on by the rule set",
            _body(m.DrawBody, required=False),
        )
    },
    f"{T}/hands/score": {
        "post": op(
            "score the current hand's winners without recording (the table fills in "
            "variant, options, round wind, dealer streak and claims)",
            {"200": _json(m.HandPreview), "400": BAD, "404": NOT_FOUND, "409": STALE, "422": REFUSED},
            body=_body(m.PreviewBody),
            params=(TOKEN,),
        )
    },
    f"{T}/hands": {
        "post": write_op(
            "record the current hand: a win (scored and paid) or `{drawn: true}`",
            _body(HAND_BODY),
            refused=True,
        )
    },
    f"{T}/hands/{{event_id}}/correct": {
        "post": write_op(
            "correct a past hand: re-scored under the state it was played in; balances recompute",
            _body(HAND_BODY),
            refused=True,
            path_ids=(_id("event_id"),),
        )
    },
    f"{T}/undo": {
        "post": write_op(
            "take back the latest effective event (recorded as an undo; nothing is deleted)",
            _body(m.UndoBody, required=False),
        )
    },
    f"{T}/settings": {
        "post": write_op(
            "change the table: rename a player (or several at once: 'renames', checked on the names they end "
            "with), swap two players' seats (from the next hand), or change the "
            "house rules (from the next hand; each hand keeps the rules it was played under); undone like any event",
            _body(m.SettingsBody),
        )
    },
    f"{T}/photos": {
        "post": op(
            "upload a hand photo: stored with the table and recognised",
            {"201": _json(m.Recognition), **PHOTO_WRITE, "413": TOO_LARGE},
            body=PHOTO,
            params=(TOKEN,),
        )
    },
    f"{T}/photos/{{photo_id}}": {
        "get": op(
            "a stored hand photo",
            {"200": {"description": "the image", "content": {"image/jpeg": {}, "image/png": {}}}, "404": NOT_FOUND},
            params=(TOKEN, _id("photo_id")),
        )
    },
    f"{T}/camera": {
        "get": op(
            "the table camera (`mjc serve --camera`): whether there is one, and its frame size",
            {"200": _json(m.CameraState), "403": READ_ONLY, "404": NOT_FOUND},
            params=(TOKEN,),
        )
    },
    f"{T}/camera/frame.jpg": {
        "get": op(
            "the table camera's latest frame as JPEG (preview size; `?full=1` full size), its number in X-Frame-Seq",
            {
                "200": {"description": "the frame", "content": {"image/jpeg": {}}},
                "403": READ_ONLY,
                "404": NO_CAMERA,
                "503": CAMERA_STARTING,
            },
            params=(TOKEN, FULL_FRAME),
        )
    },
    f"{T}/camera/reading": {
        "post": op(
            "the reading of the table camera's latest preview frame (the boxes over the preview), with `seq`",
            {"200": _json(m.Recognition), "403": READ_ONLY, "404": NO_CAMERA, "503": BUSY},
            params=(TOKEN,),
        )
    },
    f"{T}/export.json": {
        "get": op(
            "the table, the ledger and every recorded event",
            {"200": _json(m.TableExport), "404": NOT_FOUND},
            params=(TOKEN,),
        )
    },
    f"{T}/export.csv": {
        "get": op(
            "the ledger as CSV: one row per effective event with changes and balances",
            {"200": {"description": "CSV", "content": {"text/csv": {}}}, "404": NOT_FOUND},
            params=(TOKEN,),
        )
    },
}


PUBLIC_LIMITED = {("/api/score", "post"), ("/api/waits", "post"), ("/api/notation", "post"), ("/api/tables", "post")}
PHOTO_UPLOADS = {("/api/recognize", "post"), (f"{T}/photos", "post")}


def operation_id(path: str, method: str) -> str:
    """``post /api/tables/{token}/claims`` → ``post_tables_token_claims``."""
    words = re.findall(r"[a-z]+", path.removeprefix("/api/"))
    return "_".join([method, *words])


def table_links(paths: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI links from a new table to every operation that needs only its token."""
    links = {}
    for path, methods in paths.items():
        if "{token}" in path and path.count("{") == 1:
            for method in methods:
                name = operation_id(path, method)
                links[name] = {"operationId": name, "parameters": {"token": "$response.body#/table/token"}}
    return links


def guarded(paths: dict[str, Any]) -> dict[str, Any]:
    """``paths`` with an ``operationId`` for each operation and the guards' answers added: 413
    and 415 for a body, 404 and 429 for a token, 429 for a rate-limited public endpoint, 503 for
    a photo upload; a new table's answer links to the operations on it."""
    out: dict[str, Any] = {}
    for path, methods in paths.items():
        out[path] = {}
        for method, operation in methods.items():
            extra: dict[str, Any] = {}
            if method == "post":
                extra |= {"413": TOO_LARGE, "415": UNSUPPORTED}
            if "{token}" in path:
                extra |= {"404": NOT_FOUND, "429": RATE_LIMITED}
            if (path, method) in PUBLIC_LIMITED | PHOTO_UPLOADS:
                extra["429"] = RATE_LIMITED
            if (path, method) in PHOTO_UPLOADS:
                extra["503"] = BUSY
            responses = extra | operation["responses"]
            if (path, method) == ("/api/tables", "post"):
                responses["201"] = responses["201"] | {"links": table_links(paths)}
            out[path][method] = {"operationId": operation_id(path, method)} | operation | {"responses": responses}
    return out


def component_schemas() -> dict[str, Any]:
    """Every model's JSON schema (requests as validated, responses as serialised), by model name."""
    pairs = [(model, "validation") for model in REQUEST_MODELS] + [
        (model, "serialization") for model in RESPONSE_MODELS
    ]
    _, top = models_json_schema(pairs, ref_template=REF)  # type: ignore[arg-type]
    schemas: dict[str, Any] = top.get("$defs", {})
    return schemas


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    """The whole document (built once)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Mahjong table companion API",
            "version": "1.0.0",
            "description": "Recognise tiles in a photo, score hands under five regional rule sets with the same "
            "JSON contract as `mjc score` / `mjc waits`, and keep a table's ledger. Errors are "
            "`{ok: false, error: {code, message, field?, kind?}}`. Every request must name the server "
            "by localhost, an IP address or an allowed name in `Host` (else 400 `unknown_host`).",
        },
        "paths": guarded(PATHS),
        "components": {"schemas": component_schemas()},
    }
