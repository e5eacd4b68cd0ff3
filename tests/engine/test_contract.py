"""The JSON contract itself: several winners on one discard, the error's kind and the exit status,
unknown fields and contradictory win facts."""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import exit_code, score, waits
from tests.builders import payload

STANDARD_ON_5P = "123m456p789s11122z"  # Ningxia standard win, closed 46p wait
PAIR_ON_5P = "345888m55p678p222s"  # Ningxia standard win, pair wait


def hand(
    concealed: str = STANDARD_ON_5P,
    winning: str = "5p",
    *,
    variant: str = "ningxia",
    win: dict[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A hand won on East's discard (a Ningxia standard win on 5p) unless told otherwise."""
    return payload(
        variant, concealed, winning, win=win if win is not None else {"by": "discard", "from": "E"}, **fields
    )


def assert_invalid(result: dict, field: str) -> None:
    assert result["ok"] is False, result
    assert result["error"]["kind"] == "invalid"
    assert result["error"]["field"] == field
    assert exit_code(result) == 2


def test_one_winner_gets_the_shape_of_several():
    result = score(hand())
    assert result["ok"] is True and exit_code(result) == 0
    assert [r["winner"] for r in result["results"]] == ["S"]
    only = result["results"][0]
    assert only["value"] == 3 and [i["name"] for i in only["items"]] == ["standard_win"]
    assert only["payments"] == result["payments"] == {"E": -3, "S": 3, "W": 0, "N": 0}
    several = score([hand(), hand(PAIR_ON_5P, winner="N")])
    assert set(result) == set(several) and set(only) == set(several["results"][0])


def test_several_winners_on_the_same_tile_are_scored():
    result = score([hand(), hand(PAIR_ON_5P, winner="N")])
    assert result["ok"] and exit_code(result) == 0
    assert [(r["winner"], r["value"]) for r in result["results"]] == [("S", 3), ("N", 3)]
    assert result["payments"] == {"E": -6, "S": 3, "W": 0, "N": 3}


def test_several_winners_with_different_winning_tiles_are_bad_input():
    # the same two hands, but North claims to have won on 2s: one discard is one tile
    north = hand("345888m55p678p222s", "2s", winner="N")
    result = score([hand(), north])
    assert_invalid(result, "[1].hand.winning_tile")
    assert result["error"]["code"] == "bad_input"


def test_several_winners_with_different_options_are_bad_input():
    result = score([hand(options={"seven_pairs": True}), hand(PAIR_ON_5P, winner="N", options={"seven_pairs": False})])
    assert_invalid(result, "[1].options")


def test_a_refusal_is_kind_refused_and_exit_1():
    result = score(hand("123m456p789s11123z", "3z", win={"by": "self_draw"}))
    assert result["ok"] is False
    assert result["error"]["code"] == "not_a_win" and result["error"]["kind"] == "refused"
    assert exit_code(result) == 1


def test_a_refusal_among_several_winners_is_kind_refused_and_exit_1():
    result = score([hand(), hand("234567m5p678s3344z", winner="N")])
    assert result["error"]["kind"] == "refused" and exit_code(result) == 1


def test_bad_input_is_kind_invalid_and_exit_2():
    p = hand()
    del p["winner"]
    result = score(p)
    assert_invalid(result, "winner")
    assert result["error"]["code"] == "bad_input"


def test_waits_errors_carry_the_kind_too():
    hand = {"concealed": "123m456p789s1112z", "winning_tile": "2z"}
    result = waits({"variant": "ningxia", "winner": "S", "hand": hand})
    assert_invalid(result, "hand.winning_tile")


def test_exit_code_follows_the_kind():
    assert exit_code({"ok": True}) == 0
    assert exit_code({"ok": False, "error": {"code": "not_a_win", "kind": "refused"}}) == 1
    assert exit_code({"ok": False, "error": {"code": "bad_input", "kind": "invalid"}}) == 2


def test_unknown_top_level_field_is_named():
    p = hand()
    p["dealer"] = "E"
    result = score(p)
    assert_invalid(result, "dealer")
    assert "dealer" in result["error"]["message"]


@pytest.mark.parametrize("key", ["kong_robbed", "self_drawn"])
def test_unknown_win_field_is_named(key):
    result = score(hand(win={"by": "discard", "from": "E", key: True}))
    assert_invalid(result, f"win.{key}")
    assert key in result["error"]["message"]


def test_unknown_field_in_the_second_winner_is_named_with_its_index():
    second = hand(PAIR_ON_5P, winner="N")
    second["win"]["robbed"] = True
    assert_invalid(score([hand(), second]), "[1].win.robbed")


def test_double_kong_needs_after_kong():
    melds = [{"type": "kong", "tiles": "6666p", "from": "N"}, {"type": "concealed_kong", "tiles": "9999s"}]
    bad = hand("123m789s11z222z", "2z", win={"by": "self_draw", "double_kong": True}, variant="yuxi")
    bad["hand"]["melds"] = melds[:1]
    assert_invalid(score(bad), "win.double_kong")
    good = hand("123m11z222z", "2z", win={"by": "self_draw", "after_kong": True, "double_kong": True}, variant="yuxi")
    good["hand"]["melds"] = melds
    result = score(good)
    assert result["ok"] and exit_code(result) == 0
    assert [i["name"] for i in result["results"][0]["items"]] == [
        "base_points",
        "flower_bloom",
        "double_gang_on_flower",
    ]


@pytest.mark.parametrize(
    "variant, indicator, extra_flags, roles",
    [
        ("ningbo", "baida", [], ["hand", "meld", "concealed_kong", "baida", "ignore"]),
        ("nanning", "fish", [], ["hand", "meld", "concealed_kong", "fish", "ignore"]),
        ("yuxi", "bloom", ["double_kong", "ten_old_men"], ["hand", "meld", "concealed_kong", "bloom", "ignore"]),
        ("hefei", None, [], ["hand", "meld", "concealed_kong", "ignore"]),
        ("ningxia", None, [], ["hand", "meld", "concealed_kong", "ignore"]),
    ],
)
def test_each_rule_set_publishes_what_the_page_asks(variant, indicator, extra_flags, roles):
    from engine.contract import describe_variants

    described = {d["name"]: d for d in describe_variants()}[variant]
    assert described["indicator"] == indicator
    assert described["win_flags"] == ["after_kong", "robbed_kong", "last_tile", "first_turn", *extra_flags]
    assert described["roles"] == roles
    # every published flag is one the contract accepts
    for flag in described["win_flags"]:
        win = {"by": "discard", "from": "E", flag: True} | ({"after_kong": True} if flag == "double_kong" else {})
        result = score(hand(win=win))
        assert result.get("error", {}).get("field") != f"win.{flag}", result


#: the options that take tiles out of play: (rule set, option, value) -> the tile codes left out
#: (every other option of every rule set leaves the tile set as it is)
OUT_OF_PLAY: dict[tuple[str, str, Any], set[str]] = {
    ("ningxia", "honours", False): {f"{r}z" for r in range(1, 8)},
}


def _other_values(spec: Any) -> list[Any]:
    """The values of an option other than its default worth trying: a flag's other value, each other choice."""
    if isinstance(spec.default, bool):
        return [not spec.default]
    return [c for c in spec.choices or () if c != spec.default]


@pytest.mark.parametrize("variant", ["ningbo", "nanning", "yuxi", "hefei", "ningxia"])
def test_the_tile_codes_follow_every_option(variant: str) -> None:
    """``facts(opts)["tile_codes"]`` (what the picker offers): each option's other values leave
    the documented tile set, except those that take tiles out of play (:data:`OUT_OF_PLAY`)."""
    from engine.rules import get_variant

    rules = get_variant(variant)
    plain = set(rules.facts()["tile_codes"])
    assert plain == set(rules.facts({})["tile_codes"]) and len(plain) == len(rules.facts()["tile_codes"])
    for spec in rules.options:
        for value in _other_values(spec):
            codes = set(rules.facts({spec.name: value})["tile_codes"])
            assert codes == plain - OUT_OF_PLAY.get((variant, spec.name, value), set()), (spec.name, value)


def test_a_hand_with_a_tile_out_of_play_is_refused() -> None:
    """The tiles the picker leaves out are the ones the rule set refuses: Ningxia without honours."""
    from engine.rules import get_variant

    rules = get_variant("ningxia")
    assert not any(c.endswith("z") for c in rules.facts({"honours": False})["tile_codes"])
    result = score(payload("ningxia", STANDARD_ON_5P, "5p", options={"honours": False}))
    assert result["ok"] is False and result["error"]["code"] == "tile_not_in_set"
