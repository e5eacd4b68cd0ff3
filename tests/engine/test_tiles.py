"""Tiles and notation: parsing, formatting, names, glyphs, and every notation error."""

import pytest

from engine.errors import NotationError
from engine.tiles import (
    format_tiles,
    glyph,
    name_en,
    name_zh,
    next_in_cycle,
    parse_tile,
    parse_tiles,
    tile_str,
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("123m", [0, 1, 2]),
        ("456p", [12, 13, 14]),
        ("789s", [24, 25, 26]),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33]),
        ("12345678f", list(range(34, 42))),
        ("1m 2m, 3m", [0, 1, 2]),
        ("19m19p19s1234567z", [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]),
    ],
)
def test_parse_compact(text, expected):
    assert parse_tiles(text) == expected


@pytest.mark.parametrize(
    "text, culprit",
    [
        ("9z", "9z"),
        ("8z", "8z"),
        ("0m", "0m"),
        ("0p", "red fives"),
        ("9f", "9f"),
        ("123x", "unknown suit letter 'x'"),
        ("123", "no suit letter"),
        ("m", "no digits before it"),
        ("12m!", "unexpected character '!'"),
        ("一x", "cannot read"),
    ],
)
def test_notation_errors_name_the_culprit(text, culprit):
    with pytest.raises(NotationError) as err:
        parse_tiles(text)
    assert culprit in str(err.value)
    assert err.value.code == "bad_notation"


def test_parse_rejects_non_string():
    with pytest.raises(NotationError):
        parse_tiles(123)  # type: ignore[arg-type]


def test_parse_tile_wants_exactly_one():
    assert parse_tile("5p") == 13
    with pytest.raises(NotationError):
        parse_tile("55p")


def test_format_round_trip_for_every_tile():
    for tile in range(42):
        assert parse_tile(tile_str(tile)) == tile
        assert parse_tile(glyph(tile)) == tile
        assert parse_tile(name_zh(tile)) == tile
    assert format_tiles(parse_tiles("3m1p2m7z1f1z")) == "23m1p17z1f"
    assert format_tiles([2, 0, 1], sort=False) == "312m"


@pytest.mark.parametrize(
    "text, tiles",
    [
        ("一萬二萬三萬", "123m"),
        ("五筒 九條", "5p9s"),
        ("東南西北白發中", "1234567z"),
        ("梅蘭菊竹春夏秋冬", "12345678f"),
        ("一万 红中 发", "1m76z"),
        ("🀇🀙🀐🀀🀄🀢", "1m1p1s1z7z1f"),
    ],
)
def test_chinese_names_and_glyphs(text, tiles):
    assert sorted(parse_tiles(text)) == sorted(parse_tiles(tiles))


def test_names():
    assert name_en(parse_tile("3p")) == "3 dots"
    assert name_en(parse_tile("7z")) == "Red dragon"
    assert name_en(parse_tile("1z")) == "East wind"
    assert name_en(parse_tile("3f")) == "Chrysanthemum"
    assert name_zh(parse_tile("1m")) == "一萬"
    assert glyph(parse_tile("7z")) == "\U0001f004"
    assert glyph(parse_tile("5z")) == "\U0001f006"


@pytest.mark.parametrize(
    "indicator, following",
    [
        ("3s", "4s"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("1z", "2z"),
        ("4z", "1z"),
        ("6z", "7z"),
        ("7z", "5z"),
        ("5z", "6z"),
        ("8f", "1f"),
        ("2f", "3f"),
    ],
)
def test_indicator_cycle(indicator, following):
    assert tile_str(next_in_cycle(parse_tile(indicator))) == following


@pytest.mark.parametrize("text", ["¹m", "1²m", "①m", "١m"])
def test_digits_other_than_ascii_are_a_notation_error(text):
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert "unexpected character" in info.value.message
