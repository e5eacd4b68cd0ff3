"""Ningxia Waterslide through the JSON contract: every payout-table row, every reading, every option."""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contract import exit_code, waits
from engine.errors import MahjongError
from engine.melds import MeldKind
from engine.rules import get_variant
from engine.rules.base import resolve_options
from engine.tiles import format_tiles
from tests.builders import json_junk, scored
from tests.builders import payload as build_payload

VARIANT = get_variant("ningxia")
DEFAULTS = resolve_options(VARIANT.options, {})


payload = partial(build_payload, "ningxia", options={})

STANDARD = "123m456p789s11122z"
SEVEN_PAIRS = "1155m2288p3399s11z"
DRAGON = "11112233445566m"
DOUBLE_DRAGON = "1111222233m4455p"


# --------------------------------------------------------------------------- the payout table, row by row


@pytest.mark.parametrize(
    "hand, winning, name, each, discard",
    [
        (STANDARD, "2z", "standard_win", 2, 3),
        (SEVEN_PAIRS, "1z", "seven_pairs", 6, 9),
        (DRAGON, "6m", "dragon_seven_pairs", 10, 15),
    ],
)
def test_payout_table_rows(hand, winning, name, each, discard):
    drawn = scored(payload(hand, winning))
    assert drawn["ok"] and exit_code(drawn) == 0
    assert [i["name"] for i in drawn["items"]] == [name]
    assert drawn["payments"] == {"E": -each, "S": 3 * each, "W": -each, "N": -each}
    assert drawn["value"] == 3 * each
    on_discard = scored(payload(hand, winning, by="discard", frm="N"))
    assert on_discard["payments"] == {"E": 0, "S": discard, "W": 0, "N": -discard}
    assert on_discard["value"] == discard


def test_two_fours_of_a_kind_pay_as_dragon_seven_pairs():
    result = scored(payload(DOUBLE_DRAGON, "3m"))
    assert result["items"][0]["name"] == "dragon_seven_pairs"
    assert result["payments"]["S"] == 30


def test_best_reading_is_paid_seven_pairs_over_standard():
    # 22334455667788m reads as four chows + pair and as seven pairs: seven pairs pays more.
    result = scored(payload("223344556677m88p", "8p", by="discard", frm="W"))
    assert result["items"][0]["name"] == "seven_pairs" and result["payments"]["S"] == 9


def test_dealer_pays_and_collects_like_everyone_else():
    # "no fault, no loss": being dealer changes nothing
    won = scored(payload(STANDARD, "2z", winner="E"))
    assert won["payments"] == {"E": 6, "S": -2, "W": -2, "N": -2}
    lost = scored(payload(STANDARD, "2z", winner="N", by="discard", frm="E"))
    assert lost["payments"] == {"E": -3, "S": 0, "W": 0, "N": 3}


def test_melds_and_kongs_in_a_standard_win():
    melds = [
        {"type": "pung", "tiles": "555p", "from": "E"},
        {"type": "concealed_kong", "tiles": "7777s"},
        {"type": "added_kong", "tiles": "3333z", "from": "W"},
        {"type": "kong", "tiles": "9999m", "from": "N"},
    ]
    result = scored(payload("11z", "1z", melds=melds, by="discard", frm="W"))
    assert result["items"][0]["name"] == "standard_win" and result["payments"]["W"] == -3


def test_robbing_a_kong_is_paid_by_the_kong_declarer():
    result = scored(payload(STANDARD, "2z", by="discard", frm="E", robbed_kong=True))
    assert result["payments"] == {"E": -3, "S": 3, "W": 0, "N": 0}


def test_other_win_flags_change_nothing():
    plain = scored(payload(STANDARD, "2z"))
    for flag in ("after_kong", "last_tile", "first_turn"):
        assert scored(payload(STANDARD, "2z", **{flag: True}))["payments"] == plain["payments"]


# --------------------------------------------------------------------------- kongs


@pytest.mark.parametrize(
    "kind, declarer, frm, expected",
    [
        (MeldKind.CONCEALED_KONG, "S", None, {"E": -2, "S": 6, "W": -2, "N": -2}),
        (MeldKind.KONG, "S", "N", {"E": 0, "S": 3, "W": 0, "N": -3}),
        (MeldKind.ADDED_KONG, "W", "E", {"E": -1, "S": -1, "W": 3, "N": -1}),
        (MeldKind.PUNG, "W", "E", {"E": 0, "S": 0, "W": 0, "N": 0}),
        (MeldKind.CHOW, "W", "S", {"E": 0, "S": 0, "W": 0, "N": 0}),
    ],
)
def test_kong_payment_table_rows(kind, declarer, frm, expected):
    out = VARIANT.kong_payments(kind, declarer, frm, DEFAULTS)
    assert out == expected and sum(out.values()) == 0


