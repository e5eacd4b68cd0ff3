"""Train the tile segmenter (a small fully convolutional network) and export it to ONNX.

    python3 run.py train-segmenter [--scenes 1200 --steps 4000 --time-budget 34]

It trains on the CPU by default. On a machine with a GPU and many cores, ``--device cuda
--fresh-workers 14`` trains on the GPU while 14 processes render new photos, so a run of a few
minutes sees thousands of different photos (:func:`fresh_batches`); ``training/.cache`` (the
artwork and the background photos) must be there, since such a machine may reach no network.

What it learns (see :mod:`vision.finders.learned` for how the output is used): for every pixel of a
table photo (scaled so tiles are 10-90 pixels wide, see :func:`vision.finders.learned.find_tiles`),
at half its resolution,

* ``face``: the pixel lies on the top surface of a tile (a face-up face, or the back of a
  face-down tile), and
* ``core``: the pixel lies in the tile's *core*, its top surface shrunk towards its centre to
  :data:`vision.finders.learned.CORE_SHRINK` of its size. Cores of touching tiles never touch, so each
  connected core is one tile, whatever the seams, the surface or the light look like.

Training data are synthetic table photos from :func:`training.scenes.make_scene`, whose tile
quadrilaterals are exact: hands (one or two rows, melds apart, lying claimed tiles, indicators,
concealed kongs showing tile backs) and blocks of touching rows, on felt, wood, patterned cloth,
plastic and dark tables, tiles lying flat or standing up facing the camera, under perspective, light gradients, cast shadows, glare, blur, noise and
JPEG; tile faces from every artwork style in the shared data. Scenes are rendered at 800-1200 px
and scaled to 448-832 px on the long side so tile sizes vary about fourfold. Every fifth scene is
kept apart for validation (core F1 and tile recall / precision).

The network is a four-level U-Net (16-24-40-64 channels, stride-2 stem, dilated bottleneck,
189k parameters, output at half the input resolution); loss = BCE(face) + BCE(core) +
Dice(core), none of it counted on a scene's partly shown tiles (``Scene.partial``: under other tiles
or a finger, or cut by the photo's edge), where marking a tile is neither right nor wrong. ONNX
export is checked against PyTorch.

``--distil`` continues the finder given by ``--init-onnx`` towards what it already does: the loss is
the BCE between the new network's maps of each patch and the old one's maps of the same patch
before its ``--shadow`` (soft targets, everywhere in the patch), and no ground truth. The finder
learns to see under a cast shadow what it saw without it, and elsewhere keeps its maps: a plain
continuation on a few hundred photos drifts from them (session 47: far grids seen from a seat
lost; session 51 measured the same with shadows, :mod:`training.shadow`).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from training import scenes as _scenes
from training.shadow import cast_on_patch
from vision.finders.learned import CORE_SHRINK, MIN_FACE_SUPPORT, MIN_LONG, MODEL_NAME

REPO = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------------------------
# data


def target_masks(tiles: list[dict], shape: tuple[int, int], scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Face and core masks (uint8 0/1) of ``tiles`` (ground-truth quads scaled by ``scale``)."""
    face = np.zeros(shape, np.uint8)
    core = np.zeros(shape, np.uint8)
    for t in tiles:
        q = np.asarray(t["quad"], np.float64) * scale
        c = q.mean(0)
        cv2.fillPoly(face, [np.round(q * 4).astype(np.int32)], 1, lineType=cv2.LINE_8, shift=2)
        qc = c + (q - c) * CORE_SHRINK
        cv2.fillPoly(core, [np.round(qc * 4).astype(np.int32)], 1, lineType=cv2.LINE_8, shift=2)
    return face, core


#: how far each face is grown, as a share of its size, to find where two faces meet (:func:`seam_mask`)
SEAM_REACH = 0.08


