"""Arrange detected tiles into rows and gap-separated groups, in reading order.

Input: each tile's *footprint* quadrilateral (the tile as it lies, corners clockwise from the
top-left as seen in the photo, image-up being up). The rows' direction (:func:`row_angle`) is the
mean direction of the footprints' top edges, unless the photo is turned so far that the top edges
stop saying it (a row at 45 degrees, or past it, or upright boxes around turned tiles); then the
direction from each tile to its nearest neighbour tells. Tiles of a photo taken from a seat, seen
from straight above again, are arranged along their nearest neighbours where those agree
(:func:`along_neighbours`). Tile footprints are rotated into that frame, then

* rows: tiles whose extents across the row overlap clearly belong to one row (greedy over the
  sorted centres), rows are read top to bottom;
* groups: within a row tiles are read along the row (left to right in the photo), and a gap wider
  than ``gap_ratio`` times the local tile width starts a new group (touching tiles, or nearly
  touching, stay together).

A photo of a table can show tiles lying several ways: the hand along the near edge, another
player's melds along theirs, discards turned every way, each pile turned as its own. So the tiles
are first put into *clusters*, tiles lying together (:func:`clusters`), and where clusters of
:data:`CLUSTER_MIN` tiles or more run :data:`FRAME_TURN` or more apart, each is laid out in rows
along its own direction (:func:`frames`); a smaller cluster goes with the nearest larger one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import median
from typing import NamedTuple

import numpy as np

#: the top edges are trusted while their mean lies this close (radians) to a photo axis
AXIS_TOLERANCE = math.radians(15)
#: below this agreement (0-1, the resultant of the doubled angles) a set of directions says nothing
MIN_AGREEMENT = 0.7
#: two tiles lie together (one cluster: :func:`clusters`) when their centres lie within this many
#: tile sizes (the larger tile's square root of its area) of each other: tiles side by side in a row
#: lie 0.9 apart, rows stacked in a grid 1.2, a meld set a tile's width apart from the hand 1.7
CLUSTER_REACH = 1.5
#: a cluster of at least this many tiles (a meld) measures the direction its rows run in
CLUSTER_MIN = 3
#: clusters whose rows run at least this far apart (radians) are laid out each along its own
#: direction (:func:`frames`): further than the rows of one set of tiles on a table stray
FRAME_TURN = math.radians(10)


class Extents(NamedTuple):
    """Each footprint's extent along the row (``x0``-``x1``) and across it (``y0``-``y1``)."""

    x0: np.ndarray
    x1: np.ndarray
    y0: np.ndarray
    y1: np.ndarray


def _mean_direction(angles: np.ndarray) -> tuple[float, float]:
    """Mean of directions taken modulo 180 degrees, and how well they agree (0-1)."""
    c, s = float(np.cos(2 * angles).mean()), float(np.sin(2 * angles).mean())
    return 0.5 * math.atan2(s, c), math.hypot(c, s)


def _edge_direction(q: np.ndarray) -> tuple[float, float]:
    """Mean direction of the footprints' top edges and their agreement."""
    v = q[:, 1] - q[:, 0]
    return _mean_direction(np.arctan2(v[:, 1], v[:, 0]))


