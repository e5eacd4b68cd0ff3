"""Hefei's house rules: where the text is silent or two readings exist, the documented default
and the alternative (``docs/rules/hefei.md``)."""

from __future__ import annotations

from ..base import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "win_points",
        True,
        "Count the general table's 'Winning a Hand +15 points'. The text's worked example (11 points → 220) "
        "leaves it out; two independent Hefei implementations count 15 for a win. False reproduces the example.",
    ),
    OptionSpec(
        "base_score",
        20,
        "The base score the points are multiplied by ('typically 20'); a whole number from 1 to 10,000.",
        minimum=1,
        maximum=10_000,
    ),
    OptionSpec(
        "single_wait",
        "one_tile",
        "卡: 'one_tile' — exactly one tile kind could complete the hand (23 waiting 4, 78 waiting 6, a closed or "
        "pair wait with no other winning tile); 'shape' — the winning tile completed an edge, closed or pair wait.",
        ("one_tile", "shape"),
    ),
    OptionSpec(
        "same_number_tiles",
        "concealed",
        "Which tiles 同 and 10同 count: 'concealed' (the tiles in hand, as the xgmj server does) or 'all' "
        "(declared melds too).",
        ("concealed", "all"),
    ),
    OptionSpec(
        "same_number_counting",
        "beyond_four",
        "同 points per rank held 4+ times: 'beyond_four' — one per tile beyond the fourth (xgmj: count − 4); "
        "'from_four' — the fourth tile already scores (count − 3).",
        ("beyond_four", "from_four"),
    ),
    OptionSpec(
        "same_number_ranks",
        "best",
        "同 over 'best' rank only (xgmj) or 'all' ranks held 4+ times, summed.",
        ("best", "all"),
    ),
    OptionSpec(
        "dealer_streak_on_loss",
        True,
        "庄家的输赢: when a non-dealer wins and the dealer pays, the dealer's payment includes +4 points per "
        "consecutive dealer hand. False: the streak only counts when the dealer wins.",
    ),
    OptionSpec(
        "dealer_streak_on_discard",
        4,
        "Points per consecutive dealer hand when the hand is won on a discard: 4 (the text's flat '+4 points per "
        "round') or 2 (the xgmj server: +2 × n on a discard, +4 × n on a self-draw).",
        (4, 2),
    ),
    OptionSpec(
        "multiple_winners",
        "nearest",
        "Several players win on one discard: 'nearest' (the text's FAQ: the tile goes to whoever is closer in turn "
        "after the discarder; the others are paid nothing) or 'all' (each is paid in full by the discarder).",
        ("nearest", "all"),
    ),
    OptionSpec(
        "kong_replacement_doubles",
        False,
        "A win on a kong's replacement tile doubles the score (the xgmj server; the text is silent).",
    ),
    OptionSpec(
        "claimed_chows",
        False,
        "A discard may be claimed for a chow. The text's calling rules name only pung, kong and the win; by "
        "default a declared chow meld is refused (code chow_claim_not_allowed).",
    ),
    OptionSpec(
        "dealer_rotation",
        "every_hand",
        "'every_hand' (the text: after each hand the next player deals) or 'keep_on_win' (the dealer keeps the "
        "deal while winning, which is what a dealer streak needs).",
        ("every_hand", "keep_on_win"),
    ),
)
