"""The companion's Flask app: the JSON API under ``/api/`` and the tablet page from ``web/``.

``create_app(data_dir=…)`` is the factory; :mod:`companion.server` serves it with waitress.
Every error under ``/api/`` is JSON ``{"ok": false, "error": {"code", "message", "field"?}}``:
400 malformed input (naming the field), 404 unknown table token, 403 a write with the watch
link, 413 an upload over the limit, 422 a hand the rules refuse (the contract's error body).
Nothing ever answers with a stack trace, and a failed request never touches what is recorded.
"""
from __future__ import annotations

import csv
import io
import json
import logging
import os
from pathlib import Path
from typing import Any, Callable

from flask import Flask, Response, g, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from engine import contract
from engine.errors import MahjongError
from engine.melds import MeldKind
from engine.rules import VARIANT_NAMES, get_variant
from engine.rules.base import resolve_options
from engine.tiles import NUM_ALL, format_tiles, name_en, name_zh, parse_tiles, suit_of, tile_str

from . import ledger as L
from .errors import ApiError, bad
from .openapi import openapi_document
from .store import Store, Table

log = logging.getLogger("companion")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DEFAULT_MAX_UPLOAD = 16 * 1024 * 1024
WINNER_KEYS = {"winner", "win", "hand", "indicators"}


# ---------------------------------------------------------------------------- helpers


def _json_body(required: bool = True) -> Any:
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise bad("the request body is empty: send a JSON object (Content-Type: application/json)", code="bad_json")
        return {}
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        where = f" at line {err.lineno} column {err.colno}: {err.msg}" if isinstance(err, json.JSONDecodeError) else ""
        raise bad(f"the body is not valid JSON{where}; send a JSON object", code="bad_json") from None


def _object_body() -> dict:
    body = _json_body()
    if not isinstance(body, dict):
        raise bad("the body must be a JSON object", code="bad_json")
    return body


def _check_keys(obj: dict, allowed: set[str], path: str = "") -> None:
    for key in obj:
        if key not in allowed:
            raise bad(f"unknown field '{path}{key}'; known fields: {', '.join(sorted(allowed))}", field=f"{path}{key}")


def _seat(obj: dict, name: str, *, required: bool = True) -> str | None:
    value = obj.get(name)
    if value is None:
        if required:
            raise bad(f"missing field '{name}': a seat wind E, S, W or N of this hand", field=name)
        return None
    if not isinstance(value, str) or value.upper() not in L.SEATS:
        raise bad(f"field '{name}' must be a seat wind E, S, W or N, got {value!r}", field=name)
    return value.upper()


def _contract_status(result: dict) -> int:
    code = contract.exit_code(result)
    return 200 if code == 0 else 422 if code == 1 else 400


def available_variants() -> list[dict]:
    out = []
    for name in VARIANT_NAMES:
        try:
            out.append(get_variant(name).describe())
        except Exception:  # a rule set not installed yet: leave it out of the menu
            log.debug("rule set %s unavailable", name, exc_info=True)
    return out


def tile_catalogue() -> list[dict]:
    return [{"code": tile_str(t), "suit": suit_of(t), "en": name_en(t), "zh": name_zh(t)} for t in range(NUM_ALL)]


# ---------------------------------------------------------------------------- the app


