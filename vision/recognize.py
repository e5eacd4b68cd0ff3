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

Bad input raises :class:`vision.errors.ImageError`; a photo without tiles gives an empty
:class:`Recognition` whose ``reason`` says why.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from . import grouping as _grouping
from . import hand as _hand
from . import photo as _photo
from . import shadow as _shadow
from . import slant as _slant
from .classifier import FEATURELESS, NOT_A_TILE, get_classifier
from .errors import ImageError
from .finders import Candidate, find_candidates, find_farther, finder_name
from .finders.geometry import centred_in, is_ambiguous, order_quad, quad_ink, quads_holding, with_crops
from .finders.learned import FACE_THRESHOLD, MAX_CORES

#: a candidate whose best class probability is below this and whose shape is implausible is dropped
MIN_CONFIDENCE = 0.25
UNKNOWN = "?"
#: a probe for a face-down tile (:func:`vision.finders.backs.find_backs`) must read as ``back`` this surely
BACK_MIN_CONFIDENCE = 0.6
#: ... or this surely in a photo that shows :data:`BACKS_SEEN_MIN` backs read at
#: :data:`BACK_MIN_CONFIDENCE` or more (:func:`_read`): a pile with face-down tiles in it
BACK_AMONG_BACKS_MIN = 0.3
BACKS_SEEN_MIN = 2


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


def _back_among_backs(cd: Candidate, top: tuple[str, float]) -> bool:
    """Whether a learned find :func:`_reject` dropped as a back read too unsurely (``top``: its
    reading, the network's own probability) is one a photo showing other backs keeps
    (:data:`BACK_AMONG_BACKS_MIN`): in a pile, a face-down tile lying on or under another comes out
    with the edge of its neighbour in the crop and reads as a back at 0.3-0.6, while a patch of a
    table or a background so read in a photo of face-up tiles is nothing."""
    return cd.source == "learned" and top[0] == "back" and BACK_AMONG_BACKS_MIN <= top[1] < BACK_MIN_CONFIDENCE


@dataclass(frozen=True, eq=False)
class Reading:
    """A candidate as the classifier read it: ``quad`` turned so that its corner 0 is the upright
    face's top-left (by ``rotation``: 0, or 90 for a lying tile, read turned clockwise; the
    classifier is half-turn invariant and reads an unsure crop with its half-turn too, so one lying
    the other way round reads the same)
    and ``top``, the top-3 ``(code, probability)`` readings, the chosen one first."""

    candidate: Candidate
    quad: np.ndarray
    rotation: int
    top: list[tuple[str, float]]
    sure: bool = False


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


def _quad_area(q: np.ndarray) -> float:
    d1, d2 = q[2] - q[0], q[3] - q[1]
    return abs(float(d1[0] * d2[1] - d1[1] * d2[0])) / 2


def _quad_areas(quads: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`_quad_area` of each of ``quads`` (4x2) at once: the same numbers, each worked in its
    quad's own precision."""
    if len({q.dtype for q in quads}) != 1:  # (none, or of several precisions)
        return np.array([_quad_area(q) for q in quads], np.float64)
    q = np.stack(quads)
    d1, d2 = q[:, 2] - q[:, 0], q[:, 3] - q[:, 1]
    return np.abs((d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]).astype(np.float64)) / 2


def _centres(quads: Sequence[np.ndarray]) -> np.ndarray:
    """The centre (mean corner) of each of ``quads`` (4x2) at once, N x 2 float64: the same
    numbers as each quad's ``mean(0)``, worked in its own precision."""
    if len({q.dtype for q in quads}) != 1:
        return np.array([q.mean(0) for q in quads], np.float64).reshape(-1, 2)
    return np.stack(quads).mean(1).astype(np.float64)


def _centres_and_length(readings: list[Reading]) -> tuple[np.ndarray, float]:
    """The readings' centres and the median tile length (a quad's longer side), photo pixels."""
    if not readings:
        return np.zeros((0, 2)), float("nan")
    quads = np.array([r.quad for r in readings], np.float64)
    return quads.mean(1), float(np.median(_side_lengths(quads).max(1)))


def _side_lengths(quads: np.ndarray) -> np.ndarray:
    """The sides from corner 0 (to corners 1 and 3) of each of ``quads`` (N x 4 x 2): N x 2."""
    return np.hypot(*(quads[:, [1, 3]] - quads[:, [0]]).transpose(2, 0, 1))


def _gap(centres: np.ndarray, i: int, others: set[int]) -> float:
    """The distance from centre ``i`` to the nearest of ``others`` (infinite when there is none)."""
    if not others:
        return float("inf")
    return float(np.hypot(*(centres[list(others)] - centres[i]).T).min())


