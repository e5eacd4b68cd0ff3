"""What every rule set shares: the input struct, options, scoring patterns, results, refusals.

* :class:`ScoreInput` — one struct holding everything a hand needs (PyMahjongGB style): the hand,
  who won and how, the winds, the indicator tiles, and the table context.
* :class:`OptionSpec` — one house rule with its documented default; :func:`resolve_options`
  rejects unknown names and wrong types.
* :class:`Pattern` — one scoring pattern (riichi ``mahjong`` library style): a name, a value,
  English and Chinese labels, and ``is_condition_met``.
* :class:`Scored` and :func:`best_of` — every reading of a hand scored, the best kept by the rule
  set's own ordering.
* :class:`ScoreResult` — items, multipliers, payments (always summing to zero) and the
  variant-specific extras (``wilds``, ``fish``, ``bloom``).
* :class:`Refusal` and its subclasses — a hand the rules do not pay (named, documented codes).
* :class:`Variant` — the interface each rule-set module implements.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, ClassVar, Generic, Literal, TypeVar

from ..decompose import ALL_FORMS, NO_WILDS, Decomposition, Form, WildSpec
from ..errors import MahjongError
from ..hand import Hand
from ..melds import MeldKind
from ..seats import SEATS, Seat, others
from ..tiles import Tile, format_tiles, tile_str
from ..tilesets import TileSet
from ..waits import winning_tiles as engine_winning_tiles

WinBy = Literal["self_draw", "discard"]


# --------------------------------------------------------------------------- input


@dataclass(frozen=True)
class WinInfo:
    """How the hand was won. ``from_seat`` is the discarder (or the kong robbed) on a discard win."""

    by: WinBy = "self_draw"
    from_seat: Seat | None = None
    after_kong: bool = False  # won on the replacement tile after a kong (槓上開花)
    robbed_kong: bool = False  # won by robbing a kong (搶槓): ``from_seat`` declared it
    last_tile: bool = False  # won on the last tile of the wall (海底) or its discard
    first_turn: bool = False  # heavenly / earthly hand
    double_kong: bool = False  # the replacement tile came after two kongs declared back to back (Yuxi)
    ten_old_men: bool = False  # the winner's first ten discards were honours, unclaimed (Yuxi 十老头)

    @property
    def self_draw(self) -> bool:
        return self.by == "self_draw"


@dataclass(frozen=True)
class Indicators:
    """Face-up tiles that are not part of the hand: Ningbo's Baida indicator, Yuxi's two bloom
    tiles, Nanning's fish tiles (the last wall tiles)."""

    baida: Tile | None = None
    bloom: tuple[Tile, ...] = ()
    fish: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class TableContext:
    """What the table knows beyond this hand.

    ``dealer_streak``: consecutive hands the current dealer has kept (Hefei).
    ``claims[a][b]``: pungs/kongs player ``a`` claimed from player ``b`` this hand (Nanning sealing,
    Ningbo contracts); the winner's own declared melds are counted automatically.
    """

    dealer_streak: int = 0
    claims: Mapping[Seat, Mapping[Seat, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoreInput:
    """Everything needed to score one winner's hand."""

    variant: str
    winner: Seat
    hand: Hand
    win: WinInfo = WinInfo()
    round_wind: Seat = "E"
    indicators: Indicators = Indicators()
    context: TableContext = TableContext()
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def seat_wind(self) -> Seat:
        """The winner's seat wind (East is the dealer)."""
        return self.winner

    @property
    def is_dealer(self) -> bool:
        return self.winner == "E"

    def claims_between(self, claimer: Seat, victim: Seat) -> int:
        """Pungs/kongs ``claimer`` took from ``victim``: the context count, or for the winner the
        count of its declared claimed pungs/kongs, whichever is larger."""
        told = int(self.context.claims.get(claimer, {}).get(victim, 0))
        if claimer != self.winner:
            return told
        own = sum(
            1
            for m in self.hand.melds
            if m.kind in (MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG) and m.from_seat == victim
        )
        return max(told, own)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionSpec:
    """One house rule: name, documented default, description, and the allowed values: ``choices``,
    for a number the range ``minimum`` … ``maximum`` (inclusive), for a structured value its own
    ``validate``. Every number option has a
    range, chosen so that no payment can leave JavaScript's safe integers (±2^53) whatever the
    hand: the page and any JSON reader get exact amounts."""

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    #: a structured value's own check (raises :class:`OptionError` naming the part at fault)
    validate: Callable[[Any], object] | None = None

    def check(self, value: Any) -> Any:
        kind = type(self.default)
        if kind is bool:
            ok = isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        else:
            ok = isinstance(value, kind)
        if not ok:
            raise OptionError(
                f"option '{self.name}' must be a {kind.__name__}, got {value!r}", field=f"options.{self.name}"
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(repr, self.choices))
            raise OptionError(
                f"option '{self.name}' must be one of {allowed}, got {value!r}", field=f"options.{self.name}"
            )
        low = -math.inf if self.minimum is None else self.minimum
        high = math.inf if self.maximum is None else self.maximum
        if kind in (int, float) and not low <= value <= high:
            raise OptionError(
                f"option '{self.name}' must be from {self.minimum:,} to {self.maximum:,}, got {value!r}",
                field=f"options.{self.name}",
            )
        if self.validate is not None:
            self.validate(value)
        return value

    def to_dict(self) -> dict:
        out = {"name": self.name, "default": self.default, "description": self.description}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


class OptionError(MahjongError):
    """An unknown house-rule name, a value of the wrong type or out of its range (malformed input)."""

    code = "bad_option"


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown names and wrong types raise :class:`OptionError`."""
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for name, value in (given or {}).items():
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option '{name}'; this rule set's options are: {known}", field=f"options.{name}")
        out[name] = by_name[name].check(value)
    return out


# --------------------------------------------------------------------------- patterns and results

Ctx = TypeVar("Ctx")


class Pattern(ABC, Generic[Ctx]):
    """A scoring pattern: a small object with its value, labels and a condition.

    Subclasses set ``name``, ``value``, ``label`` (English) and ``label_zh`` and implement
    :meth:`is_condition_met`. Patterns whose value depends on the hand override :meth:`value_for`.
    """

    name: ClassVar[str]
    value: ClassVar[int] = 0
    label: ClassVar[str]
    label_zh: ClassVar[str]

    @abstractmethod
    def is_condition_met(self, ctx: Ctx) -> bool:
        """Does the hand in ``ctx`` have this pattern?"""

    def value_for(self, ctx: Ctx) -> int:
        return self.value

    def item(self, ctx: Ctx) -> ScoreItem:
        return ScoreItem(self.name, self.label, self.label_zh, self.value_for(ctx))


@dataclass(frozen=True)
class ScoreItem:
    """One line of the result: a pattern that counted, with its value."""

    name: str
    label: str
    label_zh: str
    value: int | float

    def to_dict(self) -> dict:
        return {"name": self.name, "label": self.label, "label_zh": self.label_zh, "value": self.value}


@dataclass(frozen=True)
class Multiplier:
    """A factor applied to the hand (or to one payer, when ``payer`` is set)."""

    name: str
    label: str
    label_zh: str
    factor: int | float
    payer: Seat | None = None

    def to_dict(self) -> dict:
        out = {"name": self.name, "label": self.label, "label_zh": self.label_zh, "factor": self.factor}
        if self.payer:
            out["payer"] = self.payer
        return out


@dataclass
class ScoreResult:
    """A paid win. ``payments[seat]`` is what the seat gains (winner positive, payers negative).

    Among several winners scored independently (Yuxi), a winner the rules refuse is a result too:
    ``refused`` holds the refusal, the value is 0 and nobody pays (:meth:`refusal`)."""

    value: int | float
    items: list[ScoreItem]
    payments: dict[Seat, int]
    multipliers: list[Multiplier] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)
    decomposition: str | None = None
    notes: list[str] = field(default_factory=list)
    refused: Refusal | None = None

    @classmethod
    def refusal(cls, err: Refusal, extras: dict[str, Any] | None = None) -> ScoreResult:
        """One of several winners whose hand the rules refuse: paid nothing, the error kept."""
        return cls(0, [], {}, extras=extras or {}, refused=err)

    def __post_init__(self) -> None:
        for seat in SEATS:
            self.payments.setdefault(seat, 0)
        total = sum(self.payments.values())
        if total != 0:
            raise AssertionError(f"payments must sum to zero, got {self.payments}")

    def to_dict(self) -> dict:
        out: dict[str, Any] = {
            "ok": self.refused is None,
            "value": self.value,
            "items": [i.to_dict() for i in self.items],
            "multipliers": [m.to_dict() for m in self.multipliers],
            "payments": {s: self.payments[s] for s in SEATS},
        }
        out.update(self.extras)
        if self.decomposition:
            out["decomposition"] = self.decomposition
        if self.notes:
            out["notes"] = list(self.notes)
        if self.refused is not None:
            out["error"] = self.refused.to_dict() | {"kind": "refused"}
        return out


def pay(winner: Seat, amounts: Mapping[Seat, int | float]) -> dict[Seat, int]:
    """Payments where each payer in ``amounts`` pays the winner that amount (rounded to int)."""
    out: dict[Seat, int] = {s: 0 for s in SEATS}
    for payer, amount in amounts.items():
        if payer == winner:
            raise ValueError("the winner cannot pay itself")
        amt = int(round(amount))
        out[payer] -= amt
        out[winner] += amt
    return out


def add_payments(*parts: Mapping[Seat, int]) -> dict[Seat, int]:
    out: dict[Seat, int] = {s: 0 for s in SEATS}
    for part in parts:
        for seat, amount in part.items():
            out[seat] += amount
    return out


@dataclass(frozen=True)
class Scored(Generic[Ctx]):
    """One reading of the hand scored: its ``value`` in the rule set's unit, the ``items`` that
    count, the ``context`` the patterns read (one decomposition, and where the rule set asks, one
    place of the winning tile), the ``multipliers`` applied and the ``unpaid`` items that hold but
    are not paid (Nanning's ``combine: "highest"``)."""

    value: int
    items: tuple[ScoreItem, ...]
    decomposition: Decomposition
    context: Ctx
    multipliers: tuple[Multiplier, ...] = ()
    unpaid: tuple[ScoreItem, ...] = ()


Reading = TypeVar("Reading")


def best_of(
    readings: Iterable[Reading],
    score: Callable[[Reading], Iterable[Scored[Ctx]]],
    key: Callable[[Scored[Ctx]], Any] = attrgetter("value"),
) -> Scored[Ctx] | None:
    """Score every reading of the hand and keep the best: ``score`` turns one reading (a
    decomposition) into its scored candidates (none where the rule set refuses that reading, several
    where the winning tile has several places); the first candidate with the greatest ``key`` wins,
    so ties go to the earlier reading. ``None`` when no reading gave a candidate."""
    best: Scored[Ctx] | None = None
    best_key: Any = None
    for reading in readings:
        for candidate in score(reading):
            candidate_key = key(candidate)
            if best is None or candidate_key > best_key:
                best, best_key = candidate, candidate_key
    return best


# --------------------------------------------------------------------------- refusals


class Refusal(MahjongError):
    """The rules do not pay this hand. ``mjc score`` exits 1 with ``{"ok": false, "error": …}``."""

    code = "refused"


class ChowClaimNotAllowed(Refusal):
    """A declared (claimed) chow at a table whose rules call a discard only for a pung, a kong or
    the win. Every rule set answers it the same way: a refusal (exit 1, HTTP 422) with code
    ``chow_claim_not_allowed`` and field ``hand.melds[i]``. Not malformed input: the hand is
    well-formed and the very same hand is paid where the house rule allows claimed chows (each of
    these rule sets has that option), so it is the rules that refuse it."""

    code = "chow_claim_not_allowed"


def refuse_claimed_chows(inp: ScoreInput, allowed: bool, rule: str, option: str) -> None:
    """Raise :class:`ChowClaimNotAllowed` for the first declared chow unless ``allowed``; ``rule``
    says what the rule set lets a discard be called for, ``option`` names the house rule."""
    for i, meld in enumerate(inp.hand.melds):
        if meld.kind == MeldKind.CHOW and not allowed:
            raise ChowClaimNotAllowed(
                f"declared chow {format_tiles(meld.tiles)}: {rule}; set option '{option}' if your table allows it",
                field=f"hand.melds[{i}]",
            )


class NotAWin(Refusal):
    """The tiles do not form a winning hand under this rule set."""

    code = "not_a_win"


class BelowMinimum(Refusal):
    """The hand is worth less than the rule set's minimum (Ningbo's 4 tai, …)."""

    code = "below_minimum"


class NotAllowedOnDiscard(Refusal):
    """This hand may only be won by self-draw."""

    code = "not_on_discard"


class Sealed(Refusal):
    """The winner is sealed (Nanning 封胡) and cannot win this hand."""

    code = "sealed"


# --------------------------------------------------------------------------- the variant interface


#: the ``win`` facts every rule set asks about (engine/contract.py "win")
COMMON_WIN_FLAGS = ("after_kong", "robbed_kong", "last_tile", "first_turn")


class Variant(ABC):
    """One rule set. Each package in :mod:`engine.rules` defines one subclass instance, ``VARIANT``."""

    name: ClassVar[str]
    title: ClassVar[str]
    title_zh: ClassVar[str]
    tileset: ClassVar[TileSet]
    options: ClassVar[tuple[OptionSpec, ...]]
    #: the face-up table tiles the rule set reads off a photo besides the hand: ``"baida"`` (Ningbo's
    #: wild indicator), ``"bloom"`` (Yuxi's bloom tiles), ``"fish"`` (Nanning's last wall tiles)
    indicator: ClassVar[str | None] = None
    #: win facts a photo cannot show that only this rule set asks about, beyond :data:`COMMON_WIN_FLAGS`
    extra_win_flags: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def score(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """Score one winner; raise a :class:`Refusal` when the rules do not pay the hand.

        ``opts`` are already resolved (defaults filled in, checked). The input hand has been
        validated against :attr:`tileset` and the tile count rule by the caller."""

    def score_many(self, inputs: Sequence[ScoreInput], opts: Mapping[str, Any]) -> list[ScoreResult]:
        """Several winners on one discard. Default: each winner is scored alone and paid in full
        by the discarder. Override where a rule set says otherwise."""
        return [self.score_one_of_several(inp, opts) for inp in inputs]

    def score_one_of_several(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """:meth:`score` for one of several winners: a refusal names whose hand it is."""
        try:
            return self.score(inp, opts)
        except Refusal as err:
            err.message = f"{inp.winner}'s hand: {err.message}"
            err.args = (err.message,)
            raise

    def wild_spec(self, inp: ScoreInput, opts: Mapping[str, Any]) -> WildSpec:
        """The wild kinds for this hand and the fifth-copy rule (no wilds unless the rule set has them)."""
        return NO_WILDS

    def winning_forms(self, opts: Mapping[str, Any]) -> tuple[Form, ...]:
        """The winning forms this rule set accepts (used by ``mjc waits``). Default: all three."""
        return ALL_FORMS

    def winning_tiles(self, inp: ScoreInput, opts: Mapping[str, Any]) -> list[Tile]:
        """Kinds that complete ``inp.hand`` (one tile short) under this rule set, for ``mjc waits``.

        Default: the engine's :func:`engine.waits.winning_tiles` with :meth:`winning_forms`, the
        wild spec and the face-up indicator tiles. Override where a rule set adds win conditions."""
        return engine_winning_tiles(
            list(inp.hand.concealed),
            inp.hand.melds,
            wilds=self.wild_spec(inp, opts),
            tileset=self.tileset,
            visible=self.visible_tiles(inp),
            forms=self.winning_forms(opts),
        )

    def waits_extras(self, inp: ScoreInput, opts: Mapping[str, Any], waits: list[Tile]) -> dict[str, Any]:
        """Extra keys for ``mjc waits`` output (Yuxi: bloom tiles that would complete the hand)."""
        return {}

    def visible_tiles(self, inp: ScoreInput) -> tuple[Tile, ...]:
        """Tiles of the set shown outside the hand (indicators) that count toward copy limits."""
        return ()

    @abstractmethod
    def kong_payments(
        self, kind: MeldKind, declarer: Seat, from_seat: Seat | None, opts: Mapping[str, Any]
    ) -> dict[Seat, int]:
        """Immediate payments for a kong as it is declared (all zeros where the rule set has none).
        ``from_seat`` is the discarder of an exposed kong, or the seat an added kong's pung came from."""

    @abstractmethod
    def next_dealer(
        self,
        winners: Sequence[Seat],
        drawn: bool,
        opts: Mapping[str, Any],
        *,
        discarder: Seat | None = None,
        last_drawer: Seat | None = None,
    ) -> Seat:
        """Which seat deals the next hand, in this hand's seats: ``"E"`` means the dealer keeps the
        deal, ``"S"`` that it passes to the next player; a rule set may name another seat.
        ``discarder``: who discarded the winning tile; ``last_drawer``: who drew the wall's last tile
        (a drawn hand). Rule sets that need them say so."""

    def describe(self, opts: Mapping[str, Any] | None = None) -> dict:
        """The rule set for a reader: names, tile count, options, and :meth:`facts` (under the
        resolved options ``opts`` when given: a table's; else the documented defaults)."""
        return {
            "name": self.name,
            "title": self.title,
            "title_zh": self.title_zh,
            "tiles": self.tileset.size,
            "options": [o.to_dict() for o in self.options],
            **self.facts(opts),
        }

    def tile_kinds(self, opts: Mapping[str, Any]) -> list[int]:
        """The tile kinds in play under ``opts`` (resolved): the tile set's; a rule set whose
        options take tiles out of play (Ningxia without honours) narrows it."""
        return [k for k in range(len(self.tileset.copies)) if self.tileset.copies[k]]

    def facts(self, opts: Mapping[str, Any] | None = None) -> dict:
        """What the table page asks about for this rule set, so it never copies rule knowledge:
        ``indicator`` (or null), ``win_flags`` (the ``win`` booleans worth asking) and ``roles``
        (what a group of tiles in a photo can be: the hand, a claimed meld, a concealed kong, the
        indicator tiles, or ignored) and ``tile_codes`` (the kinds in play under the resolved
        options ``opts``, default: the documented defaults; flowers included, so a picker offers
        no tile the table does not play with)."""
        resolved = resolve_options(self.options, opts or {})
        roles = ["hand", "meld", "concealed_kong", *([self.indicator] if self.indicator else []), "ignore"]
        codes = [tile_str(k) for k in self.tile_kinds(resolved)]
        return {
            "indicator": self.indicator,
            "win_flags": [*COMMON_WIN_FLAGS, *self.extra_win_flags],
            "roles": roles,
            "tile_codes": codes,
        }


def no_payments() -> dict[Seat, int]:
    return {s: 0 for s in SEATS}


def everyone_pays(winner: Seat, amount: int) -> dict[Seat, int]:
    """Self-draw style: each of the three others pays ``amount``."""
    return pay(winner, {s: amount for s in others(winner)})
