"""Train the tile-face classifier on CPU and export it to ONNX.

    python3 run.py train --data ../shared/vision-data --out models/

``run.py train`` installs the ``train`` extra (torch 2.13.0 CPU, onnx, Pillow) and, as root, the
Debian packages the artwork needs (librsvg2-bin fonts-dejavu-core fonts-arphic-ukai fonts-arphic-uming
fonts-wqy-zenhei fonts-wqy-microhei), then runs ``python -m training.train_classifier``.

(rsvg-convert renders the SVG tilesets; the CJK fonts typeset extra character/wind/dragon/flower
tiles; DejaVu sets half the printed pages among the "not a tile" crops, :mod:`training.clutter`. A
missing tool or font only drops that style, with a warning.) ``--threads`` defaults to 2,
``--time-budget`` (minutes) caps the whole run and the learning-rate schedule anneals within it.

Data (see ``shared/vision-data/README.md``):

* synthetic tiles: every artwork style from :mod:`training.artwork` rendered by
  :func:`training.render.render_tile` onto random ivory/white tile bodies with heavy augmentation
  (plus blank and framed white dragons and synthetic plain backs), pre-rendered once per run with a
  fixed seed;
* real crops: the labelled Camerash crops (``tiles-resized``), augmented on the fly.

Honest hold-out: every real crop is traced back to the raw source photo it was cut from (template
matching of ``raw-tiles/N.jpg`` in ``raw-images/``); photos of the same physical set (``1-1`` ..
``1-6``, ``2-*``, ``6-*``) form one *set*. Whole sets are held out (seeded shuffle of the sets until
>= 25 % of the crops), so held-out accuracy measures generalisation to tile sets never seen in
training. The split is stored in ``models/real_crops_split.csv`` and the held-out names in
``models/heldout_real_crops.txt``; later runs reuse them.

How the shipped model was made (three stages on the shared 2-core machine: 22.5 min, then 28 min):

1. ``python -m training.train_classifier --data ../shared/vision-data --out models/`` (9 epochs from scratch,
   1157 s; at that time without the CJK-font styles, sampling images uniformly within a class);
2. ``python -m training.train_classifier --data ../shared/vision-data --out models/ --init
   training/.cache/tile_classifier.pt --lr 1e-3 --epochs 3 --time-budget 10`` (fine-tune, 196 s, with
   the current code: CJK-font styles, coloured-only synthetic backs, style-balanced sampling).

3. the shipped model with ``none``, fine-tuned from stage 2's model (which ships beside it as
   ``models/tile_fallback.onnx``, the fallback for featureless crops): ``python3 run.py train --data
   ../shared/vision-data --out models/ --init-onnx models/tile_fallback.onnx --lr 1e-3 --backbone-lr 0.3
   --distill 1.0 --distill-temp 2 --per-class 200 --real-repeat 6 --negatives 4000 --val-real 0.15
   --evals 2 --epochs 6 --time-budget 40 --threads 2`` (28 min on the 2-core CPU; recorded as run,
   with ``--init-onnx`` naming stage 2's model at its old place, ``models/tile_classifier.onnx``).

``tile_classifier.json`` records the stages (``training.fine_tuned_from``, ``training.command``). A single from-scratch run of
the current code (stage 1 alone) is the simpler recipe for a retrain.

Learning "not a tile" (``none``) from the shipped model: ``--init-onnx models/tile_classifier.onnx``
with ``--distill`` (a soft cross-entropy to the starting model's answers on every tile crop, so
that tiles are not unlearned), ``--backbone-lr`` (the backbone slower than the head),
``--val-real`` (training-set real crops kept out to choose the checkpoint; the held-out sets
choose nothing) and ``--featureless-std`` (negatives with a featureless middle left out). Real
crops are never label-smoothed. The attempts and the shipping gate are in ``docs/vision.md``.

The network is trained 180-degree-invariant (random half-turns), since the segmenter cannot always
tell a tile's up from down; no pair of tile faces are half-turns of each other.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training import artwork, calibration, negatives, render
from training.artwork import CLASSES
from vision.classifier import INSET_SHARE, inset

#: the answer for a crop that is not one tile face (hard negatives, :mod:`training.negatives`)
NOT_A_TILE = "none"
#: the classifier's outputs: every tile class, then "not a tile"
MODEL_CLASSES = [*CLASSES, NOT_A_TILE]
#: faces that look alike turned a quarter (round dots in a square, blank faces, backs): a crop of
#: one turned so (:func:`training.render.quarter_turned`) keeps its class; any other face turned a
#: quarter is not an upright tile face (``none``)
QUARTER_ALIKE = ("1p", "4p", "5p", "9p", "5z", "back")
#: ... but for these, sets differ in which way the face runs, so a turned one may be another
#: set's face: never turned
QUARTER_UNCLEAR = ("3p",)

REPO = Path(__file__).resolve().parent.parent
INPUT_W, INPUT_H = 48, 64
MEAN = [0.5, 0.5, 0.5]
STD = [0.25, 0.25, 0.25]

CAMERASH_LABELS = {}
for _i in range(9):
    CAMERASH_LABELS[1 + _i] = f"{_i + 1}p"
    CAMERASH_LABELS[10 + _i] = f"{_i + 1}s"
    CAMERASH_LABELS[19 + _i] = f"{_i + 1}m"
CAMERASH_LABELS.update(
    {
        28: "1z",
        29: "2z",
        30: "3z",
        31: "4z",
        32: "7z",
        33: "6z",
        34: "5z",
        35: "5f",
        36: "6f",
        37: "7f",
        38: "8f",
        39: "1f",
        40: "2f",
        41: "3f",
        42: "4f",
    }
)


# ---------------------------------------------------------------------------------------------
# Real crops and the held-out split


# Verified label errors in data.csv (checked by eye): image -> correct code.
LABEL_FIXES = {
    "133.jpg": "8p",  # eight blue dots, labelled characters-8
}


def read_camerash_labels(data: Path, fixed: bool = True) -> dict:
    """{image name: class code} for the labelled Camerash crops (the duplicate row is harmless);
    with ``fixed``, the verified corrections in :data:`LABEL_FIXES` are applied."""
    out = {}
    with open(data / "camerash-mahjong-dataset" / "tiles-data" / "data.csv", newline="") as f:
        for row in csv.DictReader(f):
            out[row["image-name"]] = CAMERASH_LABELS[int(row["label"])]
    if fixed:
        out.update({k: v for k, v in LABEL_FIXES.items() if k in out})
    return out


def source_set_of_photo(photo: str) -> str:
    """Raw photo name -> physical set id: ``1-3.jpg`` -> ``1``, ``10.jpg`` -> ``10``."""
    return Path(photo).stem.split("-")[0]


def trace_sources(data: Path, names) -> dict:
    """{crop name: (source photo, match score)} by template matching each unscaled crop in the raw
    photos (downscaled so templates are ~24 px; about two minutes on one core)."""
    root = data / "camerash-mahjong-dataset"
    raws = {p.name: artwork.read_image(p, cv2.IMREAD_GRAYSCALE) for p in sorted((root / "raw-images").iterdir())}
    out = {}
    for n in names:
        t = artwork.read_image(root / "raw-tiles" / n, cv2.IMREAD_GRAYSCALE)
        best = (-1.0, "")
        for rn, im in raws.items():
            s = max(1.0, min(t.shape) / 24)
            ti = cv2.resize(t, (max(4, int(t.shape[1] / s)), max(4, int(t.shape[0] / s))), interpolation=cv2.INTER_AREA)
            ii = cv2.resize(im, (int(im.shape[1] / s), int(im.shape[0] / s)), interpolation=cv2.INTER_AREA)
            if ii.shape[0] < ti.shape[0] or ii.shape[1] < ti.shape[1]:
                continue
            r = float(cv2.matchTemplate(ii, ti, cv2.TM_CCOEFF_NORMED).max())
            if r > best[0]:
                best = (r, rn)
        out[n] = (best[1], best[0])
    return out


def make_split(data: Path, out_dir: Path, frac: float = 0.25, seed: int = 1234) -> dict:
    """{crop name: (code, set id, 'train'|'heldout')}; reuses ``out_dir/real_crops_split.csv``."""
    split_csv = out_dir / "real_crops_split.csv"
    labels = read_camerash_labels(data)
    if split_csv.exists():
        res = {}
        with open(split_csv, newline="") as f:
            for row in csv.DictReader(f):
                res[row["image"]] = (labels[row["image"]], row["set"], row["split"])
        return res
    names = sorted(labels, key=lambda n: int(Path(n).stem))
    print("tracing real crops to their source photos ...", flush=True)
    src = trace_sources(data, names)
    sets = sorted({source_set_of_photo(p) for p, _ in src.values()}, key=lambda s: int(s))
    rng = np.random.default_rng(seed)
    order = list(rng.permutation(sets))
    held, count = [], 0
    for s in order:
        if count >= frac * len(names):
            break
        held.append(s)
        count += sum(1 for p, _ in src.values() if source_set_of_photo(p) == s)
    res = {}
    with open(split_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["image", "label", "source_photo", "set", "match_score", "split"])
        for n in names:
            photo, score = src[n]
            s = source_set_of_photo(photo)
            sp = "heldout" if s in held else "train"
            res[n] = (labels[n], s, sp)
            w.writerow([n, labels[n], photo, s, f"{score:.3f}", sp])
    with open(out_dir / "heldout_real_crops.txt", "w") as f:
        f.write(f"# Camerash labelled crops held out from training (whole source sets: {', '.join(held)})\n")
        for n in names:
            if res[n][2] == "heldout":
                f.write(n + "\n")
    return res


def load_real(data: Path, names, size=(2 * INPUT_W, 2 * INPUT_H)) -> np.ndarray:
    root = data / "camerash-mahjong-dataset" / "tiles-resized"
    return np.stack(
        [cv2.resize(artwork.read_image(root / n, cv2.IMREAD_COLOR), size, interpolation=cv2.INTER_AREA) for n in names]
    )


# ---------------------------------------------------------------------------------------------
# Synthetic data


def sample_face(code: str, faces: dict, rng: np.random.Generator):
    """Pick a face for ``code``: artwork, or a synthetic one (blank/framed white dragon, plain back)."""
    if code == "5z":
        r = rng.random()
        if r < 0.35:
            return None
        if r < 0.6:
            return render.framed_white_dragon(rng)
    if code == "back":
        if rng.random() < 0.75:
            return render.plain_back(rng)
    styles = faces[code]  # {style: [img, ...]}: a style first, so big styles do not dominate
    names = sorted(styles)
    lst = styles[names[rng.integers(len(names))]]
    return lst[rng.integers(len(lst))]


def render_set(faces: dict, per_class: int, seed: int, size=(INPUT_W, INPUT_H), neighbours: float = 0.0):
    """``per_class`` rendered crops of each class (:func:`training.render.render_tile`); a
    ``neighbours`` share of them with tiles laid against them (:func:`_neighbours`)."""
    rng = np.random.default_rng(seed)
    X = np.empty((per_class * len(CLASSES), size[1], size[0], 3), np.uint8)
    y = np.empty(per_class * len(CLASSES), np.int64)
    i = 0
    for _k in range(per_class):
        for ci, code in enumerate(CLASSES):
            face = sample_face(code, faces, rng)
            beside = _neighbours(faces, rng) if neighbours > 0 and rng.random() < neighbours else ()
            X[i] = render.render_tile(face, rng, size, neighbours=beside)
            y[i] = ci
            i += 1
    return X, y


def _neighbours(faces: dict, rng: np.random.Generator) -> list[tuple[str, object]]:
    """One or two tiles to lay against a rendered one (:func:`training.render.render_tile`), each
    of any class: beside it in a row two times in three, above or below it (a tray, a second row)
    otherwise, on different sides."""
    n = 1 + int(rng.random() < 0.4)
    row = rng.random() < 2 / 3
    sides = list(rng.permutation(render.SIDES[:2] if row else render.SIDES[2:]))[:n]
    return [(str(side), sample_face(CLASSES[int(rng.integers(len(CLASSES)))], faces, rng)) for side in sides]


def _render_worker(args):
    faces_path, per_class, seed, neighbours = args
    import pickle

    with open(faces_path, "rb") as f:
        faces = pickle.load(f)
    return render_set(faces, per_class, seed, neighbours=neighbours)


def render_parallel(faces: dict, per_class: int, seed: int, workers: int = 2, neighbours: float = 0.0):
    """Render ``per_class`` tiles of each class using ``workers`` processes (deterministic); a
    ``neighbours`` share with tiles laid against them (:func:`render_set`)."""
    import pickle
    import tempfile
    from multiprocessing import get_context

    chunks = [per_class // workers + (1 if i < per_class % workers else 0) for i in range(workers)]
    with tempfile.NamedTemporaryFile(suffix=".pkl", delete=False) as f:
        pickle.dump(faces, f)
        fp = f.name
    try:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_render_worker, [(fp, c, seed * 100 + i, neighbours) for i, c in enumerate(chunks)])
    finally:
        os.unlink(fp)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


# ---------------------------------------------------------------------------------------------
# Augmentation of real crops (numpy/cv2, per batch)


def augment_real(
    img: np.ndarray,
    rng: np.random.Generator,
    size=(INPUT_W, INPUT_H),
    neighbour: tuple[str, np.ndarray] | None = None,
) -> np.ndarray:
    """Random crop-box jitter (loose/tight/offset), rotation, slight perspective, then degrade.

    ``neighbour``, ``(side, crop)``: another real face laid against this one on that side
    (:data:`training.render.SIDES`), a dark seam between (:func:`_beside`), and the box strays
    towards it as the finder's boxes of touching tiles do (:data:`training.render.NEIGHBOUR_STRAY`)."""
    h, w = img.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    W, H = size
    grow = rng.uniform(-0.08, 0.12)
    shift = rng.uniform(-0.07, 0.07, 2)
    if neighbour is not None:
        img, at = _beside(img, *neighbour, rng)
        src += at
        toward = render.TOWARD[neighbour[0]]
        shift = shift * (toward == 0) + toward * rng.uniform(*render.NEIGHBOUR_STRAY)
    c = src.mean(0) + shift * [w, h]
    est = c + (src - src.mean(0)) * (1 + grow) + rng.normal(0, 0.025, (4, 2)) * [w, h]
    ang = np.deg2rad(rng.uniform(-10, 10))
    R = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
    est = ((est - c) @ R.T + c).astype(np.float32)
    M = cv2.getPerspectiveTransform(est, np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32))
    border = cv2.BORDER_REPLICATE if rng.random() < 0.5 else cv2.BORDER_CONSTANT
    val = tuple(int(v) for v in rng.uniform(0, 255, 3))
    out = cv2.warpPerspective(img, M, (W, H), flags=cv2.INTER_AREA, borderMode=border, borderValue=val)
    return render.degrade(out, rng)


