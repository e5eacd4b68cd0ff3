"""Find mahjong tiles in a photo and rectify each to an upright crop.

Two tile finders share the candidates' form (:class:`Candidate`) and the crops (:func:`add_crops`):

* the *learned* finder (default when ``models/tile_segmenter.onnx`` ships): a small network marks
  every tile's top surface and its core (:mod:`vision.segmenter`); one tile per core, face-down
  tiles included. It copes with glare, surfaces close to ivory and artwork that looks like a seam;
* the *classical* finder (OpenCV only, no model), below.

Classical pipeline (on the working-size image, see :mod:`vision.photo`):

1. *Face mask*: tile faces are bright and unsaturated (ivory/white). A per-pixel whiteness score
   ``min(B,G,R) - 0.5 * (max - min)`` is thresholded with Otsu, then every region is re-thresholded
   locally (between its own level and its surround's) so lighting gradients and shadows do not merge
   faces with a light surface or drop faces in shade. Regions far from rectangular are re-split by
   an inner Otsu; when a light surface pattern floods the mask (one region over the whole frame),
   the image is thresholded again between the two populations of masked pixels.
2. *Blobs*: connected regions, holes filled, kept if roughly rectangular and not much duller than
   the brightest one. A blob is a single tile, a row of touching tiles, a block of touching rows, or
   a meld with a lying (90 degree) tile.
3. *Rectification*: each blob's outline is fitted with a quadrilateral (4-point polygon when the
   outline is a clean perspective quad, else ``minAreaRect``), ordered so "up" is the image's up,
   and warped to an axis-aligned rectangle.
4. *Splitting*: in the rectified blob the seams between touching tiles are thin dark valleys that
   cross a whole row (artwork strokes do not): a low percentile over the row of a valley filter,
   plus gaps in the mask, gives a seam profile. Every row count k (rows cut at full-width seams) is
   scored jointly with the best column split of its strips, found by dynamic programming over cut
   positions that rewards seams and penalises cells whose width does not fit the tile aspect (3:4,
   or measured from the spacing of clear seams). A cell that is about a tile-height long but lower
   than its strip is a lying tile; gaps (a shorter second row) are "empty" cells.
5. Each cell becomes a :class:`Candidate`: its quadrilateral (working pixels, clockwise from the
   top-left as it lies) and upright crops to classify: as is for an upright tile, turned both ways
   for a lying one, all three for a squarish cell; the classifier's most confident reading decides.
6. *Close-ups*: a cell far larger than a tile (over ``GIANT_CELL`` of the frame: tiles filling the
   frame, seams soft shading rather than thin dark lines) is split again at a coarser scale with the
   contrast raised (:func:`_resplit_giant`): rows first, then the columns of each row band.
7. *Face-down tiles*: beyond each end of a row of upright faces, a run of 1-4 tile widths of one
   uniform colour that is neither face nor table becomes *back probes* (:func:`find_backs`); the
   recogniser keeps a probe only if the classifier reads it as ``back`` with confidence.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

FACE_ASPECT = 0.75          # width / height of a tile face
LOG_SIGMA = 0.22            # tolerated log-deviation of a cell's aspect
CROP_MAX_H = 160


@dataclass
class Candidate:
    quad: np.ndarray                      # 4x2 float32, working px, clockwise from top-left (upright view)
    rotated: bool = False                 # lying at 90 degrees
    score: float = 1.0                    # geometric plausibility 0..1
    blob: int = 0
    blob_size: int = 1                    # cells found in the same blob
    ink: float = 0.0                      # fraction of the interior that is artwork
    ambiguous: bool = False               # upright or lying is unclear from the shape
    crops: list = field(default_factory=list)   # [(rotation_degrees, crop BGR)] to classify
    back_probe: bool = False              # a possible face-down tile (kept only if read as 'back')
    learned: bool = False                 # found by the learned tile finder (faces and backs alike)


# ------------------------------------------------------------------------------------------
# mask

def whiteness(img: np.ndarray) -> np.ndarray:
    """High for bright white or ivory pixels: luminance minus penalties for red/green imbalance
    and for blue excess, and a milder one for the yellow tint that ivory faces have."""
    b = cv2.GaussianBlur(img, (0, 0), 1.2)
    B, G, R = [c.astype(np.float32) for c in cv2.split(b)]
    if WHITENESS == "minmax":
        mn = cv2.min(cv2.min(B, G), R)
        mx = cv2.max(cv2.max(B, G), R)
        # and a penalty for blue excess: lavender/blue cloths are not ivory, faces have B <= G
        return 1.5 * mn - 0.5 * mx - 0.8 * cv2.max(B - G, 0)
    lum = 0.3 * R + 0.6 * G + 0.1 * B
    return lum - 0.8 * cv2.absdiff(R, G) - 0.8 * cv2.max(B - G, 0) - 0.3 * cv2.max(G - B, 0)


def _otsu(values: np.ndarray) -> float:
    v = np.clip(values, 0, 255).astype(np.uint8).reshape(-1, 1)
    if v.size < 16:
        return 128.0
    t, _ = cv2.threshold(v, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(t)


def face_mask(img: np.ndarray, t_min: float = 60.0, wmap: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Binary mask (uint8 0/255) of likely tile-face pixels, and the whiteness map."""
    wmap = whiteness(img) if wmap is None else wmap
    h, w = wmap.shape
    t0 = _otsu(wmap)
    # Faces are the bright mode; when the whole image is bright (tiles fill the frame) Otsu may split
    # face from artwork - fine. Guard against a threshold inside the surface noise.
    t0 = max(t0, t_min)
    mask = (wmap > t0).astype(np.uint8) * 255
    # local refinement: re-threshold each coarse region in its neighbourhood
    k = max(3, int(round(min(h, w) / 250)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    refined = np.zeros_like(mask)
    min_area = max(60, h * w * 0.0002)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < min_area:
            continue
        pad = int(max(bw, bh) * 0.15) + 4
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
        roi = wmap[y0:y1, x0:x1]
        inside = labels[y0:y1, x0:x1] == i
        fg = roi[inside]
        ring = roi[~inside & (labels[y0:y1, x0:x1] == 0)]
        if ring.size < 20:
            t = t0
        else:
            # threshold midway between the face level and the surround (robust percentiles)
            face_lv = np.percentile(fg, 70)
            bg_lv = np.percentile(ring, 50)
            if face_lv - bg_lv < 25:      # not brighter than its surround: not a tile face
                continue
            t = max(t0 * 0.8, bg_lv + 0.45 * (face_lv - bg_lv))
        refined[y0:y1, x0:x1] |= ((roi > t) & (inside | (labels[y0:y1, x0:x1] == 0))).astype(np.uint8) * 255
    refined = cv2.morphologyEx(refined, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    refined = _split_merged(refined, wmap, min_area, k)
    return refined, wmap


def _split_merged(mask: np.ndarray, wmap: np.ndarray, min_area: float, k: int, depth: int = 0) -> np.ndarray:
    """Re-threshold regions that are not rectangle-like (faces merged with a light surface pattern,
    a beige stripe, a paper): inside such a region the faces are the brighter class."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = mask.copy()
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < min_area:
            continue
        comp = (labels[y:y + bh, x:x + bw] == i)
        cs, _ = cv2.findContours(comp.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        c = max(cs, key=cv2.contourArea)
        (rw, rh) = cv2.minAreaRect(c)[1]
        fill = area / max(1.0, rw * rh)
        H, W = mask.shape
        touches = (x <= 1) + (y <= 1) + (x + bw >= W - 1) + (y + bh >= H - 1)
        # a hand is a compact arrangement; a region that is far from a rectangle, or that runs
        # into the image borders without being one, is faces merged with a light surface pattern
        if depth >= 2 or not (fill < 0.4 or (touches >= 2 and fill < 0.75)):
            continue
        vals = wmap[y:y + bh, x:x + bw][comp]
        t = _otsu(vals)
        hi, lo = vals[vals > t], vals[vals <= t]
        if hi.size < min_area or lo.size == 0 or hi.mean() - lo.mean() < 18:
            continue
        sub = (comp & (wmap[y:y + bh, x:x + bw] > t)).astype(np.uint8) * 255
        sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        sub = _split_merged(sub, wmap[y:y + bh, x:x + bw], min_area, k, depth + 1)
        region = out[y:y + bh, x:x + bw]
        region[comp] = sub[comp]
    return out


# ------------------------------------------------------------------------------------------
# geometry helpers

def order_quad(pts: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise starting at the top-left, with 'up' as close to image-up as possible."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]            # clockwise in image coords (y down)
    # choose the start so that edge 0->1 is the top edge: most horizontal edge pair, the upper one
    best, best_s = 0, None
    for s in range(4):
        q = np.roll(pts, -s, axis=0)
        top = q[1] - q[0]
        if top[0] <= 0:
            continue
        angle = abs(np.arctan2(top[1], top[0]))
        key = (angle, (q[0, 1] + q[1, 1]) / 2)
        if best_s is None or key < best_s:
            best, best_s = s, key
    return np.roll(pts, -best, axis=0)


def _fit_quad(contour: np.ndarray) -> np.ndarray:
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.045):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            a = cv2.contourArea(approx)
            if hull_area > 0 and 0.95 < a / hull_area < 1.06 and cv2.isContourConvex(approx):
                return order_quad(approx.reshape(4, 2))
            break
        if len(approx) < 4:
            break
    box = cv2.boxPoints(cv2.minAreaRect(contour))
    return order_quad(box)


def _valley(g: np.ndarray, axis: int, ds=(1, 2, 4, 7)) -> np.ndarray:
    """Positive where a pixel is darker than both neighbours at distance d along ``axis``."""
    out = np.zeros_like(g)
    for d in ds:
        a = np.roll(g, d, axis=axis)
        b = np.roll(g, -d, axis=axis)
        v = np.minimum(a, b) - g
        out = np.maximum(out, v)
    if axis == 1:
        out[:, :max(ds)] = 0
        out[:, -max(ds):] = 0
    else:
        out[:max(ds), :] = 0
        out[-max(ds):, :] = 0
    return out


# ------------------------------------------------------------------------------------------
# splitting

MU, BETA, PRIOR_LYING = 14.0, 0.9, 1.2
ROW_SEAM_MIN = 0.018
PROF_CLIP = 0.15          # one cut can earn at most MU * PROF_CLIP - BETA
BLOB_LEVEL_MIN = 0.6
WHITENESS = "minmax"
AMBIGUOUS_RATIO = (0.92, 1.25)   # cell width/height where upright vs lying is left to the classifier


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
            if seg[b] < ROW_SEAM_MIN / 3:      # no seam at all where a row boundary should be
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
    peaks = [x for x in range(1, n - 1) if prof[x] >= thr and prof[x] == prof[max(0, x - r):x + r + 1].max()]
    # collapse plateaus
    pk = []
    for x in peaks:
        if pk and x - pk[-1] < r:
            continue
        pk.append(x)
    d = np.diff(pk)
    if transposed:   # cells along a column of tiles: tile height / tile width
        d = d[(d > 1.0 * h) & (d < 1.8 * h)]
        return float(np.clip(np.median(d) / h, 1.1, 1.6)) if len(d) >= 2 else 1.0 / FACE_ASPECT
    d = d[(d > 0.5 * h) & (d < 1.0 * h)]
    if len(d) >= 2:
        return float(np.clip(np.median(d) / h, 0.6, 0.9))
    return FACE_ASPECT


def _column_cuts(prof: np.ndarray, occ: np.ndarray, h: float, transposed: bool = False
                 ) -> tuple[float, list[tuple[int, int, bool]]]:
    """DP: split a row strip of height ``h`` into cells. Returns (cost, [(x0, x1, lying)])."""
    n = len(prof)
    if n < 4:
        return 0.0, [(0, n, False)]
    step = max(1, int(np.ceil(n / 300)))
    if step > 1:
        m = n // step
        p = prof[:m * step].reshape(m, step).max(axis=1)
        o = occ[:m * step].reshape(m, step).mean(axis=1)
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
    if multi:   # among upright tiles a lying tile is visibly lower than the strip
        cost_ly = cost_ly + 300 * np.maximum(0, occ_seg - 0.9) ** 2
    cost_empty = (occ_seg / 0.12) ** 2          # no tile here (a row shorter than the block)
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
            if j == m:    # whatever is left is one cell
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

    def refine(b: int) -> int:   # a coarse cut moved to the strongest seam within one bin
        if b <= 0:
            return 0
        if b >= m:
            return n
        lo, hi = max(1, b * step - step), min(n - 1, b * step + step)
        return lo + int(np.argmax(prof[lo:hi + 1])) if hi > lo else b * step
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
    mask_rect = _fill_holes(cv2.morphologyEx(mask_rect, cv2.MORPH_CLOSE,
                                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc))))
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
            cost += c_cost * (r1 - r0) / H      # per unit of seam length: k strips must not count a seam k times
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


# ------------------------------------------------------------------------------------------
# main entry

def _crop(img: np.ndarray, quad: np.ndarray, out_w: int, out_h: int) -> np.ndarray:
    dst = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    M = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(img, M, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _blobs(mask: np.ndarray, wmap: np.ndarray):
    """Face-like regions of ``mask``: (contour, box, roi mask, brightness level). Also returns the
    mask's area and the area of the regions kept."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = max(80, h * w * 0.0003)
    blobs = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        rect = cv2.minAreaRect(c)
        (rw, rh) = rect[1]
        if rw < 6 or rh < 6 or area / (rw * rh) < 0.55:
            continue
        x, y, bw, bh = cv2.boundingRect(c)
        roi = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(roi, [c - np.array([x, y])], -1, 255, -1)
        level = float(np.percentile(wmap[y:y + bh, x:x + bw][roi > 0], 70))
        blobs.append((c, (x, y, bw, bh), roi, level, area))
    if blobs:
        # tile faces are the brightest unsaturated things on the table: a region much duller than
        # the brightest blob (a light square of a cloth, a beige mat) is not a face
        # (the reference is the brightest of the larger regions: a glare spot can make one small
        # region brighter than any face)
        big = max(b[4] for b in blobs)
        top_level = max(b[3] for b in blobs if b[4] >= 0.5 * big)
        blobs = [b for b in blobs if b[3] >= BLOB_LEVEL_MIN * top_level]
    kept = float(sum(b[4] for b in blobs))
    return [b[:4] for b in blobs], float(np.count_nonzero(mask)), kept


def segment(img: np.ndarray, *, with_crops: bool = True, debug: dict | None = None,
            method: str | None = None) -> list[Candidate]:
    """Tile candidates in ``img`` (BGR uint8), quads in ``img`` pixels.

    ``method``: ``"learned"`` (the ONNX tile finder, :mod:`vision.segmenter`), ``"classical"``
    (colour and seams, steps 1-7 above) or ``None``: learned when the model ships, else classical."""
    if method is None:
        from . import segmenter
        method = "learned" if segmenter.available() else "classical"
    if method not in ("learned", "classical"):
        raise ValueError(f"unknown tile finder {method!r}: use 'learned' or 'classical'")
    cands = _segment_learned(img, debug) if method == "learned" else _segment_classical(img, debug)
    if with_crops:
        for cd in cands:
            add_crops(img, cd)
    return cands


def _segment_learned(img: np.ndarray, debug: dict | None) -> list[Candidate]:
    """Candidates from the learned tile finder: one per core; face-down tiles included (the
    classifier reads them as ``back``)."""
    from . import segmenter
    found, (face, core, _) = segmenter.find_tiles(img)
    if debug is not None:
        h, w = img.shape[:2]
        debug["mask"] = (cv2.resize(face, (w, h), interpolation=cv2.INTER_LINEAR) > 0.5).astype(np.uint8) * 255
        debug["core"] = core
    cands = []
    for quad, lying, ambiguous, score, group, group_size in found:
        cd = Candidate(quad, rotated=lying, score=score, blob=group, blob_size=group_size,
                       ambiguous=ambiguous, learned=True)
        x0, y0 = np.floor(quad.min(0)).astype(int)
        x1, y1 = np.ceil(quad.max(0)).astype(int)
        cd.ink = _ink(img[max(0, y0):max(0, y1), max(0, x0):max(0, x1)])
        cands.append(cd)
    return cands


def _segment_classical(img: np.ndarray, debug: dict | None) -> list[Candidate]:
    h, w = img.shape[:2]
    mask, wmap = face_mask(img)
    blobs, mask_area, kept_area = _blobs(mask, wmap)
    giant = any(bw * bh > 0.25 * h * w and ((x <= 1) + (y <= 1) + (x + bw >= w - 1) + (y + bh >= h - 1)) >= 2
                for _, (x, y, bw, bh), _, _ in blobs)
    if mask_area > 0.2 * h * w and (giant or kept_area < 0.5 * mask_area):
        # much of the mask is not face-like (a light surface pattern got in), or one region runs
        # over the whole frame: if the masked pixels are clearly two populations, faces are the
        # brighter one - threshold again between them
        vals = wmap[mask > 0]
        t = _otsu(vals)
        hi, lo = vals[vals > t], vals[vals <= t]
        if hi.size > 0.02 * h * w and lo.size and hi.mean() - lo.mean() > 60:
            mask2, _ = face_mask(img, t_min=t, wmap=wmap)
            blobs2, _, kept2 = _blobs(mask2, wmap)
            if blobs2:
                mask, blobs = mask2, blobs2
    if debug is not None:
        debug["mask"] = mask
    if not blobs:
        return []
    cands: list[Candidate] = []
    for bi, (c, (x, y, bw, bh), roi, level) in enumerate(blobs):
        quad = _fit_quad(c)
        top = np.linalg.norm(quad[1] - quad[0]); bot = np.linalg.norm(quad[2] - quad[3])
        left = np.linalg.norm(quad[3] - quad[0]); right = np.linalg.norm(quad[2] - quad[1])
        Wr = int(round(max(top, bot))); Hr = int(round(max(left, right)))
        if Wr < 6 or Hr < 6:
            continue
        dst = np.float32([[0, 0], [Wr, 0], [Wr, Hr], [0, Hr]])
        M = cv2.getPerspectiveTransform(quad, dst)
        Minv = np.linalg.inv(M)
        # warp from the blob's bounding box only (speed): shift the homography by the box origin
        pad = 2
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
        T = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
        M_roi = M @ T
        blob_mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        blob_mask[y - y0:y - y0 + bh, x - x0:x - x0 + bw] = roi
        c_r = cv2.warpPerspective(img[y0:y1, x0:x1], M_roi, (Wr, Hr), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        m_r = cv2.warpPerspective(blob_mask, M_roi, (Wr, Hr), flags=cv2.INTER_NEAREST)
        m_r &= cv2.warpPerspective(mask[y0:y1, x0:x1], M_roi, (Wr, Hr), flags=cv2.INTER_NEAREST) | _fill_holes(m_r)
        cells = split_blob(c_r, m_r)
        if any((c[2] - c[0]) * (c[3] - c[1]) > GIANT_CELL * h * w for c in cells):
            cells = _resplit_giant(c_r, cells, GIANT_CELL * h * w)
        for cx0, cy0, cx1, cy1, lying in cells:
            cw, ch = cx1 - cx0, cy1 - cy0
            if cw < 4 or ch < 4:
                continue
            pts = np.float32([[cx0, cy0], [cx1, cy0], [cx1, cy1], [cx0, cy1]]).reshape(1, 4, 2)
            q = cv2.perspectiveTransform(pts, Minv).reshape(4, 2)
            ratio = cw / ch
            if lying:
                score = float(np.exp(-((np.log(ratio * FACE_ASPECT)) / 0.35) ** 2))
            else:
                score = float(np.exp(-((np.log(ratio / FACE_ASPECT)) / 0.35) ** 2))
            cd = Candidate(q.astype(np.float32), rotated=bool(lying), score=score, blob=bi)
            cd.blob_size = len(cells)
            cd.ink = _ink(c_r[int(cy0):int(cy1), int(cx0):int(cx1)])
            # squarish cells could be either way round: let the classifier decide
            cd.ambiguous = bool(AMBIGUOUS_RATIO[0] <= ratio <= AMBIGUOUS_RATIO[1])
            cands.append(cd)
    # drop candidates far smaller than the typical tile
    if cands:
        areas = np.array([cv2.contourArea(cd.quad) for cd in cands])
        med = np.percentile(areas, 75)     # typical tile: many small fragments must not set the scale
        cands = [cd for cd, a in zip(cands, areas) if a > 0.25 * med and a < 4.0 * med]
    if cands:
        cands += find_backs(img, cands, mask)
    return cands


# ------------------------------------------------------------------------------------------
# face-down tiles

BACK_MAX_RUN = 4          # at most a kong of backs next to a row end
BACK_COLOR_DIST = 22.0    # Lab distance (lightness half-weighted) from the table colour


def _lab_dist(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    d = lab - ref
    return np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def find_backs(img: np.ndarray, cands: list, mask: np.ndarray) -> list:
    """Probes for face-down tiles (a concealed kong shows two or four backs) next to the rows of
    face-up tiles: beyond each end of a row of touching upright faces, along the row's own top and
    bottom lines, a run of columns that are neither face nor table colour, about a whole number
    (1-4) of tile widths long, with straight ends across the row and one uniform colour, becomes
    that many candidates. They are only probes: the classifier
    must read them as ``back`` (see :func:`vision.recognize._reject`), so a patch of table that
    happens to differ in colour is not taken for a tile."""
    up = [cd for cd in cands if not cd.rotated and not cd.back_probe]
    if not up:
        return []
    H, W = mask.shape
    q = np.array([cd.quad for cd in up], np.float64)
    widths = (np.linalg.norm(q[:, 1] - q[:, 0], axis=1) + np.linalg.norm(q[:, 2] - q[:, 3], axis=1)) / 2
    heights = (np.linalg.norm(q[:, 3] - q[:, 0], axis=1) + np.linalg.norm(q[:, 2] - q[:, 1], axis=1)) / 2
    tw, th = float(np.median(widths)), float(np.median(heights))
    if tw < 6 or th < 8:
        return []
    # the table's colour: a ring between about half a tile and a tile and a half away from the faces
    k1 = max(3, int(0.5 * th) | 1); k2 = max(k1 + 2, int(1.5 * th) | 1)
    near = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k1, k1)))
    far = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k2, k2)))
    ring = (far > 0) & (near == 0)
    if ring.sum() < 50:
        return []
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(lab[ring], axis=0)
    faces = [cd.quad.astype(np.float64) for cd in cands]
    centres = np.array([f.mean(axis=0) for f in faces])
    # anchors: every upright face, and every lying one seen as an upright tile standing on its
    # bottom edge (melds are laid on a common baseline)
    # (only tiles of the typical size: a fragment would set a wrong scale for its probes)
    anchors = [qq for qq, a, b in zip(q, widths, heights)
               if 0.7 * tw < a < 1.4 * tw and 0.75 * th < b < 1.3 * th]
    for cd in cands:
        if cd.rotated and not cd.back_probe:
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
    out: list = []
    rh = 40                                   # rectified strip height
    for qq in anchors:
        ut = qq[1] - qq[0]; ub = qq[2] - qq[3]
        wt, wb = np.linalg.norm(ut), np.linalg.norm(ub)
        if wt < 1 or wb < 1:
            continue
        ut, ub = ut / wt, ub / wb
        for d in (1, -1):
            # an end of a row: no face candidate just beyond this tile's side
            probe = (qq[1] + qq[2]) / 2 + ut * 0.6 * tw if d == 1 else (qq[0] + qq[3]) / 2 - ut * 0.6 * tw
            if np.min(np.linalg.norm(centres - probe, axis=1)) < 0.55 * tw:
                continue
            L = (BACK_MAX_RUN + 3.0) * tw
            if d == 1:
                a_t, a_b = qq[1], qq[2]
            else:
                a_t, a_b = qq[0], qq[3]
            b_t, b_b = a_t + d * ut * L, a_b + d * ub * L
            rw = int(round(L / th * rh))
            src = np.float32([a_t, b_t, b_b, a_b]) if d == 1 else np.float32([b_t, a_t, a_b, b_b])
            dst = np.float32([[0, 0], [rw, 0], [rw, rh], [0, rh]])
            M = cv2.getPerspectiveTransform(src, dst)
            strip = cv2.warpPerspective(lab, M, (rw, rh), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(float(v) for v in table))
            fm = cv2.warpPerspective(mask, M, (rw, rh), flags=cv2.INTER_NEAREST)
            if d == -1:
                strip = strip[:, ::-1]; fm = fm[:, ::-1]
            # a back pixel: far from the table's colour and not a face
            dist = _lab_dist(strip, table)
            off = (dist > BACK_COLOR_DIST) & (fm == 0)
            inner = off[int(0.15 * rh):int(0.85 * rh)]
            col_frac = inner.mean(axis=0)
            on = col_frac > 0.75
            px = rw / L                       # strip px per image px (along the row)
            # step over face-up tiles the row goes on with that were not taken as its end (a lying
            # tile of a meld): small gaps, then columns covered by face mask
            fcol = (fm > 0)[int(0.15 * rh):int(0.85 * rh)].mean(axis=0)
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
                continue
            s0 = int(idx[0])
            e = s0
            gaps = 0
            while e < rw and (on[e] or gaps < 0.08 * tw * px):
                gaps = 0 if on[e] else gaps + 1
                e += 1
            e -= gaps
            run = (e - s0) / px               # image px
            n = int(round(run / tw))
            if n < 1 or n > BACK_MAX_RUN or abs(run / max(n, 1) - tw) > 0.3 * tw:
                continue
            # straight ends across the row, as a tile's sides are (a stain, a stripe of wood grain
            # or a light patch of cloth has ragged or soft, slanted borders)
            win = max(2, int(0.3 * tw * px))
            tol = max(3.0, 0.15 * tw * px)
            straight = True
            for band in (inner[:, max(0, s0 - win):min(rw, s0 + win)],
                         inner[:, max(0, e - win):min(rw, e + win)][:, ::-1]):
                has = band.any(axis=1)
                if has.sum() < 0.8 * band.shape[0]:
                    straight = False
                    break
                ys = np.nonzero(has)[0].astype(np.float64)
                xs = np.argmax(band, axis=1)[has].astype(np.float64)
                slope, icpt = np.polyfit(ys, xs, 1)
                res = np.abs(xs - (slope * ys + icpt))
                if abs(slope) > 0.4 or np.percentile(res, 75) > tol:
                    straight = False
                    break
            if not straight:
                continue
            # uniform colour: a back is one flat colour, a table pattern is not
            seg = strip[int(0.15 * rh):int(0.85 * rh), s0:e]
            if float(np.median(_lab_dist(seg, np.median(seg.reshape(-1, 3), axis=0)))) > 12:
                continue
            Minv = np.linalg.inv(M)
            step = (e - s0) / n
            for j in range(n):
                x0, x1 = s0 + j * step, s0 + (j + 1) * step
                if d == -1:
                    x0, x1 = rw - x1, rw - x0
                pts = np.float32([[x0, 0], [x1, 0], [x1, rh], [x0, rh]]).reshape(1, 4, 2)
                qd = cv2.perspectiveTransform(pts, Minv).reshape(4, 2)
                c = qd.mean(axis=0)
                if np.min(np.linalg.norm(centres - c, axis=1)) < 0.5 * tw:
                    continue
                if any(np.linalg.norm(o.quad.mean(axis=0) - c) < 0.5 * tw for o in out):
                    continue
                nb = Candidate(order_quad(qd).astype(np.float32), score=1.0, blob=-1, back_probe=True)
                nb.blob_size = n
                nb.ink = 0.0
                out.append(nb)
    return out


