"""The OpenAPI 3.1 document served at ``/api/openapi.json`` (the test suite checks it lists every route)."""
from __future__ import annotations

from functools import lru_cache


def _err(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _json(schema: dict | str, description: str = "OK") -> dict:
    if isinstance(schema, str):
        schema = {"$ref": f"#/components/schemas/{schema}"}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _body(schema: dict | str, required: bool = True) -> dict:
    if isinstance(schema, str):
        schema = {"$ref": f"#/components/schemas/{schema}"}
    return {"required": required, "content": {"application/json": {"schema": schema}}}


TOKEN = {"name": "token", "in": "path", "required": True, "schema": {"type": "string"},
         "description": "the table's control token (tablet link) or watch token (read-only link); "
                        "an unknown token answers 404"}
BAD = _err("malformed input; `error.field` names the culprit")
NOTFOUND = _err("no table has this token")
READONLY = _err("a write with the watch token")
REFUSED = _err("the rules refuse the hand (the scoring contract's error body)")
PHOTO_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["photo"], "properties": {"photo": {"type": "string", "format": "binary"}}}}}}


@lru_cache(maxsize=1)
def openapi_document() -> dict:
    table_write = {"400": BAD, "403": READONLY, "404": NOTFOUND}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Mahjong table companion API",
            "version": "1.0.0",
            "description": "Recognise tiles in a photo, score hands under five regional rule sets with the same "
                           "JSON contract as `mjc score` / `mjc waits`, and keep a table's ledger. Errors are "
                           "`{ok: false, error: {code, message, field?}}`.",
        },
        "paths": {
            "/api/health": {"get": {"summary": "liveness and schema version", "responses": {"200": _json({"type": "object"})}}},
            "/api/openapi.json": {"get": {"summary": "this document", "responses": {"200": _json({"type": "object"})}}},
            "/api/variants": {"get": {"summary": "the installed rule sets with their documented options and defaults",
                                      "responses": {"200": _json({"type": "object", "properties": {
                                          "variants": {"type": "array", "items": {"$ref": "#/components/schemas/Variant"}}}})}}},
            "/api/tiles": {"get": {"summary": "tile codes with English and Chinese names (for the picker)",
                                   "responses": {"200": _json({"type": "object"})}}},
            "/api/notation": {"post": {
                "summary": "read typed tiles (compact notation, Chinese names, Unicode glyphs) as tile codes",
                "requestBody": _body({"type": "object", "required": ["tiles"], "properties": {"tiles": {"type": "string"}}}),
                "responses": {"200": _json({"type": "object", "properties": {
                    "tiles": {"type": "array", "items": {"type": "string"}}, "notation": {"type": "string"}}}),
                              "400": BAD}}},
            "/api/recognize": {"post": {
                "summary": "read the tiles in a photo (the `mjc recognize --json` output)",
                "requestBody": PHOTO_BODY,
                "responses": {"200": _json("Recognition"), "400": _err("not a usable photo (`error.code` from the recogniser)"),
                              "413": _err("the upload is over the size limit")}}},
            "/api/score": {"post": {
                "summary": "score a won hand (the `mjc score` contract: one object, or a list for several winners)",
                "requestBody": _body({"oneOf": [{"$ref": "#/components/schemas/ScoreInput"},
                                                {"type": "array", "items": {"$ref": "#/components/schemas/ScoreInput"}}]}),
                "responses": {"200": _json("ScoreResult"), "400": BAD, "422": REFUSED}}},
            "/api/waits": {"post": {
                "summary": "the tiles that complete a hand one tile short (the `mjc waits` contract)",
                "requestBody": _body("ScoreInput"),
                "responses": {"200": _json({"type": "object", "properties": {
                    "waits": {"type": "array", "items": {"type": "string"}}, "notation": {"type": "string"}}}),
                    "400": BAD, "422": REFUSED}}},
            "/api/tables": {"post": {
                "summary": "create a table; the answer holds its control token and its watch link",
                "requestBody": _body("NewTable"),
                "responses": {"201": _json("TableView"), "400": BAD}}},
            "/api/tables/{token}": {"get": {
                "summary": "the table, the current hand's state (dealer, winds, streak, claims) and the ledger",
                "parameters": [TOKEN], "responses": {"200": _json("TableView"), "404": NOTFOUND}}},
            "/api/tables/{token}/ledger": {"get": {
                "summary": "the ledger alone; `?since=VERSION` answers `changed: false` when nothing happened (polling)",
                "parameters": [TOKEN, {"name": "since", "in": "query", "schema": {"type": "integer"}}],
                "responses": {"200": _json("Ledger"), "404": NOTFOUND}}},
            "/api/tables/{token}/claims": {"post": {
                "summary": "record a pung or kong one player claimed from another this hand (context.claims)",
                "parameters": [TOKEN],
                "requestBody": _body({"type": "object", "required": ["claimer", "from"], "properties": {
                    "claimer": {"$ref": "#/components/schemas/Seat"}, "from": {"$ref": "#/components/schemas/Seat"},
                    "meld": {"enum": ["pung", "kong"]}}}),
                "responses": {"201": _json("TableView"), **table_write}}},
            "/api/tables/{token}/kongs": {"post": {
                "summary": "record a kong with its immediate payments under the table's rule set",
                "parameters": [TOKEN],
                "requestBody": _body({"type": "object", "required": ["type", "declarer"], "properties": {
                    "type": {"enum": ["kong", "concealed_kong", "added_kong"]},
                    "declarer": {"$ref": "#/components/schemas/Seat"},
                    "from": {"$ref": "#/components/schemas/Seat", "description": "the discarder (exposed kong)"}}}),
                "responses": {"201": _json("TableView"), **table_write}}},
            "/api/tables/{token}/draws": {"post": {
                "summary": "record a drawn hand (no winner); the deal moves on by the rule set",
                "parameters": [TOKEN], "requestBody": _body({"type": "object", "properties": {
                    "last_drawer": {"$ref": "#/components/schemas/Seat",
                                    "description": "who drew the last tile (rule sets whose deal goes to them: Nanning)"}}},
                    required=False),
                "responses": {"201": _json("TableView"), **table_write}}},
            "/api/tables/{token}/hands/score": {"post": {
                "summary": "score the current hand's winners without recording (preview); the table fills in "
                           "variant, options, round wind, dealer streak and claims",
                "parameters": [TOKEN], "requestBody": _body("HandBody"),
                "responses": {"200": _json({"type": "object"}), "400": BAD, "404": NOTFOUND, "422": REFUSED}}},
            "/api/tables/{token}/hands": {"post": {
                "summary": "record the current hand: a win (scored and paid) or `{drawn: true}`",
                "parameters": [TOKEN], "requestBody": _body("HandBody"),
                "responses": {"201": _json("TableView"), **table_write, "422": REFUSED}}},
            "/api/tables/{token}/hands/{event_id}/correct": {"post": {
                "summary": "correct a past hand: re-scored under the state it was played in; balances recompute",
                "parameters": [TOKEN, {"name": "event_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "requestBody": _body("HandBody"),
                "responses": {"201": _json("TableView"), **table_write, "422": REFUSED}}},
            "/api/tables/{token}/undo": {"post": {
                "summary": "take back the latest effective event (recorded as an undo event; nothing is deleted)",
                "parameters": [TOKEN],
                "requestBody": _body({"type": "object", "properties": {"event_id": {
                    "type": "integer", "description": "the event you mean to undo; 409 when it is no longer the latest"}}},
                    required=False),
                "responses": {"201": _json("TableView"), **table_write, "409": _err("nothing to undo, or the ledger changed")}}},
            "/api/tables/{token}/photos": {"post": {
                "summary": "upload a hand photo for this table: stored with the table and recognised",
                "parameters": [TOKEN], "requestBody": PHOTO_BODY,
                "responses": {"201": _json("Recognition"), **table_write, "413": _err("the upload is over the size limit")}}},
            "/api/tables/{token}/photos/{photo_id}": {"get": {
                "summary": "a stored hand photo",
                "parameters": [TOKEN, {"name": "photo_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "the image", "content": {"image/jpeg": {}}}, "404": NOTFOUND}}},
            "/api/tables/{token}/export.json": {"get": {
                "summary": "the table, the ledger and every recorded event as JSON",
                "parameters": [TOKEN], "responses": {"200": _json({"type": "object"}), "404": NOTFOUND}}},
            "/api/tables/{token}/export.csv": {"get": {
                "summary": "the ledger as CSV: one row per effective event with changes and balances",
                "parameters": [TOKEN], "responses": {"200": {"description": "CSV", "content": {"text/csv": {}}}, "404": NOTFOUND}}},
        },
        "components": {"schemas": {
            "Seat": {"enum": ["E", "S", "W", "N"], "description": "a wind of the current hand; East deals"},
            "Error": {"type": "object", "required": ["ok", "error"], "properties": {
                "ok": {"const": False},
                "error": {"type": "object", "required": ["code", "message"], "properties": {
                    "code": {"type": "string"}, "message": {"type": "string"}, "field": {"type": "string"}}}}},
            "Variant": {"type": "object", "properties": {
                "name": {"type": "string"}, "title": {"type": "string"}, "title_zh": {"type": "string"},
                "tiles": {"type": "integer"},
                "indicator": {"enum": ["baida", "bloom", "fish", None],
                              "description": "the face-up table tiles this rule set reads besides the hand"},
                "win_flags": {"type": "array", "items": {"type": "string"},
                              "description": "the `win` facts a photo cannot show that this rule set asks about"},
                "roles": {"type": "array", "items": {"type": "string"},
                          "description": "what a group of tiles in a photo can be under this rule set"},
                "options": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "default": {}, "description": {"type": "string"},
                    "choices": {"type": "array"}}}}}},
            "Recognition": {"type": "object", "properties": {
                "ok": {"type": "boolean"}, "width": {"type": "integer"}, "height": {"type": "integer"},
                "tiles": {"type": "array", "items": {"type": "object", "properties": {
                    "code": {"type": "string"}, "quad": {"type": "array"}, "confidence": {"type": "number"},
                    "alternatives": {"type": "array"}, "rotated": {"type": "boolean"},
                    "row": {"type": "integer"}, "group": {"type": "integer"}}}},
                "groups": {"type": "array", "items": {"type": "object"}},
                "timings_ms": {"type": "object"}, "reason": {"type": ["string", "null"]},
                "photo_id": {"type": "integer"}}},
            "ScoreInput": {"type": "object", "required": ["variant", "winner", "hand"],
                           "description": "see engine/contract.py",
                           "properties": {
                               "variant": {"enum": ["ningbo", "nanning", "yuxi", "hefei", "ningxia"]},
                               "options": {"type": "object"}, "round_wind": {"$ref": "#/components/schemas/Seat"},
                               "winner": {"$ref": "#/components/schemas/Seat"}, "win": {"$ref": "#/components/schemas/Win"},
                               "hand": {"$ref": "#/components/schemas/Hand"},
                               "indicators": {"$ref": "#/components/schemas/Indicators"},
                               "context": {"type": "object", "properties": {
                                   "dealer_streak": {"type": "integer"}, "claims": {"type": "object"}}}}},
            "Win": {"type": "object", "properties": {
                "by": {"enum": ["self_draw", "discard"]}, "from": {"$ref": "#/components/schemas/Seat"},
                "after_kong": {"type": "boolean"}, "robbed_kong": {"type": "boolean"},
                "last_tile": {"type": "boolean"}, "first_turn": {"type": "boolean"}}},
            "Hand": {"type": "object", "required": ["concealed"], "properties": {
                "concealed": {"type": "string", "examples": ["123m456p789s1122z"]},
                "winning_tile": {"type": "string"}, "flowers": {"type": "string"},
                "melds": {"type": "array", "items": {"type": "object", "properties": {
                    "type": {"enum": ["chow", "pung", "kong", "concealed_kong", "added_kong"]},
                    "tiles": {"type": "string"}, "from": {"$ref": "#/components/schemas/Seat"}}}}}},
            "Indicators": {"type": "object", "properties": {
                "baida": {"type": "string"}, "bloom": {"type": "array", "items": {"type": "string"}},
                "fish": {"type": "array", "items": {"type": "string"}}}},
            "ScoreResult": {"type": "object", "properties": {
                "ok": {"type": "boolean"}, "payments": {"type": "object", "description": "summed over the winners"},
                "results": {"type": "array", "description": "one per winner", "items": {"type": "object", "properties": {
                    "winner": {"$ref": "#/components/schemas/Seat"}, "value": {"type": "number"},
                    "items": {"type": "array"}, "multipliers": {"type": "array"}, "payments": {"type": "object"}}}}}},
            "HandBody": {"type": "object", "properties": {
                "winners": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "object", "properties": {
                    "winner": {"$ref": "#/components/schemas/Seat"}, "win": {"$ref": "#/components/schemas/Win"},
                    "hand": {"$ref": "#/components/schemas/Hand"},
                    "indicators": {"$ref": "#/components/schemas/Indicators"}}}},
                "drawn": {"type": "boolean", "description": "record a drawn hand instead of a win"},
                "last_drawer": {"$ref": "#/components/schemas/Seat",
                                "description": "a drawn hand: who drew the last tile (Nanning gives them the deal)"},
                "correct": {"type": "integer", "description": "preview only: score as a correction of this hand event"},
                "photo_id": {"type": "integer"}, "tiles": {"description": "the confirmed tile reading (kept with the hand)"}}},
            "NewTable": {"type": "object", "required": ["variant", "players"], "properties": {
                "variant": {"type": "string"}, "options": {"type": "object"},
                "players": {"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "string"},
                            "description": "names in physical seat order (play order)"},
                "first_dealer": {"type": "integer", "minimum": 0, "maximum": 3},
                "start_points": {"type": "integer", "minimum": 0}, "name": {"type": "string"}}},
            "Ledger": {"type": "object", "properties": {
                "state": {"type": "object", "description": "hand_no, dealer, round_wind, dealer_streak, winds, seats"},
                "claims": {"type": "object"}, "balances": {"type": "array", "items": {"type": "integer"}},
                "entries": {"type": "array"}, "log": {"type": "array"}, "timeline": {"type": "array"},
                "version": {"type": "integer"}, "last_undoable": {"type": ["integer", "null"]}}},
            "TableView": {"type": "object", "properties": {
                "table": {"type": "object"}, "ledger": {"$ref": "#/components/schemas/Ledger"},
                "event": {"type": "object"}}},
        }},
    }
