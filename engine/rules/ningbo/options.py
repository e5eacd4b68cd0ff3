"""Ningbo's house rules, each with the guide's reading as its documented default."""

from __future__ import annotations

from ..base import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "require_baida",
        True,
        "A missing indicators.baida is an error (true) or the hand is played without wilds (false).",
    ),
    OptionSpec(
        "wild_fifth_copy",
        False,
        "A wild may stand for a fifth copy of a kind (the face-up indicator counts as a copy shown).",
    ),
    OptionSpec("minimum_tai", 4, "Fewest tai a win needs ('at least 4 tai'); 0 to 100.", minimum=0, maximum=100),
    OptionSpec(
        "baida_win",
        "winning_tile",
        "'Baida win' 1 tai: the winning tile is a wild (winning_tile), any wild stands for another "
        "kind (any_substitute), or no such item (never).",
        ("winning_tile", "any_substitute", "never"),
    ),
    OptionSpec(
        "hai_da", "flat", "还搭: 1 tai once (flat) or 1 tai per wild used as itself (per_tile).", ("flat", "per_tile")
    ),
    OptionSpec(
        "win_on_discarded_wild", False, "A discarded wild may complete a win (the guide: 'You cannot call Baida')."
    ),
    OptionSpec(
        "wild_pair_on_discard",
        True,
        "A discard may complete a pair with a wild (抛搭); false: such a wait wins by self-draw only.",
    ),
    OptionSpec(
        "waits_need_single_tile",
        False,
        "Edge / closed / single wait tai only when the hand waited on that one kind (wild kinds aside).",
    ),
    OptionSpec(
        "kong_win",
        "both",
        "A win on a kong replacement: the 1-tai item and the x2 multiplier (both), or only one of them.",
        ("both", "tai_only", "multiplier_only"),
    ),
    OptionSpec("last_discard_counts", False, "Last-tile tai also for a win on the last discard."),
    OptionSpec(
        "earthly_hand",
        "first_discard",
        "Earthly hand: a non-dealer winning on the dealer's first discard, on its own first draw, or either.",
        ("first_discard", "first_draw", "either"),
    ),
    OptionSpec(
        "all_honours_tai", 10, "Tai for all honours (the guide: 10; MIL: 20); 0 to 100.", minimum=0, maximum=100
    ),
    OptionSpec(
        "seat_flower_tai",
        0,
        "Tai per flower of the winner's seat (guide: none; MIL 1, servers 2); 0 to 100.",
        minimum=0,
        maximum=100,
    ),
    OptionSpec("other_flower_tai", 0, "Tai per flower not of the winner's seat; 0 to 100.", minimum=0, maximum=100),
    OptionSpec(
        "flower_set_tai", 0, "Tai per complete set of four flowers (1f-4f or 5f-8f); 0 to 100.", minimum=0, maximum=100
    ),
    OptionSpec(
        "claimed_chows",
        True,
        "Chows may be claimed from a discard (false: a declared chow is refused, code chow_claim_not_allowed).",
    ),
    OptionSpec(
        "contract_counts_chows",
        False,
        "Claimed chows count toward the three-meld contract (the prose says chowed/ponged/konged, "
        "the table pungs or kongs).",
    ),
    OptionSpec(
        "contract_pays",
        "all_shares",
        "The contracted player pays what all payers owed x5 (all_shares) or one payer's share x5 (one_share).",
        ("all_shares", "one_share"),
    ),
    OptionSpec(
        "multiple_winners",
        "closest",
        "Several winners on one discard: only the closest in turn after the discarder wins (closest), "
        "or each is paid (all).",
        ("closest", "all"),
    ),
)
