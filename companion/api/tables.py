"""Tables: create one, read it with its ledger, poll the ledger, export it (JSON, CSV), change
its settings (rename a player, swap two players' seats, change the house rules: a ``settings``
event each, :mod:`companion.settings`).

Reads work with the control token and with the watch token; the answer names which
(``table.read_only``) and shows the control token only through the control link.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, Response, jsonify, request

from engine.rules import get_variant
from engine.rules.base import resolve_options

from .. import settings
from ..errors import bad
from ..exports import content_disposition, ledger_csv
from ..ledger import Replay, replay
from ..live import Current, ledger_of
from ..rules import TableRules
from .models import NewTable, SettingsBody
from .request import TableRef, parse_body, store, table_for
from .views import table_view
from .writes import recorded

bp = Blueprint("tables", __name__, url_prefix="/api/tables")


@bp.post("")
def create_table() -> tuple[Response, int]:
    """A new table; the rule set and its options are checked by the engine (400 naming the field)."""
    body = parse_body(NewTable)
    variant = get_variant(body.variant)
    options = resolve_options(variant.options, body.options or {})
    table = store().create_table(
        variant=body.variant,
        options=options,
        players=body.players,
        first_dealer=body.first_dealer,
        start_points=body.start_points,
        name=body.name.strip(),
    )
    ref = TableRef(table, True, TableRules.of(table))
    return jsonify(table_view(ref, replay(table, ref.rules, []))), 201


@bp.get("/<token>")
def get_table(token: str) -> dict[str, Any]:
    ref = table_for(token)
    return table_view(ref, _ledger(ref))


@bp.get("/<token>/ledger")
def get_ledger(token: str) -> dict[str, Any]:
    """The ledger; ``?since=VERSION`` answers ``changed: false`` while the version is the same."""
    ref = table_for(token)
    since = _since()
    ledger = _ledger(ref)
    if since is not None and since == ledger.version:
        return {"ok": True, "changed": False, "version": ledger.version}
    return {"ok": True, "changed": True, **ledger.to_dict()}


@bp.get("/<token>/export.json")
def export_json(token: str) -> Response:
    """The table view with every recorded event, undone and corrected ones included."""
    ref = table_for(token)
    events = store().events(ref.table.id)
    view = table_view(ref, replay(ref.table, ref.rules, events))
    view["events"] = [e.to_dict() for e in events]
    resp = jsonify(view)
    resp.headers["Content-Disposition"] = content_disposition(ref.table, "json")
    return resp


@bp.get("/<token>/export.csv")
def export_csv(token: str) -> Response:
    """The ledger as CSV, headers and words in ``?lang=`` (``en``, the default, or ``zh``)."""
    ref = table_for(token)
    ledger = _ledger(ref)
    named = dataclasses.replace(ref.table, players=ledger.players or ref.table.players)  # the current names
    resp = Response(ledger_csv(named, ledger, request.args.get("lang", "en")), content_type="text/csv; charset=utf-8")
    resp.headers["Content-Disposition"] = content_disposition(ref.table, "csv")
    return resp


@bp.post("/<token>/settings")
def change_settings(token: str) -> tuple[Response, int]:
    """Rename a player (at once), swap two players' seats or change the house rules (from the next
    hand: the event's ``hand_no``): one ``settings`` event, undone like any other; answered like
    every write."""
    ref = table_for(token, write=True)
    body = parse_body(SettingsBody)

    def build(led: Current) -> tuple[str, dict[str, Any], None]:
        if body.rename is not None:
            change, start = settings.rename(led.players, body.rename.player, body.rename.name), led.state.hand_no
        elif body.renames is not None:
            given = [(r.player, r.name) for r in body.renames]
            change, start = settings.renames(led.players, given), led.state.hand_no
        elif body.swap is not None:
            change, start = settings.swap(led.state, *body.swap.players), settings.from_hand(led.state, led.started)
        else:
            change = settings.options(led.rules or ref.rules, led.options, body.options or {})
            start = settings.from_hand(led.state, led.started)
        data = {"hand_no": start, "state": led.state.to_dict(), **change, "payments": [0, 0, 0, 0]}
        return "settings", data, None

    return recorded(ref, body, build)


def _since() -> int | None:
    """The ``since`` query parameter: absent, or a whole number (400 naming it otherwise)."""
    raw = request.args.get("since")
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 16:
        raise bad(f"'since' must be a ledger version (a whole number), got {raw[:20]!r}", field="since")
    return int(raw)


def _ledger(ref: TableRef) -> Replay:
    return ledger_of(store(), ref.table, ref.rules)