def _chained(
    centres: np.ndarray, linked: set[int], pending: set[int], reach: Callable[[int, set[int]], float]
) -> set[int]:
    """``linked`` grown by every index of ``pending`` whose centre lies within ``reach(i,
    still pending)`` of a linked one's, again and again while one joins (a chain of tiles)."""
    linked, pending = set(linked), set(pending)
    grew = True
    while grew and pending and linked:
        grew = False
        for i in sorted(pending):
            if _gap(centres, i, linked) <= reach(i, pending):
                linked.add(i)
                pending.discard(i)
                grew = True
    return linked


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


def _has_artwork(r: Reading) -> bool:
    """Whether ``r`` is read as a face with artwork and its crop carries ink (at least 1 %): the
    readings whose size and shape the layout rules trust as the photo's tiles'."""
    return r.candidate.ink >= 0.01 and r.top[0][0] not in FEATURELESS


def _elongation(q: np.ndarray) -> float:
    """A quad's longer side over its shorter (sides from corner 0)."""
    a, b = float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))
    return max(a, b) / max(1e-6, min(a, b))


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
    four nearest, and the hand's second tile beside it, 1.3 of its lengths off, did not count."""
    inked = [r for r in readings if _has_artwork(r)]
    if not inked:
        return [r for r in readings if r.top[0][0] != "5z"]
    inked_centres = _centres([r.quad for r in inked])
    inked_areas = _quad_areas([r.quad for r in inked])
    photo_ref = float(np.median(inked_areas))
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
        return any(lo * ref <= area <= hi * ref for ref in (photo_ref, float(np.median(peers))))

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


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection area of two convex quads over the smaller one's area."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter) / max(1e-6, min(_quad_area(a), _quad_area(b)))


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


def _upright(quad: np.ndarray, rotation: int) -> np.ndarray:
    """``quad`` turned so that corner 0 is the upright face's top-left (see :class:`Reading`)."""
    q = quad.astype(np.float64)
    return np.roll(q, -1, axis=0) if rotation == 90 else q


#: a set holds this many of each playing tile (suits, winds, dragons) and one of each flower;
#: backs are not counted (a face-down tile may be any)
COPIES_PER_SET = 4
COPIES_OF_A_FLOWER = 1
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


def _faces(readings: list[Reading]) -> list[Reading]:
    """The readings whose upright faces (:attr:`Reading.quad`) a slant is measured on
    (:func:`vision.slant.view_of`): those read at least :data:`vision.slant.FACE_CONFIDENCE`,
    backs and blank faces left out (they have no up); when there are too few of those
    (:data:`vision.slant.MIN_FACES`), every reading with an up, surely read or not: a photo that a
    first reading mostly failed, the slant it was taken at may be why (a row at a diagonal seen 55
    degrees off straight above: 1 and 1 of 8 and 4 tiles read, then 6 and 4)."""
    with_up = [r for r in readings if r.top[0][0] not in (*FEATURELESS, UNKNOWN)]
    sure = [r for r in with_up if r.top[0][1] >= _slant.FACE_CONFIDENCE]
    return sure if len(sure) >= _slant.MIN_FACES else with_up


def _seen_as_taken(r: Reading, back: np.ndarray) -> Reading:
    """``r``, found and read in a straightened view of the photo, in the photo's own working pixels
    (``back``: the homography from the view's pixels to them); its crops, read already, let go, and
    its spread (measured in the view's pixels) with them."""

    def moved(q: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(q, np.float64).reshape(1, 4, 2), back).reshape(4, 2)

    cd = dataclasses.replace(r.candidate, quad=moved(r.candidate.quad).astype(np.float32), crops=(), spread=None)
    return dataclasses.replace(r, candidate=cd, quad=moved(r.quad))


def _beside_readings(readings: list[Reading], cands: Sequence[Candidate]) -> list[np.ndarray]:
    """The quads of the candidates ``cands`` on a face region (:attr:`Candidate.blob`, two finds
    or more) that holds a reading: tiles of the rows read, whether the first reading could read
    them or not. The part of a photo read again straightened takes them in: seen from a seat, the
    far tiles of a row are the squattest, a first reading may read them as no tile, and a part
    that reached only two tile widths past the tiles read cut them off."""
    blobs = {r.candidate.blob for r in readings if r.candidate.blob_size >= 2}
    return [cd.quad for cd in cands if cd.blob_size >= 2 and cd.blob in blobs]


#: where a photo taken from a seat was read again straightened: the view it was taken in, the part of
#: it read (``x0, y0, x1, y1``) and the faces measured (:func:`_seat_view`)
SeatPart = tuple[_slant.View, tuple[int, int, int, int], list[np.ndarray]]


