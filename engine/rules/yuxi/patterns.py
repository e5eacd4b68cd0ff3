"""Yuxi's payout table: one small :class:`Pattern` per row, each worth a multiplier, reading a
:class:`YuxiContext` (one decomposition of the hand). ``docs/rules/yuxi.md`` traces every row."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ...decompose import Decomposition
from ...tiles import WINDS, Tile, is_suited, suit_of
from ..base import Pattern, ScoreInput, ScoreItem


@dataclass(frozen=True)
class YuxiContext:
    """What the patterns read: the input, the resolved options and one decomposition."""

    inp: ScoreInput
    opts: Mapping[str, Any]
    decomposition: Decomposition

    @property
    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand, melds included (a kong as four)."""
        return self.inp.hand.all_tiles()

    @property
    def single_suit(self) -> bool:
        tiles = self.all_tiles
        return all(is_suited(t) for t in tiles) and len({suit_of(t) for t in tiles}) == 1

    @property
    def seven_pairs(self) -> bool:
        return self.decomposition.form == "seven_pairs"

    @property
    def quads(self) -> int:
        """Seven pairs only: kinds held four times (each counts as two pairs)."""
        return self.decomposition.quads

    @property
    def all_pungs(self) -> bool:
        d = self.decomposition
        return d.form == "standard" and all(g.is_pung_like for g in d.sets)

    @property
    def four_wind_sets(self) -> bool:
        d = self.decomposition
        return d.form == "standard" and {g.first for g in d.sets if g.is_pung_like} >= set(WINDS)


class YuxiPattern(Pattern[YuxiContext]):
    """One row of the payout table; ``value`` is its multiplier. ``hand_shape`` marks rows about
    the tiles themselves (rather than how or when the hand was won): with the option
    ``basic_discard_lifted_by="hand_pattern"`` only these let a hand be won on a discard."""

    hand_shape: ClassVar[bool] = False


class AllTriplets(YuxiPattern):
    """碰碰胡 ×2: four pungs or kongs and a pair. Four Great Blessings already is one and does not
    also score it unless ``blessings_with_triplets``."""

    name, value, label, label_zh, hand_shape = "all_triplets", 2, "All Triplets", "碰碰胡", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.all_pungs and (ctx.opts["blessings_with_triplets"] or not ctx.four_wind_sets)


class FullFlush(YuxiPattern):
    """清一色 ×2: every tile from one suit. Inside Pure Triple Dragon Seven Pairs it is not
    counted again (that row is worth its own ×32)."""

    name, value, label, label_zh, hand_shape = "full_flush", 2, "Full Flush", "清一色", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.single_suit and not (ctx.seven_pairs and ctx.quads == 3)


class SevenPairs(YuxiPattern):
    """小七对 ×2: seven pairs, no declared meld, no four of a kind."""

    name, value, label, label_zh, hand_shape = "seven_pairs", 2, "Seven Pairs", "小七对", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 0


class DragonSevenPairs(YuxiPattern):
    """龙七对 ×4: seven pairs with one four of a kind counted as two pairs (replaces Seven Pairs)."""

    name, value, label, label_zh, hand_shape = "dragon_seven_pairs", 4, "Dragon Seven Pairs", "龙七对", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 1


class DoubleDragonSevenPairs(YuxiPattern):
    """双龙七对 ×8: seven pairs with two fours of a kind."""

    name, value, label, label_zh, hand_shape = (
        "double_dragon_seven_pairs",
        8,
        "Double Dragon Seven Pairs",
        "双龙七对",
        True,
    )

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 2


class TripleDragonSevenPairs(YuxiPattern):
    """三龙七对 ×16: seven pairs with three fours of a kind, not all one suit."""

    name, value, label, label_zh, hand_shape = (
        "triple_dragon_seven_pairs",
        16,
        "Triple Dragon Seven Pairs",
        "三龙七对",
        True,
    )

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 3 and not ctx.single_suit


