"""The hand engine: pure Python, no I/O, depends on nothing else in the project.

Start here::

    from engine import parse_tiles, format_tiles, decompose, is_winning, winning_tiles, WildSpec

    hand = parse_tiles("123m456p789s11222z")          # tiles are ints 0-41 (see engine.tiles)
    is_winning(hand)                                  # True
    [str(d) for d in decompose(hand)]                 # every arrangement
    winning_tiles(parse_tiles("123m456p789s1122z"))   # waits of a hand one tile short

    # wilds: every copy of these kinds in the hand is a wild
    wilds = WildSpec(frozenset(parse_tiles("3s4s")))
    decompose(parse_tiles("123m456p78s11z22z34s"), wilds=wilds)[0].substitutions

    # scoring under a rule set, through the JSON contract shared with ``mjc`` and the HTTP API
    from engine.contract import score
    score({"variant": "ningxia", "winner": "S", "win": {"by": "self_draw"},
           "hand": {"concealed": "123m456p789s11z333z", "winning_tile": "3z"}})

Modules: :mod:`engine.tiles` (notation), :mod:`engine.tilesets`, :mod:`engine.seats`,
:mod:`engine.melds`, :mod:`engine.hand`, :mod:`engine.decompose`, :mod:`engine.waits`,
:mod:`engine.rules` (one package per rule set), :mod:`engine.contract` (JSON in, JSON out).
"""

from .decompose import NO_WILDS, Decomposition, Group, WildSpec, decompose, is_winning, is_winning_counts
from .errors import MahjongError
from .hand import Hand
from .melds import Meld, MeldKind
from .tiles import format_tiles, parse_tile, parse_tiles, tile_str
from .tilesets import HEFEI_84, STANDARD_136, WITH_FLOWERS_144, TileSet
from .waits import has_single_winning_tile, wait_shapes, winning_tiles

__all__ = [
    "NO_WILDS",
    "Decomposition",
    "Group",
    "WildSpec",
    "decompose",
    "is_winning",
    "is_winning_counts",
    "MahjongError",
    "Hand",
    "Meld",
    "MeldKind",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
    "tile_str",
    "HEFEI_84",
    "STANDARD_136",
    "WITH_FLOWERS_144",
    "TileSet",
    "has_single_winning_tile",
    "wait_shapes",
    "winning_tiles",
]
