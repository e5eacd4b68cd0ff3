"""The finder's looks again at the photo, where a first look may have missed tiles: the photo
lifted out of a shadow across part of its tiles and searched again (:func:`_search_lifted`), the
finder's far look (:func:`_read_farther`), face regions read as photos of their own
(:func:`_regions_read_again`, :func:`_unfound_faces_read`), and a pile read again turned 45 degrees
(:func:`_read_turned`), whose sure tiles take the places its readings hold only unsurely
(:func:`_surer_at_places`, which also weighs the two readings of a photo from a seat).

:func:`vision.recognize.recognize` runs the first three before the reading from a seat
(:mod:`vision.seat`), the turned look after it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np

from . import photo as _photo
from . import shadow as _shadow
from .finders import Candidate, find_candidates, find_farther, finder_name
from .finders.learned import MAX_CORES
from .read_finds import _read
from .readings import Reading, _apart, _at_empty_places, _centres, _long_side, _short_side, _sure_count, _tiles_width
from .views import _as_taken, _faces_apart, _found_in

#: a face region of at least this many of the learned finder's finds, none of them read as a tile,
#: is read again on its own (:func:`_regions_read_again`)
REGION_FINDS_MIN = 3
#: ... in a photo taken from a seat (its first reading's view slanted), any such region
REGION_FINDS_MIN_SLANTED = 1
#: ... and its reading is kept where it reads at least this many tiles surely
REGION_SURE_MIN = 3


def _regions_read_again(
    ph: _photo.Photo,
    cands: list[Candidate],
    readings: list[Reading],
    finder: str | None,
    classifier: Any,
    least: int = REGION_FINDS_MIN,
) -> list[Reading]:
    """Readings of the face regions of the photo where the learned finder found ``least`` finds
    or more and the reading ``readings`` of ``cands`` read none of them: each region's part of the
    photo (its finds' box, one find's width round it) found and read again as a photo of its own
    (:func:`vision.finders.find_candidates` with its part of the detail image, :func:`_read`), in
    the photo's working pixels, those at places ``readings`` left empty; kept where they read
    :data:`REGION_SURE_MIN` tiles or more surely. :func:`recognize` asks for regions of
    :data:`REGION_FINDS_MIN` finds, or of any number in a photo its first reading says was taken
    from a seat (:func:`_seat_view`).

    The finder's looks are aimed at the photo's median tile. On a table photographed from a seat,
    the tiles across the table (another player's discards, a grid laid out) come out several
    times narrower than the hand's and squashed: the look that suits the hand sees a far grid as
    a face region of a few finds, or of one, each over several tiles, and reads them as no tile.
    Seen on its own, the part is looked at as close as its tiles need. On the tables of (c7)'s
    kind (24, seeds 9500+) seen 45 degrees off, 88.0 % of the tiles were read, 92.7 % with this,
    and 55 degrees off 55.5 % and 74.7 %; on (c7) itself seen 45 degrees off, 96.0 % and 98.3 %.
    A region of one or two finds is read again only in a photo from a seat: in photos of hands
    among clutter (keys, dice, coins, paper) those were a quarter of the time (57 -> 70 ms),
    for no tile; regions of keys or print read fewer than three tiles surely. On the photos
    without a seat's slant, on clutter and on tile-free photos not one reading changed."""
    read = {r.candidate.blob for r in readings}
    regions: dict[int, list[Candidate]] = {}
    for cd in cands:
        if cd.source == "learned" and cd.blob_size >= least and cd.blob not in read:
            regions.setdefault(cd.blob, []).append(cd)
    out: list[Reading] = []
    blob_base = max(cd.blob for cd in cands) + 1
    for members in regions.values():
        if len(members) < least:
            continue
        corners = np.concatenate([cd.quad for cd in members]).reshape(-1, 2)
        pad = float(np.median([_short_side(cd.quad) for cd in members]))
        new, blob_base = _part_read(
            ph, corners.min(0) - pad, corners.max(0) + pad, finder, classifier, readings + out, blob_base
        )
        out += new
    return out


def _unfound_faces_read(
    ph: _photo.Photo,
    cands: list[Candidate],
    readings: list[Reading],
    finder: str | None,
    classifier: Any,
    face_map: dict,
) -> list[Reading]:
    """Readings of the face regions the learned finder's face map of the first reading
    (``face_map``: :func:`vision.finders.find_candidates`' ``face`` and ``scale``) marks where it
    found nothing: what it marks away from every find of ``cands`` and every tile of ``readings``
    (each box grown :data:`READ_MARK_GROWTH` about its centre), each region of it
    (:data:`UNFOUND_FACE_MIN` pixels of the working image or more) found and read as a photo of
    its own, as :func:`_regions_read_again` reads a region, the :data:`UNFOUND_REGIONS_MAX` largest.

    The finder's looks are aimed at the tiles it finds first. A hand near the camera sets a look
    at which tiles four or five times smaller beyond it (a grid or a row across the table, other
    photos' tiles) are a few pixels across: the map marks them as a tile's face, but no tile's
    core stands out, and without a find the region is read again by no other step."""
    if finder_name(finder) != "learned" or "face" not in face_map:
        return []
    scale = float(face_map["scale"])
    marked = _faces_apart(face_map, [cd.quad for cd in cands] + [r.quad for r in readings])
    _n, _labels, stats, _ = cv2.connectedComponentsWithStats(marked, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA] * scale * scale
    out: list[Reading] = []
    blob_base = max((cd.blob for cd in cands), default=0) + 1
    for i in np.argsort(-areas)[:UNFOUND_REGIONS_MAX]:
        if areas[i] < UNFOUND_FACE_MIN:
            break
        x, y, w, h = stats[i + 1, :4] * scale
        pad = max(MIN_PART_PX / 2, UNFOUND_PAD * max(w, h))
        box0, box1 = np.array([x - pad, y - pad]), np.array([x + w + pad, y + h + pad])
        new, blob_base = _part_read(ph, box0, box1, finder, classifier, readings + out, blob_base)
        out += new
    return out


#: a face region with no find is read on its own (:func:`_unfound_faces_read`) where it covers at
#: least this many pixels of the working image (three tiles 14 px wide, squashed to 10 px from a seat)
UNFOUND_FACE_MIN = 420.0
#: ... the largest of them, at most this many ...
UNFOUND_REGIONS_MAX = 4
#: ... its box grown this share of its longer side each way (a region marks its tiles' faces only
#: where the map saw them, and a far tile's body is seen below its face)
UNFOUND_PAD = 0.1


def _part_read(
    ph: _photo.Photo,
    box0: np.ndarray,
    box1: np.ndarray,
    finder: str | None,
    classifier: Any,
    kept: list[Reading],
    blob_base: int,
) -> tuple[list[Reading], int]:
    """The part of the photo from ``box0`` to ``box1`` (working pixels) found and read as a photo of
    its own (:func:`vision.finders.find_candidates` with its part of the detail image, :func:`_read`),
    in the photo's working pixels, those at places ``kept`` left empty, where they read
    :data:`REGION_SURE_MIN` tiles or more surely (else none); and the next free region number, the
    part's regions numbered from ``blob_base``."""
    h, w = ph.image.shape[:2]
    x0, y0 = np.maximum(np.floor(box0), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(box1), [w, h]).astype(int)
    if min(x1 - x0, y1 - y0) < MIN_PART_PX:
        return [], blob_base
    detail = None
    if ph.detail is not None:
        kx, ky = ph.detail.shape[1] / w, ph.detail.shape[0] / h
        detail = ph.detail[int(y0 * ky) : int(y1 * ky), int(x0 * kx) : int(x1 * kx)]
    try:
        part = find_candidates(np.ascontiguousarray(ph.image[y0:y1, x0:x1]), finder=finder, detail=detail)
    except Exception:  # never crash on a strange photo
        return [], blob_base
    seen, reason, _ = _read(part, classifier) if part else ([], None, 0)
    if reason is not None or _sure_count(seen) < REGION_SURE_MIN:
        return [], blob_base
    shift = np.array([x0, y0], np.float32)
    moved = []
    for r in seen:
        blob = blob_base + r.candidate.blob if r.candidate.blob > 0 else r.candidate.blob  # (0: in no region)
        cd = dataclasses.replace(r.candidate, quad=r.candidate.quad + shift, crops=(), blob=blob)
        moved.append(dataclasses.replace(r, candidate=cd, quad=r.quad + shift))
    new = _at_empty_places(moved, kept)  # (the part can reach into rows read already)
    return (new if _sure_count(new) >= REGION_SURE_MIN else []), blob_base + max(r.candidate.blob for r in seen) + 1


#: a part of the photo read on its own (:func:`_part_read`) is at least this many pixels
#: each way
MIN_PART_PX = 16


#: a reading with fewer sure tiles than this, of finds at most half of which were read as tiles,
#: may have measured its tiles' size on something else (:func:`_measured_on_no_tiles`)
FAR_AGAIN_SURE_BELOW = 3


#: a reading lies the way its neighbours lie (:func:`_lying_unlike_neighbours`) where its turn and
#: theirs agree at least this much (:func:`_turn_agreement`: 1, one turn; 0, turns evenly spread);
#: its neighbours are the :data:`TURN_NEIGHBOURS` readings nearest it within
#: :data:`TURN_NEIGHBOUR_REACH` tile lengths
TURN_AGREEMENT_MIN = 0.7
TURN_NEIGHBOURS = 3
TURN_NEIGHBOUR_REACH = 2.0
#: faces told apart by their count of strokes across them alone (one, two and three characters:
#: 一 二 三 over 萬), which a face seen squashed from a seat is read with one more or one fewer
#: of, surely: the first reading of a photo from a seat does not take the place of the
#: straightened one's between them (:func:`_surer_at_places`). On the real-tile samples the
#: first reading's sure ``3m`` took the place of an unsure ``2m`` four times, where the labels
#: said ``2m`` at least once; of the other faces, 17 places read right more often than not
SQUASHED_ALIKE = frozenset({"1m", "2m", "3m"})
#: a photo is read again turned 45 degrees (:func:`_read_turned`) where at least this share of its
#: readings, and two, lie unlike their neighbours. Of the synthetic piles (seeds 19000-19039, seen
#: 45 degrees off 42300-42323, at 12 MP 9580-9599) 82 of 84 had this share or more (most a third
#: and more); the real-tile tables (:mod:`training.ab` ``c7``, ``t2``, ``c7s``), whose grids lie at any
#: turn but each grid's tiles alike, 0.11 at most; rows, racks and hands among clutter as taken,
#: none. From a seat perspective skews the boxes: 6 of 72 such photos passed (their readings came
#: out the same)
TURNED_SHARE_MIN = 0.25
#: the turned view shows the part of the photo round the readings (grown by this many tile
#: lengths) ...
TURNED_MARGIN = 1.0
#: ... shrunk so that its tiles come out at most this wide (pixels): 24, 28, 32 and 36 read the same
#: piles within two tiles, 24 two fewer; 28 the smallest view that loses none
TURNED_TILE_PX = 28.0
#: a tile read in the turned view is kept at a place the readings left empty where the classifier
#: read it at least this surely (calibrated): on the piles the tiles it gained were read at 0.96 and
#: more, and the one it misread at 0.41
TURNED_READ_MIN = 0.9
#: ... and a tile read surely there takes the place of the readings under it where each was read
#: under :data:`TURNED_READ_MIN` and this much less surely than it. On the synthetic trays and piles
#: 51 places read surely turned held readings under 0.9: 48 turned readings were right, against 22
#: of those they took the place of; the one wrong (a ``2m`` read at 0.90 taken for a ``3m`` at
#: 0.925) came within 0.03
TURNED_SURER_BY = 0.2


def _lying_unlike_neighbours(readings: list[Reading]) -> np.ndarray:
    """Whether each reading lies unlike its neighbours: its :func:`_turn_agreement` under
    :data:`TURN_AGREEMENT_MIN`. Tiles side by side in a row, a rack, a tray or a grid lie alike, a
    grid turned as a whole too; tiles dropped in a pile lie every way."""
    return _turn_agreement(readings) < TURN_AGREEMENT_MIN


def _turn_agreement(readings: list[Reading]) -> np.ndarray:
    """For each reading, how far its turn and those of the :data:`TURN_NEIGHBOURS` readings nearest
    it (centre to centre, within :data:`TURN_NEIGHBOUR_REACH` median tile lengths) agree, taken
    modulo a quarter turn: the length of the mean of the vectors at four times their angles (1:
    one turn; a reading with no neighbour agrees with itself)."""
    quads = np.array([r.quad for r in readings], np.float64).reshape(-1, 4, 2)
    if len(quads) < 2:
        return np.ones(len(quads))
    top = quads[:, 1] - quads[:, 0]
    turn = 4 * np.arctan2(top[:, 1], top[:, 0])
    vectors = np.stack([np.cos(turn), np.sin(turn)], 1)
    centres = quads.mean(1)
    length = float(np.median(np.maximum(np.hypot(*top.T), np.hypot(*(quads[:, 3] - quads[:, 0]).T))))
    gaps = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    nearest = np.argsort(gaps, axis=1, kind="stable")[:, :TURN_NEIGHBOURS]
    near = np.take_along_axis(gaps, nearest, 1) <= TURN_NEIGHBOUR_REACH * length
    total = vectors + (vectors[nearest] * near[..., None]).sum(1)
    return np.hypot(*total.T) / (1 + near.sum(1))


def _read_turned(ph: _photo.Photo, readings: list[Reading], finder: str | None, classifier: Any) -> list[Reading]:
    """``readings`` with the tiles of a pile read in the photo turned 45 degrees, read at least
    :data:`TURNED_READ_MIN`, at places they left empty, and at places they hold only unsurely where
    the turned reading is sure (:data:`TURNED_SURER_BY`), in place of theirs; ``readings`` as they
    are unless they lie every way (at least :data:`TURNED_SHARE_MIN` of them, and two, lie unlike
    their neighbours: :func:`_lying_unlike_neighbours`).

    Among other tiles, a tile turned far off the photo's axes can come out with its core along the
    face's diagonal, its box askew, and its crop read as no tile (on the synthetic piles, 8 faces
    so lost had boxes turned 20-36 degrees off the tile), while the photo turned 45 degrees shows
    it square. Only
    the part round the readings (:data:`TURNED_MARGIN`) is turned, shrunk so its tiles come out
    :data:`TURNED_TILE_PX` wide; the crops are cut from the photo as it is (its detail image where
    it has one). Measured on 84 synthetic piles (742 tiles), 11 tiles more read (94.1 -> 95.6 %),
    none wrong, none where there is none; a tray turned 45 degrees, tiles 23 px wide, 3 more.

    A tray turned 45 degrees on the table, its tiles small at the first look, can come out with a
    fifth of its boxes square to the photo and straddling two tiles, read unsurely and mostly wrong
    (synthetic tray ``44023``: 17 tiles read wrong), while the turned view reads every tile square.
    Taking the turned reading at such places (session 48): that tray 17 -> 1 read wrong, the 30
    trays as taken 2,083 -> 2,102 of 2,111 tiles read right, the 24 seen 45 degrees off 1,481 ->
    1,487, the 40 piles 314 -> 316; sure tiles read wrong on the trays and piles 5 -> 4; both real-tile
    samples one tile more each; rows, racks, hands among clutter and the 57 photos without tiles as
    before."""
    if len(readings) < 2:
        return readings
    unlike = _lying_unlike_neighbours(readings)
    if unlike.sum() < 2 or unlike.mean() < TURNED_SHARE_MIN:
        return readings
    tile_px = float(np.median([_short_side(r.quad) for r in readings]))
    view, m, part = _turned_view(ph.image, readings, tile_px)
    scale = abs(float(np.linalg.det(m[:2, :2]))) ** 0.5  # (the view's pixels per photo pixel)
    cands = _found_in(ph, view, m, finder, tile_px * scale)
    if not cands or len(cands) > MAX_CORES:
        return readings
    seen, reason, _ = _read(cands, classifier)
    if reason is not None:
        return readings
    x0, y0, x1, y1 = part
    taken = [r for r in _as_taken(seen, m, ph) if r.top[0][1] >= TURNED_READ_MIN]
    taken = [r for r, (cx, cy) in zip(taken, _centres([r.quad for r in taken])) if x0 <= cx < x1 and y0 <= cy < y1]
    kept, surer = _surer_at_places(taken, readings)
    return kept + surer + _at_empty_places(taken, kept + surer)


def _surer_at_places(
    other: list[Reading], kept: list[Reading], alike: frozenset[str] = frozenset()
) -> tuple[list[Reading], list[Reading]]:
    """``kept`` without the readings at places where a sure reading of ``other`` lies (as
    :func:`_empty_places` says) that were all read under :data:`TURNED_READ_MIN` and
    :data:`TURNED_SURER_BY` less surely than it, and none of them as another tile of ``alike``
    than it; and those readings of ``other``.

    A photo from a seat is read as taken and straightened (:func:`_read_from_a_seat`), and either
    reading can read a face surely that the other read unsurely, often wrong. The first reading's
    sure tiles taking such places of the straightened one (session 48, with
    :data:`SQUASHED_ALIKE`): on the real-tile samples 177 -> 171 and 203 -> 192 tiles missed, 149
    -> 143 and 173 -> 163 read beyond the labels, 28 more sure tiles each, sure tiles read wrong 1
    -> 1 and 3 -> 4 (a ``3z`` the labels lack, read so by both, now sure); (c10) seen 55 degrees
    off 3 tiles more; synthetic trays seen 45 degrees off 4 more, hands among clutter seen 50
    degrees off 1."""
    sure = [r for r in other if r.sure]
    if not sure or not kept:
        return kept, []
    replaced: set[int] = set()
    surer = []
    for r, apart in zip(sure, _apart([r.quad for r in sure], kept)):
        at = np.flatnonzero(~apart).tolist()
        if r.top[0][0] in alike and any(kept[i].top[0][0] in alike - {r.top[0][0]} for i in at):
            continue
        if at and all(kept[i].top[0][1] < min(TURNED_READ_MIN, r.top[0][1] - TURNED_SURER_BY) for i in at):
            replaced.update(at)
            surer.append(r)
    return [q for i, q in enumerate(kept) if i not in replaced], surer


def _turned_view(
    image: np.ndarray, readings: list[Reading], tile_px: float
) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """The part of ``image`` round ``readings`` (grown by :data:`TURNED_MARGIN` tile lengths, ``x0,
    y0, x1, y1``) shrunk so that their tiles, ``tile_px`` wide, come out at most :data:`TURNED_TILE_PX` wide and turned
    45 degrees, on a canvas that holds all of it; with the homography from ``image``'s pixels to the
    view's. The canvas's corners beyond the part repeat its edge pixels."""
    h, w = image.shape[:2]
    pts = np.concatenate([r.quad for r in readings])
    grow = TURNED_MARGIN * max(_long_side(r.quad) for r in readings)
    x0, y0 = (int(v) for v in np.maximum(np.floor(pts.min(0) - grow), 0))
    x1, y1 = (int(v) for v in np.minimum(np.ceil(pts.max(0) + grow), [w, h]))
    k = min(1.0, TURNED_TILE_PX / tile_px)
    part = image[y0:y1, x0:x1]
    if k < 1:
        size = (max(1, round((x1 - x0) * k)), max(1, round((y1 - y0) * k)))
        part = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
    part_h, part_w = part.shape[:2]
    turn = cv2.getRotationMatrix2D((part_w / 2, part_h / 2), 45.0, 1.0)
    side = (int(round((part_h + part_w) * abs(turn[0, 0]))), int(round((part_h + part_w) * abs(turn[0, 1]))))
    turn[:, 2] += (side[0] / 2 - part_w / 2, side[1] / 2 - part_h / 2)
    view = cv2.warpAffine(part, turn, side, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    fx, fy = part_w / (x1 - x0), part_h / (y1 - y0)
    m = np.vstack([turn, [0.0, 0.0, 1.0]]) @ np.array([[fx, 0.0, -x0 * fx], [0.0, fy, -y0 * fy], [0.0, 0.0, 1.0]])
    return view, m, (x0, y0, x1, y1)


def _measured_on_no_tiles(readings: list[Reading], finds: int) -> bool:
    """Whether the finder's looks may have measured the tiles' size on things that are no tiles:
    at most half of its ``finds`` were read as tiles (the others read as no tile, or dropped by
    the layout: blank patches read as white dragons or backs with no tile beside them), and under
    :data:`FAR_AGAIN_SURE_BELOW` sure tiles were read. A far hand beside a pattern of patches the
    size tiles are at the first look reads nothing, or a stray: a box over the whole far hand read
    as one tile, surely."""
    return 2 * len(readings) <= finds and _sure_count(readings) < FAR_AGAIN_SURE_BELOW


def _read_farther(
    ph: _photo.Photo, cands: list[Candidate], finder: str | None, classifier: Any, sure: int, face_map: dict
) -> tuple[list[Candidate], list[Reading], str | None, int] | None:
    """The candidates of the finder's far look and their reading (:func:`_read`), for a photo whose
    reading of ``cands`` may have measured the tiles' size on no tiles (:func:`_measured_on_no_tiles`):
    a pattern beside a hand too far away to be found at that size
    (:func:`vision.finders.find_farther`); or whose search found nothing at a look smaller than the
    far look (its last look's ``face_map``): a large pale shape beside a far row can make the looks
    smaller, sized for it. ``None`` where there is no such look, or it reads
    fewer sure tiles than :data:`FAR_AGAIN_SURE_BELOW`, or no more than ``sure``, the first
    reading's count: that reading stands. A second guess must read as a hand does to overrule it:
    a white keyboard near the camera, its keys read as none at the first look, shows pairs of keys
    read unsurely at the far look, and a printed page two letters read surely. Where the first
    search found nothing, there is nothing to overrule: the far look's finds stand whatever they
    read, and a row of them whose faces, seen from a seat, are too squat to read still measures the
    slant for the reading straightened (:func:`_seat_view`)."""
    try:
        far = find_farther(ph.image, cands, finder=finder, detail=ph.detail, looked=face_map.get("look"))
    except Exception:  # never crash on a strange photo
        return None
    if not far:
        return None
    readings, reason, rejected = _read(far, classifier)
    if not cands or _sure_count(readings) >= max(FAR_AGAIN_SURE_BELOW, sure + 1):
        return far, readings, reason, rejected
    return None


def _search_lifted(
    ph: _photo.Photo, cands: list[Candidate], face_map: dict, finder: str | None
) -> tuple[_photo.Photo, list[Candidate], dict]:
    """The photo read from here on, its finds and the face map of their search: where a shadow lies
    across part of the tiles (:func:`vision.shadow.light_on_faces`, measured on the face map of the
    first search ``face_map`` and its finds ``cands``), the photo lifted to the lit faces' light
    and searched again; otherwise ``ph`` as it is, with ``cands`` and ``face_map``.

    On the benchmark's labelled real photos with a shadow cast over half of each (table (c11), 0.3
    and 0.45 times the light: 48 photos, 2,564 tiles) 36 tiles were missed and 20 read beyond the
    labels (with the first look's finds kept, :func:`vision.finders.learned.find_tiles`); lifted, 10
    and 4. On 24 tables of real tiles (a hand, other players' tiles beyond it) shaded so at 0.3,
    103 of 1,499 missed and 41 beyond, then 28 and 28. None of the 818 photos of the two real-tile
    samples (:mod:`training.ab`), lit evenly, is lifted, nor any of the 56 photos without tiles."""
    gain = _shadow.light_on_faces(ph.image, face_map["face"], float(face_map["scale"]), _tiles_width(cands))
    if gain is None:
        return ph, cands, face_map
    lifted, lifted_map = _shadow.lifted(ph, gain), dict[str, Any]()
    return lifted, find_candidates(lifted.image, finder=finder, detail=lifted.detail, face_map=lifted_map), lifted_map
