"""Ningbo (宁波麻将) scoring patterns: one small :class:`Pattern` per row of the guide's tai table,
plus the optional flower patterns. Each reads a :class:`NingboContext` — one decomposition of the
hand with one placement of the winning tile — built by :mod:`engine.rules.ningbo.variant`.

The rule text is ``../shared/rules/ningbo.txt``; ``docs/rules/ningbo.md`` traces every row here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from ...decompose import Decomposition, Group, WildSpec
from ...seats import SEATS, Seat
from ...tiles import DRAGONS, FLOWERS, Tile, is_honour, is_suited
from ...waits import WaitShape
from ..base import Pattern, ScoreInput


@dataclass(frozen=True)
class NingboContext:
    """What the patterns read for one way of seeing the hand.

    ``wait``: the shape of the winning tile's place in ``decomposition`` (``None`` when it has no
    shape-bearing place, e.g. robbed into a declared meld — never in practice). ``only_wait``: the
    hand before the winning tile waited on that one kind only (wild kinds not counted).
    ``wilds_held``: wild tiles among the concealed tiles and in concealed kongs of wild faces.
    ``kong_wilds``: wild tiles in concealed kongs (a kong of wild faces is the wilds used as
    themselves).
    """

    inp: ScoreInput
    opts: Mapping[str, Any]
    decomposition: Decomposition
    wait: WaitShape | None
    only_wait: bool
    wild: WildSpec
    winning_is_wild: bool
    wilds_held: int
    kong_wilds: int

    # ---------------------------------------------------------------- derived facts

    @cached_property
    def sets(self) -> tuple[Group, ...]:
        return self.decomposition.sets

    @cached_property
    def pair(self) -> Group | None:
        return self.decomposition.pair

    @cached_property
    def kinds(self) -> list[Tile]:
        """Every kind the hand stands for, wilds replaced by what they stand for."""
        return self.decomposition.stands_for

    @cached_property
    def suits(self) -> set[int]:
        return {k // 9 for k in self.kinds if is_suited(k)}

    @cached_property
    def has_honours(self) -> bool:
        return any(is_honour(k) for k in self.kinds)

    @cached_property
    def pung_kinds(self) -> list[Tile]:
        """The kind of each pung or kong (wilds standing in included)."""
        return [g.first for g in self.sets if g.is_pung_like]

    def pungs_of(self, kind: Tile) -> int:
        return self.pung_kinds.count(kind)

    @cached_property
    def wilds_as_self(self) -> int:
        return self.decomposition.wilds_as_self + self.kong_wilds

    @cached_property
    def substitutes(self) -> int:
        """Wild tiles standing for a kind other than their own face."""
        return sum(1 for face, kind in self.decomposition.substitutions if face != kind)

    def flowers_for_seat(self, seat: Seat) -> int:
        """The winner's seat flowers: 1f/5f East, 2f/6f South, 3f/7f West, 4f/8f North."""
        i = SEATS.index(seat)
        own = (FLOWERS[i], FLOWERS[i + 4])
        return sum(1 for f in self.inp.hand.flowers if f in own)


Ctx = NingboContext


class NingboPattern(Pattern[Ctx]):
    """A Ningbo pattern. ``reads_wait``: the pattern depends on where the winning tile sits, so it
    is evaluated for each place; the others once per decomposition."""

    reads_wait: ClassVar[bool] = False


# --------------------------------------------------------------------------- waits


class _Wait(NingboPattern):
    shape: str
    value = 1
    reads_wait: ClassVar[bool] = True

    def is_condition_met(self, ctx: Ctx) -> bool:
        if ctx.wait != self.shape:
            return False
        return ctx.only_wait or not ctx.opts["waits_need_single_tile"]


class EdgeWait(_Wait):
    """Edge Wait: 'Winning with 1-2-3 or 7-8-9, needing 3 or 7' — 1 tai."""

    name, label, label_zh, shape = "edge_wait", "Edge wait", "边张", "edge"


class ClosedWait(_Wait):
    """Closed Wait: 'Waiting on a middle tile (e.g., 3-5, waiting on 4)' — 1 tai."""

    name, label, label_zh, shape = "closed_wait", "Closed wait", "嵌张", "closed"


class SingleWait(_Wait):
    """Single Wait: 'Waiting on a single tile to complete the hand' — read as the pair wait (单吊)."""

    name, label, label_zh, shape = "single_wait", "Single wait", "单吊", "single"


# --------------------------------------------------------------------------- wilds


class BaidaWin(NingboPattern):
    """Wild Tile/Baida Win: 'Winning by using a Baida tile' — 1 tai. Option ``baida_win``:
    ``winning_tile`` (default) the winning tile is a wild; ``any_substitute`` a wild stands for
    another kind; ``never`` no such item."""

    name, label, label_zh, value = "baida_win", "Baida win", "搭胡", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        rule = ctx.opts["baida_win"]
        if rule == "winning_tile":
            return ctx.winning_is_wild
        if rule == "any_substitute":
            return ctx.substitutes > 0
        return False