def _neighbour_direction(q: np.ndarray) -> tuple[float, float]:
    """Mean direction from each tile's centre to its nearest neighbour's, and their agreement
    (in a row, a tile's nearest neighbour lies along the row, whatever the photo's angle)."""
    if len(q) < 3:
        return 0.0, 0.0
    c = q.mean(1)
    d = c[None, :, :] - c[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    v = d[np.arange(len(q)), dist.argmin(1)]
    return _mean_direction(np.arctan2(v[:, 1], v[:, 0]))


def _off_axis(theta: float) -> float:
    """How far (radians) a direction lies from the nearest photo axis."""
    r = abs(theta) % (math.pi / 2)
    return min(r, math.pi / 2 - r)


def _turned(theta: float, other: float) -> float:
    """The angle (radians, 0 to 90 degrees) between two directions taken modulo 180 degrees."""
    d = abs(theta - other) % math.pi
    return min(d, math.pi - d)


def extents(quads, theta: float) -> Extents:
    """The footprints' extents in the frame whose x axis runs along ``theta`` (radians)."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    c, s = math.cos(-theta), math.sin(-theta)
    p = q @ np.array([[c, -s], [s, c]]).T
    return Extents(p[:, :, 0].min(1), p[:, :, 0].max(1), p[:, :, 1].min(1), p[:, :, 1].max(1))


def row_angle(quads) -> float:
    """The direction (radians, -90 to 90 degrees from the photo's x axis) the rows run in.

    The footprints' top edges say it while they agree and lie near a photo axis (every photo taken
    square to the table), unless the tiles' nearest neighbours agree on a turned line that lays the
    tiles in fewer rows (upright boxes drawn around turned tiles). A turned photo is checked against
    the nearest neighbours: when the top edges disagree (tiles near 45 degrees flip between their
    two edges) the neighbours decide; when the two directions cross (a row past 45 degrees, whose
    tiles' "top" edges are their sides) the one that lays the tiles in fewer rows wins."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    edge, edge_agreement = _edge_direction(q)
    near, near_agreement = _neighbour_direction(q)
    if edge_agreement >= MIN_AGREEMENT and _off_axis(edge) <= AXIS_TOLERANCE:
        # square to the photo, unless upright boxes stand around tiles along a turned line
        turned_line = near_agreement >= MIN_AGREEMENT and _off_axis(near) > AXIS_TOLERANCE
        return near if turned_line and _fewer_rows(q, near, edge) else edge
    if near_agreement < 0.5:
        return edge
    if edge_agreement < MIN_AGREEMENT:
        # the top edges say nothing: the neighbours do, unless they lie square to the photo too
        return edge if _off_axis(near) <= AXIS_TOLERANCE else near
    if _turned(edge, near) <= AXIS_TOLERANCE:
        return edge
    return near if _fewer_rows(q, near, edge) else edge


def _fewer_rows(q: np.ndarray, theta: float, other: float) -> bool:
    """Whether the frame along ``theta`` lays the tiles in fewer rows than the one along ``other``."""
    return len(_rows(extents(q, theta), 0.35)) < len(_rows(extents(q, other), 0.35))


def _rows(e: Extents, row_overlap: float) -> list[list[int]]:
    """Tiles into rows: greedy over the tiles sorted by centre (across the row); a tile joins the
    row whose band it overlaps most, by more than ``row_overlap`` of the smaller extent. Rows are
    sorted top to bottom."""
    hgt = e.y1 - e.y0
    cy = (e.y0 + e.y1) / 2
    y0, y1 = e.y0.tolist(), e.y1.tolist()
    rows: list[list[int]] = []
    spans: list[list[float]] = []
    for i in np.argsort(cy):
        best, best_ov = None, 0.0
        for r, (a, b) in enumerate(spans):
            ov = min(b, e.y1[i]) - max(a, e.y0[i])
            frac = ov / max(1e-6, min(hgt[i], b - a))
            if frac > row_overlap and frac > best_ov:
                best, best_ov = r, frac
        if best is None:
            rows.append([int(i)])
            spans.append([float(e.y0[i]), float(e.y1[i])])
        else:
            rows[best].append(int(i))
            # keep the span as the median band, so a tall outlier does not swallow the next row
            # (statistics.median: the same value as numpy's, a tenth of its cost on a short list)
            spans[best] = [median(y0[j] for j in rows[best]), median(y1[j] for j in rows[best])]
    rows.sort(key=lambda r: float(np.median(cy[r])))
    return rows


def along_neighbours(quads) -> float:
    """The direction the rows run (radians) for footprints seen from straight above with their
    rows across the photo (:func:`vision.recognize._arrange` on a photo taken from a seat, seen so
    again): the nearest neighbours' direction, where they agree (:data:`MIN_AGREEMENT`) and lie
    within :data:`AXIS_TOLERANCE` of the top edges'; else :func:`row_angle`. Seen from above, a
    face is taller than wide, so its nearest neighbour lies along its row; the finder's rectangle
    round a face still a little sheared (a row turned on the table, taken for a turned phone) is
    turned off the row, and a grid's rows then ran into each other."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    edge, _ = _edge_direction(q)
    near, near_agreement = _neighbour_direction(q)
    if near_agreement >= MIN_AGREEMENT and _turned(near, edge) <= AXIS_TOLERANCE:
        return near
    return row_angle(q)


def clusters(quads) -> np.ndarray:
    """A cluster label per footprint (0, 1, ... in the order first met): tiles linked, directly or
    through others, by centres within :data:`CLUSTER_REACH` tile sizes of each other."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    centres = q.mean(1)
    d1, d2 = q[:, 2] - q[:, 0], q[:, 3] - q[:, 1]
    size = np.sqrt(np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / 2)
    return linked_labels(centres, size, CLUSTER_REACH)


def linked_labels(centres: np.ndarray, sizes: np.ndarray, reach: float) -> np.ndarray:
    """A label per item (0, 1, ... in the order first met) of items at ``centres`` (n x 2) of
    ``sizes`` (n): items linked, directly or through others, by centres within ``reach`` times the
    larger of two items' sizes of each other share one."""
    gap = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1))
    linked = gap <= reach * np.maximum(sizes[:, None], sizes[None])
    label = np.full(len(linked), -1)
    for start in range(len(linked)):
        if label[start] >= 0:
            continue
        label[start] = k = int(label.max()) + 1
        todo = [start]
        while todo:
            more = np.flatnonzero(linked[todo.pop()] & (label < 0))
            label[more] = k
            todo.extend(more.tolist())
    return label