def _beside(img: np.ndarray, side: str, other: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``img`` with the face ``other`` laid against it on ``side`` (scaled to ``img``'s size), a
    dark seam 1-4 % of ``img``'s side across between them, as touching tiles show; and where
    ``img``'s corner lies in the result."""
    h, w = img.shape[:2]
    other = cv2.resize(other, (w, h), interpolation=cv2.INTER_AREA)
    across = 1 if side in ("left", "right") else 0
    n = max(1, round(img.shape[across] * rng.uniform(0.01, 0.04)))
    seam_shape = (h, n, 3) if across else (n, w, 3)
    seam = np.full(seam_shape, rng.uniform(20, 110, 3), np.float32).astype(np.uint8)
    if side in ("right", "below"):  # (img comes first)
        return np.concatenate([img, seam, other], axis=across), np.zeros(2, np.float32)
    at = np.array([(w + n) * across, (h + n) * (1 - across)], np.float32)
    return np.concatenate([other, seam, img], axis=across), at


def color_jitter_batch(x, rng: np.random.Generator):
    """Torch float batch (N,3,H,W) in 0..1: brightness/contrast/saturation/hue-ish jitter, grayscale,
    channel swaps (ink colours vary between sets), random half-turns."""
    import torch

    n = x.shape[0]
    b = torch.from_numpy(rng.uniform(0.65, 1.3, (n, 1, 1, 1)).astype(np.float32))
    c = torch.from_numpy(rng.uniform(0.6, 1.35, (n, 1, 1, 1)).astype(np.float32))
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * c + mean
    x = x * b
    gray = x.mean(dim=1, keepdim=True)
    s = torch.from_numpy(rng.uniform(0.3, 1.5, (n, 1, 1, 1)).astype(np.float32))
    s[torch.from_numpy(rng.random(n) < 0.15)] = 0.0  # some fully grey
    x = gray + (x - gray) * s
    x = x * torch.from_numpy(rng.uniform(0.9, 1.1, (n, 3, 1, 1)).astype(np.float32))
    swap = rng.random(n) < 0.2
    for i in np.nonzero(swap)[0]:
        x[i] = x[i, torch.from_numpy(rng.permutation(3))]
    flip = torch.from_numpy(rng.random(n) < 0.5)
    x[flip] = torch.flip(x[flip], dims=(2, 3))
    return x.clamp(0, 1)


# ---------------------------------------------------------------------------------------------
# Model


def build_model(num_classes: int = len(MODEL_CLASSES)):
    import torch.nn as nn

    def cbr(i, o, s=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class Block(nn.Module):
        def __init__(self, i, o, s):
            super().__init__()
            self.a = cbr(i, o, s)
            self.b = nn.Sequential(nn.Conv2d(o, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o))
            self.skip = (
                nn.Sequential(nn.Conv2d(i, o, 1, s, bias=False), nn.BatchNorm2d(o))
                if (s != 1 or i != o)
                else nn.Identity()
            )
            self.act = nn.ReLU(inplace=True)

        def forward(self, x):
            return self.act(self.b(self.a(x)) + self.skip(x))

    class Net(nn.Module):
        """Compact ResNet for 64x48 BGR tile crops (~0.6 M parameters, ~20 M multiply-adds)."""

        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(cbr(3, 16, 2), cbr(16, 32, 1))  # 32x24
            self.l1 = Block(32, 48, 2)  # 16x12
            self.l2 = Block(48, 96, 2)  # 8x6
            self.l3 = Block(96, 160, 2)  # 4x3
            self.head = nn.Sequential(
                nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(160, num_classes)
            )

        def forward(self, x):
            return self.head(self.l3(self.l2(self.l1(self.stem(x)))))

    return Net()


def to_tensor(batch_u8: np.ndarray):
    import torch

    return torch.from_numpy(batch_u8).permute(0, 3, 1, 2).float().div_(255.0)


def normalize(x):
    import torch

    m = torch.tensor(MEAN).view(1, 3, 1, 1)
    s = torch.tensor(STD).view(1, 3, 1, 1)
    return (x - m) / s


def predict(model, X: np.ndarray, bs: int = 512) -> np.ndarray:
    import torch

    model.eval()
    outs = []
    with torch.no_grad():
        for i in range(0, len(X), bs):
            outs.append(torch.softmax(model(normalize(to_tensor(X[i : i + bs]))), 1).numpy())
    return np.concatenate(outs) if outs else np.zeros((0, len(MODEL_CLASSES)))


def predict_logits(model, X: np.ndarray, bs: int = 512) -> np.ndarray:
    """Raw logits of ``model`` on uint8 crops ``X`` (N, H, W, 3)."""
    import torch

    model.eval()
    outs = []
    with torch.no_grad():
        for i in range(0, len(X), bs):
            outs.append(model(normalize(to_tensor(X[i : i + bs]))).numpy())
    return np.concatenate(outs) if outs else np.zeros((0, len(MODEL_CLASSES)), np.float32)


def init_from_onnx(model, onnx_path: Path, X: np.ndarray) -> int:
    """Load a shipped classifier (``onnx_path``, batch norm fused into its convolutions) into
    ``model`` for fine-tuning; a class the ONNX model lacks (``none``) starts from zero weights and
    a low bias. Each batch norm gets the mean and spread of its convolution's output on ``X``, so
    that it reproduces the fused network in training and evaluation mode alike. Returns the number
    of classes carried over."""
    import onnx
    import torch
    from onnx import numpy_helper

    m = onnx.load(str(onnx_path))
    init = {t.name: numpy_helper.to_array(t).copy() for t in m.graph.initializer}
    convs_onnx = [n for n in m.graph.node if n.op_type == "Conv"]
    pairs = []
    mods = list(model.modules())
    for i, mod in enumerate(mods):
        if isinstance(mod, torch.nn.Conv2d):
            pairs.append((mod, mods[i + 1]))
    if len(pairs) != len(convs_onnx):
        raise RuntimeError(f"{onnx_path}: {len(convs_onnx)} convolutions, the network has {len(pairs)}")
    stats: dict = {}
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs_onnx):
            conv.weight.copy_(torch.from_numpy(init[node.input[1]]))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(init[node.input[2]]))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            conv.register_forward_hook(
                lambda mod, inp, out: stats.__setitem__(id(mod), (out.mean((0, 2, 3)), out.std((0, 2, 3))))
            )
        model.eval()
        model(normalize(to_tensor(X)))
        for conv, bn in pairs:
            mu, sd = stats[id(conv)]
            sd = sd.clamp_min(1e-3)
            bn.running_mean.copy_(mu)
            bn.running_var.copy_(sd**2 - bn.eps)
            bn.bias.add_(mu)
            bn.weight.copy_(sd)
            conv._forward_hooks.clear()
        lin = model.head[-1]
        w, b = init["head.3.weight"], init["head.3.bias"]
        k = w.shape[0]
        lin.weight.zero_()
        lin.weight[:k] = torch.from_numpy(w)
        lin.bias.fill_(float(b.min()))
        lin.bias[:k] = torch.from_numpy(b)
    return k


# ---------------------------------------------------------------------------------------------


def _arguments(argv) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(artwork.DEFAULT_DATA), help="shared/vision-data folder")
    ap.add_argument("--out", default=str(REPO / "models"))
    ap.add_argument("--epochs", type=int, default=9)
    ap.add_argument("--per-class", type=int, default=400, help="synthetic training tiles per class")
    ap.add_argument("--real-repeat", type=int, default=10, help="times each real training crop is seen per epoch")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--init", default=None, help="state_dict to fine-tune from (e.g. training/.cache/tile_classifier.pt)"
    )
    ap.add_argument(
        "--init-onnx", default=None, help="shipped classifier to fine-tune from (e.g. models/tile_classifier.onnx)"
    )
    ap.add_argument("--negatives", type=int, default=2000, help="'not a tile' crops seen per epoch")
    ap.add_argument(
        "--strong-blur",
        type=float,
        default=0.0,
        help="share of the training crops blurred hard (a motion streak or a defocus, training.render.strong_blur)",
    )
    ap.add_argument(
        "--neighbours",
        type=float,
        default=0.0,
        help="share of the tile crops (rendered and real) with tiles laid against them, the box straying "
        "onto one (training.render.render_tile's neighbours, augment_real's neighbour)",
    )
    ap.add_argument(
        "--slant",
        type=float,
        default=0.0,
        help="share of the tile crops seen at a slant, squashed and stretched back (training.render.squashed)",
    )
    ap.add_argument(
        "--slant-small",
        type=float,
        default=0.0,
        help="share of the crops seen at a slant that are seen small too, as a far tile from a seat "
        "(training.render.squashed's small)",
    )
    ap.add_argument(
        "--undistilled-slant",
        action="store_true",
        help="with --distill: not on the crops seen at a slant, which the starting model reads worst",
    )
    ap.add_argument(
        "--quarter-turns",
        type=float,
        default=0.0,
        help="share of the tile crops turned a quarter (training.render.quarter_turned): 'not a tile' "
        "unless the face looks alike so (QUARTER_ALIKE)",
    )
    ap.add_argument(
        "--phone-crops",
        type=int,
        default=0,
        help="phone-like scenes whose tiles are cut, as the recogniser cuts them, into extra training "
        "crops (training.phone_crops; 0: none)",
    )
    ap.add_argument(
        "--distill",
        type=float,
        default=0.0,
        help="with --init-onnx: weight of keeping the starting model's answers on tile crops (0: off)",
    )
    ap.add_argument("--distill-temp", type=float, default=2.0, help="softmax temperature of --distill")
    ap.add_argument("--backbone-lr", type=float, default=1.0, help="the backbone's learning rate as a fraction of --lr")
    ap.add_argument(
        "--val-real",
        type=float,
        default=0.0,
        help="fraction of the training real crops kept for validation and checkpoint selection (0: the "
        "final model is kept)",
    )
    ap.add_argument("--evals", type=int, default=1, help="validations (checkpoint candidates) per epoch")
    ap.add_argument(
        "--featureless-std",
        type=float,
        default=0.0,
        help="leave out 'not a tile' crops whose middle (60 %%) has a grey standard deviation below this: "
        "they look like plain backs and blank white dragons, which the layout rules judge (0: keep all)",
    )
    ap.add_argument(
        "--time-budget", type=float, default=30.0, help="minutes for the whole run; the schedule anneals within it"
    )
    return ap.parse_args(argv)