def _read_from_a_seat(
    ph: _photo.Photo,
    readings: list[Reading],
    finder: str | None,
    classifier: Any,
    cands: Sequence[Candidate] = (),
    measured: SeatPart | None = None,
    face_map: dict | None = None,
) -> SeatReading | None:
    """The part of the photo its tiles lie in (:func:`vision.slant.window`) read again, seen from
    straight above (:func:`_read_as_seen`), when its faces (:func:`_faces`) say it was
    taken at a slant, from a seat at the table (:func:`vision.slant.view_of`); ``None`` when the
    photo was not taken at a slant and the first reading is not in doubt. When the first reading
    read too few faces to measure the slant on,
    the first candidates ``cands`` that lie in rows (:func:`_in_rows`) are taken for upright
    faces: a row of faces so squat that every one read as no tile; where none lie in rows, the face
    regions of the finder's face map ``face_map`` (:func:`_face_regions`) that do.

    A reading still in doubt then (the straightened one where it stands, else the first:
    :func:`_in_doubt`) is also read again as a player's photo from a seat most often shows it,
    :data:`GUESSED_VIEW`, and that reading is kept where it reads more tiles surely than the one
    kept so far, and no fewer tiles: faces so squat and packed that the first reading's boxes straddle them measure
    no slant at all (their boxes come out squarish), and a reading in doubt is as often one whose
    slant went unmeasured. Where it is not kept, its sure faces at places the kept reading left
    empty are (:func:`_sure_faces_at_empty_places`, ``guessed_sure``). A reading that read its
    tiles surely but left tile-sized finds unread among them (:func:`_unread_in_doubt`: a pile
    seen from a seat, too few of whose faces read to measure the slant on) is read in the guessed
    view for those places only: its tiles read surely stand.

    On the labelled real photos seen 55 degrees off straight above, the straightened reading read
    99.1 % of the tiles (88.3 % without) and made 17 of the 24 photos exact (3); seen 45 degrees,
    99.5 % (97.2 %)."""
    measured = _seat_view(ph, readings, cands, face_map) if measured is None else measured
    if measured is None:
        return None
    view, box, faces = measured
    clf = get_classifier() if classifier is None else classifier
    seat = _read_as_seen(ph, readings, view, box, faces, finder, clf) if view.slanted else None
    if seat is not None and seat.texture and view.depth > 0:
        milder = _milder(view)
        again = _read_as_seen(ph, readings, milder, box, faces, finder, clf)
        if not again.texture:
            view, seat = milder, again
    if seat is not None:
        seat.part = (view, box, faces)
    kept = seat.readings if seat is not None and seat.readings is not None else readings
    doubt = _in_doubt(kept, clf)
    if view != GUESSED_VIEW and (doubt or _unread_in_doubt(kept, cands, clf)):
        guessed = _read_as_seen(ph, readings, GUESSED_VIEW, box, faces, finder, clf)
        if (
            doubt
            and guessed.readings is not None
            and len(guessed.readings) >= len(kept)
            and _sure_count(guessed.readings) > _sure_count(kept)
            and not _cuts_tiles(guessed.readings, kept)
        ):
            guessed.part = (GUESSED_VIEW, box, faces)
            return guessed
        more = _sure_faces_at_empty_places(guessed.readings or [], kept)
        if more:
            seat = seat if seat is not None else SeatReading(None)
            seat.guessed_sure = more
    return seat


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


def _in_rows(cands: Sequence[Candidate]) -> list[Candidate]:
    """The candidates ``cands`` that lie in rows: in a face region of :data:`ROW_OF_FACES` finds or
    more (touching tiles), or linked with as many, directly or through others, by centres within
    :data:`ROW_REACH` of the longer of two finds' long sides: a row whose seams or gaps the finder
    saw, each face a region of its own. Along a row the next tile lies a face's width on, and a
    face seen so squat from a seat that it reads as no tile is wider than high."""
    if len(cands) < ROW_OF_FACES:
        return []
    q = np.asarray([cd.quad for cd in cands], np.float64)
    long_side = np.maximum(np.linalg.norm(q[:, 1] - q[:, 0], axis=1), np.linalg.norm(q[:, 3] - q[:, 0], axis=1))
    row = _grouping.linked_labels(q.mean(1), long_side, ROW_REACH)
    together = np.bincount(row)[row]
    return [cd for cd, n in zip(cands, together) if cd.blob_size >= ROW_OF_FACES or n >= ROW_OF_FACES]


#: a face region of the finder's face map taken for a face (:func:`_face_regions`) is at least this
#: many map pixels across: 16 pixels of the look, half the tile width the looks aim at (a squat
#: face seen 55 degrees off, a little apart from the next, measured 13 at the far edge of a photo)
FACE_REGION_MIN = 8