def test_exposed_kong_needs_the_discarder():
    for frm in (None, "S"):
        with pytest.raises(MahjongError) as err:
            VARIANT.kong_payments(MeldKind.KONG, "S", frm, DEFAULTS)
        assert err.value.field == "from" and err.value.code == "bad_input"


# --------------------------------------------------------------------------- several winners on one discard

# Hands that all win on one discarded 5p (copies across the hands: 5p 4 counting the discard in each, the rest ≤ 3).
STANDARD_ON_5P = "123m456p789s11122z"  # closed 46p wait
CHOWS_ON_5P = "23499m345p111678s"  # two-sided 34p wait
PAIR_ON_5P = "345888m55p678p222s"  # pair wait
SEVEN_PAIRS_ON_5P = "5566m55p3344s4477z"


def test_one_discard_three_wins_pays_three_to_each():
    hands = [
        payload(STANDARD_ON_5P, "5p", winner="S", by="discard", frm="E"),
        payload(CHOWS_ON_5P, "5p", winner="W", by="discard", frm="E"),
        payload(PAIR_ON_5P, "5p", winner="N", by="discard", frm="E"),
    ]
    result = scored(hands)
    assert result["ok"] and exit_code(result) == 0
    assert result["payments"] == {"E": -9, "S": 3, "W": 3, "N": 3}
    assert [r["winner"] for r in result["results"]] == ["S", "W", "N"]
    assert all(r["items"][0]["name"] == "standard_win" for r in result["results"])


def test_two_winners_each_paid_in_full_with_own_hand():
    result = scored(
        [
            payload(STANDARD_ON_5P, "5p", winner="S", by="discard", frm="W"),
            payload(SEVEN_PAIRS_ON_5P, "5p", winner="N", by="discard", frm="W"),
        ]
    )
    assert [r["items"][0]["name"] for r in result["results"]] == ["standard_win", "seven_pairs"]
    assert result["payments"] == {"E": 0, "S": 3, "W": -12, "N": 9}


def test_several_winners_one_refused_is_exit_1():
    # North's tiles with the same 5p are no winning hand: 234m 567m 678s, two pairs and a lone 5p
    result = scored(
        [
            payload(STANDARD_ON_5P, "5p", winner="S", by="discard", frm="W"),
            payload("234567m5p678s3344z", "5p", winner="N", by="discard", frm="W"),
        ]
    )
    assert result["error"]["code"] == "not_a_win" and exit_code(result) == 1


# --------------------------------------------------------------------------- refusals and options


@pytest.mark.parametrize(
    "hand, winning",
    [
        ("123m456p789s11123z", "3z"),  # no pair
        ("19m19p19s12345677z", "7z"),  # thirteen orphans: not a Ningxia hand
    ],
)
def test_not_a_win(hand, winning):
    result = scored(payload(hand, winning))
    assert result["error"]["code"] == "not_a_win" and exit_code(result) == 1


def test_claimed_chow_refused_by_default_and_allowed_by_option():
    melds = [{"type": "chow", "tiles": "123m", "from": "E"}]
    refused = scored(payload("456p789s11122z", "2z", melds=melds))
    assert refused["error"]["code"] == "chow_claim_not_allowed" and exit_code(refused) == 1
    allowed = scored(payload("456p789s11122z", "2z", melds=melds, options={"claimed_chows": True}))
    assert allowed["items"][0]["name"] == "standard_win"


def test_chows_formed_in_hand_are_fine():
    result = scored(payload("123456m123789p55s", "5s"))
    assert result["items"][0]["name"] == "standard_win" and result["value"] == 6


def test_seven_pairs_option_off():
    refused = scored(payload(SEVEN_PAIRS, "1z", options={"seven_pairs": False}))
    assert refused["error"]["code"] == "seven_pairs_not_allowed" and exit_code(refused) == 1
    # a hand that also reads as four sets and a pair is still paid, as a standard win
    standard = scored(payload("223344556677m88p", "8p", options={"seven_pairs": False}))
    assert standard["items"][0]["name"] == "standard_win" and standard["value"] == 6