class PureTripleDragonSevenPairs(YuxiPattern):
    """清三龙七对 ×32: Triple Dragon Seven Pairs in one suit (replaces Full Flush and Triple Dragon)."""

    name, value, label, label_zh, hand_shape = (
        "pure_triple_dragon_seven_pairs",
        32,
        "Pure Triple Dragon Seven Pairs",
        "清三龙七对",
        True,
    )

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 3 and ctx.single_suit


class FourGreatBlessings(YuxiPattern):
    """大四喜 ×32: pungs or kongs of all four winds."""

    name, value, label, label_zh, hand_shape = "four_great_blessings", 32, "Four Great Blessings", "大四喜", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.four_wind_sets


class TenOldMen(YuxiPattern):
    """十老头 ×2: the winner's first ten discards were honours with no pung or kong by others.
    The photo cannot show discards: the table states it with ``win.ten_old_men``."""

    name, value, label, label_zh = "ten_old_men", 2, "Ten Old Men", "十老头"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.ten_old_men


class FlowerBloom(YuxiPattern):
    """杠上花 ×2: a self-drawn win on a kong's replacement tile or on a bloom tile taken instead."""

    name, value, label, label_zh = "flower_bloom", 2, "Flower Bloom (Kong on Flower)", "杠上花"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.after_kong and ctx.inp.win.self_draw


class DoubleGangOnFlower(YuxiPattern):
    """双杠上花 ×2, on top of Flower Bloom: the self-drawn winning tile came after two kongs
    declared back to back (``win.double_kong``, which needs ``win.after_kong``)."""

    name, value, label, label_zh = "double_gang_on_flower", 2, "Double Gang on Flower", "双杠上花"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.double_kong and ctx.inp.win.self_draw


class KongDiscardWin(YuxiPattern):
    """杠上炮 ×2: won on the tile a player discarded just after declaring a kong
    (``win.after_kong`` with a discard win)."""

    name, value, label, label_zh = "kong_discard_win", 2, "Kong Discard Win", "杠上炮"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.after_kong and not ctx.inp.win.self_draw


class RobbingAKong(YuxiPattern):
    """抢杠胡 ×2: won on the tile another player was adding to a kong."""

    name, value, label, label_zh = "robbing_a_kong", 2, "Robbing a Kong", "抢杠胡"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.robbed_kong


class HeavenlyWin(YuxiPattern):
    """天胡 ×32: the dealer wins on the starting hand (``win.first_turn``, dealer, self-draw)."""

    name, value, label, label_zh = "heavenly_win", 32, "Heavenly Win", "天胡"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.first_turn and ctx.inp.is_dealer and ctx.inp.win.self_draw


class EarthlyWin(YuxiPattern):
    """地胡 ×32: a non-dealer wins on the dealer's first discard (``win.first_turn``, discard from
    East); with ``earthly_self_draw`` also a non-dealer's self-draw on its first draw."""

    name, value, label, label_zh = "earthly_win", 32, "Earthly Win", "地胡"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        win = ctx.inp.win
        if not win.first_turn or ctx.inp.is_dealer:
            return False
        if win.self_draw:
            return bool(ctx.opts["earthly_self_draw"])
        return win.from_seat == "E" and not win.robbed_kong


PATTERNS: tuple[YuxiPattern, ...] = (
    AllTriplets(),
    FullFlush(),
    SevenPairs(),
    DragonSevenPairs(),
    DoubleDragonSevenPairs(),
    TripleDragonSevenPairs(),
    PureTripleDragonSevenPairs(),
    FourGreatBlessings(),
    TenOldMen(),
    FlowerBloom(),
    DoubleGangOnFlower(),
    KongDiscardWin(),
    RobbingAKong(),
    HeavenlyWin(),
    EarthlyWin(),
)

BASIC_WIN = ScoreItem("basic_win", "Basic Win", "平胡", 1)
