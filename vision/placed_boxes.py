"""Tiles read in boxes placed, not found: parts of a find read as no tile, or of an unsure reading,
too large for one tile (:func:`_oversized_read_again`, :func:`_large_unsure_read_again`); the places
of a grid or a row that no reading fills (:func:`_grid_cells_read`); patches of the colour of the
photo's backs (:func:`_backs_by_colour`); two halves of one tile read whole
(:func:`_halves_read_whole`); and a tile's box placed at every turn over a find boxed turned the
wrong way (:func:`_unread_finds_turned`).

Each box is cut from the photo and read with the classifier alone
(:func:`vision.read_finds._read_crops`), not found by the finder, so its reading is never sure.
:func:`vision.recognize.recognize` runs these after the reading from a seat (:mod:`vision.seat`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from . import photo as _photo
from . import slant as _slant
from .classifier import FEATURELESS, NOT_A_TILE, get_classifier
from .crops import BACK_COLOUR_MAX, _backs_colour, _crop_source, _ground_colour, _like_the_backs
from .finders import Candidate
from .finders.geometry import is_ambiguous, order_quad, quad_ink, with_crops
from .layout_rules import BLANK_FACE_INK
from .read_finds import BACK_MIN_CONFIDENCE, ROW_PLACE_FROM, _best_readings, _clean, _read_crops, _tiles_only
from .readings import (
    UNKNOWN,
    Reading,
    _apart,
    _at_empty_places,
    _centres,
    _empty_places,
    _has_artwork,
    _long_side,
    _quad_area,
    _quad_areas,
    _short_side,
    _upright,
)

#: a find read as no tile is read again in parts the size of the tiles read surely beside it
#: (:func:`_oversized_read_again`) where its box is at least this many times their area (at 1.4,
#: one tile fewer of 1,045 in 120 piles: a ``1s`` boxed 1.38 times as large) ...
OVERSIZED_FROM = 1.25
#: ... and at most this many (larger finds are not a tile or two boxed with a little of another or
#: of the table). At 3 (sessions 39-42), two tiles side by side at a photo's edge, boxed as one with
#: a margin 3.2 times a tile's area, were lost: two birds of ``1s`` in a set no model saw
OVERSIZED_UP_TO = 4.0
#: ... measured on at least this many sure readings with artwork
OVERSIZED_SURE_MIN = 3
#: ... and a part is kept where the classifier reads a tile with artwork there at least this surely
#: (the network's own probability)
OVERSIZED_READ_MIN = 0.9
#: where a part of a find may lie in it, along each side: at either end, the middle and the
#: quarters. A tile boxed with half a tile beside it lies a quarter of the box's slack off the
#: nearest of the ends and the middle alone, a part cut there reads as no tile, and so it was lost:
#: with the quarters 18 tiles more are read of 290 piles (seeds 19000-19119, 25000-25119,
#: 9300-9339 and the ten of 12 megapixels), every one of them right
OVERSIZED_PLACES = (0.0, 0.25, 0.5, 0.75, 1.0)


def _oversized_read_again(
    ph: _photo.Photo, cands: Sequence[Candidate], readings: list[Reading], classifier: Any
) -> list[Reading]:
    """Readings of the finds of ``cands`` read as no tile whose boxes are :data:`OVERSIZED_FROM` to
    :data:`OVERSIZED_UP_TO` times as large as the tiles ``readings`` read surely with artwork: each
    read again in parts of those tiles' size (their median short and long sides, upright and
    lying) at its ends, quarters and middle along each side (:data:`OVERSIZED_PLACES`), and the
    part read most surely as a tile with artwork kept where the network reads it at least
    :data:`OVERSIZED_READ_MIN`, at a place ``readings`` left empty, and so is every other part
    read so on a tile of its own (see below); never shown as sure (the part is placed, not found).
    Only the parts at such places are cut and read.

    In a pile a tile lies on others, and the finder's box round its face can take in the edge or
    the face of the tile under it: a box half as large again as the tiles beside it, whose crop
    reads as no tile while the tile in it is plain to see. A box over two whole tiles is read so
    as well: its parts are taken most sure first, each where it lies at a place left empty and on
    a tile of its own (:data:`OVERSIZED_PARTS_APART`), so both tiles are read where neither has a find of
    its own, and only the other where one has. Featureless readings (a back, a blank white
    dragon) are not taken: a part of a box of table or paper reads as those as readily as as
    nothing. A back is, where the photo shows backs read surely and the part has their colour
    (:func:`_like_the_backs`): a pile with face-down tiles in it."""
    clf = get_classifier() if classifier is None else classifier
    sure = [r for r in readings if r.sure and _has_artwork(r)]
    if len(sure) < OVERSIZED_SURE_MIN:
        return []
    short = float(np.median([_short_side(r.quad) for r in sure]))
    long_ = float(np.median([_long_side(r.quad) for r in sure]))
    kept = {id(r.candidate) for r in readings}
    large = [
        cd
        for cd in cands
        if id(cd) not in kept
        and OVERSIZED_FROM * short * long_ <= _quad_area(cd.quad) <= OVERSIZED_UP_TO * short * long_
    ]
    # (not finds centred on a reading, within half a tile's width: from a seat, the first reading's
    # finds lie under the straightened reading's tiles)
    centres = _centres([r.quad for r in readings])
    large = [cd for cd in large if np.hypot(*(centres - cd.quad.mean(0)).T).min() >= short / 2]
    if not large:
        return []
    src, scale = _crop_source(ph)
    placed = [(k, quad) for k, cd in enumerate(large) for quad in _parts_of(cd.quad.astype(np.float64), short, long_)]
    parts, owners = [], []
    for (k, quad), empty in zip(placed, _empty_places([quad for _k, quad in placed], readings)):
        if not empty:  # (a part over a reading is never kept: not cut, not read)
            continue
        # (a part has its tile's shape: lying when wider than high, neither ambiguous nor slanted)
        shaped = dataclasses.replace(
            large[k], quad=quad, lying=_wider_than_high(quad), ambiguous=False, slanted=False, crops=()
        )
        part = with_crops(src, shaped, scale)
        parts.append(part)
        owners += [(k, len(parts) - 1, rot) for rot, _ in part.crops]
    if not parts:
        return []
    # (backs too, of the colour of the photo's backs: a pile with face-down tiles in it; a patch of
    # the room reads as a back as surely. Where no part has that colour, as in a photo without
    # backs, no featureless reading is taken, and the classifier's fallback for them is not asked)
    coloured = _like_the_backs(parts, readings, ph)
    reader = clf if any(coloured) else getattr(clf, "without_fallback", lambda: clf)()
    raw, shown = _read_crops(reader, [crop for part in parts for _, crop in part.crops])
    read_parts: dict[int, list[tuple[float, int, int, list[tuple[str, float]]]]] = {}  # (per find)
    for (k, pi, rot), top, cal in zip(owners, _clean(raw), _clean(shown)):
        code, p = top[0]
        taken = code not in (NOT_A_TILE, *FEATURELESS, UNKNOWN) or (code == "back" and coloured[pi])
        if taken and p >= OVERSIZED_READ_MIN:
            read_parts.setdefault(k, []).append((p, pi, rot, _tiles_only(cal)))
    out: list[Reading] = []
    for of_find in read_parts.values():
        mine: list[Reading] = []
        for _p, pi, rot, top in sorted(of_find, key=lambda t: -t[0]):
            cd = dataclasses.replace(parts[pi], crops=())
            r = Reading(cd, _upright(cd.quad, rot), rot, top)
            # (two finds' parts on one tile: the first; a find's parts: each on a tile of its own)
            if _empty_places([r.quad], out)[0] and _empty_places([r.quad], mine, OVERSIZED_PARTS_APART)[0]:
                out.append(r)
                mine.append(r)
    return out


#: an unsure reading is read again in parts the size of the tiles read surely beside it
#: (:func:`_large_unsure_read_again`) where its box is at least this many times their area
LARGE_UNSURE_FROM = 1.4
#: ... and a part is taken where the classifier reads a tile with artwork there at least this surely
#: (the network's own probability), and more surely than the box (calibrated, as shown)
LARGE_UNSURE_PART_MIN = 0.5
#: ... the tiles beside it: this many of the readings with artwork read surely, the nearest it
LARGE_UNSURE_BESIDE = 4


def _large_unsure_read_again(ph: _photo.Photo, readings: list[Reading], classifier: Any) -> list[Reading]:
    """``readings``, each unsure reading with artwork whose box is :data:`LARGE_UNSURE_FROM` to
    :data:`OVERSIZED_UP_TO` times as large as the tiles beside it read surely with artwork (the
    :data:`LARGE_UNSURE_BESIDE` nearest, by their median sides) read again in parts of their size
    (:func:`_parts_of`, as :func:`_oversized_read_again` reads a find read as no tile), and replaced
    by the parts that read a tile with artwork at least :data:`LARGE_UNSURE_PART_MIN` (the network's
    own probability) and more surely than it did (as shown), at places the other readings left
    empty, most sure first, each on a tile of its own (:data:`OVERSIZED_PARTS_APART`); never sure
    (the part is placed, not found).

    A box half as large again as the tiles beside it holds a tile and a strip of what lies beside
    it: the edge of the next tile, a tile it lies on in a pile, the table. Such a crop is read, but
    unsurely, and often as another tile: a straight edge beside a ``2m`` (二) reads as a third
    stroke, a ``3m``. A box over two whole tiles standing in a rack, whose seam the finder could not
    see, reads as some third tile. Cut to the tiles' size, each tile reads as itself. Where no part
    reads more surely, the reading stands."""
    sure = [r for r in readings if r.sure and _has_artwork(r)]
    if len(sure) < OVERSIZED_SURE_MIN:
        return readings
    sure_centres = _centres([r.quad for r in sure])
    sure_sides = np.array([(_short_side(r.quad), _long_side(r.quad)) for r in sure])
    placed: list[tuple[int, np.ndarray]] = []  # (the reading, a part of its box)
    for i, r in enumerate(readings):
        if r.sure or not _has_artwork(r):
            continue
        # (the tiles beside it: the sure ones nearest it; a hand near the camera and other players'
        # tiles across the table come in two sizes, and a tile of the hand is no larger than its own)
        near = np.argsort(np.hypot(*(sure_centres - r.quad.mean(0)).T))[:LARGE_UNSURE_BESIDE]
        short, long_ = np.median(sure_sides[near], axis=0)
        if LARGE_UNSURE_FROM * short * long_ <= _quad_area(r.quad) <= OVERSIZED_UP_TO * short * long_:
            placed += [(i, quad) for quad in _parts_of(r.quad.astype(np.float64), float(short), float(long_))]
    if not placed:
        return readings
    # (a part lies at a place the other readings left empty: its own reading's place is its to take)
    apart = _apart([quad for _i, quad in placed], readings)
    placed = [(i, quad) for (i, quad), free in zip(placed, apart) if free[np.arange(len(readings)) != i].all()]
    if not placed:
        return readings
    src, scale = _crop_source(ph)
    parts = [
        with_crops(
            src,
            dataclasses.replace(
                readings[i].candidate, quad=quad, lying=_wider_than_high(quad), ambiguous=False, slanted=False, crops=()
            ),
            scale,
        )
        for i, quad in placed
    ]
    owners = [(k, rot) for k, part in enumerate(parts) for rot, _crop in part.crops]
    clf = get_classifier() if classifier is None else classifier
    reader = getattr(clf, "without_fallback", lambda: clf)()  # (featureless readings are not taken)
    raw, shown = _read_crops(reader, [crop for part in parts for _rot, crop in part.crops])
    read_parts: dict[int, list[tuple[float, int, int, list[tuple[str, float]]]]] = {}  # (per reading)
    for (k, rot), top, cal in zip(owners, _clean(raw), _clean(shown)):
        i = placed[k][0]
        code, p = top[0]
        again = _tiles_only(cal)
        if code in (NOT_A_TILE, *FEATURELESS, UNKNOWN) or p < LARGE_UNSURE_PART_MIN or not again:
            continue
        if again[0][1] > readings[i].top[0][1]:
            read_parts.setdefault(i, []).append((p, k, rot, again))
    replaced: dict[int, list[Reading]] = {}
    taken: list[Reading] = []  # (two large boxes' parts on one tile: the first)
    for i, of_reading in read_parts.items():
        mine: list[Reading] = []
        for _p, k, rot, top in sorted(of_reading, key=lambda t: -t[0]):
            cd = dataclasses.replace(parts[k], crops=(), ink=quad_ink(ph.image, parts[k].quad))
            r = Reading(cd, _upright(cd.quad, rot), rot, top)
            if _empty_places([r.quad], taken)[0] and _empty_places([r.quad], mine, OVERSIZED_PARTS_APART)[0]:
                mine.append(r)
                taken.append(r)
        if mine:
            replaced[i] = mine
    return [r for i, old in enumerate(readings) for r in replaced.get(i, [old])]


#: a place in a grid of tiles (:func:`_grid_cells_read`) is one step from a tile along its row or
#: its column: a step from one tile to the next runs within this many degrees of the tile's top side
#: (a row) or of its left side (a column) ...
GRID_STEP_TURN = 12.0
#: ... and is this many times that side long (tiles packed edge to edge: 1.0, or less where the
#: finder's box is larger than the tile: 0.77 on a tray seen 45 degrees off; a little gap between
#: them; from a seat, rows of a tray lie farther apart than their faces are high, each tile's body
#: showing below its face: 1.36 times there)
GRID_STEP_LENGTH = (0.7, 1.6)
#: ... between tiles of about one size (area ratio within these)
GRID_STEP_AREA = (0.6, 1.6)
#: a place is taken for a grid's where a step along a row and one along a column put a tile there
#: within this share of a tile's width (:func:`_short_side`) of each other
GRID_PLACE_AGREE = 0.3
#: a place is read where at least this many readings with artwork were read surely in the photo
GRID_SURE_MIN = 4
#: ... and kept where the classifier reads a tile with artwork there at least this surely (the
#: network's own probability): a grid's place holds a tile or shows the table, and the table reads as
#: no tile; a tile of a set the classifier never saw reads unsurely (a ``1s`` peacock of a held-out
#: set at 0.79)
GRID_READ_MIN = 0.5
#: the places are read again, with the tiles read at places before, where that gave a tile, up to
#: this many times in all: tiles missed side by side are read one from the other (a row's gap of
#: three: the middle, then each side)
GRID_PASSES = 3
#: a row's place is one where the row goes on past it: a reading one place farther, or up to this
#: many
GRID_ROW_GAP = 2
#: a place is read where its ground colour lies within this distance of its firm tile's
#: (:func:`_ground_colour`; CIE Lab, L from 0 to 100). On the real-tile sets and scene_11 the places
#: where a tile was read came 0.1-23 from their firm tiles (a white ``3z`` beside ivory faces, 23);
#: places that read as no tile 20-38, and the cloth between a hand's groups 46
GRID_FACE_COLOUR_MAX = 28.0


def _grid_cells_read(ph: _photo.Photo, readings: list[Reading], classifier: Any) -> list[Reading]:
    """The readings of :func:`_grid_places_read`, :data:`GRID_PASSES` times: each time with the tiles
    read at places before, while that gives a tile; a place is read once."""
    found: list[Reading] = []
    read_before: list[np.ndarray] = []
    for _ in range(GRID_PASSES):
        more = _grid_places_read(ph, readings + found, classifier, read_before)
        if not more:
            break
        found += more
    return found


def _grid_places_read(
    ph: _photo.Photo, readings: list[Reading], classifier: Any, read_before: list[np.ndarray]
) -> list[Reading]:
    """Readings at the places of a grid of tiles, or of a row, that no reading fills: a tile the finder
    missed in a set laid out in rows and columns (a tray, a catalogue photo, the discards) or inside a
    row (a hand, a row far across the table), read where a step along a row and a step along a
    column put a tile, or where a row goes on past the place, and kept where the classifier reads a
    tile with artwork there at least :data:`GRID_READ_MIN` (the network's own probability), a white
    dragon too where the place's ink (measured there, as the finder measures a find's) says it is
    framed (:data:`BLANK_FACE_INK`; a blank one is what a pale patch of the table passes for);
    never shown as sure (the place is predicted, not found). Only in a photo with :data:`GRID_SURE_MIN`
    readings with artwork read surely.

    A step runs from a firm tile (read with artwork at :data:`ROW_PLACE_FROM` or more, sure or not:
    other players' tiles, smaller than the hand's, are never sure) to a reading beside it
    (:data:`GRID_STEP_TURN`, :data:`GRID_STEP_LENGTH`, :data:`GRID_STEP_AREA`), along the firm
    tile's top side (its row) or its left side (its column). A place lies one step back from the
    firm tile, where its row (or column) would go on past it, at a place no reading fills (as
    :func:`_empty_places` says). It is a grid's place where one of the firm tile's steps across
    (along its column, or its row), taken either way from the place, leads to a reading within
    :data:`GRID_PLACE_AGREE` of a tile's width; it lies halfway between where the two steps put it.
    It is a row's place where a reading lies a step or up to :data:`GRID_ROW_GAP` steps past it, in
    line: a gap in the row. The corner of a tray whose first tile the finder missed lies one step
    before its row and one step above the tile below it. It is also a row's place past the row's
    end, along the firm tile's top side, where the row holds two more tiles beyond the firm one (a
    step and two steps on from it, a reading each): the first or last tile of a hand, or of a
    row across the table, that the finder left out (on a table as light as the faces it marks a
    row's end tiles weakly); a place that is a grid's or a gap's for another firm tile is cut from
    that tile's box. The box read is the firm tile's find, moved to the place and cut as that tile
    was read (upright, or turned a quarter); places with a corner outside the photo are not read,
    nor those whose ground colour is not the firm tile's (:data:`GRID_FACE_COLOUR_MAX`: a gap
    between a hand's groups, and mostly the table past a row's end, shows the table). Past a row's
    end the table is read where it has the faces' colour, and reads as no tile or as a blank face,
    neither of which is taken.
    ``read_before`` holds the centres of the places read before (:func:`_grid_cells_read`): those
    are not read again, and the places read now are added to it.

    On the real-tile sets (:mod:`training.ab`, both samples; read :data:`GRID_PASSES` times) 35 and
    24 tiles fewer were missed, and 1 and 2 more read than the labels hold, each on a tile that is
    there (a flower read as another flower; tiles read right where the labels lack another tile
    read wrong); on 54 synthetic trays 5 more were read, on 24 hands among clutter seen 50 degrees
    off 2 and on 30 rows at a diagonal 1, all right; racks, piles and the 57 photos without tiles
    read as before. The places past a row's end (session 48) read 4 and 6 tiles more on the two
    samples, none more than the labels hold, and 7 more of the 3,344 tiles of the benchmark's
    (c10) pale tables; framed white dragons at places (session 48) 3 and 7 more on the samples
    and 2 more of (c10), the framed dragon at the end of a row of honours that a pale table hides
    from the finder, none more than the labels hold; with both, the 13 synthetic sets (8,413
    tiles) and the 57 photos without tiles read as before."""
    if sum(r.sure and _has_artwork(r) for r in readings) < GRID_SURE_MIN:
        return []
    # (the tiles the steps start from: read with artwork at least as surely as a row's, sure or not:
    # tiles smaller than the hand's, other players', are never sure)
    is_firm = np.array([_has_artwork(r) and r.top[0][1] >= ROW_PLACE_FROM for r in readings])
    if not is_firm.any():
        return []
    firm = [r for r, f in zip(readings, is_firm) if f]
    quads = np.array([r.quad for r in readings], np.float64)
    centres = quads.mean(1)
    diag1, diag2 = quads[:, 2] - quads[:, 0], quads[:, 3] - quads[:, 1]
    areas = np.abs(diag1[:, 0] * diag2[:, 1] - diag1[:, 1] * diag2[:, 0]) / 2  # (as _quad_area)
    q, c = quads[is_firm], centres[is_firm]
    d = centres[None] - c[:, None]  # (firm tile, reading, xy): the step from each firm tile to each reading
    dist = np.hypot(d[..., 0], d[..., 1])
    own = areas[is_firm][:, None]
    alike = (areas[None] >= GRID_STEP_AREA[0] * own) & (areas[None] <= GRID_STEP_AREA[1] * own)
    sides = (q[:, 1] - q[:, 0], q[:, 3] - q[:, 0])
    lengths = [np.hypot(side[:, 0], side[:, 1]) for side in sides]
    widths = np.minimum(*lengths)  # (as _short_side)
    steps = []  # (along its row, along its column): which readings lie one step from each firm tile
    ahead = []  # ... and which of those lie ahead of it along the side (the others lie behind)
    for side, n in zip(sides, lengths):
        n = n[:, None]
        cos = np.einsum("frk,fk->fr", d, side) / np.maximum(dist * n, 1e-9)
        turned = np.abs(cos) >= np.cos(np.radians(GRID_STEP_TURN))
        steps.append(alike & turned & (dist >= GRID_STEP_LENGTH[0] * n) & (dist <= GRID_STEP_LENGTH[1] * n))
        ahead.append(cos > 0)
    # (the readings near each firm tile, within reach of two steps, padded: all a place and the
    # steps from it can lie on)
    reach = dist <= 2.5 * GRID_STEP_LENGTH[1] * np.maximum(*lengths)[:, None]
    k = int(reach.sum(1).max())
    near = np.argsort(~reach, axis=1, kind="stable")[:, :k]
    near_d = np.where(np.take_along_axis(reach, near, 1)[..., None], np.take_along_axis(d, near[..., None], 1), np.inf)
    places: list[tuple[np.ndarray, Reading, float, bool]] = []  # (centre, the firm tile, its width, past a row's end)
    for along, across, forward, row in ((steps[0], steps[1], ahead[0], True), (steps[1], steps[0], ahead[1], False)):
        # (a step back from a firm tile that has a step that way too ends on a reading: left out)
        lone = np.where(forward, ~(along & ~forward).any(1)[:, None], ~(along & forward).any(1)[:, None])
        fi, ri = np.nonzero(along & lone)
        back = -d[fi, ri]  # (one step back from each firm tile, from the tile)
        empty = np.sqrt(((near_d[fi] - back[:, None]) ** 2).sum(-1).min(1)) > widths[fi] / 2
        fi, back = fi[empty], back[empty]
        if not len(fi):
            continue
        # (the place is a grid's where a step across from its firm tile, either way, leads from it
        # to a reading; the first such step, and the place halfway between where the two put it)
        a = max(1, int(across.sum(1).max()))
        order = np.argsort(~across, axis=1, kind="stable")[:, :a]
        has = np.take_along_axis(across, order, 1)
        ways = np.take_along_axis(d, order[..., None], 1) * has[..., None]
        ways, has = np.concatenate([ways, -ways], 1)[fi], np.concatenate([has, has], 1)[fi]
        to = back[:, None] + ways  # (place, step across, xy), from the firm tile
        gap = np.sqrt(((near_d[fi][:, None] - to[:, :, None]) ** 2).sum(-1))  # (place, step, near reading)
        at = gap.argmin(2)
        met = has & (np.take_along_axis(gap, at[..., None], 2)[..., 0] <= GRID_PLACE_AGREE * widths[fi, None])
        # (or the row goes on past the place, a step or two farther: a gap in a row)
        farther = back[:, None] * np.arange(2, 2 + GRID_ROW_GAP)[None, :, None]  # (place, steps, xy)
        gone_on = np.sqrt(((near_d[fi][:, None] - farther[:, :, None]) ** 2).sum(-1)).min((1, 2))
        in_gap = gone_on <= GRID_PLACE_AGREE * widths[fi]
        # (or, along a row, the place is past its end where the row holds two more tiles beyond
        # the firm one: two steps on from it, a reading too)
        two_on = np.sqrt(((near_d[fi] + 2 * back[:, None]) ** 2).sum(-1)).min(1) <= GRID_PLACE_AGREE * widths[fi]
        at_end = row & two_on & ~met.any(1) & ~in_gap
        for e in np.flatnonzero(met.any(1) | in_gap | at_end):
            i = fi[e]
            if met[e].any():
                w = int(met[e].argmax())
                p = c[i] + (back[e] + near_d[i, at[e, w]] - ways[e, w]) / 2
            else:
                p = c[i] + back[e]
            places.append((p, firm[i], float(widths[i]), bool(at_end[e])))
    if not places:
        return []
    h, w = ph.image.shape[:2]
    moved: list[tuple[np.ndarray, Reading]] = []  # (the firm tile's box moved to the place, the tile)
    # (a place that is a grid's or a gap's for one firm tile and past a row's end for another is cut
    # from the former's box: it lies between tiles, where the steps were measured)
    for p, r, width, _at_end in sorted(places, key=lambda place: place[3]):
        box = r.quad - r.quad.mean(0) + p
        inside = bool((box >= 0).all() and (box[:, 0] <= w - 1).all() and (box[:, 1] <= h - 1).all())
        apart = [b.mean(0) for b, _ in moved] + read_before
        if inside and all(np.hypot(*(p - b)) > GRID_PLACE_AGREE * width for b in apart):
            moved.append((box, r))
    moved = [m for m, free in zip(moved, _empty_places([b for b, _ in moved], readings)) if free]
    if not moved:
        return []
    read_before.extend(box.mean(0) for box, _ in moved)
    src, scale = _crop_source(ph)

    # (each box cut as its firm tile lies: its find's corners, moved, read turned as it was read)
    def cut(r: Reading, to: np.ndarray) -> Candidate:
        moved_find = (r.candidate.quad - r.quad.mean(0) + to).astype(np.float32)
        shaped = dataclasses.replace(
            r.candidate, quad=moved_find, lying=r.rotation == 90, ambiguous=False, slanted=False, crops=()
        )
        return with_crops(src, shaped, scale)

    # (only where the place has the colour of its firm tile's face, measured once a tile: a gap
    # between two groups of a hand, or the table past a grid's short row, shows the table)
    faces: dict[int, np.ndarray] = {}
    for _, r in moved:
        if id(r) not in faces:
            faces[id(r)] = _ground_colour(cut(r, r.quad.mean(0)))
    cands = [cut(r, box.mean(0)) for box, r in moved]
    cands = [
        cd
        for cd, (_, r) in zip(cands, moved)
        if float(np.linalg.norm(_ground_colour(cd) - faces[id(r)])) <= GRID_FACE_COLOUR_MAX
    ]
    if not cands:
        return []

    clf = get_classifier() if classifier is None else classifier
    reader = getattr(clf, "without_fallback", lambda: clf)()  # (featureless readings are not taken)
    owners = [(ci, rot) for ci, cd in enumerate(cands) for rot, _crop in cd.crops]
    raw, shown = _read_crops(reader, [crop for cd in cands for _rot, crop in cd.crops])
    out: list[Reading] = []
    for (ci, rot), top, cal in zip(owners, _clean(raw), _clean(shown)):
        code, prob = top[0]
        if code in (NOT_A_TILE, UNKNOWN) or prob < GRID_READ_MIN:
            continue
        # (its ink measured at the place, as the finder measures a find's, not its firm tile's)
        cd = dataclasses.replace(cands[ci], crops=(), ink=quad_ink(ph.image, cands[ci].quad))
        if code in FEATURELESS and not (code == "5z" and cd.ink >= BLANK_FACE_INK):  # (a white dragon's frame: artwork)
            continue
        r = Reading(cd, _upright(cd.quad, rot), rot, _tiles_only(cal))
        if _empty_places([r.quad], out)[0]:
            out.append(r)
    return out


#: two parts of one find are two tiles where their centres lie more than this share of a tile's
#: width apart (:func:`_oversized_read_again`, :func:`_empty_places`; side by side in a row, a
#: whole width)
OVERSIZED_PARTS_APART = 0.8


#: a patch of the backs' colour is searched for a back (:func:`_backs_by_colour`) where it is this
#: share of a back's area ...
BACK_PATCH_AREA = (0.6, 1.5)
#: ... and fills at least this share of its rectangle (a back's face is one)
BACK_PATCH_FILL = 0.8
#: ... and its short side is at least this share of its long side (a face is 0.75 as wide as
#: high; the strip of the back's colour below each face-up tile, its body seen from the side, is not)
BACK_PATCH_SHAPE = 0.55
#: the photo is searched so small that a back comes out about this wide (pixels)
BACK_PATCH_PX = 28.0


def _backs_by_colour(ph: _photo.Photo, readings: list[Reading], classifier: Any) -> list[Reading]:
    """Backs the finder missed in a photo that shows backs (a pile with face-down tiles): the patches
    of the photo of the backs' colour (:func:`_like_the_backs`, :data:`BACK_COLOUR_MAX`) outside the
    readings, each a back's size and a rectangle of its shape (:data:`BACK_PATCH_AREA`,
    :data:`BACK_PATCH_FILL`, :data:`BACK_PATCH_SHAPE`), read; kept where read as a back at :data:`BACK_MIN_CONFIDENCE` or
    more, never sure (backs never are). The finder misses a face-down tile lying on another of its
    colour, or partly under a finger, and the looks aimed at the faces' size leave it out."""
    colours = _backs_colour(readings, ph)
    if colours is None:
        return []
    back = colours[0]
    backs = [r for r in readings if r.top[0][0] == "back"]
    img = ph.image
    # (where backs of a pile can lie: round the readings, within two tiles' length)
    area = float(np.median([_quad_area(r.quad) for r in backs]))
    pts = np.concatenate([r.quad for r in readings])
    reach = 2 * max(_long_side(r.quad) for r in backs)
    x0, y0 = np.maximum(np.floor(pts.min(0) - reach).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(pts.max(0) + reach).astype(int), [img.shape[1], img.shape[0]])
    # (every step-th pixel, so that a back is about BACK_PATCH_PX across: a pile's photo is large)
    step = max(1, round(np.sqrt(area) / BACK_PATCH_PX))
    f = 1.0 / step
    mask = _of_colour(np.ascontiguousarray(img[y0:y1:step, x0:x1:step]), back)
    for r in readings:
        cv2.fillConvexPoly(mask, np.round((r.quad - [x0, y0]) * f).astype(np.int32), 0)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    src, scale = _crop_source(ph)
    cands = []
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        if not BACK_PATCH_AREA[0] * area * f * f <= a <= BACK_PATCH_AREA[1] * area * f * f:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == i)
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(np.stack([xs + x, ys + y], 1).astype(np.float32))
        if a < BACK_PATCH_FILL * rw * rh or min(rw, rh) < BACK_PATCH_SHAPE * max(rw, rh):
            continue
        # (back in the photo's pixels: a pixel's centre in the small image, its whole width)
        rect = (((cx + 0.5) / f - 0.5 + x0, (cy + 0.5) / f - 0.5 + y0), ((rw + 1) / f, (rh + 1) / f), ang)
        quad = order_quad(cv2.boxPoints(rect)).astype(np.float32)
        cands.append(
            with_crops(src, Candidate(quad, lying=_wider_than_high(quad), source="learned", ambiguous=True), scale)
        )
    if not cands:
        return []
    clf = get_classifier() if classifier is None else classifier
    owners = [(ci, rot) for ci, cd in enumerate(cands) for rot, _crop in cd.crops]
    raw, shown = _read_crops(clf, [crop for cd in cands for _rot, crop in cd.crops])
    best, _not_tiles = _best_readings(owners, _clean(raw))
    shown = _clean(shown)
    found = [
        Reading(
            dataclasses.replace(cands[ci], crops=()), _upright(cands[ci].quad, rot), rot, _tiles_only(shown[k]) or top
        )
        for ci, (rot, top, k) in best.items()
        if top[0][0] == "back" and top[0][1] >= BACK_MIN_CONFIDENCE
    ]
    return _at_empty_places(found, readings)


