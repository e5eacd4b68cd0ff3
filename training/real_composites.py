"""Labelled real photos laid on real background photos: table (c2) of the benchmark.

The labelled real photos (``training/labels/real_photos.json``) show real tiles, but on their own
plain surfaces. A player's photo shows more: the table round the hand, a cloth, wood, sand,
leaves, a brick wall. Each composite here is one labelled photo (hands and catalogue rows: the
144-tile grids are left out), turned by up to :data:`MAX_TURN` degrees, scaled so its long side
is 35-65 % of the frame's, and pasted whole at a random place into a random crop of one of the
background photos the classifier never learned "not a tile" from
(:func:`training.negatives.is_heldout_background`, 14 of 51). The tile finder's synthetic
training photos drew their table planes from all 51 (under synthetic tiles), so for the finder
these are known surfaces under real tiles it never saw. Seeds are fixed, so every run builds the
same JPEGs; the labels of the pasted photo are the labels of the composite.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training import backgrounds
from training.negatives import background_name, is_heldout_background

#: the largest turn of a pasted photo, degrees either way
MAX_TURN = 35.0
#: the pasted photo's long side (after the turn), as a share of the frame's long side
SHARE = (0.35, 0.65)
#: labelled photos with more tiles than this (the 144-tile grids) are not pasted
MAX_TILES = 40
#: frame sizes, landscape and portrait
SIZES = ((2000, 1500), (1500, 2000))
JPEG_QUALITY = 88


@dataclass(frozen=True)
class Composite:
    name: str  # "<photo> on <background>"
    photo: str  # the labelled photo's file name
    jpeg: bytes
    labels: list[str]


def paste(
    photo: np.ndarray, background: np.ndarray, rng: np.random.Generator, share: tuple[float, float] = SHARE
) -> np.ndarray:
    """``photo`` turned, scaled (its long side ``share`` of the frame's, :data:`SHARE`) and pasted
    whole into ``background`` (both BGR uint8); the background's size is the result's."""
    H, W = background.shape[:2]
    ph, pw = photo.shape[:2]
    angle = float(rng.uniform(-MAX_TURN, MAX_TURN))
    c, s = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    bw, bh = pw * c + ph * s, pw * s + ph * c  # the turned photo's bounding box
    scale = float(rng.uniform(*share)) * max(W, H) / max(bw, bh)
    scale = min(scale, 0.95 * W / bw, 0.95 * H / bh)
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, scale)
    cx = rng.uniform(scale * bw / 2, W - scale * bw / 2)
    cy = rng.uniform(scale * bh / 2, H - scale * bh / 2)
    m[:, 2] += [cx - pw / 2, cy - ph / 2]
    warped = cv2.warpAffine(photo, m, (W, H), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    inside = cv2.warpAffine(np.full((ph, pw), 255, np.uint8), m, (W, H))
    return np.where(inside[..., None] > 127, warped, background)


def composites(
    labelled: Iterator[tuple[str, Path, list[str]]],
    per_photo: int,
    seed0: int = 11000,
    share: tuple[float, float] = SHARE,
    sizes: tuple[tuple[int, int], ...] = SIZES,
) -> list[Composite]:
    """``per_photo`` composites of every labelled photo (name, path, labels) with at most
    :data:`MAX_TILES` tiles, on the backgrounds the classifier's negatives leave out (none when
    their cache is not built); the pasted photo's long side ``share`` of a frame of one of
    ``sizes`` (the first, or 40 % of the time the second)."""
    held = [b for b in backgrounds.load_manifest() if is_heldout_background(background_name(b))]
    if not held:
        return []

    def table(rng: np.random.Generator) -> tuple[np.ndarray, str]:
        size = sizes[int(rng.random() < 0.4) % len(sizes)]
        b = held[int(rng.integers(len(held)))]
        return backgrounds.random_crop(backgrounds.read_background(b), size, rng), background_name(b)

    return _each_pasted(labelled, per_photo, seed0, table, share)


def _each_pasted(
    labelled: Iterator[tuple[str, Path, list[str]]],
    per_photo: int,
    seed0: int,
    table: Callable[[np.random.Generator], tuple[np.ndarray, str]],
    share: tuple[float, float],
) -> list[Composite]:
    """``per_photo`` composites of every labelled photo (name, path, labels) with at most
    :data:`MAX_TILES` tiles: turned and pasted (:func:`paste`, its long side ``share`` of the
    frame's) on the frame ``table(rng)`` draws, named with it; each from its own seed, so every
    run builds the same JPEGs."""
    out: list[Composite] = []
    for i, (name, path, labels) in enumerate(sorted(labelled)):
        if len(labels) > MAX_TILES:
            continue
        photo = _read(path)
        for k in range(per_photo):
            rng = np.random.default_rng(seed0 + 100 * i + k)
            frame, where = table(rng)
            ok, buf = cv2.imencode(".jpg", paste(photo, frame, rng, share), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            out.append(Composite(f"{name} on {where}", name, buf.tobytes(), list(labels)))
    return out


#: a table (:func:`table_composites`): the frame, the band the hand is pasted into (``x0, y0, x1, y1``)
#: and its share of it, and the band the other photos are pasted into, side by side
TABLE_SIZE = (2000, 1500)
TABLE_HAND_BAND = (200, 850, 1800, 1500)
TABLE_HAND_SHARE = (0.85, 0.95)
TABLE_OTHER_BAND = (0, 60, 2000, 760)
#: ... the other photos' share of their part of that band: of a part over 900 px wide (two
#: photos), or narrower (three)
TABLE_OTHER_SHARE = ((0.55, 0.85), (0.75, 0.95))
#: a hand has at most this many tiles (the rows and small grids of the labelled photos)
TABLE_HAND_MAX = 20


def table_hand(name: str) -> str:
    """The labelled photo pasted as the hand in the table composite named ``name``
    (:func:`table_composites`: the hand's photo first, then ``+`` and the others)."""
    return name.split(" + ")[0]


def table_composites(
    labelled: Iterator[tuple[str, Path, list[str]]], n: int, trained: frozenset[str] = frozenset(), seed0: int = 14000
) -> list[Composite]:
    """``n`` photos of a table: one labelled photo of at most :data:`TABLE_HAND_MAX` tiles pasted
    large into the lower part of a crop of a held-out real background (the hand, near the camera),
    and two or three other labelled photos of at most :data:`MAX_TILES` tiles pasted smaller above
    it, side by side (other players' tiles and discards, farther off: their tiles mostly a half to
    a third as wide as the hand's, some as wide). Every photo is turned by up to :data:`MAX_TURN`
    degrees. The labels are every pasted photo's; ``photo`` names a pasted photo of ``trained``
    (those the classifier saw crops of) where there is one, so that the benchmark counts the
    composite as seen in training, else the hand's. Hands take turns in name order; seeds are
    fixed."""
    held = [b for b in backgrounds.load_manifest() if is_heldout_background(background_name(b))]
    every = [(name, path, labels) for name, path, labels in sorted(labelled) if len(labels) <= MAX_TILES]
    hands = [x for x in every if len(x[2]) <= TABLE_HAND_MAX]
    if not held or not hands:
        return []
    out: list[Composite] = []
    for k in range(n):
        rng = np.random.default_rng(seed0 + k)
        name, path, labels = hands[k % len(hands)]
        b = held[int(rng.integers(len(held)))]
        frame = backgrounds.random_crop(backgrounds.read_background(b), TABLE_SIZE, rng)
        x0, y0, x1, y1 = TABLE_HAND_BAND
        frame[y0:y1, x0:x1] = paste(_read(path), frame[y0:y1, x0:x1].copy(), rng, TABLE_HAND_SHARE)
        pasted, all_labels = [name], list(labels)
        x0, y0, x1, y1 = TABLE_OTHER_BAND
        m = int(rng.integers(2, 4))
        xs = np.linspace(x0, x1, m + 1).astype(int)
        pool = [x for x in every if x[0] != name]
        for j in range(m if pool else 0):
            other, other_path, other_labels = pool[int(rng.integers(len(pool)))]
            share = TABLE_OTHER_SHARE[0] if xs[j + 1] - xs[j] > 900 else TABLE_OTHER_SHARE[1]
            part = frame[y0:y1, xs[j] : xs[j + 1]]
            frame[y0:y1, xs[j] : xs[j + 1]] = paste(_read(other_path), part.copy(), rng, share)
            pasted.append(other)
            all_labels += other_labels
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        seen = next((p for p in pasted if p in trained), name)
        out.append(
            Composite(f"{name} + {', '.join(pasted[1:])} on {background_name(b)}", seen, buf.tobytes(), all_labels)
        )
    return out


#: the pale plain tables of :func:`pale_composites` (BGR): white, light grey, a cooler grey, cream
PALE_TABLES = ((250, 250, 250), (236, 236, 236), (224, 226, 228), (212, 228, 238))
#: a pale-table composite's frame (landscape)
PALE_SIZE = (1600, 1200)
#: ... and the pasted photo's long side as a share of the frame's: a hand near the camera or farther
PALE_SHARE = (0.35, 0.8)


def pale_table(rng: np.random.Generator, size: tuple[int, int] = PALE_SIZE) -> np.ndarray:
    """A pale plain table filling a frame of ``size`` (width, height; BGR uint8): one of
    :data:`PALE_TABLES` with a little sensor noise and slow shading, as light as ivory faces or
    lighter (a white desk, a white tablecloth). Not the finder's training surfaces
    (:func:`training.scenes._pale`): no texture."""
    w, h = size
    colour = np.array(PALE_TABLES[int(rng.integers(len(PALE_TABLES)))], np.float64)
    shade = cv2.resize(rng.normal(0, 4, (12, 16)), (w, h), interpolation=cv2.INTER_CUBIC)[..., None]
    return np.clip(colour + shade + rng.normal(0, 2, (h, w, 3)), 0, 255).astype(np.uint8)


def pale_composites(
    labelled: Iterator[tuple[str, Path, list[str]]], per_photo: int, seed0: int = 31000
) -> list[Composite]:
    """``per_photo`` composites of every labelled photo (name, path, labels) with at most
    :data:`MAX_TILES` tiles, each turned and pasted (:func:`paste`, its long side
    :data:`PALE_SHARE` of the frame's) on a pale plain table (:func:`pale_table`): the benchmark's
    (c10), seen from a seat there. Needs no background cache; seeds are fixed."""
    return _each_pasted(labelled, per_photo, seed0, lambda rng: (pale_table(rng), "a pale table"), PALE_SHARE)


def _read(path: Path) -> np.ndarray:
    photo = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if photo is None:
        raise FileNotFoundError(f"labelled photo {path} cannot be read; check ../shared/vision-data")
    return photo
