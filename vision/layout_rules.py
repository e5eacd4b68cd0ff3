"""The layout rules: which readings are tiles, and which are sure, by their size, their shape and
where they lie among the others.

A crop classifier cannot tell a blank face from a blank patch of paper, nor a key of a keyboard
from a tile it looks like, so a reading must also lie as a tile of the photo's set does. The rules
that drop readings (stray backs, odd shapes and sizes, white dragons that fit no tile's size or
place, unsure readings far from every other or among finds read as no tile) and those that box a
framed white dragon as its neighbours run at the end of every reading of finds
(:func:`vision.read_finds._read`). Those that take a reading's sureness away (small readings,
burnt-out patches, suits never shown as sure) or drop a set's spare blanks, and the one that drops
what lies in front of the tiles and is far smaller than them, run once more on the readings of
every look together, at the end of :func:`vision.recognize.recognize`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np

from .classifier import FEATURELESS, get_classifier
from .crops import _like_the_backs
from .readings import (
    COPIES_PER_SET,
    Reading,
    _centres,
    _centres_and_length,
    _chained,
    _elongation,
    _gap,
    _has_artwork,
    _long_side,
    _overlap,
    _quad_area,
    _quad_areas,
)

#: a face-down tile belongs to a meld: it lies within this many tile lengths of another tile
#: (centre to centre: a tile plus the gap that sets a meld apart)
BACK_REACH = 2.2
#: ... and two or more backs side by side (a concealed kong) within this many of a face-up tile:
#: one tile further, for a kong whose back nearest the hand the finder missed
KONG_REACH = BACK_REACH + 1.0
#: a back no chain links to a face-up tile is kept where it is read as a back at least this surely
#: and has the colour of the backs linked to the faces (:func:`_drop_stray_backs`): a pile's
#: face-down tile lies anywhere
LONE_BACK_MIN = 0.9


def _drop_stray_backs(readings: list[Reading]) -> list[Reading]:
    """Keep a tile read as ``back`` only if it is about as large as the face-up tiles and a chain of
    tiles, each within :data:`BACK_REACH` tile lengths of the next, links it to a face-up tile: a
    concealed kong is laid out with the hand, while a back-coloured patch of the table is not a
    tile. Two or more backs side by side (each within :data:`BACK_REACH` of another) link to a
    face-up tile within :data:`KONG_REACH`: a kong whose first back the finder missed lies one tile
    further from the hand, while a lone patch would need a second one beside it.

    A back no chain links is still a tile where the linked readings show the photo's backs (at
    least :data:`BACKS_SEEN_MIN` of a colour not the faces', :func:`_like_the_backs`), it has their
    colour and is read as a back at :data:`LONE_BACK_MIN` or more: in a loose pile a face-down tile
    lies anywhere, often several tiles from a face-up one. (On 16 piles seen from above, 45 and 55
    degrees off, every lone back the finder found read 0.99 or more, true or not: its colour tells
    them apart.)"""
    backs = [i for i, r in enumerate(readings) if r.top[0][0] == "back"]
    if not backs:
        return readings
    centres, length = _centres_and_length(readings)
    areas = _quad_areas([r.quad for r in readings])
    faces = [i for i in range(len(readings)) if i not in set(backs)]
    ref = float(np.median(areas[faces])) if faces else float(np.median(areas))
    reach = BACK_REACH * length

    def back_reach(i: int, pending: set[int]) -> float:
        return KONG_REACH * length if _gap(centres, i, pending - {i}) <= reach else reach

    pending = {i for i in backs if 0.55 * ref <= areas[i] <= 1.8 * ref}
    linked = _chained(centres, set(faces), pending, back_reach)
    lone = [i for i in sorted(pending - linked) if readings[i].top[0][1] >= LONE_BACK_MIN]
    if lone:
        like = _like_the_backs([readings[i].candidate for i in lone], [readings[i] for i in sorted(linked)])
        linked |= {i for i, ok in zip(lone, like) if ok}
    return [r for i, r in enumerate(readings) if i in linked]


#: a featureless reading (a blank white dragon, a back) is shaped like the photo's tiles with
#: artwork: its :func:`_elongation` within this factor of their median, either way
FEATURELESS_SHAPE = 1.75


def _drop_odd_shapes(readings: list[Reading]) -> list[Reading]:
    """Drop a reading of a featureless face (:data:`vision.classifier.FEATURELESS`: ``back``,
    ``5z``) whose longer side over its shorter differs from the median of the readings with artwork
    (:func:`_has_artwork`) by more than :data:`FEATURELESS_SHAPE` times (no rule without them).

    A crop classifier cannot tell a blank face from a blank patch of paper or table, so such a
    reading has only its size and shape to show it is a tile; the size rules are
    :func:`_drop_odd_white_dragons` and :func:`_drop_stray_backs`. A photo shows one set from one
    viewpoint, so its tiles share a shape (a lying tile's ratio is its long side over its short, as
    an upright one's). On every benchmark photo (b-b10, labelled real photos and (c2), both
    finders) the other 445 readings of backs and white dragons, nearly all on tiles, measured
    0.70-1.51 times the median; the one beyond, 2.27 times (a strip of a printed page along the
    photo's top edge, read as a sure white dragon), was no tile."""
    ref = [_elongation(r.quad) for r in readings if _has_artwork(r)]
    if not ref:
        return readings
    mid = float(np.median(ref))
    lo, hi = mid / FEATURELESS_SHAPE, mid * FEATURELESS_SHAPE
    return [r for r in readings if r.top[0][0] not in FEATURELESS or lo <= _elongation(r.quad) <= hi]


#: a white dragon must be about as large as the photo's tiles that carry artwork: its area within
#: these multiples of their median area (tiles of one set are one size; perspective changes it little)
WHITE_DRAGON_AREA = (0.6, 1.6)
#: ... and lie within this many tile lengths (centre to centre) of another tile, as a face-up tile
#: the hand needs does (an indicator: :data:`vision.hand.INDICATOR_REACH`)
WHITE_DRAGON_REACH = 4.0
#: ... (or of this many readings with artwork nearest it)
WHITE_DRAGON_PEERS = 4
#: ... (or of at least this many readings with artwork, each on its own, that lie beside it:
#: centres within :data:`WHITE_DRAGON_BESIDE` of its own lengths)
WHITE_DRAGON_ALIKE = 2
WHITE_DRAGON_BESIDE = 2.0
#: ... (or, for a framed white dragon read surely, of the backs read surely, at least this many)
WHITE_DRAGON_BACKS_MIN = 2


def _drop_cut_white_dragons(readings: list[Reading]) -> list[Reading]:
    """Drop a tile read as the white dragon (``5z``) that the finder cut from a core it cut into
    more than :data:`COPIES_PER_SET` tiles (:attr:`Candidate.cut_into`).

    The finder cuts a core far longer than a tile into tiles of the photo's tile width: touching
    tiles whose seams it could not see, a kong or a wall of backs. A pale strip beside the tiles
    (a white rack's edge, a window frame, the margin of a page, a line of faint print on a pale
    table) comes out so too, and every piece of it reads as a white dragon, surely: a blank face
    is what a pale patch of a tile's size looks like. A set holds four white dragons, so a row of
    five or more cut from one core is no row of white dragons; four or fewer can be (a pung or a
    kong of blank white dragons laid edge to edge), and are kept."""
    return [r for r in readings if r.top[0][0] != "5z" or r.candidate.cut_into <= COPIES_PER_SET]


def _drop_odd_white_dragons(readings: list[Reading]) -> list[Reading]:
    """Drop a tile read as the white dragon (``5z``) whose area is not within
    :data:`WHITE_DRAGON_AREA` times the median area of the readings that carry artwork (ink at least
    1 %), every white dragon when no reading carries artwork, and one that no chain of tiles, each
    within :data:`WHITE_DRAGON_REACH` tile lengths of the next, links to a tile read as a face
    with artwork. A white dragon is the one face a white patch can pass for (paper, a letter of a printed
    page, an empty tray slot, a white rack, a window frame), so it needs the tile evidence of
    matching the size of the tiles around it and of lying among them; a photo of blank faces alone
    is no hand (a winning hand holds at most four white dragons and always tiles with artwork).
    The size is that of the readings with artwork (their median area), or that of the
    :data:`WHITE_DRAGON_PEERS` of them nearest it (their median area), or that of
    :data:`WHITE_DRAGON_ALIKE` of them beside it (:data:`WHITE_DRAGON_BESIDE`), each on its own:
    a photo can show tiles of two sizes, the hand near the camera and another player's tiles
    beyond it (:func:`_among_own_size`), and a white dragon in the hand measures up to the tiles
    beside it. Any will do: four boxes are a small sample, and on an overexposed photo, whose
    burnt-out seams let some boxes grow, the four beside a pung of white dragons were twice their
    size. At the end of a hand's row, the white dragon has two of the hand's tiles among its four
    nearest, and tiles beyond the hand, a ninth of their area, as the other two: the median of the
    four was neither size, and a framed white dragon as large as its neighbours was dropped (the
    real-tile A/B sets, :mod:`training.ab`: 2 such tiles, and 1 in the sets saved once more; no
    reading added where no tile is, and none on the photos without tiles). Beside it: in a
    synthetic pile, the blank corner of a tile under another and a finger had two tiles of its
    size among its four nearest, three and four tile lengths off, and was read as a sure white
    dragon. Beside it, not among its four nearest: seen from a seat, the other players' tiles lie
    close beyond the hand, and a white dragon at the end of the hand's row, boxed as its row
    (:func:`_framed_white_dragons_boxed`), had one of the hand's tiles and three far ones as its
    four nearest, and the hand's second tile beside it, 1.3 of its lengths off, did not count.

    A framed white dragon read surely (a frame: ink at least :data:`BLANK_FACE_INK`) may also
    measure up to the backs read surely (their median area, :data:`WHITE_DRAGON_BACKS_MIN` of them
    or more): they are the set's tiles as much as those with artwork, and a pile shows more of them
    than of faces. A loose pile seen from a seat showed one face with artwork, far off, four backs
    and a framed white dragon lying on top of the pile, nearer the camera and raised by the tiles
    under it: 1.73 times the one face's area, 1.48 times the backs'. Blank white dragons are
    measured on the faces with artwork alone (a pale patch the size of a back is no tile); a framed
    one must still lie in a chain of tiles that reaches a face with artwork.
    """
    inked = [r for r in readings if _has_artwork(r)]
    if not inked:
        return [r for r in readings if r.top[0][0] != "5z"]
    inked_centres = _centres([r.quad for r in inked])
    inked_areas = _quad_areas([r.quad for r in inked])
    photo_ref = float(np.median(inked_areas))
    back_areas = _quad_areas([r.quad for r in readings if r.sure and r.top[0][0] == "back"])
    lo, hi = WHITE_DRAGON_AREA

    def sized(r: Reading) -> bool:
        gaps = np.hypot(*(inked_centres - r.quad.mean(0)).T)
        nearest = np.argsort(gaps)[:WHITE_DRAGON_PEERS]
        area = _quad_area(r.quad)
        peers = inked_areas[nearest]
        beside = (
            (lo * inked_areas <= area) & (area <= hi * inked_areas) & (gaps <= WHITE_DRAGON_BESIDE * _long_side(r.quad))
        )
        if int(beside.sum()) >= WHITE_DRAGON_ALIKE:
            return True
        refs = [photo_ref, float(np.median(peers))]
        if len(back_areas) >= WHITE_DRAGON_BACKS_MIN and _sure_framed_white_dragon(r):
            refs.append(float(np.median(back_areas)))
        return any(lo * ref <= area <= hi * ref for ref in refs)

    kept = [r for r in readings if r.top[0][0] != "5z" or sized(r)]
    white = {i for i, r in enumerate(kept) if r.top[0][0] == "5z"}
    if not white:
        return kept
    centres, length = _centres_and_length(kept)
    artwork = {i for i, r in enumerate(kept) if r.top[0][0] not in FEATURELESS}
    linked = _chained(centres, artwork, white, lambda _i, _pending: WHITE_DRAGON_REACH * length)
    return [r for i, r in enumerate(kept) if i not in white or i in linked]


#: a framed white dragon boxed at under this share of the area of each of :data:`WHITE_DRAGON_ALIKE`
#: tiles with artwork beside it is boxed as the nearest of them (:func:`_framed_white_dragons_boxed`)
FRAMED_BOX_UNDER = 0.6
#: ... tiles of one size: the largest of them at most this many times the area of the smallest
FRAMED_BOX_ALIKE = 1.6


def _framed_white_dragons_boxed(readings: list[Reading]) -> list[Reading]:
    """``readings`` with each framed white dragon read surely (``5z`` on a face with ink, at least
    :data:`BLANK_FACE_INK`: the frame) whose box is under :data:`FRAMED_BOX_UNDER` of the area of
    each of :data:`WHITE_DRAGON_ALIKE` or more readings with artwork beside it, of one size
    (:data:`FRAMED_BOX_ALIKE`; centres within :data:`WHITE_DRAGON_BESIDE` of their own lengths of
    its centre), given the box of the nearest of them, moved to its centre.

    Sets draw the white dragon as a frame inside the face, and the finder can take the frame for
    the face: the box then holds the frame alone, half the area of the tiles beside it or less,
    and the size rules (:func:`_drop_odd_sizes`, :func:`_drop_odd_white_dragons`) dropped it as
    too small for the row (the real-tile A/B sets, :mod:`training.ab`: a row of honours at 0.58 of
    its neighbours' area, the same row seen from a seat at 0.35-0.40). The frame is centred on the
    face and the tiles of a row are alike, so its tile is where the frame is, as large as the tile
    beside it. A blank face is left as it was (a white patch passes for it), and so is a frame with
    no tiles of one size beside it (the blank corner of a pile's tile under a finger, whose edge
    gave it ink, lay three tile lengths from the tiles of its size), and one read unsurely.

    On the A/B sets as built, 4 white dragons more were read (the row of honours as taken, seen
    45 degrees off and 55 degrees off, and on a real background seen from a seat), for one far
    ``2p`` read as a sure white dragon in the straightened view of a table seen 55 degrees off (its
    box a third of its neighbours', as a frame's seen from a seat is): missed 206 -> 203, extra 134
    -> 135, exact 244 -> 246; saved once more, missed 328 -> 318, extra 142 -> 145, exact 235 ->
    238. The synthetic tables, the photos without tiles and the untagged real photos read the
    same, tile for tile."""
    inked = [r for r in readings if _has_artwork(r)]
    if len(inked) < WHITE_DRAGON_ALIKE:
        return readings
    centres = _centres([r.quad for r in inked])
    areas = _quad_areas([r.quad for r in inked])
    reach = WHITE_DRAGON_BESIDE * np.array([_long_side(r.quad) for r in inked])
    out = []
    for r in readings:
        if _sure_framed_white_dragon(r):
            centre = r.quad.mean(0)
            gaps = np.hypot(*(centres - centre).T)
            beside = np.flatnonzero((gaps <= reach) & (_quad_area(r.quad) < FRAMED_BOX_UNDER * areas))
            if len(beside) >= WHITE_DRAGON_ALIKE and areas[beside].max() <= FRAMED_BOX_ALIKE * areas[beside].min():
                n = inked[int(beside[np.argmin(gaps[beside])])]
                shift = centre - n.quad.mean(0)
                cd = dataclasses.replace(r.candidate, quad=(n.candidate.quad + shift).astype(np.float32))
                r = dataclasses.replace(r, candidate=cd, quad=n.quad + shift, rotation=n.rotation)
        out.append(r)
    return out


#: a tile's area lies within these multiples of the median area of the photo's sure readings: one
#: set per photo, and perspective changes a tile's width across a table about twofold (another
#: player's tiles at the far side, 0.45 as wide, keep an area of 0.2; a tile nearer the camera than
#: the hand at 1.6 times the width has 2.5 times the area)
TILE_AREA_RANGE = (0.15, 4.0)
#: ... measured only against at least this many readings
SIZE_REFERENCE_MIN = 3


def _sure_median_area(readings: list[Reading], areas: list[float]) -> float | None:
    """The median of ``areas`` over the sure readings, or ``None`` with fewer than
    :data:`SIZE_REFERENCE_MIN` sure readings."""
    ref = [a for a, r in zip(areas, readings) if r.sure]
    return float(np.median(ref)) if len(ref) >= SIZE_REFERENCE_MIN else None


def _drop_odd_sizes(readings: list[Reading]) -> list[Reading]:
    """Drop a reading whose area is not within :data:`TILE_AREA_RANGE` times the median area of the
    sure readings (of every reading with artwork when fewer than :data:`SIZE_REFERENCE_MIN` are
    sure; no rule with fewer than that), unless it lies among sure tiles of its own size
    (:func:`_among_own_size`). A photo shows one set, whose tiles are one size: a box several
    times as large (a sheet of paper, a printed pattern read as a tile) or a speck under 0.4 of
    their width is not one of them. Smaller things that pass (a keyboard key is a third of a
    tile's width) are left to :mod:`vision.hand`, which marks smaller tiles as not the hand."""
    areas = _quad_areas([r.quad for r in readings])
    mid = _sure_median_area(readings, list(areas))
    if mid is None:
        ref = [a for a, r in zip(areas, readings) if _has_artwork(r)]
        if len(ref) < SIZE_REFERENCE_MIN:
            return readings
        mid = float(np.median(ref))
    lo, hi = TILE_AREA_RANGE
    odd = (areas < lo * mid) | (areas > hi * mid)
    kept = _among_own_size(readings, areas, odd)
    return [r for i, r in enumerate(readings) if not odd[i] or i in kept]


#: a sure reading lies among tiles of its own size (:func:`_among_own_size`) with at least this
#: many other sure readings of its size (:data:`NEIGHBOUR_AREA`) near it (:data:`NEIGHBOUR_REACH`)
OWN_SIZE_PEERS = 2


def _among_own_size(readings: list[Reading], areas: np.ndarray, asked: np.ndarray) -> set[int]:
    """Of the readings ``asked`` (a mask over ``readings``, their ``areas``), those near a sure
    reading of about their size (:data:`NEIGHBOUR_AREA`; centres within :data:`NEIGHBOUR_REACH`
    times its size, the square root of its area) that has :data:`OWN_SIZE_PEERS` other sure
    readings of its size near it, or that is one itself.

    The hand near the camera and another player's tiles beyond it are two sizes of one set: a
    hand of 7 tiles at 2.4 times the width of 36 tiles laid out farther off has 6 times their
    area, and :func:`_drop_odd_sizes` measured every reading on the median. Tiles read surely
    side by side at one size are tiles whatever the others measure; what is no tile and passes a
    size (a sheet of paper, a print) is not read surely three times over."""
    sure = np.array([r.sure for r in readings], bool)
    if not asked.any() or sure.sum() <= OWN_SIZE_PEERS:
        return set()
    centres = _centres([r.quad for r in readings])
    sizes = np.sqrt(np.maximum(areas, 1e-9))
    ratio = areas[:, None] / np.maximum(areas[None, :], 1e-9)
    near = np.hypot(*(centres[:, None] - centres[None, :]).transpose(2, 0, 1)) <= NEIGHBOUR_REACH * sizes[:, None]
    alike = near & (ratio >= NEIGHBOUR_AREA[0]) & (ratio <= NEIGHBOUR_AREA[1])  # (row i: i's size and reach)
    np.fill_diagonal(alike, False)
    anchors = sure & ((alike & sure[None, :]).sum(1) >= OWN_SIZE_PEERS)
    return {int(i) for i in np.flatnonzero(asked) if anchors[i] or (alike[i] & anchors).any()}


#: a reading this much smaller than the photo's sure tiles (area, times their median) is never
#: sure, and one the classifier is unsure of is dropped
SURE_AREA_MIN = 0.5


def _small_readings(readings: list[Reading]) -> list[Reading]:
    """``readings`` less those under :data:`SURE_AREA_MIN` times the median area of the sure
    readings that the classifier is unsure of, and with those it is sure of no longer sure (no
    rule with fewer than :data:`SIZE_REFERENCE_MIN` sure).

    What passes for a tile is mostly smaller than the tiles (keyboard keys, dice, coins, specks),
    while the hand is the photo's largest tiles; a tile half the area of the others (another
    player's, across the table) is not the hand and is seen with fewer pixels, so a small reading
    the classifier is sure of stays, unsure. On the benchmark's phone-like photos (b4-b8, 12 per
    kind; b10, 8 per kind) every sure reading under half the median area was wrong (5: three
    keyboard keys read as ``1p`` and ``3z``, and a ``2p`` in a pile and a ``6s`` in a rack where no
    tile lay), and no right one was that small. Of the unsure ones (b4-b8, 12 per kind; b10, 4 per
    kind; 20 synthetic photos), all 11 were false (keys, mostly), no tile; with the finder held
    back in session 13, 14, all false."""
    small = _under_sure_size(readings, _quad_areas([r.quad for r in readings]))
    if small is None:
        return readings
    return [
        dataclasses.replace(r, sure=False) if r.sure and below else r
        for below, r in zip(small, readings)
        if r.sure or not below
    ]


def _under_sure_size(readings: list[Reading], areas: np.ndarray) -> np.ndarray | None:
    """Whether each reading's box (of ``areas``) is under :data:`SURE_AREA_MIN` times the median
    area of the sure readings (``None`` with fewer than :data:`SIZE_REFERENCE_MIN` sure)."""
    mid = _sure_median_area(readings, list(areas))
    return None if mid is None else np.asarray(areas) < SURE_AREA_MIN * mid


#: a reading with under this share of the area of the sure tiles lying wholly beyond it in the photo
#: (at least :data:`SIZE_REFERENCE_MIN` of them, one right behind it) is no tile of the set
#: (:func:`_drop_smaller_in_front`)
IN_FRONT_AREA_UNDER = 0.25


def _drop_smaller_in_front(readings: list[Reading]) -> list[Reading]:
    """Drop a reading whose area is under :data:`IN_FRONT_AREA_UNDER` times the median area of the
    sure readings with artwork that lie wholly above it in the photo, farther from the camera, where
    there are at least :data:`SIZE_REFERENCE_MIN` of them and one lies right behind it (their boxes
    overlap across the photo).

    Seen from a seat the far side of the table is at the top of the photo, and a set's tiles come
    out smaller the farther off they lie, never larger: a tile nearer the camera is at least as
    large as one beyond it. A face lying flat seen from a seat is squatter than one standing in a
    rack, by up to three times at the angles a player takes a photo from, so a quarter leaves a
    margin. Seen from straight above every tile of a set is one size, and the rule holds too. What
    is that much smaller in front of the tiles is something else on the table: the red dots of
    scoring sticks read as ``1p``, surely, in front of a hand seen 55 degrees off (``clutter29006``:
    six readings, four of them sure). :func:`_small_not_sure` does not catch them: there were as
    many of them as of the hand's tiles, so the sure readings' median area was theirs, and they lie
    among sure readings of their own size (:func:`_among_own_size`, there for other players' rows,
    which lie beyond the hand). Tiles of two sizes side by side (the composed tables of
    :mod:`training.ab`: a row of smaller tiles to the side of a grid) have none right behind them."""
    ref = np.array([r.sure and _has_artwork(r) for r in readings], bool)
    if ref.sum() < SIZE_REFERENCE_MIN:
        return readings
    areas = _quad_areas([r.quad for r in readings])
    boxes = np.array([r.quad for r in readings], np.float64)
    lo, hi = boxes.min(1), boxes.max(1)
    beyond = ref[None, :] & (hi[None, :, 1] < lo[:, None, 1])  # (row i: the sure tiles wholly above i)
    behind = beyond & (hi[None, :, 0] > lo[:, None, 0]) & (lo[None, :, 0] < hi[:, None, 0])
    largest = np.where(beyond, areas[None, :], 0.0).max(1)  # (a median only where this leaves it open)
    asked = np.flatnonzero(
        behind.any(1) & (beyond.sum(1) >= SIZE_REFERENCE_MIN) & (areas < IN_FRONT_AREA_UNDER * largest)
    )
    dropped = {int(i) for i in asked if areas[i] < IN_FRONT_AREA_UNDER * float(np.median(areas[beyond[i]]))}
    return [r for i, r in enumerate(readings) if i not in dropped]


def _small_not_sure(readings: list[Reading]) -> list[Reading]:
    """``readings`` as shown, in the photo's pixels: those under :data:`SURE_AREA_MIN` times the
    median area of the sure readings are not sure (:func:`_small_readings`' rule once more, on the
    readings of every look together), unless they lie among sure readings of their own size
    (:func:`_among_own_size`: another player's rows across the table).

    A photo from a seat is read again straightened (:func:`_read_from_a_seat`), and that view
    magnifies its far side: a key of a keyboard beyond the hand, a fifth of a tile's area in the
    photo, comes out there a tile's size and reads as a sure ``7z`` (table (c13), clutter seen 55
    degrees off). A lone reading that small is seen with the photo's few pixels, and is not the
    hand (:mod:`vision.hand`: smaller tiles), so it is not shown sure; it stays, for the player
    to check."""
    areas = _quad_areas([r.quad for r in readings])
    small = _under_sure_size(readings, areas)
    if small is None or not small.any():
        return readings
    among = _among_own_size(readings, areas, small)
    return [
        dataclasses.replace(r, sure=False) if r.sure and below and i not in among else r
        for i, (below, r) in enumerate(zip(small, readings))
    ]


#: a reading that is not sure needs another reading within this many tile lengths (centre to
#: centre), as a white dragon does (:data:`WHITE_DRAGON_REACH`)
LONE_REACH = WHITE_DRAGON_REACH


def _drop_lone_unsure(readings: list[Reading]) -> list[Reading]:
    """Drop a reading that is not sure and lies farther than :data:`LONE_REACH` tile lengths from
    every other reading (no rule with fewer than two readings).

    A photo of a hand shows its tiles together: the hand's row, its melds, an indicator beside it.
    What the classifier is unsure of far away from all of them is mostly not a tile: a logo on a
    cup or a rocket, a key, a coin, a patch of a patterned cloth. On the benchmark's phone-like
    photos (b4-b8, 12 per kind, and 4 per kind at 4000x3000) and synthetic photos (20), every such
    reading was false (3) and none was a tile; a tile that lies alone is not the hand
    (:mod:`vision.hand` marks it ``lone_tile``) and is shown when it is read surely."""
    if len(readings) < 2:
        return readings
    centres, length = _centres_and_length(readings)
    every = set(range(len(readings)))
    return [r for i, r in enumerate(readings) if r.sure or _gap(centres, i, every - {i}) <= LONE_REACH * length]


#: an unsure reading's neighbours: candidates whose centre lies within this many of its sizes
#: (square root of its area) of its centre (:func:`_drop_unsure_among_not_tiles`); as far as a
#: lone reading looks for another (:data:`LONE_REACH`)
NEIGHBOUR_REACH = LONE_REACH
#: ... whose area is within these multiples of its area (the same kind of thing, seen as large)
NEIGHBOUR_AREA = (0.5, 2.0)
#: ... and which overlap it by at most this fraction of the smaller area (another place, not a
#: second box on the same thing)
NEIGHBOUR_OVERLAP = 0.3
#: ... an unsure reading with at least this many neighbours read as not a tile, and at least
#: :data:`NOT_TILE_NEIGHBOURS_SHARE` of its neighbours, is dropped when it touches none of them
NOT_TILE_NEIGHBOURS_MIN = 2
NOT_TILE_NEIGHBOURS_SHARE = 1 / 3
#: ... and read under this (calibrated) probability: a tile read more surely, though not sure (a
#: far face, a contested one), is a tile the classifier knows
AMONG_BELOW = 0.9
#: two boxes touch when the gap between them is at most this many of the reading's sizes (the
#: finder's boxes of tiles side by side overlap)
TOUCH_GAP = 0.005


def _gap_between(a: np.ndarray, b: np.ndarray) -> float:
    """The shortest distance between two convex quads that do not overlap (:func:`_overlap` 0)."""
    dist = [
        -cv2.pointPolygonTest(poly.astype(np.float32).reshape(-1, 1, 2), (float(x), float(y)), True)
        for poly, pts in ((a, b), (b, a))
        for x, y in pts
    ]
    return max(0.0, min(dist))


#: offsets from a reading lie in one row when none is farther than this many of its sizes from
#: the line through it that fits them best
ONE_ROW_OFFSET = 0.5


def _in_one_row(offsets: np.ndarray, size: float) -> bool:
    """Whether points at ``offsets`` (N x 2) from a reading of ``size`` lie in one row with it."""
    _, _, axes = np.linalg.svd(offsets, full_matrices=False)
    across = offsets @ axes[-1]
    return bool(np.abs(across).max() <= ONE_ROW_OFFSET * size)


def _drop_unsure_among_not_tiles(readings: list[Reading], read: int, not_tiles: list[np.ndarray]) -> list[Reading]:
    """Drop a reading that is not sure (or a white dragon), touches none of its neighbours (:data:`TOUCH_GAP`) and
    whose neighbours of its size (:data:`NEIGHBOUR_REACH`, :data:`NEIGHBOUR_AREA`,
    :data:`NEIGHBOUR_OVERLAP`; a box over a place already counted counts for no other place, but
    may touch it) were often read as not a tile: at least :data:`NOT_TILE_NEIGHBOURS_MIN` of them,
    and :data:`NOT_TILE_NEIGHBOURS_SHARE` of its neighbours, and not all in one row with it
    (:func:`_in_one_row`).

    Things laid out like tiles that are not tiles come many together and apart: the keys of a
    keyboard, the letters on them, the squares of a tiled floor. The classifier reads most of them
    as not a tile and a few, unsurely, as the tile they look most like (an ``O`` as ``1p``, a white
    key with a letter as a wind or ``5z``). A tile of a hand touches the tiles beside it (a row, a
    meld), whether the classifier could read them or not. Of the unsure readings with that many
    neighbours read as not a tile (and read under :data:`AMONG_BELOW`), all 46 touched one on the
    labelled real photos on real backgrounds seen 55 degrees off (table c5), 45 of 50 in the
    synthetic trays (whose table is unchanged without the 5), against 24 of 211 on drawn white and
    dark keyboards at 1600 and 4000 px; no other benchmark photo had one. A keyboard's keys lie in
    rows above and below each other; a hand laid with gaps in a style the classifier does not know
    (the test photo of placeholder faces, ``1M``, ``5Z``) has its unread tiles in its one row, and
    keeps them. A sure reading stays, but for a white dragon.

    A reading of the white dragon (``5z``), sure or not, is judged too, and touching does not keep
    it: a blank face is what an empty cell of a score sheet looks like, ruled in with the cells
    beside it, whose writing the classifier reads as not a tile. A blank white dragon of a hand
    lies among tiles read as tiles.

    The first ``read`` of ``readings`` were read as tiles; the others are places of a row filled
    with what the classifier read as not a tile (:func:`_rescue_row_places`), whose candidates are
    among ``not_tiles`` (quads): they are judged too, and count as read as not a tile, so that a
    row of keys filled from two keys read unsurely goes with them."""
    judged = [r for r in readings if r.top[0][0] == "5z" or (not r.sure and r.top[0][1] < AMONG_BELOW)]
    if not not_tiles or not judged:
        return readings
    boxes = [r.quad.astype(np.float64) for r in readings[:read]] + [q.astype(np.float64) for q in not_tiles]
    centres = _centres(boxes)
    areas = _quad_areas(boxes)
    radii = np.array([np.hypot(*(b - c).T).max() for b, c in zip(boxes, centres)])
    # the gap between the circles round two boxes: boxes whose circles lie apart (over 0) neither
    # overlap nor touch, so only the others are measured
    apart = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1)) - radii[:, None] - radii[None]
    places = np.zeros(len(boxes), bool)
    places[:read] = True
    for k in range(read, len(boxes)):  # one place each: a box over a place already counted is not another
        close = np.flatnonzero(places[:k] & (apart[k, :k] <= 0))
        places[k] = all(_overlap(boxes[k], boxes[p]) <= NEIGHBOUR_OVERLAP for p in close)
    dropped = set()
    for r in judged:
        blank = r.top[0][0] == "5z"
        q = r.quad.astype(np.float64)
        c, area = q.mean(0), _quad_area(q)
        size = np.sqrt(max(area, 1e-6))
        dist = np.hypot(*(centres - c).T)
        gap = dist - float(np.hypot(*(q - c).T).max()) - radii
        near = dist <= NEIGHBOUR_REACH * size
        alike = (areas >= NEIGHBOUR_AREA[0] * area) & (areas <= NEIGHBOUR_AREA[1] * area)
        touch = TOUCH_GAP * size
        around = np.flatnonzero(near & alike).tolist()
        overlaps = {j: _overlap(q, boxes[j]) for j in around if gap[j] <= touch}  # (the others: none)
        others = [j for j in around if overlaps.get(j, 0.0) <= NEIGHBOUR_OVERLAP]
        counted = [j for j in others if places[j]]
        rejected = [j for j in counted if j >= read]
        among = len(rejected) >= NOT_TILE_NEIGHBOURS_MIN and len(rejected) >= NOT_TILE_NEIGHBOURS_SHARE * len(counted)
        if (
            among
            and not _in_one_row(centres[rejected] - c, size)
            and (
                blank
                or not any(j in overlaps and (overlaps[j] > 0 or _gap_between(q, boxes[j]) <= touch) for j in others)
            )
        ):
            dropped.add(id(r))
    return [r for r in readings if id(r) not in dropped]


