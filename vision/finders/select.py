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
    not_tiles: list[np.ndarray] | None = None,
    least_row: int = 0,
    read_at: list[np.ndarray] | None = None,
    face_map: dict | None = None,
) -> list[Candidate]:
    """Tile candidates in ``img`` (BGR uint8), quads in ``img`` pixels, from the finder
    :func:`finder_name` picks; with their upright crops unless ``crops`` is false, cut from
    ``detail`` when given (the same framing as ``img``, larger: :attr:`vision.photo.Photo.detail`).
    ``debug``, when given, receives the finder's face ``mask`` (and the learned finder's ``core``
    map). ``to_detail`` (3x3), when given, is the homography from ``img``'s pixels to ``detail``'s,
    which is then any view of the same scene (see :func:`~vision.finders.geometry.with_crops`).
    ``tile_px``, the tiles' width in ``img`` when known beforehand, sets the learned finder's first
    look, and ``not_tiles`` (quads read as no tile) starts it at its far look, those places not
    measured, and ``least_row`` has it look for rows of tiles only, those centred in ``read_at``
    (tiles read already) left out (:func:`~vision.finders.learned.find_tiles`; the classical
    finder ignores these). ``face_map``, when given, receives the learned finder's last face map
    (:func:`~vision.finders.learned.candidates`); the classical finder leaves it empty."""
    name = finder_name(finder)
    same_framing = detail if to_detail is None else None  # (a view's detail is the photo itself)
    cands = (
        learned.candidates(img, debug, tile_px, same_framing, not_tiles, least_row, read_at or [], face_map)
        if name == "learned"
        else classical.candidates(img, debug)
    )
    if crops:
        src = img if detail is None else detail
        scale = (src.shape[1] / img.shape[1], src.shape[0] / img.shape[0])
        cands = [with_crops(src, cd, scale, to_detail) for cd in cands]
    return cands


def find_farther(
    img: np.ndarray,
    cands: list[Candidate],
    *,
    finder: str | None = None,
    detail: np.ndarray | None = None,
    looked: int | None = None,
) -> list[Candidate]:
    """Candidates in ``img`` from the learned finder's far look, for when ``cands``, the finder's
    first candidates, read as few tiles (:func:`vision.recognize.recognize`: at most half of them,
    under three surely), or when there were none, its last look ``looked`` pixels long (its long
    side: the face map's ``look``, :func:`vision.finders.learned.candidates`): :func:`find_candidates`
    with their quads as ``not_tiles``, so that the looks do not measure those places again.

    A hand far from a 12-megapixel camera shows tiles 7-14 px wide at the first look, too small to
    be found; a pattern beside it (ripples, patches, leaves) can show finds of a tile's size
    there, and the finder, its tiles measured, looks no closer. When those finds read as no
    tile, the size was measured on no tile, and the far look sees the photo as the finder does
    when its first look finds nothing, the size measured on what the pattern leaves. A large pale
    shape beside a far row (a sheet of paper, a white shape on a poster) can make the looks
    smaller still, sized for it, until nothing is found: the far look sees the row as it sees a
    far hand. ``[]`` for another finder, for no ``cands`` and no ``looked``, and where the looks
    that found ``cands`` (or found nothing) already saw the photo as large as the far look does
    (it would find the same)."""
    if finder_name(finder) != "learned" or not (cands or looked):
        return []
    last = max(cd.look for cd in cands) if cands else int(looked or 0)
    if last >= learned.far_look(img, detail):
        return []
    return find_candidates(img, finder=finder, detail=detail, not_tiles=[cd.quad for cd in cands])