def seam_mask(tiles: list[dict], shape: tuple[int, int], scale: float) -> np.ndarray:
    """Where two of ``tiles`` meet (uint8 0/1): the pixels that two faces grown by
    :data:`SEAM_REACH` of their size both cover, a band along each edge where tiles touch or lie one
    on another. The core map must stay low there, or the cores of touching tiles run together
    (a row at a diagonal, a tile lying on another): ``--seam-weight`` weighs the core map's loss
    more on it, as U-Net weighed the borders between touching cells (Ronneberger et al., 2015)."""
    count = np.zeros(shape, np.uint8)
    for t in tiles:
        q = np.asarray(t["quad"], np.float64) * scale
        c = q.mean(0)
        fixed = np.round((c + (q - c) * (1 + 2 * SEAM_REACH)) * 4).astype(np.int32)  # (4 sub-pixels)
        x0, y0 = np.maximum(fixed.min(0) // 4, 0)
        x1, y1 = np.minimum(fixed.max(0) // 4 + 2, shape[::-1])
        if x0 >= x1 or y0 >= y1:
            continue
        grown = np.zeros((y1 - y0, x1 - x0), np.uint8)  # (the quad's box only)
        cv2.fillPoly(grown, [fixed - 4 * np.array([x0, y0])], 1, shift=2)
        count[y0:y1, x0:x1] += grown
    return (count >= 2).astype(np.uint8)


def care_mask(partial: list, face: np.ndarray, scale: float) -> np.ndarray:
    """Where the loss counts (uint8 0/1): everywhere but on the ``partial`` quads (scaled by
    ``scale``), a tile's own ``face`` always."""
    care = np.ones(face.shape, np.uint8)
    for q in partial:
        cv2.fillPoly(care, [np.round(np.asarray(q, np.float64) * scale * 4).astype(np.int32)], 0, shift=2)
    care[face > 0] = 1
    return care


class Sample(NamedTuple):
    """One training photo: BGR uint8, its face, core and care masks (:func:`target_masks`,
    :func:`care_mask`), the quads of the tiles it shows whole (for validation) and where its tiles
    meet (:func:`seam_mask`; none: nowhere)."""

    img: np.ndarray
    face: np.ndarray
    core: np.ndarray
    quads: list
    care: np.ndarray
    seam: np.ndarray | None = None


#: share of the training photos drawn by :func:`training.phone_scenes.make_phone_scene` (set by
#: ``--phone-share`` before the photos are rendered; 0 renders only :func:`training.scenes.make_scene`)
PHONE_SHARE = {"value": 0.5}

#: the kinds of phone-like photo drawn, one of them at random per photo (a kind named twice comes
#: twice as often), set by ``--phone-kinds``; ``None`` lets :func:`training.phone_scenes.make_phone_scene`
#: choose among all its kinds alike
PHONE_KINDS: dict[str, tuple[str, ...] | None] = {"value": None}

#: share of the training photos cut down to a frame-filling close-up (:func:`_zoomed`: tiles 64-150
#: px wide, beyond the 10-90 px of the other photos), set by ``--zoom-share``. A photo is first seen
#: at 640 px, where a close-up's tiles can be 130 px wide: the network must find such a tile whole
#: (so :func:`vision.finders.learned.find_tiles` looks again, smaller), not in tile-sized pieces.
ZOOM_SHARE = {"value": 0.0}

#: share of the table photos (:func:`training.scenes.make_scene`) that show concealed kongs, one in
#: three of them two (a kong's backs, all four in 30 % of kongs), set by ``--kong-share``
KONG_SHARE = {"value": 0.5}

#: share of the training photos drawn on a pale plain table (the surface kind ``pale`` of
#: :func:`training.scenes.make_surface`: white, light grey, cream, as light as the tiles' faces or
#: lighter), table photos and phone-like ones alike (those with their paper, keys and coins beside
#: the tiles: white things on a white table that are no tiles), set by ``--pale-share``; 0
#: (default) draws them as before, the same photos for the same seed
PALE_SHARE = {"value": 0.0}


def make_sample(seed: int) -> Sample:
    """One training photo (BGR uint8 at 448-832 px long side), its masks and quads: a
    phone-like photo (:mod:`training.phone_scenes`: rows at an angle, trays, racks, piles, clutter on
    real backgrounds) for a :data:`PHONE_SHARE` of the seeds, else a :func:`training.scenes.make_scene`
    hand, block of rows, close-up or standing hand."""
    rng = np.random.default_rng(seed)
    long_side = int(rng.choice([800, 1000, 1200]))
    size = (long_side * 3 // 4, long_side) if rng.random() < 0.35 else (long_side, long_side * 3 // 4)
    finish = _zoomed if rng.random() < ZOOM_SHARE["value"] else _scaled
    if rng.random() < PHONE_SHARE["value"]:
        from training.phone_scenes import make_phone_scene

        kinds = PHONE_KINDS["value"]
        kind = str(rng.choice(kinds)) if kinds else None
        pale = bool(PALE_SHARE["value"]) and rng.random() < PALE_SHARE["value"]
        return finish(make_phone_scene(rng, kind, size=size, surface="pale" if pale else None), size, rng)
    kw: dict = {}
    u = rng.random()
    if finish is _zoomed:  # tiles near the camera: large before the cut
        if u < 0.4:  # a block of touching rows: the close-up is tiles only, no table
            kw["grid"] = (int(rng.integers(3, 6)), int(rng.integers(5, 12)))
            kw["fill"] = float(rng.uniform(0.8, 1.0))
        else:
            kw["fill"] = float(rng.uniform(0.7, 1.0))
            if u < 0.55:
                kw.update(standing=True, n_rows=1, n_indicators=0)
    elif u < 0.22:
        kw["grid"] = (int(rng.integers(2, 6)), int(rng.integers(5, 19)))
        kw["fill"] = float(rng.uniform(0.55, 0.95))
    elif u < 0.32:
        kw["fill"] = float(rng.uniform(0.25, 0.5))  # a small hand far from the camera
    elif u < 0.40:
        kw["fill"] = float(rng.uniform(0.85, 1.0))  # a close-up
    elif u < 0.50:
        kw.update(standing=True, n_rows=1, n_indicators=0)  # a hand standing up, facing the camera
    r, k = rng.random(), KONG_SHARE["value"]
    kw["n_kongs"] = 0 if r < 1 - k else (1 if r < 1 - 0.4 * k else 2)
    if PALE_SHARE["value"] and rng.random() < PALE_SHARE["value"]:
        kw["surface"] = "pale"
    return finish(_scenes.make_scene(rng, size=size, **kw), size, rng)


def _scaled(sc: _scenes.Scene, size: tuple[int, int], rng: np.random.Generator) -> Sample:
    """The scene's photo scaled to 448-832 px on the long side, its masks and quads."""
    target_long = int(rng.integers(448, 833))
    s = target_long / max(size)
    w, h = int(round(size[0] * s)), int(round(size[1] * s))
    img = cv2.resize(sc.image, (w, h), interpolation=cv2.INTER_AREA)
    face, core = target_masks(sc.tiles, (h, w), s)
    quads = [np.asarray(t["quad"], np.float32) * s for t in sc.tiles]
    return Sample(
        img, face, core, quads, care_mask(sc.partial, face, s), seam_mask(_met(sc.tiles, sc.partial), (h, w), s)
    )


MAX_UPSCALE = 2.2  # a close-up enlarges the rendered scene at most this much
#: share of the close-ups seen whole at 128-448 px with tiles 24-64 px wide, as the finder's second
#: look shows a close-up to the network (photos smaller than a patch are padded with mid-grey, as
#: at inference)
SMALL_CLOSEUP_SHARE = 0.5


def _zoomed(sc: _scenes.Scene, size: tuple[int, int], rng: np.random.Generator) -> Sample:
    """A frame-filling close-up cut from the scene: a window around one of its tiles, scaled to
    448-832 px on the long side so its tiles come out 64-150 px wide, or (a :data:`SMALL_CLOSEUP_SHARE`)
    to 128-448 px with tiles 24-64 px wide (tiles cut by the window's edge
    stay in the masks as far as they show), enlarging at most :data:`MAX_UPSCALE` times;
    :func:`_scaled` when the scene's tiles are too small for that or already that large."""
    quads = [np.asarray(t["quad"], np.float64) for t in sc.tiles]
    if not quads:
        return _scaled(sc, size, rng)
    width = float(np.median([min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])) for q in quads]))
    if rng.random() < SMALL_CLOSEUP_SHARE:  # as a second look sees a close-up: the photo shrunk
        out_long, target = int(rng.integers(128, 448)), float(rng.uniform(24, 64))
    else:
        out_long, target = int(rng.integers(448, 833)), float(rng.uniform(64, 150))
    s = min(target, MAX_UPSCALE * width) / max(width, 1.0)
    if s * width < 0.85 * target:  # it would take a blurry enlargement: phone close-ups are sharp
        return _scaled(sc, size, rng)
    win = tuple(min(n, int(out_long * n / max(size) / s)) for n in size)  # the scene's aspect
    if max(win) >= max(size) or min(win) < 8:
        return _scaled(sc, size, rng)
    centre = quads[int(rng.integers(len(quads)))].mean(0) + rng.uniform(-1, 1, 2) * width
    x0 = int(np.clip(centre[0] - win[0] / 2, 0, size[0] - win[0]))
    y0 = int(np.clip(centre[1] - win[1] / 2, 0, size[1] - win[1]))
    w, h = int(round(win[0] * s)), int(round(win[1] * s))
    img = cv2.resize(sc.image[y0 : y0 + win[1], x0 : x0 + win[0]], (w, h), interpolation=cv2.INTER_LINEAR)
    shifted = [{"quad": (q - (x0, y0)).tolist()} for q in quads]
    face, core = target_masks(shifted, (h, w), s)
    kept = [((q - (x0, y0)) * s).astype(np.float32) for q in quads]
    kept = [q for q in kept if q[:, 0].min() >= 0 and q[:, 1].min() >= 0 and q[:, 0].max() <= w and q[:, 1].max() <= h]
    partial = [np.asarray(q, np.float64) - (x0, y0) for q in sc.partial]
    care = care_mask(partial, face, s)
    return Sample(img, face, core, kept, care, seam_mask(_met(shifted, partial), (h, w), s))


