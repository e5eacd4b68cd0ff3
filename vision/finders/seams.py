"""Cut a rectified region of touching tile faces into tiles at the seams between them.

In the rectified blob the seams between touching tiles are thin dark valleys that cross a whole
row (artwork strokes do not): a low percentile over the row of a valley filter, plus gaps in the
mask, gives a seam profile. Every row count k (rows cut at full-width seams) is scored jointly with
the best column split of its strips, found by dynamic programming over cut positions that rewards
seams and penalises cells whose width does not fit the tile aspect (3:4, or measured from the
spacing of clear seams). A cell that is about a tile-height long but lower than its strip is a
lying tile; gaps (a shorter second row) are "empty" cells (:func:`split_blob`).

Close-ups: a cell far larger than a tile (tiles filling the frame, seams soft shading rather than
thin dark lines) is split again at a coarser scale with the contrast raised
(:func:`resplit_giant`): rows first, then the columns of each row band.
"""

from __future__ import annotations

import cv2
import numpy as np

from .geometry import FACE_ASPECT

LOG_SIGMA = 0.22  # tolerated log-deviation of a cell's aspect


def _valley(g: np.ndarray, axis: int, ds=(1, 2, 4, 7)) -> np.ndarray:
    """Positive where a pixel is darker than both neighbours at distance d along ``axis``."""
    out = np.zeros_like(g)
    for d in ds:
        a = np.roll(g, d, axis=axis)
        b = np.roll(g, -d, axis=axis)
        v = np.minimum(a, b) - g
        out = np.maximum(out, v)
    if axis == 1:
        out[:, : max(ds)] = 0
        out[:, -max(ds) :] = 0
    else:
        out[: max(ds), :] = 0
        out[-max(ds) :, :] = 0
    return out


MU, BETA, PRIOR_LYING = 14.0, 0.9, 1.2
ROW_SEAM_MIN = 0.018
PROF_CLIP = 0.15  # one cut can earn at most MU * PROF_CLIP - BETA


def _row_candidates(prof: np.ndarray, length: int, kmax: int) -> list[list[int]]:
    """For k = 1..kmax rows: cut positions found one after another, each at the strongest
    horizontal seam near the expected spacing (which may drift with perspective). A candidate
    needs seam evidence on average and no cut without any."""
    out = [[0, length]]
    for k in range(2, kmax + 1):
        cuts = [0]
        strengths = []
        ok = True
        for j in range(1, k):
            remaining = (length - cuts[-1]) / (k - j + 1)
            c = cuts[-1] + remaining
            lo, hi = max(cuts[-1] + 1, int(c - 0.25 * remaining)), min(length - 1, int(c + 0.25 * remaining) + 1)
            if hi <= lo:
                ok = False
                break
            seg = prof[lo:hi]
            b = int(np.argmax(seg))
            if seg[b] < ROW_SEAM_MIN / 3:  # no seam at all where a row boundary should be
                ok = False
                break
            cuts.append(lo + b)
            strengths.append(float(seg[b]))
        if not ok or np.mean(strengths) < ROW_SEAM_MIN:
            continue
        cuts.append(length)
        sizes = np.diff(cuts)
        if sizes.min() < 0.7 * sizes.max():
            continue
        out.append(cuts)
    return out


def _aspect_from_seams(prof: np.ndarray, h: float, transposed: bool = False) -> float:
    """Tile width / strip height from the spacing of clear seams (the strip may include the tiles'
    visible sides, and sets differ), else the default face aspect."""
    thr = 0.08
    n = len(prof)
    r = max(2, int(0.2 * h))
    peaks = [x for x in range(1, n - 1) if prof[x] >= thr and prof[x] == prof[max(0, x - r) : x + r + 1].max()]
    # collapse plateaus
    pk: list[int] = []
    for x in peaks:
        if pk and x - pk[-1] < r:
            continue
        pk.append(x)
    d = np.diff(pk)
    if transposed:  # cells along a column of tiles: tile height / tile width
        d = d[(d > 1.0 * h) & (d < 1.8 * h)]
        return float(np.clip(np.median(d) / h, 1.1, 1.6)) if len(d) >= 2 else 1.0 / FACE_ASPECT
    d = d[(d > 0.5 * h) & (d < 1.0 * h)]
    if len(d) >= 2:
        return float(np.clip(np.median(d) / h, 0.6, 0.9))
    return FACE_ASPECT


