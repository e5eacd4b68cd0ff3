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
    sc = phone_scenes.make_phone_scene(
        seed,
        kind,
        size=(1200, 900),
        face_fn=_marked_face,
        n_clutter=0,
        finger=False,
        degrade=False,
        real_background=False,
    )
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