#: a pixel is burnt out where every channel comes to at least this (:func:`_burnt_out`)
BURNT_LEVEL = 250
#: a reading lies in a burnt-out patch when at least these shares of its face and of the band
#: round it are burnt out
BURNT_FACE_MIN = 0.5
BURNT_BAND_MIN = 0.7


def _grid(n: int, lo: float, hi: float) -> np.ndarray:
    """``n`` x ``n`` points evenly over ``[lo, hi]^2`` (the unit square's ``(u, v)``)."""
    t = np.linspace(lo, hi, n)
    return np.stack(np.meshgrid(t, t), axis=-1).reshape(-1, 2)


def _outline(n: int, grow: float) -> np.ndarray:
    """``4 n`` points round the unit square grown ``grow`` times about its centre."""
    t = np.linspace(0.0, 1.0, n, endpoint=False)
    zero, one = np.zeros_like(t), np.ones_like(t)
    sides = [np.stack(a, axis=1) for a in ((t, zero), (one, t), (1 - t, one), (zero, 1 - t))]
    return 0.5 + (np.concatenate(sides) - 0.5) * grow


def _bilinear(uv: np.ndarray) -> np.ndarray:
    """The weights of a quad's corners 0, 1, 2, 3 (at ``(u, v)`` = (0, 0), (1, 0), (1, 1), (0, 1))
    at each of the points ``uv``: K x 4, so that ``weights @ quad`` (4 x 2) puts them on the quad."""
    u, v = uv[:, 0], uv[:, 1]
    return np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v], axis=1)