def _column_cuts(
    prof: np.ndarray, occ: np.ndarray, h: float, transposed: bool = False
) -> tuple[float, list[tuple[int, int, bool]]]:
    """DP: split a row strip of height ``h`` into cells. Returns (cost, [(x0, x1, lying)])."""
    n = len(prof)
    if n < 4:
        return 0.0, [(0, n, False)]
    step = max(1, int(np.ceil(n / 300)))
    if step > 1:
        m = n // step
        p = prof[: m * step].reshape(m, step).max(axis=1)
        o = occ[: m * step].reshape(m, step).mean(axis=1)
    else:
        m, p, o = n, prof, occ
    hh = h / step
    multi = n > 1.6 * h
    aspect = _aspect_from_seams(prof, h, transposed)
    cum_o = np.concatenate([[0.0], np.cumsum(o)])
    INF = 1e18
    wmin = max(1, int(0.35 * FACE_ASPECT * hh))
    wmax = max(wmin, int(2.0 * hh) + 2)
    # segment costs for every end j (rows) and width w (columns), computed at once
    J = np.arange(m + 1)[:, None]
    Wd = np.arange(wmin, wmax + 1)[None, :].astype(np.float64)
    I = J - Wd.astype(np.int64)
    valid = I >= 0
    Ic = np.clip(I, 0, m)
    occ_seg = (cum_o[J] - cum_o[Ic]) / Wd
    # an upright tile fills its strip's height; a lying one (in a row of upright tiles) only
    # about 3/4 of it, and is about a tile-height long
    cost_up = (np.log(Wd / hh / aspect) / LOG_SIGMA) ** 2 + 250 * np.maximum(0, 0.88 - occ_seg) ** 2
    r_ly = np.log(Wd / (np.maximum(occ_seg, 0.3) * hh) / (1 / FACE_ASPECT))
    cost_ly = (r_ly / 0.3) ** 2 + PRIOR_LYING + (1e6 if transposed else 0.0)
    if multi:  # among upright tiles a lying tile is visibly lower than the strip
        cost_ly = cost_ly + 300 * np.maximum(0, occ_seg - 0.9) ** 2
    cost_empty = (occ_seg / 0.12) ** 2  # no tile here (a row shorter than the block)
    costs = np.stack([cost_up, cost_ly, cost_empty])
    kinds = costs.argmin(axis=0)
    seg_cost = np.where(valid, costs.min(axis=0), INF)
    cut_cost = BETA - MU * np.append(p, 0.0)
    cut_cost[m] = 0.0
    best = np.full(m + 1, INF)
    best[0] = 0.0
    back = np.zeros(m + 1, dtype=np.int64)
    kind = np.zeros(m + 1, dtype=np.int8)
    for j in range(1, m + 1):
        tot = best[Ic[j]] + seg_cost[j]
        k = int(np.argmin(tot))
        if tot[k] >= INF:
            if j == m:  # whatever is left is one cell
                back[j], kind[j], best[j] = 0, 0, 0.0 + 50
            continue
        best[j] = tot[k] + cut_cost[j]
        back[j] = Ic[j, k]
        kind[j] = kinds[j, k]
    if best[m] >= INF:
        return 50.0, [(0, n, False)]
    cuts = []
    j = m
    while j > 0:
        i = int(back[j])
        cuts.append((i, j, int(kind[j])))
        j = i
    cuts.reverse()

    def refine(b: int) -> int:  # a coarse cut moved to the strongest seam within one bin
        if b <= 0:
            return 0
        if b >= m:
            return n
        lo, hi = max(1, b * step - step), min(n - 1, b * step + step)
        return lo + int(np.argmax(prof[lo : hi + 1])) if hi > lo else b * step

    cells = [(refine(i), refine(j), k == 1) for i, j, k in cuts if k != 2]
    return float(best[m]), [(a_, b_, k) for a_, b_, k in cells if b_ > a_]