@dataclass
class _Tiles:
    """What the classifier learns from and is checked on: the artwork, the split of the real crops,
    real crops for training (``Xr``, ``yr``) and held out (``Xho``, ``yho``), synthetic tiles for
    training (``Xs``, ``ys``) and validation (``Xsv``, ``ysv``), and the "not a tile" crops for
    training (``Xn``) and validation (``Xnv``) with the record of their sources (``neg_record``).
    ``Xrv``, ``yrv``: training-set real crops kept for validation (``--val-real``; held-out sets are
    never used to choose anything)."""

    art: dict
    split: dict
    tr_names: list[str]
    ho_names: list[str]
    Xr: np.ndarray
    yr: np.ndarray
    Xrv: np.ndarray
    yrv: np.ndarray
    Xho: np.ndarray
    yho: np.ndarray
    Xs: np.ndarray
    ys: np.ndarray
    Xsv: np.ndarray
    ysv: np.ndarray
    Xn: np.ndarray
    Xnv: np.ndarray
    neg_record: dict
    phone_record: dict | None = None


def _load_tiles(data: Path, out: Path, a: argparse.Namespace) -> _Tiles:
    """The real crops (split by source set, :func:`make_split`) and freshly rendered synthetic tiles."""
    art = artwork.load_artwork(data, verbose=True)
    faces = artwork.by_class_style(art)
    missing = [c for c in CLASSES if c not in faces]
    if missing:
        print("classes without artwork:", missing, file=sys.stderr)
    split = make_split(data, out)
    tr_names = [n for n, v in split.items() if v[2] == "train"]
    ho_names = [n for n, v in split.items() if v[2] == "heldout"]
    val_pick = np.random.default_rng(5).random(len(tr_names)) < a.val_real
    rv_names = [n for n, v in zip(tr_names, val_pick) if v]
    tr_names = [n for n, v in zip(tr_names, val_pick) if not v]
    Xr = load_real(data, tr_names)
    yr = np.array([CLASSES.index(split[n][0]) for n in tr_names])
    Xrv = load_real(data, rv_names, (INPUT_W, INPUT_H)) if rv_names else np.zeros((0, INPUT_H, INPUT_W, 3), np.uint8)
    yrv = np.array([CLASSES.index(split[n][0]) for n in rv_names], np.int64)
    Xho = load_real(data, ho_names, (INPUT_W, INPUT_H))
    yho = np.array([CLASSES.index(split[n][0]) for n in ho_names])
    print(
        f"real crops: {len(tr_names)} train, {len(rv_names)} validation, {len(ho_names)} held out "
        f"(sets {sorted({split[n][1] for n in ho_names}, key=int)})",
        flush=True,
    )
    t0 = time.time()
    Xs, ys = render_parallel(faces, a.per_class, seed=a.seed + 1, workers=max(1, a.threads), neighbours=a.neighbours)
    Xsv, ysv = render_parallel(faces, 40, seed=a.seed + 7, workers=max(1, a.threads), neighbours=a.neighbours)
    print(f"rendered {len(Xs)} synthetic train + {len(Xsv)} synthetic val tiles in {time.time() - t0:.0f}s", flush=True)
    phone_record = None
    if a.phone_crops > 0:
        from training.phone_crops import phone_tile_crops

        t0 = time.time()
        Xp, codes, phone_record = phone_tile_crops(a.phone_crops, (INPUT_W, INPUT_H))
        Xs = np.concatenate([Xs, Xp])
        ys = np.concatenate([ys, np.array([CLASSES.index(c) for c in codes], np.int64)])
        print(f"cut {len(Xp)} tile crops from {a.phone_crops} phone-like photos in {time.time() - t0:.0f}s", flush=True)
    Xn, Xnv, rec = _load_negatives(data, faces, a.featureless_std)
    return _Tiles(
        art, split, tr_names, ho_names, Xr, yr, Xrv, yrv, Xho, yho, Xs, ys, Xsv, ysv, Xn, Xnv, rec, phone_record
    )


