"""The classical tile finder: ivory faces by colour, touching tiles cut at their seams (OpenCV only).

Used when the learned finder's model does not ship, or when asked for (``--finder classical``).
On the working-size image (see :mod:`vision.photo`):

1. *Face mask*: tile faces are bright and unsaturated (ivory/white). A per-pixel whiteness score
   (:func:`whiteness`) is thresholded with Otsu, then every region is re-thresholded locally
   (between its own level and its surround's) so lighting gradients and shadows do not merge faces
   with a light surface or drop faces in shade. Regions far from rectangular are re-split by an
   inner Otsu; when a light surface pattern floods the mask (one region over the whole frame), the
   image is thresholded again between the two populations of masked pixels.
2. *Blobs*: connected regions, holes filled, kept if roughly rectangular and not much duller than
   the brightest one. A blob is a single tile, a row of touching tiles, a block of touching rows, or
   a meld with a lying (90 degree) tile.
3. *Rectification*: each blob's outline is fitted with a quadrilateral (4-point polygon when the
   outline is a clean perspective quad, else ``minAreaRect``), ordered so "up" is the image's up,
   and warped to an axis-aligned rectangle.
4. *Splitting* at the seams, and close-ups split again (:mod:`vision.finders.seams`).
5. Each cell becomes a :class:`~vision.finders.candidate.Candidate`: its quadrilateral (working
   pixels, clockwise from the top-left as it lies); whether it lies, and how tile-like its aspect
   is, come from the cell's shape.
6. *Face-down tiles*: back probes beyond the ends of the rows (:mod:`vision.finders.backs`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .backs import find_backs
from .candidate import Candidate
from .geometry import aspect_score, ink_fraction, is_ambiguous, may_be_slanted, order_quad
from .seams import GIANT_CELL, fill_holes, resplit_giant, split_blob

BLOB_LEVEL_MIN = 0.6  # a blob this much duller than the brightest (larger) one is not a face


def whiteness(img: np.ndarray) -> np.ndarray:
    """High for bright white or ivory pixels (after a slight blur): ``1.5 * min - 0.5 * max`` of the
    channels (bright and unsaturated), minus a penalty for blue excess (lavender and blue cloths are
    not ivory; faces have B <= G)."""
    b = cv2.GaussianBlur(img, (0, 0), 1.2)
    B, G, R = [c.astype(np.float32) for c in cv2.split(b)]
    mn = cv2.min(cv2.min(B, G), R)
    mx = cv2.max(cv2.max(B, G), R)
    return 1.5 * mn - 0.5 * mx - 0.8 * np.maximum(B - G, 0)


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
    mask: np.ndarray = (wmap > t0).astype(np.uint8) * 255
    # local refinement: re-threshold each coarse region in its neighbourhood
    k = max(3, int(round(min(h, w) / 250)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    refined: np.ndarray = np.zeros_like(mask)
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
            if face_lv - bg_lv < 25:  # not brighter than its surround: not a tile face
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
        comp = labels[y : y + bh, x : x + bw] == i
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
        vals = wmap[y : y + bh, x : x + bw][comp]
        t = _otsu(vals)
        hi, lo = vals[vals > t], vals[vals <= t]
        if hi.size < min_area or lo.size == 0 or hi.mean() - lo.mean() < 18:
            continue
        sub = (comp & (wmap[y : y + bh, x : x + bw] > t)).astype(np.uint8) * 255
        sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        sub = _split_merged(sub, wmap[y : y + bh, x : x + bw], min_area, k, depth + 1)
        region = out[y : y + bh, x : x + bw]
        region[comp] = sub[comp]
    return out


def _fit_quad(contour: np.ndarray) -> np.ndarray:
    """A blob outline's quadrilateral: a clean 4-point polygon of its hull when there is one (a
    perspective view of a rectangle), else its minimum-area rectangle; corners by :func:`order_quad`."""
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
        level = float(np.percentile(wmap[y : y + bh, x : x + bw][roi > 0], 70))
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


def _mask_and_blobs(img: np.ndarray) -> tuple[np.ndarray, list]:
    """The face mask and its face-like blobs. When much of the mask is not face-like (a light surface
    pattern got in) or one region runs over the whole frame, and the masked pixels are clearly two
    populations, faces are the brighter one: the image is thresholded again between them."""
    h, w = img.shape[:2]
    mask, wmap = face_mask(img)
    blobs, mask_area, kept_area = _blobs(mask, wmap)
    giant = any(
        bw * bh > 0.25 * h * w and ((x <= 1) + (y <= 1) + (x + bw >= w - 1) + (y + bh >= h - 1)) >= 2
        for _, (x, y, bw, bh), _, _ in blobs
    )
    if mask_area > 0.2 * h * w and (giant or kept_area < 0.5 * mask_area):
        vals = wmap[mask > 0]
        t = _otsu(vals)
        hi, lo = vals[vals > t], vals[vals <= t]
        if hi.size > 0.02 * h * w and lo.size and hi.mean() - lo.mean() > 60:
            mask2, _ = face_mask(img, t_min=t, wmap=wmap)
            blobs2, _, _ = _blobs(mask2, wmap)
            if blobs2:
                mask, blobs = mask2, blobs2
    return mask, blobs


def _blob_candidates(img: np.ndarray, mask: np.ndarray, blob: tuple, bi: int) -> list[Candidate]:
    """The tiles of blob number ``bi``: its quadrilateral rectified, split into cells
    (:func:`vision.finders.seams.split_blob`, giant cells split again), each cell mapped back to a
    candidate in ``img`` pixels."""
    h, w = img.shape[:2]
    c, (x, y, bw, bh), roi, _ = blob
    quad = _fit_quad(c)
    top = np.linalg.norm(quad[1] - quad[0])
    bot = np.linalg.norm(quad[2] - quad[3])
    left = np.linalg.norm(quad[3] - quad[0])
    right = np.linalg.norm(quad[2] - quad[1])
    Wr = int(round(max(top, bot)))
    Hr = int(round(max(left, right)))
    if Wr < 6 or Hr < 6:
        return []
    dst = np.array([[0, 0], [Wr, 0], [Wr, Hr], [0, Hr]], np.float32)
    M = cv2.getPerspectiveTransform(quad, dst)
    Minv = np.linalg.inv(M)
    # warp from the blob's bounding box only (speed): shift the homography by the box origin
    pad = 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
    T = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    M_roi = M @ T
    blob_mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    blob_mask[y - y0 : y - y0 + bh, x - x0 : x - x0 + bw] = roi
    c_r = cv2.warpPerspective(
        img[y0:y1, x0:x1], M_roi, (Wr, Hr), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    m_r: np.ndarray = cv2.warpPerspective(blob_mask, M_roi, (Wr, Hr), flags=cv2.INTER_NEAREST)
    m_r &= cv2.warpPerspective(mask[y0:y1, x0:x1], M_roi, (Wr, Hr), flags=cv2.INTER_NEAREST) | fill_holes(m_r)
    cells = split_blob(c_r, m_r)
    if any((c[2] - c[0]) * (c[3] - c[1]) > GIANT_CELL * h * w for c in cells):
        cells = resplit_giant(c_r, cells, GIANT_CELL * h * w)
    out = []
    for cx0, cy0, cx1, cy1, lying in cells:
        cw, ch = cx1 - cx0, cy1 - cy0
        if cw < 4 or ch < 4:
            continue
        pts = np.array([[cx0, cy0], [cx1, cy0], [cx1, cy1], [cx0, cy1]], np.float32).reshape(1, 4, 2)
        q = cv2.perspectiveTransform(pts, Minv).reshape(4, 2)
        ratio = cw / ch
        out.append(
            Candidate(
                q.astype(np.float32),
                lying=bool(lying),
                score=aspect_score(ratio, bool(lying)),
                source="classical",
                blob=bi,
                blob_size=len(cells),
                ink=ink_fraction(c_r[int(cy0) : int(cy1), int(cx0) : int(cx1)]),
                # squarish cells could be either way round: let the classifier decide
                ambiguous=is_ambiguous(ratio),
                slanted=may_be_slanted(ratio),
            )
        )
    return out


def candidates(img: np.ndarray, debug: dict | None = None) -> list[Candidate]:
    """Tile candidates in ``img`` (BGR uint8, quads in its pixels): the cells of every face-like blob,
    less those far smaller or larger than the typical tile, plus back probes beside the rows
    (:func:`vision.finders.backs.find_backs`). ``debug``, when given, receives the face ``mask``."""
    mask, blobs = _mask_and_blobs(img)
    if debug is not None:
        debug["mask"] = mask
    cands: list[Candidate] = []
    for bi, blob in enumerate(blobs):
        cands += _blob_candidates(img, mask, blob, bi)
    # drop candidates far smaller than the typical tile
    if cands:
        areas = np.array([cv2.contourArea(cd.quad) for cd in cands])
        med = np.percentile(areas, 75)  # typical tile: many small fragments must not set the scale
        cands = [cd for cd, a in zip(cands, areas) if a > 0.25 * med and a < 4.0 * med]
    if cands:
        cands += find_backs(img, cands, mask)
    return cands
