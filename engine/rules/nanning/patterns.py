"""Nanning Lucky Catch (南宁麻将): the rows of the guide's payout table as scoring patterns.

The guide's "Points and Payout Table" gives each row a self-draw cell (what *each* of the three
opponents pays) and/or a discard cell (what the discarder pays)::

    Self-Draw (自摸)            each player pays 3
    Discard Win (放炮)          discarder pays 2
    Concealed Hand (门清)       self-draw only: each player pays 4
    "All Simples" (清一色)      6 / 9      (a one-suit hand: full flush)
    All Triplets (碰碰胡)       6 / 9
    Seven Pairs (七小对)        8 / 12
    Big Seven Pairs (大七对)    16 / 24
    Thirteen Orphans (十三幺)   24 / 36
    All Honors (字一色)         24 / 36
    Heavenly Win (天胡)         24 / (36: unreachable, see docs/rules/nanning.md)
    Earthly Win (地胡)          24 / 36
    Global Win (全求人)         discard only: 18
    Last Tile Self-Draw (海底捞月) 6
    Last Tile Discard (海底炮)  9

A pattern holds for a win when its hand condition holds *and* the (possibly overridden) table
has a cell for the win type. :data:`PATTERNS` lists them in table order; :data:`DEFAULT_TABLE`
is the guide's table.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from ...decompose import Decomposition
from ...tiles import is_honour, is_suited
from ..base import Pattern, ScoreInput

Cell = Literal["self_draw", "discard"]
CELLS: tuple[Cell, ...] = ("self_draw", "discard")


@dataclass(frozen=True)
class HandContext:
    """One decomposition of the winner's hand, with the win and the payout table in force."""

    inp: ScoreInput
    decomposition: Decomposition
    table: Mapping[str, Mapping[str, int]]

    @property
    def cell(self) -> Cell:
        return "self_draw" if self.inp.win.self_draw else "discard"

    def table_value(self, row: str) -> int | None:
        return self.table.get(row, {}).get(self.cell)

    @property
    def tiles(self) -> list[int]:
        """Every tile kind of the hand, declared melds included (a kong counts four)."""
        return self.decomposition.stands_for


class NanningPattern(Pattern[HandContext]):
    """A table row: ``cells`` holds the guide's values; ``plain`` marks the two basic rows that
    only pay when no other row applies (under ``combine: "add"``)."""

    cells: ClassVar[dict[str, int]]
    plain: ClassVar[bool] = False

    def is_condition_met(self, ctx: HandContext) -> bool:
        return ctx.table_value(self.name) is not None and self.holds(ctx)

    @abstractmethod
    def holds(self, ctx: HandContext) -> bool:
        """The row's hand condition, apart from the win type."""

    def value_for(self, ctx: HandContext) -> int:
        value = ctx.table_value(self.name)
        assert value is not None
        return value


class PlainSelfDraw(NanningPattern):
    """'Self-Draw (自摸): Win by drawing the winning tile yourself. Each player pays 3 points.'"""

    name = "self_draw"
    value = 3
    label = "Self-draw"
    label_zh = "自摸"
    cells = {"self_draw": 3}
    plain = True

    def holds(self, ctx: HandContext) -> bool:
        return True


class PlainDiscard(NanningPattern):
    """'Discard Win (放炮): Win by claiming a discarded tile. Discarding player pays 2 points.'"""

    name = "discard_win"
    value = 2
    label = "Discard win"
    label_zh = "放炮"
    cells = {"discard": 2}
    plain = True

    def holds(self, ctx: HandContext) -> bool:
        return True


class ConcealedHand(NanningPattern):
    """'Concealed Hand (门清): without any exposed melds. Self-draw required: each pays 4.'
    A concealed kong is not an exposed meld."""

    name = "concealed_hand"
    value = 4
    label = "Concealed hand"
    label_zh = "门清"
    cells = {"self_draw": 4}

    def holds(self, ctx: HandContext) -> bool:
        return ctx.inp.hand.is_concealed