#: the "not a tile" pool is cached per version of its drawers and per tile finder that mined it
NEGATIVES_VERSION = 4


def negatives_cache() -> Path:
    """Where the "not a tile" pool is cached: named by :data:`NEGATIVES_VERSION` and the finder that
    mines it (:func:`training.negatives.finder_id`)."""
    finder = negatives.finder_id().split()[-1]
    return artwork.CACHE_DIR / f"negatives_v{NEGATIVES_VERSION}_{finder}.npz"


def _middle_std(crop: np.ndarray) -> float:
    """Grey-level standard deviation of the middle 60 % of ``crop``."""
    h, w = crop.shape[:2]
    mid = crop[int(0.2 * h) : int(0.8 * h), int(0.2 * w) : int(0.8 * w)]
    return float(cv2.cvtColor(mid, cv2.COLOR_BGR2GRAY).std())


def _load_negatives(data: Path, faces: dict, featureless_std: float = 0.0) -> tuple[np.ndarray, np.ndarray, dict]:
    """The "not a tile" pool (:func:`training.negatives.build_pool`, cached) without the crops whose
    middle is featureless (:func:`_middle_std` below ``featureless_std``), split 90/10 at random
    into training and validation crops (validation at input size)."""
    t0 = time.time()
    cache = negatives_cache()
    if cache.exists():
        z = np.load(cache, allow_pickle=False)
        # (the cache is named by the finder that mined it: a pool cached before its record named the
        # finder still says which)
        pool, record = z["pool"], {**json.loads(str(z["record"])), "finder": negatives.finder_id()}
    else:
        pool, record = negatives.build_pool(data, faces=faces)
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cache, pool=pool, record=json.dumps(record))
    if featureless_std > 0:
        keep = np.array([_middle_std(x) >= featureless_std for x in pool], bool)
        record = {**record, "featureless_left_out": int((~keep).sum()), "featureless_std": featureless_std}
        pool = pool[keep]
    order = np.random.default_rng(3).permutation(len(pool))
    nv = len(pool) // 10
    Xnv = np.stack([cv2.resize(x, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA) for x in pool[order[:nv]]])
    print(f"'not a tile' crops: {len(pool) - nv} train, {nv} val ({time.time() - t0:.0f}s)", flush=True)
    return pool[order[nv:]], Xnv, record


