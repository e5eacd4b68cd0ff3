"""Hefei scoring patterns (嘴): the per-hand context and one small :class:`Pattern` per table row.

The rule text has two tables, the general one and the special hands; every row is a pattern
below, and the points of every pattern met are summed (a special hand adds to the general rows
it also meets; within the seven-pairs family only the highest tier counts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...decompose import Decomposition
from ..base import Pattern

EIGHT = 8  # a win needs at least 8 tiles of one suit (kongs count 4)
STREAK_POINTS = 4  # 庄家的输赢: +4 per consecutive dealer win or loss (on a discard: option)
TEN_SAME = 10  # 10同


@dataclass(frozen=True)
class HefeiContext:
    """One reading of a won hand, with the facts the patterns read.

    ``exposed``: index in ``decomposition.groups`` of the group the winning discard completed
    (that group is not concealed); ``None`` on a self-draw. ``suit_counts``: tiles per suit, melds
    included (a kong counts 4). ``streak_points``: points per consecutive dealer hand (4, or the
    ``dealer_streak_on_discard`` option on a discard). ``rank_counts``: tiles per rank 2-8 across the suits on the 同
    basis (concealed tiles, or all tiles, per option). ``concealed_pung_kinds``: pungs formed in
    hand and not completed by the discard; ``concealed_kong_kinds``: declared concealed kongs.
    """

    decomposition: Decomposition
    exposed: int | None
    self_draw: bool
    suit_counts: tuple[int, int, int]
    rank_counts: tuple[int, ...]
    single_wait: bool
    concealed_pung_kinds: tuple[int, ...]
    concealed_kong_kinds: tuple[int, ...]
    live_quads: int
    double_sequences: int
    concealed_double_sequences: int
    winner_is_dealer: bool
    dealer_streak: int
    streak_points: int
    last_tile: bool
    first_turn: bool
    opts: Mapping[str, Any]

    @property
    def suits_used(self) -> int:
        return sum(1 for c in self.suit_counts if c)

    @property
    def seven_pairs(self) -> bool:
        return self.decomposition.form == "seven_pairs"

    @property
    def concealed_sets(self) -> tuple[int, ...]:
        """Kinds of concealed pungs and concealed kongs (what 暗刻 counts)."""
        return tuple(sorted(self.concealed_pung_kinds + self.concealed_kong_kinds))

    @property
    def visible_double_sequences(self) -> int:
        return self.double_sequences - self.concealed_double_sequences

    def same_number_points(self) -> int:
        """同: for each rank held 4 or more times across the suits, the tiles beyond the free ones
        (beyond four by default, beyond three under ``same_number_counting = "from_four"``); the
        best rank only, or every rank under ``same_number_ranks = "all"``."""
        free = 4 if self.opts["same_number_counting"] == "beyond_four" else 3
        per_rank = [c - free for c in self.rank_counts if c >= 4 and c > free]
        if not per_rank:
            return 0
        return sum(per_rank) if self.opts["same_number_ranks"] == "all" else max(per_rank)


class HefeiPattern(Pattern[HefeiContext]):
    """A row worth ``value`` points (嘴), or ``value`` per occurrence where :meth:`count` says so."""

    def count(self, ctx: HefeiContext) -> int:
        return 1

    def is_condition_met(self, ctx: HefeiContext) -> bool:
        return self.count(ctx) > 0

    def value_for(self, ctx: HefeiContext) -> int:
        return self.value * self.count(ctx)


# --------------------------------------------------------------------------- the general table


class WinningHand(HefeiPattern):
    """'Winning a Hand — Winning the hand +15 points' (option ``win_points``)."""

    name, value, label, label_zh = "winning_hand", 15, "Winning a hand", "胡"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.opts["win_points"])


class SuitBonus(HefeiPattern):
    """'Suit Bonus (支) — Each additional tile in one suit (after 8 tiles) +1 point per extra tile'."""

    name, value, label, label_zh = "suit_bonus", 1, "Suit bonus", "支"

    def count(self, ctx: HefeiContext) -> int:
        return sum(max(0, c - EIGHT) for c in ctx.suit_counts)


class SingleWait(HefeiPattern):
    """'Single Wait (卡) — Winning by waiting for one specific tile +1 point'."""

    name, value, label, label_zh = "single_wait", 1, "Single wait", "卡"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.single_wait)


class SameNumber(HefeiPattern):
    """'Same Number Bonus (同) — For 4 or more identical tiles across suits +1 point per extra tile'."""

    name, value, label, label_zh = "same_number", 1, "Same number", "同"

    def count(self, ctx: HefeiContext) -> int:
        return ctx.same_number_points()


class ConcealedPung(HefeiPattern):
    """'Concealed Pung (坎) — Each concealed Pung in the hand +1 point'."""

    name, value, label, label_zh = "concealed_pung", 1, "Concealed pung", "坎"

    def count(self, ctx: HefeiContext) -> int:
        return len(ctx.concealed_pung_kinds)


class VisibleDoubleSequence(HefeiPattern):
    """'Double Sequences (双铺子 - Visible) — Two identical sequences +2 points'."""

    name, value, label, label_zh = "double_sequence", 2, "Double sequence", "双铺子"

    def count(self, ctx: HefeiContext) -> int:
        return ctx.visible_double_sequences


class TwoSuitsOnly(HefeiPattern):
    """'Two Suits Only (缺门) — Winning with only two suits +2 points'."""

    name, value, label, label_zh = "two_suits_only", 2, "Two suits only", "缺门"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.suits_used == 2)


class ConcealedDoubleSequence(HefeiPattern):
    """'Double Sequences (双铺子 - Concealed) — Two concealed identical sequences +4 points'."""

    name, value, label, label_zh = "concealed_double_sequence", 4, "Concealed double sequence", "暗双铺子"

    def count(self, ctx: HefeiContext) -> int:
        return ctx.concealed_double_sequences


class ConcealedKong(HefeiPattern):
    """'Concealed Kong (暗杠) — Each concealed Kong +4 points'."""

    name, value, label, label_zh = "concealed_kong", 4, "Concealed kong", "暗杠"

    def count(self, ctx: HefeiContext) -> int:
        return len(ctx.concealed_kong_kinds)


class FourOfAKind(HefeiPattern):
    """'Four of a Kind Bonus (活) — Four identical tiles without forming a Kong +4 points' (each)."""

    name, value, label, label_zh = "four_of_a_kind", 4, "Four of a kind (no kong)", "活"

    def count(self, ctx: HefeiContext) -> int:
        return ctx.live_quads


class DealerStreak(HefeiPattern):
    """'Dealer Win/Loss (庄家的输赢) — Dealer's score per consecutive win or loss +4 points per round'.

    This item is the dealer's win; the dealer's loss is added to the dealer's own payment by the
    variant (option ``dealer_streak_on_loss``)."""

    name, value, label, label_zh = "dealer_streak", STREAK_POINTS, "Dealer win/loss streak", "庄家的输赢"

    def count(self, ctx: HefeiContext) -> int:
        return ctx.dealer_streak if ctx.winner_is_dealer else 0

    def value_for(self, ctx: HefeiContext) -> int:
        return ctx.streak_points * self.count(ctx)


# --------------------------------------------------------------------------- the special hands table


class SevenPairs(HefeiPattern):
    """'Seven Pairs (七对) — Winning with seven pairs +10 points'."""

    name, value, label, label_zh = "seven_pairs", 10, "Seven pairs", "七对"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.seven_pairs and ctx.decomposition.quads == 0)


class SeaFloorWin(HefeiPattern):
    """'Sea Floor Win (海捞胡牌) — Winning in the "Sea Fishing" phase +15 points' (self-drawn: no
    discards are made in that phase)."""

    name, value, label, label_zh = "sea_floor_win", 15, "Sea floor win", "海捞胡牌"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.last_tile and ctx.self_draw)


class LuxurySevenPairs(HefeiPattern):
    """'Luxury Seven Pairs (豪华七对) — seven pairs where you have one set of four of the same tiles
    +50 points' (instead of the 10 of seven pairs)."""

    name, value, label, label_zh = "luxury_seven_pairs", 50, "Luxury seven pairs", "豪华七对"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.seven_pairs and ctx.decomposition.quads == 1)


