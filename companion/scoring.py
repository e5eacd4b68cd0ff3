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
    result = contract.score(payloads[0] if len(payloads) == 1 else payloads)
    if not result.get("ok"):
        err = result["error"]
        status = 422 if contract.exit_code(result) == 1 else 400
        field = _winners_field(err.get("field"), len(payloads))
        raise ApiError(status, err["code"], err["message"], field, err.get("kind"))
    return _as_results(result, payloads[0]["winner"])


def _winners_field(field: str | None, count: int) -> str | None:
    """The contract's field (``hand.concealed``; ``[1].hand.concealed`` for several winners) within
    the request body; a several-winner rule (``win.from``) concerns every winner."""
    if not field:
        return None
    if field.startswith("["):
        return f"winners{field}"
    return f"winners[0].{field}" if count == 1 else f"winners[*].{field}"


def _as_results(result: dict[str, Any], winner: str) -> dict[str, Any]:
    # engine contract: always results[] after issue 13
    if "results" in result:
        return result
    return {"ok": True, "results": [result | {"winner": winner}], "payments": result["payments"]}
