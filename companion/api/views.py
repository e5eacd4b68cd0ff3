"""The table as the API shows it (:class:`~companion.api.models.TableView`)."""

from __future__ import annotations

from typing import Any

from ..ledger import Replay
from .request import TableRef


def table_view(ref: TableRef, ledger: Replay) -> dict[str, Any]:
    """The table, the house rules of its current hand (and those waiting for the next one), the
    players' current names and ``ledger``; the control token and link only via the control link."""
    table = ref.table
    rules = ledger.rules or ref.rules
    waiting = ledger.options if ledger.options and ledger.options != rules.options else None
    info: dict[str, Any] = {
        "name": table.name,
        "variant": rules.describe(),
        "options": rules.options,
        "players": ledger.players or table.players,
        "next_options": waiting,
        "first_dealer": table.first_dealer,
        "start_points": table.start_points,
        "created_at": table.created_at,
        "read_only": not ref.control,
        "watch_token": table.watch_token,
        "links": {"watch": f"/w/{table.watch_token}"},
    }
    if ref.control:
        info["token"] = table.token
        info["links"]["control"] = f"/t/{table.token}"
    return {"ok": True, "table": info, "ledger": ledger.to_dict()}
