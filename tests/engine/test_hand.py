"""Hands and melds: the count rule, copy limits, tile sets, meld shapes."""

import pytest

from engine.errors import MeldError, SeatError, TileCountError, TileSetError, TooManyCopiesError
from engine.hand import Hand
from engine.melds import Meld, MeldKind
from engine.seats import next_seat, others, parse_seat
from engine.tilesets import HEFEI_84, STANDARD_136, WITH_FLOWERS_144


def test_tile_set_sizes():
    assert STANDARD_136.size == 136
    assert WITH_FLOWERS_144.size == 144
    assert HEFEI_84.size == 84
    assert (HEFEI_84.min_rank, HEFEI_84.max_rank) == (2, 8)


@pytest.mark.parametrize(
    "concealed, melds, flowers, winning, tileset, error, fragment",
    [
        ("123m456p789s1122z", [], "", "2z", STANDARD_136, TileCountError, "13 tiles"),
        ("123m456p789s112223z", [], "", "2z", STANDARD_136, TileCountError, "15 tiles"),
        ("11111m456p789s22z", [], "", "2z", STANDARD_136, TooManyCopiesError, "5 copies of 1m"),
        ("123m456p789s11z22z", [], "1f", "2z", STANDARD_136, TileSetError, "1f"),
        ("234m456p678s22m33p", [], "", "2m", HEFEI_84, TileCountError, "13 tiles"),
        ("123m456p678s22s333p", [], "", "1m", HEFEI_84, TileSetError, "1m"),
        ("123m456p789s11z22z", [], "11f", "2z", WITH_FLOWERS_144, TooManyCopiesError, "1f"),
        ("123m456p789s1z1f22z", [], "", "2z", WITH_FLOWERS_144, TileSetError, "put flowers under"),
        ("55p789s11z2223z", [Meld.parse("pung", "555p", "N")], "", "1z", STANDARD_136, TooManyCopiesError, "5p"),
        ("123m456p789s11222z", [], "", "5z", STANDARD_136, TileCountError, "winning tile 5z"),
    ],
)
def test_validation_errors(concealed, melds, flowers, winning, tileset, error, fragment):
    hand = Hand.parse(concealed, melds, flowers, winning)
    with pytest.raises(error) as err:
        hand.validate(tileset)
    assert fragment in str(err.value)


def test_kongs_add_a_physical_tile():
    hand = Hand.parse("123m456p789s22z", [Meld.parse("concealed_kong", "1111z")], "", "2z")
    hand.validate(STANDARD_136)
    assert hand.counted_tiles == 14
    assert len(hand.all_tiles()) == 15
    assert hand.is_concealed


def test_flowers_do_not_count():
    hand = Hand.parse("123m456p789s11122z", [], "1357f", "2z")
    hand.validate(WITH_FLOWERS_144)
    assert hand.counted_tiles == 14


def test_waiting_hand_is_13():
    hand = Hand.parse("123m456p789s1122z")
    hand.validate(STANDARD_136, complete=False)
    assert hand.counted_tiles == 13 and hand.winning_tile is None
    with pytest.raises(TileCountError, match="13 tiles"):
        hand.validate(STANDARD_136)


@pytest.mark.parametrize(
    "kind, tiles, fragment",
    [
        ("chow", "124m", "not a chow"),
        ("chow", "789s1m", "not a chow"),
        ("chow", "123z", "not a chow"),
        ("pung", "556p", "identical"),
        ("kong", "555p", "4 identical"),
        ("pung", "111f", "flowers"),
        ("triplet", "111m", "unknown meld type"),
    ],
)
def test_meld_errors(kind, tiles, fragment):
    with pytest.raises(MeldError) as err:
        Meld.parse(kind, tiles, "N")
    assert fragment in str(err.value)


def test_meld_records_source_seat():
    meld = Meld.parse("added_kong", "5555p", "W")
    assert meld.kind is MeldKind.ADDED_KONG and meld.from_seat == "W" and meld.is_kong
    assert meld.to_dict() == {"type": "added_kong", "tiles": "5555p", "from": "W"}
    with pytest.raises(SeatError):
        Meld.parse("pung", "555p", "X")


def test_seats():
    assert parse_seat("s") == "S"
    assert next_seat("N") == "E"
    assert others("W") == ("N", "E", "S")
