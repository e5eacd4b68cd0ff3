"""A find as the classifier read it (:class:`Reading`), what a set holds, and the geometry of
readings' boxes.

The lowest layer of :func:`vision.recognize.recognize`'s reading: the layout rules
(:mod:`vision.layout_rules`), the reading of finds (:mod:`vision.read_finds`), the photo from a seat
(:mod:`vision.seat`, :mod:`vision.beyond`) and the looks again (:mod:`vision.looks_again`,
:mod:`vision.placed_boxes`) measure readings with these: the areas and centres of quads, tiles'
lengths and widths, and the places a reading leaves empty (:func:`_empty_places`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .classifier import FEATURELESS
from .finders import Candidate

#: the code of a find not read (no classifier, or it failed)
UNKNOWN = "?"


@dataclass(frozen=True, eq=False)
class Reading:
    """A candidate as the classifier read it: ``quad`` turned so that its corner 0 is the upright
    face's top-left (by ``rotation``: 0, or 90 for a lying tile, read turned clockwise; the
    classifier is half-turn invariant and reads an unsure crop with its half-turn too, so one lying
    the other way round reads the same)
    and ``top``, the top-3 ``(code, probability)`` readings, the chosen one first."""

    candidate: Candidate
    quad: np.ndarray
    rotation: int
    top: list[tuple[str, float]]
    sure: bool = False


def _quad_area(q: np.ndarray) -> float:
    d1, d2 = q[2] - q[0], q[3] - q[1]
    return abs(float(d1[0] * d2[1] - d1[1] * d2[0])) / 2


def _quad_areas(quads: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`_quad_area` of each of ``quads`` (4x2) at once: the same numbers, each worked in its
    quad's own precision."""
    if len({q.dtype for q in quads}) != 1:  # (none, or of several precisions)
        return np.array([_quad_area(q) for q in quads], np.float64)
    q = np.stack(quads)
    d1, d2 = q[:, 2] - q[:, 0], q[:, 3] - q[:, 1]
    return np.abs((d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]).astype(np.float64)) / 2


def _centres(quads: Sequence[np.ndarray]) -> np.ndarray:
    """The centre (mean corner) of each of ``quads`` (4x2) at once, N x 2 float64: the same
    numbers as each quad's ``mean(0)``, worked in its own precision."""
    if len({q.dtype for q in quads}) != 1:
        return np.array([q.mean(0) for q in quads], np.float64).reshape(-1, 2)
    return np.stack(quads).mean(1).astype(np.float64)


def _centres_and_length(readings: list[Reading]) -> tuple[np.ndarray, float]:
    """The readings' centres and the median tile length (a quad's longer side), photo pixels."""
    if not readings:
        return np.zeros((0, 2)), float("nan")
    quads = np.array([r.quad for r in readings], np.float64)
    return quads.mean(1), float(np.median(_side_lengths(quads).max(1)))


def _side_lengths(quads: np.ndarray) -> np.ndarray:
    """The sides from corner 0 (to corners 1 and 3) of each of ``quads`` (N x 4 x 2): N x 2."""
    return np.hypot(*(quads[:, [1, 3]] - quads[:, [0]]).transpose(2, 0, 1))


def _gap(centres: np.ndarray, i: int, others: set[int]) -> float:
    """The distance from centre ``i`` to the nearest of ``others`` (infinite when there is none)."""
    if not others:
        return float("inf")
    return float(np.hypot(*(centres[list(others)] - centres[i]).T).min())


def _chained(
    centres: np.ndarray, linked: set[int], pending: set[int], reach: Callable[[int, set[int]], float]
) -> set[int]:
    """``linked`` grown by every index of ``pending`` whose centre lies within ``reach(i,
    still pending)`` of a linked one's, again and again while one joins (a chain of tiles)."""
    linked, pending = set(linked), set(pending)
    grew = True
    while grew and pending and linked:
        grew = False
        for i in sorted(pending):
            if _gap(centres, i, linked) <= reach(i, pending):
                linked.add(i)
                pending.discard(i)
                grew = True
    return linked


def _has_artwork(r: Reading) -> bool:
    """Whether ``r`` is read as a face with artwork and its crop carries ink (at least 1 %): the
    readings whose size and shape the layout rules trust as the photo's tiles'."""
    return r.candidate.ink >= 0.01 and r.top[0][0] not in FEATURELESS


def _elongation(q: np.ndarray) -> float:
    """A quad's longer side over its shorter (sides from corner 0)."""
    a, b = float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))
    return max(a, b) / max(1e-6, min(a, b))


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection area of two convex quads over the smaller one's area."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter) / max(1e-6, min(_quad_area(a), _quad_area(b)))


def _upright(quad: np.ndarray, rotation: int) -> np.ndarray:
    """``quad`` turned so that corner 0 is the upright face's top-left (see :class:`Reading`)."""
    q = quad.astype(np.float64)
    return np.roll(q, -1, axis=0) if rotation == 90 else q


#: a set holds this many of each playing tile (suits, winds, dragons) and one of each flower;
#: backs are not counted (a face-down tile may be any)
COPIES_PER_SET = 4
COPIES_OF_A_FLOWER = 1


def _sure_count(readings: list[Reading]) -> int:
    return sum(r.sure for r in readings)


def _at_empty_places(new: list[Reading], kept: list[Reading]) -> list[Reading]:
    """The readings of ``new`` at places ``kept`` left empty (:func:`_empty_places`)."""
    return [r for r, free in zip(new, _empty_places([r.quad for r in new], kept)) if free]


def _empty_places(quads: list[np.ndarray], kept: list[Reading], share: float = 0.5) -> list[bool]:
    """Whether each of ``quads`` (4x2) lies at a place ``kept`` left empty: its centre farther than
    ``share`` of the shorter side of either box (half by default) from each of ``kept``'s."""
    if not quads:
        return []
    return [bool(free) for free in np.asarray(_apart(quads, kept, share).all(axis=1))]


def _apart(quads: list[np.ndarray], kept: list[Reading], share: float = 0.5) -> np.ndarray:
    """For each of ``quads`` (4x2, at least one) and each reading of ``kept``, whether their centres
    lie farther apart than ``share`` of the shorter side of either box (:func:`_empty_places`)."""
    boxes = np.array([r.quad for r in kept], np.float64).reshape(-1, 4, 2)
    centres = boxes.mean(1)
    sides = np.minimum(*(np.linalg.norm(boxes[:, k] - boxes[:, 0], axis=1) for k in (1, 3)))  # (_short_side)
    at = _centres(quads)
    gaps = np.hypot(centres[None, :, 0] - at[:, None, 0], centres[None, :, 1] - at[:, None, 1])
    shorts = np.array([_short_side(q) for q in quads])
    return np.asarray(gaps > share * np.maximum(sides[None, :], shorts[:, None]), bool)


def _tiles_width(cands: list[Candidate]) -> float:
    """The median short side of the finds ``cands`` (working pixels): the tiles' width."""
    return float(np.median(_side_lengths(np.array([c.quad for c in cands], np.float64)).min(1)))


def _short_side(q: np.ndarray) -> float:
    """A quad's shorter side (sides from corner 0)."""
    return min(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0])))


def _long_side(q: np.ndarray) -> float:
    """A quad's longer side (sides from corner 0): a tile's length."""
    return max(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0])))
