"""Writes to a table's ledger: claims, kongs, drawn hands, won hands (preview and record),
corrections and undo. Each write is one event appended in one transaction
(:func:`companion.live.record`); its answer is the event and what it changed in the ledger
(:class:`companion.live.Changes`), not the whole ledger, so a write costs the same late in the
evening as early. Every write passes the checks of :mod:`.writes` first: its ``base_version``
(409 ``stale`` when the ledger changed under it) and its ``Idempotency-Key`` (a retry answers the
event recorded the first time).

A correction keeps what the table did not change: the original's photo and tile reading unless
the body names its own; the winners, with every fact, are the body's (the page sends them all).

For a won hand the table fills in the variant, its options, the round wind, the dealer's streak
and this hand's claims; the body holds only what the table saw (:class:`~.models.WonHand`). A hand
is scored, and a kong paid, under the house rules of its own hand (``state.rules``,
:mod:`companion.settings`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response

from engine.melds import MeldKind

from ..errors import ApiError, bad
from ..ledger import HandState, by_player
from ..live import Current, ledgers
from ..melds import meld_warnings, recorded_melds
from ..rules import TableRules
from ..scoring import score_winners
from .models import ClaimBody, DrawBody, DrawnHand, KongBody, PreviewBody, UndoBody, WonHand
from .request import TableRef, object_body, parse, parse_body, store, table_for
from .writes import recorded, refuse_stale

bp = Blueprint("hands", __name__, url_prefix="/api/tables/<token>")


@bp.post("/claims")
def add_claim(token: str) -> tuple[Response, int]:
    ref = table_for(token, write=True)
    body = parse_body(ClaimBody)
    claim = {"claimer": body.claimer, "from": body.from_, "meld": body.meld, "payments": [0, 0, 0, 0]}
    return recorded(ref, body, lambda led: ("claim", _this_hand(led.state) | claim, None))


@bp.post("/kongs")
def add_kong(token: str) -> tuple[Response, int]:
    ref = table_for(token, write=True)
    body = parse_body(KongBody)
    kong = {"type": body.type, "declarer": body.declarer, "from": body.from_}

    def build(led: Current) -> tuple[str, dict[str, Any], None]:
        by_wind = _rules_of(ref, led.rules_at, led.state).kong_payments(MeldKind(body.type), body.declarer, body.from_)
        paid = {"payments_by_wind": by_wind, "payments": by_player(led.state, by_wind)}
        return "kong", _this_hand(led.state) | kong | paid, None

    return recorded(ref, body, build)


@bp.post("/draws")
def add_draw(token: str) -> tuple[Response, int]:
    ref = table_for(token, write=True)
    body = parse_body(DrawBody, required=False)
    return recorded(ref, body, lambda led: ("hand", _draw_data(led.state, led.claims, body), None))


@bp.post("/hands/score")
def preview_hand(token: str) -> dict[str, Any]:
    """Score the current hand's winners without recording; ``correct`` previews a correction under
    that hand's own state and claims; a stale ``base_version`` answers 409 as the write would.
    ``warnings``: melds that disagree with the claims and kongs recorded that hand
    (:mod:`companion.melds`)."""
    ref = table_for(token)
    body = parse_body(PreviewBody)
    with ledgers(store()).holding(ref.table, ref.rules) as live:
        refuse_stale(live.current(), body.base_version, strict="correct" not in body.model_fields_set)
        led = live.snapshot()
    state, claims = led.state, led.claims
    if "correct" in body.model_fields_set:
        original = next((e for e in led.entries if e["id"] == body.correct and e["kind"] == "hand"), None)
        if original is None:
            raise bad(f"'correct' must name a hand in effect on this table, got {body.correct!r}", field="correct")
        state, claims = HandState.from_dict(original["state"]), original.get("claims") or {}
    result = score_winners(_rules_of(ref, led.rules_at, state), state, claims, _winners(body))
    return {
        "ok": True,
        "state": state.to_dict(),
        "claims": claims,
        "result": result,
        "payments_by_player": by_player(state, result["payments"]),
        "warnings": meld_warnings(recorded_melds(led.entries, state.hand_no), _winners(body)),
    }


@bp.post("/hands")
def add_hand(token: str) -> tuple[Response, int]:
    """Record the current hand: a win (scored and paid) or ``{"drawn": true}``."""
    ref = table_for(token, write=True)
    body = _hand_body()
    return recorded(
        ref,
        body,
        lambda led: ("hand", _hand_data(_under(ref, led, led.state), led.state, led.claims, body), None),
        strict=isinstance(body, WonHand),
    )


@bp.post("/hands/<int:event_id>/correct")
def correct_hand(token: str, event_id: int) -> tuple[Response, int]:
    """Replace a hand in effect, re-scored under the state and claims it was played with."""
    ref = table_for(token, write=True)
    body = _hand_body()

    def build(led: Current) -> tuple[str, dict[str, Any], int]:
        original = led.entry(event_id)
        if original is None or original["kind"] != "hand":
            raise ApiError(
                404,
                "no_such_hand",
                f"event {event_id} is not a hand in effect on this table; reload the ledger and pick the hand again",
            )
        state, claims = HandState.from_dict(original["state"]), original.get("claims") or {}
        kept = {k: original[k] for k in ("photo_id", "tiles") if k in original and isinstance(body, WonHand)}
        return (
            "correct",
            kept | _hand_data(_under(ref, led, state), state, claims, body) | {"replaces": event_id},
            event_id,
        )

    return recorded(ref, body, build)


@bp.post("/undo")
def undo(token: str) -> tuple[Response, int]:
    """Take back the latest effective event (409 when there is none, or ``event_id`` is stale)."""
    ref = table_for(token, write=True)
    body = parse_body(UndoBody, required=False)

    def build(led: Current) -> tuple[str, dict[str, Any], int]:
        if led.last_undoable is None:
            raise ApiError(409, "nothing_to_undo", "there is nothing to undo at this table")
        if body.event_id is not None and body.event_id != led.last_undoable:
            message = (
                "the ledger changed since you looked (another device recorded something); "
                "reload and undo again if still needed"
            )
            raise ApiError(409, "stale", message, "event_id")
        return "undo", {"hand_no": led.state.hand_no, "payments": [0, 0, 0, 0]}, led.last_undoable

    return recorded(ref, body, build, strict=True)


def _hand_body() -> WonHand | DrawnHand:
    """A won hand, or a drawn one when the body says ``"drawn": true``."""
    body = object_body()
    return parse(DrawnHand, body) if body.get("drawn") is True else parse(WonHand, body)


def _rules_of(ref: TableRef, rules_at: Callable[[int | None], TableRules] | None, state: HandState) -> TableRules:
    """The house rules the hand ``state`` is played under (:mod:`companion.settings`)."""
    return rules_at(state.rules) if rules_at is not None else ref.rules


def _under(ref: TableRef, led: Current, state: HandState) -> TableRef:
    """``ref`` with the house rules of the hand ``state``."""
    return dataclasses.replace(ref, rules=_rules_of(ref, led.rules_at, state))


def _this_hand(state: HandState) -> dict[str, Any]:
    return {"hand_no": state.hand_no, "state": state.to_dict()}


def _hand_data(ref: TableRef, state: HandState, claims: Mapping[str, Any], body: WonHand | DrawnHand) -> dict[str, Any]:
    if isinstance(body, DrawnHand):
        return _draw_data(state, claims, body)
    return _win_data(ref, state, claims, body)


def _draw_data(state: HandState, claims: Mapping[str, Any], body: DrawBody) -> dict[str, Any]:
    data = {"hand_no": state.hand_no, "outcome": "draw", "state": state.to_dict(), "claims": claims}
    data["payments"] = [0, 0, 0, 0]
    if body.last_drawer:
        data["last_drawer"] = body.last_drawer
    return data


def _win_data(ref: TableRef, state: HandState, claims: Mapping[str, Any], body: WonHand) -> dict[str, Any]:
    """A won hand scored under ``state`` and ``claims``, paid by player; 400 for a photo not of this table."""
    winners = _winners(body)
    result = score_winners(ref.rules, state, claims, winners)
    data = {
        "hand_no": state.hand_no,
        "outcome": "win",
        "state": state.to_dict(),
        "claims": claims,
        "winners": winners,
        "result": result,
        "payments": by_player(state, result["payments"]),
    }
    if body.photo_id is not None:
        if not store().has_photo(ref.table.id, body.photo_id):
            raise bad("field 'photo_id' names no photo of this table", field="photo_id")
        data["photo_id"] = body.photo_id
    if body.tiles is not None:
        data["tiles"] = body.tiles
    return data


def _winners(body: WonHand) -> list[dict[str, Any]]:
    """Each winner's fields as sent (the contract's ``winner``, ``win``, ``hand``, ``indicators``)."""
    return [w.model_dump(by_alias=True, exclude_unset=True) for w in body.winners]
