"""The part of a photo taken from a seat that lies beyond the hand (:func:`_read_beyond`): other
players' rows across the table, too small and squat for the looks sized for the hand, looked for in
the view the reading from a seat was made in (:mod:`vision.seat`), first small
(:func:`_row_beyond`) and only where the first reading's face map marks faces there
(:func:`_face_beyond`), and read at the places the readings left empty.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np

from . import photo as _photo
from . import slant as _slant
from .finders import find_candidates, finder_name
from .finders.geometry import centred_in
from .read_finds import _read
from .readings import Reading, _empty_places, _quad_areas, _tiles_width
from .seat import ROW_OF_FACES, SeatPart, _places_missed
from .views import _as_taken, _faces_apart, _found_in_view

#: the hand's tiles, where the part beyond them starts (:func:`_read_beyond`): readings at least this
#: share of the size (square root of the area) of the largest but one in ten
HAND_SIZE_SHARE = 0.75
#: the part beyond is first seen only so large that tiles of the hand's size come out this wide
#: (pixels; the finder finds tiles from about 8): most photos show no row there. Other players'
#: tiles come out as little as half the hand's width there (farther off, or straightened in a view
#: whose depth the hand's one row measured short), so 10 px. At 14 (sessions 31-37) such rows went
#: unseen: on the composed tables seen 55 degrees off (``c7s55``) 10 tiles more are read at 20 (22
#: saved again as JPEG 85, and 3 of ``c5s55``), for 2 more that are not there and about 4 ms more
#: a seat photo (median of the look, 10 -> 14 ms on ``c5``)
PROBE_TILE_PX = 20.0
#: where that look finds no row though the face map marks faces beyond the hand
#: (:data:`BEYOND_FACE_MIN`), the part beyond is looked at once more this many times as large
#: (:func:`_row_beyond`): other players' rows seen from a seat at 55 degrees came out a third of the
#: hand's width, 7 px at the first look, too few for the finder
PROBE_AGAIN = 1.5
#: ... where the face map marks at least this many tiles' faces beyond the hand (a row of five
#: tiles a third of the hand's width). Of the 62 photos from a seat of the real-tile sample A
#: (:mod:`training.ab`) whose first small look found no row, the larger look found rows that added
#: tiles on 3: two marked 1.05 and 1.87 (23 tiles more read right), one 0.40 (one right, one
#: wrong); 32 marked 0.3-0.6, and are not looked at again (half the larger looks' cost)
PROBE_AGAIN_FACE_MIN = 0.6
#: a tile read beyond the hand is kept where the classifier read it at least this surely (seen
#: with few pixels: of 15 read under 0.5 on composed tables seen from a seat, 5 were right)
BEYOND_READ_MIN = 0.5
#: the part beyond is looked at only where the first reading's face map (:func:`_face_beyond`) marks
#: at least this many tiles' faces there, away from the tiles read. Of the photos from a seat of the
#: real-tile sets (:mod:`training.ab`: ``c7s``, ``c7s55``, ``t2s``, ``c5s55`` and ``c3``, 112 with a
#: part beyond) the five where the reading beyond added tiles marked 1.1 tiles or more there; 74
#: marked under 0.3, where one small look of 11 found a row (no tile read in it). Of 176 synthetic
#: photos from a seat (hands among clutter, rows at a diagonal, trays and piles, 35-55 degrees off;
#: seeds 42000 on), 131 marked under 0.3, where 5 small looks of 13 found a row, none a tile. Both
#: samples of the real-tile sets and the synthetic photos read the same, tile for tile, with
#: 7.7 of 12.6 seconds of reading beyond saved
BEYOND_FACE_MIN = 0.3


def _face_beyond(
    face_map: dict, readings: list[Reading], to_probe: np.ndarray, size: tuple[int, int], tile_px: float
) -> float:
    """How many tiles' faces (``tile_px`` wide and a third taller) the finder's face map of the
    first reading (``face_map``: :func:`vision.finders.find_candidates`' ``face`` and ``scale``)
    marks in the image the homography ``to_probe`` makes of the photo's working pixels (``size``:
    width, height), away from the tiles ``readings`` read (:data:`READ_MARK_GROWTH`)."""
    scale = float(face_map["scale"])
    marked = _faces_apart(face_map, [r.quad for r in readings])
    seen = cv2.warpPerspective(marked, to_probe @ np.diag([scale, scale, 1.0]), size, flags=cv2.INTER_NEAREST)
    return float(np.count_nonzero(seen)) / (tile_px * tile_px * 4 / 3)


def _read_beyond(
    ph: _photo.Photo,
    part: SeatPart,
    readings: list[Reading],
    finder: str | None,
    classifier: Any,
    face_map: dict | None = None,
) -> list[Reading]:
    """The tiles in rows beyond the hand of a photo taken from a seat, at places ``readings`` left
    empty (:func:`_places_missed`), read at least :data:`BEYOND_READ_MIN`: the photo above the
    hand's tiles (:data:`HAND_SIZE_SHARE`; the median top of their boxes) seen from straight above
    as the part ``part`` read again was (:func:`vision.slant.beyond`), found as a photo of its own
    and read. It is first looked at small (:func:`_row_beyond`), and only where a look finds a
    row of tiles (:data:`ROW_OF_FACES` finds in a face region) not read already is it found and read.
    Where the finder's face map of the first reading (``face_map``, when given) marks less than
    :data:`BEYOND_FACE_MIN` of a tile's face there, away from the tiles read, it is not looked at:
    most photos from a seat show nothing beyond the hand, and the small look cost 8-25 ms of a
    hand's 150-300.

    Other players' rows across the table come out squashed to a few pixels high in the photo:
    the looks, sized for the hand, find none of them, and the part read again straightened (the
    tiles read at first, grown by :data:`vision.slant.REACH` tile widths) leaves them out; where
    they are smaller than the hand's on the table as well, the looks at that part, sized for the
    hand, miss them there too. Only finds at empty places are read (the part beyond reaches the
    hand's row, whose tiles are read already), and only rows of them are kept (a lone patch of the
    room is no tile). Rows found only by the second, larger look (:data:`PROBE_AGAIN`) are found
    at their own width, and read with so few pixels that none of their readings is sure. Only the
    learned finder looks for rows alone; with the classical one there is nothing beyond."""
    view, box, faces = part
    if finder_name(finder) != "learned" or not readings:  # (only it looks for rows alone)
        return []
    sizes = np.sqrt(_quad_areas([r.quad for r in readings]))
    least = HAND_SIZE_SHARE * np.percentile(sizes, 90)
    hand = [r for r, size in zip(readings, sizes) if size >= least]
    top = float(np.median([r.quad[:, 1].min() for r in hand]))  # (a reading astray takes no part)
    seen = _slant.beyond(view, box, faces, ph.image.shape, top)
    if seen is None:
        return []
    m, size = seen
    tile_px = _slant.width_seen(faces, m)
    marked = 0.0  # (tiles' faces the face map marks there: without one, no larger look)
    if face_map:
        k = min(1.0, PROBE_TILE_PX / tile_px)
        marked = _face_beyond(face_map, readings, *_shrunk_view(m, size, k), tile_px * k)
        if marked < BEYOND_FACE_MIN:
            return []
    row = _row_beyond(ph, m, size, tile_px, readings, finder, again=marked >= PROBE_AGAIN_FACE_MIN)
    if row is None:
        return []
    row_px, small_rows = row
    cands = _found_in_view(ph, m, size, finder, row_px)
    back = np.linalg.inv(m)
    empty = _empty_places([_slant.moved(cd.quad, back) for cd in cands], readings)
    cands = [cd for cd, free in zip(cands, empty) if free]
    seen_read, reason, _rejected = _read(cands, classifier) if cands else ([], None, 0)
    if reason is not None:
        return []
    in_photo = _as_taken(seen_read, m, ph)
    kept = [r for r in _places_missed(in_photo, readings) if r.top[0][1] >= BEYOND_READ_MIN]
    return [dataclasses.replace(r, sure=False) for r in kept] if small_rows else kept


def _row_beyond(
    ph: _photo.Photo,
    m: np.ndarray,
    size: tuple[int, int],
    tile_px: float,
    readings: list[Reading],
    finder: str | None,
    again: bool = True,
) -> tuple[float, bool] | None:
    """Whether the view of the photo ``ph`` that the homography ``m`` makes (``size``: width,
    height; the hand's tiles ``tile_px`` wide there) shows a row of tiles not among ``readings``:
    ``(width, small)``, the width to find its tiles at and whether they are smaller than a first
    look finds, or ``None`` where no look finds one.

    The view is first seen as small as tiles of the hand's size can be found
    (:data:`PROBE_TILE_PX`): most photos show no row there, and a row of other players' tiles
    half the hand's width is found too; the tiles are then found at the hand's width. Where that
    look finds no row, and ``again`` (the face map marks enough there:
    :data:`PROBE_AGAIN_FACE_MIN`), the view is seen once more :data:`PROBE_AGAIN` times as large
    (unless the first look saw it at its own size already): seen from a seat at 55 degrees, with
    the view's depth measured short on the hand's one row, other players' rows came out a third
    of the hand's width, 7 pixels at the first look. All of the view: the face map of the first
    reading marks such rows faintly, if at all (a row of honours there, under the finder's
    threshold). A row found there is found at the width of its own finds (:func:`_tiles_width` of
    those not centred in a reading), which a look sized for the hand would take for specks."""
    for probe_px in (PROBE_TILE_PX, PROBE_TILE_PX * PROBE_AGAIN):
        k = min(1.0, probe_px / tile_px)
        small, probe_size = _shrunk_view(m, size, k)
        probe = cv2.warpPerspective(ph.image, small, probe_size)
        read_at = [_slant.moved(r.quad, small) for r in readings]
        found = find_candidates(
            probe, finder=finder, crops=False, tile_px=tile_px * k, least_row=ROW_OF_FACES, read_at=read_at
        )
        if found and probe_px == PROBE_TILE_PX:
            return tile_px, False
        if found:
            unread = [cd for cd in found if not centred_in(cd.quad, read_at)]
            return _tiles_width(unread or found) / k, True
        if not again or k >= 1.0:  # (seen at its own size: a larger look has no more pixels)
            return None
    return None


def _shrunk_view(m: np.ndarray, size: tuple[int, int], k: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The view the homography ``m`` makes (``size``: width, height) shrunk ``k`` times: its
    homography and size."""
    return np.diag([k, k, 1.0]) @ m, (max(1, round(size[0] * k)), max(1, round(size[1] * k)))
