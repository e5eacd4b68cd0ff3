"""A table's hand scored through the engine's JSON contract.

The table knows the variant, its options, the round wind, the dealer's streak and this hand's
claims; the request holds only what the table saw (each winner's ``winner``, ``win``, ``hand``,
``indicators``). The contract's error fields are named within the request (``winners[0].…``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import contract

from .errors import ApiError
from .ledger import HandState
from .rules import TableRules


def score_winners(
    rules: TableRules, state: HandState, claims: Mapping[str, Any], winners: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``{"ok": true, "results": [one per winner, with "winner"], "payments": by wind}``; raises
    :class:`ApiError` 422 when the rules refuse a hand, 400 when a winner's hand is malformed."""
    table_facts = {"variant": rules.variant.name, "options": rules.options, "round_wind": state.round_wind}
    context = {"dealer_streak": state.streak, "claims": claims}
    payloads = [table_facts | dict(w) | {"context": context} for w in winners]
    result = contract.score(payloads)
    if not result.get("ok"):
        err = result["error"]
        status = 422 if contract.exit_code(result) == 1 else 400
        field = _winners_field(err.get("field"))
        raise ApiError(status, err["code"], err["message"], field, err.get("kind"))
    return result


def _winners_field(field: str | None) -> str | None:
    """The contract's field (``[1].hand.concealed``) within the request body; a rule about
    several winners together (``win.from``) concerns every winner."""
    if not field:
        return None
    return f"winners{field}" if field.startswith("[") else f"winners[*].{field}"
