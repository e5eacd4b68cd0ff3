"""Reading finds with the classifier (:func:`_read`): every crop of every find classified (a
squarish find, or a slanted one read unsurely, both ways round; :func:`_classify`), each find's
most confident tile reading kept, and what is no tile dropped (:func:`_reject`, and the layout
rules of :mod:`vision.layout_rules`) unless it fills a place in a row of tiles
(:func:`_rescue_row_places`); a reading its other crop contests is never sure (:func:`_contested`).

:func:`vision.recognize.recognize` reads the finder's finds so first, and every later look at a
part or a view of the photo reads its own finds so too (:mod:`vision.seat`, :mod:`vision.beyond`,
:mod:`vision.looks_again`); the boxes placed without the finder are read with :func:`_read_crops`
alone (:mod:`vision.placed_boxes`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .classifier import FEATURELESS, NOT_A_TILE, get_classifier
from .crops import _like_the_backs
from .finders import Candidate
from .layout_rules import (
    _drop_cut_white_dragons,
    _drop_lone_unsure,
    _drop_odd_shapes,
    _drop_odd_sizes,
    _drop_odd_white_dragons,
    _drop_stray_backs,
    _drop_unsure_among_not_tiles,
    _framed_white_dragons_boxed,
    _small_readings,
    _weighs,
)
from .readings import UNKNOWN, Reading, _centres, _overlap, _quad_area, _quad_areas, _upright

#: a candidate whose best class probability is below this and whose shape is implausible is dropped
MIN_CONFIDENCE = 0.25
#: a probe for a face-down tile (:func:`vision.finders.backs.find_backs`) must read as ``back`` this surely
BACK_MIN_CONFIDENCE = 0.6
#: ... or this surely in a photo that shows :data:`vision.crops.BACKS_SEEN_MIN` backs read at
#: :data:`BACK_MIN_CONFIDENCE` or more (:func:`_read`): a pile with face-down tiles in it
BACK_AMONG_BACKS_MIN = 0.3


def _reject(cd: Candidate, code: str, conf: float) -> bool:
    """Drop candidates that are not tile faces (a surface patch, a glare spot, a paper)."""
    if cd.source == "back_probe":
        # a probe for a face-down tile next to a row: kept only when clearly read as a back
        return not (code == "back" and conf >= BACK_MIN_CONFIDENCE)
    ink = cd.ink
    alone = cd.blob_size == 1
    if conf < MIN_CONFIDENCE and cd.score < 0.5:
        return True
    if cd.source == "learned":
        # the learned finder marks face-down tiles too: a back must be read surely; a lone blank
        # region only as a sure white dragon or back
        if code == "back":
            return conf < BACK_MIN_CONFIDENCE
        return alone and ink < 0.01 and not (code == "5z" and conf >= 0.6)
    # faces are found by their ivory colour, so a 'back' reading is a uniform light patch
    if code == "back" and ink < 0.03:
        return True
    # an isolated blank region: only a confidently read white dragon is kept
    if alone and ink < 0.01 and not (code == "5z" and conf >= 0.6):
        return True
    return False


def _back_among_backs(cd: Candidate, top: tuple[str, float]) -> bool:
    """Whether a learned find :func:`_reject` dropped as a back read too unsurely (``top``: its
    reading, the network's own probability) is one a photo showing other backs keeps
    (:data:`BACK_AMONG_BACKS_MIN`): in a pile, a face-down tile lying on or under another comes out
    with the edge of its neighbour in the crop and reads as a back at 0.3-0.6, while a patch of a
    table or a background so read in a photo of face-up tiles is nothing."""
    return cd.source == "learned" and top[0] == "back" and BACK_AMONG_BACKS_MIN <= top[1] < BACK_MIN_CONFIDENCE


def _classify(clf: Any, cands: list[Candidate]) -> tuple[list, list, list, str | None]:
    """Every crop of every candidate through ``clf``: ``(owners, raw, shown, failure)`` where
    ``owners[k]`` is ``(candidate index, rotation)`` of crop ``k``, ``raw[k]`` its top ``(code,
    probability)`` list as the network gives it (the rules below were tuned on these) and
    ``shown[k]`` the same calibrated (:meth:`~vision.classifier.TileClassifier.classify_both`; a
    classifier without calibration gives one list for both); ``?`` for all when the classifier
    failed, with the reason.

    A slanted candidate's upright crop (its second, :func:`vision.finders.geometry.with_crops`) is
    read in a second pass, and only when its lying crop reads as not a tile or under
    :data:`SLANT_RECHECK_BELOW`: a face seen at a slant, turned a quarter, reads as no tile or
    unsurely as another, while a lying tile reads surely as itself (on the labelled real photos
    seen 45 and 55 degrees off straight above, the upright crop read more surely for 988 of 1,025
    such faces; on lying tiles of trays and piles the lying crop mostly read at 0.93-0.97)."""
    crops, owners, spare = [], [], []
    for ci, cd in enumerate(cands):
        for j, (rot, crop) in enumerate(cd.crops):
            if cd.slanted and j > 0:
                spare.append((ci, rot, crop))
                continue
            crops.append(crop)
            owners.append((ci, rot))
    raw: list = [[(UNKNOWN, 0.0)]] * len(crops)
    shown = raw
    reason = None
    if clf is not None and crops:
        try:
            raw, shown = _read_crops(clf, crops)
            first = {ci: raw[k][0] for k, (ci, _rot) in enumerate(owners)}
            asked = [(ci, rot, c) for ci, rot, c in spare if _unsure_lying(first[ci])]
            if asked:
                more_raw, more_shown = _read_crops(clf, [c for _ci, _rot, c in asked])
                owners += [(ci, rot) for ci, rot, _c in asked]
                raw, shown = list(raw) + list(more_raw), list(shown) + list(more_shown)
        except Exception as exc:
            reason = f"classifier failed ({type(exc).__name__}: {exc})"
            raw = shown = [[(UNKNOWN, 0.0)]] * len(owners)
    return owners, _clean(raw), _clean(shown), reason


#: a slanted candidate's lying crop read as a tile at least this surely (the network's own
#: probability) is not read upright too (:func:`_classify`)
SLANT_RECHECK_BELOW = 0.9


def _unsure_lying(top: tuple[str, float]) -> bool:
    """Whether a slanted candidate's lying reading ``top`` (code, raw probability) leaves it open that
    the face is upright, seen at a slant."""
    return top[0] == NOT_A_TILE or top[1] < SLANT_RECHECK_BELOW


def _read_crops(clf: Any, crops: list) -> tuple[list, list]:
    """``(raw, shown)`` readings of ``crops`` (see :func:`_classify`)."""
    both = getattr(clf, "classify_both", None)
    return both(crops) if both is not None else (clf.classify(crops),) * 2


def _clean(preds: list) -> list[list[tuple[str, float]]]:
    return [[(str(c), float(p)) for c, p in pr][:3] or [(UNKNOWN, 0.0)] for pr in preds]


def _best_readings(owners: list, preds: list) -> tuple[dict, set[int]]:
    """Per candidate, its most confident tile reading ``(rotation, top, crop index)`` (``none``
    left out of the alternatives); and the candidates every crop of which reads as not a tile."""
    best: dict[int, tuple[int, list[tuple[str, float]], int]] = {}
    seen: set[int] = set()
    for k, ((ci, rot), pr) in enumerate(zip(owners, preds)):
        seen.add(ci)
        if pr[0][0] == NOT_A_TILE:
            continue
        pr = _tiles_only(pr)
        if ci not in best or pr[0][1] > best[ci][1][0][1]:
            best[ci] = (rot, pr, k)
    return best, seen - set(best)


#: a candidate read both ways round is contested when its losing crop reads another tile at least
#: this surely (the network's own probability; :func:`_contested`)
CONTESTED_MIN = 0.5


def _contested(owners: list, preds: list) -> set[int]:
    """The candidates read both ways round (squarish, or slanted and asked upright too) whose two
    crops read different tiles, the less likely one at least :data:`CONTESTED_MIN`: which way the
    face lies is in doubt, so its reading is never sure (:func:`_read`).

    The classifier learned upright faces; a face turned a quarter is a picture it never saw, and
    it can read one surely as another tile (a turned ``9s`` as ``9p``, a turned character as a
    flower). On the b8 photos seen 50 degrees off straight above (table b11), where faces come out
    squarish, sure readings were right 135 times in 138; with this rule 120 in 121. The price is
    right readings no longer sure (the page asks the table to check them): at 35 degrees 160 sure,
    all right -> 145; trays (b5) 658 of 660 right -> 652 of 654; piles (b7) 104 -> 102, all right."""
    reads: dict[int, list[tuple[str, float]]] = {}
    for (ci, _rot), pr in zip(owners, preds):
        tiles = _tiles_only(pr)
        if pr[0][0] != NOT_A_TILE and tiles:
            reads.setdefault(ci, []).append(tiles[0])
    return {
        ci
        for ci, rs in reads.items()
        if len(rs) > 1 and len({c for c, _ in rs}) > 1 and sorted(p for _, p in rs)[-2] >= CONTESTED_MIN
    }


def _behind_not_a_tile(owners: list, preds: list, unread: set[int]) -> dict[int, tuple[int, int]]:
    """Per candidate of ``unread`` (read as not a tile in every orientation): ``(rotation, crop
    index)`` of the crop whose best tile reading (behind ``none``) is the most confident."""
    best: dict[int, tuple[int, int, float]] = {}
    for k, ((ci, rot), pr) in enumerate(zip(owners, preds)):
        tiles = _tiles_only(pr)
        if ci in unread and tiles and (ci not in best or tiles[0][1] > best[ci][2]):
            best[ci] = (rot, k, tiles[0][1])
    return {ci: (rot, k) for ci, (rot, k, _) in best.items()}


#: a candidate read as not a tile fills a place in a row when its area is within these multiples of
#: the area of the row's tiles beside it (one set, one size; a half tile or two tiles are not one)
ROW_PLACE_AREA = (0.6, 1.6)
#: ... its centre lies this many tile sizes (square root of its area) from its neighbour's: the next
#: place along a row, upright or lying, with or without a gap (a finder's box is often larger than
#: the tile, so packed tiles lie closer than one box size)
ROW_PLACE_STEP = (0.55, 1.5)
#: ... in line with the row: the turn from one step to the next at most this many degrees
ROW_PLACE_TURN = 20.0
#: ... and its overlaps with the tiles, each as a fraction of the smaller area, add up to at most
#: this (a box straddling two tiles overlaps both by half)
ROW_PLACE_OVERLAP = 0.5
#: a row whose places are filled is one of tiles with artwork read at least this surely (sure or
#: not: flowers are never sure), and what fills its places; a reading less sure, or of a blank
#: face, starts no row (the cells of a score sheet, empty or written) ...
ROW_PLACE_FROM = 0.9
#: ... where at least this share of the readings with artwork are read that surely; in a photo read
#: unsurely throughout (a set the classifier never saw) every reading with artwork starts rows
ROW_PLACE_KNOWN_SHARE = 0.5


def _rescue_row_places(readings: list[Reading], unread: list[Reading]) -> list[Reading]:
    """The readings of ``unread`` (candidates read as not a tile, with their best tile reading) that
    fill a place in a row of tiles: the size of the tile beside them (:data:`ROW_PLACE_AREA`), one
    step from it (:data:`ROW_PLACE_STEP`), in line with another tile of the row (between two tiles,
    or continuing a row of two; :data:`ROW_PLACE_TURN`) and overlapping the tiles little
    (:data:`ROW_PLACE_OVERLAP`). A place filled counts as a tile for the next (three tiles in an
    unfamiliar style in a row are all kept). A tile in an unfamiliar artwork style is otherwise
    thrown away with the clutter; a lone object, a row of keys or a box over two tiles is not kept,
    as it continues no row of tiles.

    The rows are those of the tiles the classifier knows: the readings with artwork read at least
    :data:`ROW_PLACE_FROM`, where they are :data:`ROW_PLACE_KNOWN_SHARE` of them or more (else, a
    set in a style the classifier never saw, read unsurely throughout, every reading with artwork).
    Another reading joins a row where it fills a place in it, as a candidate read as not a tile
    does. A blank face (a white
    dragon, a back) is what an empty cell of a score sheet or a patch of paper looks like, and the
    cells of a score sheet are as large as tiles and ruled in rows: the classifier reads most of
    them as not a tile and a few unsurely as a tile, and rows filled from those brought back every
    cell of the sheet."""
    artwork = [r for r in readings if r.top[0][0] not in FEATURELESS]
    sure_enough = sum(r.top[0][1] >= ROW_PLACE_FROM for r in artwork)
    known = ROW_PLACE_FROM if sure_enough >= ROW_PLACE_KNOWN_SHARE * len(artwork) else 0.0
    quads = [r.candidate.quad.astype(np.float64) for r in artwork if r.top[0][1] >= known]
    found: list[Reading] = []
    pending = [r for r in artwork if r.top[0][1] < known] + list(unread)
    places = {id(r) for r in unread}
    grew = True
    while grew and pending and len(quads) >= 2:
        grew = False
        centres = _centres(quads)
        areas = _quad_areas(quads)
        for r in list(pending):
            q = r.candidate.quad.astype(np.float64)
            if _fills_row_place(q, quads, centres, areas):
                quads.append(q)
                centres = np.vstack([centres, q.mean(0)])
                areas = np.append(areas, _quad_area(q))
                if id(r) in places:
                    found.append(r)
                pending.remove(r)
                grew = True
    return found


def _fills_row_place(q: np.ndarray, quads: list[np.ndarray], centres: np.ndarray, areas: np.ndarray) -> bool:
    """Whether the quad ``q`` fills a place in a row of the tiles ``quads`` (their centres and areas
    given): see :func:`_rescue_row_places`."""
    area = _quad_area(q)
    size = area**0.5
    centre = q.mean(0)
    dist = np.linalg.norm(centres - centre, axis=1)
    near = np.flatnonzero(dist <= 2 * ROW_PLACE_STEP[1] * size)  # every tile it could overlap or step to
    if sum(_overlap(q, quads[i]) for i in near) > ROW_PLACE_OVERLAP:
        return False
    lo, hi = ROW_PLACE_AREA
    alike = centres[near[(areas[near] >= lo * area) & (areas[near] <= hi * area)]]

    def steps(c: np.ndarray) -> np.ndarray:
        d = alike - c
        n = np.linalg.norm(d, axis=1)
        return d[(n >= ROW_PLACE_STEP[0] * size) & (n <= ROW_PLACE_STEP[1] * size)]

    def in_line(u: np.ndarray, v: np.ndarray) -> bool:
        cos = float(u @ v) / max(1e-9, float(np.linalg.norm(u) * np.linalg.norm(v)))
        return cos >= np.cos(np.radians(ROW_PLACE_TURN))

    beside = steps(centre)
    for i, u in enumerate(beside):
        if any(in_line(u, -v) for v in beside[i + 1 :]):
            return True  # between two tiles
        if any(in_line(u, v) for v in steps(centre + u)):
            return True  # continuing a row of two
    return False


def _tiles_only(top: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [(c, p) for c, p in top if c != NOT_A_TILE]


def _read(cands: list[Candidate], classifier: Any) -> tuple[list[Reading], str | None, int]:
    """Classify every candidate's crops (``classifier``, default the shipped one), keep each
    candidate's most confident tile reading and drop what is not a tile (read as not a tile in
    every orientation, :func:`_reject`, unless a back read unsurely has the colour of the backs
    read surely, :func:`_back_among_backs`; :func:`_drop_odd_sizes`, :func:`_drop_odd_shapes`,
    :func:`_drop_stray_backs`, :func:`_drop_odd_white_dragons`, :func:`_drop_cut_white_dragons`, a
    framed white dragon boxed round its frame first boxed as the tiles beside it,
    :func:`_framed_white_dragons_boxed`; a far smaller reading is not sure,
    or dropped when the classifier was unsure of it, :func:`_small_readings`; an unsure one far
    from every other is dropped, :func:`_drop_lone_unsure`),
    unless it fills a place in a row of tiles (:func:`_rescue_row_places`); an unsure one apart
    from everything among finds read as not a tile is dropped, filled places included
    (:func:`_drop_unsure_among_not_tiles`); a reading the other way
    round contests (:func:`_contested`) is not sure. Also says why nothing
    could be read (no classifier, or it failed; then every tile is kept, read as ``?``) and how many
    candidates read as not a tile (and stay so)."""
    reason = None
    clf = classifier
    if clf is None:
        try:
            clf = get_classifier()
        except Exception as exc:
            clf = None
            reason = f"classifier unavailable ({type(exc).__name__}: {exc}); tiles located but not read"
    owners, raw, shown, failed = _classify(clf, cands)
    reason = reason or failed
    best, not_tiles = _best_readings(owners, raw)
    contested = _contested(owners, raw)
    if reason is not None:
        not_tiles = set()
    is_sure = getattr(clf, "is_sure", None)
    readings, held_back = [], []
    for ci, cd in enumerate(cands):
        if ci in not_tiles:
            continue
        rot, pr, k = best.get(ci, (0, [(UNKNOWN, 0.0)], -1))
        if clf is not None and reason is None and _reject(cd, pr[0][0], pr[0][1]):
            if _back_among_backs(cd, pr[0]):
                held_back.append(
                    Reading(cd, _upright(cd.quad, rot), rot, (_tiles_only(shown[k]) if k >= 0 else []) or pr)
                )
            continue
        if k >= 0:
            pr = _tiles_only(shown[k]) or pr
        sure = bool(reason is None and is_sure is not None and is_sure(pr[0][0], pr[0][1]))
        sure = sure and ci not in contested
        readings.append(Reading(cd, _upright(cd.quad, rot), rot, pr, sure))
    like = _like_the_backs([r.candidate for r in held_back], readings)
    readings += [r for r, coloured in zip(held_back, like) if coloured]
    readings = _framed_white_dragons_boxed(readings)
    readings = _drop_odd_white_dragons(_drop_odd_shapes(_drop_odd_sizes(_drop_cut_white_dragons(readings))))
    readings = _drop_lone_unsure(_small_readings(_drop_stray_backs(readings)))
    can_be_sure = getattr(clf, "suit_can_be_sure", None)
    if can_be_sure is not None:  # (after the layout rules: a sure flower is still surely a tile)
        readings = [
            dataclasses.replace(r, sure=False) if r.sure and not can_be_sure(r.top[0][0]) and not _weighs(r) else r
            for r in readings
        ]
    unread = [
        Reading(cands[ci], _upright(cands[ci].quad, rot), rot, _tiles_only(shown[k]))
        for ci, (rot, k) in sorted(_behind_not_a_tile(owners, raw, not_tiles).items())
        if _tiles_only(shown[k]) and not _reject(cands[ci], *_tiles_only(shown[k])[0])
    ]
    placed = _rescue_row_places(readings, unread)
    kept = _drop_unsure_among_not_tiles(readings + placed, len(readings), [cands[ci].quad for ci in sorted(not_tiles)])
    return kept, reason, len(not_tiles) - sum(r in kept for r in placed)
