"""Every scoring pattern of every rule set, called directly: for each one a context where
``is_condition_met`` holds and one where it does not. Contexts are built from real hands (parsed
by the contract, decomposed by the engine); the table gives the hand and the facts that differ."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from engine.contract import parse_input
from engine.decompose import Decomposition, Form, decompose
from engine.rules import hefei, nanning, ningbo, ningxia, yuxi
from engine.rules.base import Pattern, ScoreInput, resolve_options
from engine.rules.nanning.patterns import DEFAULT_TABLE
from engine.waits import WaitShape
from tests.builders import payload

PLAIN = "123m456p678s22s555z"  # four sets and a pair, one dragon pung, no wilds under the 9p indicator
BASIC = "123m456p789s234s55m"  # four chows and a pair
ALL_PUNGS = "111m444p777s22s555z"
ONE_SUIT = "123m456m789m11m222m"
SEVEN_PAIRS = "1155m2288p3399s11z"
DRAGON = "11112233445566m"  # seven pairs, one four of a kind, one suit
DOUBLE_DRAGON = "1111222233m4455p"
TRIPLE_DRAGON = "111122223333m44p"
PURE_TRIPLE_DRAGON = "11112222333344m"
FOUR_WINDS = "111z222z333z444z55m"
ORPHANS = "19m19p19s12345677z"
HEFEI_HAND = "234567888m345p66s"  # the Hefei text's worked example
HEFEI_SEVEN_PAIRS = "22334455667788m"
HEFEI_LUXURY = "22223344556677m"
HEFEI_DOUBLE_LUXURY = "22223333445566m"
FOUR_PUNGS_CLAIMED = [{"type": "pung", "tiles": t, "from": "W"} for t in ("111m", "222p", "333s", "444s")]
PUNG_CLAIMED = [{"type": "pung", "tiles": "999p", "from": "W"}]


def _reading(inp: ScoreInput, form: Form | None, **wilds: Any) -> Decomposition:
    """The first decomposition of the hand (of ``form`` when given)."""
    readings = decompose(list(inp.hand.concealed), inp.hand.melds, **wilds)
    return next(d for d in readings if form in (None, d.form))


def _input(variant: str, hand: str, fields: dict[str, Any]) -> ScoreInput:
    winning = fields.pop("winning", None)
    return parse_input(payload(variant, hand, winning, **fields))


def ningbo_context(
    hand: str = PLAIN,
    *,
    wait: WaitShape | None = None,
    only_wait: bool = False,
    options: dict[str, Any] | None = None,
    baida: str = "9p",
    **fields: Any,
) -> ningbo.NingboContext:
    inp = _input("ningbo", hand, {"baida": baida, **fields})
    opts = resolve_options(ningbo.OPTIONS, options)
    wild = ningbo.VARIANT.wild_spec(inp, opts)
    _counts, faces = wild.split(inp.hand.concealed)
    kong_wilds = sum(len(m.tiles) for m in inp.hand.melds if set(m.tiles) & wild.kinds)
    d = _reading(inp, "standard", wilds=wild, forms=("standard",))
    assert inp.hand.winning_tile is not None
    return ningbo.NingboContext(
        inp,
        opts,
        d,
        wait,
        only_wait,
        wild,
        inp.hand.winning_tile in wild.kinds,
        len(faces) + kong_wilds,
        kong_wilds,
    )


def nanning_context(hand: str = BASIC, *, form: Form | None = None, **fields: Any) -> nanning.HandContext:
    inp = _input("nanning", hand, fields)
    return nanning.HandContext(inp, _reading(inp, form), DEFAULT_TABLE)


def yuxi_context(
    hand: str = BASIC, *, form: Form | None = None, options: dict[str, Any] | None = None, **fields: Any
) -> yuxi.YuxiContext:
    inp = _input("yuxi", hand, fields)
    return yuxi.YuxiContext(inp, resolve_options(yuxi.OPTIONS, options), _reading(inp, form))


def hefei_context(
    hand: str = HEFEI_HAND,
    *,
    form: Form | None = None,
    options: dict[str, Any] | None = None,
    facts: dict[str, Any] | None = None,
    **fields: Any,
) -> hefei.HefeiContext:
    """The context of the hand's first reading, with ``facts`` replacing what it derived."""
    inp = _input("hefei", hand, fields)
    d = _reading(inp, form, forms=("standard", "seven_pairs"))
    at = next(i for i, g in enumerate(d.groups) if not g.is_declared and inp.hand.winning_tile in g.tiles)
    ctx = hefei.VARIANT.context(inp, resolve_options(hefei.OPTIONS, options), d, at, single_wait=False)
    return replace(ctx, **(facts or {}))


