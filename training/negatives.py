"""Hard negatives for the classifier's "not a tile" class (``none``).

Everything here is a crop that a tile finder may hand the classifier and that is *not* one tile
face; the classifier learns to answer ``none`` for it, and :mod:`vision.recognize` drops such
candidates. Crops are made at twice the classifier's input size (96x128, BGR uint8) so that the
training loop can jitter them like real crops. Sources (each recorded with its licence in the
model's metadata by :func:`sources`):

* **background photos** without tiles (:func:`background_photos`): scikit-image's bundled sample
  images and the background photos of :mod:`training.backgrounds` (Debian wallpaper packages). A
  fixed part of them (by a hash of the name) is held out for the benchmark
  (:func:`is_heldout_background`):
  - the learned and classical finders' own false finds on them (the hardest negatives);
  - random tile-shaped crops at tile sizes, aspects and small rotations;
* **labelled real photos** of the classifier's *training* sets (``training/labels/real_photos.json``
  rows whose photo is in the train split): regions that overlap no tile, using the recogniser's
  quads grown by a safety margin; boxes straddling two touching tiles (30-70 % of the way from one
  to the next) and boxes holding half a tile (:func:`real_photo_negatives`);
* **phone-like scenes** (:mod:`training.phone_scenes`, seeds from :data:`PHONE_SEED0`, far from the
  benchmark's): the finders' proposals lying off every tile (:func:`phone_scene_negatives`):
  empty tray slots, rack fronts, clutter, table patterns;
* **printed pages and score sheets beside a hand** (:func:`print_scene_negatives`, seeds from
  :data:`PRINT_SEED0`): the finders' proposals on them, cut at the size the hand sets;
* **synthetic**: two rendered tiles side by side or stacked, cut between them; half a tile on a table;
  white/ivory paper, window frames and rack edges; keyboard keys with letters; dice; coins; scoring
  sticks; cloth patterns (:func:`synthetic_negatives`).

Unlabelled photos are never used (they may hold tiles nobody marked).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from training import clutter

REPO = Path(__file__).resolve().parent.parent
LABELS = Path(__file__).resolve().parent / "labels" / "real_photos.json"
#: crops are made at this size (width, height): twice the classifier's input
CROP_W, CROP_H = 96, 128
#: a background photo is held out of training for the benchmark when its name hashes below this
HELDOUT_BACKGROUND_FRACTION = 0.3
#: free space kept around every known tile when cutting negatives out of a labelled photo (in tile widths)
TILE_MARGIN = 0.35

#: first seed of the phone-like scenes mined for false finds (the benchmark's b4-b8 use 9000-9499)
PHONE_SEED0 = 30000
#: a finder proposal on a phone-like scene is a negative when at most this fraction of its area
#: lies on a tile (partly covered tiles and straddles stay out: they may be half a real tile)
OFF_TILE = 0.15
#: first seed of the scenes with printed pages and score sheets beside a hand, and how many
PRINT_SEED0, PRINT_SCENES = 31000, 60
#: the print on those pages is drawn for tiles this many times the hand's (see draw_print_beside_tiles)
PRINT_UNIT = (0.6, 1.8)

#: scikit-image sample images shipped inside the package (no download), with their licence as the
#: functions' docstrings state it
SKIMAGE_SAMPLES = {
    "astronaut": "public domain (NASA)",
    "chelsea": "CC0 (Stefan van der Walt)",
    "coffee": "CC0 (Rachel Michetti)",
    "rocket": "public domain (SpaceX)",
    "hubble_deep_field": "public domain (NASA)",
    "immunohistochemistry": "no known copyright restrictions",
    "camera": "CC0 (Lav Varshney)",
    "brick": "CC0 (CC0Textures)",
    "grass": "CC0 (CC0Textures)",
    "gravel": "CC0 (CC0Textures)",
    "text": "public domain",
    "coins": "no known copyright restrictions",
    "horse": "CC0 (Andreas Preuss)",
    "clock": "public domain (Stefan van der Walt)",
    "cell": "CC0",
    "retina": "CC0",
}


# ---------------------------------------------------------------------------------------------
# Background photos


def is_heldout_background(name: str) -> bool:
    """Whether the background photo ``name`` is kept out of training (a fixed hash of the name)."""
    h = int(hashlib.sha1(name.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return h < HELDOUT_BACKGROUND_FRACTION


def _skimage_photos() -> Iterator[tuple[str, str, np.ndarray]]:
    """The scikit-image samples that ship with the package (never downloaded), as BGR."""
    try:
        from skimage import data as skdata
    except ImportError:
        return
    for name, licence in SKIMAGE_SAMPLES.items():
        loader = getattr(skdata, name, None)
        if loader is None:
            continue
        try:
            img = np.asarray(loader())
        except Exception:  # a sample that would need a download, or a missing optional reader
            continue
        if img.dtype != np.uint8:
            img = (255 * (img.astype(np.float32) / max(1.0, float(img.max())))).astype(np.uint8)
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        elif img.shape[2] == 4:
            img = cv2.cvtColor(img, cv2.COLOR_RGBA2BGR)
        else:
            img = cv2.cvtColor(img, cv2.COLOR_RGB2BGR)
        yield f"skimage-{name}", f"scikit-image sample '{name}': {licence}", img


def background_name(b) -> str:
    """The name a :class:`training.backgrounds.Background` goes by here (and in table (g))."""
    if b.package == "scikit-image":
        return "skimage-" + b.source.rsplit(".", 1)[-1]
    return f"{b.package}-{Path(b.file).stem.split('__')[-1]}"


def _project_backgrounds(fetch: bool) -> Iterator[tuple[str, str, np.ndarray]]:
    """The background photos of :mod:`training.backgrounds` (Debian wallpaper packages and
    scikit-image samples; fetched into its cache when ``fetch`` and the cache is empty)."""
    from training import backgrounds

    for b in backgrounds.ensure_backgrounds(fetch=fetch):
        name = background_name(b)
        try:
            img = backgrounds.read_background(b)
        except FileNotFoundError:
            continue
        yield name, f"{b.package} {b.version} {b.source}: {b.licence}", img


def background_photos(heldout: bool | None = False, fetch: bool = True) -> list[tuple[str, str, np.ndarray]]:
    """``(name, licence, BGR image)`` of photos without tiles: the training part (``heldout``
    false), the benchmark part (true) or all (``None``). ``fetch``: build the cache of
    :mod:`training.backgrounds` if it is empty (Debian packages; training only)."""
    out: dict[str, tuple[str, str, np.ndarray]] = {}
    for item in [*_skimage_photos(), *_project_backgrounds(fetch)]:
        if item[0] not in out and (heldout is None or is_heldout_background(item[0]) == heldout):
            out[item[0]] = item
    return list(out.values())


# ---------------------------------------------------------------------------------------------
# Crops of background photos


def warp_box(img: np.ndarray, centre, w: float, h: float, angle_deg: float) -> np.ndarray:
    """The box of size ``w`` x ``h`` around ``centre``, turned by ``angle_deg``, rectified to
    :data:`CROP_W` x :data:`CROP_H`."""
    a = np.deg2rad(angle_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    src = (box @ R.T + np.asarray(centre, np.float32)).astype(np.float32)
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], np.float32)
    M = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(img, M, (CROP_W, CROP_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)


def random_tile_crops(img: np.ndarray, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """``n`` tile-shaped crops at random places: height 4-30 % of the shorter side, face aspect
    0.6-0.9, +-12 degrees."""
    H, W = img.shape[:2]
    out = []
    for _ in range(n):
        h = rng.uniform(0.04, 0.3) * min(H, W)
        w = h * rng.uniform(0.6, 0.9)
        c = (rng.uniform(w / 2, W - w / 2), rng.uniform(h / 2, H - h / 2))
        out.append(warp_box(img, c, w, h, rng.uniform(-12, 12)))
    return out


def finder_false_finds(img: np.ndarray, scales=(1.0, 0.5)) -> list[np.ndarray]:
    """What the tile finders propose on a photo without tiles (every one a false find), at a few
    scales, as upright crops."""
    from vision.finders import find_candidates

    out = []
    for s in scales:
        im = img if s == 1.0 else cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        for finder in ("learned", "classical"):
            try:
                cands = find_candidates(im, finder=finder)
            except Exception:
                continue
            for cd in cands:
                for _rot, crop in cd.crops[:2]:
                    out.append(cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA))
    return out


# ---------------------------------------------------------------------------------------------
# Labelled real photos


def _tile_quads(photo: Path) -> list[np.ndarray]:
    """The recogniser's tile quads on ``photo`` (original pixels, corner 0 = top-left)."""
    from vision.recognize import recognize

    rec = recognize(photo.read_bytes())
    return [np.asarray(t.quad, np.float32) for t in rec.tiles]


