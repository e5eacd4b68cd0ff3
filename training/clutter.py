"""Synthetic things that are not one tile, drawn for the classifier's ``none`` class.

Each drawer paints a ``128 x 96`` BGR crop (the size :mod:`training.negatives` works at) of
something a tile finder may propose on a real table: two tiles cut between them (a box straddling a
seam), half a tile, white/ivory paper and window frames, a rack edge, keyboard keys with letters,
dice, coins, scoring sticks, cloth patterns. The white/ivory things are deliberately *not* tile
shaped inside the crop (they run off its edges, carry lines of print, or sit small within it): a
blank tile face filling the crop is a white dragon, not a negative.
"""

from __future__ import annotations

import string
from collections.abc import Callable

import cv2
import numpy as np

from training import render

W, H = 96, 128


def _colour(rng: np.random.Generator, light: bool | None = None) -> tuple[float, ...]:
    """A random BGR colour: any (``light`` None), light (paper, ivory) or dark."""
    if light is None:
        return tuple(float(v) for v in rng.uniform(0, 255, 3))
    if light:
        base = rng.uniform(200, 250)
        return tuple(float(base - v) for v in rng.uniform(0, 25, 3))
    return tuple(float(v) for v in rng.uniform(10, 120, 3))


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


def _paper(rng: np.random.Generator) -> np.ndarray:
    """White/ivory paper or a window frame running off the crop, with print lines or bars."""
    img = _table(rng)
    col = _colour(rng, light=True)
    x0, y0 = rng.integers(-W, W // 2), rng.integers(-H, H // 2)
    x1, y1 = x0 + rng.integers(W, 3 * W), y0 + rng.integers(H, 3 * H)
    cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), col, -1)
    kind = rng.random()
    if kind < 0.45:  # print
        for y in range(int(rng.integers(4, 14)), H, int(rng.integers(8, 16))):
            xs = int(rng.integers(0, 20))
            cv2.line(img, (xs, y), (xs + int(rng.integers(20, W)), y), _colour(rng, light=False), 1 + (y % 2))
    elif kind < 0.75:  # window frame: bright sash bars with a darker pane
        pane = tuple(float(v) for v in rng.uniform(60, 200, 3))
        cv2.rectangle(img, (int(rng.integers(8, 30)), int(rng.integers(8, 30))), (W + 10, H + 10), pane, -1)
    return img


def _rack(rng: np.random.Generator) -> np.ndarray:
    """A long light rack edge or stick across the crop."""
    img = _table(rng)
    col = _colour(rng, light=rng.random() < 0.7)
    thick = int(rng.integers(10, 50))
    y = int(rng.integers(0, H))
    pts = np.array([[-20, y], [W + 20, y + int(rng.integers(-30, 30))]])
    cv2.line(img, tuple(int(v) for v in pts[0]), tuple(int(v) for v in pts[1]), col, thick)
    return img


def _keys(rng: np.random.Generator) -> np.ndarray:
    """Keyboard keys with letters, one to four in view."""
    dark = rng.random() < 0.5
    img = np.clip(np.full((H, W, 3), 30 if dark else 190) + rng.normal(0, 4, (H, W, 3)), 0, 255).astype(np.uint8)
    key = int(rng.integers(40, 110))
    ox, oy = int(rng.integers(-key, 0)), int(rng.integers(-key, 0))
    cap = _colour(rng, light=not dark)
    ink = (235, 235, 235) if dark else (30, 30, 30)
    for y in range(oy, H, key + 6):
        for x in range(ox, W, key + 6):
            cv2.rectangle(img, (x + 3, y + 3), (x + key - 3, y + key - 3), cap, -1)
            ch = string.ascii_uppercase[rng.integers(26)] if rng.random() < 0.8 else str(rng.integers(10))
            cv2.putText(img, ch, (x + key // 5, y + key // 2), cv2.FONT_HERSHEY_SIMPLEX, key / 70, ink, 2)
    return img


def _dice(rng: np.random.Generator) -> np.ndarray:
    """One or two dice (square, rounded, pips) small within the crop."""
    img = _table(rng)
    for _ in range(int(rng.integers(1, 3))):
        s = int(rng.integers(25, 55))
        x, y = int(rng.integers(0, W - s)), int(rng.integers(0, H - s))
        cv2.rectangle(img, (x, y), (x + s, y + s), _colour(rng, light=True), -1)
        n = int(rng.integers(1, 7))
        pip = (40, 40, 200) if n in (1, 4) else (30, 30, 30)
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)]}
        spots[4] = [(0, 0), (0, 2), (2, 0), (2, 2)]
        spots[5] = spots[4] + [(1, 1)]
        spots[6] = spots[4] + [(1, 0), (1, 2)]
        for i, j in spots[n]:
            cv2.circle(img, (x + s * (1 + 2 * i) // 6, y + s * (1 + 2 * j) // 6), max(2, s // 10), pip, -1)
    return img


def _coins(rng: np.random.Generator) -> np.ndarray:
    """Metal coins (round, shaded, rims)."""
    img = _table(rng)
    for _ in range(int(rng.integers(1, 4))):
        r = int(rng.integers(15, 45))
        c = (int(rng.integers(0, W)), int(rng.integers(0, H)))
        metal: tuple[float, ...] = (rng.uniform(40, 120), rng.uniform(120, 200), rng.uniform(150, 230))
        if rng.random() < 0.5:
            metal = tuple(float(v) for v in np.full(3, rng.uniform(150, 220)))
        cv2.circle(img, c, r, metal, -1)
        cv2.circle(img, c, int(r * 0.85), tuple(0.8 * v for v in metal), 2)
    return img


def _sticks(rng: np.random.Generator) -> np.ndarray:
    """Scoring sticks: thin light bars with coloured dots."""
    img = _table(rng)
    for _ in range(int(rng.integers(1, 5))):
        y = int(rng.integers(0, H))
        ang = rng.uniform(-0.6, 0.6)
        p0 = (-10, y)
        p1 = (W + 10, int(y + (W + 20) * np.tan(ang)))
        cv2.line(img, p0, p1, _colour(rng, light=True), int(rng.integers(5, 12)))
        for t in np.linspace(0.2, 0.8, int(rng.integers(1, 6))):
            c = (int(p0[0] + t * (p1[0] - p0[0])), int(p0[1] + t * (p1[1] - p0[1])))
            cv2.circle(img, c, 2, (40, 40, 200) if rng.random() < 0.5 else (30, 30, 30), -1)
    return img


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
    "paper": (0.14, _paper),
    "rack": (0.08, _rack),
    "keys": (0.12, _keys),
    "dice": (0.07, _dice),
    "coins": (0.06, _coins),
    "sticks": (0.06, _sticks),
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