class DoubleLuxurySevenPairs(HefeiPattern):
    """'Double Luxury Seven Pairs (双豪华七对) — two sets of four of the same tiles +100 points'
    (three sets of four pay the same: the table stops here)."""

    name, value, label, label_zh = "double_luxury_seven_pairs", 100, "Double luxury seven pairs", "双豪华七对"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.seven_pairs and ctx.decomposition.quads >= 2)


class PureSuit(HefeiPattern):
    """'Pure Suit (清一色) — Winning with only one suit +100 points'."""

    name, value, label, label_zh = "pure_suit", 100, "Pure suit", "清一色"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.suits_used == 1)


class ThreeConsecutivePungs(HefeiPattern):
    """'Three Consecutive Pungs (三连坎) — Three consecutive concealed Pungs +100 points': three
    concealed pungs (or concealed kongs) of one suit with consecutive ranks."""

    name, value, label, label_zh = "three_consecutive_pungs", 100, "Three consecutive concealed pungs", "三连坎"

    def count(self, ctx: HefeiContext) -> int:
        kinds = set(ctx.concealed_sets)
        return int(any(k + 1 in kinds and k + 2 in kinds and k // 9 == (k + 2) // 9 for k in kinds))


class FourConcealedPungs(HefeiPattern):
    """'Four Concealed Pungs (四暗刻) — Four concealed Pungs and a pair +100 points' (concealed
    kongs count as concealed pungs)."""

    name, value, label, label_zh = "four_concealed_pungs", 100, "Four concealed pungs", "四暗刻"

    def count(self, ctx: HefeiContext) -> int:
        return int(len(ctx.concealed_sets) >= 4)


class TenIdenticalTiles(HefeiPattern):
    """'Ten Identical Tiles (10同) — Having more than 10 tiles of the same number +100 points':
    read as ten or more, as the name 10同 says (same basis as 同)."""

    name, value, label, label_zh = "ten_identical_tiles", 100, "Ten identical tiles", "10同"

    def count(self, ctx: HefeiContext) -> int:
        return int(max(ctx.rank_counts) >= TEN_SAME)


class DoubleConcealedDoubleSequences(HefeiPattern):
    """'Double Concealed Double Sequences (双暗双铺子) — Two concealed double sequences +100 points'."""

    name, value, label, label_zh = (
        "double_concealed_double_sequences",
        100,
        "Two concealed double sequences",
        "双暗双铺子",
    )

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.concealed_double_sequences >= 2)


class HeavenlyWin(HefeiPattern):
    """'Heavenly Win (天胡) — Dealer wins with their starting hand +200 points'."""

    name, value, label, label_zh = "heavenly_win", 200, "Heavenly win", "天胡"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.first_turn and ctx.winner_is_dealer and ctx.self_draw)


