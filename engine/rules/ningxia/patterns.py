"""The rows of Ningxia's flat payout table as :class:`Pattern` objects reading a
:class:`NingxiaContext` (one reading of the hand and how it was won)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...decompose import Decomposition
from ..base import Pattern


@dataclass(frozen=True)
class NingxiaContext:
    """What the flat patterns read: one reading of the hand and how it was won."""

    decomposition: Decomposition
    self_draw: bool


class FlatWin(Pattern[NingxiaContext]):
    """A row of the payout table: ``each`` from every other player on a self-draw, ``discard``
    from the discarder alone."""

    each: ClassVar[int]
    discard: ClassVar[int]

    def value_for(self, ctx: NingxiaContext) -> int:
        return self.each if ctx.self_draw else self.discard


class StandardWin(FlatWin):
    """'Standard Win: 4 melds + 1 pair — 2 points from each other player / 3 points' from the discarder."""

    name = "standard_win"
    label = "Standard win"
    label_zh = "平胡"
    each = 2
    discard = 3

    def is_condition_met(self, ctx: NingxiaContext) -> bool:
        return ctx.decomposition.form == "standard"


class SevenPairs(FlatWin):
    """'Seven Pairs: exactly 7 pairs — 6 points from each other player / 9 points'."""

    name = "seven_pairs"
    label = "Seven pairs"
    label_zh = "七对"
    each = 6
    discard = 9

    def is_condition_met(self, ctx: NingxiaContext) -> bool:
        return ctx.decomposition.form == "seven_pairs" and ctx.decomposition.quads == 0


class DragonSevenPairs(FlatWin):
    """'Dragon Seven Pairs: six pairs plus one four-of-a-kind — 10 points from each / 15 points'.
    Two fours of a kind pay the same (the table has no bigger row)."""

    name = "dragon_seven_pairs"
    label = "Dragon seven pairs"
    label_zh = "龙七对"
    each = 10
    discard = 15

    def is_condition_met(self, ctx: NingxiaContext) -> bool:
        return ctx.decomposition.form == "seven_pairs" and ctx.decomposition.quads >= 1


PATTERNS: tuple[FlatWin, ...] = (StandardWin(), SevenPairs(), DragonSevenPairs())
