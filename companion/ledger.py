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
``settings`` a change to the table after creation (:mod:`companion.settings`): a player renamed
             (at once), two players' seats swapped or the house rules changed (from the hand
             ``hand_no`` on). Undone like any other event.

Nothing is deleted: :func:`replay` (an :class:`Evening` folded from the events) works out which
events are in effect, the balances (start points plus every effective payment), the timeline for the chart and the state of the next hand.
The next hand's state is the last effective hand's state advanced by its own outcome, with the
rule set's :meth:`~engine.rules.base.Variant.next_dealer`; the round wind moves on each time the
deal has travelled four seats round the table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.seats import SEATS, Seat

from . import settings
from .rules import TableRules
from .store import Event, Table

log = logging.getLogger("companion.ledger")


@dataclass(frozen=True)
class HandState:
    """The state a hand is played under: its number, the dealer (East), the round wind, the
    dealer's streak, how far the deal has moved this round, where each player sits and which house
    rules are in force.

    Players are numbered 0-3 (their index in the table's ``players``: a player's identity, kept
    through renames). ``seating`` lists the players in physical seat order (play order): as created
    ``(0, 1, 2, 3)``; a seat swap (:mod:`companion.settings`) exchanges two. The deal moves round
    the physical seats; ``dealer`` is the player sitting in the dealer's seat. ``rules`` is the
    ``settings`` event whose house rules are in force (None: the rules the table was created with).
    """

    hand_no: int
    dealer: int  # the dealer's player index (East)
    round_wind: str
    streak: int  # consecutive hands the current dealer's seat has kept the deal
    steps: int = 0  # seats the deal has moved on this round (the round ends at 4)
    seating: tuple[int, ...] = (0, 1, 2, 3)  # the players in physical seat order
    rules: int | None = None  # the settings event whose house rules are in force

    def seat_of(self, player: int) -> int:
        """The physical seat (0-3) a player sits in."""
        return self.seating.index(player)

    def wind_of(self, player: int) -> str:
        return SEATS[(self.seat_of(player) - self.seat_of(self.dealer)) % 4]

    def player_at(self, wind: str) -> int:
        return self.seating[(self.seat_of(self.dealer) + SEATS.index(wind)) % 4]

    def to_dict(self) -> dict:
        return {
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "dealer_streak": self.streak,
            "steps": self.steps,
            "winds": [self.wind_of(p) for p in range(4)],
            "seats": {w: self.player_at(w) for w in SEATS},
            "seating": list(self.seating),
            "rules": self.rules,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandState:
        seating = tuple(int(p) for p in d.get("seating", (0, 1, 2, 3)))
        rules = d.get("rules")
        return cls(
            int(d["hand_no"]),
            int(d["dealer"]),
            str(d["round_wind"]),
            int(d["dealer_streak"]),
            int(d.get("steps", 0)),
            seating,
            None if rules is None else int(rules),
        )

    def advance(self, next_wind: str) -> HandState:
        """The next hand's state when ``next_wind`` (in this hand's winds) deals next."""
        new_dealer = self.player_at(next_wind)
        moved = (self.seat_of(new_dealer) - self.seat_of(self.dealer)) % 4
        steps = self.steps + moved
        round_idx = SEATS.index(self.round_wind)
        while steps >= 4:
            steps -= 4
            round_idx = (round_idx + 1) % 4
        streak = self.streak + 1 if moved == 0 else 0
        return HandState(self.hand_no + 1, new_dealer, SEATS[round_idx], streak, steps, self.seating, self.rules)

    def swapped(self, a: int, b: int) -> HandState:
        """Players ``a`` and ``b`` exchange seats: each takes the wind the other would have had
        (the dealer's seat, its streak and the round are unchanged; whoever sits there deals)."""
        seating = list(self.seating)
        i, j = seating.index(a), seating.index(b)
        seating[i], seating[j] = b, a
        dealer_seat = self.seat_of(self.dealer)
        return replace(self, seating=tuple(seating), dealer=seating[dealer_seat])

    def under(self, rules: int | None) -> HandState:
        """The same state under the house rules of the settings event ``rules``."""
        return replace(self, rules=rules)


def initial_state(table: Table) -> HandState:
    """The first hand: the table's first dealer deals, East round."""
    return HandState(1, table.first_dealer, "E", 0, 0)


def by_player(state: HandState, by_wind: Mapping[Seat, int]) -> list[int]:
    """Payments by wind (the engine's) as payments by physical seat 0-3 under ``state``."""
    out = [0, 0, 0, 0]
    for wind, amount in by_wind.items():
        out[state.player_at(wind)] += int(amount)
    return out


@dataclass
class Replay:
    """The ledger as the API shows it: the next hand's state and claims, balances by seat, the
    effective entries, every event with its status, the chart's timeline and the version."""

    state: HandState
    claims: dict[str, dict[str, int]]
    balances: list[int]
    entries: list[dict] = field(default_factory=list)  # effective events in the evening's order
    log: list[dict] = field(default_factory=list)  # every event, with its status
    timeline: list[dict] = field(default_factory=list)  # balances after each effective event
    version: int = 0
    last_undoable: int | None = None
    players: list[str] = field(default_factory=list)  # the players' names now (renames applied)
    rules: TableRules | None = None  # the house rules of the next hand
    options: dict[str, Any] = field(default_factory=dict)  # the latest house rules (a change waiting included)
    rules_at: Callable[[int | None], TableRules] | None = None  # the house rules of a settings event

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


class Evening:
    """The fold behind :class:`Replay`: which events are in effect, built one event at a time.

    :meth:`fold` takes each stored event in order; :meth:`derive` works out the balances, the
    timeline, the next hand's state and this hand's claims from what is in effect, all at once:
    this is the full replay, the reference that :class:`companion.live.LiveLedger` (which keeps
    the derived ledger up to date event by event, for writes) is checked against. The rule set is
    asked who deals after a hand at most once per fold (the wind a write checked is kept with its
    event).
    """

    def __init__(self, table: Table, rules: TableRules) -> None:
        self.table = table
        self.rules = rules
        self._events: list[Event] = []
        self._by_id: dict[int, Event] = {}
        self._active: dict[int, Event] = {}
        self._status: dict[int, str] = {}
        self._winds: dict[int, Seat] = {}
        self._settings: dict[int, Event] = {}  # settings events in effect, in seq order
        self._rule_sets: dict[int | None, TableRules] = {None: rules}

    @classmethod
    def of(cls, table: Table, rules: TableRules, events: Sequence[Event]) -> Evening:
        """The evening folded from ``events`` (in ``seq`` order)."""
        evening = cls(table, rules)
        for ev in events:
            evening.fold(ev)
        return evening

    def fold(self, ev: Event, next_wind: Seat | None = None) -> None:
        """Take one more event into account. ``next_wind``: who deals after this hand, when the
        caller has already asked the rule set."""
        self._events.append(ev)
        self._by_id[ev.id] = ev
        if next_wind is not None:
            self._winds[ev.id] = next_wind
        if ev.kind in ("hand", "kong", "claim", "settings"):
            self._activate(ev)
        elif ev.kind == "correct":
            replaced = self._active.get(ev.target) if ev.target is not None else None
            if replaced is not None:
                self._deactivate(replaced, "corrected")
            self._activate(ev)
        elif ev.kind == "undo":
            self._status[ev.id] = "undo"
            target = self._active.get(ev.target) if ev.target is not None else None
            if target is not None:
                self._deactivate(target, "undone")
                if target.kind == "correct" and target.target in self._by_id:
                    self._activate(self._by_id[target.target])

    def _activate(self, ev: Event) -> None:
        self._active[ev.id] = ev
        self._status[ev.id] = "active"
        if ev.kind == "settings":
            self._settings[ev.id] = ev

    def _deactivate(self, ev: Event, status: str) -> None:
        del self._active[ev.id]
        self._status[ev.id] = status
        self._settings.pop(ev.id, None)

    # ------------------------------------------------------------------ settings
    def players(self) -> list[str]:
        """The players' names now: as created, with every rename in effect applied in order."""
        return settings.names(self.table.players, self._settings.values())

    def latest_options(self) -> dict[str, Any]:
        """The latest house rules in effect (a change from the next hand on included)."""
        return self.rules_at(settings.latest_rules(self._settings.values())).options

    def rules_at(self, marker: int | None) -> TableRules:
        """The house rules set by the settings event ``marker`` (None: the table's own)."""
        found = self._rule_sets.get(marker)
        if found is None:
            ev = self._by_id.get(marker) if marker is not None else None
            if ev is None or ev.kind != "settings" or "options" not in ev.data:
                return self.rules
            found = self._rule_sets[marker] = replace(self.rules, options=dict(ev.data["options"]))
        return found

    def hand_rules(self, data: Mapping[str, Any]) -> TableRules:
        """The house rules a recorded hand (its ``data``) was played under."""
        return self.rules_at((data.get("state") or {}).get("rules"))

    def _position(self, ev: Event) -> int:
        """A correction keeps the place of the hand it replaces (followed back to the original)."""
        seen = 0
        while ev.kind == "correct" and ev.target in self._by_id and seen < 1000:
            ev = self._by_id[ev.target]
            seen += 1
        return ev.seq

    def _next_wind(self, hand: Event) -> Seat:
        """Who dealt after ``hand``; never fails a read (a rule set changed since: pass the deal)."""
        if hand.id not in self._winds:
            try:
                self._winds[hand.id] = self.hand_rules(hand.data).next_wind(hand.data)
            except Exception:
                log.warning("table %s: cannot work out the next dealer; passing the deal", self.table.id, exc_info=True)
                self._winds[hand.id] = "S"
        return self._winds[hand.id]

    def derive(self) -> Replay:
        """Balances, entries, timeline, next hand's state and its claims from the events in effect."""
        ordered = sorted(self._active.values(), key=self._position)
        balances = [int(self.table.start_points)] * 4
        timeline = [{"seq": 0, "label": "start", "balances": list(balances)}]
        entries = []
        last_hand: Event | None = None
        for ev in ordered:
            entry = ledger_entry(ev, balances)
            balances = entry["balances"]
            entries.append(entry)
            timeline.append(timeline_point(entry))
            if ev.kind in ("hand", "correct"):
                last_hand = ev
        state = self._state_after(last_hand)
        undoable = max(self._active.values(), key=lambda e: e.seq).id if self._active else None
        version = self._events[-1].seq if self._events else 0
        return Replay(
            state,
            claims_of(ordered, state.hand_no),
            balances,
            entries,
            self._log(),
            timeline,
            version,
            undoable,
            self.players(),
            self.rules_at(state.rules),
            self.latest_options(),
            self.rules_at,
        )

    def _state_after(self, last_hand: Event | None) -> HandState:
        """The next hand's state: the first hand's, or the last hand's advanced by its outcome;
        then the seat swaps and house rules that take effect from it (:func:`settings.settle`)."""
        if last_hand is None:
            state = initial_state(self.table)
        else:
            state = HandState.from_dict(last_hand.data["state"]).advance(self._next_wind(last_hand))
        return settings.settle(state, self._settings.values())

    def _log(self) -> list[dict]:
        return [self._log_row(e) for e in self._events]

    def _log_row(self, e: Event) -> dict:
        return {
            "id": e.id,
            "seq": e.seq,
            "kind": e.kind,
            "target": e.target,
            "status": self._status.get(e.id, "active"),
            "created_at": e.created_at,
            "hand_no": e.data.get("hand_no", e.data.get("state", {}).get("hand_no")),
        }


def ledger_entry(ev: Event, before: Sequence[int]) -> dict:
    """An effective event as the ledger lists it, with the balances after it (``before`` plus its payments)."""
    pays = ev.data.get("payments", [0, 0, 0, 0])
    return {
        "id": ev.id,
        "seq": ev.seq,
        "kind": "hand" if ev.kind == "correct" else ev.kind,
        "corrected": ev.kind == "correct",
        "created_at": ev.created_at,
        "balances": [b + int(p) for b, p in zip(before, pays)],
        **ev.data,
    }


def timeline_point(entry: Mapping[str, Any]) -> dict:
    """The chart's point for a ledger entry: the balances after it."""
    return {"seq": entry["seq"], "id": entry["id"], "label": _label(entry), "balances": list(entry["balances"])}


def replay(table: Table, rules: TableRules, events: Sequence[Event]) -> Replay:
    """The ledger derived from ``events`` (every event of the table, in ``seq`` order)."""
    return Evening.of(table, rules, events).derive()


def claims_of(ordered: Sequence[Event], hand_no: int) -> dict[str, dict[str, int]]:
    """Pungs and kongs claimed this hand: each claim and each exposed kong (a concealed kong takes
    nothing; an added kong upgrades a pung already claimed)."""
    claims: dict[str, dict[str, int]] = {}
    for ev in ordered:
        if ev.kind not in ("claim", "kong") or ev.data.get("hand_no") != hand_no:
            continue
        claimer, victim = ev.data.get("claimer"), ev.data.get("from")
        if ev.kind == "kong":
            claimer = ev.data.get("declarer")
            if ev.data.get("type") != "kong":
                continue
        if claimer and victim:
            row = claims.setdefault(claimer, {})
            row[victim] = row.get(victim, 0) + 1
    return claims


def _label(entry: Mapping[str, Any]) -> str:
    hand_no = entry.get("hand_no") or entry.get("state", {}).get("hand_no")
    if entry["kind"] == "hand":
        return f"#{hand_no} {'draw' if entry.get('outcome') == 'draw' else 'win'}"
    return f"#{hand_no} {entry['kind']}"
