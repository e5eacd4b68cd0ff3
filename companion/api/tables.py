"""Tables: create one, read it with its ledger, poll the ledger, export it (JSON, CSV).

Reads work with the control token and with the watch token; the answer names which
(``table.read_only``) and shows the control token only through the control link.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from engine.rules import get_variant
from engine.rules.base import resolve_options

from ..errors import bad
from ..exports import content_disposition, ledger_csv
from ..ledger import Replay, replay
from ..live import ledger_of
from ..rules import TableRules
from .models import NewTable
from .request import TableRef, parse_body, store, table_for
from .views import table_view

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
    csv_text = ledger_csv(ref.table, _ledger(ref), request.args.get("lang", "en"))
    resp = Response(csv_text, content_type="text/csv; charset=utf-8")
    resp.headers["Content-Disposition"] = content_disposition(ref.table, "csv")
    return resp


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