def _profiles(g: np.ndarray, msk: np.ndarray, axis: int, q: float):
    """Seam profile along ``axis`` (1: columns / vertical seams, 0: rows / horizontal seams).

    ``q``-th percentile across the other axis of a valley filter: a seam is dark along (nearly)
    its whole length, artwork strokes are not.
    """
    v = _valley(g, axis)
    v = np.where(msk > 0, v, np.maximum(v, 0.25))
    # tolerate a seam that wanders by a pixel or two (tiles not perfectly aligned, perspective)
    k = (1, 5) if axis == 1 else (5, 1)
    v = cv2.dilate(v, np.ones(k, np.uint8))
    prof = np.percentile(v, q, axis=0 if axis == 1 else 1)
    occ = (msk > 0).mean(axis=0 if axis == 1 else 1)
    return prof, occ


def split_blob(color_rect: np.ndarray, mask_rect: np.ndarray) -> list[tuple[float, float, float, float, bool]]:
    """Split a rectified blob into tile cells (x0, y0, x1, y1, lying) in rectified pixels.

    Every row count k (rows separated by full-width seams) is scored jointly with the best column
    split of its strips; the cheapest explanation wins.
    """
    H, W = mask_rect.shape
    gray = cv2.cvtColor(color_rect, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inside = gray[mask_rect > 0]
    level = float(np.percentile(inside, 75)) if inside.size else 1.0
    g = gray / max(level, 1.0)
    g = g.astype(np.float32)
    raw = mask_rect > 0
    # artwork touching a face's edge opens notches in the mask: close them before filling holes
    kc = max(3, int(0.06 * min(H, W)) | 1)
    mask_rect = fill_holes(
        cv2.morphologyEx(mask_rect, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc)))
    )
    filled = mask_rect > 0
    hole = filled & ~raw
    best_cost, best_cells = _search(g, mask_rect, hole, filled, False)
    if best_cost > 1.0 and H >= 0.5 * W and min(H, W) >= 40:
        # a block of tiles may be better cut into columns first (tiles in a grid are rarely aligned
        # in both directions at once)
        cost_t, cells_t = _search(g.T.copy(), mask_rect.T.copy(), hole.T, filled.T, True)
        if cost_t < best_cost - 0.5:
            out = []
            for x0, y0, x1, y1, _ in cells_t:
                out.append((y0, x0, y1, x1, False))
            return out
    return best_cells