class FullFlush(NanningPattern):
    """'All Simples (清一色): a hand made entirely of tiles from one suit.' — 6 / 9.
    The Chinese name and the description both say one suit (full flush); no honours."""

    name = "full_flush"
    value = 6
    label = "Full flush (the guide's 'All Simples')"
    label_zh = "清一色"
    cells = {"self_draw": 6, "discard": 9}

    def holds(self, ctx: HandContext) -> bool:
        tiles = ctx.tiles
        return all(is_suited(t) for t in tiles) and len({t // 9 for t in tiles}) == 1


class AllTriplets(NanningPattern):
    """'All Triplets (碰碰胡): only triplets and a pair.' — 6 / 9. Kongs count as triplets."""

    name = "all_triplets"
    value = 6
    label = "All triplets"
    label_zh = "碰碰胡"
    cells = {"self_draw": 6, "discard": 9}

    def holds(self, ctx: HandContext) -> bool:
        d = ctx.decomposition
        return d.form == "standard" and all(g.is_pung_like for g in d.sets)


class SevenPairs(NanningPattern):
    """'Seven Pairs (七小对): seven unique pairs.' — 8 / 12. With a four of a kind it is Big Seven
    Pairs instead (never both)."""

    name = "seven_pairs"
    value = 8
    label = "Seven pairs"
    label_zh = "七小对"
    cells = {"self_draw": 8, "discard": 12}

    def holds(self, ctx: HandContext) -> bool:
        d = ctx.decomposition
        return d.form == "seven_pairs" and d.quads == 0


class BigSevenPairs(NanningPattern):
    """'Big Seven Pairs (大七对): seven pairs with at least one quad.' — 16 / 24."""

    name = "big_seven_pairs"
    value = 16
    label = "Big seven pairs"
    label_zh = "大七对"
    cells = {"self_draw": 16, "discard": 24}

    def holds(self, ctx: HandContext) -> bool:
        d = ctx.decomposition
        return d.form == "seven_pairs" and d.quads >= 1


class ThirteenOrphans(NanningPattern):
    """'Thirteen Orphans (十三幺)' — 24 / 36."""

    name = "thirteen_orphans"
    value = 24
    label = "Thirteen orphans"
    label_zh = "十三幺"
    cells = {"self_draw": 24, "discard": 36}

    def holds(self, ctx: HandContext) -> bool:
        return ctx.decomposition.form == "thirteen_orphans"


class AllHonours(NanningPattern):
    """'All Honors (字一色): only honour tiles.' — 24 / 36 (standard form or seven pairs)."""

    name = "all_honours"
    value = 24
    label = "All honours"
    label_zh = "字一色"
    cells = {"self_draw": 24, "discard": 36}

    def holds(self, ctx: HandContext) -> bool:
        return all(is_honour(t) for t in ctx.tiles)


class HeavenlyWin(NanningPattern):
    """'Heavenly Win (天胡): immediately after the dealer draws the first tile.' — 24. The
    guide's discard cell (36) cannot happen: the dealer wins on its own dealt tiles."""

    name = "heavenly_win"
    value = 24
    label = "Heavenly win"
    label_zh = "天胡"
    cells = {"self_draw": 24}

    def holds(self, ctx: HandContext) -> bool:
        return ctx.inp.is_dealer and ctx.inp.win.first_turn


class EarthlyWin(NanningPattern):
    """'Earthly Win (地胡): a non-dealer on the first tile they draw.' — 24 / 36 (the discard cell:
    a non-dealer winning on a discard before its first draw)."""

    name = "earthly_win"
    value = 24
    label = "Earthly win"
    label_zh = "地胡"
    cells = {"self_draw": 24, "discard": 36}

    def holds(self, ctx: HandContext) -> bool:
        return not ctx.inp.is_dealer and ctx.inp.win.first_turn


class GlobalWin(NanningPattern):
    """'Global Win (全求人): every set must be open, must win from discard and a single wait.' —
    discard 18. Four declared melds, none a concealed kong; the last tile then always pairs the
    single tile left, so the single wait follows."""

    name = "global_win"
    value = 18
    label = "Global win (all sets open)"
    label_zh = "全求人"
    cells = {"discard": 18}

    def holds(self, ctx: HandContext) -> bool:
        melds = ctx.inp.hand.melds
        return len(melds) == 4 and not any(m.is_concealed for m in melds)


class LastTileSelfDraw(NanningPattern):
    """'Last Tile Self-Draw (海底捞月): drawing the last tile in the wall.' — self-draw 6."""

    name = "last_tile_self_draw"
    value = 6
    label = "Last tile self-draw"
    label_zh = "海底捞月"
    cells = {"self_draw": 6}

    def holds(self, ctx: HandContext) -> bool:
        return ctx.inp.win.last_tile


class LastTileDiscard(NanningPattern):
    """'Last Tile Discard (海底炮): claiming the last discarded tile in the game.' — discard 9."""

    name = "last_tile_discard"
    value = 9
    label = "Last tile discard"
    label_zh = "海底炮"
    cells = {"discard": 9}

    def holds(self, ctx: HandContext) -> bool:
        return ctx.inp.win.last_tile


PATTERNS: tuple[NanningPattern, ...] = (
    PlainSelfDraw(),
    PlainDiscard(),
    ConcealedHand(),
    FullFlush(),
    AllTriplets(),
    SevenPairs(),
    BigSevenPairs(),
    ThirteenOrphans(),
    AllHonours(),
    HeavenlyWin(),
    EarthlyWin(),
    GlobalWin(),
    LastTileSelfDraw(),
    LastTileDiscard(),
)

DEFAULT_TABLE: dict[str, dict[str, int]] = {p.name: dict(p.cells) for p in PATTERNS}