#: where a reading's face is sampled: the quad's middle, 0.8 of it each way (corner weights,
#: :func:`_bilinear`)
FACE_POINTS = _bilinear(_grid(8, 0.1, 0.9))
#: ... and the band round it: the outline grown 1.07 and 1.15 times
BAND_POINTS = _bilinear(np.concatenate([_outline(12, 1.07), _outline(12, 1.15)]))


def _burnt_share(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Per row of ``pts`` (N x K x 2, pixels), the share of its points inside ``image`` that are
    burnt out (every channel at least :data:`BURNT_LEVEL`; 0 where none is inside)."""
    h, w = image.shape[:2]
    x, y = np.round(pts[..., 0]).astype(int), np.round(pts[..., 1]).astype(int)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    bright = image[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] >= BURNT_LEVEL
    hit = inside & bright[..., 0] & bright[..., 1] & bright[..., 2]
    return hit.sum(axis=1) / np.maximum(inside.sum(axis=1), 1)


def _weighs(r: Reading) -> bool:
    """Whether a reading's sureness still weighs one reading of a photo against another
    (:func:`_in_doubt`, :func:`_straightened_stands`) where its suit is never shown as sure: a
    back's does (:func:`_shown_sure` takes it away at the end). Backs read surely are the sign of a
    reading that worked on a pile of face-down tiles: weighed as unsure, a pile of a face and three
    backs was read again from a guessed seat, and two of its tiles were lost."""
    return r.top[0][0] == "back"


def _shown_sure(readings: list[Reading], classifier: Any) -> list[Reading]:
    """``readings`` as shown: a reading of a suit the classifier never shows as sure
    (:meth:`vision.classifier.TileClassifier.suit_can_be_sure`: flowers, and backs, whose readings
    on sets it never saw were never measured) is not sure, nor is a blank white dragon
    (:func:`_blank_white_dragon`)."""
    readings = [dataclasses.replace(r, sure=False) if r.sure and _blank_white_dragon(r) else r for r in readings]
    try:
        can_be_sure = getattr(classifier if classifier is not None else get_classifier(), "suit_can_be_sure", None)
    except Exception:  # (no classifier: nothing was read surely)
        return readings
    if can_be_sure is None:
        return readings
    return [dataclasses.replace(r, sure=False) if r.sure and not can_be_sure(r.top[0][0]) else r for r in readings]


#: a face with less ink than this (:func:`vision.finders.geometry.ink_fraction`) is blank: the white
#: dragons of the labelled real photos and the real-tile composites, framed, carry 0.23 or more;
#: the pale patches read surely as blank ones there (an empty place at a grid's end on a pale
#: table, a box on a plain table) 0.00 and 0.01
BLANK_FACE_INK = 0.1


def _blank_white_dragon(r: Reading) -> bool:
    """Whether ``r`` reads a white dragon on a blank face (ink under :data:`BLANK_FACE_INK`).

    Sets draw the white dragon framed or leave it blank, and a blank one is the one face a pale
    patch of the table passes for: it reads as the white dragon as surely as a tile does. It is
    kept where the layout says a tile lies (:func:`_drop_odd_white_dragons`), but never shown as
    sure, so the table is asked about it. On the nine real-tile A/B sets (16,465 tiles) the two
    sure readings that were wrong were both such patches; one right sure reading became unsure."""
    return r.top[0][0] == "5z" and r.candidate.ink < BLANK_FACE_INK


def _sure_framed_white_dragon(r: Reading) -> bool:
    """Whether ``r`` reads a white dragon surely on a face with ink, at least :data:`BLANK_FACE_INK`:
    its frame."""
    return r.sure and r.top[0][0] == "5z" and r.candidate.ink >= BLANK_FACE_INK


#: a photo whose set draws the white dragon framed shows at least this many framed white dragons
#: read surely (:func:`_drop_spare_blanks`)
SPARE_FRAMED_MIN = 2


def _drop_spare_blanks(readings: list[Reading]) -> list[Reading]:
    """``readings`` without the blank white dragons (:func:`_blank_white_dragon`) of a photo that
    shows :data:`SPARE_FRAMED_MIN` or more framed white dragons read surely (ink at least
    :data:`BLANK_FACE_INK`): a set draws its white dragon one way, and where it draws it framed, a
    blank tile is one of the spares most sets come with (to replace a lost tile), not a tile of
    the game.

    On the photos of whole sets no model saw (table (c8), labelled in session 37), the white
    dragons are framed (ink 0.35-0.87) and the spares laid beside the set blank (ink 0.00): four
    of the six spares were read as unsure white dragons, tiles that are not there. A photo of a
    whole set packed in its tray shows them so. A set whose white dragon is blank shows no framed
    one, and keeps its blanks."""
    if sum(map(_sure_framed_white_dragon, readings)) < SPARE_FRAMED_MIN:
        return readings
    return [r for r in readings if not _blank_white_dragon(r)]


def _burnt_out(readings: list[Reading], image: np.ndarray) -> tuple[list[Reading], int]:
    """``readings`` with those that lie in a burnt-out patch of ``image`` (the working image their
    quads are in) no longer sure, and how many those are.

    A phone that meters a dark table, or a lamp's pool of light, burns out the ivory faces, and
    over a white table or between touching tiles the shading at their edges and the seams go
    with them. The finder then places a box by the artwork alone, and a box that straddles two
    touching faces, or holds two of a 3p's three dots, reads surely as another tile. The
    classifier itself reads burnt-out faces as well as the others (the labelled real photos' sure
    tiles, cut at their places from the photos with their levels 1.3 and 1.5 times as high and
    clipped: the same 1,203 readings). Where the face (:data:`FACE_POINTS`) and the band round the
    box (:data:`BAND_POINTS`) are both burnt out (every channel at least :data:`BURNT_LEVEL` on
    :data:`BURNT_FACE_MIN` and :data:`BURNT_BAND_MIN` of their points), nothing in the photo says
    the box is where the tile is, so its reading is not sure. On the labelled real photos
    overexposed so (the benchmark's table c4), the sure readings that were wrong (at most 4 of
    1,172 at 1.3, 8 of 1,132 at 1.5) all lay in such patches, and the sure ones now number 626
    and 382, all right; the photos as they are keep their 1,201 sure readings, pasted on real
    backgrounds (c2) 1,545 of 1,553."""
    sure = [i for i, r in enumerate(readings) if r.sure]
    if not sure:
        return readings, 0
    quads = np.stack([np.asarray(readings[i].candidate.quad, np.float64) for i in sure])
    in_patch = (_burnt_share(image, FACE_POINTS @ quads) >= BURNT_FACE_MIN) & (
        _burnt_share(image, BAND_POINTS @ quads) >= BURNT_BAND_MIN
    )
    out = list(readings)
    for i, hit in zip(sure, in_patch):
        if hit:
            out[i] = dataclasses.replace(readings[i], sure=False)
    return out, int(in_patch.sum())


#: a photo with at least this share of its tiles (and :data:`OVEREXPOSED_NOTE_MIN` or more) made
#: unsure by :func:`_burnt_out` says so in its ``reason``, and the page offers to take it again
OVEREXPOSED_NOTE_SHARE = 0.25
OVEREXPOSED_NOTE_MIN = 3


def _overexposure_note(burnt: int, read: int) -> str | None:
    """What to tell the table when ``burnt`` of the ``read`` tiles lie in burnt-out patches
    (:func:`_burnt_out`): which tiles to check, and how to take a photo that reads them surely."""
    if burnt < OVEREXPOSED_NOTE_MIN or burnt < OVEREXPOSED_NOTE_SHARE * read:
        return None
    return (
        f"overexposed photo: {burnt} of the {read} tiles lie on burnt-out white, where their edges do not "
        "show, and are not sure; check them, or take the photo again with less light on the tiles (no lamp "
        "or flash right above them)"
    )
