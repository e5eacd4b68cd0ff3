"""Finds' crops and what their colours say: the image crops are cut from (the photo's detail
image, where it has one), the colour of a crop's face and of its ground (CIE Lab), and the colour
of a photo's backs, which tells a face-down tile from a patch of the room (:func:`_like_the_backs`:
a back read unsurely, :func:`vision.read_finds._read`; a back no chain links to a face-up tile,
:func:`vision.layout_rules._drop_stray_backs`; backs looked for by their colour,
:func:`vision.placed_boxes._backs_by_colour`).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from . import photo as _photo
from .finders import Candidate
from .finders.geometry import with_crops
from .readings import Reading, _has_artwork

#: a photo shows backs where at least this many of its readings are backs (:func:`_backs_colour`):
#: a pile with face-down tiles in it, where a back read unsurely is kept when it has their colour
#: (:data:`vision.read_finds.BACK_AMONG_BACKS_MIN`)
BACKS_SEEN_MIN = 2
#: a back read unsurely, or from a part of a find (:func:`_oversized_read_again`), has the colour of
#: the photo's backs read surely: its face's middle within this distance of theirs (CIE Lab, L
#: from 0 to 100). On 280 piles the backs so kept lie on face-down tiles; a patch of a painted wall
#: beside a pile of red backs, read as a back at 1.0, came 40 off, one of a flower beside blue backs
#: farther
BACK_COLOUR_MAX = 20.0


def _like_the_backs(
    cands: Sequence[Candidate], readings: Sequence[Reading], ph: _photo.Photo | None = None
) -> list[bool]:
    """For each of ``cands`` (finds with crops), whether it has the colour of the backs of
    ``readings`` (:func:`_backs_colour`, measured on ``ph`` where a reading's crops were let go):
    its crop's middle within :data:`BACK_COLOUR_MAX` of theirs, and nearer it than the faces'. A
    set has backs of one colour, not the faces' ivory; a patch of a table, a wall or a cloth that
    reads as a back rarely has it, and in a photo without backs nothing is taken for one unsurely."""
    colours = _backs_colour(readings, ph) if cands else None
    if colours is None:
        return [False] * len(cands)
    back, face = colours
    out = []
    for c in _face_colours(cands):
        if c is None:
            out.append(False)
            continue
        to_back, to_face = float(np.linalg.norm(c - back)), float(np.linalg.norm(c - face))
        out.append(to_back <= BACK_COLOUR_MAX and to_back < to_face)
    return out


def _backs_colour(readings: Sequence[Reading], ph: _photo.Photo | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The colour of the backs of ``readings`` and of their faces with artwork (the medians of
    :func:`_face_colours`), where they hold at least :data:`BACKS_SEEN_MIN` backs and their colour
    lies over :data:`BACK_COLOUR_MAX` from the faces'; else ``None``. Backs as ivory as the faces
    are faces misread (small far tiles of a tray). A reading whose crops were let go (read in the
    straightened view of a photo taken from a seat, :func:`_seen_as_taken`) is measured on crops
    cut again from the photo ``ph`` where it is given (:func:`_cut_again`), else not at all."""
    if sum(r.top[0][0] == "back" for r in readings) < BACKS_SEEN_MIN:
        return None
    backs = [
        c
        for c in _face_colours([_cut_again(r.candidate, ph) for r in readings if r.top[0][0] == "back"])
        if c is not None
    ]
    faces = [
        c for c in _face_colours([_cut_again(r.candidate, ph) for r in readings if _has_artwork(r)]) if c is not None
    ]
    if len(backs) < BACKS_SEEN_MIN or not faces:
        return None
    back, face = np.median(backs, axis=0), np.median(faces, axis=0)
    return None if float(np.linalg.norm(back - face)) <= BACK_COLOUR_MAX else (back, face)


def _crop_source(ph: _photo.Photo) -> tuple[np.ndarray, tuple[float, float]]:
    """The image crops are cut from (the photo's detail image, where it has one, else its working
    image) and its pixels per working pixel, across and down."""
    src = ph.image if ph.detail is None else ph.detail
    return src, (src.shape[1] / ph.image.shape[1], src.shape[0] / ph.image.shape[0])


def _cut_again(cd: Candidate, ph: _photo.Photo | None) -> Candidate:
    """``cd``, with its crops cut from the photo ``ph`` (its detail image, where it has one) where
    they were let go and a photo is given; else as it is."""
    if cd.crops or ph is None:
        return cd
    src, scale = _crop_source(ph)
    return with_crops(src, cd, scale)


def _face_colours(cands: Sequence[Candidate]) -> list[np.ndarray | None]:
    """The mean colour (CIE Lab, L from 0 to 100) of the middle of each find's first crop (its
    middle half each way: no table, no edge of a neighbour), ``None`` for a find without crops;
    converted to Lab together, in one call."""
    means: list[tuple[float, ...] | None] = []
    for cd in cands:
        middle = _middle(np.asarray(cd.crops[0][1]) if cd.crops else np.zeros((0, 0, 3), np.uint8))
        means.append(cv2.mean(middle)[:3] if middle.size else None)
    known = [m for m in means if m is not None]
    if not known:
        return [None] * len(means)
    lab = iter(cv2.cvtColor(np.array(known, np.float32).reshape(-1, 1, 3) / 255.0, cv2.COLOR_BGR2Lab).reshape(-1, 3))
    return [None if m is None else next(lab) for m in means]


def _middle(crop: np.ndarray) -> np.ndarray:
    """The middle half of a crop each way: its face, without the table or a neighbour's edge."""
    h, w = crop.shape[:2]
    return crop[h // 4 : h - h // 4, w // 4 : w - w // 4]


def _ground_colour(cd: Candidate) -> np.ndarray:
    """The colour (CIE Lab, L from 0 to 100) of the lighter half of the middle of a find's first crop
    (its middle half each way): a face's ground, ivory or white, whatever its artwork; the table's
    own colour where the find shows the table."""
    middle = np.ascontiguousarray(_middle(np.asarray(cd.crops[0][1]))).astype(np.float32) / 255.0
    lab = cv2.cvtColor(middle, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return lab[lab[:, 0] >= np.median(lab[:, 0])].mean(0)
