"""Views of the photo that a homography makes of its working pixels (straightened, as seen from
straight above, or turned): the finds in such a view, their crops cut from the photo as it is
(:func:`_found_in_view`, :func:`_found_in`), and its readings brought back to the photo's pixels
(:func:`_as_taken`); and where the finder's face map of the first reading marks tiles' faces away
from finds and tiles read (:func:`_faces_apart`).

Used by the reading of a photo from a seat (:mod:`vision.seat`), the part beyond the hand
(:mod:`vision.beyond`) and the looks again (:mod:`vision.looks_again`).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from . import photo as _photo
from .crops import _crop_source
from .finders import Candidate, find_candidates
from .finders.learned import FACE_THRESHOLD
from .readings import Reading


def _seen_as_taken(r: Reading, back: np.ndarray) -> Reading:
    """``r``, found and read in a straightened view of the photo, in the photo's own working pixels
    (``back``: the homography from the view's pixels to them); its crops, read already, let go, and
    its spread (measured in the view's pixels) with them."""

    def moved(q: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(q, np.float64).reshape(1, 4, 2), back).reshape(4, 2)

    cd = dataclasses.replace(r.candidate, quad=moved(r.candidate.quad).astype(np.float32), crops=(), spread=None)
    return dataclasses.replace(r, candidate=cd, quad=moved(r.quad))


#: a face map marks a tile's face and a little round it (its edge, its body seen from a seat): a
#: tile read takes its box grown this much about its centre off the map (:func:`_face_beyond`)
READ_MARK_GROWTH = 1.4


def _faces_apart(face_map: dict, quads: list[np.ndarray]) -> np.ndarray:
    """Where the finder's face map of the first reading (``face_map``: :func:`vision.finders.
    find_candidates`' ``face`` and ``scale``) marks a tile's face, away from ``quads`` (working
    pixels; each grown :data:`READ_MARK_GROWTH` about its centre): a uint8 mask of 0 and 1 at the
    map's size."""
    face, scale = face_map["face"], float(face_map["scale"])
    marked = (face > FACE_THRESHOLD).astype(np.uint8)
    for q in quads:
        c = q.mean(0)
        cv2.fillConvexPoly(marked, np.round(((q - c) * READ_MARK_GROWTH + c) / scale).astype(np.int32), 0)
    return marked


def _found_in_view(
    ph: _photo.Photo, m: np.ndarray, size: tuple[int, int], finder: str | None, tile_px: float
) -> list[Candidate]:
    """The candidates in the view of the photo ``ph`` that the homography ``m`` makes (``size``:
    width, height), its tiles about ``tile_px`` wide there: quads in the view's pixels, crops cut
    from the photo as it is (from its detail image, where it has one), each face's quadrilateral
    rectified."""
    img = cv2.warpPerspective(ph.image, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return _found_in(ph, img, m, finder, tile_px)


def _found_in(ph: _photo.Photo, view: np.ndarray, m: np.ndarray, finder: str | None, tile_px: float) -> list[Candidate]:
    """The candidates in ``view``, a view of the photo ``ph`` that the homography ``m`` makes of
    its working pixels, its tiles about ``tile_px`` wide there: quads in the view's pixels, crops
    cut from the photo as it is (from its detail image, where it has one)."""
    src, scale = _crop_source(ph)
    to_src = np.diag([*scale, 1.0])
    return find_candidates(view, finder=finder, detail=src, to_detail=to_src @ np.linalg.inv(m), tile_px=tile_px)


def _as_taken(seen: list[Reading], m: np.ndarray, ph: _photo.Photo) -> list[Reading]:
    """The readings ``seen`` of the view the homography ``m`` makes of the photo ``ph``, in its
    working pixels (:func:`_seen_as_taken`), those centred beyond the photo left out (there the
    view shows its edge pixels drawn out, which read as a sure ``back``)."""
    back = np.linalg.inv(m)
    h, w = ph.image.shape[:2]
    moved = (_seen_as_taken(r, back) for r in seen)
    return [r for r in moved if 0 <= r.quad.mean(0)[0] < w and 0 <= r.quad.mean(0)[1] < h]
