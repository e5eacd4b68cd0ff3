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
from collections.abc import Iterator
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
    out: list[Composite] = []
    if not held:
        return out
    for i, (name, path, labels) in enumerate(sorted(labelled)):
        if len(labels) > MAX_TILES:
            continue
        photo = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if photo is None:
            raise FileNotFoundError(f"labelled photo {path} cannot be read; check ../shared/vision-data")
        for k in range(per_photo):
            rng = np.random.default_rng(seed0 + 100 * i + k)
            size = sizes[int(rng.random() < 0.4) % len(sizes)]
            b = held[int(rng.integers(len(held)))]
            frame = paste(photo, backgrounds.random_crop(backgrounds.read_background(b), size, rng), rng, share)
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            out.append(Composite(f"{name} on {background_name(b)}", name, buf.tobytes(), list(labels)))
    return out