def test_honours_option_off_rejects_an_honour():
    result = scored(payload(STANDARD, "2z", options={"honours": False}))
    assert result["error"]["code"] == "tile_not_in_set" and exit_code(result) == 2
    assert result["error"]["field"] == "hand.concealed"
    melds = [{"type": "pung", "tiles": "777z", "from": "E"}]
    in_meld = scored(payload("123m456p789s55p", "5p", melds=melds, options={"honours": False}))
    assert in_meld["error"]["field"] == "hand.melds"
    suited = scored(payload("123m456p789s22255p", "5p", options={"honours": False}))
    assert suited["items"][0]["name"] == "standard_win" and suited["value"] == 6


def test_red_dragon_wild_option():
    hand = "123m456p789s11127z"  # the Red dragon stands in for the second 2z
    assert scored(payload(hand, "7z"))["error"]["code"] == "not_a_win"
    result = scored(payload(hand, "7z", options={"red_dragon_wild": True}))
    assert result["ok"] and result["value"] == 6
    pairs = scored(payload("1155m2288p3399s17z", "7z", options={"red_dragon_wild": True}))
    assert pairs["items"][0]["name"] == "seven_pairs"


def test_red_dragon_wild_needs_honours():
    result = scored(payload("123m456p789s22255p", "5p", options={"red_dragon_wild": True, "honours": False}))
    assert result["error"]["code"] == "bad_option" and result["error"]["field"] == "options.red_dragon_wild"
    assert exit_code(result) == 2


# --------------------------------------------------------------------------- malformed input


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda p: p.pop("hand"), "hand"),
        (lambda p: p["options"].update(fish=2), "options.fish"),
        (lambda p: p["options"].update(seven_pairs="yes"), "options.seven_pairs"),
        (lambda p: p["options"].update(dealer_rotation="random"), "options.dealer_rotation"),
        (lambda p: p.update(winner="X"), "winner"),
        (lambda p: p["win"].update(by="discard"), "win.from"),
        (lambda p: p["hand"].update(concealed="123m456p789s1115f"), "hand.concealed"),
    ],
)
def test_malformed_input_exit_2_naming_the_field(mutate, field):
    p = payload(STANDARD, "2z")
    mutate(p)
    result = scored(p)
    assert not result["ok"] and exit_code(result) == 2
    assert result["error"]["field"] == field


# --------------------------------------------------------------------------- waits


def wait_payload(concealed: str, options: dict | None = None, melds: list | None = None) -> dict:
    return {
        "variant": "ningxia",
        "winner": "S",
        "options": options or {},
        "hand": {"concealed": concealed, "melds": melds or []},
    }


def test_waits_standard_hand():
    assert waits(wait_payload("123m456p789s1122z"))["waits"] == ["1z", "2z"]


def test_waits_leave_out_thirteen_orphans():
    out = waits(wait_payload("19m19p19s1234567z"))
    assert out["ok"] and out["waits"] == [] and out["notation"] == ""


def test_waits_seven_pairs_follow_the_option():
    assert waits(wait_payload("1155m2288p3399s1z"))["waits"] == ["1z"]
    assert waits(wait_payload("1155m2288p3399s1z", {"seven_pairs": False}))["waits"] == []


def test_waits_with_claimed_chow_refused():
    out = waits(wait_payload("456p789s1122z", melds=[{"type": "chow", "tiles": "123m", "from": "E"}]))
    assert out["error"]["code"] == "chow_claim_not_allowed" and exit_code(out) == 1


# --------------------------------------------------------------------------- dealer rotation


@pytest.mark.parametrize(
    "winners, drawn, rotation, expected",
    [
        ([], True, "winner", "E"),  # "If the game ends in a draw ... the same dealer continuing"
        (["E"], False, "winner", "E"),  # "If the dealer wins ... they retain their position"
        (["W"], False, "winner", "W"),  # "The winner of the hand becomes the next dealer"
        (["N", "S"], False, "winner", "N"),  # several winners: the first listed
        (["S", "E"], False, "winner", "E"),  # the dealer among them keeps the deal
        ([], True, "next_seat", "E"),
        (["E"], False, "next_seat", "E"),
        (["W"], False, "next_seat", "S"),
    ],
)
def test_next_dealer(winners, drawn, rotation, expected):
    opts = resolve_options(VARIANT.options, {"dealer_rotation": rotation})
    assert VARIANT.next_dealer(winners, drawn, opts) == expected