def _face_regions(face_map: dict) -> list[Candidate]:
    """The regions the finder's face map (``face_map``: :func:`vision.finders.find_candidates`'
    ``face`` and ``scale``) marks as a tile's face, each as a candidate boxed by its bounding
    rectangle (working pixels), those under :data:`FACE_REGION_MIN` map pixels across left out.
    Seen so squat from a seat, faces set a little apart are marked one by one where the finder's
    cores find none of them: a find's core is the face shrunk, and shrunk a squat face leaves next
    to nothing."""
    if "face" not in face_map:
        return []
    scale = float(face_map["scale"])
    _n, _labels, stats, _ = cv2.connectedComponentsWithStats(_faces_apart(face_map, []), connectivity=8)
    out = []
    for x, y, w, h, _area in stats[1:]:
        if min(w, h) >= FACE_REGION_MIN:
            quad = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32) * scale
            out.append(Candidate(quad, source="learned"))
    return out


def _seat_view(
    ph: _photo.Photo, readings: list[Reading], cands: Sequence[Candidate] = (), face_map: dict | None = None
) -> SeatPart | None:
    """The view a photo was taken in, measured on the faces of its reading ``readings``
    (:func:`vision.slant.view_of`), the part of the photo its tiles lie in
    (:func:`vision.slant.window`) and the faces measured (:func:`_read_from_a_seat`); ``None``
    where too few faces were read, even taking the candidates in rows for faces, or else the face
    regions of the finder's face map ``face_map`` in rows (:func:`_face_regions`)."""
    read = _faces(readings)
    faces, spreads = [r.quad for r in read], [r.candidate.spread for r in read]
    quads = [r.quad for r in readings]
    if len(faces) < _slant.MIN_FACES:
        rows = _in_rows(cands) or (_in_rows(_face_regions(face_map)) if face_map else [])
        faces = quads = [cd.quad for cd in rows]
        spreads = [cd.spread for cd in rows]
        if len(faces) < _slant.MIN_FACES:
            return None
    box = _slant.window(quads + _beside_readings(readings, cands), ph.image.shape)
    return _slant.view_of(faces, box, spreads), box, faces


#: a reading cuts tiles (:func:`_cuts_tiles`) where it puts two or more readings inside at least
#: this many of another reading's sure readings with artwork (one box round four tiles of a grid,
#: the classical finder's one sure reading of a 144-tile photo, is no sign)
CUT_MIN = 3
#: ... counting only sure readings shaped like one face: a box at most this elongated (a face is
#: 1.33; two side by side, 1.5 and more)
ONE_FACE_ELONGATION = 1.45


def _cuts_tiles(again: list[Reading], first: list[Reading]) -> bool:
    """Whether the reading ``again`` puts the centres of two or more of its readings inside
    :data:`CUT_MIN` or more of ``first``'s sure readings with artwork shaped like one face
    (:data:`ONE_FACE_ELONGATION`): it read tiles that ``first`` read whole, surely, in pieces.

    The view a reading in doubt is also read in (:data:`GUESSED_VIEW`) draws the photo out 1.6
    times: tiles seen from straight above come out too tall there, and packed edge to edge (a
    grid laid out, a tray) they are found in halves, each read as a tile, many surely (a half
    bamboo tile as ``9s``). Such a reading reads more tiles surely than the first and used to
    replace it. Where the first reading was in doubt because its boxes straddled squat faces, its
    boxes hold pairs of faces, and are shaped so: the classical finder's boxes round two faces
    seen 45 degrees off are read surely as one of them, 1.8-2.5 times as long as wide, and the
    guessed view reads both faces; counted, they cost that finder 9 of every 100 tiles there.

    A count, not a share of ``first``'s sure readings: a composed table seen nearly from above
    (:mod:`training.ab`, ``c7``, its JPEG saved once more: ``python -m training.ab again``) had 5 of
    its 50 such tiles read in halves in the guessed view, which was kept while a tenth of them were
    asked for; 1 half read surely and wrongly (2 saved at quality 90). On the sets as built, no
    photo reads otherwise."""
    whole = [r.quad for r in first if r.sure and _has_artwork(r) and _elongation(r.quad) <= ONE_FACE_ELONGATION]
    firm = np.array(whole, np.float64).reshape(-1, 4, 2)
    if not len(firm) or not again:
        return False
    held = np.sum([quads_holding(r.quad.mean(0), firm) for r in again], axis=0)  # (readings inside each)
    cut = int((held >= 2).sum())
    return cut >= CUT_MIN


#: how a player's photo from a seat most often shows the table: about 50 degrees off straight
#: above (the benchmark's views from a seat are 30-60), the far side up; the view a reading still in
#: doubt is also read in (:func:`_read_from_a_seat`)
GUESSED_VIEW = _slant.View(stretch=1.6)
#: a reading is in doubt where fewer than this share of the tiles that can be read surely
#: were (:func:`_in_doubt`)
DOUBT_BELOW = 0.8
#: ... and it reads at least this many tiles
DOUBT_MIN_TILES = 3


