"""Tiles at any angle: the learned finder's quads follow a turned tile (an oriented box, not an
axis-aligned one) and the crops the classifier reads come out upright, on phone-like scenes whose
faces carry a mark at their top (ideal network maps, so no model is needed)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from training import phone_scenes
from training.evaluate import match_quads
from vision.finders import geometry, learned
from vision.finders.candidate import Candidate


def _marked_face(code: str, rng: np.random.Generator) -> np.ndarray:
    """An ivory face with a dark band across its top quarter: upright when the band is on top."""
    img = np.full((128, 96, 3), 225, np.uint8)
    img[8:36, 10:86] = 40
    return img


def _plain_scene(kind: str, seed: int):
    """A phone-like scene of ``kind`` with marked faces, on a plain surface, without clutter,
    fingers or the phone's degradations."""
    return phone_scenes.make_phone_scene(
        seed,
        kind,
        size=(1200, 900),
        face_fn=_marked_face,
        n_clutter=0,
        finger=False,
        degrade=False,
        real_background=False,
    )


def _ideal_maps(tiles, shape):
    h, w = shape[0] // 2, shape[1] // 2
    face = np.zeros((h, w), np.float32)
    core = np.zeros((h, w), np.float32)
    for t in tiles:
        q = np.asarray(t["quad"], np.float64) / 2
        c = q.mean(0)
        cv2.fillPoly(face, [np.round(q).astype(np.int32)], 1.0)
        cv2.fillPoly(core, [np.round(c + (q - c) * learned.CORE_SHRINK).astype(np.int32)], 1.0)
    return face, core


def _up_angle(quad) -> float:
    up = np.asarray(quad[0]) - np.asarray(quad[3])
    return abs(math.degrees(math.atan2(up[0], -up[1])))


def _band(crop: np.ndarray) -> str:
    """Where the crop shows the face's dark band: ``top`` (upright), ``bottom`` (upside down; the
    classifier reads both ways round) or ``side`` (the crop is turned a quarter: wrong)."""
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h = g.shape[0]
    top, bottom = g[: h // 3].mean(), g[2 * h // 3 :].mean()
    return "top" if top + 25 < bottom else "bottom" if bottom + 25 < top else "side"


@pytest.mark.parametrize("kind, seed", [("diagonal", 1), ("diagonal", 2), ("tray", 4), ("pile", 3)])
def test_quads_follow_turned_tiles_and_crops_come_upright(kind, seed):
    sc = _plain_scene(kind, seed)
    found = learned.instances_from_maps(*_ideal_maps(sc.tiles, sc.image.shape[:2]), scale=2.0)
    pairs = match_quads([t["quad"] for t in sc.tiles], [f.quad for f in found], thr=0.7)
    assert len(pairs) >= 0.9 * len(sc.tiles)
    for g, p, _ in pairs:
        if sc.tiles[g]["code"] == "back":  # a face-down tile shows no mark
            continue
        tile = found[p]
        cd = geometry.with_crops(sc.image, Candidate(tile.quad, lying=tile.lying, ambiguous=tile.ambiguous))
        bands = [_band(crop) for _, crop in cd.crops]
        assert "top" in bands or "bottom" in bands, "a crop shows the face upright (or upside down)"
        if _up_angle(sc.tiles[g]["quad"]) < 40:  # turned less than 45 degrees: the first guess is upright
            assert bands[0] == "top", (_up_angle(sc.tiles[g]["quad"]), bands)


def test_finds_on_partly_shown_tiles_are_neither_found_nor_false():
    """The benchmark leaves out a find that lies mostly on a partly shown tile (``Scene.partial``):
    the scene shows it, but not enough to be a tile that must be found."""
    from types import SimpleNamespace

    from training.evaluate import _ignored, on_partial

    partial = [[[100.0, 100.0], [160.0, 100.0], [160.0, 180.0], [100.0, 180.0]]]
    inside = [[105.0, 110.0], [155.0, 110.0], [155.0, 175.0], [105.0, 175.0]]
    beside = [[200.0, 100.0], [260.0, 100.0], [260.0, 180.0], [200.0, 180.0]]
    straddling = [[140.0, 100.0], [200.0, 100.0], [200.0, 180.0], [140.0, 180.0]]
    assert on_partial(inside, partial) and not on_partial(beside, partial)
    assert not on_partial(straddling, partial)  # a third on it: a false tile still
    sc = SimpleNamespace(partial=partial)
    assert _ignored([], [inside, beside], sc) == {0}
    assert _ignored([(0, 0, 0.9)], [inside, beside], sc) == set()  # matched to a tile: counted


def test_the_detector_is_scored_with_the_same_partly_shown_rule():
    """A compared system's find on a partly shown tile is left out too, and its reading of the
    tiles it matched still counts (indices of the unfiltered finds)."""
    from types import SimpleNamespace

    from training.evaluate import eval_scenes

    tile = [[200.0, 100.0], [260.0, 100.0], [260.0, 180.0], [200.0, 180.0]]
    partial = [[100.0, 100.0], [160.0, 100.0], [160.0, 180.0], [100.0, 180.0]]
    sc = SimpleNamespace(tiles=[{"quad": tile, "code": "5p"}], codes=["5p"], partial=[partial])

    class Detector:
        def detect(self, data):  # the partly shown tile first: the matched find is second
            return ["1m", "5p"], [partial, tile], 1.0

    row = eval_scenes([("one", b"", sc)], detector=Detector(), finders={})["detector"][0]
    assert (row["n_pred"], row["found"], row["read"], row["exact_photo"]) == (1, 1, 1, True)


def _round_core_maps(tiles, shape):
    """Ideal face maps with round cores (a disc as wide as the true core's short side): the shape a
    finder gives a tile it is unsure how to turn, which says nothing of the tile's turn."""
    face, _ = _ideal_maps(tiles, shape)
    core = np.zeros_like(face)
    for t in tiles:
        q = np.asarray(t["quad"], np.float64) / 2
        short = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0]))
        c = np.round(q.mean(0)).astype(int)
        cv2.circle(core, (int(c[0]), int(c[1])), max(2, int(short * learned.CORE_SHRINK / 2)), 1.0, -1)
    return face, core


