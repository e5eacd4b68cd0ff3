"""What every API route needs from the request: the JSON body checked by a model, the store, and
the table named by the token in the path with its rules resolved once.

A body is read as JSON within the limits of :mod:`companion.jsonlimits` (depth, string length,
no NaN/Infinity, integers JavaScript can hold, no lone surrogates): one that is not JSON or is
over a limit answers 400 ``bad_json`` naming the field; one the model refuses answers 400 naming
the field as a JSON path (``players[1]``, ``winners[0].context``); an error raised by a model's
own check (:class:`~companion.api.models.BodyError`) keeps its code and field. A token that names
no table counts against the address's wrong-token allowance (:mod:`.ratelimit`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app, request
from pydantic import BaseModel, ValidationError

from engine.errors import MahjongError

from .. import jsonlimits
from ..errors import ApiError, bad
from ..rules import TableRules
from ..storage import Storage, Table
from .ratelimit import LIMITER_KEY, Limiter

M = TypeVar("M", bound=BaseModel)

STORE_KEY = "mjc_store"
MAX_TOKEN = 64
"""The longest token looked up (tokens are 24 characters); a longer one names no table."""


def store() -> Storage:
    """The app's ledger store (``app.extensions["mjc_store"]``): SQLite or PostgreSQL."""
    found: Storage = current_app.extensions[STORE_KEY]
    return found


def json_body(*, required: bool = True) -> Any:
    """The request body parsed as JSON; an empty body is ``{}`` unless ``required``."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise bad("the request body is empty: send a JSON object (Content-Type: application/json)", code="bad_json")
        return {}
    try:
        return jsonlimits.loads(raw)
    except jsonlimits.JsonLimitError as err:
        raise bad(f"the body: {err.message}; send a JSON object", field=err.field or None, code="bad_json") from None


def object_body(*, required: bool = True) -> dict[str, Any]:
    """The JSON body, which must be an object."""
    body = json_body(required=required)
    if not isinstance(body, dict):
        raise bad("the body must be a JSON object" + ("" if required else " (or empty)"), code="bad_json")
    return body


def parse(model: type[M], body: dict[str, Any]) -> M:
    """``body`` validated by ``model``; a refusal answers 400 naming the first field at fault."""
    try:
        return model.model_validate(body)
    except ValidationError as err:
        raise request_error(err) from None


def parse_body(model: type[M], *, required: bool = True) -> M:
    """The JSON body validated by ``model`` (an empty body is ``{}`` unless ``required``)."""
    return parse(model, object_body(required=required))


def request_error(err: ValidationError) -> ApiError:
    """The first error of a validation, as the API's 400 with the field as a JSON path; an unknown
    field is named before anything else."""
    errors = err.errors()
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    path = json_path(first["loc"])
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, MahjongError):
        return ApiError(400, cause.code, cause.message, cause.field or path or None)
    if first["type"] == "missing":
        message = f"missing field '{path}'"
    elif first["type"] == "extra_forbidden":
        message = f"unknown field '{path}'; see /api/openapi.json for the fields this request takes"
    else:
        got = repr(first["input"])
        message = f"field '{path}': {first['msg']}, got {got if len(got) <= 60 else got[:57] + '...'}"
    return bad(message, field=path or None)


def json_path(loc: tuple[int | str, ...]) -> str:
    """``("winners", 0, "hand")`` → ``winners[0].hand``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@dataclass(frozen=True)
class TableRef:
    """The table a request's token names, whether it is the control token, and the rules it was
    created with resolved (the house rules of a hand are its ``state.rules``: the ledger's
    ``rules_at``, :mod:`companion.settings`)."""

    table: Table
    control: bool
    rules: TableRules


def table_for(token: str, *, write: bool = False) -> TableRef:
    """The table with this control or watch token: 404 when none, 403 for a write via the watch link."""
    found = store().find_table(token) if 0 < len(token) <= MAX_TOKEN else None
    if found is None:
        limiter: Limiter = current_app.extensions[LIMITER_KEY]
        limiter.guessed_wrong(request.remote_addr or "")
        raise ApiError(404, "no_such_table", "no table has this link; check the address, or create a new table")
    table, control = found
    if write and not control:
        raise ApiError(
            403,
            "read_only",
            "this is the watch link: it shows the ledger but cannot change it; use the tablet's table link to record",
        )
    return TableRef(table, control, TableRules.of(table))
