"""Tile crops cut from phone-like photos for the classifier (:mod:`training.phone_crops`)."""

from __future__ import annotations

import cv2
import numpy as np

from training import phone_crops, phone_scenes, scenes
from vision.finders.geometry import rectify

SIZE = (48, 64)


def test_crops_are_the_scenes_tiles_upright_at_the_classifiers_size():
    sc = phone_scenes.make_phone_scene(
        3, "diagonal", size=(1600, 1200), face_fn=scenes._placeholder_face, real_background=False
    )
    crops, codes = phone_crops.crops_of_scene(sc.image, sc.tiles, np.random.default_rng(0), SIZE)
    assert len(crops) == len(codes) == min(len(sc.tiles), phone_crops.MAX_PER_SCENE) > 0
    assert all(crop.shape == (SIZE[1], SIZE[0], 3) and crop.dtype == np.uint8 for crop in crops)
    # each crop shows its tile: closer to the tile's exact upright crop than to any other tile's
    exact = {}
    for t in sc.tiles:
        face = rectify(sc.image, np.asarray(t["quad"], np.float32), 96, 128)
        exact.setdefault(t["code"], []).append(cv2.resize(face, SIZE, interpolation=cv2.INTER_AREA))
    hits = 0
    for crop, code in zip(crops, codes):
        dist = {c: min(np.abs(crop.astype(np.float32) - e).mean() for e in es) for c, es in exact.items()}
        hits += min(dist, key=dist.get) == code
    assert hits >= 0.75 * len(crops), (hits, len(crops))


def test_a_crop_quad_differs_from_the_tile_as_a_finders_does():
    quad = np.array([[100, 100], [175, 100], [175, 200], [100, 200]], np.float32)
    rng = np.random.default_rng(1)
    moved = [phone_crops.jittered_quad(quad, rng) for _ in range(200)]
    shifts = np.array([np.abs(m - quad).max() for m in moved])
    assert shifts.max() <= 100 * (phone_crops.CORNER_JITTER + 0.1 * 1.2) + 1e-3
    assert shifts.min() > 0 and np.median(shifts) > 1
    assert all((m[1, 0] > m[0, 0]) and (m[3, 1] > m[0, 1]) for m in moved)  # still upright, clockwise


def test_scenes_are_cut_from_their_own_seeds(monkeypatch):
    from training import backgrounds

    monkeypatch.setattr(backgrounds, "ensure_backgrounds", lambda: [])
    monkeypatch.setattr(scenes, "default_face_fn", lambda: scenes._placeholder_face)
    X, codes, record = phone_crops.phone_tile_crops(2, SIZE)
    assert X.shape[1:] == (SIZE[1], SIZE[0], 3) and len(X) == len(codes) == record["crops"] > 0
    assert all(c in scenes.ALL_CODES or c == "back" for c in codes)
    assert record["seeds"].startswith(f"{phone_crops.PHONE_CROP_SEED0}..")
