"""Lucky-catch fishing (钓鱼): which seat a fish tile names and what the catches double."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...melds import MeldKind
from ...seats import SEATS, Seat
from ...tiles import Tile, is_suited, tile_str
from ..base import ScoreInput
from .errors import NanningInputError

#: Honour tiles and the seat they name: winds their own seat, Red → East, Green → South, White → West.
_HONOUR_SEAT: dict[str, Seat] = {"1z": "E", "2z": "S", "3z": "W", "4z": "N", "7z": "E", "6z": "S", "5z": "W"}


def fish_seat(tile: Tile) -> Seat:
    """The seat a fish tile names, counted from the dealer: ranks 1 5 9 → East, 2 6 → South,
    3 7 → West, 4 8 → North; winds their seat; Red → East, Green → South, White → West."""
    if is_suited(tile):
        return SEATS[(tile % 9) % 4]
    return _HONOUR_SEAT[tile_str(tile)]


@dataclass(frozen=True)
class Fish:
    """The lucky catch of one win: the tiles, whether fishing happens, and each seat's catches."""

    tiles: tuple[Tile, ...]
    eligible: bool
    in_hand: int
    catches: dict[Seat, int]
    reason: str

    def factor(self, winner: Seat, payer: Seat) -> int:
        """×2 for every fish naming the winner or the payer."""
        return 2 ** (self.catches[winner] + self.catches[payer]) if self.eligible else 1

    def to_dict(self, winner: Seat) -> dict:
        """The ``fish`` output: ``factor[p]`` is the multiplier between the winner and seat ``p``;
        the winner's own entry is its own catches' factor."""
        matches = [{"tile": tile_str(t), "seat": fish_seat(t)} for t in self.tiles] if self.eligible else []
        return {
            "tiles": [tile_str(t) for t in self.tiles],
            "matches": matches,
            "factor": {
                s: (2 ** self.catches[s] if self.eligible else 1) if s == winner else self.factor(winner, s)
                for s in SEATS
            },
            "eligible": self.eligible,
            "tiles_in_hand": self.in_hand,
            "reason": self.reason,
        }


def tiles_in_hand(inp: ScoreInput, opts: Mapping[str, Any]) -> int:
    """Tiles the winner holds outside exposed melds: the concealed tiles (winning tile included)
    plus four per concealed kong when ``fish_concealed_kongs``."""
    kongs = sum(1 for m in inp.hand.melds if m.kind == MeldKind.CONCEALED_KONG)
    return len(inp.hand.concealed) + (4 * kongs if opts["fish_concealed_kongs"] else 0)


def go_fishing(inp: ScoreInput, opts: Mapping[str, Any]) -> Fish:
    """Decide whether fishing happens and count the catches per seat."""
    tiles = inp.indicators.fish
    if len(tiles) > opts["max_fish"]:
        raise NanningInputError(
            f"{len(tiles)} fish tiles given; at most {opts['max_fish']} are flipped", field="indicators.fish"
        )
    held = tiles_in_hand(inp, opts)
    catches = {s: 0 for s in SEATS}
    if inp.win.last_tile:
        return Fish(tiles, False, held, catches, "last tile: no wall tiles remain to flip")
    if held < opts["fish_min_tiles"]:
        return Fish(
            tiles,
            False,
            held,
            catches,
            f"the winner holds {held} tiles outside exposed melds (fewer than {opts['fish_min_tiles']})",
        )
    for tile in tiles:
        catches[fish_seat(tile)] += 1
    reason = "no fish tiles flipped" if not tiles else f"the winner holds {held} tiles outside exposed melds"
    return Fish(tiles, True, held, catches, reason)