GIANT_CELL = 0.12          # a "tile" over this fraction of the frame is a close-up block of tiles
GIANT_SIDE = 300           # ... re-split with its short side brought down to about this many px
GIANT_GAIN = 3.0           # ... and its contrast raised this much


def _resplit_giant(c_r: np.ndarray, cells: list, limit: float) -> list:
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
        crop = c_r[int(y0):int(y1), int(x0):int(x1)]
        hh, ww = crop.shape[:2]
        f = max(1.0, min(hh, ww) / GIANT_SIDE)
        small = cv2.resize(crop, (max(1, int(round(ww / f))), max(1, int(round(hh / f)))),
                           interpolation=cv2.INTER_AREA).astype(np.float32) if f > 1 else crop.astype(np.float32)
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


def _ink(cell: np.ndarray) -> float:
    """Fraction of a cell's interior that is artwork (far from the face's median grey)."""
    hh, ww = cell.shape[:2]
    if hh < 6 or ww < 6:
        return 0.0
    inner = cell[int(hh * 0.15):int(hh * 0.85), int(ww * 0.15):int(ww * 0.85)]
    g = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY).astype(np.int16)
    med = int(np.median(g))
    return float((np.abs(g - med) > 30).mean())


def _extent(ms: np.ndarray) -> np.ndarray:
    """Per column: the fraction of the strip height between the first and last mask pixel (a face
    whose artwork notches the mask still spans its full height; a lying tile spans less)."""
    on = ms > 0
    h = ms.shape[0]
    any_on = on.any(axis=0)
    first = np.argmax(on, axis=0)
    last = h - 1 - np.argmax(on[::-1], axis=0)
    return np.where(any_on, (last - first + 1) / max(1, h), 0.0)


