"""The learned tile finder (:mod:`vision.finders.learned`): turning face/core maps into tiles, and, when
the model ships, finding tiles in synthetic photos the network never saw (other seeds, the
placeholder face renderer it was not trained on, standing hands, face-down tiles)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training import scenes
from training.evaluate import match_quads
from vision import photo, recognize
from vision.finders import find_candidates, learned

MODELS = Path(__file__).resolve().parent.parent.parent / "models"
LEARNED = (MODELS / "tile_segmenter.onnx").exists()
needs_model = pytest.mark.skipif(not LEARNED, reason="learned tile finder not trained yet")


def _maps_from_tiles(tiles, shape, stride=2):
    """Ideal network output for ``tiles`` (ground truth quads), at 1/stride resolution."""
    h, w = shape[0] // stride, shape[1] // stride
    face = np.zeros((h, w), np.float32)
    core = np.zeros((h, w), np.float32)
    for t in tiles:
        q = np.asarray(t["quad"], np.float64) / stride
        c = q.mean(0)
        cv2.fillPoly(face, [np.round(q).astype(np.int32)], 1.0)
        cv2.fillPoly(core, [np.round(c + (q - c) * learned.CORE_SHRINK).astype(np.int32)], 1.0)
    return face, core


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_ideal_maps_give_every_tile_once(seed):
    sc = scenes.make_scene(seed, size=(1000, 750), face_fn=scenes._placeholder_face)
    face, core = _maps_from_tiles(sc.tiles, sc.image.shape[:2])
    found = learned.instances_from_maps(face, core, scale=2.0)
    pairs = match_quads([t["quad"] for t in sc.tiles], [f.quad for f in found], thr=0.6)
    assert len(found) == len(sc.tiles) == len(pairs)
    # lying tiles come out lying, upright ones upright (the classifier only settles squarish ones)
    for g, p, _ in pairs:
        if not found[p].ambiguous:
            assert found[p].lying == sc.tiles[g]["rotated"]


def test_touching_tiles_share_a_group():
    sc = scenes.make_scene(
        7, size=(1000, 750), face_fn=scenes._placeholder_face, n_rows=1, with_rotated=False, n_indicators=2
    )
    face, core = _maps_from_tiles(sc.tiles, sc.image.shape[:2])
    # close the seams in the face map: touching faces form one region
    face = cv2.dilate(face, np.ones((3, 3), np.uint8))
    found = learned.instances_from_maps(face, core, scale=2.0)
    sizes = sorted({f.group: f.group_size for f in found}.values())
    assert sizes[0] == 1 and sum(sizes) == len(found)  # an indicator apart, rows together


def test_empty_maps_give_nothing():
    z = np.zeros((100, 120), np.float32)
    assert learned.instances_from_maps(z, z, 2.0) == []


def test_unknown_finder_is_refused():
    img = np.full((200, 300, 3), 90, np.uint8)
    with pytest.raises(ValueError, match="unknown tile finder"):
        find_candidates(img, finder="magic")


# ----------------------------------------------------------------------------------------------
# the shipped model


def _found(sc, **kw):
    ph = photo.load(sc.jpeg(90))
    cands = find_candidates(ph.image, finder="learned", crops=False, **kw)
    quads = [c.quad * [ph.scale_x, ph.scale_y] for c in cands]
    return cands, match_quads([t["quad"] for t in sc.tiles], quads)


@needs_model
@pytest.mark.parametrize("seed", [101, 102, 103, 104, 105, 106])
def test_learned_finder_on_unseen_scenes(seed):
    sc = scenes.make_scene(seed, size=(1200, 900), face_fn=scenes._placeholder_face)
    cands, pairs = _found(sc)
    assert len(pairs) >= len(sc.tiles) - 1, f"{len(pairs)} of {len(sc.tiles)}"
    assert len(cands) <= len(sc.tiles) + 1


@needs_model
@pytest.mark.parametrize("seed", [201, 202, 203])
def test_learned_finder_on_standing_hands(seed):
    sc = scenes.make_scene(seed, size=(1200, 900), standing=True, n_rows=1, n_indicators=0)
    cands, pairs = _found(sc)
    assert len(pairs) >= len(sc.tiles) - 1 and len(cands) <= len(sc.tiles) + 1


@needs_model
def test_learned_finder_reads_concealed_kong_backs():
    found = total = wrong = 0
    for seed in (301, 302, 303):
        sc = scenes.make_scene(seed, size=(1200, 900), n_rows=1, n_indicators=0, n_kongs=1)
        rec = recognize(sc.jpeg(90), finder="learned")
        pairs = match_quads([t["quad"] for t in sc.tiles], [t.quad for t in rec.tiles])
        for g, p, _ in pairs:
            if sc.tiles[g]["code"] == "back":
                found += rec.tiles[p].code == "back"
            elif rec.tiles[p].code == "back":
                wrong += 1
        total += sc.codes.count("back")
    assert found >= total - 1 and wrong == 0, f"{found} of {total} backs read, {wrong} faces read as back"


@needs_model
def test_small_tiles_are_looked_at_again_larger():
    sc = scenes.make_scene(11, size=(1400, 1050), grid=(4, 16), fill=0.9, face_fn=scenes._placeholder_face)
    cands, pairs = _found(sc)
    assert len(pairs) >= 0.97 * len(sc.tiles), f"{len(pairs)} of {len(sc.tiles)}"


@pytest.mark.parametrize("finder", ["classical", pytest.param("learned", marks=needs_model)])
def test_mjc_recognize_can_pick_the_finder(finder, capsys):
    import json

    from companion.cli import main

    photos = Path(__file__).resolve().parent.parent / "fixtures" / "photos"
    gt = json.loads(sorted(photos.glob("scene_*.json"))[0].read_text())
    assert main(["recognize", str(photos / gt["image"]), "--json", "--finder", finder]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and abs(len(out["tiles"]) - len(gt["tiles"])) <= 1


def test_training_targets_one_core_per_tile_inside_its_face():
    from training.train_segmenter import target_masks

    sc = scenes.make_scene(5, size=(1000, 750), face_fn=scenes._placeholder_face, grid=(3, 12), fill=0.9)
    face, core = target_masks(sc.tiles, sc.image.shape[:2], 1.0)
    assert not (core & (1 - face)).any()  # every core pixel lies on a face
    n, _ = cv2.connectedComponents(core, connectivity=4)
    assert n - 1 == len(sc.tiles)  # touching tiles' cores stay apart


def test_core_without_face_support_is_dropped():
    sc = scenes.make_scene(
        3, size=(1000, 750), face_fn=scenes._placeholder_face, n_rows=1, with_rotated=False, n_indicators=0
    )
    face, core = _maps_from_tiles(sc.tiles, sc.image.shape[:2])
    q = np.asarray(sc.tiles[0]["quad"]) / 2
    cv2.fillPoly(face, [np.round(q).astype(np.int32)], 0.3)  # the network unsure it is a tile top
    found = learned.instances_from_maps(face, core, scale=2.0)
    assert len(found) == len(sc.tiles) - 1
    assert not match_quads([sc.tiles[0]["quad"]], [f.quad for f in found])
