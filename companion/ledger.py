"""A table's evening, derived from its append-only events.

Players sit in four physical seats, numbered 0-3 in play order. Each hand, the dealer's seat is
East (``E``) and the others follow in play order (``S W N``): these *winds* are what the engine
speaks, and :class:`HandState` maps them to players.

Events (``kind``):

``hand``     a finished hand: ``outcome`` ``win`` (with the winners' hands and the engine's result)
             or ``draw``; it carries the :class:`HandState` it was played under and the claims.
``kong``     a kong as it was declared, with its immediate payments (all zero where the rule set
             has none); an exposed kong also counts as a claim from the discarder.
``claim``    a pung or kong one player took from another this hand (Nanning sealing, Ningbo
             contracts): passed to the engine as ``context.claims``.
``correct``  replaces a past ``hand`` (or an earlier correction, ``target``) with a re-scored one;
             it keeps the original's place in the evening, its state and its claims.
``undo``     takes back the latest effective event (``target``); undoing a correction brings
             back what it had replaced.

Nothing is deleted: :func:`replay` works out which events are in effect, the balances (start
points plus every effective payment), the timeline for the chart and the state of the next hand.
The next hand's state is the last effective hand's state advanced by its own outcome, with the
rule set's :meth:`~engine.rules.base.Variant.next_dealer`; the round wind moves on each time the
deal has travelled four seats round the table.
"""
from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine.errors import MahjongError
from engine.rules import get_variant
from engine.rules.base import resolve_options

from .store import Event, Table

SEATS = ("E", "S", "W", "N")
log = logging.getLogger("companion.ledger")


