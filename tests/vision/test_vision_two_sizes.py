"""A photo with tiles of two sizes: the hand near the camera, and more tiles laid out beyond it
(another player's discards and melds) two and a half times narrower. The finder aims its looks at
the median tile, the farther ones; the hand's tiles come from the look that saw them in range
(:func:`vision.finders.learned._with_larger_tiles`), and the size rules measure them on the sure
tiles of their own size (:func:`vision.layout_rules._among_own_size`). Before, every one of the
hand's tiles was lost."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import recognize

learned = sys.modules["vision.finders.learned"]

PHOTOS = Path(__file__).resolve().parent.parent / "fixtures" / "photos"
NEAR = 2.5  # the hand's photo enlarged this much
FAR = 0.4  # the other tiles this much smaller than the hand's


def _tiles_of(name: str) -> tuple[np.ndarray, dict]:
    """A fixture photo cut to its tiles (30 px round them), and its labels."""
    img = cv2.imread(str(PHOTOS / f"{name}.jpg"))
    gt = json.loads((PHOTOS / f"{name}.json").read_text())
    pts = np.array([p for t in gt["tiles"] for p in t["quad"]])
    (x0, y0), (x1, y1) = np.maximum(pts.min(0) - 30, 0).astype(int), (pts.max(0) + 30).astype(int)
    return img[y0:y1, x0:x1], gt


@pytest.fixture(scope="module")
def two_sizes() -> tuple[bytes, dict]:
    """scene_11's hand enlarged (tiles 110 px wide in a 2400 x 1800 photo), and below it three
    rows of another scene's tiles at 0.4 of that width: 16 tiles near, 74 beyond."""
    hand = cv2.imread(str(PHOTOS / "scene_11.jpg"))
    gt = json.loads((PHOTOS / "scene_11.json").read_text())
    canvas = cv2.resize(hand, None, fx=NEAR, fy=NEAR, interpolation=cv2.INTER_LINEAR)
    for k, name in enumerate(["scene_12", "scene_13", "scene_12"]):
        tiles, _ = _tiles_of(name)
        small = cv2.resize(tiles, None, fx=NEAR * FAR, fy=NEAR * FAR, interpolation=cv2.INTER_AREA)
        y0, x0 = int(canvas.shape[0] * (0.6 + 0.12 * k)), int(canvas.shape[1] * 0.45)
        canvas[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small
    ok, jpeg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return jpeg.tobytes(), gt


def test_the_hand_near_the_camera_is_read_beside_more_tiles_farther_off(two_sizes):
    data, gt = two_sizes
    rec = recognize(data)
    near = [
        i
        for i, t in enumerate(rec.tiles)
        if np.mean(t.quad, axis=0)[1] < 400 * NEAR  # (the hand's part of the photo; the rest lies below 1080)
    ]
    assert Counter(rec.tiles[i].code for i in near) == Counter(gt["codes"]), rec.to_text()
    sure_wrong = [rec.tiles[i].code for i in near if rec.tiles[i].sure and rec.tiles[i].code not in gt["codes"]]
    assert not sure_wrong
    hand = {i for g in rec.to_dict()["groups"] if g["hand"] for i in g["tiles"]}
    assert set(near) - hand <= {i for i in near if rec.tiles[i].code == "2f"}  # (the flower: beside the hand)
    assert len(rec.tiles) > len(near) + 40  # the farther tiles are read too


def _rect_maps(rects: list[tuple[float, float, float, float]], shape: tuple[int, int]) -> tuple:
    """Face and core maps (map pixels) with a tile's face at each ``(cx, cy, w, h)``, and the
    cores as :func:`vision.finders.learned._core_regions` measures them."""
    face, core = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    for cx, cy, w, h in rects:
        face[int(cy - h / 2) : int(cy + h / 2), int(cx - w / 2) : int(cx + w / 2)] = 1.0
        cw, ch = w * learned.CORE_SHRINK / 2, h * learned.CORE_SHRINK / 2
        core[int(cy - ch) : int(cy + ch), int(cx - cw) : int(cx + cw)] = 1.0
    return face, core, learned._core_regions(core)


def _piece(cx: float, cy: float, w: float, h: float, group: int) -> learned.LearnedTile:
    quad = np.array(
        [[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]]
    )
    return learned._tile(quad, group)


@pytest.mark.parametrize(("large", "taken"), [(3, True), (2, False)])
def test_tiles_too_large_for_the_closer_look_come_from_the_first(large, taken):
    """A 1000 px image seen first at 640 (map pixels 3.125 image pixels), its large tiles 62 px
    wide (39 px at that look) and measured, its small ones 25; the closer look at 1780 px shows
    the large ones 110 px wide, in halves. With a meld of them (three), the first look's tiles
    replace the halves; two are no meld, and the closer look's finds stand."""
    scale = 2 * 1000 / 640
    big = [(60.0 + 25 * k, 60.0, 62 / scale, 82 / scale) for k in range(large)]
    face, core, regions = _rect_maps(big, (240, 320))
    halves = [
        _piece(cx * scale, (cy + dy * h / 4) * scale, w * scale, h * scale / 2, 1)
        for cx, cy, w, h in big
        for dy in (-1, 1)
    ]
    small = [_piece(300 + 27 * k, 600, 25, 33, 2) for k in range(20)]
    first = (640, (face, core, scale), regions, learned._cores(face, core, scale, regions=regions))
    blank = lambda n: (np.full((750, 1000, 3), 128, np.uint8), 1.0)  # noqa: E731 (no edges: no turn)
    found = learned._with_larger_tiles(halves + small, first, 1780 / 1000, 1000, blank)
    widths = sorted(round(t.sides[0]) for t in found)
    if taken:
        assert len(found) == len(small) + large
        assert all(55 <= w <= 65 for w in widths[-large:]), widths  # (cores measured on map pixels)
        assert all(w == 25 for w in widths[:-large]), widths  # (the halves measured 41: gone)
    else:
        assert found == halves + small


@pytest.mark.parametrize(
    ("inside", "why"),
    [
        ("whole", "the closer look found the tile whole: its sharper find stands"),
        ("smaller", "smaller finds inside: the first look's find held several tiles (a pattern round a far hand)"),
    ],
)
def test_the_closer_looks_finds_stand_where_they_are_no_pieces(inside, why):
    scale = 2 * 1000 / 640
    big = [(60.0 + 25 * k, 60.0, 62 / scale, 82 / scale) for k in range(3)]
    face, core, regions = _rect_maps(big, (240, 320))
    if inside == "whole":
        closer = [_piece(cx * scale, cy * scale, w * scale * 0.95, h * scale * 0.95, 1) for cx, cy, w, h in big]
    else:  # (a sixth of the area each, side by side)
        closer = [
            _piece((cx + dx * w / 4) * scale, (cy + dy * h / 6) * scale, w * scale / 2.5, h * scale / 3.5, 1)
            for cx, cy, w, h in big
            for dx in (-1, 1)
            for dy in (-1, 0, 1)
        ]
    first = (640, (face, core, scale), regions, learned._cores(face, core, scale, regions=regions))
    blank = lambda n: (np.full((750, 1000, 3), 128, np.uint8), 1.0)  # noqa: E731
    assert learned._with_larger_tiles(closer, first, 1780 / 1000, 1000, blank) == closer, why


@pytest.mark.parametrize("dots", [1, 2])
def test_dots_of_a_large_tile_found_at_the_closer_look_are_no_tiles_inside_it(dots):
    """The closer look found a large tile of the hand only as a dot or two of its artwork (a tenth
    of its width each way): those are no tiles inside what the first look found (they cover little
    of it), and the first look's tiles are taken."""
    scale = 2 * 1000 / 640
    big = [(60.0 + 25 * k, 60.0, 62 / scale, 82 / scale) for k in range(3)]
    face, core, regions = _rect_maps(big, (240, 320))
    closer = [
        _piece((cx + dx * w / 4) * scale, cy * scale, w * scale / 10, w * scale / 10, 1)
        for cx, cy, w, h in big
        for dx in (-1, 1)[:dots]
    ]
    first = (640, (face, core, scale), regions, learned._cores(face, core, scale, regions=regions))
    blank = lambda n: (np.full((750, 1000, 3), 128, np.uint8), 1.0)  # noqa: E731
    found = learned._with_larger_tiles(closer, first, 1780 / 1000, 1000, blank)
    assert len(found) == 3
    assert all(55 <= t.sides[0] <= 65 for t in found)
