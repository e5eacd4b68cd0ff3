"""Declared melds: chow, pung, exposed kong, concealed kong, added kong.

A claimed meld remembers the seat it was claimed from (``from_seat``); a concealed kong has none.
An added kong (加槓) is a claimed pung upgraded with the fourth tile from the hand: it keeps the
seat the pung was claimed from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import MeldError
from .seats import Seat, parse_seat
from .tiles import Tile, format_tiles, is_suited, parse_tiles


class MeldKind(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"  # exposed kong claimed from a discard (明槓)
    CONCEALED_KONG = "concealed_kong"  # 暗槓
    ADDED_KONG = "added_kong"  # 加槓 / 補槓: a pung upgraded with a drawn tile

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG)


@dataclass(frozen=True)
class Meld:
    """One declared meld. ``tiles`` is sorted; ``from_seat`` is the seat a claimed tile came from."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    from_seat: Seat | None = None

    def __post_init__(self) -> None:
        tiles = tuple(sorted(self.tiles))
        object.__setattr__(self, "tiles", tiles)
        text = format_tiles(tiles)
        if any(t >= 34 for t in tiles):
            raise MeldError(f"a {self.kind.value} cannot contain flowers: '{text}'")
        if self.kind == MeldKind.CHOW:
            ok = (
                len(tiles) == 3
                and is_suited(tiles[0])
                and tiles[0] // 9 == tiles[2] // 9
                and (tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2)
            )
            if not ok:
                raise MeldError(f"'{text}' is not a chow: a chow is three consecutive tiles of one suit, like 345p")
        else:
            size = 4 if self.kind.is_kong else 3
            if len(tiles) != size or len(set(tiles)) != 1:
                raise MeldError(
                    f"'{text}' is not a {self.kind.value.replace('_', ' ')}: it needs {size} identical tiles"
                )

    @classmethod
    def parse(cls, kind: str, tiles: str, from_seat: str | None = None) -> Meld:
        """Build a meld from JSON-style fields: ``Meld.parse("pung", "555p", "N")``."""
        try:
            meld_kind = MeldKind(kind)
        except ValueError:
            names = ", ".join(k.value for k in MeldKind)
            raise MeldError(f"unknown meld type {kind!r}: use one of {names}", field="type") from None
        seat = parse_seat(from_seat, field="from") if from_seat is not None else None
        return cls(meld_kind, tuple(parse_tiles(tiles)), seat)

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong keeps the hand concealed."""
        return self.kind == MeldKind.CONCEALED_KONG

    @property
    def is_pung_like(self) -> bool:
        """Pungs and kongs (of any kind) — what 'all pungs' counts."""
        return self.kind != MeldKind.CHOW

    def __str__(self) -> str:
        src = f"<{self.from_seat}" if self.from_seat else ""
        return f"{self.kind.value}:{format_tiles(self.tiles)}{src}"

    def to_dict(self) -> dict:
        out: dict = {"type": self.kind.value, "tiles": format_tiles(self.tiles)}
        if self.from_seat:
            out["from"] = self.from_seat
        return out
