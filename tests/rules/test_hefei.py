"""Hefei through the JSON contract: the worked example, every row of both point tables, every option."""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contract import exit_code, score, waits
from engine.melds import MeldKind
from engine.rules import get_variant
from engine.rules.base import resolve_options
from engine.tiles import format_tiles, parse_tiles
from engine.waits import winning_tiles
from tests.builders import assert_answer, json_junk, scored
from tests.builders import payload as build_payload

VARIANT = get_variant("hefei")
DEFAULTS = resolve_options(VARIANT.options, {})


payload = partial(build_payload, "hefei", options={}, streak=0)


def items(result: dict) -> dict[str, int]:
    assert result["ok"], result
    return {i["name"]: i["value"] for i in result["items"]}


def pung(tiles: str, frm: str = "W") -> dict:
    return {"type": "pung", "tiles": tiles, "from": frm}


def kong(tiles: str, kind: str = "concealed_kong", frm: str | None = None) -> dict:
    out = {"type": kind, "tiles": tiles}
    if frm:
        out["from"] = frm
    return out


# --------------------------------------------------------------------------- the worked example

EXAMPLE = "234567888m345p66s"  # 888m concealed pung, waiting on 6s alone, 9 characters


def test_worked_example_without_win_points_is_220():
    result = scored(payload(EXAMPLE, "6s", winner="E", streak=2, options={"win_points": False}))
    assert items(result) == {"concealed_pung": 1, "single_wait": 1, "suit_bonus": 1, "dealer_streak": 8}
    assert result["points"] == 11 and result["value"] == 220
    assert result["multipliers"][0]["factor"] == 20
    assert result["payments"] == {"E": 660, "S": -220, "W": -220, "N": -220}


def test_worked_example_with_default_win_points_adds_15():
    result = scored(payload(EXAMPLE, "6s", winner="E", streak=2))
    assert items(result)["winning_hand"] == 15
    assert result["points"] == 26 and result["value"] == 520


def test_worked_example_on_a_discard_is_paid_by_the_discarder():
    result = scored(payload(EXAMPLE, "6s", winner="E", streak=2, by="discard", frm="N", options={"win_points": False}))
    assert result["payments"] == {"E": 220, "S": 0, "W": 0, "N": -220}


# --------------------------------------------------------------------------- every table row

PLAIN = "345567m88m345p678s"  # 15 points only: three suits, 8 characters, two-sided wait on 3m/6m

