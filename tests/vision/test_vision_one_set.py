"""A photo shows one set: a surplus copy of a face takes its next reading where the set has room
(``_read_surplus_again``)."""

import importlib

import pytest

R = importlib.import_module("vision.recognize")


def _tile(top: list[tuple[str, float]], sure: bool = True):
    return R.RecognizedTile(top[0][0], [[0, 0]] * 4, top[0][1], list(top), False, 0, 0, sure)


def _read(given: list[list[tuple[str, float]]]):
    tiles = [_tile(top) for top in given]
    groups = [{"tiles": list(range(len(tiles))), "hand": True}]
    R._read_surplus_again(tiles, R._surplus_copies(tiles, groups))
    return [t.code for t in tiles], [t.sure for t in tiles]


THREE_M = [[("3m", p), ("2m", 0.01)] for p in (0.999, 0.998, 0.997, 0.996)]

CASES = [
    # (top readings of each tile, the codes after, which are sure after)
    pytest.param(
        [*THREE_M, [("3m", 0.60), ("2m", 0.30), ("5m", 0.05)]],
        ["3m"] * 4 + ["2m"],
        [True] * 4 + [False],
        id="a fifth 3m: the least confident takes its next reading",
    ),
    pytest.param(
        [*THREE_M, [("3m", 0.95), ("2m", 0.04)]],
        ["3m"] * 5,
        [True] * 4 + [False],
        id="no other reading probable enough: the face stays, not sure",
    ),
    pytest.param(
        [[("7f", 0.99), ("3f", 0.005)], [("7f", 0.57), ("3f", 0.41)]],
        ["7f", "3f"],
        [True, False],
        id="one of each flower",
    ),
    pytest.param(
        [*[[("2m", 0.99)]] * 4, *THREE_M, [("3m", 0.5), ("2m", 0.3), ("6m", 0.1)]],
        ["2m"] * 4 + ["3m"] * 4 + ["6m"],
        [True] * 8 + [False],
        id="the set has no room for the next reading: the one after",
    ),
    pytest.param(
        [*[[("5z", p), ("6z", 0.3)] for p in (0.99, 0.98, 0.97, 0.96, 0.95)], *[[("back", 0.99)]] * 6],
        ["5z"] * 5 + ["back"] * 6,
        [True] * 4 + [False] + [True] * 6,
        id="a fifth white dragon is not sure but reads as nothing else; backs are not counted",
    ),
    pytest.param(
        [*THREE_M, [("4m", 0.9), ("3m", 0.05)]],
        ["3m"] * 4 + ["4m"],
        [True] * 5,
        id="within one set: as read",
    ),
]


@pytest.mark.parametrize(("given", "codes", "sure"), CASES)
def test_a_surplus_copy_takes_its_next_reading_the_set_has_room_for(given, codes, sure):
    assert _read(given) == (codes, sure)


def test_a_surplus_copy_keeps_its_other_readings():
    tiles = [_tile(top) for top in [*THREE_M, [("3m", 0.6), ("2m", 0.3)]]]
    R._read_surplus_again(tiles, R._surplus_copies(tiles, [{"tiles": [0, 1, 2, 3, 4], "hand": True}]))
    assert (tiles[4].code, tiles[4].confidence, tiles[4].alternatives) == ("2m", 0.3, [("2m", 0.3), ("3m", 0.6)])
