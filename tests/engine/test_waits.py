"""Waits: the tiles that complete a hand, the wait shape of the winning tile, single-tile waits."""

import pytest

from engine.decompose import WildSpec, decompose
from engine.tiles import format_tiles, parse_tile, parse_tiles
from engine.tilesets import HEFEI_84
from engine.waits import has_single_winning_tile, wait_shapes, winning_tiles


@pytest.mark.parametrize(
    "hand, waits",
    [
        ("1112345678999m", "123456789m"),  # nine gates
        ("123m456p789s1122z", "12z"),
        ("123m456p789s11z45m", "36m"),
        ("123m456p789s11z13m", "2m"),
        ("123m456p789s11z12m", "3m"),
        ("123m456p789s123z4z", ""),
        ("19m19p19s1234567z", "19m19p19s1234567z"),  # thirteen-sided orphans
        ("1133557799m113p", "3p"),  # seven pairs single
        ("111m222p333s4445z", "5z"),
    ],
)
def test_winning_tiles(hand, waits):
    assert format_tiles(winning_tiles(parse_tiles(hand))) == waits


def test_no_wait_on_an_exhausted_tile():
    # 2222m held: a hand waiting on 2m cannot list it
    assert parse_tile("2m") not in winning_tiles(parse_tiles("2222m345p678s99p1m"))


def test_waits_with_wilds_include_the_wild_kind():
    wild = WildSpec(frozenset({parse_tile("7z")}))
    waits = winning_tiles(parse_tiles("123m456p789s11z7z2z"), wilds=wild)
    assert parse_tile("7z") in waits
    assert parse_tile("2z") in waits and parse_tile("1z") in waits


@pytest.mark.parametrize(
    "hand, win, shapes",
    [
        ("12m456p789s11z222z3m", "3m", {"edge"}),
        ("89m456p789s11z222z7m", "7m", {"edge"}),
        ("13m456p789s11z222z2m", "2m", {"closed"}),
        ("45m456p789s11z222z3m", "3m", {"two_sided"}),
        ("123m456p789s222z1z1z", "1z", {"single"}),
        ("123m456p789s22z11z1z", "1z", {"double_pung"}),
        ("23m456p789s11z222z1m", "1m", {"two_sided"}),
        ("123345m456p789s22z", "3m", {"edge", "two_sided"}),
    ],
)
def test_wait_shapes(hand, win, shapes):
    tile = parse_tile(win)
    found = set()
    for dec in decompose(parse_tiles(hand)):
        found |= wait_shapes(dec, tile)
    assert found == shapes


@pytest.mark.parametrize("hand, win", [("23m456p678s22p333s4m", "4m"), ("78m456p678s22p333s6m", "6m")])
def test_hefei_edges_without_ones_and_nines(hand, win):
    """With 1s and 9s absent, 23 waiting 4 and 78 waiting 6 are edge waits."""
    tile = parse_tile(win)
    shapes = set()
    for dec in decompose(parse_tiles(hand)):
        shapes |= wait_shapes(dec, tile, tileset=HEFEI_84)
    assert shapes == {"edge"}


def test_single_winning_tile():
    assert has_single_winning_tile(parse_tiles("13m456p789s11z222z2m"), parse_tile("2m"))
    assert not has_single_winning_tile(parse_tiles("45m456p789s11z222z3m"), parse_tile("3m"))
    assert has_single_winning_tile(parse_tiles("23m456p678s22p333s4m"), parse_tile("4m"), tileset=HEFEI_84)