def _fill_holes(m: np.ndarray) -> np.ndarray:
    cs, _ = cv2.findContours((m > 0).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(m)
    cv2.drawContours(out, cs, -1, 255, -1)
    return out


def add_crops(img: np.ndarray, cd: Candidate) -> None:
    q = cd.quad
    side_a = float(np.linalg.norm(q[1] - q[0]))   # top edge length (in image)
    side_b = float(np.linalg.norm(q[3] - q[0]))
    cd.crops = []
    if not cd.rotated or cd.ambiguous:
        ch = int(np.clip(side_b, 24, CROP_MAX_H)); cw = max(12, int(round(ch * side_a / max(side_b, 1))))
        cd.crops.append((0, _crop(img, q, cw, ch)))
    if cd.rotated or cd.ambiguous:
        # lying: the face's height runs along the image's horizontal edge
        ch = int(np.clip(side_a, 24, CROP_MAX_H)); cw = max(12, int(round(ch * side_b / max(side_a, 1))))
        # rotated clockwise on the table (face top points right): upright top-left = quad's top-right
        q_cw = np.roll(q, -1, axis=0)
        q_ccw = np.roll(q, 1, axis=0)
        lying = [(90, _crop(img, q_cw, cw, ch)), (-90, _crop(img, q_ccw, cw, ch))]
        # the geometric guess first: on a tie (no classifier) it wins
        cd.crops = lying + cd.crops if cd.rotated else cd.crops + lying