#: a view whose straightened part came out as a texture is tried once more with this share of its
#: depth (:func:`_milder`)
MILDER_DEPTH = 0.5


def _milder(view: _slant.View) -> _slant.View:
    """The view tried where ``view``'s straightened part came out as a texture (:func:`_texture`):
    its depth times :data:`MILDER_DEPTH`, its stretch halfway to :data:`GUESSED_VIEW`'s, its roll
    as it is.

    The depth is measured on the first reading's faces, which from a seat are most often the hand's
    one row: faces that lie at one distance, where a depth and a stretch trade off against each
    other, so that a pixel's noise moves the view measured along that ridge. Taken too deep, the
    straightened part draws the far tiles out past a tile's shape, and its finds read as no tile,
    as a texture's do. On the composed tables seen 55 degrees off (:mod:`training.ab`, ``c7s55``),
    one photo (three far grids, 108 tiles, beyond a hand of 9) measured a stretch of 1.7 and a depth
    of 0.7 as it was built, and read 108 tiles; saved again as a JPEG of quality 85 it measured
    2.0 and 1.2 (the steepest of both), read 6 of 52 finds, and the first reading's 9 tiles stood.
    At 1.8 and 0.6 it reads 106; the one other part of those sets taken for a texture (2.0 and 1.2
    too) reads 59 of 59 there, as :data:`GUESSED_VIEW` read it before."""
    return _slant.View(
        stretch=round((view.stretch + GUESSED_VIEW.stretch) / 2, 2), depth=view.depth * MILDER_DEPTH, roll=view.roll
    )


def _sure_count(readings: list[Reading]) -> int:
    return sum(r.sure for r in readings)


def _could_be_sure(readings: list[Reading], clf: Any) -> list[Reading]:
    """``readings`` less those of the suits ``clf`` never shows as sure (flowers; backs still weigh:
    :func:`_weighs`)."""
    can_be_sure = getattr(clf, "suit_can_be_sure", None)
    return [r for r in readings if can_be_sure is None or can_be_sure(r.top[0][0]) or _weighs(r)]


def _in_doubt(readings: list[Reading], clf: Any) -> bool:
    """Whether a reading of :data:`DOUBT_MIN_TILES` tiles or more read fewer than
    :data:`DOUBT_BELOW` of them surely, leaving out the suits never shown as sure (flowers)."""
    could = _could_be_sure(readings, clf)
    return len(readings) >= DOUBT_MIN_TILES and _sure_count(could) < DOUBT_BELOW * len(could)


#: a reading whose tiles were read surely is still in doubt (:func:`_unread_in_doubt`) where at
#: least this many tile-sized finds lie at places it left empty
UNREAD_IN_DOUBT_MIN = 2
#: ... tile-sized: this share of the readings' median area
UNREAD_AREA = (0.5, 2.0)


def _unread_in_doubt(readings: list[Reading], cands: Sequence[Candidate], clf: Any) -> bool:
    """Whether ``readings`` are in doubt (:func:`_in_doubt`) when the finds ``cands`` at places
    they left empty (:func:`_empty_places`), of a tile's size (:data:`UNREAD_AREA` of the
    readings' median area), are counted as tiles not read surely; at least
    :data:`UNREAD_IN_DOUBT_MIN` of them.

    A pile photographed from a seat: faces squashed and lying every way read as no tile, the few
    read surely are too few to measure the slant on, and the reading looks sure. On 16 piles of
    real faces seen 55 degrees off (seeds 28900 on), one showed 7 tiles and read 3 faces and
    backs surely, its 6p, 2s and 7z found and read as no tile; read in :data:`GUESSED_VIEW` its
    6p and 2s read surely. One such find is no doubt: a lone back dropped as a stray leaves
    one, and a photo from above read so lost a sure 7m to an 8p read in the guessed view."""
    if not readings or not cands:
        return False
    median = float(np.median(_quad_areas([r.quad for r in readings])))
    quads = [cd.quad for cd in cands]
    areas = _quad_areas(quads)
    free = _empty_places(quads, readings)
    lo, hi = UNREAD_AREA[0] * median, UNREAD_AREA[1] * median
    unread = sum(1 for a, f in zip(areas, free) if f and lo <= a <= hi)
    could = _could_be_sure(readings, clf)
    counted = len(could) + unread
    return unread >= UNREAD_IN_DOUBT_MIN and counted >= DOUBT_MIN_TILES and _sure_count(could) < DOUBT_BELOW * counted


def _sure_faces_at_empty_places(new: list[Reading], kept: list[Reading]) -> list[Reading]:
    """The sure readings of ``new`` with artwork (:func:`_has_artwork`: no backs, no blank faces)
    at places ``kept`` left empty (:func:`_empty_places`): what a reading in the guessed view that
    is not kept still adds. Sure, because the kept reading saw nothing there that it read; with
    artwork, because a patch the guessed view draws out reads as a back or a blank as easily."""
    return [r for r in _at_empty_places(new, kept) if r.sure and _has_artwork(r)]


