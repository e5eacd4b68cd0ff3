"""Decomposition: every arrangement, seven pairs (quads as two pairs), thirteen orphans, wilds."""

import pytest

from engine.decompose import WildSpec, decompose, is_winning
from engine.melds import Meld
from engine.tiles import parse_tile, parse_tiles, tile_str


def arrangements(text, melds=(), **kw):
    return decompose(parse_tiles(text), melds, **kw)


def shapes(dec):
    return sorted(str(g) for g in dec.groups)


@pytest.mark.parametrize(
    "hand, forms",
    [
        ("123m456p789s11222z", ["standard"]),
        ("111222333m44455p", ["standard", "standard"]),  # three pungs, or the same chow three times
        ("11223344556677m", ["seven_pairs", "standard", "standard", "standard"]),
        ("1133557799m1133p", ["seven_pairs"]),
        ("19m19p19s12345677z", ["thirteen_orphans"]),
        ("11112222333344m", ["seven_pairs", "standard", "standard", "standard"]),
    ],
)
def test_forms(hand, forms):
    got = sorted(d.form for d in arrangements(hand))
    assert got == sorted(forms), [str(d) for d in arrangements(hand)]


def test_every_arrangement_of_a_pure_hand():
    decs = arrangements("11123455678999m")
    assert len(decs) == 1
    assert shapes(decs[0]) == ["chow:234m", "chow:678m", "pair:55m", "pung:111m", "pung:999m"]
    decs = arrangements("11122233344455m")
    assert len(decs) >= 3


def test_quads_in_seven_pairs():
    (dec,) = [d for d in arrangements("11112233445566m") if d.form == "seven_pairs"]
    assert dec.quads == 1
    (dec,) = [d for d in arrangements("11112222334455p") if d.form == "seven_pairs"]
    assert dec.quads == 2


def test_not_a_win():
    assert arrangements("123m456p789s11z234z") == []
    assert not is_winning(parse_tiles("123m456p789s11z234z"))


def test_declared_melds_count_as_sets():
    melds = [Meld.parse("pung", "555p", "N"), Meld.parse("concealed_kong", "1111z")]
    (dec,) = arrangements("123m789s22z", melds)
    assert dec.form == "standard"
    declared = [g for g in dec.groups if g.is_declared]
    assert len(declared) == 2 and declared[1].kind == "kong" and declared[1].is_concealed
    assert not declared[0].is_concealed


WILD_3S_4S = WildSpec(frozenset({parse_tile("3s"), parse_tile("4s")}))


def test_wild_substitutions_are_reported():
    decs = arrangements("123m456p78s11z22z34s", wilds=WILD_3S_4S)
    assert decs
    for dec in decs:
        assert len(dec.substitutions) == 2
        faces = sorted(tile_str(f) for f, _ in dec.substitutions)
        assert faces == ["3s", "4s"]
    stands = {tuple(sorted(tile_str(k) for _, k in d.substitutions)) for d in decs}
    assert ("1z", "6s") in stands or ("6s", "1z") in stands


def test_wild_standing_for_its_own_face():
    # 2s 4s(wild) 5s... the wild 4s can stand for 4s itself: 234s + 567s ...
    decs = arrangements("123m456p11z23s567s4s", wilds=WILD_3S_4S)
    assert any(d.wilds_as_self == 1 for d in decs)


def test_seven_wilds_win():
    wilds = WildSpec(frozenset({parse_tile("3s"), parse_tile("4s")}))
    scattered = parse_tiles("19m1p1z7z19p333s4444s")  # 7 wilds + 7 scattered orphans
    assert not is_winning(scattered, wilds=wilds, forms=("standard",))
    assert is_winning(scattered, wilds=wilds, forms=("thirteen_orphans",))
    assert is_winning(parse_tiles("123m456p1z333s4444s"), wilds=wilds)
    decs = decompose(parse_tiles("123m456p1z333s4444s"), wilds=wilds, free_kinds=[parse_tile("5z")])
    assert decs and all(len(d.substitutions) == 7 for d in decs)


def test_wild_cannot_be_a_fifth_copy_by_default():
    wild = WildSpec(frozenset({parse_tile("1z")}))
    # 2222m in hand; the pair needs a fifth 2m from the wild when 2m is the only open tile
    hand = parse_tiles("2222m345p678s999p1z")
    assert not is_winning(hand, wilds=wild, forms=("standard",))
    assert is_winning(hand, wilds=WildSpec(wild.kinds, allow_fifth_copy=True), forms=("standard",))
    decs = decompose(hand, wilds=WildSpec(wild.kinds, allow_fifth_copy=True), forms=("standard",))
    assert any(k == parse_tile("2m") for d in decs for _, k in d.substitutions)


def test_fifth_copy_counts_declared_melds():
    wild = WildSpec(frozenset({parse_tile("1z")}))
    melds = [Meld.parse("pung", "555p", "N")]
    # 5p pung declared; concealed 5p + wild pair would make a fifth 5p
    hand = parse_tiles("5p123m456m789m1z")
    assert not is_winning(hand, melds, wilds=wild)
    assert is_winning(hand, melds, wilds=WildSpec(wild.kinds, allow_fifth_copy=True))


def test_flower_wilds():
    flowers = WildSpec(frozenset(parse_tiles("2345678f")))
    hand = parse_tiles("123m456p789s11z2z") + parse_tiles("34f")
    assert is_winning(hand, wilds=flowers)
    decs = decompose(hand, wilds=flowers)
    assert [sorted(tile_str(k) for _, k in d.substitutions) for d in decs] == [["2z", "2z"], ["1z", "2z"]]


def test_wilds_in_seven_pairs_and_orphans():
    wild = WildSpec(frozenset({parse_tile("5z")}))
    assert is_winning(parse_tiles("1133557799m113p5z"), wilds=wild)
    decs = decompose(parse_tiles("19m19p19s1234z67z55z"), wilds=wild, forms=("thirteen_orphans",))
    assert decs and all(d.form == "thirteen_orphans" for d in decs)


def test_wild_finishes_a_chow_beyond_the_held_ranks():
    """Regression: 12m needs a wild 3m; the suit tables must see ranks past the tiles held."""
    wilds = WildSpec(frozenset({parse_tile("3s"), parse_tile("4s")}))
    hand = parse_tiles("12m4s456p678s22s555z")
    assert is_winning(hand, wilds=wilds)
    assert any(k == parse_tile("3m") for d in decompose(hand, wilds=wilds) for _, k in d.substitutions)


def test_visible_tiles_count_toward_the_cap():
    """Copies shown face up (indicators) are out of play: a wild may not stand for a fifth copy."""
    melds = [Meld.parse("chow", "123p", "N")]
    hand = parse_tiles("123m456p789s5z4s")  # the wild 4s can only pair with the 5z
    spec = WildSpec(frozenset({parse_tile("4s")}))
    assert is_winning(hand, melds, wilds=spec)
    three_shown = WildSpec(spec.kinds, visible=tuple(parse_tiles("555z")))
    assert not is_winning(hand, melds, wilds=three_shown)
    assert decompose(hand, melds, wilds=three_shown) == []
    two_shown = WildSpec(spec.kinds, visible=tuple(parse_tiles("55z")))
    assert [d.substitutions for d in decompose(hand, melds, wilds=two_shown)] == [
        ((parse_tile("4s"), parse_tile("5z")),)
    ]
