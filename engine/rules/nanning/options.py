"""Nanning's house rules with the guide's readings as documented defaults, and the payout table
they may override."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import OptionError, OptionSpec
from .patterns import CELLS, DEFAULT_TABLE, PATTERNS

#: the largest payout-table cell (payments stay far inside JavaScript's safe integers)
MAX_CELL = 10_000


def payout_table(opts: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The guide's table with the ``values`` option's overrides applied."""
    return overridden(opts["values"])


def overridden(values: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The guide's table with ``values`` overrides applied (raises :class:`OptionError` naming the
    cell at fault: an unknown row or cell, a value not a whole number from 0 to :data:`MAX_CELL`)."""
    table = {row: dict(cells) for row, cells in DEFAULT_TABLE.items()}
    for row, cells in values.items():
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
            if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= MAX_CELL:
                raise OptionError(
                    f"'{where}.{cell}' must be a whole number from 0 to {MAX_CELL:,}, got {points!r}",
                    field=f"{where}.{cell}",
                )
            table[row][cell] = points
    return table


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "minimum",
        9,
        "Minimum a win must collect in total under normal payment, before fishing and sealing "
        "(the guide's '9 points'; a plain self-draw collects 3 x 3 = 9, a plain discard win 2). "
        "0 turns the minimum off; at most 1,000.",
        minimum=0,
        maximum=1_000,
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
        "row makes the row pay on that win type (a whole number from 0 to 10,000). Rows: "
        + ", ".join(p.name for p in PATTERNS)
        + ".",
        validate=overridden,
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
        "melds (winning tile included); 0 to 18.",
        minimum=0,
        maximum=18,
    ),
    OptionSpec(
        "fish_concealed_kongs",
        True,
        "Count a concealed kong as four tiles in hand for the fishing threshold (it is not an exposed meld).",
    ),
    OptionSpec(
        "max_fish",
        3,
        "Most fish tiles flipped (the guide: the last three wall tiles, fewer if fewer remain); 0 to 8.",
        minimum=0,
        maximum=8,
    ),
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
        "Immediate kong payment: concealed — each other player pays this; exposed and added — the discarder pays "
        "this; 0 to 10,000.",
        minimum=0,
        maximum=10_000,
    ),
)