def _turn_error(a, b) -> float:
    """Difference in degrees between the turns of two quads, modulo a quarter turn."""

    def turn(q):
        d = np.asarray(q[1], float) - np.asarray(q[0], float)
        return math.degrees(math.atan2(d[1], d[0])) % 90

    e = abs(turn(a) - turn(b)) % 90
    return min(e, 90 - e)


@pytest.mark.parametrize("kind, seed", [("pile", 3), ("pile", 5), ("diagonal", 2)])
def test_quads_turn_the_way_the_tiles_edges_run(kind, seed):
    """A round core says nothing of which way its tile is turned; the photo's edges over the tile
    do (``edge_orientation``): with them the quads follow the tiles within a few degrees."""
    sc = _plain_scene(kind, seed)
    maps = _round_core_maps(sc.tiles, sc.image.shape[:2])
    edges = learned.edge_orientation(sc.image, max(sc.image.shape[:2]))
    assert edges.shape[1:] == maps[0].shape
    truth = [t["quad"] for t in sc.tiles]

    faces = [g for g, t in enumerate(sc.tiles) if t["code"] != "back"]  # (a back shows no mark)

    def errors(found):  # (a round core's tile comes out square: matched loosely)
        pairs = match_quads(truth, [f.quad for f in found], thr=0.3)
        return [_turn_error(truth[g], found[p].quad) for g, p, _ in pairs if g in faces]

    turned = errors(learned.instances_from_maps(*maps, scale=2.0, min_support=0, edges=edges))
    plain = errors(learned.instances_from_maps(*maps, scale=2.0, min_support=0))
    assert len(turned) >= 0.9 * len(faces)
    assert float(np.percentile(turned, 90)) <= 5.0, sorted(turned)
    assert max(plain) > 10.0  # (without the edges some quads are turned wrong)