def _met(tiles: list[dict], partial: list) -> list[dict]:
    """The tiles and the partly shown ones (quads), as :func:`seam_mask` takes them: a tile lying on
    another half hidden meets it too."""
    return [*tiles, *({"quad": q} for q in partial)]


def _gen(seeds):
    return [make_sample(int(s)) for s in seeds]


#: photos each fresh-photo worker (``--fresh-workers``) keeps to cut its batches from; one of them is
#: replaced by a newly rendered photo before each batch
FRESH_POOL = 32
#: first seed of the fresh photos (the fixed set starts at 1,000,000, the validation photos at
#: 2,000,000); each worker draws from a range of :data:`FRESH_SEEDS_PER_WORKER` of its own
FRESH_SEED0 = 10_000_000
FRESH_SEEDS_PER_WORKER = 100_000


def fresh_batches(a: argparse.Namespace, worker: int) -> Iterator[tuple[np.ndarray, ...]]:
    """Endless batches (:func:`make_batch`) cut from photos rendered while training: ``worker`` keeps
    :data:`FRESH_POOL` photos and, before each batch, replaces one at random by a new one, so a long
    run on a fast accelerator sees tens of thousands of different photos rather than a fixed set.
    With ``--distil``, each batch also carries its patches before their shadows, last."""
    seed = FRESH_SEED0 + a.seed * 10 * FRESH_SEEDS_PER_WORKER + worker * FRESH_SEEDS_PER_WORKER
    seeds = iter(range(seed, seed + FRESH_SEEDS_PER_WORKER))
    rng = np.random.default_rng((a.seed, worker))
    pool = [make_sample(next(seeds)) for _ in range(FRESH_POOL)]
    while True:
        pool[int(rng.integers(FRESH_POOL))] = make_sample(next(seeds))
        clean = np.empty((a.batch, 3, a.patch, a.patch), np.float32) if a.distil else None
        batch = make_batch(pool, rng, a.batch, a.patch, a.overexpose, a.seam_weight, a.shadow, clean)
        yield batch if clean is None else (*batch, clean)