def _free_mask(shape, quads: list[np.ndarray], margin: float) -> np.ndarray:
    """255 where no tile (grown by ``margin`` tile widths) lies."""
    mask = np.full(shape[:2], 255, np.uint8)
    for q in quads:
        c = q.mean(0)
        width = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0]))
        grown = c + (q - c) * (1 + 2 * margin * width / max(1.0, np.linalg.norm(q[2] - q[0]) / 1.4))
        cv2.fillConvexPoly(mask, grown.astype(np.int32), 0)
    return mask


def _outside_tiles(img, quads, rng, n) -> list[np.ndarray]:
    """Up to ``n`` tile-sized boxes lying wholly in the free part of ``img``."""
    free = _free_mask(img.shape, quads, TILE_MARGIN)
    sizes = [max(np.linalg.norm(q[3] - q[0]), np.linalg.norm(q[1] - q[0])) for q in quads]
    th = float(np.median(sizes)) if sizes else 0.1 * min(img.shape[:2])
    H, W = img.shape[:2]
    out: list[np.ndarray] = []
    for _ in range(n * 20):
        if len(out) >= n:
            break
        h = th * rng.uniform(0.6, 1.5)
        w = h * rng.uniform(0.6, 0.9)
        if h >= min(H, W):
            continue
        cx, cy = rng.uniform(w / 2, W - w / 2), rng.uniform(h / 2, H - h / 2)
        x0, y0, x1, y1 = int(cx - h / 2), int(cy - h / 2), int(cx + h / 2), int(cy + h / 2)
        if free[max(0, y0) : y1, max(0, x0) : x1].min(initial=255) == 255:
            out.append(warp_box(img, (cx, cy), w, h, rng.uniform(-10, 10)))
    return out