def ningxia_context(hand: str = BASIC, *, form: Form | None = None, **fields: Any) -> ningxia.NingxiaContext:
    inp = _input("ningxia", hand, fields)
    return ningxia.NingxiaContext(_reading(inp, form), inp.win.self_draw)


DISCARD = {"by": "discard", "frm": "W"}
FIRST_TURN_DEALER = {"winner": "E", "first_turn": True}

#: rule set -> (its patterns, the context builder, {pattern name: (met, not met)})
CASES: dict[str, tuple[tuple[Pattern[Any], ...], Callable[..., Any], dict[str, tuple[dict, dict]]]] = {
    "ningbo": (
        ningbo.PATTERNS,
        ningbo_context,
        {
            "edge_wait": ({"wait": "edge"}, {"wait": "closed"}),
            "closed_wait": ({"wait": "closed"}, {"wait": "edge"}),
            "single_wait": ({"wait": "single"}, {"wait": "single", "options": {"waits_need_single_tile": True}}),
            "baida_win": ({"hand": "123m456p678s2s555z3s", "winning": "3s", "baida": "3s"}, {}),
            "no_baida": ({}, {"hand": "123m456p678s2s555z3s", "winning": "2s", "baida": "3s"}),
            "hai_da": (
                {
                    "hand": "123m456p22s555z",
                    "winning": "2s",
                    "baida": "3s",
                    "melds": [{"type": "concealed_kong", "tiles": "4444s"}],
                },
                {},
            ),
            "wild_pair": (
                {"hand": "123m456p678s2s555z3s", "winning": "2s", "baida": "3s", "wait": "single"},
                {"hand": "123m456p678s2s555z3s", "winning": "2s", "baida": "3s", "wait": "single", **DISCARD},
            ),
            "pure_suit": ({"hand": ONE_SUIT, "winning": "2m"}, {}),
            "half_pure_suit": ({"hand": "123m456m789m22m555z", "winning": "2m"}, {"hand": ONE_SUIT, "winning": "2m"}),
            "all_pungs": ({"hand": ALL_PUNGS, "winning": "2s"}, {}),
            "all_honours": ({"hand": "111z222z333z555z44z", "winning": "4z"}, {"hand": FOUR_WINDS, "winning": "5m"}),
            "dragon_pung": ({}, {"hand": "123m456p678s22s999m", "winning": "2s"}),
            "round_wind_pung": (
                {"hand": "123m456p678s22s111z", "winning": "2s"},
                {"hand": "123m456p678s22s111z", "winning": "2s", "round_wind": "W"},
            ),
            "seat_wind_pung": (
                {"hand": "123m456p678s22s222z", "winning": "2s"},
                {"hand": "123m456p678s22s222z", "winning": "2s", "winner": "N"},
            ),
            "kong_win": ({"after_kong": True}, {"after_kong": True, "options": {"kong_win": "multiplier_only"}}),
            "last_tile": ({"last_tile": True}, {"last_tile": True, **DISCARD}),
            "self_draw": ({}, DISCARD),
            "heavenly_hand": (FIRST_TURN_DEALER, {"first_turn": True}),
            "earthly_hand": ({"first_turn": True, "by": "discard", "frm": "E"}, {"first_turn": True, **DISCARD}),
            "eight_flowers": ({"flowers": "12345678f"}, {"flowers": "1234567f"}),
            "seat_flowers": (
                {"flowers": "2f", "options": {"seat_flower_tai": 1}},
                {"flowers": "1f", "options": {"seat_flower_tai": 1}},
            ),
            "other_flowers": (
                {"flowers": "1f", "options": {"other_flower_tai": 1}},
                {"flowers": "2f", "options": {"other_flower_tai": 1}},
            ),
            "flower_set": (
                {"flowers": "1234f", "options": {"flower_set_tai": 1}},
                {"flowers": "1235f", "options": {"flower_set_tai": 1}},
            ),
        },
    ),
    "nanning": (
        nanning.PATTERNS,
        nanning_context,
        {
            "self_draw": ({}, DISCARD),
            "discard_win": (DISCARD, {}),
            "concealed_hand": ({}, {"hand": "123m456p789s55m", "winning": "5m", "melds": PUNG_CLAIMED}),
            "full_flush": ({"hand": ONE_SUIT, "winning": "2m"}, {}),
            "all_triplets": ({"hand": ALL_PUNGS, "winning": "2s"}, {}),
            "seven_pairs": ({"hand": SEVEN_PAIRS, "winning": "1z"}, {"hand": DRAGON, "form": "seven_pairs"}),
            "big_seven_pairs": ({"hand": DRAGON, "form": "seven_pairs"}, {"hand": SEVEN_PAIRS, "winning": "1z"}),
            "thirteen_orphans": ({"hand": ORPHANS, "winning": "7z"}, {}),
            "all_honours": ({"hand": "111z222z333z444z55z", "winning": "5z"}, {"hand": FOUR_WINDS, "winning": "5m"}),
            "heavenly_win": (FIRST_TURN_DEALER, {"first_turn": True}),
            "earthly_win": ({"first_turn": True}, FIRST_TURN_DEALER),
            "global_win": (
                {"hand": "55z", "winning": "5z", "melds": FOUR_PUNGS_CLAIMED, **DISCARD},
                {"hand": "55z", "winning": "5z", "melds": FOUR_PUNGS_CLAIMED},
            ),
            "last_tile_self_draw": ({"last_tile": True}, {"last_tile": True, **DISCARD}),
            "last_tile_discard": ({"last_tile": True, **DISCARD}, {"last_tile": True}),
        },
    ),
    "yuxi": (
        yuxi.PATTERNS,
        yuxi_context,
        {
            "all_triplets": ({"hand": ALL_PUNGS, "winning": "2s"}, {"hand": FOUR_WINDS, "winning": "5m"}),
            "full_flush": ({"hand": ONE_SUIT, "winning": "2m"}, {"hand": PURE_TRIPLE_DRAGON, "form": "seven_pairs"}),
            "seven_pairs": ({"hand": SEVEN_PAIRS, "winning": "1z"}, {"hand": DRAGON, "form": "seven_pairs"}),
            "dragon_seven_pairs": ({"hand": DRAGON, "form": "seven_pairs"}, {"hand": SEVEN_PAIRS, "winning": "1z"}),
            "double_dragon_seven_pairs": (
                {"hand": DOUBLE_DRAGON, "winning": "5p", "form": "seven_pairs"},
                {"hand": DRAGON, "form": "seven_pairs"},
            ),
            "triple_dragon_seven_pairs": (
                {"hand": TRIPLE_DRAGON, "winning": "4p", "form": "seven_pairs"},
                {"hand": PURE_TRIPLE_DRAGON, "form": "seven_pairs"},
            ),
            "pure_triple_dragon_seven_pairs": (
                {"hand": PURE_TRIPLE_DRAGON, "form": "seven_pairs"},
                {"hand": TRIPLE_DRAGON, "winning": "4p", "form": "seven_pairs"},
            ),
            "four_great_blessings": ({"hand": FOUR_WINDS, "winning": "5m"}, {"hand": ALL_PUNGS, "winning": "2s"}),
            "ten_old_men": ({"ten_old_men": True}, {}),
            "flower_bloom": ({"after_kong": True}, {"after_kong": True, **DISCARD}),
            "double_gang_on_flower": (
                {"after_kong": True, "double_kong": True},
                {"after_kong": True, "double_kong": True, **DISCARD},
            ),
            "kong_discard_win": ({"after_kong": True, **DISCARD}, {"after_kong": True}),
            "robbing_a_kong": ({"robbed_kong": True, **DISCARD}, DISCARD),
            "heavenly_win": (FIRST_TURN_DEALER, {"first_turn": True}),
            "earthly_win": ({"first_turn": True, "by": "discard", "frm": "E"}, {"first_turn": True, **DISCARD}),
        },
    ),
    "hefei": (
        hefei.PATTERNS,
        hefei_context,
        {
            "winning_hand": ({}, {"options": {"win_points": False}}),
            "suit_bonus": ({"facts": {"suit_counts": (9, 3, 2)}}, {"facts": {"suit_counts": (8, 3, 3)}}),
            "single_wait": ({"facts": {"single_wait": True}}, {}),
            "same_number": (
                {"facts": {"rank_counts": (5, 0, 0, 0, 0, 0, 0)}},
                {"facts": {"rank_counts": (4, 0, 0, 0, 0, 0, 0)}},
            ),
            "concealed_pung": ({}, {"by": "discard", "frm": "W", "winning": "8m"}),
            "double_sequence": (
                {"facts": {"double_sequences": 1}},
                {"facts": {"double_sequences": 1, "concealed_double_sequences": 1}},
            ),
            "two_suits_only": ({"facts": {"suit_counts": (9, 5, 0)}}, {}),
            "concealed_double_sequence": ({"facts": {"double_sequences": 1, "concealed_double_sequences": 1}}, {}),
            "concealed_kong": (
                {"hand": "234567m345p66s", "winning": "6s", "melds": [{"type": "concealed_kong", "tiles": "8888m"}]},
                {},
            ),
            "four_of_a_kind": ({"facts": {"live_quads": 1}}, {}),
            "dealer_streak": ({"winner": "E", "streak": 2}, {"streak": 2}),
            "seven_pairs": (
                {"hand": HEFEI_SEVEN_PAIRS, "winning": "8m", "form": "seven_pairs"},
                {"hand": HEFEI_LUXURY, "winning": "7m", "form": "seven_pairs"},
            ),
            "sea_floor_win": ({"last_tile": True}, {"last_tile": True, **DISCARD}),
            "luxury_seven_pairs": (
                {"hand": HEFEI_LUXURY, "winning": "7m", "form": "seven_pairs"},
                {"hand": HEFEI_SEVEN_PAIRS, "winning": "8m", "form": "seven_pairs"},
            ),
            "double_luxury_seven_pairs": (
                {"hand": HEFEI_DOUBLE_LUXURY, "winning": "6m", "form": "seven_pairs"},
                {"hand": HEFEI_LUXURY, "winning": "7m", "form": "seven_pairs"},
            ),
            "pure_suit": ({"hand": HEFEI_SEVEN_PAIRS, "winning": "8m"}, {}),
            "three_consecutive_pungs": (
                {"facts": {"concealed_pung_kinds": (2, 3, 4)}},
                {"facts": {"concealed_pung_kinds": (2, 3, 5)}},
            ),
            "four_concealed_pungs": (
                {"facts": {"concealed_pung_kinds": (2, 4, 6), "concealed_kong_kinds": (12,)}},
                {"facts": {"concealed_pung_kinds": (2, 4, 6)}},
            ),
            "ten_identical_tiles": (
                {"facts": {"rank_counts": (10, 0, 0, 0, 0, 0, 0)}},
                {"facts": {"rank_counts": (9, 0, 0, 0, 0, 0, 0)}},
            ),
            "double_concealed_double_sequences": (
                {"facts": {"concealed_double_sequences": 2}},
                {"facts": {"concealed_double_sequences": 1}},
            ),
            "heavenly_win": (FIRST_TURN_DEALER, {**FIRST_TURN_DEALER, "by": "discard", "frm": "S"}),
            "earthly_win": ({"first_turn": True}, FIRST_TURN_DEALER),
        },
    ),
    "ningxia": (
        ningxia.PATTERNS,
        ningxia_context,
        {
            "standard_win": ({}, {"hand": SEVEN_PAIRS, "winning": "1z"}),
            "seven_pairs": ({"hand": SEVEN_PAIRS, "winning": "1z"}, {"hand": DRAGON, "form": "seven_pairs"}),
            "dragon_seven_pairs": ({"hand": DRAGON, "form": "seven_pairs"}, {"hand": SEVEN_PAIRS, "winning": "1z"}),
        },
    ),
}


def _cases() -> list[Any]:
    return [
        pytest.param(rule_set, name, met, unmet, id=f"{rule_set}-{name}")
        for rule_set, (_patterns, _build, table) in CASES.items()
        for name, (met, unmet) in table.items()
    ]


@pytest.mark.parametrize("rule_set, name, met, unmet", _cases())
def test_pattern_condition(rule_set: str, name: str, met: dict[str, Any], unmet: dict[str, Any]) -> None:
    patterns, build, _table = CASES[rule_set]
    pattern = next(p for p in patterns if p.name == name)
    assert pattern.is_condition_met(build(**met))
    assert not pattern.is_condition_met(build(**unmet))


@pytest.mark.parametrize("rule_set", list(CASES))
def test_every_pattern_has_a_case(rule_set: str) -> None:
    patterns, _build, table = CASES[rule_set]
    assert [p.name for p in patterns] == list(table)
