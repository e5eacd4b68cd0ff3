"""The physical tile sets each rule set plays with, and checks against them.

* ``STANDARD_136``: 34 kinds × 4 (Ningxia, Nanning, Yuxi).
* ``WITH_FLOWERS_144``: the 136 plus the eight flowers, one each (Ningbo).
* ``HEFEI_84``: ranks 2-8 of the three suits only, × 4 (no 1s, 9s, honours or flowers).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import TileSetError, TooManyCopiesError
from .tiles import NUM_ALL, Tile, name_en, tile_str


@dataclass(frozen=True)
class TileSet:
    """Which kinds exist and how many copies of each (``copies[k]`` for every kind 0-41)."""

    name: str
    copies: tuple[int, ...]

    @property
    def size(self) -> int:
        return sum(self.copies)

    def contains(self, tile: Tile) -> bool:
        return self.copies[tile] > 0

    @property
    def kinds(self) -> tuple[Tile, ...]:
        """The playing kinds (0-33) present in this set."""
        return tuple(k for k in range(34) if self.copies[k])

    @property
    def min_rank(self) -> int:
        """Lowest suited rank in the set (2 for Hefei): decides what an edge wait is."""
        return min((k % 9 + 1 for k in range(27) if self.copies[k]), default=1)

    @property
    def max_rank(self) -> int:
        return max((k % 9 + 1 for k in range(27) if self.copies[k]), default=9)

    def check(self, tiles: Iterable[Tile], *, what: str = "the hand") -> None:
        """Raise if any tile is outside the set or appears more often than the set holds."""
        seen = [0] * NUM_ALL
        for tile in tiles:
            if not self.copies[tile]:
                raise TileSetError(
                    f"{tile_str(tile)} ({name_en(tile)}) is not in the {self.name} set; remove it or check the photo"
                )
            seen[tile] += 1
            if seen[tile] > self.copies[tile]:
                raise TooManyCopiesError(
                    f"{what} holds {seen[tile]} copies of {tile_str(tile)} but the {self.name} set has only "
                    f"{self.copies[tile]}; one of them was misread"
                )


STANDARD_136 = TileSet("136-tile", tuple([4] * 34 + [0] * 8))
WITH_FLOWERS_144 = TileSet("144-tile", tuple([4] * 34 + [1] * 8))
HEFEI_84 = TileSet(
    "84-tile Hefei",
    tuple((4 if k < 27 and 1 <= k % 9 <= 7 else 0) for k in range(NUM_ALL)),
)