def _between_tiles(img, quads, rng) -> list[np.ndarray]:
    """For each tile and its nearest neighbour: a box 30-70 % of the way from one to the other
    (straddling both), and the tile's box shifted by 45-65 % of its size away from the neighbour
    (half a tile)."""
    if len(quads) < 2:
        return []
    centres = np.array([q.mean(0) for q in quads])
    out = []
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], np.float32)
    for i, q in enumerate(quads):
        d = np.linalg.norm(centres - centres[i], axis=1)
        d[i] = np.inf
        j = int(np.argmin(d))
        size = max(np.linalg.norm(q[3] - q[0]), np.linalg.norm(q[1] - q[0]))
        if d[j] > 1.3 * size:
            continue
        step = centres[j] - centres[i]
        for shift in (step * rng.uniform(0.3, 0.7), -step * rng.uniform(0.45, 0.65)):
            src = (q + shift).astype(np.float32)
            M = cv2.getPerspectiveTransform(src, dst)
            out.append(cv2.warpPerspective(img, M, (CROP_W, CROP_H), flags=cv2.INTER_AREA))
    return out


def training_label_photos(data: Path, models: Path = REPO / "models") -> list[Path]:
    """The labelled real photos whose tile set the classifier trains on (train split of
    ``real_crops_split.csv``); held-out and never-used photos are left alone."""
    import csv

    labels = json.loads(LABELS.read_text()) if LABELS.exists() else {}
    train = set()
    with open(models / "real_crops_split.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["split"] == "train":
                train.add(row["source_photo"])
    root = data / "camerash-mahjong-dataset" / "raw-images"
    return [root / n for n in sorted(labels) if n in train and (root / n).exists()]


def real_photo_negatives(data: Path, rng: np.random.Generator, per_photo: int = 60) -> list[np.ndarray]:
    """Negatives cut from the labelled real photos of training sets: free regions, boxes straddling
    two tiles, half tiles."""
    out: list[np.ndarray] = []
    for p in training_label_photos(data):
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            continue
        quads = _tile_quads(p)
        out += _outside_tiles(img, quads, rng, per_photo)
        out += _between_tiles(img, quads, rng)
    return out


def _on_tile_fraction(quad: np.ndarray, tiles: list[np.ndarray], shape) -> float:
    """The fraction of ``quad``'s area covered by the union of the ``tiles`` quads."""
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int)
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    own = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(own, np.round(quad - [x0, y0]).astype(np.int32), 1)
    on = np.zeros_like(own)
    for t in tiles:
        cv2.fillConvexPoly(on, np.round(t - [x0, y0]).astype(np.int32), 1)
    area = int(own.sum())
    return float((own & on).sum()) / area if area else 1.0