def _search(g, mask_rect, hole, filled, transposed):
    H, W = mask_rect.shape
    prof_r, _ = _profiles(g, mask_rect, 0, 20)
    # rows where most of the blob's width is a hole: a gap between two touching rows
    gap_r = hole.sum(axis=1) / np.maximum(1, filled.sum(axis=1))
    prof_r = np.minimum(np.maximum(prof_r, np.clip((gap_r - 0.5) / 0.5, 0, 1) * 0.25), PROF_CLIP)
    v_c = _valley(g, 1)
    v_c = np.where(mask_rect > 0, v_c, np.maximum(v_c, 0.25))
    v_c = cv2.dilate(v_c, np.ones((1, 5), np.uint8))
    kmax = int(min(14, H // 10))
    best_cost, best_cells = None, []
    for cuts in _row_candidates(prof_r, H, max(1, kmax)):
        cost = sum(BETA - MU * prof_r[c] for c in cuts[1:-1])
        cells = []
        for r0, r1 in zip(cuts[:-1], cuts[1:]):
            ms = mask_rect[r0:r1]
            prof_c = np.percentile(v_c[r0:r1], 20, axis=0)
            gap_c = hole[r0:r1].sum(axis=0) / np.maximum(1, filled[r0:r1].sum(axis=0))
            prof_c = np.minimum(np.maximum(prof_c, np.clip((gap_c - 0.6) / 0.4, 0, 1) * 0.25), PROF_CLIP)
            occ_c = _extent(ms)
            c_cost, col_cells = _column_cuts(prof_c, occ_c, float(r1 - r0), transposed)
            cost += c_cost * (r1 - r0) / H  # per unit of seam length: k strips must not count a seam k times
            cells.append((r0, r1, col_cells))
            if best_cost is not None and cost > best_cost:
                break
        if best_cost is None or cost < best_cost:
            best_cost, best_cells = cost, cells
    out = []
    for r0, r1, col_cells in best_cells:
        ms = mask_rect[r0:r1]
        for x0, x1, lying in col_cells:
            sub = ms[:, x0:x1]
            if sub.size == 0:
                continue
            rows_on = np.where((sub > 0).mean(axis=1) > 0.5)[0]
            cols_on = np.where((sub > 0).mean(axis=0) > 0.3)[0]
            if rows_on.size == 0 or cols_on.size == 0:
                continue
            y0, y1 = r0 + rows_on[0], r0 + rows_on[-1] + 1
            xa, xb = x0 + cols_on[0], x0 + cols_on[-1] + 1
            out.append((float(xa), float(y0), float(xb), float(y1), lying))
    return (best_cost if best_cost is not None else 1e9), out


GIANT_CELL = 0.12  # a "tile" over this fraction of the frame is a close-up block of tiles
GIANT_SIDE = 300  # ... re-split with its short side brought down to about this many px
GIANT_GAIN = 3.0  # ... and its contrast raised this much


def resplit_giant(c_r: np.ndarray, cells: list, limit: float) -> list:
    """Frame-filling close-ups: tiles touch over the whole frame and their seams are soft shading
    a dozen pixels wide, not the thin dark lines :func:`split_blob` looks for, so a block of tiles
    comes out as one or two giant cells. Each giant cell is split again at a scale where a seam is a
    few pixels wide and with the contrast raised; the same row-first search then cuts rows at
    full-width seams and the columns of each row band separately (staggered rows are fine). The
    result is kept only if it is a plausible block (at least four cells of similar size)."""
    out = []
    for cell in cells:
        x0, y0, x1, y1, lying = cell
        if (x1 - x0) * (y1 - y0) <= limit:
            out.append(cell)
            continue
        crop = c_r[int(y0) : int(y1), int(x0) : int(x1)]
        hh, ww = crop.shape[:2]
        f = max(1.0, min(hh, ww) / GIANT_SIDE)
        small = (
            cv2.resize(
                crop, (max(1, int(round(ww / f))), max(1, int(round(hh / f)))), interpolation=cv2.INTER_AREA
            ).astype(np.float32)
            if f > 1
            else crop.astype(np.float32)
        )
        ref = np.percentile(small.reshape(-1, 3), 75, axis=0)
        boosted = np.clip(ref + (small - ref) * GIANT_GAIN, 0, 255).astype(np.uint8)
        sub = split_blob(boosted, np.full(boosted.shape[:2], 255, np.uint8))
        areas = np.array([(c[2] - c[0]) * (c[3] - c[1]) for c in sub]) if sub else np.zeros(0)
        if len(sub) < 4 or areas.max() > 2.5 * np.median(areas) or any(c[4] for c in sub):
            out.append(cell)
            continue
        sx, sy = ww / boosted.shape[1], hh / boosted.shape[0]
        out += [(x0 + a * sx, y0 + b * sy, x0 + c * sx, y0 + d * sy, False) for a, b, c, d, _ in sub]
    return out


def _extent(ms: np.ndarray) -> np.ndarray:
    """Per column: the fraction of the strip height between the first and last mask pixel (a face
    whose artwork notches the mask still spans its full height; a lying tile spans less)."""
    on = ms > 0
    h = ms.shape[0]
    any_on = on.any(axis=0)
    first = np.argmax(on, axis=0)
    last = h - 1 - np.argmax(on[::-1], axis=0)
    return np.where(any_on, (last - first + 1) / max(1, h), 0.0)


def fill_holes(m: np.ndarray) -> np.ndarray:
    cs, _ = cv2.findContours((m > 0).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(m)
    cv2.drawContours(out, cs, -1, 255, -1)
    return out
