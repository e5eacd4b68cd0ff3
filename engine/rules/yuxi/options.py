"""Yuxi's house rules, each with the guide's reading as its documented default."""

from __future__ import annotations

from ..base import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "base_points",
        1,
        "Base points every payout is multiplied from (the guide: 1, or 2, 3, 5 by agreement); "
        "a whole number from 1 to 10,000.",
        minimum=1,
        maximum=10_000,
    ),
    OptionSpec(
        "combine",
        "multiply",
        "How several payout-table rows combine: 'multiply' their multipliers (default), or count only the 'largest'.",
        ("multiply", "largest"),
    ),
    OptionSpec(
        "basic_discard_lifted_by",
        "any_pattern",
        "Which rows let a hand be won on a discard (a Basic "
        "Win cannot be): 'any_pattern' (default: any row, Kong Discard Win, Robbing a Kong and Earthly Win "
        "included) or 'hand_pattern' (only rows about the tiles: All Triplets, Full Flush, the seven-pairs "
        "rows, Four Great Blessings).",
        ("any_pattern", "hand_pattern"),
    ),
    OptionSpec(
        "blessings_with_triplets",
        False,
        "Four Great Blessings also scores All Triplets (default: no, the larger hand includes it).",
    ),
    OptionSpec(
        "earthly_self_draw",
        False,
        "A non-dealer's self-drawn win on its first draw (no calls before) is "
        "also an Earthly Win (default: only a win on the dealer's first discard).",
    ),
    OptionSpec(
        "multi_win_dealer",
        "nearest_after_discarder",
        "With several winners on one discard and the dealer "
        "not among them, who deals next: 'nearest_after_discarder' (default: the winner nearest in turn "
        "after the discarder, as the guide's FAQ orders claims; the first winner listed when the discarder "
        "is not given) or 'nearest_after_dealer' (the winner first in play order after East).",
        ("nearest_after_discarder", "nearest_after_dealer"),
    ),
    OptionSpec(
        "multiple_winners",
        "all_score",
        "Several players win on one discard: 'all_score' (default: each "
        "scores and the discarder pays all) or 'nearest_only' (the FAQ's priority rule: only the winner "
        "nearest in turn after the discarder is paid).",
        ("all_score", "nearest_only"),
    ),
)