def phone_scene_negatives(
    n_scenes: int = 60,
    seed0: int = PHONE_SEED0,
    kinds: Sequence[str] | None = None,
    drawers: Sequence[clutter.Drawer] | None = None,
    n_clutter: int | None = None,
) -> list[np.ndarray]:
    """The finders' proposals off every tile, whole or partly shown (:data:`OFF_TILE`), on
    ``n_scenes`` phone-like scenes (seeds ``seed0`` on, never the benchmark's), as crops. The scenes
    take turns over ``kinds`` (default: every kind of :data:`training.phone_scenes.KINDS`);
    ``drawers`` and ``n_clutter`` choose their clutter (:func:`training.phone_scenes.make_phone_scene`).
    Real tables are cut only from the training part of the background photos
    (:func:`is_heldout_background`)."""
    from training import backgrounds
    from training.phone_scenes import KINDS, make_phone_scene
    from vision.finders import find_candidates

    kinds = kinds or KINDS
    tables = [b for b in backgrounds.ensure_backgrounds() if not is_heldout_background(background_name(b))]
    out: list[np.ndarray] = []
    for i in range(n_scenes):
        rng = np.random.default_rng(seed0 + i)
        size = (1600, 1200) if i % 2 else (1200, 1600)
        sc = make_phone_scene(
            rng, kinds[i % len(kinds)], size=size, tables=tables, drawers=drawers, n_clutter=n_clutter
        )
        # a find on a partly shown tile (under another, cut by the edge) is not a clean negative
        tiles = [np.asarray(q, np.float32) for q in [t["quad"] for t in sc.tiles] + sc.partial]
        for finder in ("learned", "classical"):
            try:
                cands = find_candidates(sc.image, finder=finder)
            except Exception:
                continue
            for cd in cands:
                if _on_tile_fraction(np.asarray(cd.quad, np.float32), tiles, sc.image.shape) > OFF_TILE:
                    continue
                for _rot, crop in cd.crops[:2]:
                    out.append(cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA))
    return out