def _batch(
    bi: np.ndarray,
    d: _Tiles,
    rng: np.random.Generator,
    strong_blur: float = 0.0,
    slant: float = 0.0,
    quarter_turns: float = 0.0,
    neighbours: float = 0.0,
    slant_small: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Crops ``bi`` of an epoch's order: a synthetic tile ``0 <= k < len(Xs)`` as rendered, a
    "not a tile" crop ``len(Xs) + k`` and a real crop ``-1 - k`` freshly augmented. Of the tile
    crops, a ``quarter_turns`` share is turned a quarter (:func:`training.render.quarter_turned`;
    then "not a tile" unless :data:`QUARTER_ALIKE`; never :data:`QUARTER_UNCLEAR`) and a ``slant``
    share of the others seen at a slant (:func:`training.render.squashed`, a ``slant_small`` share of
    those seen small too); a ``strong_blur`` share of every kind is blurred hard
    (:func:`training.render.strong_blur`). A ``neighbours`` share of
    the real crops has another real crop laid against it (:func:`augment_real`; the rendered ones
    got theirs when rendered). Returns the crops, their classes, whether each is a real crop and
    whether each was seen at a slant."""
    xb = np.empty((len(bi), INPUT_H, INPUT_W, 3), np.uint8)
    yb = np.empty(len(bi), np.int64)
    slanted = np.zeros(len(bi), bool)
    ns = len(d.Xs)
    for j, k in enumerate(bi):
        if k >= ns:
            xb[j] = augment_real(d.Xn[k - ns], rng)
            yb[j] = MODEL_CLASSES.index(NOT_A_TILE)
        else:
            if k >= 0:
                xb[j], yb[j] = d.Xs[k], d.ys[k]
            else:
                beside = None
                if neighbours > 0 and rng.random() < neighbours:
                    beside = (render.SIDES[int(rng.integers(4))], d.Xr[int(rng.integers(len(d.Xr)))])
                xb[j], yb[j] = augment_real(d.Xr[-1 - k], rng, neighbour=beside), d.yr[-1 - k]
            code = MODEL_CLASSES[yb[j]]
            if quarter_turns > 0 and code not in QUARTER_UNCLEAR and rng.random() < quarter_turns:
                xb[j] = render.quarter_turned(xb[j], rng)
                yb[j] = yb[j] if code in QUARTER_ALIKE else MODEL_CLASSES.index(NOT_A_TILE)
            elif slant > 0 and rng.random() < slant:
                xb[j] = render.squashed(xb[j], rng, slant_small)
                slanted[j] = True
        if strong_blur > 0 and rng.random() < strong_blur:
            xb[j] = render.strong_blur(xb[j], rng)
    return xb, yb, bi < 0, slanted


def _optimizer(model, a: argparse.Namespace):
    """AdamW with two groups: the head at ``--lr``, the backbone at ``--lr`` x ``--backbone-lr``
    (each group's ``scale``)."""
    import torch

    head = list(model.head.parameters())
    ids = {id(p) for p in head}
    body = [p for p in model.parameters() if id(p) not in ids]
    return torch.optim.AdamW(
        [{"params": body, "scale": a.backbone_lr}, {"params": head, "scale": 1.0}], lr=a.lr, weight_decay=5e-4
    )


def _loss(logits, yt, real, teacher_logits, a: argparse.Namespace, slanted=None):
    """Cross-entropy, label smoothing 0.1 on synthetic tiles and "not a tile" crops and none on real
    crops (their labels are checked by eye); with ``teacher_logits`` (the starting model's, tile
    classes only), plus ``--distill`` x the soft cross-entropy to its answers at ``--distill-temp``
    on every tile crop (keeps what the shipped model reads right while ``none`` is learned), but
    those seen at a slant (``slanted``) with ``--undistilled-slant``: the starting model reads a
    small squat ``2m`` as ``3m``, and would teach it so."""
    import torch
    import torch.nn.functional as F

    ce_s = F.cross_entropy(logits, yt, label_smoothing=0.1, reduction="none")
    ce_r = F.cross_entropy(logits, yt, reduction="none")
    loss = torch.where(real, ce_r, ce_s).mean()
    if teacher_logits is not None and a.distill > 0:
        tile = yt != len(MODEL_CLASSES) - 1
        if slanted is not None and a.undistilled_slant:
            tile = tile & ~slanted
        if bool(tile.any()):
            T = a.distill_temp
            target = torch.softmax(teacher_logits[tile] / T, 1)
            logq = torch.log_softmax(logits[tile] / T, 1)[:, : target.shape[1]]
            loss = loss + a.distill * T * T * -(target * logq).sum(1).mean() * tile.float().mean()
    return loss


def _validate(model, d: _Tiles) -> dict:
    """Accuracy on the validation real crops (training sets), the synthetic validation tiles and the
    validation "not a tile" crops, and the selection score: real + (synthetic + not a tile) / 2."""
    none = len(MODEL_CLASSES) - 1
    real = float((predict(model, d.Xrv).argmax(1) == d.yrv).mean()) if len(d.yrv) else float("nan")
    synth = float((predict(model, d.Xsv).argmax(1) == d.ysv).mean())
    rej = float((predict(model, d.Xnv).argmax(1) == none).mean()) if len(d.Xnv) else 0.0
    score = (real if len(d.yrv) else 0.0) + (synth + rej) / 2
    return {"real_val": real, "synthetic_val": synth, "not_a_tile_val": rej, "score": score}


def _train(model, d: _Tiles, a: argparse.Namespace, t_start: float, rng: np.random.Generator, teacher=None):
    """Train ``model``: AdamW (:func:`_optimizer`), warm-up then cosine over progress = max(steps
    done, time used) so a busy machine still anneals within the time budget; loss :func:`_loss`
    (``teacher``: the starting model, for ``--distill``). Validates ``--evals`` times an epoch; with
    ``--val-real`` the best-scoring checkpoint (:func:`_validate`) is kept, else the last. Returns
    the run's record: epochs done (fractional), steps, seconds, the checkpoint kept."""
    import copy

    import torch

    n_real = len(d.Xr) * a.real_repeat
    n_neg = min(a.negatives, len(d.Xn)) if len(d.Xn) else 0
    steps_per_epoch = (len(d.Xs) + n_real + n_neg) // a.batch
    opt = _optimizer(model, a)
    total_steps = a.epochs * steps_per_epoch
    check_at = {round(steps_per_epoch * (i + 1) / a.evals) - 1 for i in range(a.evals)}
    print(
        f"model: {sum(p.numel() for p in model.parameters()) / 1e6:.2f} M params; {a.epochs} x {steps_per_epoch} steps"
    )
    budget_s = a.time_budget * 60 - (time.time() - t_start)
    t_train, step, progress = time.time(), 0, 0.0
    best: dict = {"score": -1.0}

    def lr_at(p):
        if p < 0.1:
            return a.lr * (0.1 + 0.9 * p / 0.1)
        return a.lr * (0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * min(1.0, (p - 0.1) / 0.9))))

    def check(epochs: float, loss: float) -> None:
        nonlocal best
        v = _validate(model, d)
        print(
            f"epoch {epochs:.2f} step {step} loss {loss:.3f} real-val {v['real_val']:.4f} synth-val "
            f"{v['synthetic_val']:.4f} not-a-tile-val {v['not_a_tile_val']:.4f} score {v['score']:.4f} "
            f"lr {lr_at(progress):.2e} ({time.time() - t_train:.0f}s)",
            flush=True,
        )
        if a.val_real <= 0 or v["score"] > best["score"]:
            best = {**v, "epochs": round(epochs, 2), "step": step, "state": copy.deepcopy(model.state_dict())}
        best["checked"] = step
        model.train()

    for _ep in range(a.epochs):
        model.train()
        idx = np.concatenate(
            [
                np.arange(len(d.Xs)),
                -1 - rng.integers(0, len(d.Xr), n_real),
                len(d.Xs) + rng.choice(len(d.Xn), n_neg, replace=False),
            ]
        )
        rng.shuffle(idx)
        for st in range(steps_per_epoch):
            progress = max(step / total_steps, (time.time() - t_train) / budget_s)
            if progress >= 1.0:
                break
            for g in opt.param_groups:
                g["lr"] = lr_at(progress) * g["scale"]
            step += 1
            batch = idx[st * a.batch : (st + 1) * a.batch]
            xb, yb, real, slanted = _batch(
                batch, d, rng, a.strong_blur, a.slant, a.quarter_turns, a.neighbours, a.slant_small
            )
            x = normalize(color_jitter_batch(to_tensor(xb), rng))
            with torch.no_grad():
                t_logits = teacher(x)[:, : len(CLASSES)] if teacher is not None else None
            loss = _loss(model(x), torch.from_numpy(yb), torch.from_numpy(real), t_logits, a, torch.from_numpy(slanted))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if st in check_at:
                check(step / steps_per_epoch, loss.item())
        if progress >= 1.0:
            break
    epochs_done = step / steps_per_epoch
    if best.pop("checked", -1) != step:
        check(epochs_done, float("nan"))
        best.pop("checked")
    if "state" in best:
        model.load_state_dict(best.pop("state"))
    print(f"trained {epochs_done:.2f} epochs, {step} steps; kept the checkpoint of epoch {best.get('epochs')}")
    return {"epochs": epochs_done, "steps": step, "seconds": time.time() - t_train, "kept": best}


