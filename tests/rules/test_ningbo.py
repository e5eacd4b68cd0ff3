"""Ningbo (宁波麻将): every worked example and every table row of shared/rules/ningbo.txt, each
documented reading and option, refusals and malformed input — all through the JSON contract.

Unless a test says otherwise the indicator is 9p, so the wilds are 9p and 1p and the hands below
(which hold neither) have no wilds; the winner is South in an East round.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.contract import describe_variants, exit_code, parse_input, waits
from engine.melds import MeldKind
from engine.rules.base import resolve_options
from engine.rules.ningbo import VARIANT
from engine.tiles import next_in_cycle, parse_tile, tile_str
from engine.tilesets import WITH_FLOWERS_144
from tests.builders import json_junk, scored
from tests.builders import payload as build_payload

PLAIN = "123m456p678s22s555z"  # 123m 456p 678s 555z + 22s: one dragon pung


hand = partial(build_payload, "ningbo", baida="9p", options={}, flowers="", round_wind="E")


def items(result: dict) -> dict[str, int]:
    assert result["ok"], result
    return {i["name"]: i["value"] for i in result["items"]}


def refused(result: dict, code: str) -> None:
    assert not result["ok"], result
    assert result["error"]["code"] == code, result
    assert exit_code(result) == 1


def bad(result: dict, code: str, field: str) -> None:
    assert not result["ok"], result
    assert result["error"]["code"] == code, result
    assert result["error"]["field"] == field, result
    assert exit_code(result) == 2


def pung(tiles: str, frm: str) -> dict:
    return {"type": "pung", "tiles": tiles, "from": frm}


# --------------------------------------------------------------------------- Baida: worked examples


@pytest.mark.parametrize(
    "indicator, wilds",
    [
        ("3s", ["3s", "4s"]),  # "if the face up tile is 3 Bamboo, then 3 and 4 Bamboo are the Wild Card tiles"
        ("9s", ["1s", "9s"]),  # "If the flipped tile is a 9 of bamboo, the three 9s … and the four 1 of bamboo"
        ("9p", ["1p", "9p"]),  # "9 Dots would indicate 1 Dot as the Wild Card"
        ("1z", ["1z", "2z"]),  # "Winds are East, then South, then West, then North, and back to East"
        ("2z", ["2z", "3z"]),
        ("3z", ["3z", "4z"]),
        ("4z", ["1z", "4z"]),
        ("6z", ["6z", "7z"]),  # "Dragons … Green, then Red, then White, and then back to Green"
        ("7z", ["5z", "7z"]),
        ("5z", ["5z", "6z"]),
    ],
)
def test_example_indicator_gives_wild_kinds(indicator: str, wilds: list[str]) -> None:
    result = scored(hand(PLAIN, "2s", baida=indicator, options={"minimum_tai": 0}))
    assert result["ok"], result  # with 5z shown, the hand's 555z are wilds: still a win
    assert result["wilds"]["kinds"] == wilds
    assert result["wilds"]["indicator"] == indicator


def test_example_seven_wild_tiles_in_total() -> None:
    """'Thus, there are 7 wild cards in total: 3 tiles of the flipped rank and 4 of the next.'"""
    for indicator in ["3s", "9s", "4z", "7z", "3f"]:
        tile = parse_tile(indicator)
        inp = parse_input(hand(PLAIN, "2s", baida=indicator))
        spec = VARIANT.wild_spec(inp, resolve_options(VARIANT.options, {}))
        shown = sum(WITH_FLOWERS_144.copies[k] for k in spec.kinds) - (1 if tile in spec.kinds else 0)
        assert shown == 7, indicator


def test_example_flower_indicator_makes_other_flowers_wild() -> None:
    """'If a flower tile is flipped, then all other flower tiles are considered Baida wild cards';
    wild flowers sit among the concealed tiles and stand for any non-flower tile."""
    result = scored(hand("123m456p678s2s555z1f", "2s", baida="3f"))
    assert result["wilds"]["kinds"] == ["1f", "2f", "4f", "5f", "6f", "7f", "8f"]
    assert result["wilds"]["in_hand"] == [{"tile": "1f", "stands_for": "2s"}]
    assert items(result) == {"single_wait": 1, "wild_pair": 1, "dragon_pung": 1, "self_draw": 1}


def test_example_flower_indicator_wild_flower_under_flowers_is_bad_input() -> None:
    bad(scored(hand(PLAIN, "2s", baida="3f", flowers="1f")), "wild_flower_exposed", "hand.flowers")


def test_example_indicator_flower_cannot_be_held() -> None:
    result = scored(hand(PLAIN, "2s", baida="3f", flowers="3f"))
    assert result["error"]["code"] == "too_many_copies" and exit_code(result) == 2


def test_example_wilds_never_stand_for_flowers() -> None:
    """'These Baida wild cards can substitute for any tile in the player's hand except flower
    tiles': seven flowers and a wild are not eight flowers."""
    result = scored(hand("123m456p678s2s555z3s", "2s", baida="3s", flowers="1234567f"))
    assert "eight_flowers" not in items(result)
    assert all(not w["stands_for"].endswith("f") for w in result["wilds"]["in_hand"])