def _read_as_seen(
    ph: _photo.Photo,
    readings: list[Reading],
    view: _slant.View,
    box: tuple[int, int, int, int],
    faces: list[np.ndarray],
    finder: str | None,
    classifier: Any,
) -> SeatReading:
    """The part ``box`` of the photo read again by ``classifier`` as
    :func:`vision.slant.straightening` shows it seen in ``view`` from straight above: the
    :class:`SeatReading`, its readings kept unless they read fewer tiles surely than the first
    reading ``readings`` (:func:`_straightened_stands`). At a modest slant (not
    :attr:`vision.slant.View.steep`) a first reading that read every tile surely stands unread.
    The tiles' crops are cut from the photo as it is (from its detail image, where it has one),
    each face's quadrilateral rectified. Where the straightened part shows far more finds than the
    first reading read tiles (:data:`SEAT_FINDS_MAX`), it may show a texture, enlarged with the
    tiles: its reading is kept only where it reads most of the finds surely (:func:`_texture`)."""
    m, size = _slant.straightening(view, box, faces)
    if not view.steep and all(r.sure for r in _could_be_sure(readings, classifier)):
        return SeatReading(m)
    cands = _found_in_view(ph, m, size, finder, _slant.width_seen(faces, m))
    if len(cands) > MAX_CORES:  # a texture, enlarged: more finds than a set has tiles
        return SeatReading(m, texture=True)
    seen, reason, rejected = _read(cands, classifier)
    if reason is not None:
        return SeatReading(m)
    if _texture(cands, seen, readings):
        return SeatReading(m, texture=True)
    again = _agreeing(_as_taken(seen, m, ph), readings)
    if not _straightened_stands(again, readings):
        return SeatReading(m, passed_over=again)
    return SeatReading(m, again, rejected)


def _places_missed(other: list[Reading], kept: list[Reading]) -> list[Reading]:
    """The readings of ``other``, the reading of a photo taken from a seat that was not kept (the
    straightened one, or the first), at places ``kept`` left empty (a centre farther than half
    the shorter side of either box from each of ``kept``'s), where they lie in rows: at least
    :data:`ROW_OF_FACES` of them on one face region of as many finds or more, or
    :data:`MISSED_IN_ROW` there, one of them read surely.

    One reading can miss what the other read: a row far across the table, squashed, found at
    the first look in boxes too wide to read, read in the straightened view; the first reading
    still stands where it reads more tiles surely elsewhere (on the tables of (c7) seen 45
    degrees off: 6 of a far row's 9 tiles, and 3 tiles more on another photo, one wrong). A
    lone patch one reading took for a tile (a leaf read as a back) is left out, and so is a lone
    place in a row and two read unsurely (:data:`MISSED_IN_ROW`)."""
    in_rows = [r for r in _at_empty_places(other, kept) if r.candidate.blob_size >= ROW_OF_FACES]
    per_region = Counter(r.candidate.blob for r in in_rows)
    sure_in_region = Counter(r.candidate.blob for r in in_rows if r.sure)
    return [
        r
        for r in in_rows
        if per_region[r.candidate.blob] >= ROW_OF_FACES
        or (per_region[r.candidate.blob] >= MISSED_IN_ROW and sure_in_region[r.candidate.blob])
    ]


def _at_empty_places(new: list[Reading], kept: list[Reading]) -> list[Reading]:
    """The readings of ``new`` at places ``kept`` left empty (:func:`_empty_places`)."""
    return [r for r, free in zip(new, _empty_places([r.quad for r in new], kept)) if free]


def _empty_places(quads: list[np.ndarray], kept: list[Reading], share: float = 0.5) -> list[bool]:
    """Whether each of ``quads`` (4x2) lies at a place ``kept`` left empty: its centre farther than
    ``share`` of the shorter side of either box (half by default) from each of ``kept``'s."""
    if not quads:
        return []
    return [bool(free) for free in np.asarray(_apart(quads, kept, share).all(axis=1))]


def _apart(quads: list[np.ndarray], kept: list[Reading], share: float = 0.5) -> np.ndarray:
    """For each of ``quads`` (4x2, at least one) and each reading of ``kept``, whether their centres
    lie farther apart than ``share`` of the shorter side of either box (:func:`_empty_places`)."""
    boxes = np.array([r.quad for r in kept], np.float64).reshape(-1, 4, 2)
    centres = boxes.mean(1)
    sides = np.minimum(*(np.linalg.norm(boxes[:, k] - boxes[:, 0], axis=1) for k in (1, 3)))  # (_short_side)
    at = _centres(quads)
    gaps = np.hypot(centres[None, :, 0] - at[:, None, 0], centres[None, :, 1] - at[:, None, 1])
    shorts = np.array([_short_side(q) for q in quads])
    return np.asarray(gaps > share * np.maximum(sides[None, :], shorts[:, None]), bool)