def _final_figures(model, d: _Tiles, data: Path) -> dict:
    """Accuracy as the runtime reads (a crop read under :data:`vision.classifier.HALF_TURN_BELOW`
    averaged with its other views, :func:`_other_views`): held-out real crops (with
    our label fixes, and with the dataset's labels as is), synthetic validation tiles and the
    validation "not a tile" crops; and the calibration (:mod:`training.calibration`) fitted on the
    held-out real crops, which training never saw."""

    none = len(MODEL_CLASSES) - 1

    def tta(X):
        return calibration.tta_probabilities(predict_logits(model, X), _other_views(model, X), none=none)

    p_ho, p_sv = tta(d.Xho), tta(d.Xsv)
    acc_ho = float((p_ho.argmax(1) == d.yho).mean())
    raw = read_camerash_labels(data, fixed=False)
    yho_raw = np.array([CLASSES.index(raw[n]) for n in d.ho_names])
    acc_ho_raw = float((p_ho.argmax(1) == yho_raw).mean())
    acc_sv = float((p_sv.argmax(1) == d.ysv).mean())
    rej_nv = float((tta(d.Xnv).argmax(1) == none).mean()) if len(d.Xnv) else float("nan")
    lost_ho = float((p_ho.argmax(1) == none).mean())
    lo, views = predict_logits(model, d.Xho), _other_views(model, d.Xho)
    temp = calibration.fit_temperature(lo, views, d.yho, none)
    pc = calibration.tta_probabilities(lo, views, temp, none)
    conf, right = pc.max(1), (pc.argmax(1) == d.yho) & (pc.argmax(1) != none)
    thr = calibration.sure_threshold(conf, right)
    prec, n_sure = calibration.sure_precision(conf, right, thr)
    unsure = calibration.unsure_suits(
        [MODEL_CLASSES[i] for i in d.yho],
        [MODEL_CLASSES[i] for i in pc.argmax(1)],
        suits=calibration.read_suits(MODEL_CLASSES),
    )
    print(
        f"final: held-out real {acc_ho:.4f} ({len(d.yho)} crops; {acc_ho_raw:.4f} with data.csv labels as is; "
        f"{lost_ho:.4f} read as not a tile), synthetic val {acc_sv:.4f} ({len(d.ysv)}), "
        f"not-a-tile val {rej_nv:.4f} ({len(d.Xnv)}); temperature {temp}, sure >= {thr} "
        f"({n_sure} crops, precision {prec:.4f})"
    )
    return {
        "heldout_real": acc_ho,
        "heldout_real_dataset_labels": acc_ho_raw,
        "heldout_real_read_as_none": lost_ho,
        "synthetic": acc_sv,
        "not_a_tile_val": rej_nv,
        "calibration": {
            "temperature": temp,
            "sure_threshold": thr,
            "sure_precision_heldout": round(prec, 4),
            "sure_crops_heldout": n_sure,
            "unsure_suits": unsure,
            "inset": INSET_SHARE,
        },
    }