ROWS = [
    # (id, concealed, winning, kwargs, expected items)
    ("winning_hand", PLAIN, "3m", {}, {"winning_hand": 15}),
    (
        "suit_bonus_9",
        EXAMPLE,
        "6s",
        {"winner": "W"},
        {"winning_hand": 15, "suit_bonus": 1, "single_wait": 1, "concealed_pung": 1},
    ),
    (
        "suit_bonus_kong_counts_4",
        "234678m345p66s",
        "3p",
        {"melds": [kong("5555m", "kong", "N")]},
        {"winning_hand": 15, "suit_bonus": 2},
    ),
    ("single_wait_edge_23_waiting_4", "234567m88m345p678s", "4m", {}, {"winning_hand": 15, "single_wait": 1}),
    ("single_wait_edge_78_waiting_6", "345678m22m345p345s", "6m", {}, {"winning_hand": 15, "single_wait": 1}),
    ("same_number", "234555m88m456p345s", "2m", {}, {"winning_hand": 15, "concealed_pung": 1, "same_number": 1}),
    (
        "concealed_pung",
        EXAMPLE,
        "6s",
        {"by": "discard", "frm": "W"},
        {"winning_hand": 15, "suit_bonus": 1, "single_wait": 1, "concealed_pung": 1},
    ),
    (
        "double_sequence_visible",
        "223344m66m345p678s",
        "2m",
        {"by": "discard", "frm": "W"},
        {"winning_hand": 15, "double_sequence": 2},
    ),
    (
        "two_suits_only",
        "234567m88m345678p",
        "3p",
        {"by": "discard", "frm": "W"},
        {"winning_hand": 15, "two_suits_only": 2},
    ),
    (
        "double_sequence_concealed",
        "223344m66m345p678s",
        "6m",
        {},
        {"winning_hand": 15, "single_wait": 1, "concealed_double_sequence": 4},
    ),
    (
        "concealed_kong",
        "234m88m345p678s",
        "3p",
        {"melds": [kong("5555m")]},
        {"winning_hand": 15, "suit_bonus": 1, "concealed_kong": 4},
    ),
    ("four_of_a_kind", "2344448m8m567p678s", "2m", {}, {"winning_hand": 15, "concealed_pung": 1, "four_of_a_kind": 4}),
    ("dealer_win_streak", PLAIN, "3m", {"winner": "E", "streak": 3}, {"winning_hand": 15, "dealer_streak": 12}),
    ("seven_pairs", "22334455m6677p88s", "8s", {}, {"winning_hand": 15, "single_wait": 1, "seven_pairs": 10}),
    ("sea_floor_win", PLAIN, "3m", {"last_tile": True}, {"winning_hand": 15, "sea_floor_win": 15}),
    (
        "luxury_seven_pairs",
        "22223344m5566p77s",
        "7s",
        {},
        {"winning_hand": 15, "single_wait": 1, "four_of_a_kind": 4, "luxury_seven_pairs": 50},
    ),
    (
        "double_luxury_seven_pairs",
        "22223333m4455p66s",
        "6s",
        {},
        {"winning_hand": 15, "single_wait": 1, "four_of_a_kind": 8, "double_luxury_seven_pairs": 100},
    ),
    ("pure_suit", "22233344455566m", "6m", {"by": "discard", "frm": "W"}, None),
    (
        "three_consecutive_pungs",
        "22333444555m678p",
        "6p",
        {},
        {
            "winning_hand": 15,
            "suit_bonus": 3,
            "single_wait": 1,
            "concealed_pung": 3,
            "two_suits_only": 2,
            "three_consecutive_pungs": 100,
        },
    ),
    (
        "four_concealed_pungs",
        "333555777m88m444p",
        "8m",
        {},
        {"winning_hand": 15, "suit_bonus": 3, "concealed_pung": 4, "two_suits_only": 2, "four_concealed_pungs": 100},
    ),
    (
        "ten_identical_tiles",
        "555m555p22345555s",
        "2s",
        {},
        {
            "winning_hand": 15,
            "single_wait": 1,
            "same_number": 6,
            "concealed_pung": 3,
            "four_of_a_kind": 4,
            "ten_identical_tiles": 100,
        },
    ),
    (
        "double_concealed_double_sequences",
        "223344m66m334455p",
        "6m",
        {},
        {
            "winning_hand": 15,
            "single_wait": 1,
            "two_suits_only": 2,
            "concealed_double_sequence": 8,
            "double_concealed_double_sequences": 100,
        },
    ),
    ("heavenly_win", PLAIN, "3m", {"winner": "E", "first_turn": True}, {"winning_hand": 15, "heavenly_win": 200}),
    ("earthly_win", PLAIN, "3m", {"first_turn": True}, {"winning_hand": 15, "earthly_win": 150}),
]


@pytest.mark.parametrize("concealed, winning, kwargs, expected", [pytest.param(*row[1:], id=row[0]) for row in ROWS])
def test_table_rows(concealed, winning, kwargs, expected):
    result = scored(payload(concealed, winning, **kwargs))
    got = items(result)
    if expected is not None:
        assert got == expected
    assert result["points"] == sum(got.values())
    assert result["value"] == result["points"] * 20
    assert sum(result["payments"].values()) == 0
    assert exit_code(result) == 0


def test_pure_suit_row():
    got = items(scored(payload("22233344455566m", "6m", by="discard", frm="W")))
    # one suit of 14: 支 6; the pungs reading (222 333 444 555) beats the chows, and the
    # three consecutive pungs stay concealed because the discard completed the pair
    assert got["pure_suit"] == 100 and got["suit_bonus"] == 6
    assert got["three_consecutive_pungs"] == 100 and got["four_concealed_pungs"] == 100
    assert "two_suits_only" not in got


# --------------------------------------------------------------------------- readings


def test_pung_completed_by_the_discard_is_not_concealed():
    drawn = items(scored(payload(EXAMPLE, "8m")))
    discard = items(scored(payload(EXAMPLE, "8m", by="discard", frm="W")))
    assert drawn["concealed_pung"] == 1 and "concealed_pung" not in discard