def test_a_tile_without_edges_keeps_its_cores_rectangle():
    """Where the photo shows no edges at all over a tile, its core's rectangle is kept as it is."""
    face = np.zeros((60, 80), np.float32)
    core = np.zeros((60, 80), np.float32)
    cv2.rectangle(face, (20, 10), (49, 49), 1.0, -1)
    cv2.rectangle(core, (28, 21), (41, 38), 1.0, -1)
    flat = learned.edge_orientation(np.full((120, 160, 3), 200, np.uint8), 160)
    with_edges = learned.instances_from_maps(face, core, 2.0, min_support=0, edges=flat)
    without = learned.instances_from_maps(face, core, 2.0, min_support=0)
    assert len(with_edges) == len(without) == 1
    assert np.allclose(with_edges[0].quad, without[0].quad)


def _row_maps(turns: list[float | None], row_turn: float = -25.0) -> tuple[np.ndarray, np.ndarray]:
    """Face and core maps of touching tiles (24 x 32 map pixels) in a row turned ``row_turn``
    degrees, the ``i``-th core a rectangle turned ``turns[i]`` degrees, or a disc where ``None``."""
    face = np.zeros((200, 300), np.float32)
    core = np.zeros_like(face)
    t = math.radians(row_turn)
    for i, turn in enumerate(turns):
        c = (40 + 24 * i * math.cos(t), 150 + 24 * i * math.sin(t))
        cv2.fillPoly(face, [np.round(cv2.boxPoints((c, (24, 32), row_turn))).astype(np.int32)], 1.0)
        if turn is None:
            cv2.circle(core, (round(c[0]), round(c[1])), 7, 1.0, -1)
        else:
            box = cv2.boxPoints((c, (24 * learned.CORE_SHRINK, 32 * learned.CORE_SHRINK), turn))
            cv2.fillPoly(core, [np.round(box).astype(np.int32)], 1.0)
    return face, core


ROW_TURN_CASES = [
    # a round core in a row: it says nothing of its turn, its neighbours do
    ([-25.0, -25.0, None, -25.0, -25.0], 2, 5.0),
    # a round core at the row's end: two neighbours on one side are enough
    ([-25.0, -25.0, -25.0, None], 3, 5.0),
]


@pytest.mark.parametrize(("turns", "index", "within"), ROW_TURN_CASES)
def test_a_core_that_cannot_say_its_turn_takes_its_neighbours(turns, index, within):
    """Touching tiles lie turned alike (a row, a meld, a tray): a core whose own rectangle says
    little (a disc) is turned as its agreeing neighbours lie (``_turned_as_neighbours``)."""
    face, core = _row_maps(turns)
    flat = learned.edge_orientation(np.full((400, 600, 3), 200, np.uint8), 600)  # (no edges to say it)
    found = learned.instances_from_maps(face, core, 2.0, min_support=0, edges=flat)
    assert len(found) == len(turns)
    truth = cv2.boxPoints(((0, 0), (24, 32), -25.0))
    centre = [f for f in found if np.allclose(f.quad.mean(0) / 2, _row_centre(index), atol=2)]
    assert len(centre) == 1
    assert _turn_error(truth, centre[0].quad) <= within
    plain = learned.instances_from_maps(face, core, 2.0, min_support=0)  # (no edges: no turning at all)
    assert any(_turn_error(truth, f.quad) > 10 for f in plain)


def _row_centre(i: int, row_turn: float = -25.0) -> np.ndarray:
    t = math.radians(row_turn)
    return np.array([40 + 24 * i * math.cos(t), 150 + 24 * i * math.sin(t)])


@pytest.mark.parametrize(
    "turns",
    [
        # a core that is clearly a rectangle turned its own way keeps its turn
        [-25.0, -25.0, 0.0, -25.0, -25.0],
        # neighbours that disagree (tiles in a pile) say nothing
        [10.0, -40.0, None, 30.0, -5.0],
    ],
)
def test_a_core_keeps_its_own_turn_where_it_says_it_or_its_neighbours_disagree(turns):
    face, core = _row_maps(turns)
    flat = learned.edge_orientation(np.full((400, 600, 3), 200, np.uint8), 600)
    with_edges = learned.instances_from_maps(face, core, 2.0, min_support=0, edges=flat)
    without = learned.instances_from_maps(face, core, 2.0, min_support=0)
    assert len(with_edges) == len(without) == len(turns)
    assert all(np.allclose(a.quad, b.quad) for a, b in zip(with_edges, without))
