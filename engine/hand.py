"""A hand as the table sees it.

``Hand.concealed`` holds every tile not in a declared meld — the winning tile included when the
hand is complete. ``melds`` are the declared melds, ``flowers`` the flowers set aside, and
``winning_tile`` the tile that completed the hand (``None`` for a hand that is still waiting).

Tile count rule: ``len(concealed) + 3 * len(melds)`` is 14 for a complete hand and 13 for a
waiting one. Kongs hold a fourth tile that does not count (so the physical count is 14 plus one
per kong); flowers never count. Wild flowers (Ningbo, when the indicator is a flower) are kept in
``concealed`` and do count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import MahjongError, TileCountError, TileSetError
from .melds import Meld
from .tiles import Tile, format_tiles, is_flower, parse_tile, parse_tiles, tile_str
from .tilesets import TileSet


@dataclass(frozen=True)
class Hand:
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    winning_tile: Tile | None = None

    @classmethod
    def parse(
        cls,
        concealed: str,
        melds: Iterable[Meld] = (),
        flowers: str = "",
        winning_tile: str | None = None,
    ) -> Hand:
        """``Hand.parse("123m456p789s1122z", winning_tile="2z")``."""
        return cls(
            tuple(parse_tiles(concealed)),
            tuple(melds),
            tuple(parse_tiles(flowers)) if flowers else (),
            parse_tile(winning_tile) if winning_tile else None,
        )

    @property
    def counted_tiles(self) -> int:
        """Concealed tiles plus three per meld: 14 when complete, 13 when waiting."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def is_concealed(self) -> bool:
        """True when every declared meld is a concealed kong (門前清)."""
        return all(m.is_concealed for m in self.melds)

    def all_tiles(self) -> list[Tile]:
        """Every physical tile: concealed, all meld tiles, flowers."""
        out = list(self.concealed)
        for meld in self.melds:
            out.extend(meld.tiles)
        out.extend(self.flowers)
        return out

    def without_winning_tile(self) -> Hand:
        """The 13-count hand before the winning tile arrived."""
        if self.winning_tile is None:
            return self
        rest = list(self.concealed)
        rest.remove(self.winning_tile)
        return Hand(tuple(rest), self.melds, self.flowers, None)

    def validate(
        self,
        tileset: TileSet,
        *,
        complete: bool = True,
        wild_kinds: frozenset[Tile] = frozenset(),
        extra_visible: Iterable[Tile] = (),
    ) -> None:
        """Check the hand against ``tileset`` and the count rule.

        ``complete``: 14-count with a winning tile among the concealed tiles (else 13-count).
        ``wild_kinds``: wild kinds (a wild flower may then sit among the concealed tiles).
        ``extra_visible``: other tiles of the set known to be out (an indicator), counted for copies.
        Raises :class:`TileSetError`, :class:`TooManyCopiesError`, :class:`TileCountError`.
        """
        for tile in self.concealed:
            if is_flower(tile) and tile not in wild_kinds:
                raise TileSetError(
                    f"flower {tile_str(tile)} is among the concealed tiles; put flowers under 'flowers'",
                    field="hand.concealed",
                )
        for tile in self.flowers:
            if not is_flower(tile):
                raise TileSetError(
                    f"{tile_str(tile)} is not a flower; only 1f-8f go under 'flowers'", field="hand.flowers"
                )
        try:
            tileset.check(self.all_tiles())
        except MahjongError as err:
            err.field = err.field or "hand"
            raise
        extra = list(extra_visible)
        if extra:
            try:
                tileset.check([*self.all_tiles(), *extra], what="the hand with the face-up indicator tiles")
            except MahjongError as err:
                err.field = "indicators"
                raise
        want = 14 if complete else 13
        if self.counted_tiles != want:
            kongs = sum(1 for m in self.melds if m.is_kong)
            raise TileCountError(
                f"the hand has {self.counted_tiles} tiles counting each meld as 3 "
                f"({len(self.concealed)} concealed + {len(self.melds)} melds); a "
                f"{'complete' if complete else 'waiting'} hand needs {want}"
                + (f" (physically {want + kongs} with {kongs} kong(s))" if kongs else ""),
                field="hand.concealed",
            )
        if complete:
            if self.winning_tile is None:
                raise TileCountError("a complete hand needs its winning tile", field="hand.winning_tile")
            if self.winning_tile not in self.concealed:
                raise TileCountError(
                    f"the winning tile {tile_str(self.winning_tile)} must also be among the concealed tiles",
                    field="hand.winning_tile",
                )

    def __str__(self) -> str:
        parts = [format_tiles(self.concealed)]
        parts += [str(m) for m in self.melds]
        if self.flowers:
            parts.append(f"flowers:{format_tiles(self.flowers)}")
        if self.winning_tile is not None:
            parts.append(f"win:{tile_str(self.winning_tile)}")
        return " ".join(parts)
