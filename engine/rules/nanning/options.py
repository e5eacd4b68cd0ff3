"""Nanning's house rules with the guide's readings as documented defaults, and the payout table
they may override."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import OptionError, OptionSpec
from .patterns import CELLS, DEFAULT_TABLE, PATTERNS

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "minimum",
        9,
        "Minimum a win must collect in total under normal payment, before fishing and sealing "
        "(the guide's '9 points'; a plain self-draw collects 3 x 3 = 9, a plain discard win 2). "
        "0 turns the minimum off.",
    ),
    OptionSpec(
        "combine",
        "highest",
        "How table rows combine: 'highest' pays the single best row; 'add' adds every row that "
        "applies (the plain self-draw / discard rows only when no other row does).",
        ("highest", "add"),
    ),
    OptionSpec(
        "values",
        {},
        "Overrides of the payout table: {row: {'self_draw': n, 'discard': n}}; a cell added to a "
        "row makes the row pay on that win type. Rows: " + ", ".join(p.name for p in PATTERNS) + ".",
    ),
    OptionSpec("allow_chow", False, "Allow declared chows (the guide only lets pungs and kongs be claimed)."),
    OptionSpec(
        "seal_claims",
        3,
        "Pungs/kongs one player must claim from the same player to seal that player (封胡): 3 per "
        "the guide, 4 at some tables (四笔封胡); 0 turns sealing off.",
        (0, 3, 4),
    ),
    OptionSpec(
        "sealed_self_draw",
        "shares",
        "On the sealing player's self-draw the sealed player pays everyone's share: 'shares' — "
        "each share with its own seat's fish factor; 'own' — three times its own share.",
        ("shares", "own"),
    ),
    OptionSpec(
        "fish_min_tiles",
        9,
        "Fishing happens only when the winner holds at least this many tiles outside exposed "
        "melds (winning tile included).",
    ),
    OptionSpec(
        "fish_concealed_kongs",
        True,
        "Count a concealed kong as four tiles in hand for the fishing threshold (it is not an exposed meld).",
    ),
    OptionSpec("max_fish", 3, "Most fish tiles flipped (the guide: the last three wall tiles, fewer if fewer remain)."),
    OptionSpec(
        "several_winners",
        "all",
        "Several players win on one discard: 'all' — each is paid by the discarder (the guide's "
        "'For multiple winners' note); 'nearest' — the tile goes only to the winner nearest in turn "
        "after the discarder (the guide's FAQ), the others are paid nothing.",
        ("all", "nearest"),
    ),
    OptionSpec(
        "kong_points",
        1,
        "Immediate kong payment: concealed — each other player pays this; exposed and added — the discarder pays this.",
    ),
)


def payout_table(opts: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The guide's table with ``values`` overrides applied (raises :class:`OptionError`)."""
    table = {row: dict(cells) for row, cells in DEFAULT_TABLE.items()}
    for row, cells in opts["values"].items():
        where = f"options.values.{row}"
        if row not in table:
            raise OptionError(f"unknown payout row '{row}'; rows: {', '.join(table)}", field=where)
        if not isinstance(cells, dict):
            raise OptionError(f"'{where}' must map 'self_draw' / 'discard' to points", field=where)
        for cell, points in cells.items():
            if cell not in CELLS:
                raise OptionError(
                    f"'{where}' cells are 'self_draw' and 'discard', got {cell!r}", field=f"{where}.{cell}"
                )
            if not isinstance(points, int) or isinstance(points, bool) or points < 0:
                raise OptionError(
                    f"'{where}.{cell}' must be a whole number >= 0, got {points!r}", field=f"{where}.{cell}"
                )
            table[row][cell] = points
    return table


def check_numbers(opts: Mapping[str, Any]) -> None:
    """The counting options are whole numbers: none may be negative."""
    for name in ("minimum", "fish_min_tiles", "max_fish", "kong_points"):
        if opts[name] < 0:
            raise OptionError(f"option '{name}' cannot be negative", field=f"options.{name}")