def test_example_wild_cannot_make_a_pung_meld() -> None:
    """'You cannot use it as a substitute for a Pong or Kong.'"""
    bad(scored(hand("123m456p678s55z", "5z", baida="3s", melds=[pung("444s", "W")])), "wild_in_meld", "hand.melds[0]")


def test_example_matching_discarded_wild_cannot_be_punged_or_konged() -> None:
    """'even if you have two or three identical wildcards in hand, and someone discards a matching
    wildcard, you cannot Pong or Kong it.'"""
    kong = {"type": "kong", "tiles": "4444s", "from": "W"}
    bad(scored(hand("123m456p678s22s", "2s", baida="3s", melds=[kong])), "wild_in_meld", "hand.melds[0]")
    chow = {"type": "chow", "tiles": "345s", "from": "E"}
    bad(scored(hand("123m456p678s22s", "2s", baida="3s", melds=[chow])), "wild_in_meld", "hand.melds[0]")


def test_example_four_wilds_make_a_concealed_kong() -> None:
    """'If you have four identical wildcards, you can declare a concealed Kong.' The kong holds
    Baida tiles (no 无搭) used as their own face (还搭)."""
    kong = {"type": "concealed_kong", "tiles": "4444s"}
    result = scored(hand("123m456p22s555z", "2s", baida="3s", melds=[kong]))
    assert items(result) == {"single_wait": 1, "hai_da": 1, "dragon_pung": 1, "self_draw": 1}
    assert result["wilds"]["in_hand"] == [{"tile": "4s", "stands_for": "4s", "meld": "concealed_kong"}] * 4


def test_example_you_cannot_call_baida() -> None:
    """'You cannot call Baida (Wild Tiles).' — a discarded wild completes no win."""
    refused(scored(hand("123m456p678s2s555z4s", "4s", baida="3s", by="discard", frm="W")), "not_on_discard")
    ok = scored(
        hand(
            "123m456p678s2s555z4s",
            "4s",
            baida="3s",
            by="discard",
            frm="W",
            options={"win_on_discarded_wild": True, "minimum_tai": 0},
        )
    )
    assert items(ok) == {"single_wait": 1, "baida_win": 1, "dragon_pung": 1}
    assert ok["payments"] == {"E": 0, "S": 3, "W": -3, "N": 0}


def test_example_missing_indicator_is_bad_input() -> None:
    bad(scored(hand(PLAIN, "2s", baida=None)), "missing_indicator", "indicators.baida")
    bad(
        waits({"variant": "ningbo", "winner": "S", "hand": {"concealed": "123m456p678s2s555z"}}),
        "missing_indicator",
        "indicators.baida",
    )


def test_option_require_baida_off_plays_without_wilds() -> None:
    result = scored(hand("123m456p345s22s555z", "2s", baida=None, options={"require_baida": False}))
    assert items(result) == {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1}
    assert "wilds" not in result


def test_indicator_counts_toward_copies() -> None:
    """The face-up indicator is one copy shown: a hand cannot hold all four of its kind."""
    result = scored(hand("123m456p678s2s555z3s", "2s", baida="3s"))
    assert items(result) == {"single_wait": 1, "wild_pair": 1, "dragon_pung": 1, "self_draw": 1}
    r = scored(hand("123m456p3333s2s5z", "2s", baida="3s"))
    assert r["error"]["code"] == "too_many_copies" and exit_code(r) == 2


def test_wild_cannot_be_fifth_copy_by_default() -> None:
    """A wild cannot become a fifth copy (four natural 5m plus a wild as 5m)."""
    payload = hand("5555m123p456p789p4s", "4s", baida="3s")
    refused(scored(payload), "not_a_win")
    payload["options"] = {"wild_fifth_copy": True}
    assert items(scored(payload)) == {"single_wait": 1, "baida_win": 1, "wild_pair": 1, "self_draw": 1}


def test_indicator_is_a_copy_for_the_fifth_copy_rule() -> None:
    """Three wild 3s used as themselves plus another wild as 3s would be a fifth 3s with the
    indicator shown: no arrangement the hand is paid on stands for more than three 3s."""
    payload = hand("3334s12s123m456m77z", "7z", baida="3s", options={"hai_da": "per_tile"})
    result = scored(payload)
    stands = [w["stands_for"] for w in result["wilds"]["in_hand"]]
    assert stands.count("3s") <= 3
    payload["options"]["wild_fifth_copy"] = True
    lifted = scored(payload)
    assert [w["stands_for"] for w in lifted["wilds"]["in_hand"]].count("3s") == 4


# --------------------------------------------------------------------------- the tai table, row by row