def test_discard_tile_placed_where_it_scores_best():
    # 5m on a discard completes 345m or 555m: placed in the chow, 555m stays a concealed pung
    got = items(scored(payload("34555588m234p678s", "5m", by="discard", frm="W")))
    assert got == {"winning_hand": 15, "concealed_pung": 1, "four_of_a_kind": 4}


def test_declared_pung_is_not_concealed_and_pung_plus_fourth_in_hand_is_live():
    got = items(scored(payload("234m88m567p678s", "2m", melds=[pung("444m")])))
    assert got == {"winning_hand": 15, "four_of_a_kind": 4}


def test_single_wait_needs_one_winning_tile():
    # 6m completes the pair, but 4m and 7m would also have won: no 卡 by default
    got = items(scored(payload("234555m66m234p678s", "6m")))
    assert got == {"winning_hand": 15, "concealed_pung": 1}


def test_single_wait_shape_option():
    opts = {"single_wait": "shape"}
    assert items(scored(payload("234555m66m234p678s", "6m", options=opts)))["single_wait"] == 1  # pair wait
    assert "single_wait" not in items(scored(payload(PLAIN, "3m", options=opts)))  # two-sided
    assert items(scored(payload("234567m88m345p678s", "4m", options=opts)))["single_wait"] == 1  # 23 edge
    assert items(scored(payload("345678m22m345p345s", "6m", options=opts)))["single_wait"] == 1  # 78 edge


def test_same_number_options():
    four = "234555m88m456p678s"  # four 5s
    five = "234555m88m456p345s"  # five 5s
    assert "same_number" not in items(scored(payload(four, "2m")))
    assert items(scored(payload(four, "2m", options={"same_number_counting": "from_four"})))["same_number"] == 1
    assert items(scored(payload(five, "2m", options={"same_number_counting": "from_four"})))["same_number"] == 2
    two_ranks = "444555m66m456p345s"  # five 4s and five 5s
    assert items(scored(payload(two_ranks, "6m")))["same_number"] == 1
    assert items(scored(payload(two_ranks, "6m", options={"same_number_ranks": "all"})))["same_number"] == 2
    in_meld = payload("234m88m456p345s", "2m", melds=[pung("555m")])
    assert "same_number" not in items(scored(in_meld))
    in_meld["options"] = {"same_number_tiles": "all"}
    assert items(scored(in_meld))["same_number"] == 1


def test_dealer_streak_on_loss():
    # South self-draws 15 points against a dealer on a streak of 1: the dealer pays 19 points
    drawn = scored(payload(PLAIN, "3m", streak=1))
    assert drawn["payments"] == {"E": -380, "S": 980, "W": -300, "N": -300}
    assert drawn["dealer_streak"] == {"payer": "E", "points": 4, "amount": 80}
    dealer_discards = scored(payload(PLAIN, "3m", streak=1, by="discard", frm="E"))
    assert dealer_discards["payments"] == {"E": -380, "S": 380, "W": 0, "N": 0}
    other_discards = scored(payload(PLAIN, "3m", streak=1, by="discard", frm="W"))
    assert other_discards["payments"] == {"E": 0, "S": 300, "W": -300, "N": 0}
    off = scored(payload(PLAIN, "3m", streak=1, options={"dealer_streak_on_loss": False}))
    assert off["payments"] == {"E": -300, "S": 900, "W": -300, "N": -300}


def test_dealer_streak_on_discard_option():
    won = scored(payload(PLAIN, "3m", winner="E", streak=2, by="discard", frm="S"))
    assert items(won)["dealer_streak"] == 8
    xgmj = scored(
        payload(PLAIN, "3m", winner="E", streak=2, by="discard", frm="S", options={"dealer_streak_on_discard": 2})
    )
    assert items(xgmj)["dealer_streak"] == 4
    drawn = scored(payload(PLAIN, "3m", winner="E", streak=2, options={"dealer_streak_on_discard": 2}))
    assert items(drawn)["dealer_streak"] == 8
    lost = scored(payload(PLAIN, "3m", streak=2, by="discard", frm="E", options={"dealer_streak_on_discard": 2}))
    assert lost["payments"]["E"] == -(15 + 4) * 20