def frames(quads, direction: Callable[[np.ndarray], float] = row_angle) -> list[tuple[np.ndarray, float]]:
    """The footprints split by the way their rows run: ``(indices, direction)`` per frame,
    ``direction(quads)`` (:func:`row_angle`, or :func:`along_neighbours` for a photo seen from
    straight above again) measured on the frame's footprints.

    One frame, all the footprints, unless :func:`clusters` of :data:`CLUSTER_MIN` tiles or more
    run :data:`FRAME_TURN` or more apart: then the clusters, largest first, each join the first
    frame whose first cluster runs within :data:`FRAME_TURN` of theirs, else start one, and every
    smaller cluster joins the frame of the tile nearest it. Laid out along one direction, a hand
    turned 20 degrees from a discard grid beside it came out in three rows, its end read as an
    indicator."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if len(q) < 2 * CLUSTER_MIN:
        return [(np.arange(len(q)), direction(q))]
    label = clusters(q)
    counts = np.bincount(label)
    large = [k for k in np.argsort(-counts, kind="stable") if counts[k] >= CLUSTER_MIN]
    firsts: list[float] = []  # (each frame's first cluster's direction)
    frame_of = np.full(len(q), -1)
    for k in large:
        theta = direction(q[label == k])
        f = next((j for j, t in enumerate(firsts) if _turned(theta, t) < FRAME_TURN), len(firsts))
        if f == len(firsts):
            firsts.append(theta)
        frame_of[label == k] = f
    if len(firsts) < 2:
        return [(np.arange(len(q)), direction(q))]
    centres = q.mean(1)
    placed = np.flatnonzero(frame_of >= 0)
    for k in np.flatnonzero(counts < CLUSTER_MIN):
        members = np.flatnonzero(label == k)
        gap = np.hypot(*(centres[placed][:, None] - centres[members][None]).transpose(2, 0, 1))
        frame_of[members] = frame_of[placed[int(gap.min(1).argmin())]]
    return [(idx, direction(q[idx])) for idx in (np.flatnonzero(frame_of == f) for f in range(len(firsts)))]


def arrange(
    quads,
    *,
    gap_ratio: float = 0.22,
    row_overlap: float = 0.35,
    rows_run: float | None = None,
    direction: Callable[[np.ndarray], float] = row_angle,
):
    """Reading order of tiles.

    Returns ``(order, rows, groups)``: ``order`` the tile indices in reading order, and per input
    tile its row index and global group index (both numbered in reading order). ``rows_run``: the
    direction the rows run (radians), when known, for every tile; else each of :func:`frames`'
    own, measured by ``direction``. Rows are read top to bottom: in one frame as they lie across
    its rows, in several by their tiles' median height in the photo.
    """
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    n = len(q)
    if n == 0:
        return [], [], []
    split = [(np.arange(n), rows_run)] if rows_run is not None else frames(q, direction)
    x0, x1, y0, y1 = (np.zeros(n) for _ in range(4))
    rows: list[list[int]] = []
    for idx, theta in split:
        e = extents(q[idx], theta)
        x0[idx], x1[idx], y0[idx], y1[idx] = e
        rows += [[int(idx[i]) for i in row] for row in _rows(e, row_overlap)]
    if len(split) > 1:
        height = q.mean(1)[:, 1]
        rows.sort(key=lambda row: float(np.median(height[row])))
    wid, hgt = x1 - x0, y1 - y0
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
