"""Synthetic crops of things that are not one tile, for the classifier's ``none`` class.

Each drawer paints a ``128 x 96`` BGR crop (the size :mod:`training.negatives` works at) of
something a tile finder may propose on a real table: two tiles cut between them (a box straddling a
seam), half a tile, white/ivory paper and window frames, printed pages and score sheets, a rack edge, keyboard keys with letters,
dice, coins, scoring sticks, cloth patterns. The white/ivory things are deliberately *not* tile
shaped inside the crop (they run off its edges, carry lines of print, or sit small within it): a
blank tile face filling the crop is a white dragon, not a negative.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from training import clutter, render

W, H = 96, 128


def _colour(rng: np.random.Generator) -> tuple[float, ...]:
    """A random BGR colour."""
    return tuple(float(v) for v in rng.uniform(0, 255, 3))


def _table(rng: np.random.Generator) -> np.ndarray:
    return np.clip(render._background(rng, H, W), 0, 255).astype(np.uint8)


def _tile_pair(faces: dict | None, rng: np.random.Generator) -> np.ndarray:
    """Two rendered tiles touching, side by side or stacked, cut 30-70 % of the way between them."""
    from training.train_classifier import sample_face

    codes = sorted(faces) if faces else ["5z"]

    def one() -> np.ndarray:
        face = sample_face(codes[rng.integers(len(codes))], faces, rng) if faces else None
        return render.render_tile(face, rng, (W, H), augment=False)

    a, b = one(), one()
    t = rng.uniform(0.3, 0.7)
    if rng.random() < 0.65:
        both = np.hstack([a, b])
        x = int(t * W)
        return both[:, x : x + W].copy()
    both = np.vstack([a, b])
    y = int(t * H)
    return both[y : y + H].copy()


def _half_tile(faces: dict | None, rng: np.random.Generator) -> np.ndarray:
    """A tile shifted half out of the crop, table beside it."""
    from training.train_classifier import sample_face

    codes = sorted(faces) if faces else ["5z"]
    face = sample_face(codes[rng.integers(len(codes))], faces, rng) if faces else None
    tile = render.render_tile(face, rng, (W, H), augment=False)
    out = _table(rng)
    f = rng.uniform(0.4, 0.6)
    if rng.random() < 0.6:
        k = int(f * W)
        if rng.random() < 0.5:
            out[:, :k] = tile[:, W - k :]
        else:
            out[:, W - k :] = tile[:, :k]
    else:
        k = int(f * H)
        out[:k] = tile[H - k :]
    return out


def _object(draw: clutter.Drawer, unit_range: tuple[float, float]) -> Callable[[np.random.Generator], np.ndarray]:
    """A crop of one of the scene clutter objects (:mod:`training.clutter`: the same paper, keyboards,
    dice, coins, scoring sticks and rack edges the finder's phone-like photos hold), drawn on a
    table top at a size (``unit``: the tile height, in crop heights) and place that make it run off
    the crop or sit small within it, never fill it like a tile face."""

    def crop(rng: np.random.Generator) -> np.ndarray:
        img = _table(rng).astype(np.float32)
        unit = H * rng.uniform(*unit_range)
        centre = (float(rng.uniform(-0.25, 1.25) * W), float(rng.uniform(-0.25, 1.25) * H))
        draw(img, centre, float(rng.uniform(0, 180)), unit, rng)
        return img

    return crop


def _cloth(rng: np.random.Generator) -> np.ndarray:
    """Cloth patterns: checks, stripes, polka dots, small flowers."""
    img = np.empty((H, W, 3), np.float32)
    img[:] = _colour(rng)
    ink = _colour(rng)
    step = int(rng.integers(6, 30))
    kind = rng.integers(4)
    for y in range(0, H + step, step):
        for x in range(0, W + step, step):
            if kind == 0 and (x // step + y // step) % 2:
                cv2.rectangle(img, (x, y), (x + step, y + step), ink, -1)
            elif kind == 1 and x == 0:
                cv2.line(img, (0, y), (W, y), ink, max(1, step // 3))
            elif kind == 2:
                cv2.circle(img, (x, y), max(1, step // 4), ink, -1)
            elif kind == 3 and (x + y) % (2 * step) == 0:
                for k in range(5):
                    a = 2 * np.pi * k / 5
                    pc = (int(x + step * 0.3 * np.cos(a)), int(y + step * 0.3 * np.sin(a)))
                    cv2.circle(img, pc, max(1, step // 6), ink, -1)
    ang = rng.uniform(-30, 30)
    M = cv2.getRotationMatrix2D((W / 2, H / 2), ang, 1.0)
    return cv2.warpAffine(img, M, (W, H), borderMode=cv2.BORDER_REFLECT)


DRAWERS: dict[str, tuple[float, Callable]] = {
    "tile_pair": (0.25, _tile_pair),
    "half_tile": (0.12, _half_tile),
    "paper": (0.14, _object(clutter.draw_paper, (0.4, 1.0))),
    "print": (0.12, _object(clutter.draw_print, (0.4, 2.0))),
    "rack": (0.08, _object(clutter.draw_rack_edge, (0.6, 1.5))),
    "keys": (0.12, _object(clutter.draw_keyboard, (0.8, 2.0))),
    "dice": (0.07, _object(clutter.draw_dice, (0.8, 1.6))),
    "coins": (0.06, _object(clutter.draw_coins, (0.8, 1.6))),
    "sticks": (0.06, _object(clutter.draw_sticks, (0.6, 1.4))),
    "cloth": (0.10, _cloth),
}


def synthetic_negatives(rng: np.random.Generator, n: int, faces: dict | None = None) -> list[np.ndarray]:
    """``n`` synthetic negatives, drawn by kind with the weights of :data:`DRAWERS`; ``faces``
    (:func:`training.artwork.by_class_style`) for the tiles in tile pairs and half tiles (blank
    faces without it). Lighting and camera degradation are added."""
    names = list(DRAWERS)
    weights = np.array([DRAWERS[k][0] for k in names])
    out = []
    for _ in range(n):
        kind = names[rng.choice(len(names), p=weights / weights.sum())]
        fn = DRAWERS[kind][1]
        img = fn(faces, rng) if kind in ("tile_pair", "half_tile") else fn(rng)
        img = render._lighting(np.asarray(img, np.float32), rng, 0.7)
        out.append(render.degrade(np.clip(img, 0, 255).astype(np.uint8), rng))
    return out