def test_sea_floor_needs_a_self_draw():
    result = scored(payload(PLAIN, "3m", by="discard", frm="W", last_tile=True))
    assert items(result) == {"winning_hand": 15} and result["notes"]


def test_earthly_win_on_a_discard_of_the_first_round():
    assert items(scored(payload(PLAIN, "3m", by="discard", frm="E", first_turn=True)))["earthly_win"] == 150


def test_four_concealed_pungs_with_a_concealed_kong():
    got = items(scored(payload("555777m88m444p", "8m", melds=[kong("3333m")])))
    assert got == {
        "winning_hand": 15,
        "suit_bonus": 4,
        "concealed_pung": 3,
        "concealed_kong": 4,
        "two_suits_only": 2,
        "four_concealed_pungs": 100,
    }


def test_two_concealed_kongs_count_each():
    got = items(scored(payload("234m88m345s", "8m", melds=[kong("5555m"), kong("6666p")])))
    assert got["concealed_kong"] == 8


def test_double_sequence_with_a_claimed_chow():
    melds = [{"type": "chow", "tiles": "234m", "from": "N"}]
    refused = scored(payload("234m66m345p678s", "6m", melds=melds))
    assert refused["error"]["code"] == "chow_claim_not_allowed" and exit_code(refused) == 1
    got = items(scored(payload("234m66m345p678s", "6m", melds=melds, options={"claimed_chows": True})))
    assert got["double_sequence"] == 2 and "concealed_double_sequence" not in got


def test_self_drawn_double_sequence_stays_concealed():
    got = items(scored(payload("223344m66m345p678s", "2m")))
    assert got == {"winning_hand": 15, "concealed_double_sequence": 4}


def test_four_identical_chows_are_two_double_sequences():
    # 234m four times beats reading 222 333 444 234 (三连坎): 142 points against 137
    got = items(scored(payload("222233334444m55p", "5p")))
    assert got["concealed_double_sequence"] == 8 and got["double_concealed_double_sequences"] == 100
    assert got["four_of_a_kind"] == 12 and "three_consecutive_pungs" not in got


# --------------------------------------------------------------------------- options


def test_base_score_option():
    assert scored(payload(PLAIN, "3m", options={"base_score": 10}))["value"] == 150


@pytest.mark.parametrize("bad", [0, -20])
def test_base_score_must_be_positive(bad):
    result = scored(payload(PLAIN, "3m", options={"base_score": bad}))
    assert result["error"]["field"] == "options.base_score" and exit_code(result) == 2


def test_kong_replacement_doubles_option():
    plain = scored(payload(PLAIN, "3m", after_kong=True))
    assert plain["value"] == 300 and len(plain["multipliers"]) == 1
    doubled = scored(payload(PLAIN, "3m", after_kong=True, options={"kong_replacement_doubles": True}))
    assert doubled["value"] == 600 and doubled["payments"]["S"] == 1800
    assert [m["name"] for m in doubled["multipliers"]] == ["base_score", "kong_replacement"]
    on_discard = scored(
        payload(PLAIN, "3m", after_kong=True, by="discard", frm="W", options={"kong_replacement_doubles": True})
    )
    assert on_discard["value"] == 300  # a replacement tile is drawn, never discarded


def test_win_points_off_everywhere():
    result = scored(payload(PLAIN, "3m", options={"win_points": False}, by="discard", frm="W"))
    assert result["items"] == [] and result["value"] == 0 and result["payments"]["W"] == 0


# --------------------------------------------------------------------------- several winners

# Both win on the same discarded 6s from West. South: a two-sided 45s wait, 15 points only (8 dots, three
# suits, no pung) → 300. North: the worked example's hand, a pair wait on 6s: win 15 + 支 1 + 卡 1 + 坎 1 (888m
# stays concealed, the discard completed the pair) = 18 points → 360. Copies across both hands: 6s 3, the rest ≤ 2.
SOUTH_ON_6S = "345m234567p88p456s"
NORTH_ON_6S = EXAMPLE


def two_winners(options: dict | None = None) -> list[dict]:
    return [
        payload(SOUTH_ON_6S, "6s", winner="S", by="discard", frm="W", options=options),
        payload(NORTH_ON_6S, "6s", winner="N", by="discard", frm="W", options=options),
    ]