def create_app(data_dir: str | os.PathLike | None = None, *, max_upload: int | None = None,
               recognizer: Callable[[bytes], Any] | None = None) -> Flask:
    """The companion app. ``data_dir`` holds the SQLite ledger and the photos (default ``data``).
    ``recognizer`` replaces :func:`vision.recognize` (tests only)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = max_upload or int(os.environ.get("MJC_MAX_UPLOAD", DEFAULT_MAX_UPLOAD))
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    store = Store(data_dir or "data")
    app.extensions["mjc_store"] = store

    def recognize(data: bytes) -> dict:
        if recognizer is not None:
            rec = recognizer(data)
        else:
            try:
                from vision import recognize as vision_recognize
            except ImportError as err:
                raise ApiError(503, "recognizer_unavailable",
                               f"the tile recogniser is not installed ({err}); enter the tiles by hand") from None
            rec = vision_recognize(data)
        return rec.to_dict() if hasattr(rec, "to_dict") else dict(rec)

    def image_error(err: Exception) -> ApiError:
        code = getattr(err, "code", "bad_image")
        message = getattr(err, "message", str(err))
        return ApiError(400, code, f"{message}. Take the photo again, or enter the tiles by hand.", "photo")

    def read_photo() -> bytes:
        upload = request.files.get("photo")
        if upload is None:
            if request.files:
                name = next(iter(request.files))
                raise bad(f"the photo must be sent in the multipart field 'photo', not '{name}'", field="photo")
            raise bad("send the photo as multipart/form-data in the field 'photo'", field="photo")
        data = upload.read()
        if not data:
            raise ApiError(400, "empty_file", "the uploaded photo is empty; take the photo again", "photo")
        return data

    def run_recognize(data: bytes) -> dict:
        try:
            from vision.errors import ImageError
        except ImportError:  # pragma: no cover - vision always ships
            ImageError = ()  # type: ignore[assignment]
        try:
            return recognize(data)
        except ImageError as err:  # type: ignore[misc]
            raise image_error(err) from None

    # ------------------------------------------------------------------ errors
    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        return jsonify(err.to_dict()), err.status

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        if not request.path.startswith("/api/"):
            return err
        messages = {
            404: "no such API resource; see /api/openapi.json",
            405: f"{request.method} is not allowed here; see /api/openapi.json",
            413: f"the upload is larger than {app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB; "
                 "send a smaller photo (the page downscales photos before upload)",
        }
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(err.code or 500, "http_error")
        body = ApiError(err.code or 500, code, messages.get(err.code or 500, err.description or "error"))
        return jsonify(body.to_dict()), err.code

    @app.errorhandler(Exception)
    def _unexpected(err: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        body = ApiError(500, "internal", "something went wrong on the server; nothing was recorded by this "
                        "request. Try again, and if it persists note what you did.")
        return jsonify(body.to_dict()), 500

    # ------------------------------------------------------------------ table lookup
    def table_for(token: str, *, write: bool = False) -> Table:
        found = store.find_table(token) if token else None
        if found is None:
            raise ApiError(404, "no_such_table", "no table has this link; check the address, or create a new table")
        table, control = found
        if write and not control:
            raise ApiError(403, "read_only", "this is the watch link: it shows the ledger but cannot change it; "
                           "use the tablet's table link to record")
        g.control = control
        return table

    def table_view(table: Table, control: bool) -> dict:
        variant = get_variant(table.variant)
        rep = L.replay(table, store.events(table.id))
        out = {
            "ok": True,
            "table": {
                "name": table.name,
                "variant": variant.describe() | {"draw_needs": L.draw_needs(variant, L.resolved_options(table))},
                "options": L.resolved_options(table),
                "players": table.players,
                "first_dealer": table.first_dealer,
                "start_points": table.start_points,
                "created_at": table.created_at,
                "read_only": not control,
                "watch_token": table.watch_token,
                "links": {"watch": f"/w/{table.watch_token}"},
            },
            "ledger": rep.to_dict(),
        }
        if control:
            out["table"]["token"] = table.token
            out["table"]["links"]["control"] = f"/t/{table.token}"
        return out

    # ------------------------------------------------------------------ stateless API
    @app.get("/api/health")
    def health():
        return {"ok": True, "schema_version": store.schema_version()}

    @app.get("/api/openapi.json")
    def openapi():
        return openapi_document()

    @app.get("/api/variants")
    def variants():
        return {"ok": True, "variants": available_variants()}

    @app.get("/api/tiles")
    def tiles():
        return {"ok": True, "tiles": tile_catalogue()}

    @app.post("/api/notation")
    def api_notation():
        """Read typed tiles (``123m``, ``一萬 東``, Unicode glyphs) the way the engine does."""
        body = _object_body()
        _check_keys(body, {"tiles"})
        text = body.get("tiles")
        if not isinstance(text, str):
            raise bad("field 'tiles' must be a string of tiles like '123m 5z' or '一萬 東'", field="tiles")
        try:
            codes = parse_tiles(text)
        except MahjongError as err:
            raise bad(err.message, field="tiles", code=err.code) from None
        return {"ok": True, "tiles": [tile_str(t) for t in codes], "notation": format_tiles(codes)}

    @app.post("/api/recognize")
    def api_recognize():
        data = read_photo()
        return {"photo": request.files["photo"].filename or "photo", "ok": True, **run_recognize(data)}

    @app.post("/api/score")
    def api_score():
        result = contract.score(_json_body())
        return jsonify(result), _contract_status(result)

    @app.post("/api/waits")
    def api_waits():
        result = contract.waits(_json_body())
        return jsonify(result), _contract_status(result)

    # ------------------------------------------------------------------ tables
    @app.post("/api/tables")
    def create_table():
        body = _object_body()
        _check_keys(body, {"variant", "options", "players", "first_dealer", "start_points", "name"})
        name = body.get("variant")
        if not isinstance(name, str):
            raise bad(f"missing field 'variant': one of {', '.join(VARIANT_NAMES)}", field="variant")
        try:
            variant = get_variant(name)
        except MahjongError as err:
            raise bad(err.message, field="variant", code=err.code) from None
        except Exception:
            raise ApiError(400, "variant_unavailable", f"the rule set {name!r} is not installed yet", "variant") from None
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise bad("field 'options' must be an object of house rules", field="options")
        try:
            options = resolve_options(variant.options, options)
        except MahjongError as err:
            raise bad(err.message, field=err.field or "options", code=err.code) from None
        players = body.get("players")
        if not isinstance(players, list) or len(players) != 4:
            raise bad("field 'players' must list the four players' names in seat order", field="players")
        clean = []
        for i, p in enumerate(players):
            if not isinstance(p, str) or not p.strip():
                raise bad(f"player {i + 1} needs a name", field=f"players[{i}]")
            if len(p.strip()) > 40:
                raise bad(f"player {i + 1}'s name is longer than 40 characters", field=f"players[{i}]")
            clean.append(p.strip())
        dealer = body.get("first_dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
            raise bad("field 'first_dealer' must be the seat number 0-3 of the player who deals first",
                      field="first_dealer")
        start = body.get("start_points", 0)
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start <= 1_000_000_000:
            raise bad("field 'start_points' must be a whole number of points ≥ 0 (0 when the rules have none)",
                      field="start_points")
        title = body.get("name", "")
        if not isinstance(title, str) or len(title) > 80:
            raise bad("field 'name' must be a text of at most 80 characters", field="name")
        table = store.create_table(variant=name, options=options, players=clean, first_dealer=dealer,
                                   start_points=start, name=title.strip())
        return jsonify(table_view(table, True)), 201

    @app.get("/api/tables/<token>")
    def get_table(token: str):
        table = table_for(token)
        return table_view(table, g.control)

    @app.get("/api/tables/<token>/ledger")
    def get_ledger(token: str):
        table = table_for(token)
        since = request.args.get("since", type=int)
        rep = L.replay(table, store.events(table.id))
        if since is not None and since == rep.version:
            return {"ok": True, "changed": False, "version": rep.version}
        return {"ok": True, "changed": True, **rep.to_dict()}

    def record(table: Table, build: Callable[[L.Replay], tuple[str, dict, int | None]]) -> Response:
        """Append one event in one transaction, computed from the state inside that transaction."""
        with store.transaction() as conn:
            rep = L.replay(table, store.events(table.id, conn))
            kind, data, target = build(rep)
            if kind in ("hand", "correct"):
                try:  # the rule set must be able to say who deals next before the hand is recorded
                    L.next_wind(table, data)
                except MahjongError as err:
                    raise ApiError(400, err.code, err.message, err.field) from None
            event = store.append(conn, table.id, kind, data, target)
        out = table_view(table, True)
        out["event"] = event.to_dict()
        return jsonify(out), 201

    @app.post("/api/tables/<token>/claims")
    def add_claim(token: str):
        table = table_for(token, write=True)
        body = _object_body()
        _check_keys(body, {"claimer", "from", "meld"})
        claimer, victim = _seat(body, "claimer"), _seat(body, "from")
        if claimer == victim:
            raise bad("a player cannot claim from themself: 'from' must be another seat", field="from")
        meld = body.get("meld", "pung")
        if meld not in ("pung", "kong"):
            raise bad("field 'meld' must be 'pung' or 'kong' (record a kong with its payments at /kongs)",
                      field="meld")

        def build(rep: L.Replay):
            return "claim", {"hand_no": rep.state.hand_no, "state": rep.state.to_dict(), "claimer": claimer,
                             "from": victim, "meld": meld, "payments": [0, 0, 0, 0]}, None

        return record(table, build)

    @app.post("/api/tables/<token>/kongs")
    def add_kong(token: str):
        table = table_for(token, write=True)
        body = _object_body()
        _check_keys(body, {"type", "declarer", "from"})
        kind = body.get("type")
        if kind not in ("kong", "concealed_kong", "added_kong"):
            raise bad("field 'type' must be 'kong' (exposed, from a discard), 'concealed_kong' or 'added_kong'",
                      field="type")
        declarer = _seat(body, "declarer")
        victim = _seat(body, "from", required=kind == "kong")
        if kind == "concealed_kong" and victim is not None:
            raise bad("a concealed kong is not claimed from anyone: leave 'from' out", field="from")
        if victim == declarer:
            raise bad("'from' must be another player's seat", field="from")
        variant = get_variant(table.variant)
        opts = L.resolved_options(table)
        try:
            by_wind = variant.kong_payments(MeldKind(kind), declarer, victim, opts)
        except MahjongError as err:
            raise ApiError(422, err.code, err.message, err.field) from None
        by_wind = {w: int(by_wind.get(w, 0)) for w in L.SEATS}

        def build(rep: L.Replay):
            return "kong", {"hand_no": rep.state.hand_no, "state": rep.state.to_dict(), "type": kind,
                            "declarer": declarer, "from": victim, "payments_by_wind": by_wind,
                            "payments": L.by_player(rep.state, by_wind)}, None

        return record(table, build)

    @app.post("/api/tables/<token>/draws")
    def add_draw(token: str):
        table = table_for(token, write=True)
        body = _json_body(required=False)
        if not isinstance(body, dict):
            raise bad("the body must be a JSON object (or empty)", code="bad_json")
        _check_keys(body, {"last_drawer"})

        def build(rep: L.Replay):
            return "hand", _draw_data(rep.state, rep.claims, body), None

        return record(table, build)

    def _draw_data(state: L.HandState, claims: dict, body: dict) -> dict:
        data = {"hand_no": state.hand_no, "outcome": "draw", "state": state.to_dict(), "claims": claims,
                "payments": [0, 0, 0, 0]}
        last = _seat(body, "last_drawer", required=False)
        if last:
            data["last_drawer"] = last
        return data

    def score_hand(table: Table, state: L.HandState, claims: dict, body: dict) -> dict:
        """Score the winners in ``body`` under the table's rules; raise ApiError 400/422 when refused."""
        _check_keys(body, {"winners", "photo_id", "tiles"})
        winners = body.get("winners")
        if not isinstance(winners, list) or not winners:
            raise bad("field 'winners' must list one object per winner: {winner, win, hand, indicators}",
                      field="winners")
        if len(winners) > 3:
            raise bad("at most three players can win one hand", field="winners")
        payloads = []
        for i, w in enumerate(winners):
            if not isinstance(w, dict):
                raise bad(f"'winners[{i}]' must be an object with winner, win, hand, indicators", field=f"winners[{i}]")
            _check_keys(w, WINNER_KEYS, f"winners[{i}].")
            payloads.append({"variant": table.variant, "options": table.options, "round_wind": state.round_wind,
                             **w, "context": {"dealer_streak": state.streak, "claims": claims}})
        result = contract.score(payloads[0] if len(payloads) == 1 else payloads)
        if not result.get("ok"):
            err = dict(result.get("error") or {})
            if err.get("field"):
                f = err["field"]
                err["field"] = (f"winners{f}" if f.startswith("[") else
                                f"winners[0].{f}" if len(payloads) == 1 else f"winners[*].{f}")
            status = _contract_status(result)
            raise ApiError(status, err.get("code", "refused"), err.get("message", "the hand was refused"),
                           err.get("field"))
        for r in result["results"]:
            if not r.get("ok", True):  # pragma: no cover - contract reports refusals at the top level
                raise ApiError(422, r["error"]["code"], r["error"]["message"])
        return result

    def _win_data(table: Table, state: L.HandState, claims: dict, body: dict) -> dict:
        result = score_hand(table, state, claims, body)
        winners = []
        for w in body["winners"]:
            winners.append({k: w[k] for k in WINNER_KEYS if k in w})
        data = {"hand_no": state.hand_no, "outcome": "win", "state": state.to_dict(), "claims": claims,
                "winners": winners, "result": result, "payments": L.by_player(state, result["payments"])}
        photo_id = body.get("photo_id")
        if photo_id is not None:
            if not isinstance(photo_id, int) or store.photo(table.id, photo_id) is None:
                raise bad("field 'photo_id' names no photo of this table", field="photo_id")
            data["photo_id"] = photo_id
        if body.get("tiles") is not None:
            data["tiles"] = body["tiles"]
        return data

    @app.post("/api/tables/<token>/hands/score")
    def preview_hand(token: str):
        table = table_for(token)
        body = _object_body()
        rep = L.replay(table, store.events(table.id))
        state, claims = rep.state, rep.claims
        if "correct" in body:  # preview a correction: the past hand's own state and claims
            event_id = body.pop("correct")
            original = next((e for e in rep.entries if e["id"] == event_id and e["kind"] == "hand"), None)
            if original is None:
                raise bad(f"'correct' must name a hand in effect on this table, got {event_id!r}", field="correct")
            state, claims = L.HandState.from_dict(original["state"]), original.get("claims") or {}
        result = score_hand(table, state, claims, body)
        return {"ok": True, "state": state.to_dict(), "claims": claims, "result": result,
                "payments_by_player": L.by_player(state, result["payments"])}

    @app.post("/api/tables/<token>/hands")
    def add_hand(token: str):
        table = table_for(token, write=True)
        body = _object_body()
        if body.get("drawn") is True:
            _check_keys(body, {"drawn", "last_drawer"})
            return record(table, lambda rep: ("hand", _draw_data(rep.state, rep.claims, body), None))
        return record(table, lambda rep: ("hand", _win_data(table, rep.state, rep.claims, body), None))

    @app.post("/api/tables/<token>/hands/<int:event_id>/correct")
    def correct_hand(token: str, event_id: int):
        table = table_for(token, write=True)
        body = _object_body()

        def build(rep: L.Replay):
            original = next((e for e in rep.entries if e["id"] == event_id), None)
            if original is None or original["kind"] != "hand":
                raise ApiError(404, "no_such_hand", f"event {event_id} is not a hand in effect on this table; "
                               "reload the ledger and pick the hand again")
            state = L.HandState.from_dict(original["state"])
            claims = original.get("claims") or {}
            if body.get("drawn") is True:
                _check_keys(body, {"drawn", "last_drawer"})
                data = _draw_data(state, claims, body)
            else:
                data = _win_data(table, state, claims, body)
            data["replaces"] = event_id
            return "correct", data, event_id

        return record(table, build)

    @app.post("/api/tables/<token>/undo")
    def undo(token: str):
        table = table_for(token, write=True)
        body = _json_body(required=False)
        if not isinstance(body, dict):
            raise bad("the body must be a JSON object (or empty)", code="bad_json")
        _check_keys(body, {"event_id"})

        def build(rep: L.Replay):
            if rep.last_undoable is None:
                raise ApiError(409, "nothing_to_undo", "there is nothing to undo at this table")
            expected = body.get("event_id")
            if expected is not None and expected != rep.last_undoable:
                raise ApiError(409, "stale", "the ledger changed since you looked (another device recorded "
                               "something); reload and undo again if still needed", "event_id")
            return "undo", {"hand_no": rep.state.hand_no, "payments": [0, 0, 0, 0]}, rep.last_undoable

        return record(table, build)

    @app.post("/api/tables/<token>/photos")
    def table_photo(token: str):
        table = table_for(token, write=True)
        data = read_photo()
        rec = run_recognize(data)
        photo_id = store.save_photo(table.id, data, rec)
        return jsonify({"ok": True, "photo_id": photo_id, **rec}), 201

    @app.get("/api/tables/<token>/photos/<int:photo_id>")
    def get_photo(token: str, photo_id: int):
        table = table_for(token)
        found = store.photo(table.id, photo_id)
        if found is None or not found[0].exists():
            raise ApiError(404, "no_such_photo", "this table has no such photo")
        data = found[0].read_bytes()
        mime = "image/png" if data[:4] == b"\x89PNG" else "image/jpeg"
        return Response(data, mimetype=mime, headers={"Cache-Control": "private, max-age=86400"})

    @app.get("/api/tables/<token>/export.json")
    def export_json(token: str):
        table = table_for(token)
        view = table_view(table, g.control)
        view["events"] = [e.to_dict() for e in store.events(table.id)]
        resp = jsonify(view)
        resp.headers["Content-Disposition"] = f'attachment; filename="mahjong-ledger-{table.id}.json"'
        return resp

    @app.get("/api/tables/<token>/export.csv")
    def export_csv(token: str):
        table = table_for(token)
        rep = L.replay(table, store.events(table.id))
        buf = io.StringIO()
        writer = csv.writer(buf)
        players = table.players
        writer.writerow(["seq", "time", "hand", "round_wind", "dealer", "event", "detail",
                         *[f"{p} change" for p in players], *[f"{p} balance" for p in players]])
        writer.writerow([0, table.created_at, "", "", "", "start", "", 0, 0, 0, 0, *[table.start_points] * 4])
        for e in rep.entries:
            st = e.get("state") or {}
            writer.writerow([e["seq"], e["created_at"], e.get("hand_no", ""), st.get("round_wind", ""),
                             players[st["dealer"]] if "dealer" in st else "", _event_name(e),
                             _event_detail(e, players), *e.get("payments", [0] * 4), *e["balances"]])
        resp = Response("\ufeff" + buf.getvalue(), mimetype="text/csv; charset=utf-8")
        resp.headers["Content-Disposition"] = f'attachment; filename="mahjong-ledger-{table.id}.csv"'
        return resp

    # ------------------------------------------------------------------ the page
    @app.get("/")
    @app.get("/t/<token>")
    @app.get("/w/<token>")
    def page(token: str | None = None):
        resp = send_from_directory(WEB_DIR, "index.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/static/<path:name>")
    def static_file(name: str):
        resp = send_from_directory(WEB_DIR, name)
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.after_request
    def _headers(resp: Response) -> Response:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        if request.path.startswith("/api/"):
            resp.headers.setdefault("Cache-Control", "no-store")
        return resp

    return app


def _event_name(e: dict) -> str:
    if e["kind"] == "hand":
        return ("draw" if e.get("outcome") == "draw" else "win") + (" (corrected)" if e.get("corrected") else "")
    return e["kind"]


def _event_detail(e: dict, players: list[str]) -> str:
    st = e.get("state") or {}
    seats = st.get("seats", {})

    def who(w: str | None) -> str:
        return players[seats[w]] if w in seats else (w or "")

    if e["kind"] == "hand" and e.get("outcome") == "win":
        parts = []
        for r in e["result"]["results"]:
            parts.append(f"{who(r['winner'])} {r.get('value', '')}")
        return "; ".join(parts)
    if e["kind"] == "kong":
        return f"{who(e.get('declarer'))} {e.get('type')}" + (f" from {who(e.get('from'))}" if e.get("from") else "")
    if e["kind"] == "claim":
        return f"{who(e.get('claimer'))} {e.get('meld')} from {who(e.get('from'))}"
    return ""
