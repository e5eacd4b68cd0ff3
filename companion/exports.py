"""The ledger as a spreadsheet: one CSV row per effective event, with changes and running balances.

Text cells that a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return: a player named ``=HYPERLINK(…)``) are written with a leading ``'``,
which spreadsheets show as text; numbers are written as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from .ledger import Replay
from .settings import describe as describe_settings
from .store import Table


def ledger_csv(table: Table, ledger: Replay) -> str:
    """The CSV text (with a byte-order mark, so spreadsheets read it as UTF-8): a start row, then
    each effective event with the hand, round wind, dealer, what happened, each player's change and
    balance."""
    buf = io.StringIO()
    writer = _SafeWriter(buf)
    players = table.players
    writer.writerow(
        ["seq", "time", "hand", "round_wind", "dealer", "event", "detail"]
        + [f"{p} change" for p in players]
        + [f"{p} balance" for p in players]
    )
    writer.writerow([0, table.created_at, "", "", "", "start", "", 0, 0, 0, 0, *[table.start_points] * 4])
    for e in ledger.entries:
        st = e.get("state") or {}
        dealer = players[st["dealer"]] if "dealer" in st else ""
        writer.writerow(
            [e["seq"], e["created_at"], e.get("hand_no", ""), st.get("round_wind", ""), dealer, _event_name(e)]
            + [_event_detail(e, players), *e.get("payments", [0] * 4), *e["balances"]]
        )
    return "\ufeff" + buf.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """``value`` as a CSV cell that no spreadsheet runs: text starting like a formula gets a ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _SafeWriter:
    """A :func:`csv.writer` whose rows pass through :func:`cell`."""

    def __init__(self, buf: io.StringIO) -> None:
        self._writer = csv.writer(buf)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([cell(v) for v in row])


def _event_name(e: Mapping[str, Any]) -> str:
    if e["kind"] == "hand":
        return ("draw" if e.get("outcome") == "draw" else "win") + (" (corrected)" if e.get("corrected") else "")
    return str(e["kind"])


def _winner_detail(name: str, result: Mapping[str, Any]) -> str:
    """A winner and the value paid, or why the rules refused the winner (one of several scored
    independently, Yuxi)."""
    if result.get("ok", True) is False:
        return f"{name} refused ({result['error']['code']})"
    return f"{name} {result.get('value', '')}"


def _event_detail(e: Mapping[str, Any], players: list[str]) -> str:
    """Who won and for how much; who declared a kong or claimed, from whom (players' names)."""
    seats = (e.get("state") or {}).get("seats", {})

    def who(w: str | None) -> str:
        return players[seats[w]] if w in seats else (w or "")

    if e["kind"] == "hand" and e.get("outcome") == "win":
        return "; ".join(_winner_detail(who(r["winner"]), r) for r in e["result"]["results"])
    if e["kind"] == "kong":
        return f"{who(e.get('declarer'))} {e.get('type')}" + (f" from {who(e.get('from'))}" if e.get("from") else "")
    if e["kind"] == "claim":
        return f"{who(e.get('claimer'))} {e.get('meld')} from {who(e.get('from'))}"
    if e["kind"] == "settings":
        return describe_settings(e, players)
    return ""