def test_two_winners_on_one_discard_the_nearest_in_turn_wins():
    # after West comes North, then East, then South: North takes the tile
    result = scored(two_winners())
    assert result["ok"] and exit_code(result) == 0
    assert result["payments"] == {"E": 0, "S": 0, "W": -360, "N": 360}
    south = next(r for r in result["results"] if r["winner"] == "S")
    assert south["value"] == 0 and south["discard_goes_to"] == "N" and south["notes"]


def test_two_winners_all_paid_option():
    result = scored(two_winners({"multiple_winners": "all"}))
    assert result["payments"] == {"E": 0, "S": 300, "W": -300 - 360, "N": 360}
    assert {r["winner"]: r["points"] for r in result["results"]} == {"S": 15, "N": 18}


def test_two_winners_one_refused_refuses():
    # South's hand completes on the same 6s but holds only 6 characters, 6 dots, 2 bamboo
    hands = two_winners()
    hands[0]["hand"] = {"concealed": "234567m345678p66s", "winning_tile": "6s"}
    result = scored(hands)
    assert result["error"]["code"] == "fewer_than_eight" and exit_code(result) == 1


# --------------------------------------------------------------------------- refusals and bad input


@pytest.mark.parametrize(
    "concealed, winning, code",
    [
        ("234567m88m345p668s", "8s", "not_a_win"),
        ("234567m345678p22s", "2s", "fewer_than_eight"),
        ("223344m556677p88s", "8s", "fewer_than_eight"),  # seven pairs need eight of a suit too
    ],
)
def test_refusals(concealed, winning, code):
    result = scored(payload(concealed, winning))
    assert result["error"]["code"] == code and exit_code(result) == 1


@pytest.mark.parametrize(
    "mutate, field, code",
    [
        (lambda p: p["hand"].update(concealed="123m567m88m345p678s", winning_tile="1m"), None, "tile_not_in_set"),
        (lambda p: p["hand"].update(concealed="234m567m88m345p11z", winning_tile="1z"), None, "tile_not_in_set"),
        (lambda p: p.pop("winner"), "winner", "bad_input"),
        (lambda p: p["options"].update(base_score="20"), "options.base_score", "bad_option"),
        (lambda p: p["options"].update(single_wait="closed"), "options.single_wait", "bad_option"),
        (lambda p: p["context"].update(dealer_streak=-1), "context.dealer_streak", "bad_input"),
        (lambda p: p["hand"].update(concealed="345567m88m345p678"), "hand.concealed", "bad_notation"),
    ],
)
def test_malformed_input_exit_2(mutate, field, code):
    p = payload(PLAIN, "3m")
    mutate(p)
    result = scored(p)
    assert not result["ok"] and exit_code(result) == 2 and result["error"]["code"] == code
    if field:
        assert result["error"]["field"] == field


# --------------------------------------------------------------------------- waits


def wait_payload(concealed: str, melds: list | None = None) -> dict:
    return {"variant": "hefei", "winner": "S", "hand": {"concealed": concealed, "melds": melds or []}}


def test_waits_edge_with_no_ones():
    assert waits(wait_payload("23m567m88m345p678s"))["waits"] == ["4m"]
    assert waits(wait_payload("345m78m22m345p345s"))["waits"] == ["6m"]


def test_waits_leave_out_tiles_short_of_eight_in_a_suit():
    hand = "234567m34p66p678s"  # 6 characters, 7 dots: 2p / 5p complete the shape but no suit reaches 8
    assert winning_tiles(parse_tiles(hand)) == parse_tiles("25p")
    out = waits(wait_payload(hand))
    assert out["ok"] and out["waits"] == [] and out["notation"] == ""
    assert waits(wait_payload("234567m88m34p678s"))["waits"] == ["2p", "5p"]


def test_waits_refuse_a_claimed_chow():
    out = waits(wait_payload("567m88m34p678s", melds=[{"type": "chow", "tiles": "234m", "from": "N"}]))
    assert out["error"]["code"] == "chow_claim_not_allowed" and exit_code(out) == 1


# --------------------------------------------------------------------------- kongs and the deal


@pytest.mark.parametrize("kind", list(MeldKind))
def test_kongs_pay_nothing_when_declared(kind):
    assert VARIANT.kong_payments(kind, "S", "W", DEFAULTS) == {"E": 0, "S": 0, "W": 0, "N": 0}