def _other_views(model, X: np.ndarray) -> list[np.ndarray]:
    """The logits of the views the runtime may read a crop in besides the crop itself
    (:meth:`vision.classifier.TileClassifier._views`, :func:`training.calibration.tta_probabilities`
    picks the crops): the uint8 crops ``X`` (N, H, W, 3) turned half a turn, and cut tighter by
    :data:`vision.classifier.INSET_SHARE` as they lie and turned."""
    tight = np.stack([inset(x, INSET_SHARE) for x in X]) if len(X) else X  # (at the crops' own size)
    return [
        predict_logits(model, v[:, ::-1, ::-1].copy() if turned else v)
        for v, turned in ((X, 1), (tight, 0), (tight, 1))
    ]


def _metadata(a: argparse.Namespace, d: _Tiles, nparams: int, run: dict, acc: dict, versions: dict) -> dict:
    """The model's metadata: classes, input format, architecture, the training run (``run``: epochs,
    steps, seconds, the run fine-tuned from) and the validation figures ``acc``."""
    return {
        "format": "mjc-tile-classifier/1",
        "classes": MODEL_CLASSES,
        "not_a_tile": NOT_A_TILE,
        "input": {
            "name": "input",
            "shape": ["N", 3, INPUT_H, INPUT_W],
            "width": INPUT_W,
            "height": INPUT_H,
            "channel_order": "BGR",
            "layout": "NCHW",
            "scale": "pixel/255",
            "mean": MEAN,
            "std": STD,
            "resize": "cv2.INTER_AREA to width x height, no padding",
        },
        "output": {"name": "logits", "softmax": "divide by calibration.temperature, then apply softmax"},
        "calibration": {
            **acc["calibration"],
            "method": calibration.METHOD,
        },
        "orientation": "trained invariant to 180-degree rotation; runtime averages crop and half-turn where the crop reads under vision.classifier.HALF_TURN_BELOW, and the crop cut tighter by calibration.inset (as it lies and turned) where those two still do (as to which tile, not whether one)",
        "architecture": f"compact ResNet (stem 16/32, blocks 48-96-160), {nparams} parameters",
        "training": {
            "sources": {
                style: {"classes": len(fc), "images": sum(map(len, fc.values()))} for style, fc in d.art.items()
            },
            "synthetic_extra": "blank + framed white dragons (5z), plain coloured tile backs (back)",
            "red_fives": "FluffyStuff Man5-Dora / Pin5-Dora / Sou5-Dora train as 5m / 5p / 5s",
            "not_a_tile": {
                **d.neg_record,
                "train_crops": int(len(d.Xn)),
                "per_epoch": int(min(a.negatives, len(d.Xn))),
                "how": "training.negatives: finder false finds and random tile-shaped crops of background "
                "photos (held-out part kept for the benchmark), free regions / two-tile straddles / half "
                "tiles of the labelled real photos of training sets (recogniser quads, margin "
                f"{negatives.TILE_MARGIN} tile widths), the finders' proposals off the tiles of phone-like "
                "scenes and on printed pages and score sheets beside a hand (print in Hershey and DejaVu "
                "fonts), synthetic clutter (training.negative_crops)",
            },
            "synthetic_train_tiles": int(len(d.Xs)),
            **({"phone_photo_crops": d.phone_record} if d.phone_record else {}),
            "real_train_crops": int(len(d.tr_names)),
            "real_val_crops": int(len(d.yrv)),
            "real_source": "camerash-mahjong-dataset tiles-resized (labelled crops), minus held-out sets",
            "augmentations": [
                "tile body: ivory/white/tinted face, rounded corners, coloured back layer and thickness",
                "lighting gradient, shadow edge, glare, colour cast",
                "drop shadow on random table",
                "crop box jitter: -6..+10% size, +-6% offset, corner noise, +-6 deg rotation (synthetic), "
                "-8..+12%, +-7%, +-10 deg (real)",
                "gaussian/motion blur, down-up sampling, noise, JPEG q35-95",
                "brightness/contrast/saturation, grayscale 15%, channel permutation 20%",
                "180-degree rotation 50%",
                *(
                    [
                        f"strong blur {a.strong_blur:.0%} of crops: motion 8-25% of the width at any angle, or defocus 3-6%"
                    ]
                    if a.strong_blur > 0
                    else []
                ),
                *(
                    [
                        f"seen at a slant {a.slant:.0%} of tile crops: squashed to cos 30-65 deg and stretched back"
                        + (
                            f", {a.slant_small:.0%} of those seen small too (at {render.SEEN_SMALL[0]:g}-"
                            f"{render.SEEN_SMALL[1]:g} of the crop's size first)"
                            if a.slant_small > 0
                            else ""
                        )
                    ]
                    if a.slant > 0
                    else []
                ),
                *(
                    [
                        f"turned a quarter {a.quarter_turns:.0%} of tile crops (not {', '.join(QUARTER_UNCLEAR)}): "
                        f"'not a tile' unless {', '.join(QUARTER_ALIKE)}"
                    ]
                    if a.quarter_turns > 0
                    else []
                ),
                *(
                    [
                        f"touching tiles {a.neighbours:.0%} of tile crops: one or two of the set laid against "
                        "the face (a row two times in three, else above or below; real crops beside real crops, "
                        "a dark seam between), the box straying 2-10% onto one"
                    ]
                    if a.neighbours > 0
                    else []
                ),
            ],
            "epochs": round(float(run["epochs"]), 2),
            "steps": run["steps"],
            "batch": a.batch,
            "optimizer": f"AdamW lr {a.lr} (backbone x {a.backbone_lr}), warmup + cosine over max(step, time) "
            "progress; label smoothing 0.1 on synthetic and 'not a tile' crops, none on real crops",
            "distillation": (
                f"weight {a.distill}, temperature {a.distill_temp}: soft cross-entropy to the starting model's "
                "answers on every tile crop"
                + (" but those seen at a slant" if a.undistilled_slant and a.slant > 0 else "")
                if a.distill > 0 and a.init_onnx
                else None
            ),
            "checkpoint": {
                "kept": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in run["kept"].items()},
                "rule": "the best of real-val + (synthetic-val + not-a-tile-val) / 2 over "
                f"{a.evals} validations an epoch; real-val: {len(d.yrv)} real crops of the training sets kept "
                "out of training (the held-out sets choose nothing)"
                if a.val_real > 0
                else "the last",
            },
            "seed": a.seed,
            "train_seconds": round(run["seconds"]),
            "threads": a.threads,
            "sampling": "class-balanced; within a class a style uniformly, then one of its images; "
            f"real crops repeated {a.real_repeat} x per epoch",
            "fine_tuned_from": run["fine_tuned_from"],
            "command": "python3 run.py train " + " ".join(sys.argv[1:]),
        },
        "validation": {
            "heldout_real_accuracy": round(acc["heldout_real"], 4),
            "heldout_real_crops": int(len(d.yho)),
            "heldout_real_label_fixes": LABEL_FIXES,
            "heldout_real_accuracy_dataset_labels": round(acc["heldout_real_dataset_labels"], 4),
            "heldout_real_sets": sorted({d.split[n][1] for n in d.ho_names}, key=int),
            "heldout_split": "whole source sets (photos of one physical tile set) held out; see "
            "heldout_real_crops.txt and real_crops_split.csv",
            "synthetic_accuracy": round(acc["synthetic"], 4),
            "synthetic_tiles": int(len(d.ysv)),
            "synthetic_note": "same artwork styles as training, different random renders",
            "heldout_real_read_as_not_a_tile": round(acc["heldout_real_read_as_none"], 4),
            "not_a_tile_val_recall": round(acc["not_a_tile_val"], 4),
            "onnx_vs_torch_max_abs_diff": acc["onnx_vs_torch"],
        },
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "versions": versions,
    }