def _fresh_loader(a: argparse.Namespace):
    """Batches from ``a.fresh_workers`` processes running :func:`fresh_batches` (a PyTorch
    ``DataLoader`` over an iterable dataset, forked from this process)."""
    import torch
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info

    class FreshPhotos(IterableDataset):
        def __iter__(self):
            info = get_worker_info()
            torch.set_num_threads(1)  # one process per core already
            cv2.setNumThreads(1)
            return fresh_batches(a, info.id if info else 0)

    return DataLoader(
        FreshPhotos(),
        batch_size=None,
        num_workers=a.fresh_workers,
        prefetch_factor=4,
        pin_memory=a.device != "cpu",
        multiprocessing_context="fork",
        persistent_workers=True,
    )


def generate(n: int, seed0: int, workers: int = 2) -> list:
    seeds = list(range(seed0, seed0 + n))
    chunks = [seeds[i :: workers * 4] for i in range(workers * 4)]
    with mp.get_context("fork").Pool(workers) as pool:
        parts = pool.map(_gen, chunks)
    return [x for part in parts for x in part]


# --------------------------------------------------------------------------------------------
# model


def build_model():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def cbr(i, o, s=1, d=1):
        return nn.Sequential(
            nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)
        )

    class SegNet(nn.Module):
        """U-Net, output (face, core) logits at half the input resolution."""

        def __init__(self, c=(16, 24, 40, 64)):
            super().__init__()
            self.e1 = nn.Sequential(cbr(3, c[0], 2), cbr(c[0], c[0]))
            self.e2 = nn.Sequential(cbr(c[0], c[1], 2), cbr(c[1], c[1]))
            self.e3 = nn.Sequential(cbr(c[1], c[2], 2), cbr(c[2], c[2]))
            self.e4 = nn.Sequential(cbr(c[2], c[3], 2), cbr(c[3], c[3], d=2), cbr(c[3], c[3], d=4))
            self.d3 = cbr(c[3] + c[2], c[2])
            self.d2 = cbr(c[2] + c[1], c[1])
            self.d1 = cbr(c[1] + c[0], c[0])
            self.out = nn.Conv2d(c[0], 2, 1)

        def forward(self, x):
            x1 = self.e1(x)
            x2 = self.e2(x1)
            x3 = self.e3(x2)
            x4 = self.e4(x3)

            def up(a, b):
                return F.interpolate(a, size=b.shape[2:], mode="bilinear", align_corners=False)

            y = self.d3(torch.cat([up(x4, x3), x3], 1))
            y = self.d2(torch.cat([up(y, x2), x2], 1))
            y = self.d1(torch.cat([up(y, x1), x1], 1))
            return self.out(y)

    return SegNet()


# --------------------------------------------------------------------------------------------
# batches


#: an overexposed photo's levels are scaled by this much (every channel alike) before clipping
OVEREXPOSURE_GAIN = (1.15, 1.7)


def _augment(img, face, core, care, rng, overexpose: float = 0.0, pad=None, seam=None):
    """A training patch turned a quarter any number of times and maybe mirrored, its colours
    scaled and shifted a little, maybe blurred; an ``overexpose`` share of them overexposed (levels
    scaled by :data:`OVEREXPOSURE_GAIN`, then clipped: a phone that metered a dark mat burns the
    ivory faces and the seams between them out). ``pad`` marks the pixels beyond the photo, which
    stay mid-grey (zero after :func:`normalize`), as inference pads a small photo. ``seam``
    (:func:`seam_mask`) is turned with the masks and returned last (``None`` stays ``None``)."""
    k = int(rng.integers(0, 4))
    arrays = [a for a in (img, face, core, care, pad) if a is not None]
    extra = [seam] if seam is not None else []
    if k:
        arrays, extra = [np.rot90(a, k) for a in arrays], [np.rot90(a, k) for a in extra]
    if rng.random() < 0.5:
        arrays, extra = [a[:, ::-1] for a in arrays], [a[:, ::-1] for a in extra]
    seam = np.ascontiguousarray(extra[0]) if extra else None
    img, face, core, care = (np.ascontiguousarray(a) for a in arrays[:4])
    img = img.astype(np.float32)
    img = img * rng.uniform(0.75, 1.25, 3)[None, None, :] + rng.uniform(-25, 25)
    if overexpose > 0 and rng.random() < overexpose:
        img = img * rng.uniform(*OVEREXPOSURE_GAIN)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.2)))
    img = np.clip(img, 0, 255)
    if pad is not None:
        img[arrays[4]] = MID_GREY
    return img, face, core, care, seam


#: the value a small photo is padded with (zero after :func:`normalize`, as at inference)
MID_GREY = 127.5


