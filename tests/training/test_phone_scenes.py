"""Phone-like synthetic photos (:mod:`training.phone_scenes`): ground truth that matches what is drawn,
for every kind of scene, deterministic by seed."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from training import clutter, phone_scenes, scenes

SIZE = (640, 480)


def _scene(seed, kind, **kw):
    return phone_scenes.make_phone_scene(seed, kind, size=SIZE, face_fn=scenes._placeholder_face, **kw)


def _up_angle(quad) -> float:
    """Degrees between a tile's face-up direction and image-up."""
    q = np.asarray(quad)
    up = q[0] - q[3]
    return math.degrees(math.atan2(up[0], -up[1]))


@pytest.mark.parametrize("kind", phone_scenes.KINDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_ground_truth_lies_in_the_photo(kind, seed):
    sc = _scene(seed, kind)
    assert sc.image.shape == (SIZE[1], SIZE[0], 3) and sc.image.dtype == np.uint8
    assert sc.tiles, "every scene shows some tiles"
    for t in sc.tiles:
        q = np.asarray(t["quad"])
        assert q.shape == (4, 2)
        assert (
            q[:, 0].min() >= 0 and q[:, 1].min() >= 0 and q[:, 0].max() <= SIZE[0] - 1 and q[:, 1].max() <= SIZE[1] - 1
        )
        assert t["code"] in scenes.ALL_CODES or t["code"] == "back"
        assert cv2.contourArea(q.astype(np.float32)) > 0  # clockwise in image coordinates (y down)


@pytest.mark.parametrize("kind", phone_scenes.KINDS)
def test_same_seed_same_photo(kind):
    a, b = _scene(5, kind), _scene(5, kind)
    assert np.array_equal(a.image, b.image) and a.tiles == b.tiles


def test_diagonal_rows_lie_at_20_to_45_degrees():
    angles = [
        abs(_up_angle(t["quad"])) for seed in range(4) for t in _scene(seed, "diagonal").tiles if not t["rotated"]
    ]
    assert angles and min(angles) > 10 and max(angles) < 55
    assert np.median(angles) > 20


def test_tray_tiles_touch_their_neighbours():
    sc = _scene(3, "tray")
    rows: dict = {}
    for t in sc.tiles:
        rows.setdefault(t["row"], []).append(np.asarray(t["quad"]))
    gaps = []
    for quads in rows.values():
        for a, b in zip(quads, quads[1:]):
            width = np.linalg.norm(a[1] - a[0])
            gaps.append(np.linalg.norm(b[0] - a[1]) / width)  # next tile's top-left vs this one's top-right
    assert gaps and max(gaps) < 0.05


def test_covered_tiles_have_no_ground_truth():
    # three tiles on a blank plane: the second lies square on the first, the third apart
    W, H, Mg, unit = 400, 300, 80, 60.0
    canvas = phone_scenes._Canvas(
        np.full((H + 2 * Mg, W + 2 * Mg, 3), 90, np.float32), np.full((H + 2 * Mg, W + 2 * Mg), -1, np.int32)
    )
    spots = [
        phone_scenes.Spot(c, x, 200.0, 0.0, 0, k)
        for k, (c, x) in enumerate([("1m", 200.0), ("2m", 200.0), ("3m", 400.0)])
    ]
    quads = [clutter.rect_poly(p.cx, p.cy, 0.75 * unit, unit, p.angle) for p in spots]
    rng = np.random.default_rng(0)
    phone_scenes._draw_tiles(
        canvas, rng, spots, quads, unit, np.array([40, 140, 40], np.float32), scenes._placeholder_face
    )
    sc = phone_scenes._photograph(canvas, rng, spots, quads, (W, H), Mg, 0.0, False)
    assert [t["code"] for t in sc.tiles] == ["2m", "3m"]
    assert sc.partial == []  # the first tile shows nothing at all: it is not even partly there


@pytest.mark.parametrize("covered, kept", [(0.0, True), (0.18, True), (0.3, False)])
def test_visible_share_is_measured_against_the_face_as_drawn(covered, kept):
    # one tile alone; a bar (a rack's front edge) hides the lowest ``covered`` of its face. The
    # face's rounded corners are not "hidden": a tile missing only its feet still has ground truth
    W, H, Mg, unit = 400, 300, 80, 100.0
    canvas = phone_scenes._Canvas(
        np.full((H + 2 * Mg, W + 2 * Mg, 3), 90, np.float32), np.full((H + 2 * Mg, W + 2 * Mg), -1, np.int32)
    )
    spots = [phone_scenes.Spot("1m", 280.0, 230.0, 0.0, 0, 0, standing=True)]
    quads = [clutter.rect_poly(p.cx, p.cy, 0.75 * unit, unit, p.angle) for p in spots]
    rng = np.random.default_rng(0)
    phone_scenes._draw_tiles(
        canvas, rng, spots, quads, unit, np.array([40, 140, 40], np.float32), scenes._placeholder_face
    )
    if covered:
        canvas.cover(clutter.rect_poly(280.0, 280.0 - covered * unit / 2, 2 * unit, covered * unit, 0.0))
    sc = phone_scenes._photograph(canvas, rng, spots, quads, (W, H), Mg, 0.0, False)
    assert [t["code"] for t in sc.tiles] == (["1m"] if kept else [])
    # a tile that partly shows is neither a tile to find nor background
    assert len(sc.partial) == (0 if kept else 1)


@pytest.mark.parametrize("seed", range(6))
def test_a_scene_draws_from_one_set(seed):
    # four of each playing tile; a tray of more than 136 tiles holds the eight flowers too
    rng = np.random.default_rng(seed)
    draw = phone_scenes.deck(rng)
    codes = [draw() for _ in range(144)]
    assert sorted(codes) == sorted(list(scenes.PLAY_CODES) * 4 + scenes.ALL_CODES[34:])
    assert all(c[1] != "f" for c in codes[:136])
    with pytest.raises(StopIteration):
        draw()
    for kind in phone_scenes.KINDS:
        counts = {}
        for t in _scene(seed, kind).tiles:
            counts[t["code"]] = counts.get(t["code"], 0) + 1
        assert max(v for c, v in counts.items() if c != "back") <= 4


def test_clutter_alone_has_no_tiles():
    canvas = np.full((300, 400, 3), 90, np.float32)
    rng = np.random.default_rng(0)
    for draw, _ in clutter.CLUTTER:
        poly = draw(canvas, (200.0, 150.0), 30.0, 60.0, rng)
        assert poly.shape[1] == 2 and cv2.contourArea(poly.astype(np.float32)) > 0
    assert (canvas != 90).any()


def test_unknown_kind_is_an_error():
    with pytest.raises(ValueError, match="unknown scene kind"):
        _scene(0, "table-tennis")