@pytest.mark.parametrize(
    "winners, drawn, rotation, expected",
    [
        (["E"], False, "every_hand", "S"),  # "After each hand, the dealer changes."
        (["W"], False, "every_hand", "S"),
        ([], True, "every_hand", "S"),
        (["E"], False, "keep_on_win", "E"),
        (["N"], False, "keep_on_win", "S"),
        ([], True, "keep_on_win", "S"),
    ],
)
def test_next_dealer(winners, drawn, rotation, expected):
    opts = resolve_options(VARIANT.options, {"dealer_rotation": rotation})
    assert VARIANT.next_dealer(winners, drawn, opts) == expected
    assert VARIANT.next_dealer(winners, drawn, opts, discarder="N" if winners else None, last_drawer="W") == expected


def test_describe():
    desc = VARIANT.describe()
    assert desc["tiles"] == 84 and desc["title_zh"] == "合肥麻将"
    assert {o["name"]: o["default"] for o in desc["options"]}["win_points"] is True


# --------------------------------------------------------------------------- properties

SUITED = [s * 9 + r for s in range(3) for r in range(1, 8)]  # ranks 2-8


@st.composite
def hefei_hands(draw):
    """Four random sets (some declared) and a pair from the 84 tiles."""
    used = {k: 0 for k in SUITED}
    concealed: list[int] = []
    melds: list[dict] = []
    while len(melds) + len(concealed) // 3 < 4:
        if draw(st.booleans()):
            suit = draw(st.integers(0, 2))
            first = suit * 9 + draw(st.integers(1, 5))
            tiles = [first, first + 1, first + 2]
        else:
            tiles = [draw(st.sampled_from(SUITED))] * draw(st.sampled_from([3, 3, 4]))
        if any(used[t] + tiles.count(t) > 4 for t in set(tiles)):
            tiles = [k for k in SUITED if used[k] == 0][:1] * 3
        for t in tiles:
            used[t] += 1
        if len(tiles) == 4:
            kind = draw(st.sampled_from(["kong", "concealed_kong", "added_kong"]))
            melds.append(
                {"type": kind, "tiles": format_tiles(tiles), **({} if kind == "concealed_kong" else {"from": "W"})}
            )
        elif tiles[0] == tiles[1] and draw(st.booleans()):
            melds.append(pung(format_tiles(tiles)))
        else:
            concealed.extend(tiles)
    pair = draw(st.sampled_from([k for k in SUITED if used[k] <= 2]))
    concealed += [pair, pair]
    winning = draw(st.sampled_from(sorted(set(concealed))))
    return format_tiles(concealed), format_tiles([winning]), melds


@settings(max_examples=120, deadline=None)
@given(
    hefei_hands(),
    st.sampled_from(["self_draw", "discard"]),
    st.sampled_from(["E", "S"]),
    st.integers(0, 3),
    st.booleans(),
)
def test_payments_sum_to_zero_for_random_hands(hand, by, winner, streak, last_tile):
    concealed, winning, melds = hand
    frm = "N" if by == "discard" else None
    result = scored(
        payload(concealed, winning, winner=winner, by=by, frm=frm, melds=melds, streak=streak, last_tile=last_tile)
    )
    if not result["ok"]:
        assert result["error"]["code"] == "fewer_than_eight", result
        return
    assert sum(result["payments"].values()) == 0
    assert result["value"] == result["points"] * 20 and result["points"] >= 15


@settings(max_examples=150, deadline=None)
@given(
    json_junk(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        [
            "variant",
            "winner",
            "hand",
            "win",
            "options",
            "context",
            "concealed",
            "winning_tile",
            "melds",
            "dealer_streak",
            "by",
            "from",
        ],
        max_size=5,
        max_leaves=20,
    )
)
def test_random_payloads_never_raise(junk):
    for candidate in (
        junk,
        {"variant": "hefei", "winner": "S", "hand": junk},
        {
            "variant": "hefei",
            "winner": "S",
            "context": junk,
            "hand": {"concealed": "345567m88m345p678s", "winning_tile": "3m"},
        },
    ):
        assert_answer(score(candidate))
        assert_answer(waits(candidate))