ROWS = [
    # (test id, payload, expected items)
    ("edge_wait_123_needing_3", hand(PLAIN, "3m"), {"edge_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1}),
    (
        "edge_wait_789_needing_7",
        hand("789m456p678s22s555z", "7m"),
        {"edge_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1},
    ),
    (
        "closed_wait_3_5_waiting_4",
        hand("345m456p678s22s555z", "4m"),
        {"closed_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1},
    ),
    ("single_wait", hand(PLAIN, "2s"), {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1}),
    (
        "two_sided_wait_scores_nothing",
        hand("234m456p22s555z666z", "4m"),
        {"no_baida": 1, "dragon_pung": 2, "self_draw": 1},
    ),
    (
        "baida_win_winning_tile_is_wild",
        hand("12m4s456p678s22s555z", "4s", baida="3s"),
        {"edge_wait": 1, "baida_win": 1, "dragon_pung": 1, "self_draw": 1},
    ),
    ("no_baida", hand(PLAIN, "2s"), {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1}),
    ("pure_suit", hand("123m456m789m234m55m", "9m", by="discard", frm="W"), {"no_baida": 1, "pure_suit": 4}),
    (
        "half_pure_suit",
        hand("123m456m789m555z11z", "1z", by="discard", frm="W"),
        {"single_wait": 1, "no_baida": 1, "half_pure_suit": 2, "dragon_pung": 1},
    ),
    (
        "all_pungs",
        hand("111m555p999s777z22s", "2s", by="discard", frm="W"),
        {"single_wait": 1, "no_baida": 1, "all_pungs": 2, "dragon_pung": 1},
    ),
    (
        "kong_win",
        hand("123m456s789s55z", "5z", melds=[{"type": "concealed_kong", "tiles": "2222p"}], after_kong=True),
        {"single_wait": 1, "no_baida": 1, "kong_win": 1, "self_draw": 1},
    ),
    (
        "last_tile",
        hand(PLAIN, "2s", last_tile=True),
        {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1, "last_tile": 1},
    ),
    (
        "self_draw",
        hand("123m456p678s22s111z", "2s"),
        {"single_wait": 1, "no_baida": 1, "round_wind_pung": 1, "self_draw": 1},
    ),
    (
        "hai_da_wild_as_itself",
        hand("123m456p345s22s555z", "2s", baida="3s"),
        {"single_wait": 1, "hai_da": 1, "dragon_pung": 1, "self_draw": 1},
    ),
    (
        "wild_pair_self_drawn",
        hand("123m456p678s4s555z2s", "2s", baida="3s"),
        {"single_wait": 1, "wild_pair": 1, "dragon_pung": 1, "self_draw": 1},
    ),
    (
        "dragon_pung_each",
        hand("123m456p555z666z22s", "2s", by="discard", frm="W"),
        {"single_wait": 1, "no_baida": 1, "dragon_pung": 2},
    ),
    (
        "dragon_kong_counts",
        hand("123m456p678s22s", "2s", melds=[{"type": "kong", "tiles": "7777z", "from": "N"}]),
        {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1},
    ),
    (
        "round_wind_pung",
        hand("123m456p678s111z22s", "2s"),
        {"single_wait": 1, "no_baida": 1, "round_wind_pung": 1, "self_draw": 1},
    ),
    (
        "seat_wind_pung",
        hand("123m456p678s222z22s", "2s"),
        {"single_wait": 1, "no_baida": 1, "seat_wind_pung": 1, "self_draw": 1},
    ),
    (
        "round_and_seat_wind_for_east",
        hand("123m456p678s111z22s", "2s", winner="E", by="discard", frm="S"),
        {"single_wait": 1, "no_baida": 1, "round_wind_pung": 1, "seat_wind_pung": 1},
    ),
    (
        "eight_flowers",
        hand(PLAIN, "2s", by="discard", frm="W", flowers="12345678f"),
        {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "eight_flowers": 10},
    ),
    (
        "all_honours",
        hand("111z222z333z555z77z", "7z", by="discard", frm="N"),
        {
            "single_wait": 1,
            "no_baida": 1,
            "all_pungs": 2,
            "all_honours": 10,
            "round_wind_pung": 1,
            "seat_wind_pung": 1,
            "dragon_pung": 1,
        },
    ),
    (
        "heavenly_hand",
        hand(PLAIN, "2s", winner="E", first_turn=True),
        {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1, "heavenly_hand": 10},
    ),
    (
        "earthly_hand",
        hand(PLAIN, "2s", by="discard", frm="E", first_turn=True),
        {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "earthly_hand": 10},
    ),
]


@pytest.mark.parametrize("payload, expected", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_tai_table_row(payload: dict, expected: dict[str, int]) -> None:
    result = scored(payload)
    assert items(result) == expected
    assert exit_code(result) == 0


def test_hai_da_wilds_shown_as_themselves() -> None:
    result = scored(hand("123m456p345s22s555z", "2s", baida="3s"))
    assert result["wilds"] == {
        "indicator": "3s",
        "kinds": ["3s", "4s"],
        "in_hand": [{"tile": "3s", "stands_for": "3s"}, {"tile": "4s", "stands_for": "4s"}],
    }


def test_option_hai_da_per_tile() -> None:
    result = scored(hand("123m456p345s22s555z", "2s", baida="3s", options={"hai_da": "per_tile"}))
    assert items(result)["hai_da"] == 2


def test_option_baida_win_any_substitute() -> None:
    """Default: a wild standing for 3m with a natural winning tile is no 'Baida win' (3 tai,
    refused); option any_substitute counts it."""
    payload = hand("12m4s456p678s22s555z", "2s", baida="3s")
    refused(scored(payload), "below_minimum")
    payload["options"] = {"baida_win": "any_substitute"}
    assert items(scored(payload)) == {"single_wait": 1, "baida_win": 1, "dragon_pung": 1, "self_draw": 1}


def test_option_baida_win_never() -> None:
    payload = hand("12m4s456p678s22s555z", "4s", baida="3s", options={"baida_win": "never"})
    refused(scored(payload), "below_minimum")


def test_wild_pair_on_discard_default_allowed_without_tai() -> None:
    """A discard completing a pair with a wild wins (no 炮搭摸搭 tai: it is not self-drawn)."""
    payload = hand("123m456p111z555z4s7z", "7z", winner="E", baida="3s", by="discard", frm="S")
    assert items(scored(payload)) == {"single_wait": 1, "dragon_pung": 1, "round_wind_pung": 1, "seat_wind_pung": 1}


def test_option_wild_pair_on_discard_refused() -> None:
    payload = hand(
        "123m456p111z555z4s7z",
        "7z",
        winner="E",
        baida="3s",
        by="discard",
        frm="S",
        options={"wild_pair_on_discard": False},
    )
    refused(scored(payload), "not_on_discard")
    payload["win"] = {"by": "self_draw"}
    assert "wild_pair" in items(scored(payload))


def test_option_waits_need_single_tile() -> None:
    """2344m waits 1m and 4m: the 4m can sit in the pair (a single-wait shape), but the hand did
    not wait on that one kind. A real closed wait (13m waiting 2m) keeps its tai."""
    multi = hand("23444m456p678s555z", "4m")
    assert items(scored(multi)) == {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1}
    multi["options"] = {"waits_need_single_tile": True}
    refused(scored(multi), "below_minimum")
    closed = hand(PLAIN, "2m", options={"waits_need_single_tile": True})
    assert "closed_wait" in items(scored(closed))


def test_wait_best_placement_is_paid() -> None:
    """The winning tile may sit in several groups; the best place is paid. 5m as the pair (single)
    or inside 456m (closed) are worth the same; a tie keeps the first shape in name order."""
    result = scored(hand("123m456m789m234m55m", "5m"))
    assert items(result) == {"closed_wait": 1, "no_baida": 1, "pure_suit": 4, "self_draw": 1}
    two_sided = scored(hand("123m456m789m234m55m", "6m"))
    assert items(two_sided) == {"no_baida": 1, "pure_suit": 4, "self_draw": 1}


def test_flush_excludes_wild_faces() -> None:
    """'All tiles from a single suit (excluding wilds)': a 4s wild standing for 5m keeps the
    character flush."""
    result = scored(hand("123m456m789m234m5m4s", "5m", baida="3s"))
    assert items(result)["pure_suit"] == 4
    assert result["wilds"]["in_hand"] == [{"tile": "4s", "stands_for": "5m"}]


def test_all_honours_option_value() -> None:
    result = scored(hand("111z222z333z555z77z", "7z", by="discard", frm="N", options={"all_honours_tai": 20}))
    assert items(result)["all_honours"] == 20
    assert result["value"] == 27


def test_option_kong_win_both_doubles() -> None:
    """'Kong Flower Win … x2' on top of the 1-tai Kong Win row: 4 tai × 2 = 8 from each."""
    payload = hand("123m456s789s55z", "5z", melds=[{"type": "concealed_kong", "tiles": "2222p"}], after_kong=True)
    result = scored(payload)
    assert result["value"] == 8
    assert result["payments"] == {"E": -8, "S": 24, "W": -8, "N": -8}
    assert [m["name"] for m in result["multipliers"]] == ["kong_flower"]


def test_option_kong_win_tai_only() -> None:
    payload = hand(
        "123m456s789s55z",
        "5z",
        melds=[{"type": "concealed_kong", "tiles": "2222p"}],
        after_kong=True,
        options={"kong_win": "tai_only"},
    )
    result = scored(payload)
    assert result["value"] == 4 and result["multipliers"] == []


def test_option_kong_win_multiplier_only() -> None:
    payload = hand(
        "123m456s789s55z",
        "5z",
        melds=[{"type": "concealed_kong", "tiles": "2222p"}],
        after_kong=True,
        options={"kong_win": "multiplier_only"},
    )
    refused(scored(payload), "below_minimum")
    payload["options"]["minimum_tai"] = 3
    result = scored(payload)
    assert result["value"] == 6


def test_kong_win_counts_as_self_draw_only() -> None:
    """'Kong Flower Win … also counts as a self-draw': a kong win on a discard is bad input."""
    payload = hand(
        "123m456s789s55z",
        "5z",
        by="discard",
        frm="W",
        after_kong=True,
        melds=[{"type": "concealed_kong", "tiles": "2222p"}],
    )
    result = scored(payload)
    bad(result, "bad_input", "win.after_kong")
    assert "self_draw" in result["error"]["message"]


def test_kong_win_needs_a_kong() -> None:
    """'Winning immediately after declaring a Kong': a kong win with no kong in the hand is bad input."""
    result = scored(hand(PLAIN, "2s", after_kong=True))
    bad(result, "bad_input", "win.after_kong")
    assert "no kong" in result["error"]["message"]


def test_last_tile_on_discard_default_and_option() -> None:
    payload = hand(PLAIN, "2s", by="discard", frm="W", last_tile=True)
    refused(scored(payload), "below_minimum")
    payload["options"] = {"last_discard_counts": True}
    assert items(scored(payload))["last_tile"] == 1


def test_earthly_hand_needs_the_dealers_discard() -> None:
    payload = hand(PLAIN, "2s", by="discard", frm="W", first_turn=True)
    refused(scored(payload), "below_minimum")


@pytest.mark.parametrize(
    "rule, by, expect",
    [
        ("first_discard", "self_draw", False),
        ("first_draw", "self_draw", True),
        ("either", "self_draw", True),
        ("first_draw", "discard", False),
        ("either", "discard", True),
    ],
)
def test_option_earthly_hand(rule: str, by: str, expect: bool) -> None:
    payload = hand(
        PLAIN,
        "2s",
        by=by,
        frm="E" if by == "discard" else None,
        first_turn=True,
        options={"earthly_hand": rule, "minimum_tai": 0},
    )
    assert ("earthly_hand" in items(scored(payload))) is expect


def test_heavenly_hand_is_dealer_only() -> None:
    payload = hand(PLAIN, "2s", winner="S", first_turn=True)
    assert "heavenly_hand" not in items(scored(payload))


def test_flower_options_seat_other_and_set() -> None:
    """Flowers score only through 8 flowers by default; seat / other flowers and a complete set of
    four are options (South's flowers are 2f and 6f)."""
    payload = hand(PLAIN, "2s", flowers="12346f")
    assert items(scored(payload)) == {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1}
    payload["options"] = {"seat_flower_tai": 1, "other_flower_tai": 1, "flower_set_tai": 2}
    got = items(scored(payload))
    assert got["seat_flowers"] == 2 and got["other_flowers"] == 3 and got["flower_set"] == 2


# --------------------------------------------------------------------------- minimum


def test_minimum_four_tai_exactly_pays() -> None:
    """'A player can declare a win by forming a valid hand with at least 4 tai.'"""
    assert scored(hand(PLAIN, "2s"))["value"] == 4


def test_below_four_tai_refused() -> None:
    result = scored(hand(PLAIN, "2s", by="discard", frm="W"))
    refused(result, "below_minimum")
    assert "3 tai" in result["error"]["message"]


def test_option_minimum_tai() -> None:
    result = scored(hand(PLAIN, "2s", by="discard", frm="W", options={"minimum_tai": 3}))
    assert result["value"] == 3 and result["payments"] == {"E": 0, "S": 3, "W": -3, "N": 0}


def test_not_a_win_refused() -> None:
    refused(scored(hand("123m456p678s22s567z", "2s")), "not_a_win")


def test_seven_pairs_is_not_a_win() -> None:
    """'four complete sets and one pair' — seven pairs does not win here."""
    refused(scored(hand("1133m5577p22s5566z", "2s")), "not_a_win")


# --------------------------------------------------------------------------- payments


def test_payout_self_draw_all_players_pay() -> None:
    """'If it is a self-draw win, all players pay.'"""
    assert scored(hand(PLAIN, "2s"))["payments"] == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_payout_discard_the_discarder_pays() -> None:
    """'If it is a discard win, the discarder pays.'"""
    result = scored(hand("123m456p555z666z22s", "2s", by="discard", frm="N"))
    assert result["payments"] == {"E": 0, "S": 4, "W": 0, "N": -4}


def test_example_robbing_a_kong_declarer_pays_x5() -> None:
    """'If Player A declares an exposed Kong and Player B Robs the Kong on the tile Player A tries
    to add, Player A must pay the entire winning multiplied by 5.'"""
    result = scored(hand("123m456p555z666z22s", "3m", by="discard", frm="W", robbed_kong=True))
    assert items(result) == {"edge_wait": 1, "no_baida": 1, "dragon_pung": 2}
    assert result["value"] == 20
    assert result["payments"] == {"E": 0, "S": 20, "W": -20, "N": 0}
    assert result["multipliers"][0]["factor"] == 5 and result["multipliers"][0]["payer"] == "W"


CONTRACT_MELDS = [pung("555z", "W"), pung("666z", "W"), pung("777z", "W")]


def test_example_three_meld_contract_self_draw() -> None:
    """'If Player A has melded three times from Player B's discards, then if Player A wins, the
    share of points that all players owe will be paid entirely by B multiplied by 5.'
    Self-draw: three shares of 6 tai, ×5, all from West."""
    result = scored(hand("123m22s", "2s", melds=CONTRACT_MELDS))
    assert items(result) == {"single_wait": 1, "no_baida": 1, "dragon_pung": 3, "self_draw": 1}
    assert result["payments"] == {"E": 0, "S": 90, "W": -90, "N": 0}
    assert result["contract"] == {"payer": "W", "claims": 3}


def test_three_meld_contract_regardless_of_winning_method() -> None:
    """'… the contracted player is fully responsible for the payment regardless of winning
    method': North discards, West pays the share ×5."""
    result = scored(hand("123m22s", "2s", by="discard", frm="N", melds=CONTRACT_MELDS))
    assert result["payments"] == {"E": 0, "S": 25, "W": -25, "N": 0}


def test_option_contract_pays_one_share() -> None:
    result = scored(hand("123m22s", "2s", melds=CONTRACT_MELDS, options={"contract_pays": "one_share"}))
    assert result["payments"] == {"E": 0, "S": 30, "W": -30, "N": 0}


def test_contract_from_context_claims() -> None:
    """Claims the hand no longer shows (context.claims) count too."""
    result = scored(hand(PLAIN, "2s", context={"claims": {"S": {"N": 3}}}))
    assert result["payments"] == {"E": 0, "S": 60, "W": 0, "N": -60}


def test_two_claims_make_no_contract() -> None:
    result = scored(hand("123m456p22s", "2s", melds=[pung("555z", "W"), pung("666z", "W")]))
    assert "contract" not in result and result["payments"]["E"] == -5


def test_option_contract_counts_chows() -> None:
    """The prose says 'Chowed/Ponged/Konged', the table 'pungs or kongs' (default)."""
    melds = [{"type": "chow", "tiles": "345p", "from": "W"}, pung("555z", "W"), pung("666z", "W")]
    payload = hand("123m22s", "2s", melds=melds)
    assert "contract" not in scored(payload)
    payload["options"] = {"contract_counts_chows": True}
    assert scored(payload)["contract"]["payer"] == "W"


def test_contract_and_robbed_kong_pay_x5_once() -> None:
    melds = [pung("555z", "W"), pung("666z", "W"), pung("777z", "W")]
    result = scored(hand("123m22s", "3m", by="discard", frm="N", robbed_kong=True, melds=melds))
    assert items(result) == {"edge_wait": 1, "no_baida": 1, "dragon_pung": 3}
    assert result["payments"] == {"E": 0, "S": 25, "W": -25, "N": 0}
    assert result["notes"]


def test_option_claimed_chows_off() -> None:
    chow = {"type": "chow", "tiles": "123m", "from": "E"}
    result = scored(hand("456p678s22s555z", "2s", melds=[chow], options={"claimed_chows": False}))
    refused(result, "chow_claim_not_allowed")
    assert result["error"]["field"] == "hand.melds[0]"


def test_added_kong_accepted() -> None:
    """'you can add it to your completed pung … Declare the open melded kong.'"""
    melds = [{"type": "added_kong", "tiles": "5555z", "from": "W"}]
    result = scored(hand("123m456p678s22s", "2s", melds=melds))
    assert items(result) == {"single_wait": 1, "no_baida": 1, "dragon_pung": 1, "self_draw": 1}


# --------------------------------------------------------------------------- several winners


def test_example_two_winners_closest_in_turn_takes_it() -> None:
    """'If more than one player needs the discarded tile for the win, it goes to whoever is closer
    in turn after the person who discarded the tile.' West discards: North before South."""
    south = hand("123m456p555z666z22s", "2s", winner="S", by="discard", frm="W")
    north = hand("789m789p777z111z22s", "2s", winner="N", by="discard", frm="W")
    result = scored([south, north])
    assert result["ok"]
    assert result["payments"] == {"E": 0, "S": 0, "W": -4, "N": 4}
    assert result["results"][0]["tile_goes_to"] == "N"


def test_two_winners_refused_closest_passes_on() -> None:
    south = hand("123m456p555z666z22s", "2s", winner="S", by="discard", frm="W")
    north = hand("123m456p678s22s777z", "2s", winner="N", by="discard", frm="W")  # 3 tai: below the minimum
    assert scored([south, north])["payments"] == {"E": 0, "S": 4, "W": -4, "N": 0}


def test_two_winners_all_refused_names_the_closest() -> None:
    south = hand(PLAIN, "2s", winner="S", by="discard", frm="W")
    north = hand("123m456p678s22s777z", "2s", winner="N", by="discard", frm="W")
    result = scored([south, north])
    refused(result, "below_minimum")
    assert result["error"]["message"].startswith("N's hand:")


def test_two_winners_must_win_on_the_same_tile() -> None:
    south = hand("123m456p555z666z22s", "2s", winner="S", by="discard", frm="W")
    north = hand("789m789p777z111z33s", "3s", winner="N", by="discard", frm="W")
    bad(scored([south, north]), "bad_input", "[1].hand.winning_tile")


def test_option_multiple_winners_all() -> None:
    south = hand("123m456p555z666z22s", "2s", winner="S", by="discard", frm="W", options={"multiple_winners": "all"})
    north = hand("789m789p777z111z22s", "2s", winner="N", by="discard", frm="W", options={"multiple_winners": "all"})
    assert scored([south, north])["payments"] == {"E": 0, "S": 4, "W": -8, "N": 4}


# --------------------------------------------------------------------------- dealer, kongs, waits, describe


def test_dealer_always_passes() -> None:
    """'After each game, the next person to the right (counterclockwise) becomes the dealer.'"""
    opts = resolve_options(VARIANT.options, {})
    assert VARIANT.next_dealer(["E"], False, opts) == "S"
    assert VARIANT.next_dealer(["W"], False, opts) == "S"
    assert VARIANT.next_dealer([], True, opts) == "S"
    assert VARIANT.next_dealer(["N", "W"], False, opts, discarder="S") == "S"
    assert VARIANT.next_dealer([], True, opts, last_drawer="W") == "S"


def test_no_kong_payments() -> None:
    opts = resolve_options(VARIANT.options, {})
    for kind in MeldKind:
        assert set(VARIANT.kong_payments(kind, "S", "W", opts).values()) == {0}


def test_waits_with_wilds() -> None:
    result = waits(
        {"variant": "ningbo", "winner": "S", "indicators": {"baida": "9p"}, "hand": {"concealed": "123m456p678s2s555z"}}
    )
    assert exit_code(result) == 0
    assert "2s" in result["waits"] and "9p" in result["waits"] and "1p" in result["waits"]
    assert result["wilds"] == {"indicator": "9p", "kinds": ["1p", "9p"]}


def test_waits_standard_form_only() -> None:
    """Only 'four complete sets and one pair' win: a hand one tile from seven pairs or thirteen
    orphans waits on nothing (those hands are refused as not_a_win)."""
    for concealed in ("1133m5577p22s556z", "19m19p19s1234567z"):
        result = waits(
            {"variant": "ningbo", "winner": "S", "indicators": {"baida": "9p"}, "hand": {"concealed": concealed}}
        )
        assert result["ok"] and result["waits"] == [], result


def test_waits_indicator_limits_wilds() -> None:
    """A wild cannot be a fifth 5z (three held, one drawn): 5z is no wait; a flower indicator's wild
    flowers are waits (a self-drawn wild completes the hand)."""
    result = waits(
        {"variant": "ningbo", "winner": "S", "indicators": {"baida": "3f"}, "hand": {"concealed": "123m456p678s1f555z"}}
    )
    assert "5z" not in result["waits"] and "2f" in result["waits"] and "3f" not in result["waits"]
    assert "1z" in result["waits"]


def test_waits_checks_melds_like_score() -> None:
    """waits rejects what score rejects about where tiles sit: a wild in a declared pung, a claimed
    chow at a table without chows."""
    base = {"variant": "ningbo", "winner": "S", "indicators": {"baida": "3s"}}
    bad(
        waits(base | {"hand": {"concealed": "123m456p678s2s", "melds": [pung("444s", "W")]}}),
        "wild_in_meld",
        "hand.melds[0]",
    )
    chow = {"type": "chow", "tiles": "123m", "from": "E"}
    result = waits(
        base | {"options": {"claimed_chows": False}, "hand": {"concealed": "456p678s2s555z", "melds": [chow]}}
    )
    refused(result, "chow_claim_not_allowed")
    assert result["error"]["field"] == "hand.melds[0]"


def test_describe_lists_ningbo_options() -> None:
    ningbo = next(v for v in describe_variants() if v["name"] == "ningbo")
    assert ningbo["tiles"] == 144
    assert {o["name"] for o in ningbo["options"]} >= {"minimum_tai", "wild_fifth_copy", "require_baida"}


def test_next_in_cycle_agrees_with_guide_dragons() -> None:
    """Green → Red → White → Green (6z → 7z → 5z → 6z)."""
    assert [tile_str(next_in_cycle(parse_tile(t))) for t in ("6z", "7z", "5z")] == ["7z", "5z", "6z"]


@pytest.mark.parametrize(
    "concealed, win, baida, by",
    [
        ("3334s12s123m456m77z", "7z", "3s", "self_draw"),
        ("3344s123m456p789s5z", "4s", "3s", "self_draw"),
        ("334s55m666m789m111z", "5m", "3s", "discard"),
        ("1f2f4f123m456p789s55z", "5z", "3f", "self_draw"),
        ("9p1p1p1p23m456s777z88s", "1p", "9p", "self_draw"),
    ],
)
def test_representative_kinds_pay_like_all_kinds(
    monkeypatch: pytest.MonkeyPatch, concealed: str, win: str, baida: str, by: str
) -> None:
    """Groups made only of wilds are tried over representative kinds (_free_kinds); the paid
    result is the one trying all 34 kinds would give."""
    import engine.rules.ningbo.variant as ningbo

    payload = hand(concealed, win, baida=baida, by=by, frm="W" if by == "discard" else None, options={"minimum_tai": 0})
    fast = scored(payload)
    monkeypatch.setattr(ningbo, "_free_kinds", lambda inp, wild: list(range(34)))
    full = scored(payload)
    assert fast["ok"] and full["ok"], (fast, full)
    assert fast["value"] == full["value"] and items(fast) == items(full)


def test_many_wilds_stay_fast() -> None:
    start = time.perf_counter()
    result = scored(hand("3334444s1234567m", "4s", baida="3s"))
    assert result["ok"] and time.perf_counter() - start < 3


# --------------------------------------------------------------------------- malformed input


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda p: p.update(options={"nope": 1}), "options.nope"),
        (lambda p: p.update(options={"minimum_tai": "4"}), "options.minimum_tai"),
        (lambda p: p.update(options={"baida_win": "sometimes"}), "options.baida_win"),
        (lambda p: p["hand"].update(concealed="123m456p678s22s555"), "hand.concealed"),
        (lambda p: p.update(indicators={"baida": "0m"}), "indicators.baida"),
        (lambda p: p["win"].update(by="ron"), "win.by"),
        (lambda p: p.update(options={"all_honours_tai": -10}), "options.all_honours_tai"),
        (lambda p: p.update(options={"minimum_tai": -1}), "options.minimum_tai"),
        (lambda p: p.update(options={"seat_flower_tai": 1.5}), "options.seat_flower_tai"),
        (lambda p: p.update(options={"kong_win": True}), "options.kong_win"),
    ],
)
def test_malformed_input_names_field(mutate, field: str) -> None:
    payload = hand(PLAIN, "2s")
    mutate(payload)
    result = scored(payload)
    assert not result["ok"] and exit_code(result) == 2
    assert result["error"]["field"] == field


# --------------------------------------------------------------------------- properties

_SUITED = list(range(27))
_KINDS = list(range(34))


@st.composite
def winning_payloads(draw) -> dict:
    indicator = draw(st.sampled_from([*range(34), *range(34, 42)]))
    counts = [0] * 42
    counts[indicator] += 1
    parts: list[int] = []
    for _ in range(4):
        if draw(st.booleans()):
            start = draw(st.sampled_from([k for k in _SUITED if k % 9 <= 6]))
            group = [start, start + 1, start + 2]
        else:
            group = [draw(st.sampled_from(_KINDS))] * 3
        parts.extend(group)
    pair = draw(st.sampled_from(_KINDS))
    parts.extend([pair, pair])
    for t in parts:
        counts[t] += 1
    assume(all(c <= 4 for c in counts[:34]))
    tiles = "".join(tile_str(t) for t in parts)
    win = tile_str(draw(st.sampled_from(parts)))
    winner = draw(st.sampled_from("ESWN"))
    by = draw(st.sampled_from(["self_draw", "discard"]))
    frm = draw(st.sampled_from([s for s in "ESWN" if s != winner]))
    flags = {k: draw(st.booleans()) for k in ("last_tile", "first_turn")}
    return hand(
        tiles,
        win,
        winner=winner,
        by=by,
        frm=frm if by == "discard" else None,
        baida=tile_str(indicator),
        round_wind=draw(st.sampled_from("ESWN")),
        options={"minimum_tai": draw(st.sampled_from([0, 4]))},
        **flags,
    )


@settings(max_examples=120, deadline=None)
@given(winning_payloads())
def test_property_payments_sum_to_zero(payload: dict) -> None:
    result = scored(payload)
    assert exit_code(result) in (0, 1), result
    if result["ok"]:
        assert sum(result["payments"].values()) == 0
        assert result["payments"][payload["winner"]] > 0 or result["value"] == 0


_json = json_junk(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("123456789mpszfESWN", max_size=20),
    [
        "variant",
        "winner",
        "hand",
        "concealed",
        "winning_tile",
        "melds",
        "win",
        "by",
        "from",
        "indicators",
        "baida",
        "options",
        "type",
        "tiles",
        "context",
        "claims",
        "flowers",
    ],
    max_size=5,
    max_leaves=15,
)


@settings(max_examples=150, deadline=None)
@given(_json, st.sampled_from([None, "3s", "3f", "9m", "x"]))
def test_property_random_payloads_never_raise(junk: Any, baida: str | None) -> None:
    payload = junk if not isinstance(junk, dict) else {"variant": "ningbo", **junk}
    if isinstance(payload, dict) and baida is not None:
        payload["indicators"] = {"baida": baida}
    result = scored(payload)
    assert isinstance(result, dict) and exit_code(result) in (0, 1, 2)
    assert isinstance(waits(payload), dict)