def draw_print_beside_tiles(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """A printed page or a score sheet (:func:`training.clutter.draw_print`) whose print is drawn
    for tiles :data:`PRINT_UNIT` times the hand's: score-sheet cells and words from a third of a
    tile to a tile and a half, the sizes a finder looking at the hand cuts as tiles."""
    return clutter.draw_print(canvas, c, angle, unit * float(rng.uniform(*PRINT_UNIT)), rng)


def print_scene_negatives(n_scenes: int = PRINT_SCENES, seed0: int = PRINT_SEED0) -> list[np.ndarray]:
    """The finders' proposals on printed pages and score sheets lying beside a hand (one to three on
    each of ``n_scenes`` scenes of the ``clutter`` kind, :func:`draw_print_beside_tiles`): the
    finder looks at the tiles' size there, so the cells and words it cuts are crops of the size and
    shape of a tile, as at a table where the score is kept on paper."""
    return phone_scene_negatives(n_scenes, seed0, kinds=("clutter",), drawers=(draw_print_beside_tiles,))


# ---------------------------------------------------------------------------------------------
# Everything together


def background_negatives(rng: np.random.Generator, random_per_photo: int = 150) -> tuple[list[np.ndarray], dict]:
    """Negatives from the training part of the background photos (finder false finds and random
    tile-shaped crops, also of the photo at half size); returns the crops and ``{name: licence}``."""
    out: list[np.ndarray] = []
    used = {}
    for name, licence, img in background_photos(heldout=False):
        used[name] = licence
        out += finder_false_finds(img)
        out += random_tile_crops(img, rng, random_per_photo)
    return out, used


def finder_id() -> str:
    """The tile finder network that mines the false finds: its runtime file's name and the first 12
    hex digits of its SHA-256 (``"none"`` when no learned finder ships). A new finder makes other
    false finds, so the pool is mined again for it."""
    from vision.onnx_model import available, runtime_file

    if not available("tile_segmenter"):
        return "none"
    path = runtime_file("tile_segmenter")
    return f"{path.name} {hashlib.sha256(path.read_bytes()).hexdigest()[:12]}"


def build_pool(data: Path, seed: int = 11, synthetic: int = 3000, faces: dict | None = None) -> tuple[np.ndarray, dict]:
    """All negatives (``N x 128 x 96 x 3`` uint8) and a record of how many came from each source
    (with the background photos' licences)."""
    from training import negative_crops

    rng = np.random.default_rng(seed)
    bg, used = background_negatives(rng)
    real = real_photo_negatives(data, rng)
    phone = phone_scene_negatives()
    printed = print_scene_negatives()
    syn = negative_crops.synthetic_negatives(rng, synthetic, faces)
    crops = [c for c in bg + real + phone + printed + syn if not is_blank(c)]
    record = {
        "finder": finder_id(),
        "background_photos": used,
        "background_crops": len(bg),
        "real_photo_crops": len(real),
        "real_photos": [p.name for p in training_label_photos(data)],
        "phone_scene_crops": len(phone),
        "phone_scene_seeds": f"{PHONE_SEED0}..{PHONE_SEED0 + 59} (training.phone_scenes, every kind)",
        "print_scene_crops": len(printed),
        "print_scene_seeds": (
            f"{PRINT_SEED0}..{PRINT_SEED0 + PRINT_SCENES - 1} (training.phone_scenes 'clutter' kind, printed pages"
            f" and score sheets beside the hand, print for tiles {PRINT_UNIT[0]}-{PRINT_UNIT[1]} x the hand's)"
        ),
        "synthetic_crops": len(syn),
        "blank_crops_left_out": len(bg) + len(real) + len(phone) + len(printed) + len(syn) - len(crops),
    }
    pool = np.stack(crops) if crops else np.zeros((0, CROP_H, CROP_W, 3), np.uint8)
    return pool, record


#: a crop this even (grey-level standard deviation) is left out: it could be a blank white dragon
BLANK_STD = 8.0


def is_blank(crop: np.ndarray) -> bool:
    """Whether ``crop`` is nearly featureless; such crops are not used as negatives, since a
    tightly cut blank white dragon looks the same."""
    return float(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).std()) < BLANK_STD


__all__ = [
    "background_photos",
    "build_pool",
    "finder_false_finds",
    "finder_id",
    "is_heldout_background",
    "phone_scene_negatives",
    "print_scene_negatives",
    "random_tile_crops",
    "real_photo_negatives",
]
