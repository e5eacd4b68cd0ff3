"""Tiles and the compact notation.

A tile *kind* is an ``int`` from 0 to 41:

====== ===================================================== ==========
index  kinds                                                 notation
====== ===================================================== ==========
0-8    characters 1-9 (萬)                                   ``1m``-``9m``
9-17   dots 1-9 (筒)                                         ``1p``-``9p``
18-26  bamboo 1-9 (條)                                       ``1s``-``9s``
27-30  winds East South West North                           ``1z``-``4z``
31-33  dragons White Green Red                               ``5z``-``7z``
34-41  flowers plum orchid chrysanthemum bamboo,
       seasons spring summer autumn winter                   ``1f``-``8f``
====== ===================================================== ==========

The compact notation groups digits before their suit letter: ``123m456p789s1122z15f``.
:func:`parse_tiles` reads it (and Chinese names such as ``一萬 東 中 梅``), :func:`format_tiles`
writes it back in sorted, grouped form. Kinds 0-33 are the 34 playing kinds; flowers are never
part of a meld or pair.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotationError

Tile = int

SUITS = "mpsz"
NUM_KINDS = 34
NUM_ALL = 42

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
HONOURS = WINDS + DRAGONS
FLOWERS = tuple(range(34, 42))
TERMINALS = (0, 8, 9, 17, 18, 26)
ORPHANS = TERMINALS + HONOURS

SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo", "z": "honours", "f": "flowers"}
_HONOUR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
_FLOWER_EN = ("Plum", "Orchid", "Chrysanthemum", "Bamboo", "Spring", "Summer", "Autumn", "Winter")
_NUM_ZH = "一二三四五六七八九"
_SUIT_ZH = {"m": "萬", "p": "筒", "s": "條"}
_HONOUR_ZH = ("東", "南", "西", "北", "白", "發", "中")
_FLOWER_ZH = ("梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬")

# Alternative spellings accepted by parse_tiles for Chinese input.
_ZH_ALIASES = {
    "万": "萬",
    "条": "條",
    "索": "條",
    "饼": "筒",
    "餅": "筒",
    "东": "東",
    "发": "發",
    "兰": "蘭",
    "白板": "白",
    "红中": "中",
    "紅中": "中",
    "发财": "發",
    "發財": "發",
}


def suit_of(tile: Tile) -> str:
    """The suit letter of ``tile``: ``m p s z f``."""
    if 0 <= tile < 27:
        return SUITS[tile // 9]
    if tile < 34:
        return "z"
    return "f"


def rank_of(tile: Tile) -> int:
    """The digit used in the notation: 1-9 for suits, 1-7 for honours, 1-8 for flowers."""
    if tile < 27:
        return tile % 9 + 1
    if tile < 34:
        return tile - 26
    return tile - 33


def is_suited(tile: Tile) -> bool:
    return 0 <= tile < 27


def is_honour(tile: Tile) -> bool:
    return 27 <= tile < 34


def is_flower(tile: Tile) -> bool:
    return 34 <= tile < 42


def make_tile(rank: int, suit: str) -> Tile:
    """The kind with notation ``f"{rank}{suit}"``; raises :class:`NotationError` if there is none."""
    if suit in "mps" and 1 <= rank <= 9:
        return "mps".index(suit) * 9 + rank - 1
    if suit == "z" and 1 <= rank <= 7:
        return 26 + rank
    if suit == "f" and 1 <= rank <= 8:
        return 33 + rank
    limits = {"m": "1-9", "p": "1-9", "s": "1-9", "z": "1-7", "f": "1-8"}
    if suit in limits:
        raise NotationError(
            f"'{rank}{suit}' is not a tile: {SUIT_NAMES[suit]} go {limits[suit]}"
            + (" (write red fives as ordinary fives: 5m 5p 5s)" if rank == 0 and suit in "mps" else "")
        )
    raise NotationError(
        f"unknown suit letter '{suit}': use m (characters), p (dots), s (bamboo), z (honours), f (flowers)"
    )


def tile_str(tile: Tile) -> str:
    """Compact notation of one tile, e.g. ``5p`` or ``7z``."""
    return f"{rank_of(tile)}{suit_of(tile)}"


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile (``"5p"``, ``"中"``)."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected exactly one tile, got {len(tiles)} in '{text}'")
    return tiles[0]


def parse_tiles(text: str) -> list[Tile]:
    """Parse compact notation (``"123m44z5f"``) or Chinese names (``"一萬 二萬 東 中 梅"``).

    Order is kept as written within each suit group. Whitespace and commas are ignored.
    Raises :class:`NotationError` naming the culprit (``9z``, ``0m``, an unknown letter,
    digits with no suit letter after them).
    """
    if not isinstance(text, str):
        raise NotationError(f"tiles must be a string in compact notation like '123m456p', got {type(text).__name__}")
    cleaned = "".join(ch for ch in text if not ch.isspace() and ch not in ",;")
    if any("\u4e00" <= ch <= "\u9fff" for ch in cleaned):
        return _parse_chinese(cleaned)
    if any("\U0001f000" <= ch <= "\U0001f02b" for ch in cleaned):
        return [_from_glyph(ch) for ch in cleaned]
    tiles: list[Tile] = []
    pending: list[int] = []
    for pos, ch in enumerate(cleaned):
        if ch in "0123456789":
            pending.append(int(ch))
        elif ch.isalpha():
            letter = ch.lower()
            if not pending:
                raise NotationError(
                    f"suit letter '{ch}' at position {pos + 1} has no digits before it (write e.g. '123{letter}')"
                )
            tiles.extend(make_tile(rank, letter) for rank in pending)
            pending = []
        else:
            raise NotationError(f"unexpected character '{ch}' at position {pos + 1}: use digits and m p s z f")
    if pending:
        raise NotationError(
            f"digits '{''.join(map(str, pending))}' at the end have no suit letter (add m, p, s, z or f)"
        )
    return tiles


def _parse_chinese(text: str) -> list[Tile]:
    for alias, canonical in sorted(_ZH_ALIASES.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(alias, canonical)
    tiles: list[Tile] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _NUM_ZH and i + 1 < len(text) and text[i + 1] in _SUIT_ZH.values():
            suit = next(s for s, z in _SUIT_ZH.items() if z == text[i + 1])
            tiles.append(make_tile(_NUM_ZH.index(ch) + 1, suit))
            i += 2
        elif ch in _HONOUR_ZH:
            tiles.append(27 + _HONOUR_ZH.index(ch))
            i += 1
        elif ch in _FLOWER_ZH:
            tiles.append(34 + _FLOWER_ZH.index(ch))
            i += 1
        else:
            raise NotationError(f"cannot read '{text[i : i + 2]}' as a tile name (try 一萬, 五筒, 九條, 東, 中, 梅)")
    return tiles


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Compact notation, suits grouped (``m p s z f``), sorted unless ``sort=False``."""
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_suit = ""
    run: list[str] = []
    for tile in seq:
        suit = suit_of(tile)
        if suit != run_suit and run:
            out.append("".join(run) + run_suit)
            run = []
        run_suit = suit
        run.append(str(rank_of(tile)))
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def name_en(tile: Tile) -> str:
    """English name: ``"3 dots"``, ``"Red dragon"``, ``"East wind"``, ``"Plum"``."""
    if tile < 27:
        return f"{rank_of(tile)} {SUIT_NAMES[suit_of(tile)]}"
    if tile < 31:
        return f"{_HONOUR_EN[tile - 27]} wind"
    if tile < 34:
        return f"{_HONOUR_EN[tile - 27]} dragon"
    return _FLOWER_EN[tile - 34]