def _of_colour(img: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """The pixels of ``img`` (BGR uint8) within :data:`BACK_COLOUR_MAX` of the colour ``lab`` (CIE
    Lab, L from 0 to 100, as :func:`_face_colours` gives it), as a uint8 mask of 0 and 1. (OpenCV
    builds its Lab tables once a process, in 150 ms, on the first photo with backs.)"""
    d = cv2.cvtColor(img.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab) - np.asarray(lab, np.float32)
    return (cv2.magnitude(cv2.magnitude(d[..., 0], d[..., 1]), d[..., 2]) <= BACK_COLOUR_MAX).astype(np.uint8)


#: two readings side by side are halves of one tile (:func:`_halves_read_whole`) where each box is
#: this share of the area of the tiles beside them ...
HALF_AREA = (0.3, 0.7)
#: ... and the box round the two this share
HALVES_WHOLE_AREA = (0.75, 1.4)
#: ... the tiles beside them: this many of the other readings with artwork read surely, the nearest
HALVES_BESIDE = 4


def _joined(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The box round two boxes side by side or one above the other (4x2 each, corners clockwise
    from the top-left, both turned alike): from ``a``'s frame, the first's outer corners and the
    second's along the axis they lie along."""
    u, v = a[1] - a[0], a[3] - a[0]
    d = b.mean(0) - a.mean(0)
    along_u = abs(float(d @ u)) / max(float(np.linalg.norm(u)), 1e-9) >= abs(float(d @ v)) / max(
        float(np.linalg.norm(v)), 1e-9
    )
    first, second = (a, b) if float(d @ (u if along_u else v)) >= 0 else (b, a)
    if along_u:
        return np.array([first[0], second[1], second[2], first[3]], np.float64)
    return np.array([first[0], first[1], second[2], second[3]], np.float64)


def _halves_read_whole(ph: _photo.Photo, readings: list[Reading], classifier: Any) -> list[Reading]:
    """``readings``, two readings with artwork side by side, one of them sure, whose boxes are each
    :data:`HALF_AREA` of the tiles beside them (the :data:`HALVES_BESIDE` nearest other readings
    with artwork read surely, by their median area) while the box round the two is
    :data:`HALVES_WHOLE_AREA` of them, replaced by a reading of that box where the classifier reads
    a tile with artwork there surely (its calibrated confidence at its sure threshold; a classifier
    without one, its own probability at :data:`OVERSIZED_READ_MIN`); never shown as sure (the box
    is placed, not found).

    A tile whose face shows two of one pattern side by side can be found in two halves, and each
    half reads, as surely as a tile, as the tile of half its pattern: a ``4p`` as two ``2p``, a
    ``6s`` as two ``3s``. Tiles read apart so have half the area of the tiles beside them; two
    whole tiles side by side have their own. Where the box round the two reads as no tile (the
    halves of two tiles: a box straddling their seam), the readings stand."""
    art = [i for i, r in enumerate(readings) if _has_artwork(r)]
    sure = [i for i in art if readings[i].sure]
    if len(sure) < OVERSIZED_SURE_MIN or len(art) < 2:
        return readings
    areas = _quad_areas([r.quad for r in readings])
    centres = _centres([r.quad for r in readings])

    def tile_area(at: np.ndarray, but: tuple[int, ...]) -> float:
        """The median area of the sure readings with artwork nearest ``at``, but ``but``."""
        others = [k for k in sure if k not in but]
        near = np.argsort(np.hypot(*(centres[others] - at).T))[:HALVES_BESIDE]
        return float(np.median(areas[others][near]))

    # (only readings half the size of the tiles beside them are looked at in pairs)
    gaps = np.hypot(*(centres[:, None] - centres[sure][None]).transpose(2, 0, 1))
    gaps[sure, np.arange(len(sure))] = np.inf  # (a sure reading is not beside itself)
    beside = np.median(areas[sure][np.argsort(gaps, axis=1)[:, :HALVES_BESIDE]], axis=1)
    small = [i for i in art if areas[i] <= HALF_AREA[1] * beside[i]]
    pairs: list[tuple[int, int, np.ndarray]] = []
    for n, i in enumerate(small):
        for j in small[n + 1 :]:
            if not (readings[i].sure or readings[j].sure):  # (unsure strays stay as they are)
                continue
            if len(sure) - (i in sure) - (j in sure) < OVERSIZED_SURE_MIN:
                continue
            tile = tile_area((centres[i] + centres[j]) / 2, (i, j))
            if not all(HALF_AREA[0] * tile <= areas[k] <= HALF_AREA[1] * tile for k in (i, j)):
                continue
            if float(np.hypot(*(centres[i] - centres[j]))) > np.sqrt(tile):  # (not side by side)
                continue
            whole = _joined(readings[i].quad.astype(np.float64), readings[j].quad.astype(np.float64))
            if HALVES_WHOLE_AREA[0] * tile <= _quad_area(whole) <= HALVES_WHOLE_AREA[1] * tile:
                pairs.append((i, j, whole))
    if not pairs:
        return readings
    src, scale = _crop_source(ph)
    boxes = []
    for i, _j, whole in pairs:
        ratio = float(np.linalg.norm(whole[1] - whole[0])) / max(float(np.linalg.norm(whole[3] - whole[0])), 1e-9)
        shaped = dataclasses.replace(
            readings[i].candidate,
            quad=whole,
            lying=_wider_than_high(whole),
            ambiguous=is_ambiguous(ratio),
            slanted=False,
            crops=(),
        )
        boxes.append(with_crops(src, shaped, scale))
    owners = [(k, rot) for k, box in enumerate(boxes) for rot, _crop in box.crops]
    clf = get_classifier() if classifier is None else classifier
    reader = getattr(clf, "without_fallback", lambda: clf)()  # (featureless readings are not taken)
    raw, shown = _read_crops(reader, [crop for box in boxes for _rot, crop in box.crops])
    sure_of = getattr(clf, "is_sure", lambda _code, p: p >= OVERSIZED_READ_MIN)
    best: dict[int, tuple[float, int, list[tuple[str, float]]]] = {}
    for (k, rot), top, cal in zip(owners, _clean(raw), _clean(shown)):
        code, p = top[0]
        again = _tiles_only(cal)
        if code in (NOT_A_TILE, *FEATURELESS, UNKNOWN) or not again or not sure_of(*again[0]):
            continue
        if k not in best or p > best[k][0]:
            best[k] = (p, rot, again)
    gone: set[int] = set()
    wholes: list[Reading] = []
    for k, (_p, rot, top) in sorted(best.items(), key=lambda kv: -kv[1][0]):
        i, j, _whole = pairs[k]
        if i in gone or j in gone:  # (a reading is half of one tile at most)
            continue
        cd = dataclasses.replace(boxes[k], crops=(), ink=quad_ink(ph.image, boxes[k].quad))
        wholes.append(Reading(cd, _upright(cd.quad, rot), rot, top))
        gone |= {i, j}
    return [r for i, r in enumerate(readings) if i not in gone] + wholes


def _wider_than_high(quad: np.ndarray) -> bool:
    """Whether a box (corners clockwise from the top-left) is wider than high: a tile lying, where a
    box was placed for one (a part of a find, a patch of the backs' colour) and not found."""
    return bool(np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[3] - quad[0]))


def _parts_of(quad: np.ndarray, short: float, long_: float) -> list[np.ndarray]:
    """The parts of a find's box ``quad`` (4x2, corners clockwise from the top-left) a tile
    ``short`` by ``long_`` could fill (:func:`_oversized_read_again`): upright and lying, at each of
    :data:`OVERSIZED_PLACES` along each side, where it fits (within a twentieth of a side; where it
    fills a side, one place along it)."""
    u, v = quad[1] - quad[0], quad[3] - quad[0]
    a, b = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if a <= 0 or b <= 0:
        return []
    u, v = u / a, v / b
    out = []
    for w, h in ((short, long_), (long_, short)):
        if w > 1.05 * a or h > 1.05 * b:
            continue
        w, h = min(w, a), min(h, b)
        for fx in OVERSIZED_PLACES if w < 0.95 * a else (0.0,):  # (a part as long as a side: one place)
            for fy in OVERSIZED_PLACES if h < 0.95 * b else (0.0,):
                o = quad[0] + u * (a - w) * fx + v * (b - h) * fy
                out.append(order_quad(np.array([o, o + u * w, o + u * w + v * h, o + v * h])).astype(np.float64))
    return out


#: a find read as no tile at a place the readings left empty is read again turned
#: (:func:`_unread_finds_turned`) where its box is this many times the tiles' area, from and up to
#: (a box turned across a tile takes in the table or a tile beside it: 1.2-4.3 times)
TURNED_AREA = (0.5, 4.5)
#: ... the tiles' size measured on at least this many readings with artwork
TURNED_REF_MIN = 2
#: ... a tile's box placed at its centre at each of these turns (degrees) from the find's
TURNED_STEPS = tuple(range(0, 180, 15))
#: ... and at this many degrees either side of the turn of those read most surely as a tile
TURNED_FINE = 7.5
#: ... and kept where the classifier reads a tile with artwork there at least this surely (the
#: network's own probability)
TURNED_READ_MIN = 0.9


def _unread_finds_turned(
    ph: _photo.Photo,
    cands: Sequence[Candidate],
    readings: list[Reading],
    classifier: Any,
    to_view: np.ndarray | None = None,
) -> list[Reading]:
    """Readings of the finds of ``cands`` that ``readings`` left unread, at places they left empty,
    whose boxes are :data:`TURNED_AREA` times the tiles' (the median sides of the readings with
    artwork, :data:`TURNED_REF_MIN` of them or more): a tile's box placed at the find's centre at
    each turn of :data:`TURNED_STEPS`, and :data:`TURNED_FINE` either side of the turn read most
    surely as a tile with artwork there, and the turn the classifier reads most surely as a tile
    with artwork, at least :data:`TURNED_READ_MIN`, kept; never shown as sure (the box is placed, not
    found). Where the photo was taken at a slant (``to_view``: the homography from its working
    pixels to the part read straightened, :class:`vision.seat.SeatReading`), the boxes are placed
    there, where the faces are rectangles, and cut from the photo as it is.

    In a loose pile the tiles lie at every turn, on each other, and the finder can box a tile
    turned the wrong way: a core it measured roundish, or edges of the tile under it that ran
    another way. The box then takes in the table or the next tile at its corners, and leaves the
    tile's own corners out; its crop reads as no tile while the tile is plain to see, and no rule
    that reads a box again at the find's own turn reads it. Only the learned finder's finds are
    taken (its cores' turns are measured; the classical finder's probes for backs are places, not
    finds).

    A turn a few degrees off reads a tile less surely (a ``7s`` that reads 0.90 in its own box read
    0.81 to 0.93 in boxes 5 and 10 degrees off, by the side): the turns 15 degrees apart find
    where the tile lies, and the two beside the best of them come within 3.75 degrees of it. The
    same readings as 24 turns 7.5 degrees apart, from 14 crops a find, not 24. On the photos of
    loose piles drawn with real faces and with artwork, seen from above and from a seat 45 and 55
    degrees off (72 photos), 2 tiles more were read, both right; of the rows, racks, trays and
    clutter (252 photos), a ``9s`` of a rack, and 2 on tiles of trays partly shown; on the
    real-tile A/B samples, a ``1s`` on one photo (which became exact) and an ``8s`` on one saved
    once more; no reading added where no tile is, and none on the 57 photos without tiles. The piles drawn with artwork seen from above read 36
    crops a photo here (2.5 finds), 7 % of their time; most photos of hands read none."""
    frame = np.eye(3) if to_view is None else to_view
    art = [_slant.moved(r.quad, frame) for r in readings if _has_artwork(r)]
    if len(art) < TURNED_REF_MIN:
        return []
    short = float(np.median([_short_side(q) for q in art]))
    long_ = float(np.median([_long_side(q) for q in art]))
    kept = {id(r.candidate) for r in readings}
    unread = [cd for cd in cands if id(cd) not in kept and cd.source == "learned"]
    unread = [cd for cd, free in zip(unread, _empty_places([cd.quad for cd in unread], readings)) if free]
    seen = [_slant.moved(cd.quad, frame) for cd in unread]
    lo, hi = TURNED_AREA
    found = [(cd, q) for cd, q in zip(unread, seen) if lo * short * long_ <= _quad_area(q) <= hi * long_ * short]
    if not found:
        return []
    src, scale = _crop_source(ph)
    back = np.linalg.inv(frame)
    to_src = np.diag([*scale, 1.0]) @ back
    clf = get_classifier() if classifier is None else classifier
    reader = getattr(clf, "without_fallback", lambda: clf)()  # (featureless readings are not taken)

    def read(turns: list[tuple[int, float]]) -> list[tuple[int, float, float, int, list[tuple[str, float]], Candidate]]:
        """Each ``(find, turn)`` read: ``(find, turn, network probability, rotation, calibrated
        top, box)`` per crop whose reading is a tile with artwork."""
        boxes = [
            with_crops(
                src,
                dataclasses.replace(
                    found[k][0],
                    quad=_tile_box(found[k][1].mean(0), short, long_, turn),
                    lying=False,
                    ambiguous=False,
                    slanted=False,
                    crops=(),
                    spread=None,
                ),
                homography=to_src,
            )
            for k, turn in turns
        ]
        owners = [(i, rot) for i, box in enumerate(boxes) for rot, _crop in box.crops]
        raw, shown = _read_crops(reader, [crop for box in boxes for _rot, crop in box.crops])
        out = []
        for (i, rot), top, cal in zip(owners, _clean(raw), _clean(shown)):
            code, p = top[0]
            again = _tiles_only(cal)
            if code not in (NOT_A_TILE, *FEATURELESS, UNKNOWN) and again:
                out.append((turns[i][0], turns[i][1], p, rot, again, boxes[i]))
        return out

    coarse = read([(k, _turn_of(q) + step) for k, (_cd, q) in enumerate(found) for step in TURNED_STEPS])
    # (each find's turn read most surely as a tile with artwork: the surest last)
    nearest = {k: turn for k, turn, *_ in sorted(coarse, key=lambda c: c[2])}
    fine = read([(k, turn + d) for k, turn in nearest.items() for d in (-TURNED_FINE, TURNED_FINE)])
    best: dict[int, tuple[float, int, list[tuple[str, float]], Candidate]] = {}
    for k, _turn, p, rot, top, box in coarse + fine:
        if p >= TURNED_READ_MIN and (k not in best or p > best[k][0]):
            best[k] = (p, rot, top, box)
    placed: list[Reading] = []
    for _p, rot, top, box in sorted(best.values(), key=lambda b: -b[0]):
        quad = _slant.moved(box.quad.astype(np.float64), back).reshape(4, 2)
        cd = dataclasses.replace(box, quad=quad.astype(np.float32), crops=(), ink=quad_ink(ph.image, quad))
        r = Reading(cd, _upright(quad, rot), rot, top)
        if _empty_places([r.quad], readings + placed)[0]:
            placed.append(r)
    return placed


def _turn_of(quad: np.ndarray) -> float:
    """The turn (degrees) of a box's side from corner 0 to corner 1."""
    d = quad[1] - quad[0]
    return float(np.degrees(np.arctan2(d[1], d[0])))


def _tile_box(centre: np.ndarray, short: float, long_: float, turn: float) -> np.ndarray:
    """An upright tile's box, ``short`` wide and ``long_`` high, centred at ``centre`` and turned
    ``turn`` degrees: corners clockwise from the face's top-left."""
    t = np.radians(turn)
    across, down = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    half_w, half_h = across * short / 2, down * long_ / 2
    return np.array(
        [centre - half_w - half_h, centre + half_w - half_h, centre + half_w + half_h, centre - half_w + half_h]
    )
