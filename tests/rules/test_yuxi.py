"""Yuxi Flower Blooming Mahjong through the JSON contract.

Every row of the guide's payout table, its who-pays table, its base-points sentence and its dealer
sentence is a test; so is each reading in docs/rules/yuxi.md and each option (default and not).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contract import exit_code, waits
from engine.melds import MeldKind
from engine.rules import get_variant
from engine.rules.base import resolve_options
from engine.seats import Seat
from engine.tiles import format_tiles
from tests.builders import json_junk, scored
from tests.builders import payload as build_payload

YUXI = get_variant("yuxi")
KONG_6P = {"type": "kong", "tiles": "6666p", "from": "N"}
CKONG_9S = {"type": "concealed_kong", "tiles": "9999s"}

BASIC = "123m456p789s234s55m"  # four chows and a pair: no row of the table
ALL_TRIPLETS = "111m222p333s444s55m"
FULL_FLUSH = "123m456m789m234m55m"
SEVEN_PAIRS = "1122m3344p5566s77z"
DRAGON_7P = "1111m3344p5566s77z"
DOUBLE_DRAGON_7P = "1111m3333p5566s77z"
TRIPLE_DRAGON_7P = "1111m3333p5555s77z"
PURE_TRIPLE_DRAGON_7P = "11113333555577m"
FOUR_BLESSINGS = "111z222z333z444z55m"


payload = partial(build_payload, "yuxi")


def names(result: dict) -> list[str]:
    return [i["name"] for i in result["items"] if i["name"] != "base_points"]


def factors(result: dict) -> list[int]:
    return [m["factor"] for m in result["multipliers"]]


DISCARD_W = {"by": "discard", "from": "W"}

# --------------------------------------------------------------------------- the payout table, row by row

# (test id, payload, expected row names, value per payer)
TABLE_ROWS = [
    ("basic_win_self_draw", payload(BASIC), ["basic_win"], 1),
    ("all_triplets", payload(ALL_TRIPLETS), ["all_triplets"], 2),
    ("full_flush", payload(FULL_FLUSH), ["full_flush"], 2),
    ("seven_pairs", payload(SEVEN_PAIRS), ["seven_pairs"], 2),
    ("ten_old_men", payload(BASIC, win={"ten_old_men": True}), ["ten_old_men"], 2),
    ("flower_bloom", payload("123m789s11z222z", "2z", melds=[KONG_6P], win={"after_kong": True}), ["flower_bloom"], 2),
    (
        "double_gang_on_flower",
        payload("123m11z222z", "2z", melds=[KONG_6P, CKONG_9S], win={"after_kong": True, "double_kong": True}),
        ["flower_bloom", "double_gang_on_flower"],
        4,
    ),
    (
        "kong_discard_win",
        payload(BASIC, win={"by": "discard", "from": "W", "after_kong": True}),
        ["kong_discard_win"],
        2,
    ),
    ("robbing_a_kong", payload(BASIC, win={"by": "discard", "from": "N", "robbed_kong": True}), ["robbing_a_kong"], 2),
    ("dragon_seven_pairs", payload(DRAGON_7P), ["dragon_seven_pairs"], 4),
    ("double_dragon_seven_pairs", payload(DOUBLE_DRAGON_7P), ["double_dragon_seven_pairs"], 8),
    ("triple_dragon_seven_pairs", payload(TRIPLE_DRAGON_7P), ["triple_dragon_seven_pairs"], 16),
    ("pure_triple_dragon_seven_pairs", payload(PURE_TRIPLE_DRAGON_7P), ["pure_triple_dragon_seven_pairs"], 32),
    ("four_great_blessings", payload(FOUR_BLESSINGS), ["four_great_blessings"], 32),
    ("heavenly_win", payload(BASIC, winner="E", win={"first_turn": True}), ["heavenly_win"], 32),
    ("earthly_win", payload(BASIC, win={"by": "discard", "from": "E", "first_turn": True}), ["earthly_win"], 32),
]


@pytest.mark.parametrize("case, expected, value", [r[1:] for r in TABLE_ROWS], ids=[r[0] for r in TABLE_ROWS])
def test_payout_table_row(case: dict, expected: list[str], value: int) -> None:
    result = scored(case)
    assert result["ok"], result
    assert names(result) == expected
    assert result["value"] == value
    assert sum(result["payments"].values()) == 0
    assert exit_code(result) == 0


def test_basic_win_refused_on_discard() -> None:
    result = scored(payload(BASIC, win=DISCARD_W))
    assert result["error"]["code"] == "not_on_discard"
    assert exit_code(result) == 1


def test_basic_win_counts_only_base_points() -> None:
    result = scored(payload(BASIC, options={"base_points": 3}))
    assert result["value"] == 3 and result["multipliers"] == []
    assert result["items"][0] == {"name": "base_points", "label": "Base points", "label_zh": "底分", "value": 3}


def test_patterned_hand_may_be_won_on_discard() -> None:
    result = scored(payload(ALL_TRIPLETS, win=DISCARD_W))
    assert result["payments"] == {"E": 0, "S": 2, "W": -2, "N": 0}


def test_thirteen_orphans_is_not_a_yuxi_win() -> None:
    result = scored(payload("19m19p19s12345677z", "7z"))
    assert result["error"]["code"] == "not_a_win"
    assert exit_code(result) == 1


def test_not_a_win() -> None:
    result = scored(payload("123m456p789s235s55m"))
    assert result["error"]["code"] == "not_a_win"


# --------------------------------------------------------------------------- who pays and base points


def test_self_draw_all_three_pay_the_total_each() -> None:
    result = scored(payload(ALL_TRIPLETS))
    assert result["payments"] == {"E": -2, "S": 6, "W": -2, "N": -2}


def test_discard_discarder_pays_the_entire_amount() -> None:
    result = scored(payload(SEVEN_PAIRS, win={"by": "discard", "from": "N"}))
    assert result["payments"] == {"E": 0, "S": 2, "W": 0, "N": -2}


def test_robbed_kong_declarer_pays() -> None:
    result = scored(payload(ALL_TRIPLETS, win={"by": "discard", "from": "E", "robbed_kong": True}))
    assert result["payments"] == {"E": -4, "S": 4, "W": 0, "N": 0}


def test_dealer_self_draw_pays_like_anyone() -> None:
    result = scored(payload(ALL_TRIPLETS, winner="E"))
    assert result["payments"] == {"E": 6, "S": -2, "W": -2, "N": -2}


@pytest.mark.parametrize("base", [1, 2, 3, 5, 10])
def test_payout_is_base_points_times_multiplier(base: int) -> None:
    result = scored(payload(ALL_TRIPLETS, options={"base_points": base}))
    assert result["value"] == 2 * base
    assert result["payments"]["S"] == 6 * base


@pytest.mark.parametrize("bad", [0, -1])
def test_base_points_must_be_positive(bad: int) -> None:
    result = scored(payload(BASIC, options={"base_points": bad}))
    assert result["error"]["field"] == "options.base_points"
    assert exit_code(result) == 2


# --------------------------------------------------------------------------- combining rows


def test_rows_multiply_by_default() -> None:
    result = scored(payload("111m333m555m777m99m"))
    assert names(result) == ["all_triplets", "full_flush"]
    assert factors(result) == [2, 2] and result["value"] == 4


def test_combine_largest_counts_only_the_largest_row() -> None:
    result = scored(payload("111m333m555m777m99m", options={"combine": "largest"}))
    assert names(result) == ["all_triplets", "full_flush"]
    assert len(result["multipliers"]) == 1 and result["value"] == 2


def test_combine_largest_keeps_the_largest_of_different_values() -> None:
    result = scored(payload(DRAGON_7P, winner="E", win={"first_turn": True}, options={"combine": "largest"}))
    assert factors(result) == [32] and result["value"] == 32


def test_full_flush_seven_pairs_multiply() -> None:
    """11223344556677m: seven pairs in one suit (×2 × ×2) beats 123 123 456 456 77 (full flush ×2)."""
    result = scored(payload("11223344556677m"))
    assert names(result) == ["full_flush", "seven_pairs"] and result["value"] == 4


def test_pure_triple_dragon_replaces_full_flush_and_triple_dragon() -> None:
    """清三龙七对 ×32 = Full Flush ×2 × Triple Dragon ×16: the row stands alone in both modes."""
    for combine in ("multiply", "largest"):
        result = scored(payload(PURE_TRIPLE_DRAGON_7P, options={"combine": combine}))
        assert names(result) == ["pure_triple_dragon_seven_pairs"] and result["value"] == 32


def test_best_decomposition_is_paid() -> None:
    """11112222333377m: four chows and a pair (full flush ×2) or seven pairs with three quads (×32)."""
    result = scored(payload("11112222333377m"))
    assert result["value"] == 32
    assert result["decomposition"].startswith("seven_pairs")


def test_dragon_seven_pairs_replace_seven_pairs() -> None:
    assert "seven_pairs" not in names(scored(payload(DRAGON_7P)))


def test_four_blessings_includes_all_triplets() -> None:
    assert scored(payload(FOUR_BLESSINGS))["value"] == 32
    result = scored(payload(FOUR_BLESSINGS, options={"blessings_with_triplets": True}))
    assert names(result) == ["all_triplets", "four_great_blessings"] and result["value"] == 64


def test_four_blessings_with_declared_wind_melds() -> None:
    melds = [{"type": "pung", "tiles": "111z", "from": "E"}, {"type": "kong", "tiles": "2222z", "from": "W"}]
    result = scored(payload("333z444z55m", "5m", winner="N", melds=melds))
    assert names(result) == ["four_great_blessings"]


def test_flower_bloom_on_all_triplets_multiplies() -> None:
    result = scored(payload("111m22z333z", "3z", melds=[KONG_6P, CKONG_9S], win={"after_kong": True}))
    assert names(result) == ["all_triplets", "flower_bloom"] and result["value"] == 4


def test_double_gang_under_largest_is_worth_flower_bloom() -> None:
    result = scored(
        payload(
            "123m11z222z",
            "2z",
            melds=[KONG_6P, CKONG_9S],
            win={"after_kong": True, "double_kong": True},
            options={"combine": "largest"},
        )
    )
    assert result["value"] == 2


def test_double_gang_taking_a_bloom_tile() -> None:
    """After the second kong the player takes a bloom tile instead of the replacement: still ×2 × ×2."""
    result = scored(
        payload(
            "123m11z222z",
            "2z",
            melds=[KONG_6P, CKONG_9S],
            win={"after_kong": True, "double_kong": True},
            bloom=["2z", "3m"],
        )
    )
    assert names(result) == ["flower_bloom", "double_gang_on_flower"] and result["value"] == 4
    assert result["bloom"]["used"] == "2z"
    assert result["payments"] == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_ten_old_men_multiplies_a_hand_row() -> None:
    result = scored(payload(ALL_TRIPLETS, win={"by": "discard", "from": "E", "ten_old_men": True}))
    assert names(result) == ["all_triplets", "ten_old_men"] and result["value"] == 4
    assert result["payments"] == {"E": -4, "S": 4, "W": 0, "N": 0}


def test_ten_old_men_is_not_a_hand_row() -> None:
    """Under basic_discard_lifted_by = "hand_pattern" Ten Old Men (about discards) does not lift the ban."""
    result = scored(
        payload(BASIC, win=DISCARD_W | {"ten_old_men": True}, options={"basic_discard_lifted_by": "hand_pattern"})
    )
    assert result["error"]["code"] == "not_on_discard"


# --------------------------------------------------------------------------- the basic-win restriction


@pytest.mark.parametrize(
    "win, row, value",
    [
        ({"by": "discard", "from": "W", "after_kong": True}, "kong_discard_win", 2),
        ({"by": "discard", "from": "N", "robbed_kong": True}, "robbing_a_kong", 2),
        ({"by": "discard", "from": "E", "first_turn": True}, "earthly_win", 32),
    ],
)
def test_situational_rows_lift_the_discard_ban_by_default(win: dict, row: str, value: int) -> None:
    result = scored(payload(BASIC, win=win))
    assert [i["name"] for i in result["items"]] == ["base_points", row] and result["value"] == value
    assert result["payments"][win["from"]] == -value


def test_ten_old_men_lifts_the_discard_ban_by_default() -> None:
    result = scored(payload(BASIC, win=DISCARD_W | {"ten_old_men": True}))
    assert result["payments"]["W"] == -2


@pytest.mark.parametrize(
    "win",
    [
        {"by": "discard", "from": "W", "after_kong": True},
        {"by": "discard", "from": "N", "robbed_kong": True},
        {"by": "discard", "from": "E", "first_turn": True},
    ],
)
def test_hand_pattern_option_refuses_situational_only_discards(win: dict) -> None:
    result = scored(payload(BASIC, win=win, options={"basic_discard_lifted_by": "hand_pattern"}))
    assert result["error"]["code"] == "not_on_discard" and exit_code(result) == 1


def test_hand_pattern_option_accepts_hand_rows() -> None:
    result = scored(
        payload(
            SEVEN_PAIRS,
            win={"by": "discard", "from": "W", "after_kong": True},
            options={"basic_discard_lifted_by": "hand_pattern"},
        )
    )
    assert names(result) == ["seven_pairs", "kong_discard_win"] and result["value"] == 4


def test_basic_self_draw_allowed_under_hand_pattern_option() -> None:
    assert scored(payload(BASIC, options={"basic_discard_lifted_by": "hand_pattern"}))["value"] == 1


# --------------------------------------------------------------------------- heavenly / earthly


def test_earthly_win_self_draw_off_by_default() -> None:
    result = scored(payload(BASIC, win={"first_turn": True}))
    assert names(result) == ["basic_win"] and result["notes"]


def test_earthly_win_self_draw_option() -> None:
    result = scored(payload(BASIC, win={"first_turn": True}, options={"earthly_self_draw": True}))
    assert names(result) == ["earthly_win"]
    assert result["payments"] == {"E": -32, "S": 96, "W": -32, "N": -32}


def test_earthly_win_needs_the_dealers_discard() -> None:
    result = scored(payload(ALL_TRIPLETS, win={"by": "discard", "from": "W", "first_turn": True}))
    assert names(result) == ["all_triplets"] and result["notes"]


def test_dealer_first_turn_discard_win_is_not_heavenly() -> None:
    result = scored(payload(ALL_TRIPLETS, winner="E", win={"by": "discard", "from": "N", "first_turn": True}))
    assert names(result) == ["all_triplets"] and result["notes"]


def test_heavenly_win_each_pays() -> None:
    result = scored(payload(BASIC, winner="E", win={"first_turn": True}))
    assert result["payments"] == {"E": 96, "S": -32, "W": -32, "N": -32}


def test_last_tile_scores_nothing() -> None:
    """The payout table has no last-tile row."""
    assert scored(payload(ALL_TRIPLETS, win={"last_tile": True})) == scored(payload(ALL_TRIPLETS))
    assert scored(payload(BASIC, win=DISCARD_W | {"last_tile": True}))["error"]["code"] == "not_on_discard"


# --------------------------------------------------------------------------- bloom tiles

BLOOM_HAND = "123m789s11z222z"  # waits on 1z / 2z with the 6p kong declared


def test_bloom_tile_taken_after_kong_is_flower_blooming() -> None:
    result = scored(payload(BLOOM_HAND, "2z", melds=[KONG_6P], win={"after_kong": True}, bloom=["2z", "5p"]))
    assert names(result) == ["flower_bloom"]
    assert result["bloom"] == {"tiles": ["2z", "5p"], "used": "2z", "eligible": True}
    assert result["payments"] == {"E": -2, "S": 6, "W": -2, "N": -2}


def test_replacement_draw_with_a_bloom_tile_that_would_have_won() -> None:
    result = scored(payload(BLOOM_HAND, "2z", melds=[KONG_6P], win={"after_kong": True}, bloom=["1z", "5p"]))
    assert result["bloom"] == {"tiles": ["1z", "5p"], "used": None, "eligible": True}
    assert result["value"] == 2


def test_replacement_draw_with_useless_bloom_tiles() -> None:
    result = scored(payload(BLOOM_HAND, "2z", melds=[KONG_6P], win={"after_kong": True}, bloom=["3p", "5p"]))
    assert result["bloom"] == {"tiles": ["3p", "5p"], "used": None, "eligible": False}


def test_bloom_not_eligible_without_a_kong_win() -> None:
    result = scored(payload(ALL_TRIPLETS, bloom=["5m", "1z"]))
    assert result["bloom"] == {"tiles": ["5m", "1z"], "used": None, "eligible": False}


def test_bloom_not_taken_on_a_kong_discard_win() -> None:
    result = scored(payload(BASIC, win={"by": "discard", "from": "W", "after_kong": True}, bloom=["5m", "1z"]))
    assert result["bloom"]["used"] is None and names(result) == ["kong_discard_win"]


def test_bloom_output_without_bloom_tiles() -> None:
    assert scored(payload(BASIC))["bloom"] == {"tiles": [], "used": None, "eligible": False}


def test_bloom_tiles_count_toward_copies() -> None:
    result = scored(payload(ALL_TRIPLETS, bloom=["1m", "1m"]))
    assert result["error"]["code"] == "too_many_copies" and exit_code(result) == 2


def test_bloom_tile_taken_is_not_counted_twice() -> None:
    """The hand holds all four 4m, one of them the bloom tile it took."""
    result = scored(payload("234m444m789s22z", "4m", melds=[KONG_6P], win={"after_kong": True}, bloom=["4m", "5p"]))
    assert result["ok"] and result["bloom"]["used"] == "4m"
    assert (
        scored(payload("234m444m789s22z", "4m", melds=[KONG_6P], bloom=["4m", "5p"]))["error"]["code"]
        == "too_many_copies"
    )


def test_bloom_tile_taken_from_two_equal_bloom_tiles() -> None:
    result = scored(payload(BLOOM_HAND, "2z", melds=[KONG_6P], win={"after_kong": True}, bloom=["2z", "2z"]))
    assert result["ok"] and result["bloom"]["used"] == "2z"


def test_one_bloom_tile_left() -> None:
    result = scored(payload(BLOOM_HAND, "2z", melds=[KONG_6P], win={"after_kong": True}, bloom=["2z"]))
    assert result["bloom"] == {"tiles": ["2z"], "used": "2z", "eligible": True}


@pytest.mark.parametrize(
    "indicators, field",
    [
        ({"bloom": ["1m", "2m", "3m"]}, "indicators.bloom"),
        ({"bloom": ["1m", "1f"]}, "indicators.bloom[1]"),
        ({"bloom": ["1m", "9x"]}, "indicators.bloom[1]"),
        ({"baida": "3s"}, "indicators.baida"),
        ({"fish": ["1m"]}, "indicators.fish"),
    ],
)
def test_bad_indicators(indicators: dict, field: str) -> None:
    case = payload(BASIC)
    case["indicators"] = indicators
    result = scored(case)
    assert result["error"]["field"] == field and exit_code(result) == 2


# --------------------------------------------------------------------------- waits with bloom tiles


def waits_payload(concealed: str, *, melds: list | None = None, bloom: list | None = None) -> dict:
    hand: dict[str, Any] = {"concealed": concealed}
    if melds:
        hand["melds"] = melds
    out: dict[str, Any] = {"variant": "yuxi", "winner": "S", "hand": hand}
    if bloom is not None:
        out["indicators"] = {"bloom": bloom}
    return out


def test_waits_lists_completing_bloom_tiles() -> None:
    result = waits(waits_payload("123m789s11z22z", melds=[KONG_6P], bloom=["2z", "1m"]))
    assert result["waits"] == ["1z", "2z"]
    assert result["bloom"] == {"tiles": ["2z", "1m"], "completes": ["2z"]}


def test_waits_bloom_tiles_that_complete_both() -> None:
    """Three 1m in hand: the fourth makes a kong, after which either bloom tile completes the rest."""
    result = waits(waits_payload("111m456p789s23s55m", bloom=["1s", "4s"]))
    assert result["bloom"]["completes"] == ["1s", "4s"]


@pytest.mark.parametrize(
    "concealed, bloom",
    [
        ("123m456p789s23s55m", ["1s", "4s"]),  # no triplet, no meld: no kong can be made
        ("123m456p789s23s44s", ["4s", "4s"]),
        ("1122m3344p5566s7z", ["7z", "1m"]),  # seven pairs: concealed, no triplet
    ],
)
def test_waits_lists_no_bloom_tile_for_a_hand_that_cannot_kong(concealed: str, bloom: list) -> None:
    """A bloom tile is taken only instead of a kong's replacement: a hand with no kong that cannot
    make one lists none under `completes`, though the tile would complete it."""
    result = waits(waits_payload(concealed, bloom=bloom))
    assert result["ok"] and result["bloom"]["completes"] == []


def test_waits_bloom_after_an_added_kong_or_a_triplet_kong() -> None:
    """A pung among the melds takes its fourth tile as an added kong (the shape stays); a triplet in
    hand becomes a concealed kong, and the bloom tile must complete what is left."""
    pung = {"type": "pung", "tiles": "111m", "from": "N"}
    assert waits(waits_payload("456p789s23s55m", melds=[pung], bloom=["1s", "7z"]))["bloom"]["completes"] == ["1s"]
    # 5s wins with 11m as the pair (111m split as 11m + 123m); once 1111m is a kong, only 1m/4m complete 23m
    result = waits(waits_payload("111m23m456p789s55s", bloom=["5s", "4m"]))
    assert result["waits"] == ["1m", "4m", "5s"] and result["bloom"]["completes"] == ["4m"]


def test_waits_thirteen_orphans_shape_has_no_waits() -> None:
    result = waits(waits_payload("19m19p19s1234567z"))
    assert result["ok"] and result["waits"] == []


def test_waits_without_bloom_tiles() -> None:
    result = waits(waits_payload("123m456p789s23s55m"))
    assert result["bloom"] == {"tiles": [], "completes": []}


def test_waits_equal_bloom_tiles_listed_once() -> None:
    result = waits(waits_payload("111m456p789s23s55m", bloom=["4s", "4s"]))
    assert result["bloom"]["completes"] == ["4s"]


def test_waits_bloom_copies_limit_the_waits() -> None:
    """Two 4s face up as bloom tiles and two in hand: no 4s left to draw, but a bloom 4s still
    completes (after the fourth 1m turns the pung into a kong)."""
    pung = {"type": "pung", "tiles": "111m", "from": "N"}
    result = waits(waits_payload("456p789s23s44s", melds=[pung], bloom=["4s", "4s"]))
    assert result["waits"] == ["1s"]
    assert result["bloom"]["completes"] == ["4s"]


# --------------------------------------------------------------------------- several winners


# Winners of one discarded 5p from West (each hand's copies of 5p include that one discard).
TRIPLETS_ON_5P = "999m222s333s777z55p"  # All Triplets ×2, pair wait
SEVEN_PAIRS_ON_5P = "1122m55p5566s1144z"  # Seven Pairs ×2
FLUSH_ON_5P_S = "12223456778899p"  # Full Flush ×2: 123 456 789 789 + 22, closed 46p wait
FLUSH_ON_5P_N = "11134566778899p"  # Full Flush ×2: 111 345 678 678 + 99, two-sided 34p wait
DRAGON_ON_5P = "1111m55p223344s77z"  # Dragon Seven Pairs ×4


def test_several_winners_each_score_and_the_discarder_pays_all() -> None:
    a = payload(TRIPLETS_ON_5P, "5p", win=DISCARD_W)
    b = payload(SEVEN_PAIRS_ON_5P, "5p", win=DISCARD_W, winner="N")
    result = scored([a, b])
    assert result["ok"] and exit_code(result) == 0
    assert [names(r) for r in result["results"]] == [["all_triplets"], ["seven_pairs"]]
    assert [r["value"] for r in result["results"]] == [2, 2]
    assert result["payments"] == {"E": 0, "S": 2, "W": -4, "N": 2}


def test_three_winners_on_one_discard() -> None:
    """Each of three winners scores its own hand; West pays all three (base 2). Two Full Flush hands in
    dots and a Dragon Seven Pairs with a pair of 5p: no kind beyond four copies across the three."""
    a = payload(FLUSH_ON_5P_S, "5p", win=DISCARD_W)  # ×2
    b = payload(FLUSH_ON_5P_N, "5p", win=DISCARD_W, winner="N")  # ×2
    c = payload(DRAGON_ON_5P, "5p", win=DISCARD_W, winner="E")  # ×4
    for case in (a, b, c):
        case["options"] = {"base_points": 2}
    result = scored([a, b, c])
    assert [names(r) for r in result["results"]] == [["full_flush"], ["full_flush"], ["dragon_seven_pairs"]]
    assert [(r["winner"], r["value"]) for r in result["results"]] == [("S", 4), ("N", 4), ("E", 8)]
    assert result["payments"] == {"E": 8, "S": 4, "W": -16, "N": 4}


def test_several_winners_are_scored_independently_a_basic_one_refused_alone() -> None:
    """'all winning players score points independently': the Basic Win (not allowed on a discard)
    is refused in its own results entry, paid nothing; the other winner is paid; exit 0."""
    a = payload(ALL_TRIPLETS, win=DISCARD_W)
    b = payload(BASIC, win=DISCARD_W, winner="N")
    result = scored([a, b])
    assert exit_code(result) == 0 and result["ok"]
    paid, refused = result["results"]
    assert paid["ok"] and paid["winner"] == "S" and paid["value"] == 2 and "error" not in paid
    assert refused["ok"] is False and refused["winner"] == "N" and refused["value"] == 0
    assert refused["error"]["code"] == "not_on_discard" and refused["error"]["kind"] == "refused"
    assert refused["error"]["message"].startswith("N's hand")
    assert refused["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0} and "bloom" in refused
    assert result["payments"] == paid["payments"] == {"E": 0, "S": 2, "W": -2, "N": 0}


def test_several_winners_all_refused_refuse_the_call() -> None:
    a = payload(BASIC, win=DISCARD_W)
    b = payload(BASIC, win=DISCARD_W, winner="N")
    result = scored([a, b])
    assert result["error"]["code"] == "not_on_discard" and exit_code(result) == 1


def test_several_winners_nearest_only_option() -> None:
    """FAQ: 'it goes to whoever is closer in turn after the person who discarded the tile' (W → N → E → S)."""
    a = payload(TRIPLETS_ON_5P, "5p", win=DISCARD_W)
    b = payload(SEVEN_PAIRS_ON_5P, "5p", win=DISCARD_W, winner="N")
    for case in ([a, b], [b, a]):
        for c in case:
            c["options"] = {"multiple_winners": "nearest_only"}
        result = scored(case)
        assert result["payments"] == {"E": 0, "S": 0, "W": -2, "N": 2}
        by_winner = {r["winner"]: r for r in result["results"]}
        assert by_winner["S"]["value"] == 0 and by_winner["S"]["notes"]
        assert by_winner["N"]["value"] == 2


def test_nearest_only_with_one_winner() -> None:
    result = scored([payload(ALL_TRIPLETS, win=DISCARD_W, options={"multiple_winners": "nearest_only"})])
    assert result["payments"] == {"E": 0, "S": 2, "W": -2, "N": 0}


# --------------------------------------------------------------------------- dealer rotation


@pytest.mark.parametrize(
    "winners, drawn, options, expected",
    [
        (["E"], False, {}, "E"),  # the dealer wins: keeps the deal
        ([], True, {}, "E"),  # a draw: keeps the deal
        (["W"], False, {}, "W"),  # another player wins: the winner deals
        (["S"], False, {}, "S"),
        (["N", "E"], False, {}, "E"),  # the dealer among several winners
        (["N", "S"], False, {}, "N"),  # no discarder given: the first listed
        (["N", "S"], False, {"multi_win_dealer": "nearest_after_dealer"}, "S"),
        ([], False, {}, "E"),  # no winner given: as a draw
    ],
)
def test_next_dealer(winners: list, drawn: bool, options: dict, expected: str) -> None:
    opts = resolve_options(YUXI.options, options)
    assert YUXI.next_dealer(winners, drawn, opts) == expected


@pytest.mark.parametrize(
    "winners, discarder, options, expected",
    [
        (["S", "N"], "W", {}, "N"),  # after West: N, then E, then S
        (["N", "S"], "W", {}, "N"),  # the listing order does not matter
        (["S", "W"], "N", {}, "S"),  # after North: E, S, W
        (["W", "S"], "E", {}, "S"),
        (["S", "N"], "W", {"multi_win_dealer": "nearest_after_dealer"}, "S"),
        (["S", "E"], "W", {}, "E"),  # the dealer among the winners keeps the deal
    ],
)
def test_next_dealer_several_winners_nearest_after_discarder(
    winners: list[Seat], discarder: Seat, options: dict, expected: str
) -> None:
    """FAQ: "it goes to whoever is closer in turn after the person who discarded the tile"."""
    opts = resolve_options(YUXI.options, options)
    assert YUXI.next_dealer(winners, False, opts, discarder=discarder) == expected


def test_next_dealer_accepts_last_drawer() -> None:
    opts = resolve_options(YUXI.options, {})
    assert YUXI.next_dealer([], True, opts, discarder=None, last_drawer="W") == "E"


@pytest.mark.parametrize("kind", list(MeldKind))
def test_kongs_pay_nothing(kind: MeldKind) -> None:
    opts = resolve_options(YUXI.options, {})
    assert YUXI.kong_payments(kind, "S", "W", opts) == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_describe_lists_options() -> None:
    described = YUXI.describe()
    assert described["tiles"] == 136 and described["title_zh"] == "玉溪麻将"
    assert {o["name"] for o in described["options"]} >= {"base_points", "combine"}
    # facts of the hand travel in 'win', not as house rules
    assert not {o["name"] for o in described["options"]} & {"ten_old_men", "double_kong_bloom"}


# --------------------------------------------------------------------------- malformed input


@pytest.mark.parametrize(
    "case, field",
    [
        (payload("123m789s11z222z", "2z", win={"after_kong": True}), "hand.concealed"),
        (payload(BASIC[:-2] + "1f", "1f"), None),
        (
            payload(BASIC, win={"by": "discard", "from": "W", "after_kong": True, "robbed_kong": True}),
            "win.robbed_kong",
        ),
        # win.double_kong: two kongs among the melds, after_kong (the core checks it), a self-draw
        (payload(BLOOM_HAND, "2z", melds=[KONG_6P], win={"after_kong": True, "double_kong": True}), "win.double_kong"),
        (payload(BASIC, win={"double_kong": True}), "win.double_kong"),
        (
            payload(
                "123m11z222z",
                "2z",
                melds=[KONG_6P, CKONG_9S],
                win={"by": "discard", "from": "W", "after_kong": True, "double_kong": True},
            ),
            "win.double_kong",
        ),
        (payload(BASIC, win={"ten_old_men": 1}), "win.ten_old_men"),
        (payload(BASIC, options={"ten_old_men": True}), "options.ten_old_men"),  # a fact of the hand, not an option
        (payload(BASIC, options={"double_kong_bloom": True}), "options.double_kong_bloom"),
        (payload(BASIC, options={"combine": "sum"}), "options.combine"),
        (payload(BASIC, options={"base_points": "1"}), "options.base_points"),
        (payload(BASIC, options={"dealer_bonus": 1}), "options.dealer_bonus"),
        ({"variant": "yuxi", "winner": "S"}, "hand"),
        (payload(BASIC, win={"by": "discard"}), "win.from"),
    ],
)
def test_malformed_input_exits_2(case: dict, field: str | None) -> None:
    result = scored(case)
    assert exit_code(result) == 2, result
    if field:
        assert result["error"]["field"] == field


def test_after_kong_self_draw_needs_a_kong() -> None:
    result = scored(payload(BASIC, win={"after_kong": True}))
    assert result["error"]["field"] == "win.after_kong" and exit_code(result) == 2


# --------------------------------------------------------------------------- properties

SETS = [("chow", s * 9 + r) for s in range(3) for r in range(7)] + [("pung", k) for k in range(34)]


@st.composite
def winning_hands(draw: st.DrawFn) -> dict:
    """Four random sets (some declared as melds, kongs included) and a pair, within four copies."""
    counts = [0] * 34
    concealed: list[int] = []
    melds: list[dict] = []
    for _ in range(4):
        kind, first = draw(
            st.sampled_from(SETS).filter(
                lambda s: counts[s[1]] <= 1 if s[0] == "pung" else all(counts[s[1] + i] < 4 for i in range(3))
            )
        )
        tiles = [first] * 3 if kind == "pung" else [first, first + 1, first + 2]
        how = draw(
            st.sampled_from(["hand", "meld", "kong"] if kind == "pung" and counts[first] == 0 else ["hand", "meld"])
        )
        for t in tiles:
            counts[t] += 1
        if how == "hand":
            concealed += tiles
        elif how == "meld":
            melds.append({"type": kind, "tiles": format_tiles(tiles), "from": draw(st.sampled_from("ENW"))})
        else:
            counts[first] += 1
            melds.append(
                {
                    "type": draw(st.sampled_from(["kong", "concealed_kong"])),
                    "tiles": format_tiles([first] * 4),
                    "from": "E",
                }
            )
            if melds[-1]["type"] == "concealed_kong":
                del melds[-1]["from"]
    pair = draw(st.sampled_from([k for k in range(34) if counts[k] <= 2]))
    concealed += [pair, pair]
    winning = draw(st.sampled_from(concealed))
    return {"concealed": format_tiles(concealed), "winning_tile": format_tiles([winning]), "melds": melds}


@settings(max_examples=120, deadline=None)
@given(
    hand=winning_hands(),
    by=st.sampled_from(["self_draw", "discard"]),
    after_kong=st.booleans(),
    base=st.integers(1, 5),
    combine=st.sampled_from(["multiply", "largest"]),
)
def test_payments_sum_to_zero(hand: dict, by: str, after_kong: bool, base: int, combine: str) -> None:
    has_kong = any("kong" in m["type"] for m in hand["melds"])
    win: dict[str, Any] = {"by": by, "after_kong": after_kong and (has_kong or by == "discard")}
    if by == "discard":
        win["from"] = "W"
    case = {
        "variant": "yuxi",
        "winner": "S",
        "hand": hand,
        "win": win,
        "options": {"base_points": base, "combine": combine},
    }
    result = scored(case)
    if by == "discard" and not result["ok"]:
        assert result["error"]["code"] == "not_on_discard"
        return
    assert result["ok"], (case, result)
    assert sum(result["payments"].values()) == 0
    assert result["value"] >= base and result["value"] % base == 0
    assert result["payments"]["S"] == result["value"] * (3 if by == "self_draw" else 1)


json_values = json_junk(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.sampled_from(["yuxi", "S", "E", "discard", "self_draw", "123m", "5p", "1f", "9z", "kong", "2222z", "x"]),
    [
        "variant",
        "winner",
        "win",
        "hand",
        "concealed",
        "winning_tile",
        "melds",
        "indicators",
        "bloom",
        "by",
        "from",
        "after_kong",
        "options",
        "base_points",
        "type",
        "tiles",
    ],
    max_size=5,
    max_leaves=15,
)


@settings(max_examples=150, deadline=None)
@given(body=json_values)
def test_random_payloads_never_raise(body: Any) -> None:
    if isinstance(body, dict):
        body = {"variant": "yuxi", **body}
    result = scored(body)
    assert isinstance(result, dict) and exit_code(result) in (0, 1, 2)
    assert isinstance(waits(body), dict)


@settings(max_examples=60, deadline=None)
@given(hand=winning_hands(), bloom=st.lists(st.integers(0, 33), max_size=2))
def test_bloom_extra_is_consistent(hand: dict, bloom: list[int]) -> None:
    case = {"variant": "yuxi", "winner": "S", "hand": hand, "indicators": {"bloom": [format_tiles([b]) for b in bloom]}}
    result = scored(case)
    if not result["ok"]:
        assert result["error"]["code"] == "too_many_copies"
        return
    assert result["bloom"]["tiles"] == [format_tiles([b]) for b in bloom]
    assert result["bloom"]["used"] is None and result["bloom"]["eligible"] is False