def main(argv=None) -> int:
    a = _arguments(argv)
    import torch

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    data = Path(a.data)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.time()
    d = _load_tiles(data, out, a)

    model = build_model()
    base_run = None
    if a.init:
        model.load_state_dict(torch.load(a.init, map_location="cpu"))
        prev = out / "tile_classifier.json"
        if prev.exists():
            base_run = json.loads(prev.read_text()).get("training")
        print(f"fine-tuning from {a.init}", flush=True)
    elif a.init_onnx:
        src = Path(a.init_onnx)
        kept = init_from_onnx(model, src, d.Xs[rng.choice(len(d.Xs), 512, replace=False)])
        prev = src.with_suffix(".json")
        if prev.exists():
            base_run = json.loads(prev.read_text()).get("training")
        print(f"fine-tuning from {src} ({kept} classes carried over)", flush=True)
    teacher = None
    if a.init_onnx and a.distill > 0:
        teacher = build_model()
        init_from_onnx(teacher, Path(a.init_onnx), d.Xs[np.random.default_rng(1).choice(len(d.Xs), 512, replace=False)])
        teacher.eval()
    nparams = sum(p.numel() for p in model.parameters())
    run = _train(model, d, a, t_start, rng, teacher)
    acc = _final_figures(model, d, data)

    model.eval()
    onnx_path = out / "tile_classifier.onnx"
    export_onnx(model, onnx_path)
    acc["onnx_vs_torch"] = check_onnx(model, onnx_path, d.Xho[:32] if len(d.Xho) else d.Xsv[:32])
    import onnx

    run["fine_tuned_from"] = base_run
    versions = {"torch": torch.__version__, "onnx": onnx.__version__, "opset": 17}
    with open(out / "tile_classifier.json", "w") as f:
        json.dump(_metadata(a, d, nparams, run, acc, versions), f, indent=2)
    (out / "tile_classifier.int8.onnx").unlink(missing_ok=True)  # the old network's: python3 run.py quantize
    print(
        f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB) and tile_classifier.json; "
        f"total {time.time() - t_start:.0f}s"
    )
    torch.save(model.state_dict(), artwork.CACHE_DIR / "tile_classifier.pt")
    return 0


def export_onnx(model, path: Path) -> None:
    import warnings

    import torch

    x = torch.zeros(1, 3, INPUT_H, INPUT_W)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            (x,),
            str(path),
            input_names=["input"],
            output_names=["logits"],
            dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}},
            opset_version=17,
            dynamo=False,
        )


def check_onnx(model, path: Path, X: np.ndarray) -> float:
    """Max abs difference of logits between PyTorch and onnxruntime on a batch; raises if > 1e-3."""
    import onnxruntime as ort
    import torch

    x = normalize(to_tensor(X))
    with torch.no_grad():
        ref = model(x).numpy()
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = sess.run(None, {"input": x.numpy()})[0]
    d = float(np.abs(ref - got).max())
    print(f"onnxruntime vs torch: max abs logit diff {d:.2e}")
    if d > 1e-3:
        raise RuntimeError(f"ONNX export mismatch: {d}")
    return d


if __name__ == "__main__":
    sys.exit(main())