@pytest.mark.parametrize(
    "winners, discarder, expected",
    [
        (["S", "N"], "W", "N"),  # after West: North, East, South
        (["N", "S"], "E", "S"),  # after East: South first
        (["W", "N"], "S", "W"),
        (["N", "W", "S"], "E", "S"),  # One Discard, Three Wins
        (["S", "E"], "W", "E"),  # the dealer among the winners keeps the deal
    ],
)
def test_next_dealer_several_winners_nearest_after_discarder(winners, discarder, expected):
    assert VARIANT.next_dealer(winners, False, DEFAULTS, discarder=discarder, last_drawer=None) == expected
    next_seat = resolve_options(VARIANT.options, {"dealer_rotation": "next_seat"})
    assert VARIANT.next_dealer(winners, False, next_seat, discarder=discarder) == ("E" if "E" in winners else "S")


def test_next_dealer_needs_a_winner_unless_drawn():
    with pytest.raises(ValueError):
        VARIANT.next_dealer([], False, DEFAULTS)


def test_describe_lists_documented_options():
    desc = VARIANT.describe()
    assert desc["tiles"] == 136
    assert {o["name"] for o in desc["options"]} == {
        "seven_pairs",
        "honours",
        "red_dragon_wild",
        "claimed_chows",
        "dealer_rotation",
    }


# --------------------------------------------------------------------------- properties


@st.composite
def winning_hands(draw):
    """A legal standard hand: four random sets (some declared) and a pair, within four copies."""
    used = [0] * 34
    concealed: list[int] = []
    melds: list[dict] = []
    seats = ["E", "W", "N"]
    for _ in range(4):
        chow = draw(st.booleans())
        if chow:
            suit = draw(st.integers(0, 2))
            first = suit * 9 + draw(st.integers(0, 6))
            tiles = [first, first + 1, first + 2]
        else:
            kind = draw(st.integers(0, 33))
            size = draw(st.sampled_from([3, 3, 4]))
            tiles = [kind] * size
        if any(used[t] + tiles.count(t) > 4 for t in set(tiles)):
            continue
        for t in tiles:
            used[t] += 1
        declared = len(tiles) == 4 or (not chow and draw(st.booleans()))
        if declared:
            if len(tiles) == 4:
                kind_name = draw(st.sampled_from(["kong", "concealed_kong", "added_kong"]))
            else:
                kind_name = "pung"
            meld = {"type": kind_name, "tiles": format_tiles(tiles)}
            if kind_name != "concealed_kong":
                meld["from"] = draw(st.sampled_from(seats))
            melds.append(meld)
        else:
            concealed.extend(tiles)
    free = [k for k in range(34) if used[k] <= 2]
    pair = draw(st.sampled_from(free))
    concealed += [pair, pair]
    missing = 4 - len(melds) - (len(concealed) - 2) // 3
    for _ in range(missing):  # fill skipped groups with pungs of unused kinds
        kind = draw(st.sampled_from([k for k in range(34) if used[k] == 0 and k != pair]))
        used[kind] += 3
        concealed += [kind] * 3
    winning = draw(st.sampled_from(sorted(set(concealed))))
    return format_tiles(concealed), format_tiles([winning]), melds


@settings(max_examples=120, deadline=None)
@given(winning_hands(), st.sampled_from(["self_draw", "discard"]), st.sampled_from(["E", "S", "W", "N"]))
def test_payments_sum_to_zero_for_random_winning_hands(hand, by, winner):
    concealed, winning, melds = hand
    frm = "SWNE"["ESWN".index(winner)] if by == "discard" else None
    for m in melds:  # a meld cannot be claimed from its owner
        if m.get("from") == winner:
            m["from"] = "S" if winner != "S" else "E"
    result = scored(payload(concealed, winning, winner=winner, by=by, frm=frm, melds=melds))
    assert result["ok"], result
    assert sum(result["payments"].values()) == 0
    assert result["value"] in (6, 3, 18, 9, 30, 15)


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
            "concealed",
            "winning_tile",
            "melds",
            "by",
            "from",
            "type",
            "tiles",
        ],
        max_size=5,
        max_leaves=20,
    )
)
def test_random_payloads_never_raise(junk):
    for candidate in (
        junk,
        {"variant": "ningxia", "winner": "S", "hand": junk},
        {"variant": "ningxia", "winner": "S", "hand": {"concealed": junk, "winning_tile": "1m"}},
    ):
        result = scored(candidate)
        assert isinstance(result, dict) and exit_code(result) in (0, 1, 2)
        assert isinstance(waits(candidate), dict)