class NoBaida(NingboPattern):
    """No Wild Tile/Baida: 'Winning without a Baida tile in hand' — 1 tai."""

    name, label, label_zh, value = "no_baida", "No Baida", "无搭", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        return ctx.wilds_held == 0


class HaiDa(NingboPattern):
    """Wild Tile Reuse (还搭): 'Using a wild tile as its original tile value' — 1 tai
    (option ``hai_da``: ``flat`` once, ``per_tile`` once per wild used as itself)."""

    name, label, label_zh, value = "hai_da", "Wild used as itself", "还搭", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        return ctx.wilds_as_self > 0

    def value_for(self, ctx: Ctx) -> int:
        return ctx.wilds_as_self if ctx.opts["hai_da"] == "per_tile" else 1


class WildPair(NingboPattern):
    """Wild Tile Pair Win (炮搭摸搭): 'Winning with a self-drawn wild tile as a pair' — 1 tai:
    a self-drawn winning tile completes the pair, and the pair holds a wild."""

    name, label, label_zh, value = "wild_pair", "Wild pair win", "炮搭摸搭", 1
    reads_wait: ClassVar[bool] = True

    def is_condition_met(self, ctx: Ctx) -> bool:
        pair = ctx.pair
        return ctx.inp.win.self_draw and ctx.wait == "single" and pair is not None and bool(pair.wilds)


# --------------------------------------------------------------------------- hand shape


class PureSuit(NingboPattern):
    """Pure Suit (清一色): 'All tiles from a single suit (excluding wilds)' — 4 tai."""

    name, label, label_zh, value = "pure_suit", "Pure suit", "清一色", 4

    def is_condition_met(self, ctx: Ctx) -> bool:
        return len(ctx.suits) == 1 and not ctx.has_honours


class HalfPureSuit(NingboPattern):
    """Half Pure Suit (混一色): 'A mix of honor tiles and one suit (excluding wilds)' — 2 tai."""

    name, label, label_zh, value = "half_pure_suit", "Half pure suit", "混一色", 2

    def is_condition_met(self, ctx: Ctx) -> bool:
        return len(ctx.suits) == 1 and ctx.has_honours


class AllPungs(NingboPattern):
    """All Triplets (碰碰和): 'All sets are Pungs or Kongs (excluding wilds)' — 2 tai."""

    name, label, label_zh, value = "all_pungs", "All pungs", "碰碰和", 2

    def is_condition_met(self, ctx: Ctx) -> bool:
        return all(g.is_pung_like for g in ctx.sets)


class AllHonours(NingboPattern):
    """All Honors (字一色): 'A hand consisting entirely of honor tiles' — 10 tai (option
    ``all_honours_tai``)."""

    name, label, label_zh, value = "all_honours", "All honours", "字一色", 10

    def is_condition_met(self, ctx: Ctx) -> bool:
        return not ctx.suits

    def value_for(self, ctx: Ctx) -> int:
        return int(ctx.opts["all_honours_tai"])


class DragonPung(NingboPattern):
    """Dragon Pung (箭刻): 'A Pung, concealed Pung, or Kong of Red, Green, or White' — 1 tai each."""

    name, label, label_zh, value = "dragon_pung", "Dragon pung", "箭刻", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        return self.value_for(ctx) > 0

    def value_for(self, ctx: Ctx) -> int:
        return sum(ctx.pungs_of(d) for d in DRAGONS)


class RoundWindPung(NingboPattern):
    """Round Wind Pung (圈风刻): 'A Pung, concealed Pung, or Kong of the round wind' — 1 tai."""

    name, label, label_zh, value = "round_wind_pung", "Round wind pung", "圈风刻", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        return ctx.pungs_of(27 + SEATS.index(ctx.inp.round_wind)) > 0


class SeatWindPung(NingboPattern):
    """Seat Wind Pung (门风刻): 'A Pung, concealed Pung, or Kong of the player's seat wind' — 1 tai."""

    name, label, label_zh, value = "seat_wind_pung", "Seat wind pung", "门风刻", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        return ctx.pungs_of(27 + SEATS.index(ctx.inp.seat_wind)) > 0


# --------------------------------------------------------------------------- how it was won


class KongWin(NingboPattern):
    """Kong Win (杠上开花): 'Winning immediately after declaring a Kong' — 1 tai (option
    ``kong_win``: ``both`` / ``tai_only`` keep this item, ``multiplier_only`` drops it)."""

    name, label, label_zh, value = "kong_win", "Kong win", "杠上开花", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        return ctx.inp.win.after_kong and ctx.opts["kong_win"] in ("both", "tai_only")