def _tiles_width(cands: list[Candidate]) -> float:
    """The median short side of the finds ``cands`` (working pixels): the tiles' width."""
    return float(np.median(_side_lengths(np.array([c.quad for c in cands], np.float64)).min(1)))


def _short_side(q: np.ndarray) -> float:
    """A quad's shorter side (sides from corner 0)."""
    return min(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0])))


def _long_side(q: np.ndarray) -> float:
    """A quad's longer side (sides from corner 0): a tile's length."""
    return max(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0])))


def _straightened_stands(again: list[Reading], first: list[Reading]) -> bool:
    """Whether the reading ``again`` of a photo taken at a slant, made where its faces are seen
    from straight above (:func:`_read_from_a_seat`; its sure readings that ``first`` contradicts
    already unsure, :func:`_agreeing`), replaces the first reading ``first``: unless it reads fewer
    tiles surely, ``first``'s sure readings counted only where ``again`` does not read the same tile
    as another face (a sure reading the other reading contradicts is as much in doubt either way
    round). At a tie the straightened reading stands: the first found squat or sheared faces, and
    its boxes straddle neighbours where the second's fit the faces (also where neither reads a tile
    surely: a small photo seen 55-60 degrees off straight above, whose second reading read more of
    its tiles right, none of them surely).

    Measured against keeping the first reading at a tie and counting all its sure readings, on the
    labelled real photos seen from a seat (c3: 24 photos in each of 13 views, 30-60 degrees off
    straight above, 0.8-1.3 photo lengths away, the phone turned 0-12 degrees): 12 more of the 312
    read exactly (30 degrees: 23 against 22; 55: 22 against 20; 50 and 60: 19 against 17; 45 from
    0.9 lengths: 21 against 20; 50 turned 5, 8 and 12 degrees: 20, 18 and 20 against 19, 16 and
    18), one fewer (40 degrees turned 5: 18 against 19), and seen 50 degrees turned 8 every one of
    the 1,182 sure readings right (1,180-1,183 of 1,184). Elsewhere one more exact photo of 12 on the
    hands among clutter seen 35 degrees off (b11), the rows at a diagonal seen 45 degrees off (b12),
    the rows at a diagonal (b4) and the trays (b5), and of 72 on the labelled photos pasted into real
    backgrounds (c2); two tiles more read of 173 on the hands blurred by a shaking hand (b9); one
    fewer at 50 degrees (b11); at 4000 x 3000 (b10) one exact photo fewer of 20 (a pile seen close,
    whose straightened reading lost one of its three tiles) and 97.7 % of the tiles read, not 98.1 %."""
    return _sure_count(again) >= _sure_count(_agreeing(first, again))


@dataclass
class SeatReading:
    """A photo taken at a slant (:func:`_read_from_a_seat`): ``to_view``, the homography from its
    working pixels to the part of it its tiles lie in seen from straight above (where its tiles are
    arranged in rows: :func:`_arrange`), and the second reading made there, in the working pixels,
    with the candidates it read as no tile (``readings`` ``None`` where the first reading stands;
    then ``passed_over`` holds the second reading, whose rows the first missed are still taken:
    :func:`_places_missed`); ``part``, the view, part and faces it was made in (what lies beyond
    is read in the same view: :func:`_read_beyond`); ``texture``, whether the straightened part
    was taken for a texture (:func:`_texture`, or more finds than a set has tiles), the first
    reading standing for that (:func:`_milder`); ``guessed_sure``, the sure faces of a reading in
    the guessed view that was not kept, at places the kept reading left empty (``to_view``
    ``None`` where that is all: the first reading stands, arranged as taken)."""

    to_view: np.ndarray | None
    readings: list[Reading] | None = None
    rejected: int = 0
    passed_over: list[Reading] | None = None
    part: SeatPart | None = None
    texture: bool = False
    guessed_sure: list[Reading] = field(default_factory=list)


