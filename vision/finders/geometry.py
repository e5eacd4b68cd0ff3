"""Tile geometry shared by both finders: corner order, the face aspect and its score, upright crops.

A tile face is :data:`FACE_ASPECT` as wide as it is high. A found quadrilateral is ordered clockwise
from its top-left with up as close to image-up as possible (:func:`order_quad`); its aspect says
whether it stands upright or lies at 90 degrees, how tile-like it is (:func:`aspect_score`) and, when
it is squarish (:data:`AMBIGUOUS_RATIO`), that the classifier must settle which way it lies. A quad
wider than that (:data:`SLANT_RATIO_MAX`) lies, or is an upright face seen at a slant
(:func:`may_be_slanted`): the classifier is asked which when it reads the lying crop unsurely.
:func:`with_crops` rectifies a candidate to the upright crops the classifier reads.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import cv2
import numpy as np

from .candidate import Candidate

FACE_ASPECT = 0.75  # width / height of a tile face
ASPECT_SIGMA = 0.35  # log-deviation of the aspect at which the score falls to 1/e
AMBIGUOUS_RATIO = (0.92, 1.25)  # width/height where upright vs lying is left to the classifier
SLANT_RATIO_MAX = 1.7  # ... and up to which a lying-shaped quad may be an upright face at a slant
CROP_MAX_H = 160  # crops are at most this high (and at least 24 px)


def order_quad(pts: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise starting at the top-left, with 'up' as close to image-up as possible:
    of the four starts, the one whose edge 0->1 points right, is the most horizontal and, between two
    as horizontal, lies higher (:func:`order_quads` of the one quad; float32)."""
    return order_quads(pts)[0]


def order_quads(pts: np.ndarray) -> np.ndarray:
    """:func:`order_quad` of each of ``pts`` (N x 4 x 2) at once, as float32 (N x 4 x 2): each
    quad's points sorted clockwise (y down) by their turn about its centre, then started at the
    corner whose edge to the next points right, is the most horizontal and, between two as
    horizontal, lies higher (the first of equals; corner 0 where no edge points right). A look
    finds a tile per core, up to a set's 144 and more, ordered in one call."""
    p = np.asarray(pts, np.float32).reshape(-1, 4, 2)
    xy = p.astype(np.float64)
    centre = (((xy[:, 0] + xy[:, 1]) + xy[:, 2]) + xy[:, 3]) / 4  # (summed in order_quad's order)
    turns = np.arctan2(xy[..., 1] - centre[:, None, 1], xy[..., 0] - centre[:, None, 0])
    order = np.argsort(turns, axis=1, kind="stable")  # clockwise (y down)
    s = np.take_along_axis(xy, order[..., None], axis=1)
    d = np.roll(s, -1, axis=1) - s  # edge k runs from corner k to corner k + 1
    right = d[..., 0] > 0
    steep = np.where(right, np.abs(np.arctan2(d[..., 1], d[..., 0])), np.inf)
    level = right & (steep == steep.min(axis=1, keepdims=True))
    height = np.where(level, (s[..., 1] + np.roll(s, -1, axis=1)[..., 1]) / 2, np.inf)
    best = np.where(right.any(axis=1), np.argmin(height, axis=1), 0)  # (the first of equals)
    starts = (best[:, None] + np.arange(4)[None, :]) % 4
    return np.take_along_axis(p, np.take_along_axis(order, starts, axis=1)[..., None], axis=1)


def aspect_score(ratio: float, lying: bool) -> float:
    """How tile-like a quad of width/height ``ratio`` is (1 for a tile face's exact aspect, upright or
    lying as ``lying`` says; a Gaussian in the log of the deviation)."""
    r = ratio * FACE_ASPECT if lying else ratio / FACE_ASPECT
    return math.exp(-((math.log(r) / ASPECT_SIGMA) ** 2))


def is_ambiguous(ratio: float) -> bool:
    """Whether a quad of width/height ``ratio`` is too square to tell upright from lying."""
    return bool(AMBIGUOUS_RATIO[0] <= ratio <= AMBIGUOUS_RATIO[1])


def may_be_slanted(ratio: float) -> bool:
    """Whether a quad of width/height ``ratio``, too wide for an upright face seen from above
    (over :data:`AMBIGUOUS_RATIO`), may still be one seen at a slant: a photo taken from a seat at
    the table, of a hand lying face up in a row across the photo. A face 0.75 as wide as high,
    seen ``t`` degrees off straight above, looks ``0.75 / cos t`` as wide as high: 1.25 at 53
    degrees, :data:`SLANT_RATIO_MAX` (1.7) at 64; beyond that a face is too flat to read. (A
    lying tile seen at a slant the other way, along its long side, looks narrower: squarish, which
    :func:`is_ambiguous` covers up to 45 degrees.)"""
    return bool(AMBIGUOUS_RATIO[1] < ratio <= SLANT_RATIO_MAX)