class LastTile(NingboPattern):
    """Last Tile Win (海底捞月): 'Winning on the last tile drawn' — 1 tai (a win on the last
    discard only with option ``last_discard_counts``)."""

    name, label, label_zh, value = "last_tile", "Last tile win", "海底捞月", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        win = ctx.inp.win
        return win.last_tile and (win.self_draw or ctx.opts["last_discard_counts"])


class SelfDraw(NingboPattern):
    """Self-Draw Win (自摸): 'Winning on a self-drawn tile' — 1 tai."""

    name, label, label_zh, value = "self_draw", "Self-draw", "自摸", 1

    def is_condition_met(self, ctx: Ctx) -> bool:
        return ctx.inp.win.self_draw


class HeavenlyHand(NingboPattern):
    """Heavenly Hand (天和): 'Dealer wins immediately after drawing the initial hand' — 10 tai."""

    name, label, label_zh, value = "heavenly_hand", "Heavenly hand", "天和", 10

    def is_condition_met(self, ctx: Ctx) -> bool:
        inp = ctx.inp
        return inp.win.first_turn and inp.is_dealer and inp.win.self_draw


class EarthlyHand(NingboPattern):
    """Earthly Hand (地和): 'Non-dealer wins on the first discard' — 10 tai (option
    ``earthly_hand``: ``first_discard`` the dealer's first discard, ``first_draw`` the
    non-dealer's first self-draw, ``either``)."""

    name, label, label_zh, value = "earthly_hand", "Earthly hand", "地和", 10

    def is_condition_met(self, ctx: Ctx) -> bool:
        inp = ctx.inp
        if not inp.win.first_turn or inp.is_dealer:
            return False
        rule = ctx.opts["earthly_hand"]
        on_discard = not inp.win.self_draw and inp.win.from_seat == "E"
        if rule == "first_discard":
            return on_discard
        if rule == "first_draw":
            return inp.win.self_draw
        return on_discard or inp.win.self_draw


# --------------------------------------------------------------------------- flowers


class EightFlowers(NingboPattern):
    """8 Flowers (八花): 'Collecting all 8 Flower tiles' — 10 tai."""

    name, label, label_zh, value = "eight_flowers", "Eight flowers", "八花", 10

    def is_condition_met(self, ctx: Ctx) -> bool:
        return len(set(ctx.inp.hand.flowers)) == 8


class SeatFlowers(NingboPattern):
    """Seat flowers (正花): option ``seat_flower_tai`` tai per flower of the winner's seat
    (default 0: the guide's table has no such row; MIL gives 1)."""

    name, label, label_zh, value = "seat_flowers", "Seat flowers", "正花", 0

    def is_condition_met(self, ctx: Ctx) -> bool:
        return self.value_for(ctx) > 0

    def value_for(self, ctx: Ctx) -> int:
        return ctx.flowers_for_seat(ctx.inp.seat_wind) * int(ctx.opts["seat_flower_tai"])


class OtherFlowers(NingboPattern):
    """Other flowers (野花): option ``other_flower_tai`` tai per flower not of the winner's seat."""

    name, label, label_zh, value = "other_flowers", "Other flowers", "野花", 0

    def is_condition_met(self, ctx: Ctx) -> bool:
        return self.value_for(ctx) > 0

    def value_for(self, ctx: Ctx) -> int:
        n = len(ctx.inp.hand.flowers) - ctx.flowers_for_seat(ctx.inp.seat_wind)
        return n * int(ctx.opts["other_flower_tai"])


class FlowerSet(NingboPattern):
    """Complete flower set (一台花): option ``flower_set_tai`` tai per complete set of four
    (plum-orchid-chrysanthemum-bamboo 1f-4f, or the seasons 5f-8f)."""

    name, label, label_zh, value = "flower_set", "Complete flower set", "全套花", 0

    def is_condition_met(self, ctx: Ctx) -> bool:
        return self.value_for(ctx) > 0

    def value_for(self, ctx: Ctx) -> int:
        held = set(ctx.inp.hand.flowers)
        sets = sum(1 for block in (FLOWERS[:4], FLOWERS[4:]) if held.issuperset(block))
        return sets * int(ctx.opts["flower_set_tai"])


PATTERNS: tuple[NingboPattern, ...] = (
    EdgeWait(),
    ClosedWait(),
    SingleWait(),
    BaidaWin(),
    NoBaida(),
    HaiDa(),
    WildPair(),
    PureSuit(),
    HalfPureSuit(),
    AllPungs(),
    AllHonours(),
    DragonPung(),
    RoundWindPung(),
    SeatWindPung(),
    KongWin(),
    LastTile(),
    SelfDraw(),
    HeavenlyHand(),
    EarthlyHand(),
    EightFlowers(),
    SeatFlowers(),
    OtherFlowers(),
    FlowerSet(),
)
