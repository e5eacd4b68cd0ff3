"""Arrange detected tiles into rows and gap-separated groups, in reading order.

Input: each tile's *footprint* quadrilateral (the tile as it lies, corners clockwise from the
top-left as seen in the photo, image-up being up). The dominant row direction is the median
direction of the footprints' top edges; tile centres are rotated into that frame, then

* rows: tiles whose vertical extents overlap clearly belong to one row (single linkage on the
  sorted centres), rows are read top to bottom;
* groups: within a row tiles are read left to right, and a gap wider than ``gap_ratio`` times the
  local tile width starts a new group (touching tiles, or nearly touching, stay together).
"""

from __future__ import annotations

import math

import numpy as np


def _frame(quads: np.ndarray) -> float:
    """Dominant row angle (radians) from the footprints' top edges."""
    v = quads[:, 1] - quads[:, 0]
    ang = np.arctan2(v[:, 1], v[:, 0])
    # average on the doubled-angle circle (direction modulo 180 degrees)
    c, s = np.cos(2 * ang).mean(), np.sin(2 * ang).mean()
    return 0.5 * math.atan2(s, c)


def arrange(quads, *, gap_ratio: float = 0.22, row_overlap: float = 0.35):
    """Reading order of tiles.

    Returns ``(order, rows, groups)``: ``order`` the tile indices in reading order, and per input
    tile its row index and global group index (both numbered in reading order).
    """
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    n = len(q)
    if n == 0:
        return [], [], []
    theta = _frame(q)
    c, s = math.cos(-theta), math.sin(-theta)
    R = np.array([[c, -s], [s, c]])
    p = q @ R.T  # rotate so rows run along +x
    x0, x1 = p[:, :, 0].min(1), p[:, :, 0].max(1)
    y0, y1 = p[:, :, 1].min(1), p[:, :, 1].max(1)
    hgt = y1 - y0
    wid = x1 - x0
    cy = (y0 + y1) / 2
    # rows: greedy over tiles sorted by centre y; join the row whose current y-span overlaps most
    rows: list[list[int]] = []
    spans: list[list[float]] = []
    for i in np.argsort(cy):
        best, best_ov = None, 0.0
        for r, (a, b) in enumerate(spans):
            ov = min(b, y1[i]) - max(a, y0[i])
            frac = ov / max(1e-6, min(hgt[i], b - a))
            if frac > row_overlap and frac > best_ov:
                # and the row's tiles are in the same band (median height check)
                best, best_ov = r, frac
        if best is None:
            rows.append([int(i)])
            spans.append([float(y0[i]), float(y1[i])])
        else:
            rows[best].append(int(i))
            # keep the span as the median band, so a tall outlier does not swallow the next row
            ys0 = np.median([y0[j] for j in rows[best]])
            ys1 = np.median([y1[j] for j in rows[best]])
            spans[best] = [float(ys0), float(ys1)]
    rows.sort(key=lambda r: float(np.median(cy[r])))
    order: list[int] = []
    row_of = [0] * n
    group_of = [0] * n
    g = -1
    for ri, members in enumerate(rows):
        prev = None
        for i in sorted(members, key=lambda i: (x0[i] + x1[i]) / 2):
            if prev is None:
                g += 1
            else:
                gap = x0[i] - x1[prev]
                local = min(min(wid[i], hgt[i]), min(wid[prev], hgt[prev]))
                if gap > gap_ratio * local:
                    g += 1
            row_of[i] = ri
            group_of[i] = g
            order.append(i)
            prev = i
    return order, row_of, group_of