def name_zh(tile: Tile) -> str:
    """Chinese name: ``三筒``, ``中``, ``東``, ``梅``."""
    if tile < 27:
        return _NUM_ZH[tile % 9] + _SUIT_ZH[suit_of(tile)]
    if tile < 34:
        return _HONOUR_ZH[tile - 27]
    return _FLOWER_ZH[tile - 34]


_GLYPH_BASE = 0x1F000


def glyph(tile: Tile) -> str:
    """The Unicode Mahjong Tiles character for ``tile`` (U+1F000 block)."""
    suit, rank = suit_of(tile), rank_of(tile)
    if suit == "m":
        offset = 0x07 + rank - 1
    elif suit == "s":
        offset = 0x10 + rank - 1
    elif suit == "p":
        offset = 0x19 + rank - 1
    elif suit == "z":
        offset = (0, 1, 2, 3, 6, 5, 4)[rank - 1]
    else:
        offset = (0x22, 0x23, 0x25, 0x24, 0x26, 0x27, 0x28, 0x29)[rank - 1]
    return chr(_GLYPH_BASE + offset)


_GLYPH_TO_TILE = {glyph(t): t for t in range(NUM_ALL)}


def _from_glyph(ch: str) -> Tile:
    if ch not in _GLYPH_TO_TILE:
        raise NotationError(f"the glyph {ch!r} is not a playing tile or flower")
    return _GLYPH_TO_TILE[ch]


def next_in_cycle(tile: Tile) -> Tile:
    """The kind after ``tile`` in the indicator cycle: 9 wraps to 1, E→S→W→N→E, White→Green→Red→White,
    and flowers cycle within flowers (1f→…→8f→1f)."""
    if tile < 27:
        return tile - tile % 9 + (tile % 9 + 1) % 9
    if tile < 31:
        return 27 + (tile - 27 + 1) % 4
    if tile < 34:
        return 31 + (tile - 31 + 1) % 3
    return 34 + (tile - 34 + 1) % 8
