"""The public API: no table needed. Health, the OpenAPI document, the rule sets, the tile names,
reading typed tiles, reading a photo, and the scoring contract (``mjc score`` / ``mjc waits``).

``/api/score`` and ``/api/waits`` take the engine's contract as it is (:mod:`engine.contract`
checks it) and answer its result: 200 paid or answered, 422 refused by the rules, 400 malformed.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from engine import contract
from engine.errors import MahjongError
from engine.tiles import NUM_ALL, format_tiles, name_en, name_zh, parse_tiles, suit_of, tile_str

from ..house_rules import labelled
from ..store import RESTORE_HINT, SCHEMA_VERSION
from .models import NotationBody
from .openapi import openapi_document
from .request import json_body, parse_body, store
from .uploads import read_photo, recognize

bp = Blueprint("public", __name__, url_prefix="/api")


@bp.get("/health")
def health() -> tuple[Response, int]:
    """Liveness and the data file's integrity: 200 ``integrity: ok``, or 503 ``integrity: damaged``
    with what ``quick_check`` (at start) or a failed read found and what to do."""
    found = store()
    if found.damage is None:
        return jsonify({"ok": True, "schema_version": found.schema_version(), "integrity": "ok"}), 200
    message = f"the ledger file is damaged ({found.damage}); writes are refused: {RESTORE_HINT}"
    return jsonify({"ok": False, "schema_version": SCHEMA_VERSION, "integrity": "damaged", "message": message}), 503


@bp.get("/openapi.json")
def openapi() -> dict[str, Any]:
    return openapi_document()


@bp.get("/variants")
def variants() -> dict[str, Any]:
    return {"ok": True, "variants": [labelled(v) for v in contract.describe_variants()]}


@bp.get("/tiles")
def tiles() -> dict[str, Any]:
    catalogue = [{"code": tile_str(t), "suit": suit_of(t), "en": name_en(t), "zh": name_zh(t)} for t in range(NUM_ALL)]
    return {"ok": True, "tiles": catalogue}


@bp.post("/notation")
def notation() -> dict[str, Any]:
    """Typed tiles (``123m``, ``一萬 東``, Unicode glyphs) read the way the engine does."""
    body = parse_body(NotationBody)
    try:
        codes = parse_tiles(body.tiles)
    except MahjongError as err:
        err.field = err.field or "tiles"
        raise
    return {"ok": True, "tiles": [tile_str(t) for t in codes], "notation": format_tiles(codes)}


@bp.post("/recognize")
def recognize_photo() -> dict[str, Any]:
    data = read_photo()
    return {"photo": request.files["photo"].filename or "photo", "ok": True, **recognize(data)}


@bp.post("/score")
def score() -> tuple[Response, int]:
    return _contract_answer(contract.score(json_body()))


@bp.post("/waits")
def waits() -> tuple[Response, int]:
    return _contract_answer(contract.waits(json_body()))


def _contract_answer(result: dict[str, Any]) -> tuple[Response, int]:
    """The contract's result as it is, with the status its exit code stands for."""
    status = {0: 200, 1: 422}.get(contract.exit_code(result), 400)
    return jsonify(result), status
