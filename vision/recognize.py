"""End-to-end: photo bytes -> tiles in reading order, with quads, confidences, rows and groups.

    from vision import recognize
    rec = recognize(open("hand.jpg", "rb").read())
    print(rec.to_text()); json.dumps(rec.to_dict())

Stages (each timed in ``timings_ms``): ``decode`` (header check, reduced JPEG decode with EXIF
orientation, see :mod:`vision.photo`), ``segment`` (the tile finder, :mod:`vision.finders`, on the
working image; each tile's crops are cut from the photo's larger detail image where it has one),
``classify`` (``vision.classifier.get_classifier()``, top-3 per crop; a squarish tile is read both
ways round and the more confident reading wins, and so is a lying-shaped one read unsurely, which may
be an upright face seen at a slant, see :func:`_classify`; a reading of few tiles, most finds
read as no tile, is done again from the finder's far look, those finds not measured, and kept when
it reads at least three tiles surely and more than the first: a far hand beside a pattern the
first look took for tiles, :func:`_read_farther`), ``slant`` (a photo whose faces say it
was taken at a slant, from a seat at the table, is read a second time, the part of it the tiles lie
in seen from straight above again, and that reading is kept when it reads more tiles surely:
:func:`_read_from_a_seat`, :mod:`vision.slant`; a reading that still read few of its tiles surely
is also read in the view a seat most often gives, :data:`GUESSED_VIEW`; a place the kept reading
holds only unsurely where the other is sure takes the other's tile, :func:`_surer_at_places`;
where the readings lie every way, a pile, the part of the photo round them is read again turned 45
degrees, :func:`_read_turned`, and so too there), ``group`` (:mod:`vision.grouping`, then
:mod:`vision.hand`: each group says whether it is the hand, ``"hand": true|false``, with a
``"reason"`` code and a ``"note"`` in English).

A candidate the classifier reads as "not a tile" (:data:`vision.classifier.NOT_A_TILE`) in every
orientation is dropped and counted in ``Recognition.rejected`` (a featureless crop, a plain back or
a blank white dragon, comes back from the classifier's fallback as ``back`` or ``5z``, and the layout
rules :func:`_drop_stray_backs` and :func:`_drop_odd_white_dragons` decide; a reading of a size no
tile of the photo's set has goes too, :func:`_drop_odd_sizes`, unless it lies among sure tiles
of its own size (the hand near the camera, more tiles beyond it: :func:`_among_own_size`), and a blank reading of a shape
none of them has, :func:`_drop_odd_shapes`), unless it fills a place
in a row of tiles (:func:`_rescue_row_places`): tile artwork unlike any the classifier learnt is
still a tile where the row says one lies, shown with its best tile reading and never sure. A set
holds four of each playing tile and one of each flower: readings beyond that of one face are not
sure, and take their next reading where the set has room for it (:func:`_surplus_copies`,
:func:`_read_surplus_again`). Each tile says whether it is
``sure``: its calibrated confidence reaches the model's ``sure_threshold``, at which readings are
right at least 99.5 % of the time on held-out real crops, its suit is not one the classifier reads
less reliably than that (the flowers: :meth:`vision.classifier.TileClassifier.suit_can_be_sure`),
it is not a white dragon read on a blank face (:func:`_blank_white_dragon`), it is not under half
the area of the photo's other sure tiles (:func:`_small_readings`: what passes for a tile is
mostly smaller; such a reading the classifier is unsure of is dropped),
read both ways round, the other way did not read another tile too (:func:`_contested`), and its
face and the band round it are not both burnt out (:func:`_burnt_out`: an overexposed photo's
seams are gone, and nothing says the box is where the tile is).

The steps live in modules of their own (``docs/vision.md``, "Module map"): readings and their
geometry in :mod:`vision.readings`, the crops' colours in :mod:`vision.crops`, the layout rules in
:mod:`vision.layout_rules`, the reading of finds in :mod:`vision.read_finds`, the photo from a seat
in :mod:`vision.seat` (its views: :mod:`vision.views`) and :mod:`vision.beyond`, the looks again in
:mod:`vision.looks_again` and :mod:`vision.placed_boxes`. This module runs them in turn
(:func:`recognize`) and arranges the readings as tiles in rows and groups (:func:`_arrange`).

Bad input raises :class:`vision.errors.ImageError`; a photo without tiles gives an empty
:class:`Recognition` whose ``reason`` says why.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import grouping as _grouping
from . import hand as _hand
from . import photo as _photo
from . import slant as _slant
from .beyond import _read_beyond
from .classifier import FEATURELESS, NOT_A_TILE
from .errors import ImageError
from .finders import Candidate, find_candidates
from .layout_rules import (
    _burnt_out,
    _drop_smaller_in_front,
    _drop_spare_blanks,
    _overexposure_note,
    _shown_sure,
    _small_not_sure,
)
from .looks_again import (
    REGION_FINDS_MIN,
    REGION_FINDS_MIN_SLANTED,
    SQUASHED_ALIKE,
    _measured_on_no_tiles,
    _read_farther,
    _read_turned,
    _regions_read_again,
    _search_lifted,
    _surer_at_places,
    _unfound_faces_read,
)
from .placed_boxes import (
    _backs_by_colour,
    _grid_cells_read,
    _halves_read_whole,
    _large_unsure_read_again,
    _oversized_read_again,
    _unread_finds_turned,
)
from .read_finds import MIN_CONFIDENCE as MIN_CONFIDENCE
from .read_finds import _read
from .readings import COPIES_OF_A_FLOWER, COPIES_PER_SET, UNKNOWN, Reading, _at_empty_places, _sure_count
from .seat import _places_missed, _quarter_turns, _read_from_a_seat, _seat_view


@dataclass
class RecognizedTile:
    code: str
    quad: list  # 4 [x, y] in original photo pixels, clockwise from top-left of the upright face
    confidence: float
    alternatives: list  # [(code, prob)] top-3, the chosen code first
    rotated: bool  # lying at 90 degrees
    row: int
    group: int
    sure: bool = False  # calibrated: readings this confident are right >= 99.5 % of the time

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad],
            "confidence": round(float(self.confidence), 4),
            "sure": bool(self.sure),
            "alternatives": [[c, round(float(p), 4)] for c, p in self.alternatives],
            "rotated": bool(self.rotated),
            "row": int(self.row),
            "group": int(self.group),
        }


@dataclass
class Recognition:
    tiles: list = field(default_factory=list)
    groups: list = field(default_factory=list)
    width: int = 0
    height: int = 0
    timings_ms: dict = field(default_factory=dict)
    reason: str | None = None
    rejected: int = 0  # candidates the classifier read as "not a tile"

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    def to_dict(self) -> dict:
        return {
            "tiles": [t.to_dict() for t in self.tiles],
            "groups": [dict(g) for g in self.groups],
            "width": int(self.width),
            "height": int(self.height),
            "timings_ms": {k: round(float(v), 1) for k, v in self.timings_ms.items()},
            "reason": self.reason,
            "rejected": int(self.rejected),
        }

    def _hand_lines(self) -> list[str]:
        """Which groups are the hand, and why the others are not (groups numbered from 1)."""
        judged = [g for g in self.groups if "hand" in g]
        if not judged:
            return []
        hand = [str(g["index"] + 1) for g in judged if g["hand"]]
        lines = [f"  hand: group(s) {', '.join(hand) or 'none'}"]
        for g in judged:
            if not g["hand"]:
                lines.append(f"  not the hand: group {g['index'] + 1} ({g['codes']}): {g['note']}")
        return lines

    def to_text(self) -> str:
        if not self.tiles:
            return f"no tiles ({self.reason or 'nothing found'}) in a {self.width}x{self.height} photo"
        lines = [
            f"{len(self.tiles)} tiles ({sum(t.sure for t in self.tiles)} sure) in "
            f"{len({t.row for t in self.tiles})} row(s), {len(self.groups)} group(s); "
            f"{self.width}x{self.height} photo, {self.timings_ms.get('total', 0):.0f} ms"
            + (f"; {self.rejected} place(s) read as not a tile" if self.rejected else "")
        ]
        for row in sorted({g["row"] for g in self.groups}):
            parts = []
            for g in self.groups:
                if g["row"] != row:
                    continue
                cells = []
                for i in g["tiles"]:
                    t = self.tiles[i]
                    mark = "*" if t.rotated else ""
                    low = "?" if t.confidence < 0.5 else ""
                    cells.append(f"{t.code}{mark}{low}")
                parts.append(" ".join(cells))
            lines.append(f"  row {row}: " + "  |  ".join(parts))
        lines += self._hand_lines()
        unsure = [i for i, t in enumerate(self.tiles) if t.confidence < 0.5]
        if unsure:
            lines.append(
                "  unsure: "
                + ", ".join(
                    f"#{i} {self.tiles[i].code} ({self.tiles[i].confidence:.2f}; alt "
                    + "/".join(c for c, _ in self.tiles[i].alternatives[1:])
                    + ")"
                    for i in unsure
                )
            )
        if self.reason:
            lines.append(f"  note: {self.reason}")
        return "\n".join(lines)


def _group_codes(codes: list[str]) -> str:
    from engine.tiles import format_tiles, parse_tile

    kinds, extra = [], []
    for c in codes:
        if c == "back":
            extra.append("back")
            continue
        try:
            kinds.append(parse_tile(c))
        except Exception:
            extra.append(c)
    out = format_tiles(kinds, sort=False) if kinds else ""
    if extra:
        out = (out + " " + " ".join(extra)).strip()
    return out


#: a surplus copy takes another of its readings only where the classifier gave it this much
OTHER_READING_MIN = 0.05


def _copies(code: str) -> int | None:
    """How many tiles of ``code`` one set holds (``None``: no limit is known)."""
    if code in ("back", UNKNOWN, NOT_A_TILE):
        return None
    return COPIES_OF_A_FLOWER if code.endswith("f") else COPIES_PER_SET


def _surplus_copies(tiles: list[RecognizedTile], groups: list[dict]) -> list[int]:
    """A set holds :data:`COPIES_PER_SET` of each playing tile and one of each flower
    (:func:`_copies`), so beyond that many readings of one face some are wrong. The surplus, the
    least confident of them (at equal confidence, those outside the hand first), is returned as
    indices into ``tiles``, least confident first (:func:`_read_surplus_again`)."""
    in_hand = {i for g in groups if g.get("hand") for i in g["tiles"]}
    order = sorted(range(len(tiles)), key=lambda i: (tiles[i].confidence, i in in_hand))
    left = Counter(t.code for t in tiles)  # copies of each face still to keep, least likely first
    surplus = []
    for i in order:
        limit = _copies(tiles[i].code)
        if limit is not None and left[tiles[i].code] > limit:
            surplus.append(i)
        left[tiles[i].code] -= 1
    return surplus


def _read_surplus_again(tiles: list[RecognizedTile], surplus: list[int]) -> None:
    """Each surplus copy (:func:`_surplus_copies`, least likely first) is no longer sure, and takes
    its next reading (of its top three) that is at least :data:`OTHER_READING_MIN` probable and that
    the set still has room for; one with no such reading, or a blank face (a white dragon reads as
    nothing else), keeps its face. It stays either way: it is as often a real tile read wrong as a
    stray (a scoring stick cut into dot-like pieces), and the page asks the player to check it.

    Measured against only taking the surplus's sureness away: on the labelled real photos pasted
    into real backgrounds (c2, 72) one more photo exact (84.7 % against 83.3 %); seen from a seat
    (c3) 50 degrees off turned 8, one (79.2 % against 75.0 %: a 5f read twice, the less probable
    one's next reading the 1f the photo lacked), and from 0.8 photo lengths 97.5 % of the tiles read
    against 97.1 %; trays (b5) 98.5 % against 98.1 %, 28 further trays one exact photo more; every
    other table as before, and not one sure reading fewer."""
    count = Counter(t.code for t in tiles)
    for i in surplus:
        t = tiles[i]
        t.sure = False
        if t.code in FEATURELESS:
            continue
        room = [
            alt
            for alt in t.alternatives[1:]
            if alt[1] >= OTHER_READING_MIN and (n := _copies(alt[0])) is not None and count[alt[0]] < n
        ]
        if room:
            count[t.code] -= 1
            count[room[0][0]] += 1
            t.code, t.confidence = room[0]
            t.alternatives = [room[0], *[a for a in t.alternatives if a != room[0]]]


def _arrange(
    readings: list[Reading], ph: _photo.Photo, to_view: np.ndarray | None = None
) -> tuple[list[RecognizedTile], list[dict]]:
    """The tiles in reading order (quads in the photo's own pixels) and their groups
    (:func:`vision.grouping.arrange` on the footprints as found, or as seen from straight above
    where the photo was taken at a slant: ``to_view``, the homography from its working pixels to
    that view, :class:`SeatReading`),
    each judged hand or not (:func:`vision.hand.judge`); a surplus copy of a face
    (:func:`_surplus_copies`) is not sure, and read again where the set has room
    (:func:`_read_surplus_again`).

    Seen from a seat, a grid's rows of squat faces lie close together, and a phone turned a little
    about its own axis turns them: they then ran into each other (on the labelled real photos seen
    55 degrees off straight above with the phone turned 5 degrees, 8 of the 13 photos whose every
    tile was read came out in another order). Seen from straight above again, they lie apart, and
    are arranged along their nearest neighbours (:func:`vision.grouping.along_neighbours`)."""
    footprints = [r.candidate.quad for r in readings]
    direction = _grouping.row_angle
    if to_view is not None:
        footprints = [_slant.moved(q, to_view) for q in footprints]
        direction = _grouping.along_neighbours
    order, row_of, group_of = _grouping.arrange(footprints, direction=direction)
    tiles = []
    for i in order:
        r = readings[i]
        qo = [[float(x * ph.scale_x), float(y * ph.scale_y)] for x, y in r.quad]
        tiles.append(
            RecognizedTile(
                code=r.top[0][0],
                quad=qo,
                confidence=r.top[0][1],
                alternatives=r.top,
                rotated=r.rotation == 90,
                row=row_of[i],
                group=group_of[i],
                sure=r.sure,
            )
        )
    groups: dict[int, dict] = {}
    for idx, t in enumerate(tiles):
        groups.setdefault(t.group, {"index": t.group, "row": t.row, "tiles": []})["tiles"].append(idx)
    out = [groups[k] for k in sorted(groups)]
    for g, verdict in zip(out, _hand.judge([t.code for t in tiles], [t.quad for t in tiles], out)):
        g.update(verdict.to_dict())
    _read_surplus_again(tiles, _surplus_copies(tiles, out))
    for g in out:
        g["codes"] = _group_codes([tiles[i].code for i in g["tiles"]])
    return tiles, out


def _turned_back(rec: Recognition, quarters: int, ph: _photo.Photo) -> Recognition:
    """``rec``, the reading of the photo ``ph`` turned ``quarters`` quarter turns
    (:func:`vision.photo.turned`), in ``ph``'s own pixels: each tile's quad turned back (its corners
    still clockwise from the top-left of its upright face), the photo's size as it is. Rows, groups
    and which tiles lie at 90 degrees stay as the upright photo has them: a hand reads along its
    row, however the photo was turned."""
    for t in rec.tiles:
        t.quad = _photo.turned_back(np.asarray(t.quad), quarters, rec.width, rec.height).tolist()
    rec.width, rec.height = ph.width, ph.height
    return rec


def recognize(image_bytes: bytes, *, classifier: Any = None, finder: str | None = None) -> Recognition:
    """Find and read every tile in a photo. Raises :class:`ImageError` for unusable input.

    ``finder`` picks the tile finder (``"learned"`` or ``"classical"``, see
    :func:`vision.finders.find_candidates`); by default the learned one when its model ships.
    ``classifier`` replaces the shipped classifier (anything with its ``classify``)."""
    t0 = time.perf_counter()
    ph = _photo.load(image_bytes)
    timings = {"decode": (time.perf_counter() - t0) * 1000}
    return _recognized(ph, classifier, finder, timings, t0)


def _recognized(
    ph: _photo.Photo, classifier: Any, finder: str | None, timings: dict, t0: float, turned: bool = False
) -> Recognition:
    """:func:`recognize` of the decoded photo ``ph`` (``timings`` holds its decode, ``t0`` when it
    began). A photo whose table's depth runs across it (:func:`_quarter_turns`) is read again turned
    upright, unless ``turned`` says it has been, and that reading stands, its tiles' quads in the
    photo's own pixels (:func:`_turned_back`)."""
    t1 = time.perf_counter()
    rec = Recognition(width=ph.width, height=ph.height)
    cands: list[Candidate] = []
    face_map: dict = {}  # (the finder's last face map of the first reading: :func:`_read_beyond`)
    try:
        cands = find_candidates(ph.image, finder=finder, detail=ph.detail, face_map=face_map)
    except Exception as exc:  # never crash on a strange photo
        rec.reason = f"segmentation failed: {type(exc).__name__}: {exc}"
    if cands and face_map:
        try:
            ph, cands, face_map = _search_lifted(ph, cands, face_map, finder)
        except Exception:  # the first search stands
            pass
    t2 = time.perf_counter()
    timings["segment"] = (t2 - t1) * 1000
    readings, reason_extra, rec.rejected = _read(cands, classifier) if cands else ([], None, 0)
    if reason_extra is None and rec.reason is None and (not cands or _measured_on_no_tiles(readings, len(cands))):
        farther = _read_farther(ph, cands, finder, classifier, _sure_count(readings), face_map)
        if farther is not None:
            cands, readings, reason_extra, rec.rejected = farther
            face_map.clear()  # (the far look's finds: that map no longer shows them)
    if not turned and cands and reason_extra is None and (quarters := _quarter_turns(ph, readings, cands)):
        again = _recognized(_photo.turned(ph, quarters), classifier, finder, timings, t0, turned=True)
        return _turned_back(again, quarters, ph)
    measured = None  # (the view measured on the first reading, where it stands)
    if cands and reason_extra is None and readings:
        try:
            measured = _seat_view(ph, readings, cands)
            least = REGION_FINDS_MIN_SLANTED if measured is not None and measured[0].slanted else REGION_FINDS_MIN
            more = _regions_read_again(ph, cands, readings, finder, classifier, least)
            more += _unfound_faces_read(ph, cands, readings + more, finder, classifier, face_map)
        except Exception:  # the first reading stands
            measured, more = None, []
        readings, measured = (readings + more, None) if more else (readings, measured)
    to_view = None
    t3 = time.perf_counter()
    timings["classify"] = (t3 - t2) * 1000
    # (also where no find read as a tile: a row seen so squat from a seat that every face read as
    # none, whose finds in a row still measure the slant, session 37; or where nothing was found,
    # the face map's regions in a row, session 53)
    if (readings or cands or face_map) and reason_extra is None:
        try:
            seat = _read_from_a_seat(ph, readings, finder, classifier, cands, measured, face_map)
        except Exception:  # the first reading stands
            seat = None
        if seat is not None:
            to_view = seat.to_view
            if seat.readings is not None:
                # (where the first reading is sure and the straightened one is not, the first's tile;
                # not among the faces a squashed view reads a stroke more or less on)
                kept, surer = _surer_at_places(readings, seat.readings, SQUASHED_ALIKE)
                readings, rec.rejected = kept + surer + _places_missed(readings, kept + surer), seat.rejected
            elif seat.passed_over:
                readings = readings + _places_missed(seat.passed_over, readings)
            readings = readings + _at_empty_places(seat.guessed_sure, readings)
            if seat.part is not None:
                try:
                    readings = readings + _read_beyond(ph, seat.part, readings, finder, classifier, face_map)
                except Exception:  # the readings so far stand
                    pass
    if readings and reason_extra is None:
        try:
            readings = readings + _oversized_read_again(ph, cands, readings, classifier)
        except Exception:  # the readings so far stand
            pass
        try:
            readings = readings + _grid_cells_read(ph, readings, classifier)
        except Exception:  # the readings so far stand
            pass
        try:
            readings = readings + _backs_by_colour(ph, readings, classifier)
        except Exception:  # the readings so far stand
            pass
        try:
            readings = _read_turned(ph, readings, finder, classifier)
        except Exception:  # the readings so far stand
            pass
        try:
            readings = _large_unsure_read_again(ph, readings, classifier)
        except Exception:  # the readings so far stand
            pass
        try:
            readings = _halves_read_whole(ph, readings, classifier)
        except Exception:  # the readings so far stand
            pass
        try:
            readings = readings + _unread_finds_turned(ph, cands, readings, classifier, to_view)
        except Exception:  # the readings so far stand
            pass
    t4 = time.perf_counter()
    timings["slant"] = (t4 - t3) * 1000
    if readings:
        readings, burnt = _burnt_out(
            _shown_sure(_small_not_sure(_drop_smaller_in_front(_drop_spare_blanks(readings))), classifier), ph.image
        )
        rec.tiles, rec.groups = _arrange(readings, ph, to_view)
        reason_extra = reason_extra or _overexposure_note(burnt, len(readings))
    elif rec.reason is None:
        rec.reason = (
            "no tiles found: no bright tile faces stood out from the surface"
            if not cands
            else f"no tiles found: none of the {len(cands)} candidate regions read as a tile"
        )
    if reason_extra:
        rec.reason = reason_extra if rec.reason is None else rec.reason + "; " + reason_extra
    t5 = time.perf_counter()
    timings["group"] = (t5 - t4) * 1000
    timings["total"] = (t5 - t0) * 1000
    rec.timings_ms = timings
    return rec


__all__ = ["recognize", "Recognition", "RecognizedTile", "ImageError"]
