"""Tile crops cut from phone-like photos (:mod:`training.phone_scenes`), as the recogniser cuts them.

The classifier's synthetic tiles (:func:`training.render.render_tile`) are drawn one at a time, face
on; at the table a crop comes from a whole photo: scaled to the recogniser's working size
(:data:`vision.photo.WORK_MIN`-:data:`vision.photo.WORK_MAX` px), seen in perspective, turned at any
angle, lit unevenly, blurred, JPEG-compressed, a finger or the rack's edge over part of it, cut by a
quadrilateral that is never exactly the tile's. :func:`phone_tile_crops` cuts such crops: each
ground-truth tile of a scene (faces and backs; a tile at least
:data:`training.phone_scenes.MIN_VISIBLE` visible), its quad's corners moved as a finder's are
(:data:`CORNER_JITTER` of the tile's height each, the whole quad grown or shrunk by
:data:`SCALE_JITTER`), cut upright as the recogniser cuts a candidate
(:func:`vision.finders.geometry.with_crops`), then resized to the classifier's input. Scenes use seeds from
:data:`PHONE_CROP_SEED0` (the benchmark's b4-b8 use 9000-9499, the "not a tile" crops
30000-30059) and only the training part of the background photos.
"""

from __future__ import annotations

import cv2
import numpy as np

#: first seed of the phone-like scenes cut into tile crops
PHONE_CROP_SEED0 = 40000
#: each corner of a crop's quad moves up to this fraction of the tile's height (uniform, each axis)
CORNER_JITTER = 0.05
#: the whole quad is scaled about its centre by a factor in this range
SCALE_JITTER = (0.94, 1.10)
#: at most this many tiles of one scene (a tray holds up to 144): the kinds stay balanced
MAX_PER_SCENE = 36


def jittered_quad(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``quad`` (4x2, clockwise from the upright face's top-left) with its corners moved and its size
    changed as a finder's quad differs from the tile's."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(0)
    height = float(np.linalg.norm(q[3] - q[0]))
    q = c + (q - c) * rng.uniform(*SCALE_JITTER)
    return (q + rng.uniform(-CORNER_JITTER, CORNER_JITTER, (4, 2)) * height).astype(np.float32)


def crops_of_scene(image: np.ndarray, tiles: list[dict], rng: np.random.Generator, size: tuple[int, int]):
    """Upright crops (``size`` = (width, height)) of up to :data:`MAX_PER_SCENE` of ``tiles`` (ground
    truth in ``image`` pixels), from ``image`` scaled to the recogniser's working size; and their
    codes."""
    from vision.finders.candidate import Candidate
    from vision.finders.geometry import with_crops
    from vision.photo import WORK_MAX, WORK_MIN

    s = min(1.0, float(rng.integers(WORK_MIN, WORK_MAX + 1)) / max(image.shape[:2]))
    work = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else image
    pick = rng.permutation(len(tiles))[:MAX_PER_SCENE]
    crops, codes = [], []
    for i in pick:
        q = jittered_quad(np.asarray(tiles[i]["quad"], np.float32) * s, rng)
        crop = with_crops(work, Candidate(quad=q)).crops[0][1]  # upright, as the recogniser cuts it
        crops.append(cv2.resize(crop, size, interpolation=cv2.INTER_AREA))
        codes.append(str(tiles[i]["code"]))
    return crops, codes


def phone_tile_crops(
    n_scenes: int, size: tuple[int, int], seed0: int = PHONE_CROP_SEED0
) -> tuple[np.ndarray, list[str], dict]:
    """Crops (uint8, N x height x width x 3) and codes of the tiles of ``n_scenes`` phone-like scenes
    of every kind in turn, and the record of how they were made (for the model's metadata)."""
    from training import backgrounds
    from training.negatives import background_name, is_heldout_background
    from training.phone_scenes import KINDS, make_phone_scene

    tables = [b for b in backgrounds.ensure_backgrounds() if not is_heldout_background(background_name(b))]
    crops: list[np.ndarray] = []
    codes: list[str] = []
    for i in range(n_scenes):
        rng = np.random.default_rng(seed0 + i)
        shape = (1600, 1200) if i % 2 else (1200, 1600)
        sc = make_phone_scene(rng, KINDS[i % len(KINDS)], size=shape, tables=tables)
        c, k = crops_of_scene(sc.image, sc.tiles, rng, size)
        crops += c
        codes += k
    X = np.stack(crops) if crops else np.zeros((0, size[1], size[0], 3), np.uint8)
    record = {
        "scenes": n_scenes,
        "seeds": f"{seed0}..{seed0 + n_scenes - 1} (training.phone_scenes, every kind in turn)",
        "crops": len(crops),
        "how": "ground-truth tiles of phone-like photos scaled to the recogniser's working size, "
        f"quad corners moved up to {CORNER_JITTER:.0%} of the tile's height and the quad scaled "
        f"{SCALE_JITTER[0]}-{SCALE_JITTER[1]}, rectified upright (training.phone_crops)",
        "tables": "training part of the background photos (training.negatives.is_heldout_background)",
    }
    return X, codes, record