def _patch_origin(face: np.ndarray, rng, patch: int) -> tuple[int, int]:
    """Where a patch starts in a photo (``face``: its face mask, at least ``patch`` each way): six
    in ten centred on a tile (give or take a quarter patch), the rest anywhere."""
    ph, pw = face.shape
    if rng.random() < 0.6 and face.any():
        ys_, xs_ = np.nonzero(face[::4, ::4])
        i = int(rng.integers(len(ys_)))
        cy, cx = ys_[i] * 4, xs_[i] * 4
        y0 = int(np.clip(cy - patch // 2 + rng.integers(-patch // 4, patch // 4 + 1), 0, ph - patch))
        x0 = int(np.clip(cx - patch // 2 + rng.integers(-patch // 4, patch // 4 + 1), 0, pw - patch))
        return y0, x0
    return int(rng.integers(0, ph - patch + 1)), int(rng.integers(0, pw - patch + 1))


def make_batch(
    data: list[Sample],
    rng,
    batch: int,
    patch: int,
    overexpose: float = 0.0,
    seam_weight: float = 0.0,
    shadow: float = 0.0,
    clean: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random patches: inputs, (face, core) targets and the loss weights at half the patch's
    resolution, one per map: the care mask, and on the core map also ``1 + seam_weight`` where tiles
    meet (:func:`seam_mask`); an ``overexpose`` share of the photos overexposed (:func:`_augment`),
    and a ``shadow`` share of the patches with a shadow cast across after that
    (:func:`training.shadow.cast_on_patch`: a phone's or an arm's, edge and penumbra anywhere).
    ``clean``, when given (an array shaped as the inputs), receives each input as it was before its
    shadow (:func:`_distil_loss`).
    Each patch is cut first and only the patch augmented (a square patch turned is the turned
    photo's patch), so a batch costs about a sixth of augmenting whole photos."""
    xs = np.zeros((batch, 3, patch, patch), np.float32)
    ys = np.zeros((batch, 2, patch // 2, patch // 2), np.float32)
    ws = np.ones((batch, 2, patch // 2, patch // 2), np.float32)
    for b in range(batch):
        sample = data[int(rng.integers(len(data)))]
        img, face, core, care = sample.img, sample.face, sample.core, sample.care
        seam = sample.seam if seam_weight > 0 else None
        h, w = face.shape
        ph, pw = max(h, patch), max(w, patch)
        pad = None
        if (ph, pw) != (h, w):  # a small photo: padded beyond its bottom and right edges
            img = cv2.copyMakeBorder(img, 0, ph - h, 0, pw - w, cv2.BORDER_CONSTANT, value=(127, 127, 127))
            face = cv2.copyMakeBorder(face, 0, ph - h, 0, pw - w, cv2.BORDER_CONSTANT, value=0)
            core = cv2.copyMakeBorder(core, 0, ph - h, 0, pw - w, cv2.BORDER_CONSTANT, value=0)
            care = cv2.copyMakeBorder(care, 0, ph - h, 0, pw - w, cv2.BORDER_CONSTANT, value=1)
            if seam is not None:
                seam = cv2.copyMakeBorder(seam, 0, ph - h, 0, pw - w, cv2.BORDER_CONSTANT, value=0)
            pad = np.ones((ph, pw), bool)
            pad[:h, :w] = False
        y0, x0 = _patch_origin(face, rng, patch)
        sl = (slice(y0, y0 + patch), slice(x0, x0 + patch))
        x, f, c, wt, sm = _augment(
            img[sl],
            face[sl],
            core[sl],
            care[sl],
            rng,
            overexpose,
            None if pad is None else pad[sl],
            None if seam is None else seam[sl],
        )
        if clean is not None:
            clean[b] = normalize(x).transpose(2, 0, 1)
        if shadow > 0 and rng.random() < shadow:
            x = np.clip(cast_on_patch(x, rng), 0, 255)
        xs[b] = normalize(x).transpose(2, 0, 1)
        for ci, m in enumerate((f, c)):
            ys[b, ci] = cv2.resize(m.astype(np.float32), (patch // 2, patch // 2), interpolation=cv2.INTER_AREA)
        ws[b, 0] = cv2.resize(wt.astype(np.float32), (patch // 2, patch // 2), interpolation=cv2.INTER_AREA)
        ws[b, 1] = ws[b, 0]
        if sm is not None:
            ws[b, 1] *= 1 + seam_weight * cv2.resize(
                sm.astype(np.float32), (patch // 2, patch // 2), interpolation=cv2.INTER_AREA
            )
    return xs, ys, ws


def normalize(img_bgr: np.ndarray) -> np.ndarray:
    from vision.finders.learned import normalize as _n

    return _n(img_bgr)


# --------------------------------------------------------------------------------------------
# validation: tiles found by the same post-processing as inference


def validate(model, val, max_items: int = 200, min_support: float | None = None) -> dict:
    import torch

    from training.evaluate import match_quads
    from vision.finders.learned import instances_from_maps

    model.eval()
    n_gt = n_pred = n_hit = 0
    with torch.no_grad():
        for sample in val[:max_items]:
            img, quads = sample.img, sample.quads
            x, (ph, pw) = _pad16(normalize(img.astype(np.float32)))
            logits = model(torch.from_numpy(x).to(_device_of(model)))
            out = torch.sigmoid(logits)[0].cpu().numpy()[:, : (ph + 1) // 2, : (pw + 1) // 2]
            pred = instances_from_maps(out[0], out[1], scale=2.0, min_support=min_support)
            pairs = match_quads([q.tolist() for q in quads], [p.quad for p in pred])
            n_gt += len(quads)
            n_pred += len(pred)
            n_hit += len(pairs)
    train_mode(model)
    return {"recall": n_hit / max(1, n_gt), "precision": n_hit / max(1, n_pred), "tiles": n_gt}


def _device_of(model):
    """The device ``model``'s weights are on (``cpu`` or a GPU)."""
    return next(model.parameters()).device


def train_mode(model) -> None:
    """Put ``model`` in training mode; its batch norms stay frozen (running statistics, as exported)
    when it was warm-started from an exported model (:func:`init_from_onnx`)."""
    import torch.nn as nn

    model.train()
    if getattr(model, "frozen_bn", False):
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


def init_from_onnx(model, path: Path) -> None:
    """Load the weights of an exported segmenter (``path``) into ``model``, to continue training it.

    The export folds each batch norm into the convolution before it, so each convolution takes the
    folded weight and bias (as the batch norm's shift) and each batch norm becomes the identity
    (unit scale, zero mean, unit variance less its epsilon); the batch norms then stay frozen in
    training (:func:`train_mode`), since batch statistics would undo the folding."""
    import onnx
    import torch
    import torch.nn as nn
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [[weights[x] for x in n.input[1:]] for n in graph.node if n.op_type == "Conv"]
    layers: list[Any] = [m for m in model.modules() if isinstance(m, (nn.Conv2d, nn.BatchNorm2d))]
    pairs: list[tuple[Any, Any]] = [
        (c, layers[i + 1] if i + 1 < len(layers) and isinstance(layers[i + 1], nn.BatchNorm2d) else None)
        for i, c in enumerate(layers)
        if isinstance(c, nn.Conv2d)
    ]
    if len(pairs) != len(convs):
        raise ValueError(f"{path} has {len(convs)} convolutions, the model {len(pairs)}: not the same network")
    with torch.no_grad():
        for (conv, bn), (w, *b) in zip(pairs, convs):
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            bias = torch.from_numpy(np.array(b[0])) if b else torch.zeros(w.shape[0])
            if bn is None:
                conv.bias.copy_(bias)
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
    model.frozen_bn = True


def _pad16(x_hwc: np.ndarray):
    h, w = x_hwc.shape[:2]
    H, W = (h + 15) // 16 * 16, (w + 15) // 16 * 16
    out = np.zeros((1, 3, H, W), np.float32)
    out[0, :, :h, :w] = x_hwc.transpose(2, 0, 1)
    return out, (h, w)


# --------------------------------------------------------------------------------------------


def export_onnx(model, path: Path) -> float:
    """Export with dynamic height/width; return max |onnxruntime - torch| on a random input."""
    import onnxruntime as ort
    import torch

    model.cpu().eval()
    x = torch.randn(1, 3, 320, 448)
    torch.onnx.export(
        model,
        (x,),
        str(path),
        input_names=["image"],
        output_names=["logits"],
        dynamic_axes={"image": {2: "h", 3: "w"}, "logits": {2: "h2", 3: "w2"}},
        opset_version=17,
        dynamo=False,
    )
    with torch.no_grad():
        ref = model(x).numpy()
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = sess.run(None, {"image": x.numpy()})[0]
    return float(np.abs(got - ref).max())


def _arguments(argv) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(REPO / "models"))
    ap.add_argument(
        "--scenes",
        type=int,
        default=1200,
        help="synthetic training photos (plus a quarter, at most 200, for validation)",
    )
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--patch", type=int, default=192)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--device",
        default="cpu",
        help="where PyTorch trains: cpu, or cuda (a GPU machine; the model is exported to ONNX on the CPU)",
    )
    ap.add_argument(
        "--fresh-workers",
        type=int,
        default=0,
        help="render new photos while training in this many processes (for a GPU run with many cores) "
        "instead of training on a fixed set of --scenes photos; 0 (default) keeps the fixed set",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", default=None, help="state_dict to continue from")
    ap.add_argument("--init-onnx", default=None, help="exported model (.onnx) to continue from (batch norms frozen)")
    ap.add_argument("--phone-share", type=float, default=0.5, help="share of phone-like photos (training.phone_scenes)")
    ap.add_argument(
        "--phone-kinds",
        default=None,
        help="comma-separated kinds of phone-like photo to draw from (training.phone_scenes.KINDS; "
        "a kind named twice comes twice as often); default all alike",
    )
    ap.add_argument("--zoom-share", type=float, default=0.0, help="share of photos cut to frame-filling close-ups")
    ap.add_argument(
        "--overexpose",
        type=float,
        default=0.0,
        help="share of the training photos overexposed (levels scaled by 1.15-1.7, then clipped)",
    )
    ap.add_argument(
        "--shadow",
        type=float,
        default=0.0,
        help="share of the training patches with a shadow cast across (training.shadow.cast_on_patch: "
        "a phone's or an arm's, 0.25-0.7 times as light, penumbra 1-40 px)",
    )
    ap.add_argument(
        "--distil",
        action="store_true",
        help="keep the finder of --init-onnx: learn its maps of each patch before the patch's --shadow, "
        "not the ground truth",
    )
    ap.add_argument(
        "--seam-weight",
        type=float,
        default=0.0,
        help="the core map's loss weighed 1 + this where two tiles meet (training.train_segmenter.seam_mask), "
        "so that the cores of touching tiles stay apart; 0 (default) weighs it as anywhere else",
    )
    ap.add_argument(
        "--kong-share", type=float, default=0.5, help="share of the table photos that show concealed kongs (backs)"
    )
    ap.add_argument(
        "--pale-share",
        type=float,
        default=0.0,
        help="share of the photos drawn on a pale plain table (white, light grey, cream: training.scenes._pale)",
    )
    ap.add_argument(
        "--min-face-support",
        type=float,
        default=MIN_FACE_SUPPORT,
        help="face support a tile needs (written to the metadata's postprocess, read at inference)",
    )
    ap.add_argument(
        "--min-long",
        type=int,
        default=MIN_LONG,
        help="smallest photo size a look may shrink to (written to the metadata's postprocess, read at inference)",
    )
    ap.add_argument(
        "--time-budget", type=float, default=34.0, help="minutes for the whole run; the schedule anneals within it"
    )
    a = ap.parse_args(argv)
    if a.distil and not a.init_onnx:
        ap.error("--distil keeps the finder it continues: give it with --init-onnx")
    return a


def _phone_kinds(text: str | None) -> tuple[str, ...] | None:
    """The ``--phone-kinds`` list as a tuple of kinds; ``None`` for all alike. An unknown kind is
    refused with the list of known ones."""
    if not text:
        return None
    from training.phone_scenes import KINDS

    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown or not kinds:
        raise SystemExit(
            f"--phone-kinds: unknown kind(s) {', '.join(unknown) or '(none given)'}; use {', '.join(KINDS)}"
        )
    return kinds


def _train(model, data: list, val: list, a: argparse.Namespace, train_budget: float, cache: Path):
    """Train ``model`` on random patches of ``data``, or of photos rendered meanwhile
    (:func:`fresh_batches`, with ``--fresh-workers``), on ``a.device`` (BCE on both maps plus Dice
    on the core map, weighted by the care mask),
    AdamW with a short warm-up and a cosine schedule over ``max(steps done, time used)`` within
    ``train_budget`` seconds; validated and saved to ``cache`` every 1000 steps. Returns the steps
    done, the validation log and the seconds spent."""
    import torch
    import torch.nn.functional as F

    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    teacher = _teacher(Path(a.init_onnx), a.device) if a.distil else None
    rng = np.random.default_rng(a.seed)
    t0 = time.time()
    step = 0
    log = []
    train_mode(model)
    batches = iter(_fresh_loader(a)) if a.fresh_workers else None
    while step < a.steps:
        p = max(step / a.steps, (time.time() - t0) / train_budget)
        if p >= 1:
            break
        lr = a.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, p))))
        if step < 100:
            lr *= (step + 1) / 100
        for g in opt.param_groups:
            g["lr"] = lr
        clean: Any = np.empty((a.batch, 3, a.patch, a.patch), np.float32) if teacher is not None else None
        if batches is not None:
            xb, yb, wb, *rest = next(batches)
            clean = rest[0] if rest else None
        else:
            xb, yb, wb = make_batch(data, rng, a.batch, a.patch, a.overexpose, a.seam_weight, a.shadow, clean)
        x, y, wt = (torch.as_tensor(v).to(a.device, non_blocking=True) for v in (xb, yb, wb))
        logits = model(x)
        if teacher is not None and clean is not None:
            loss = _distil_loss(logits, teacher, torch.as_tensor(clean).to(a.device))
        else:
            bce = F.binary_cross_entropy_with_logits(logits, y, weight=wt)
            pc = torch.sigmoid(logits[:, 1]) * wt[:, 0]
            inter = (pc * y[:, 1]).sum()
            dice = 1 - (2 * inter + 1) / (pc.sum() + y[:, 1].sum() + 1)
            loss = 2 * bce + dice
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 100 == 0:
            print(f"  step {step} loss {loss.item():.4f} lr {lr:.5f} {time.time() - t0:.0f} s", flush=True)
        if step % 1000 == 0:
            v = validate(model, val, 60, a.min_face_support)
            log.append({"step": step, **v})
            print(f"  validation: {v}", flush=True)
            torch.save(model.state_dict(), cache / "tile_segmenter.pt")
    return step, log, time.time() - t0


def _teacher(path: Path, device: str):
    """The exported finder ``path`` as a frozen PyTorch network on ``device``: what ``--distil``
    keeps the new one to (:func:`_distil_loss`)."""
    teacher = build_model()
    init_from_onnx(teacher, path)
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher.to(device)


def _distil_loss(logits, teacher, clean):
    """``--distil``'s loss: twice the BCE between the new network's ``logits`` (face and core) for a
    batch and the ``teacher``'s probabilities for the same patches before their shadows (``clean``),
    over every pixel."""
    import torch
    import torch.nn.functional as F

    with torch.no_grad():
        target = torch.sigmoid(teacher(clean))
    return 2 * F.binary_cross_entropy_with_logits(logits, target)


def provenance(a: argparse.Namespace) -> dict:
    """Where the training photos came from and how the run was started: the scene generators and
    their mix, the background photos with their packages and licences, the model continued from,
    and the command."""
    from training import backgrounds

    args = [
        f"--{k.replace('_', '-')} {v}"
        for k, v in sorted(vars(a).items())
        if v is not None and k not in ("out",) and v is not False
    ]
    return {
        "source": "training.scenes.make_scene and, for a share of "
        f"{a.phone_share}, training.phone_scenes.make_phone_scene (rows at 20-45 degrees, packed trays, "
        "racks, piles, clutter, fingers); artwork faces from shared/vision-data; table planes partly "
        "real background photos (training.backgrounds)",
        "continued_from": a.init_onnx or a.init,
        "loss": (
            "distilled: BCE to the finder continued from, its maps of each patch before the patch's shadow"
            if a.distil
            else "BCE (face, core) + Dice (core) on the ground truth"
        ),
        "batch_norm": "frozen (continued from an exported model)" if a.init_onnx else "trained",
        "command": "python3 run.py train-segmenter " + " ".join(args),
        "backgrounds": backgrounds.sources_metadata(backgrounds.load_manifest()),
    }


def _metadata(a: argparse.Namespace, n_val: int, run: dict, validation: dict, torch_version: str) -> dict:
    """The model's metadata: input and output format, the training run (``run``: steps, seconds) and
    its validation."""
    return {
        "format": "mjc-tile-segmenter/1",
        "input": {
            "layout": "NCHW",
            "color": "BGR",
            "size": "any, padded to a multiple of 16; "
            "vision.finders.learned.find_tiles scales a photo so its tiles are about 32 px wide",
            "multiple_of": 16,
            "normalisation": "x / 255 - 0.5",
        },
        "output": {"channels": ["face", "core"], "activation": "sigmoid", "stride": 2, "core_shrink": CORE_SHRINK},
        "postprocess": {"min_face_support": a.min_face_support, "min_long": a.min_long},
        "training": {
            "synthetic_photos": run.get("fresh_photos", a.scenes),
            "validation_photos": n_val,
            "steps": run["steps"],
            "batch": a.batch,
            "patch": a.patch,
            "lr": a.lr,
            "seed": a.seed,
            "data_seconds": run["data_seconds"],
            "train_seconds": run["train_seconds"],
            "threads": a.threads,
            "device": a.device,
            "torch": torch_version,
            **provenance(a),
        },
        "validation": {
            "measure": "tiles found (quad IoU >= 0.5) on held-out synthetic photos at their "
            "rendered size (tiles 10-90 px, no scale choice)",
            **validation,
        },
    }


def main(argv=None) -> int:
    a = _arguments(argv)
    import torch

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    t_start = time.time()
    budget = a.time_budget * 60
    out = Path(a.out)
    cache = REPO / "training" / ".cache"
    cache.mkdir(parents=True, exist_ok=True)

    PHONE_SHARE["value"] = a.phone_share
    ZOOM_SHARE["value"] = a.zoom_share
    KONG_SHARE["value"] = a.kong_share
    PALE_SHARE["value"] = a.pale_share
    PHONE_KINDS["value"] = _phone_kinds(a.phone_kinds)
    if a.phone_share > 0:
        from training import backgrounds

        print(f"{len(backgrounds.ensure_backgrounds())} background photos (training.backgrounds)", flush=True)
    n_val = max(20, min(200, a.scenes // 4))
    n_fixed = 0 if a.fresh_workers else a.scenes
    print(f"rendering {n_fixed} + {n_val} synthetic photos ...", flush=True)
    data = generate(n_fixed, 1_000_000 + a.seed * 100_000, workers=a.threads) if n_fixed else []
    val = generate(n_val, 2_000_000, workers=max(a.threads, a.fresh_workers))
    t_data = time.time() - t_start
    print(f"  {t_data:.0f} s", flush=True)

    model = build_model()
    if a.init:
        model.load_state_dict(torch.load(a.init))
    if a.init_onnx:
        init_from_onnx(model, Path(a.init_onnx))
    model.to(a.device)
    train_budget = max(60.0, budget - (time.time() - t_start) - min(120.0, 0.1 * budget))  # (validation, export)
    step, log, train_s = _train(model, data, val, a, train_budget, cache)
    torch.save(model.state_dict(), cache / "tile_segmenter.pt")
    v = validate(model, val, len(val), a.min_face_support)
    print(f"final validation on {len(val)} photos: {v}", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    onnx_path = out / f"{MODEL_NAME}.onnx"
    diff = export_onnx(model, onnx_path)
    print(f"exported {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB); onnxruntime vs torch max diff {diff:.2e}")
    run = {"steps": step, "data_seconds": round(t_data), "train_seconds": round(train_s)}
    if a.fresh_workers:  # each batch brought one new photo, besides the workers' first pools
        run["fresh_photos"] = step + a.fresh_workers * FRESH_POOL
    validation = {"final": v, "during": log, "onnx_max_abs_diff": diff}
    meta = _metadata(a, len(val), run, validation, torch.__version__)
    (out / f"{MODEL_NAME}.json").write_text(json.dumps(meta, indent=1))
    (out / f"{MODEL_NAME}.int8.onnx").unlink(missing_ok=True)  # the old network's: python3 run.py quantize
    print(f"total {time.time() - t_start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