#: the part of a photo read again straightened shows the tiles a first reading read, and some it
#: missed, in that part: more finds than this (``a * readings + b``) may be a texture the
#: straightening enlarged with the tiles (the dots of a polka-dot tablecloth round a hand far from
#: the camera: 204 finds about 10 tiles, 129 of them read as tiles; :func:`_texture`)
SEAT_FINDS_MAX = (3, 12)
#: ... and such a part is taken for tiles where its reading reads at least this share of its finds
#: surely
TEXTURE_SURE_SHARE = 0.5
#: when the first reading read too few faces to measure a slant on, the candidates in a face region of
#: at least this many (touching tiles: a row) are taken for upright faces (:func:`_read_from_a_seat`,
#: :func:`_in_rows`)
ROW_OF_FACES = 3
#: ... or as many finds linked by centres within this many of the longer one's long side
#: (:func:`_in_rows`): squat faces side by side lie 1.0 of it apart, half a face between them 1.5
#: (upright faces 0.75 and 1.1). On the real-tile sets (:mod:`training.ab`) one photo reads
#: otherwise: the row of seven honours at the far edge of ``c5s55`` 022, whose seams the finder saw,
#: read all seven (one, or none, before); on 56 photos without tiles two more are read again
#: straightened, and no tile is read
ROW_REACH = 1.5
#: the places one reading of a photo taken from a seat left empty in a row (a face region of
#: :data:`ROW_OF_FACES` finds or more) are filled from the other reading where it read
#: :data:`ROW_OF_FACES` tiles there, or this many, one of them surely (:func:`_places_missed`):
#: gaps in a far row each reading read in part. On the real-tile sets (:mod:`training.ab`) 5 more
#: tiles were read (seen 45 degrees off: 2 of 1,254 and 1 of 1,525; as taken: 2 of 1,499) for one
#: more reading that was not there. Two unsure readings were not enough: those read 13 more
#: tiles, but also 2 more that were not there, and 2 on the tile-free photos, where there had been 1
#: (:func:`training.evaluate_reject.false_tiles`). One place alone is a stray as often as a tile.
MISSED_IN_ROW = 2


def _texture(cands: Sequence[Candidate], seen: list[Reading], first: list[Reading]) -> bool:
    """Whether the straightened part's finds ``cands``, read as ``seen``, are a texture enlarged
    with the tiles the first reading ``first`` read: far more finds than ``first`` read tiles
    (:data:`SEAT_FINDS_MAX`), of which under :data:`TEXTURE_SURE_SHARE` read surely as tiles.

    Far more finds are also the far grids and rows of a table seen from a seat, which the first
    reading's looks, sized for the hand, took for specks: on the composed tables seen 55 degrees off
    (:mod:`training.ab`, ``c7s55``), a photo whose three far grids (108 tiles) lie in the part found
    123 there and read 83 of them surely; its first reading had read the hand's 9 tiles. Judged on
    the count alone, they were a texture, and 108 tiles were missed; 19 are now. The one other part
    of those sets with that many finds (102, of a far grid the first reading read) read 17 of them
    surely, and the first reading stood, as before; both parts were views measured too deep, and
    are now read again in a milder one (:func:`_milder`). (A texture's dots seen sharp in the detail
    image come out in the hundreds: more than a set has tiles, :data:`vision.finders.learned.MAX_CORES`,
    is a texture unread.)"""
    if len(cands) <= SEAT_FINDS_MAX[0] * len(first) + SEAT_FINDS_MAX[1]:
        return False
    return _sure_count(seen) < TEXTURE_SURE_SHARE * len(cands)


def _agreeing(again: list[Reading], first: list[Reading]) -> list[Reading]:
    """``again`` (one reading of the photo, its pixels) with a reading no longer sure where the
    other reading ``first`` read the same tile (its centre within half the tile's width) as another
    face: which it is, is in doubt (as :func:`_contested` says of a face read both ways round). On
    the benchmark's photos this caught, in a second reading, a half tile read as a sure ``2p`` and a
    sure ``3m`` that the first reading had read as the ``5m`` it was."""
    if not first:
        return again
    centres = _centres([r.quad for r in first])
    out = []
    for r in again:
        if r.sure:
            q = r.quad
            width = min(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0])))
            d = np.hypot(*(centres - q.mean(0)).T)
            near = int(np.argmin(d))
            if d[near] < width / 2 and first[near].top[0][0] != r.top[0][0]:
                r = dataclasses.replace(r, sure=False)
        out.append(r)
    return out


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


def recognize(image_bytes: bytes, *, classifier: Any = None, finder: str | None = None) -> Recognition:
    """Find and read every tile in a photo. Raises :class:`ImageError` for unusable input.

    ``finder`` picks the tile finder (``"learned"`` or ``"classical"``, see
    :func:`vision.finders.find_candidates`); by default the learned one when its model ships.
    ``classifier`` replaces the shipped classifier (anything with its ``classify``)."""
    t0 = time.perf_counter()
    ph = _photo.load(image_bytes)
    t1 = time.perf_counter()
    timings = {"decode": (t1 - t0) * 1000}
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
    t4 = time.perf_counter()
    timings["slant"] = (t4 - t3) * 1000
    if readings:
        readings, burnt = _burnt_out(_shown_sure(_small_not_sure(_drop_spare_blanks(readings)), classifier), ph.image)
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