@dataclass(frozen=True)
class HandState:
    hand_no: int
    dealer: int          # physical seat index of the dealer (East)
    round_wind: str
    streak: int          # consecutive hands the current dealer has kept the deal
    steps: int = 0       # seats the deal has moved on this round (the round ends at 4)

    def wind_of(self, player: int) -> str:
        return SEATS[(player - self.dealer) % 4]

    def player_at(self, wind: str) -> int:
        return (self.dealer + SEATS.index(wind)) % 4

    def to_dict(self) -> dict:
        return {
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "dealer_streak": self.streak,
            "steps": self.steps,
            "winds": [self.wind_of(p) for p in range(4)],
            "seats": {w: self.player_at(w) for w in SEATS},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "HandState":
        return cls(int(d["hand_no"]), int(d["dealer"]), str(d["round_wind"]), int(d["dealer_streak"]),
                   int(d.get("steps", 0)))

    def advance(self, next_wind: str) -> "HandState":
        """The next hand's state when ``next_wind`` (in this hand's winds) deals next."""
        new_dealer = self.player_at(next_wind)
        moved = (new_dealer - self.dealer) % 4
        steps = self.steps + moved
        round_idx = SEATS.index(self.round_wind)
        while steps >= 4:
            steps -= 4
            round_idx = (round_idx + 1) % 4
        streak = self.streak + 1 if moved == 0 else 0
        return HandState(self.hand_no + 1, new_dealer, SEATS[round_idx], streak, steps)


def initial_state(table: Table) -> HandState:
    return HandState(1, table.first_dealer, "E", 0, 0)


def by_player(state: HandState, by_wind: Mapping[str, int]) -> list[int]:
    out = [0, 0, 0, 0]
    for wind, amount in by_wind.items():
        out[state.player_at(wind)] += int(amount)
    return out


def resolved_options(table: Table) -> dict:
    variant = get_variant(table.variant)
    return resolve_options(variant.options, table.options)


def next_dealer_args(variant: Any) -> list[str]:
    """The keyword facts a rule set's ``next_dealer`` accepts (``discarder``, ``last_drawer``)."""
    try:
        params = inspect.signature(variant.next_dealer).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return []
    return [n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY]


def draw_needs(variant: Any, opts: Mapping[str, Any]) -> list[str]:
    """The facts a drawn hand must carry for this rule set to name the next dealer (Nanning:
    ``last_drawer``, the player who drew the last tile), found by asking the rule set."""
    try:
        variant.next_dealer([], True, opts)
    except MahjongError as err:
        return [err.field] if err.field else ["last_drawer"]
    except Exception:  # pragma: no cover - a rule set's own bug: let recording report it
        return []
    return []


def next_wind(table: Table, data: Mapping[str, Any]) -> str:
    """Who deals after a recorded hand, in that hand's winds. Raises the rule set's error when it
    needs a fact the hand does not carry (Nanning's draw needs ``last_drawer``)."""
    variant = get_variant(table.variant)
    opts = resolved_options(table)
    accepted = next_dealer_args(variant)
    extra: dict[str, Any] = {}
    if data["outcome"] == "draw":
        if "last_drawer" in accepted and data.get("last_drawer"):
            extra["last_drawer"] = data["last_drawer"]
        wind = variant.next_dealer([], True, opts, **extra)
    else:
        winners = [r["winner"] for r in data["result"]["results"] if not r.get("passed_over")]
        froms = {(w.get("win") or {}).get("from") for w in data.get("winners", [])
                 if (w.get("win") or {}).get("by") == "discard"} - {None}
        if "discarder" in accepted and len(froms) == 1:
            extra["discarder"] = froms.pop()
        wind = variant.next_dealer(winners, False, opts, **extra)
    return wind if wind in SEATS else "S"


def safe_next_wind(table: Table, data: Mapping[str, Any]) -> str:
    """:func:`next_wind` for replaying what is already recorded: never fails a read (passes the deal)."""
    try:
        return next_wind(table, data)
    except Exception:  # a rule set changed since the hand was recorded
        log.warning("table %s: cannot work out the next dealer; passing the deal", table.id, exc_info=True)
        return "S"


@dataclass
class Replay:
    state: HandState
    claims: dict[str, dict[str, int]]
    balances: list[int]
    entries: list[dict] = field(default_factory=list)   # effective events in the evening's order
    log: list[dict] = field(default_factory=list)       # every event, with its status
    timeline: list[dict] = field(default_factory=list)  # balances after each effective event
    version: int = 0
    last_undoable: int | None = None

    def to_dict(self) -> dict:
        return {
            "state": self.state.to_dict(),
            "claims": self.claims,
            "balances": self.balances,
            "entries": self.entries,
            "log": self.log,
            "timeline": self.timeline,
            "version": self.version,
            "last_undoable": self.last_undoable,
        }


def replay(table: Table, events: Sequence[Event]) -> Replay:
    by_id = {e.id: e for e in events}
    active: dict[int, Event] = {}
    status: dict[int, str] = {}
    undone_by: dict[int, int] = {}
    for ev in events:
        if ev.kind in ("hand", "kong", "claim"):
            active[ev.id] = ev
            status[ev.id] = "active"
        elif ev.kind == "correct":
            if ev.target in active:
                del active[ev.target]
                status[ev.target] = "corrected"
            active[ev.id] = ev
            status[ev.id] = "active"
        elif ev.kind == "undo":
            status[ev.id] = "undo"
            target = active.pop(ev.target, None) if ev.target is not None else None
            if target is not None:
                status[target.id] = "undone"
                undone_by[target.id] = ev.id
                if target.kind == "correct" and target.target in by_id:
                    active[target.target] = by_id[target.target]
                    status[target.target] = "active"

    def position(ev: Event) -> int:
        seen = 0
        while ev.kind == "correct" and ev.target in by_id and seen < 1000:
            ev = by_id[ev.target]
            seen += 1
        return ev.seq

    ordered = sorted(active.values(), key=position)
    balances = [int(table.start_points)] * 4
    timeline = [{"seq": 0, "label": "start", "balances": list(balances)}]
    entries = []
    last_hand: Event | None = None
    for ev in ordered:
        pays = ev.data.get("payments", [0, 0, 0, 0])
        balances = [b + int(p) for b, p in zip(balances, pays)]
        entry = {"id": ev.id, "seq": ev.seq, "kind": "hand" if ev.kind == "correct" else ev.kind,
                 "corrected": ev.kind == "correct", "created_at": ev.created_at, "balances": list(balances), **ev.data}
        entries.append(entry)
        timeline.append({"seq": ev.seq, "id": ev.id, "label": _label(entry), "balances": list(balances)})
        if ev.kind in ("hand", "correct"):
            last_hand = ev

    state = initial_state(table)
    if last_hand is not None:
        state = HandState.from_dict(last_hand.data["state"]).advance(safe_next_wind(table, last_hand.data))

    claims: dict[str, dict[str, int]] = {}
    for ev in ordered:
        if ev.kind not in ("claim", "kong") or ev.data.get("hand_no") != state.hand_no:
            continue
        claimer, victim = ev.data.get("claimer"), ev.data.get("from")
        if ev.kind == "kong":
            claimer = ev.data.get("declarer")
            if ev.data.get("type") != "kong":
                continue  # concealed kongs take nothing; an added kong upgrades a pung already claimed
        if claimer and victim:
            row = claims.setdefault(claimer, {})
            row[victim] = row.get(victim, 0) + 1

    log = [{"id": e.id, "seq": e.seq, "kind": e.kind, "target": e.target, "status": status.get(e.id, "active"),
            "created_at": e.created_at, "hand_no": e.data.get("hand_no", e.data.get("state", {}).get("hand_no"))}
           for e in events]
    undoable = max(active.values(), key=lambda e: e.seq).id if active else None
    return Replay(state, claims, balances, entries, log, timeline, events[-1].seq if events else 0, undoable)


def _label(entry: Mapping[str, Any]) -> str:
    hand_no = entry.get("hand_no") or entry.get("state", {}).get("hand_no")
    if entry["kind"] == "hand":
        return f"#{hand_no} {'draw' if entry.get('outcome') == 'draw' else 'win'}"
    return f"#{hand_no} {entry['kind']}"
