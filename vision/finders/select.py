"""Which tile finder reads a photo, and the candidates it hands the classifier.

``"learned"`` (:mod:`vision.finders.learned`, the ONNX tile finder) is the default when its model
ships; ``"classical"`` (:mod:`vision.finders.classical`, colour and seams, OpenCV only) otherwise,
or when asked for. Both give :class:`~vision.finders.candidate.Candidate` objects of one form, and
the same upright crops (:func:`vision.finders.geometry.with_crops`).
"""

from __future__ import annotations

import numpy as np

from . import classical, learned
from .candidate import Candidate
from .geometry import with_crops

FINDERS = ("learned", "classical")


def finder_name(finder: str | None = None) -> str:
    """The finder to use: ``finder`` when given (``"learned"`` or ``"classical"``, else
    :class:`ValueError`), otherwise learned when its model ships, else classical."""
    if finder is None:
        return "learned" if learned.available() else "classical"
    if finder not in FINDERS:
        raise ValueError(f"unknown tile finder {finder!r}: use 'learned' or 'classical'")
    return finder


def find_candidates(
    img: np.ndarray,
    *,
    finder: str | None = None,
    crops: bool = True,
    detail: np.ndarray | None = None,
    debug: dict | None = None,
    to_detail: np.ndarray | None = None,
    tile_px: float | None = None,
) -> list[Candidate]:
    """Tile candidates in ``img`` (BGR uint8), quads in ``img`` pixels, from the finder
    :func:`finder_name` picks; with their upright crops unless ``crops`` is false, cut from
    ``detail`` when given (the same framing as ``img``, larger: :attr:`vision.photo.Photo.detail`).
    ``debug``, when given, receives the finder's face ``mask`` (and the learned finder's ``core``
    map). ``to_detail`` (3x3), when given, is the homography from ``img``'s pixels to ``detail``'s,
    which is then any view of the same scene (see :func:`~vision.finders.geometry.with_crops`).
    ``tile_px``, the tiles' width in ``img`` when known beforehand, sets the learned finder's first
    look (:func:`~vision.finders.learned.find_tiles`)."""
    name = finder_name(finder)
    same_framing = detail if to_detail is None else None  # (a view's detail is the photo itself)
    cands = (
        learned.candidates(img, debug, tile_px, same_framing) if name == "learned" else classical.candidates(img, debug)
    )
    if crops:
        src = img if detail is None else detail
        scale = (src.shape[1] / img.shape[1], src.shape[0] / img.shape[0])
        cands = [with_crops(src, cd, scale, to_detail) for cd in cands]
    return cands
