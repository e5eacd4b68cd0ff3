"""Waits: which tiles complete a hand, and the shape of the wait in a won hand.

Wait shapes (for the winning tile inside one group of a decomposition):

* ``edge`` (邊張) — a chow at the end of the suit completed by its inner tile: 12 waiting 3,
  89 waiting 7. The ends are the tile set's lowest and highest ranks, so with 1s and 9s absent
  (Hefei) 23 waiting 4 and 78 waiting 6 are edge waits.
* ``closed`` (嵌張) — the middle of a chow: 13 waiting 2.
* ``two_sided`` (兩面) — either end of an open chow: 34 waiting 2 or 5.
* ``single`` (單騎) — the pair: a single tile waiting for its mate (seven pairs too).
* ``double_pung`` (雙碰) — a pung completed while the hand waited on two pairs.
* ``thirteen_orphans`` — the thirteen orphans form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .decompose import NO_WILDS, Decomposition, WildSpec, is_winning
from .melds import Meld
from .tiles import Tile
from .tilesets import STANDARD_136, TileSet

WaitShape = Literal["edge", "closed", "two_sided", "single", "double_pung", "thirteen_orphans"]


def winning_tiles(
    concealed: Sequence[Tile],
    melds: Sequence[Meld] = (),
    *,
    wilds: WildSpec = NO_WILDS,
    tileset: TileSet = STANDARD_136,
    visible: Sequence[Tile] = (),
    forms=("standard", "seven_pairs", "thirteen_orphans"),
) -> list[Tile]:
    """Kinds that complete a hand one tile short (wild kinds included when they complete it).

    A kind is left out when every copy of it is already in the hand, its melds or ``visible``
    (an indicator, say): it cannot be drawn.
    """
    held = [0] * 42
    for tile in [*concealed, *visible]:
        held[tile] += 1
    for meld in melds:
        for tile in meld.tiles:
            held[tile] += 1
    out = []
    candidates = list(tileset.kinds) + sorted(k for k in wilds.kinds if k >= 34 and tileset.copies[k])
    for kind in candidates:
        if held[kind] >= tileset.copies[kind]:
            continue
        if is_winning([*concealed, kind], melds, wilds=wilds, forms=forms):
            out.append(kind)
    return out


def wait_shapes(
    decomposition: Decomposition,
    winning_tile: Tile,
    *,
    tileset: TileSet = STANDARD_136,
    winning_tile_is_wild: bool = False,
) -> set[WaitShape]:
    """Every shape the winning tile can have in ``decomposition``.

    The winning tile may sit in any concealed group that holds its kind (or, when it is a wild,
    any concealed group with a wild slot); each such placement gives a shape.
    """
    if decomposition.form == "thirteen_orphans":
        return {"thirteen_orphans"}
    if decomposition.form == "seven_pairs":
        return {"single"}
    shapes: set[WaitShape] = set()
    lo, hi = tileset.min_rank, tileset.max_rank
    for group in decomposition.groups:
        if group.is_declared:
            continue
        if winning_tile_is_wild:
            slots = set(group.wilds)
        else:
            natural = list(group.tiles)
            for w in group.wilds:
                natural.remove(w)
            slots = {winning_tile} if winning_tile in natural else set()
        for tile in slots:
            shapes.add(_shape(group.kind, group.tiles, tile, lo, hi))
    return shapes


def _shape(kind: str, tiles: tuple[Tile, ...], tile: Tile, lo: int, hi: int) -> WaitShape:
    if kind == "pair":
        return "single"
    if kind == "pung":
        return "double_pung"
    first = tiles[0]
    first_rank = first % 9 + 1
    if tile == first + 1:
        return "closed"
    if tile == first and first_rank + 2 == hi:
        return "edge"
    if tile == first + 2 and first_rank == lo:
        return "edge"
    return "two_sided"


def has_single_winning_tile(
    concealed: Sequence[Tile],
    winning_tile: Tile,
    melds: Sequence[Meld] = (),
    *,
    wilds: WildSpec = NO_WILDS,
    tileset: TileSet = STANDARD_136,
    count_wild_kinds: bool = False,
) -> bool:
    """Was exactly one kind able to complete the hand before ``winning_tile`` arrived?

    Wild kinds complete almost any ready hand; unless ``count_wild_kinds`` they are not counted.
    """
    before = list(concealed)
    before.remove(winning_tile)
    kinds = winning_tiles(before, melds, wilds=wilds, tileset=tileset)
    if not count_wild_kinds:
        kinds = [k for k in kinds if k not in wilds.kinds or k == winning_tile]
    return len(kinds) == 1