def ink_fraction(cell: np.ndarray) -> float:
    """Fraction of a cell's interior that is artwork (far from the face's median grey)."""
    hh, ww = cell.shape[:2]
    if hh < 6 or ww < 6:
        return 0.0
    inner = cell[int(hh * 0.15) : int(hh * 0.85), int(ww * 0.15) : int(ww * 0.85)]
    g = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY)
    # the median and the count within 30 greys of it, from the grey histogram's running count
    cum = np.cumsum(np.bincount(g.ravel(), minlength=256))
    n = int(cum[-1])
    lo, hi = np.searchsorted(cum, [(n - 1) // 2 + 1, n // 2 + 1])  # the middle value(s)
    med = (int(lo) + int(hi)) // 2
    near = int(cum[min(255, med + 30)]) - (int(cum[med - 31]) if med >= 31 else 0)
    return (n - near) / n


def quad_ink(img: np.ndarray, quad: np.ndarray) -> float:
    """:func:`ink_fraction` of the part of ``img`` the box round ``quad`` (4x2, pixels) covers:
    how a find's ink is measured."""
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x1, y1 = np.maximum(np.ceil(quad.max(0)).astype(int), 0)
    return ink_fraction(img[y0:y1, x0:x1])


def quads_holding(point: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Which of the convex ``quads`` (N x 4 x 2, either winding) hold ``point`` (edges included)."""
    edges = np.roll(quads, -1, axis=1) - quads
    to_point = np.asarray(point, np.float64) - quads
    turns = edges[..., 0] * to_point[..., 1] - edges[..., 1] * to_point[..., 0]  # (the same sign inside)
    return (turns >= 0).all(1) | (turns <= 0).all(1)


def centred_in(quad: np.ndarray, quads: Sequence[np.ndarray]) -> bool:
    """Whether the centre of ``quad`` (4 x 2) lies in one of ``quads`` (each 4 x 2, same pixels)."""
    held = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    return bool(len(held)) and bool(quads_holding(np.asarray(quad, np.float64).mean(0), held).any())


def rectify(img: np.ndarray, quad: np.ndarray, out_w: int, out_h: int) -> np.ndarray:
    """The region ``quad`` of ``img`` warped to an ``out_w`` x ``out_h`` rectangle (corner 0 top-left)."""
    dst = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float32)
    M = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(img, M, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def with_crops(
    img: np.ndarray, cd: Candidate, scale: tuple[float, float] = (1.0, 1.0), homography: np.ndarray | None = None
) -> Candidate:
    """``cd`` with its upright crops from ``img``: as is for an upright tile; turned a quarter
    clockwise for a lying one; both for an ambiguous one, the geometric guess first (so that it wins
    a tie, with no classifier), and for a slanted one (``cd.slanted``, :func:`may_be_slanted`) the
    lying crop first and the upright one after it, read only when the lying one reads unsurely
    (:mod:`vision.recognize`). ``scale`` maps the quad's pixels to ``img``'s (x, y): a larger copy
    of the image the tile was found in gives sharper crops. ``homography`` (3x3), when given, maps
    them instead: the tile was found in a view of ``img`` (a photo taken at a slant, seen from
    straight above again: :mod:`vision.slant`), and its crops are cut from ``img`` itself, where the
    face may be any quadrilateral.

    A lying tile may lie either way round, but one quarter turn is enough: the other is its
    half-turn, which the classifier reads alike (:mod:`vision.classifier`)."""
    if homography is None:
        q = cd.quad.astype(np.float32) * np.asarray(scale, np.float32)
    else:
        moved = cv2.perspectiveTransform(cd.quad.astype(np.float64).reshape(1, 4, 2), homography)
        q = moved.reshape(4, 2).astype(np.float32)
    side_a = float(np.linalg.norm(q[1] - q[0]))  # top edge length (in image)
    side_b = float(np.linalg.norm(q[3] - q[0]))
    crops: list[tuple[int, np.ndarray]] = []
    if not cd.lying or cd.ambiguous or cd.slanted:
        ch = int(np.clip(side_b, 24, CROP_MAX_H))
        cw = max(12, int(round(ch * side_a / max(side_b, 1))))
        crops.append((0, rectify(img, q, cw, ch)))
    if cd.lying or cd.ambiguous:
        # lying: the face's height runs along the image's horizontal edge; turned clockwise on the
        # table (face top points right), the upright top-left is the quad's top-right
        ch = int(np.clip(side_a, 24, CROP_MAX_H))
        cw = max(12, int(round(ch * side_b / max(side_a, 1))))
        lying = (90, rectify(img, np.roll(q, -1, axis=0), cw, ch))
        crops.insert(0 if cd.lying else 1, lying)
    return dataclasses.replace(cd, crops=tuple(crops))
