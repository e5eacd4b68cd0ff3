"""Probes for face-down tiles beside rows of face-up ones (the classical finder's backs).

A concealed kong shows two or four backs. The colour-and-seam finder only sees ivory faces, so
beyond each end of a row of touching upright faces, along the row's own top and bottom lines, a run
of columns that are neither face nor table colour, about a whole number (1-4) of tile widths long,
with straight ends across the row and one uniform colour, becomes that many candidates
(:func:`find_backs`). They are only probes: the recogniser keeps one only if the classifier reads it
as ``back`` with confidence, so a patch of table that happens to differ in colour is not a tile.
"""

from __future__ import annotations

import cv2
import numpy as np

from .candidate import Candidate
from .geometry import order_quad

BACK_MAX_RUN = 4  # at most a kong of backs next to a row end
BACK_COLOR_DIST = 22.0  # Lab distance (lightness half-weighted) from the table colour
STRIP_H = 40  # rectified strip height


def _lab_dist(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    d = lab - ref
    return np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _edges(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean widths (top and bottom edges) and heights (left and right edges) of quads ``q`` (Nx4x2)."""
    widths = (np.linalg.norm(q[:, 1] - q[:, 0], axis=1) + np.linalg.norm(q[:, 2] - q[:, 3], axis=1)) / 2
    heights = (np.linalg.norm(q[:, 3] - q[:, 0], axis=1) + np.linalg.norm(q[:, 2] - q[:, 1], axis=1)) / 2
    return widths, heights


def _table_ring(mask: np.ndarray, th: float) -> np.ndarray:
    """Where the table shows: a ring between about half a tile and a tile and a half from the faces."""
    k1 = max(3, int(0.5 * th) | 1)
    k2 = max(k1 + 2, int(1.5 * th) | 1)
    near = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k1, k1)))
    far = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k2, k2)))
    return (far > 0) & (near == 0)


def _anchors(cands: list[Candidate], q: np.ndarray, tw: float, th: float) -> list[np.ndarray]:
    """Tiles a row of probes may start beside: every upright face (``q``), and every lying one seen as
    an upright tile standing on its bottom edge (melds are laid on a common baseline); only tiles of
    the typical size ``tw`` x ``th`` (a fragment would set a wrong scale for its probes)."""
    widths, heights = _edges(q)
    anchors = [qq for qq, a, b in zip(q, widths, heights) if 0.7 * tw < a < 1.4 * tw and 0.75 * th < b < 1.3 * th]
    for cd in cands:
        if not cd.lying:
            continue
        f = cd.quad.astype(np.float64)
        fw = (np.linalg.norm(f[1] - f[0]) + np.linalg.norm(f[2] - f[3])) / 2
        fh = (np.linalg.norm(f[3] - f[0]) + np.linalg.norm(f[2] - f[1])) / 2
        if not (0.75 * th < fw < 1.3 * th and 0.7 * tw < fh < 1.4 * tw):
            continue
        v = (f[0] - f[3]) + (f[1] - f[2])
        nv = np.linalg.norm(v)
        if nv > 0:
            v = v / nv * th
            anchors.append(np.array([f[3] + v, f[2] + v, f[2], f[3]]))
    return anchors


def _back_run(on: np.ndarray, fcol: np.ndarray, rw: int, tw: float, px: float) -> tuple[int, int, int] | None:
    """``(start, end, n)``: the run of back columns ``on`` that begins the strip (within 1.3 tile
    widths, after stepping over face-up tiles the row goes on with: small gaps, then columns covered
    by face mask ``fcol``), and the number of tiles ``n`` (1 to :data:`BACK_MAX_RUN`) it holds; None
    when there is no such run. ``px``: strip pixels per image pixel."""
    base = 0
    while base < rw:
        j = base
        while j < rw and fcol[j] < 0.2 and not on[j]:
            j += 1
        if j - base > 0.2 * tw * px or j >= rw or on[j]:
            break
        k = j
        while k < rw and fcol[k] >= 0.2:
            k += 1
        if k - j < 0.5 * tw * px:
            break
        base = k
    start_max = base + int(1.3 * tw * px)
    idx = np.where(on[base:])[0] + base
    if idx.size == 0 or idx[0] > start_max:
        return None
    s0 = int(idx[0])
    e = s0
    gaps = 0
    while e < rw and (on[e] or gaps < 0.08 * tw * px):
        gaps = 0 if on[e] else gaps + 1
        e += 1
    e -= gaps
    run = (e - s0) / px  # image px
    n = int(round(run / tw))
    if n < 1 or n > BACK_MAX_RUN or abs(run / max(n, 1) - tw) > 0.3 * tw:
        return None
    return s0, e, n


def _straight_ends(inner: np.ndarray, s0: int, e: int, rw: int, tw: float, px: float) -> bool:
    """Whether the run ``s0:e`` of ``inner`` (back pixels) ends straight across the row, as a tile's
    sides do (a stain, a stripe of wood grain or a light patch of cloth has ragged or soft, slanted
    borders)."""
    win = max(2, int(0.3 * tw * px))
    tol = max(3.0, 0.15 * tw * px)
    for band in (
        inner[:, max(0, s0 - win) : min(rw, s0 + win)],
        inner[:, max(0, e - win) : min(rw, e + win)][:, ::-1],
    ):
        has = band.any(axis=1)
        if has.sum() < 0.8 * band.shape[0]:
            return False
        ys = np.nonzero(has)[0].astype(np.float64)
        xs = np.argmax(band, axis=1)[has].astype(np.float64)
        slope, icpt = np.polyfit(ys, xs, 1)
        res = np.abs(xs - (slope * ys + icpt))
        if abs(slope) > 0.4 or np.percentile(res, 75) > tol:
            return False
    return True


def _probe_quads(
    lab: np.ndarray,
    mask: np.ndarray,
    table: np.ndarray,
    qq: np.ndarray,
    d: int,
    units: tuple[np.ndarray, np.ndarray],
    size: tuple[float, float],
) -> list[np.ndarray]:
    """Quads of the backs beyond side ``d`` (1: right, -1: left) of anchor ``qq``, whose top and
    bottom edges run along the unit vectors ``units``: the strip along the row beyond it, rectified
    (``lab`` image, face ``mask``), searched for one uniform run of back colour (far from ``table``,
    not a face) with straight ends, cut into tiles of the typical ``size`` (width, height)."""
    ut, ub = units
    tw, th = size
    rh = STRIP_H
    L = (BACK_MAX_RUN + 3.0) * tw
    a_t, a_b = (qq[1], qq[2]) if d == 1 else (qq[0], qq[3])
    b_t, b_b = a_t + d * ut * L, a_b + d * ub * L
    rw = int(round(L / th * rh))
    src = np.array([a_t, b_t, b_b, a_b], np.float32) if d == 1 else np.array([b_t, a_t, a_b, b_b], np.float32)
    dst = np.array([[0, 0], [rw, 0], [rw, rh], [0, rh]], np.float32)
    M = cv2.getPerspectiveTransform(src, dst)
    strip = cv2.warpPerspective(
        lab,
        M,
        (rw, rh),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(float(v) for v in table),
    )
    fm = cv2.warpPerspective(mask, M, (rw, rh), flags=cv2.INTER_NEAREST)
    if d == -1:
        strip = strip[:, ::-1]
        fm = fm[:, ::-1]
    # a back pixel: far from the table's colour and not a face
    off = (_lab_dist(strip, table) > BACK_COLOR_DIST) & (fm == 0)
    inner = off[int(0.15 * rh) : int(0.85 * rh)]
    on = inner.mean(axis=0) > 0.75
    px = rw / L  # strip px per image px (along the row)
    fcol = (fm > 0)[int(0.15 * rh) : int(0.85 * rh)].mean(axis=0)
    found = _back_run(on, fcol, rw, tw, px)
    if found is None:
        return []
    s0, e, n = found
    if not _straight_ends(inner, s0, e, rw, tw, px):
        return []
    # uniform colour: a back is one flat colour, a table pattern is not
    seg = strip[int(0.15 * rh) : int(0.85 * rh), s0:e]
    if float(np.median(_lab_dist(seg, np.median(seg.reshape(-1, 3), axis=0)))) > 12:
        return []
    Minv = np.linalg.inv(M)
    step = (e - s0) / n
    quads = []
    for j in range(n):
        x0, x1 = s0 + j * step, s0 + (j + 1) * step
        if d == -1:
            x0, x1 = rw - x1, rw - x0
        pts = np.array([[x0, 0], [x1, 0], [x1, rh], [x0, rh]], np.float32).reshape(1, 4, 2)
        quads.append(cv2.perspectiveTransform(pts, Minv).reshape(4, 2))
    return quads


def find_backs(img: np.ndarray, cands: list[Candidate], mask: np.ndarray) -> list[Candidate]:
    """Back probes beside the rows of the face candidates ``cands`` found in ``img`` (face ``mask``):
    beyond each end of a row (no face candidate just beyond an anchor tile's side), see
    :func:`_probe_quads`; a probe where a candidate or an earlier probe already is, is left out. Each
    probe counts the run it came from as its ``blob_size``."""
    up = [cd for cd in cands if not cd.lying]
    if not up:
        return []
    q = np.array([cd.quad for cd in up], np.float64)
    widths, heights = _edges(q)
    tw, th = float(np.median(widths)), float(np.median(heights))
    if tw < 6 or th < 8:
        return []
    ring = _table_ring(mask, th)
    if ring.sum() < 50:
        return []
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(lab[ring], axis=0)
    centres = np.array([cd.quad.astype(np.float64).mean(axis=0) for cd in cands])
    out: list[Candidate] = []
    for qq in _anchors(cands, q, tw, th):
        ut = qq[1] - qq[0]
        ub = qq[2] - qq[3]
        wt, wb = np.linalg.norm(ut), np.linalg.norm(ub)
        if wt < 1 or wb < 1:
            continue
        ut, ub = ut / wt, ub / wb
        for d in (1, -1):
            # an end of a row: no face candidate just beyond this tile's side
            probe = (qq[1] + qq[2]) / 2 + ut * 0.6 * tw if d == 1 else (qq[0] + qq[3]) / 2 - ut * 0.6 * tw
            if np.min(np.linalg.norm(centres - probe, axis=1)) < 0.55 * tw:
                continue
            quads = _probe_quads(lab, mask, table, qq, d, (ut, ub), (tw, th))
            for qd in quads:
                c = qd.mean(axis=0)
                if np.min(np.linalg.norm(centres - c, axis=1)) < 0.5 * tw:
                    continue
                if any(np.linalg.norm(o.quad.mean(axis=0) - c) < 0.5 * tw for o in out):
                    continue
                out.append(
                    Candidate(
                        order_quad(qd).astype(np.float32), score=1.0, source="back_probe", blob=-1, blob_size=len(quads)
                    )
                )
    return out
