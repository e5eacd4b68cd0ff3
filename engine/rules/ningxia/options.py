"""Ningxia's house rules: the text's reading as the documented default, client settings as options."""

from __future__ import annotations

from ..base import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "seven_pairs",
        True,
        "Seven pairs (and dragon seven pairs) win. The text lists both in its payout table; some Ningxia "
        "game clients make seven pairs a table setting. False: a hand that only reads as seven pairs is refused "
        "(code seven_pairs_not_allowed).",
    ),
    OptionSpec(
        "honours",
        True,
        "Play with the 28 wind and dragon tiles, as the text's 136-tile set says. False: the 108-tile table "
        "(带风 off in Ningxia clients); a hand holding an honour is rejected as a tile not in the set.",
    ),
    OptionSpec(
        "red_dragon_wild",
        False,
        "The four Red dragons (7z) are wild (红中赖子, a Ningxia client setting the text does not mention). "
        "Needs honours on.",
    ),
    OptionSpec(
        "claimed_chows",
        False,
        "A discard may be claimed for a chow. The text's calling rules name only pung, kong and the win, so "
        "by default a declared chow meld is refused (code chow_claim_not_allowed); chows formed in hand are "
        "always fine.",
    ),
    OptionSpec(
        "dealer_rotation",
        "winner",
        "Who deals next. 'winner' (the text: 'The winner of the hand becomes the next dealer'; a draw keeps "
        "the dealer); 'next_seat': the dealer keeps the deal on a win or a draw, else it passes to the next "
        "seat (the common Chinese custom).",
        ("winner", "next_seat"),
    ),
)