class EarthlyWin(HefeiPattern):
    """'Earthly Win (地胡) — Non-dealer wins in the first round of draws +150 points' (on its own
    first draw or on a discard of that first round)."""

    name, value, label, label_zh = "earthly_win", 150, "Earthly win", "地胡"

    def count(self, ctx: HefeiContext) -> int:
        return int(ctx.first_turn and not ctx.winner_is_dealer)


GENERAL: tuple[HefeiPattern, ...] = (
    WinningHand(),
    SuitBonus(),
    SingleWait(),
    SameNumber(),
    ConcealedPung(),
    VisibleDoubleSequence(),
    TwoSuitsOnly(),
    ConcealedDoubleSequence(),
    ConcealedKong(),
    FourOfAKind(),
    DealerStreak(),
)
SPECIAL: tuple[HefeiPattern, ...] = (
    SevenPairs(),
    SeaFloorWin(),
    LuxurySevenPairs(),
    DoubleLuxurySevenPairs(),
    PureSuit(),
    ThreeConsecutivePungs(),
    FourConcealedPungs(),
    TenIdenticalTiles(),
    DoubleConcealedDoubleSequences(),
    HeavenlyWin(),
    EarthlyWin(),
)
PATTERNS: tuple[HefeiPattern, ...] = GENERAL + SPECIAL
