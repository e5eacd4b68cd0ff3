"""A photo taken from a seat at the table: how its tile faces are foreshortened, and the part of the
photo they lie in seen from straight above again.

A player photographs a winning hand from their seat, the phone some 30-60 degrees off straight
above. The table's depth then runs up the photo, shortened: a face 0.75 as wide as high, seen ``t``
degrees off straight above, looks ``0.75 / cos t`` as wide as high (1.06 at 45 degrees, 1.31 at
55), a tile lying at a diagonal looks like a parallelogram, whose crop, cut by a rectangle, shows
its face sheared and its neighbours' edges, and the far tiles come out smaller and squatter than
the near ones, the more so the nearer the phone. The finder learnt faces seen from above, and all
of it costs: on the labelled real photos seen at 55 degrees, 88 % of the tiles were read.

The table is a plane, and a phone held level (its picture turned upright by its EXIF orientation)
tilts up the photo, so near the tiles, in coordinates centred on the part of the photo they lie in
(:func:`window`) and measured in its height, the plane is seen from straight above again by

    x' = x / (1 + depth * y),    y' = stretch * y / (1 + depth * y)

(:class:`View`): ``stretch`` undoes the shortening of the table's depth, ``depth`` the far side's
coming out smaller (0: the phone far from the tiles; 0.4: the nearest tiles half as large again as
the farthest). A phone held a little turned about its own axis (``roll`` degrees) tilts along a
turned line: the coordinates are turned back by the roll first, and turned again after. The view
is measured on the faces a first reading read (:func:`view_of`; their boxes, and the spread of
their pixels, which keeps the shear of a face turned on the table): the classifier settled which way
each face is up, and seen from above every face is
:data:`~vision.finders.geometry.FACE_ASPECT` as wide as high, and every tile as wide as the
others. A photo taken from above measures a stretch of 1.0-1.1 and a depth of 0-0.1
(:attr:`View.slanted` says where a second reading starts).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .finders.geometry import FACE_ASPECT

#: the stretches tried (a face seen up to 60 degrees off straight above needs 2.0)
STRETCHES = tuple(round(1.0 + 0.05 * i, 2) for i in range(21))
#: the depths tried (1.2: the nearest tiles four times as large as the farthest)
DEPTHS = tuple(round(0.1 * i, 1) for i in range(13))
#: a photo whose faces need at least this stretch is read again straightened (about 30 degrees) ...
MIN_STRETCH = 1.15
#: ... or at least this depth (the nearest tiles a fifth larger than the farthest)
MIN_DEPTH = 0.2
#: a photo whose every tile a first reading read surely (but for those never sure: flowers) is read
#: again only when its faces need at least this stretch (about 48 degrees) or :data:`MIN_DEPTH`
#: twice over: at a modest slant the finder finds faces as they are, and on the labelled real photos
#: seen at 30, 45 and 55 degrees and the b11 photos, 17 second readings of such photos gained
#: nothing, and none gained
SURE_READ_AGAIN_FROM = 1.5
#: the view is measured on at least this many faces ...
MIN_FACES = 3
#: ... and the depth on at least this many (fewer let it trade off against the stretch, 0; and
#: see :data:`DEPTH_GAIN`). A close-up from a seat, the phone over the near tiles, shows few faces
#: read surely, the far ones a third the size of the near ones. Measured on the labelled real photos
#: (24) seen 50 degrees off straight above from 0.8 photo lengths, 5 (against 8) read 97.1 % of the
#: tiles, not 95.6 %, and made 16 photos exact, not 13; from 0.6 lengths 8 (7); 55 degrees, the phone
#: turned 5 degrees, 19 (18); the b12 rows at a diagonal seen 45 and 55 degrees off read 98.5 % both
#: (97.8 and 97.1 %), the b7 piles 94.1 % (92.4 %). The price: 50 degrees with the phone turned 15
#: degrees (the most :data:`MAX_ROLL` allows), 11 exact, not 13 (a row of five faces turned a little
#: past it took the deepest depth). Unchanged, or within a tile: the labelled real photos from
#: above, at 30, 45 and 55 degrees and turned 8 degrees; the (c2) composites from above, at 45 and
#: 55 degrees; b, b4-b6, b8, b11. 4 cost b12 at 55 degrees.
MIN_FACES_FOR_DEPTH = 5
#: ... read at least this surely (calibrated confidence), face-down tiles left out (a back has no up)
FACE_CONFIDENCE = 0.8
#: how much a face's width off the median weighs against its shape off a face's (both as log ratios)
SIZE_WEIGHT = 1.0
#: a depth is taken only where it fits the faces better than no depth by at least this much (the
#: cost of :func:`view_of`): faces in one row all lie at one distance, and there a depth only makes
#: up for the steps between :data:`STRETCHES` (five faces across the photo, 40 degrees off straight
#: above, took a depth of 0.2 for 0.001 less; 0.01 cost the b11 photos at 50 degrees 1 % of their
#: tiles)
DEPTH_GAIN = 0.005
#: views whose fit is within this of the best fit as well (the one nearer straight above is taken)
TIE = 0.002
#: a view has a roll (the phone turned about its own axis, as a hand-held phone is) when the rows
#: are turned at least this much (degrees: :func:`row_turn`) ...
MIN_ROLL = 2.0
#: ... and at most this much: more is as likely a row turned on the table, whose faces are sheared
#: in the photo, not turned (:func:`view_of`). Measured on 40 photos each: up to 15 degrees, the
#: b11 hands turned on a cluttered table seen 50 degrees off straight above read 98.9 % of their
#: tiles right (99.3 % up to 10), the b12 rows at a diagonal seen 55 degrees off 89.9 % (90.4 %),
#: and the labelled real photos seen 50 degrees off by a phone turned 15 degrees 14 of 24 exactly
#: (8); up to 20 degrees cost b12 several points more in an earlier build (85.6 % against 92.5 %)
MAX_ROLL = 15.0
#: the view measured on the faces' spreads as well as their quadrilaterals is taken where it is
#: steeper than the one measured on the quadrilaterals alone by at least this stretch (two of the
#: steps tried; :func:`view_of`)
STEEPER_BY = 0.1
#: the part of the photo read again reaches this many tile widths beyond the tiles read at first
REACH = 2.0
#: the part beyond the hand (other players' tiles across the table, :func:`beyond`) stops where
#: a patch of the photo is drawn out over this many times the area it is at the hand (the plane's
#: depth half the hand's)
BEYOND_MAGNIFY = 8.0
#: the part read again is scaled so that its tiles come out this wide (pixels), or as wide as they
#: were in the photo when that is between: the finder sees the seams between touching tiles from
#: about 20, and larger tiles only cost time
TILE_PX = (32.0, 64.0)
#: ... and smaller when it would come out larger than this many pixels
MAX_PIXELS = 4_000_000


@dataclass(frozen=True)
class View:
    """How a photo's table plane is foreshortened near its tiles (see the module's formula)."""

    stretch: float = 1.0
    depth: float = 0.0
    roll: float = 0.0

    @property
    def slanted(self) -> bool:
        """Whether the photo is read again straightened (:data:`MIN_STRETCH`, :data:`MIN_DEPTH`)."""
        return self.stretch >= MIN_STRETCH or self.depth >= MIN_DEPTH

    @property
    def steep(self) -> bool:
        """Whether the slant is steep enough to read the photo again even when every tile was read
        surely (:data:`SURE_READ_AGAIN_FROM`)."""
        return self.stretch >= SURE_READ_AGAIN_FROM or self.depth >= 2 * MIN_DEPTH


def tile_width(quads: list[np.ndarray]) -> float:
    """The median short side of ``quads`` (4x2)."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    sides = np.minimum(np.linalg.norm(q[:, 1] - q[:, 0], axis=1), np.linalg.norm(q[:, 3] - q[:, 0], axis=1))
    return float(np.median(sides))


def width_seen(faces: list[np.ndarray], m: np.ndarray) -> float:
    """The :func:`tile_width` of ``faces`` (4x2, photo pixels) once moved by the homography ``m``
    (:func:`straightening`): how wide the tiles come out in the image it makes."""
    return tile_width(list(moved(faces, m).reshape(-1, 4, 2)))


def window(quads: list[np.ndarray], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The part of a photo of ``shape`` that the tiles ``quads`` (4x2, its pixels) lie in, grown by
    :data:`REACH` tile widths (:func:`tile_width`) on every side and cut to the photo: ``x0, y0,
    x1, y1``. Only that part is read again: a hand photographed from a seat mostly fills a band
    across the photo."""
    q = np.asarray(quads, np.float64).reshape(-1, 2)
    pad = REACH * tile_width(quads)
    (x0, y0), (x1, y1) = q.min(0) - pad, q.max(0) + pad
    h, w = shape[:2]
    return max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))


def _frame(box: tuple[int, int, int, int]) -> np.ndarray:
    """The homography from photo pixels to the coordinates of the module's formula: centred on
    ``box`` (``x0, y0, x1, y1``) and measured in its height."""
    x0, y0, x1, y1 = box
    h = max(float(y1 - y0), 1.0)
    return np.array([[1 / h, 0, -(x0 + x1) / 2 / h], [0, 1 / h, -(y0 + y1) / 2 / h], [0, 0, 1]])


def _turn(roll: float) -> np.ndarray:
    """The rotation that brings a tilt turned ``roll`` degrees (as ``cv2.getRotationMatrix2D``
    turns a picture) back up the photo."""
    c, s = np.cos(np.radians(roll)), np.sin(np.radians(roll))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def _plane(view: View) -> np.ndarray:
    """The module's formula as a homography, the photo turned by the view's roll first and back
    after."""
    t = _turn(view.roll)
    return t.T @ np.array([[1.0, 0, 0], [0, view.stretch, 0], [0, view.depth, 1.0]]) @ t


def view_of(
    faces: list[np.ndarray], box: tuple[int, int, int, int], spreads: list[np.ndarray | None] | None = None
) -> View:
    """The view (of :data:`STRETCHES` and :data:`DEPTHS`) that gives the upright faces ``faces``
    (4x2 quads in photo pixels, corner 0 the face's top-left, corners clockwise), lying in the part
    ``box`` of the photo (:func:`window`), their true shape and size: the least median of how far
    each face's width over height is from :data:`FACE_ASPECT`, plus :data:`SIZE_WEIGHT` times the
    median of how far its width is from the median width (log ratios). A face turned a quarter (a
    tile lying across the row) comes out wider as the photo is stretched, an upright one narrower,
    and a tile at a diagonal changes little: each tells the view as far as its turn allows, and the
    medians settle it. No view (``View()``) for fewer than :data:`MIN_FACES` faces, no depth for
    fewer than :data:`MIN_FACES_FOR_DEPTH`, nor one that fits them barely better than none
    (:data:`DEPTH_GAIN`); of views that fit as well (within :data:`TIE`), the
    one nearest straight above.

    A phone held in the hand is turned a little about its own axis (rolled): the whole photo is
    turned, the table's depth runs up it at that angle, and the rows with it. So where the photo
    was taken at a slant (:attr:`View.slanted`; from above a roll changes nothing, and measured
    anyway it let a rack turned on the table pass for a depth) and the rows are turned
    (:func:`row_turn`) by :data:`MIN_ROLL` to :data:`MAX_ROLL` degrees, the view is measured again
    at that roll. A row turned further is rather turned on the table (then its faces are sheared in
    the photo, not turned, and the view has no roll), and so is one whose roll leaves the photo
    flat (not :attr:`View.slanted`): turning the photo back by it undid no tilt of the phone (a grid
    turned on the table seen 55 degrees off, its rows 10 degrees off the photo's: a stretch of 1.85
    without the roll, 1.0 with it), and the view without it stands.

    ``spreads``: per face, the second moments of its pixels (2x2, photo pixels squared;
    :attr:`vision.finders.candidate.Candidate.spread`, ``None`` where not measured). The finder's
    quadrilateral round a face is a rectangle, and a face turned on the table and seen from a seat
    is a parallelogram: the rectangle round it looks less foreshortened than the face is (a grid
    turned 20-30 degrees on the table, seen 55 degrees off straight above, measured a stretch of
    1.0-1.2 against 1.74). The spreads keep the shear, so where at least :data:`MIN_FACES` faces
    have them, the view is measured again on both (:func:`_spread_costs` added to the
    quadrilaterals' costs), and that view is taken where it is steeper by :data:`STEEPER_BY` or
    more: the slant the rectangles hid. Elsewhere the rectangles' view stands: on photos taken from
    above the two measurements differ in the depth, and taking the spreads' view there too lost
    tiles (see ``docs/vision.md``, session 23)."""
    if len(faces) < MIN_FACES:
        return View()
    q = np.asarray(faces, np.float64).reshape(-1, 4, 2)
    view = _fitted(q, box, 0.0, spreads)
    roll = row_turn(q)
    if not view.slanted or not MIN_ROLL <= abs(roll) <= MAX_ROLL:
        return view
    rolled = _fitted(q, box, roll, spreads)
    return rolled if rolled.slanted else view


#: the rolls a photo whose table's depth runs across it is measured at (:func:`quarter_roll`): its
#: far side on the photo's left or on its right
QUARTER_ROLLS = (90.0, 270.0)
#: a view with the depth across the photo is slanted where its stretch is at least this: more than
#: :data:`MIN_STRETCH`, since a set's faces narrower than :data:`FACE_ASPECT` (0.68 against 0.75)
#: fit a quarter view of 1.1-1.15 as well, seen from straight above (the synthetic faces drawn 0.70
#: wide turned 14 photos of the benchmark's b2 and b4-b10 with 1.15)
QUARTER_STRETCH = 1.2
#: a photo's depth runs across it where the view measured at one of :data:`QUARTER_ROLLS` is
#: slanted (:data:`QUARTER_STRETCH`) and fits the faces lying across the photo better by at least
#: this much (the cost of :func:`view_of`, quadrilaterals alone) than the views measured with the
#: depth running up the photo or down it, on :data:`MIN_FACES_FOR_DEPTH` such faces or more; or fits
#: them better at all there, where the faces grow smaller across the photo (:func:`size_gradient`,
#: :data:`SIZE_FALL_MIN`). On the real-tile A/B photos as taken and seen from a seat (405 with three
#: faces or more) the most such a view gained (on every face) was 0.059; on those seen from a seat
#: and turned a quarter, most gained 0.2-0.45
TURN_GAIN = 0.06
#: ... and on fewer faces (three or four: a squat hand turned a quarter, whose first reading read
#: few of its faces), by at least this much. Three faces of a seat photo the right way up, fitting
#: every view badly, gained 0.059 at a quarter turn; a hand seen 50 degrees off and turned a quarter,
#: 0.26-0.57
TURN_GAIN_FEW = 0.15
#: the faces grow smaller across the photo where the log of their size falls by at least this much
#: a photo height of the part they lie in, and faster than up the photo: the far side lies that way
#: (a depth of 0.1, :data:`DEPTHS`). Measured on :data:`MIN_FACES_FOR_DEPTH` faces or more: on the
#: A/B photos seen 45 and 55 degrees off and turned a quarter, it said which way in 109 of the 116
#: such, wrongly in 3
SIZE_FALL_MIN = 0.1


def size_gradient(faces: np.ndarray, box: tuple[int, int, int, int]) -> tuple[float, float]:
    """How the log of the faces' size (the root of each quadrilateral's area; ``faces`` n x 4 x 2,
    photo pixels) changes across the photo and up it: the least-squares slope in x and in y, per
    height of the part ``box`` they lie in. Seen from a seat, the far side comes out smaller."""
    f = _frame(box)
    c = faces.mean(1) @ f[:2, :2].T + f[:2, 2]
    d1, d3 = faces[:, 1] - faces[:, 0], faces[:, 3] - faces[:, 0]
    area = np.abs(d1[:, 0] * d3[:, 1] - d1[:, 1] * d3[:, 0])
    a = np.column_stack([np.ones(len(c)), c])
    coef = np.linalg.lstsq(a, 0.5 * np.log(np.maximum(area, 1e-9)), rcond=None)[0]
    return float(coef[1]), float(coef[2])


def quarter_roll(faces: list[np.ndarray], box: tuple[int, int, int, int]) -> float:
    """The roll (of :data:`QUARTER_ROLLS`, else 0) at which the table's depth runs up the photo whose
    upright faces are ``faces`` (as :func:`view_of`), in the part ``box``. Measured on the faces
    lying across the photo (their up nearer its width than its height), where they are more than
    half the faces and at least :data:`MIN_FACES`: 0 unless a view with the depth across the photo
    is slanted (:data:`QUARTER_STRETCH`) and fits them better than the views measured at roll 0 and
    180 (the photo upside down, its depth running down it) by :data:`TURN_GAIN_FEW`, or, on
    :data:`MIN_FACES_FOR_DEPTH` of them or more, by :data:`TURN_GAIN`, or at all where the faces
    grow smaller across the photo (:data:`SIZE_FALL_MIN`, measured on every face). Which way:
    towards the side the faces grow smaller on, where enough faces say so; else the roll that fits
    them better, the first of :data:`QUARTER_ROLLS` within :data:`TIE` (a phone held upright
    stores its picture turned a quarter, its top on the left, and says so in an EXIF tag that a
    photo passed on may lose).

    The slant is measured up the photo, a phone held level and its picture turned upright by its
    EXIF orientation. A photo that lost its orientation, or that a player turned, shows the table's
    depth across it: the hand's faces lie across the photo, their up towards its far side, squashed
    across it, and the view measured up it (a stretch of 1.0) leaves them squat. Read as it is, such
    a photo seen 45 degrees off straight above lost a quarter to two fifths of its tiles (the
    real-tile A/B samples' composites and tables). Faces upright in the photo and narrow say nothing
    here: a set of narrow faces seen from straight above looks the same."""
    every = np.asarray(faces, np.float64).reshape(-1, 4, 2)
    up = every[:, 0] - every[:, 3]
    across_photo = np.abs(up[:, 0]) > np.abs(up[:, 1])
    q = every[across_photo]
    if len(q) < MIN_FACES or 2 * len(q) <= len(every):
        return 0.0

    def fit(roll: float) -> tuple[float, View]:
        view = _fitted(q, box, roll)
        cost = _quad_costs(q, _turn(roll) @ _frame(box), (view.depth,))
        return float(cost[0, STRETCHES.index(view.stretch)]), view

    upright = min(fit(0.0)[0], fit(180.0)[0])
    across = [(cost, view.roll) for cost, view in map(fit, QUARTER_ROLLS) if view.stretch >= QUARTER_STRETCH]
    if not across:
        return 0.0
    cost = min(c for c, _ in across)
    roll = next(r for c, r in across if c <= cost + TIE)  # (the first of them at a tie)
    gx, gy = size_gradient(every, box) if len(every) >= MIN_FACES_FOR_DEPTH else (0.0, 0.0)
    falls = abs(gx) >= SIZE_FALL_MIN
    enough = len(q) >= MIN_FACES_FOR_DEPTH
    if not (
        cost <= upright - TURN_GAIN_FEW
        or (enough and (cost <= upright - TURN_GAIN or (falls and abs(gx) > abs(gy) and cost < upright)))
    ):
        return 0.0
    if falls:  # (smaller to the right: the far side is there, and the photo turns it up)
        return QUARTER_ROLLS[1] if gx < 0 else QUARTER_ROLLS[0]
    return roll


def row_turn(faces: np.ndarray) -> float:
    """How far the rows of the faces ``faces`` (n x 4 x 2) are turned, as a roll (degrees, as
    ``cv2.getRotationMatrix2D`` turns a picture): the median direction from each face to its
    nearest neighbour across the photo (nearer its width than its height: a hand photographed from
    a seat runs across the photo). Neither the faces' own edges (the finder's rectangles round small
    faces come out square to the photo however the row runs) nor their nearest neighbours anywhere
    (seen from a seat the rows lie close, and the lines across them run together) would say it."""
    c = faces.mean(1)
    dx, dy = c[None, :, 0] - c[:, None, 0], c[None, :, 1] - c[:, None, 1]
    d = np.where(np.abs(dy) < np.abs(dx), np.hypot(dx, dy), np.inf)
    near = d.argmin(1)
    has = np.isfinite(d[np.arange(len(c)), near])
    if not has.any():
        return 0.0
    i = np.flatnonzero(has)
    vx, vy = dx[i, near[i]], dy[i, near[i]]
    return -float(np.degrees(np.median(np.arctan(vy / vx))))


def _fitted(
    q: np.ndarray, box: tuple[int, int, int, int], roll: float, spreads: list[np.ndarray | None] | None = None
) -> View:
    """The view of :func:`view_of` for the faces ``q`` (n x 4 x 2) at the roll ``roll``, measured on
    their quadrilaterals, and on their ``spreads`` as well where that is steeper by
    :data:`STEEPER_BY`."""
    f = _turn(roll) @ _frame(box)
    depths = _depths(len(q))
    costs = _quad_costs(q, f, depths)
    view = _best(costs, depths, roll)
    have = [i for i, m in enumerate(spreads or ()) if m is not None]
    if len(have) < MIN_FACES or view.stretch + STEEPER_BY > STRETCHES[-1] + 1e-9:
        return view
    if len(have) < len(q):
        q = q[have]
        depths = _depths(len(q))
        costs = _quad_costs(q, f, depths)
    sp = np.asarray([spreads[i] for i in have], np.float64)  # type: ignore[index]
    both = _best(costs + _spread_costs(q, sp, f, depths), depths, roll)
    return both if both.stretch >= view.stretch + STEEPER_BY - 1e-9 else view


def _quad_costs(q: np.ndarray, f: np.ndarray, depths: tuple[float, ...]) -> np.ndarray:
    """How far each view (``depths`` x :data:`STRETCHES`) leaves the faces' quadrilaterals ``q`` (n x
    4 x 2, photo pixels; ``f`` the homography to the formula's coordinates, roll included) from a
    face's shape and the faces' common width (:func:`_fit_cost` of their mean sides); infinite for a
    depth that puts a face beyond the horizon."""
    x = q[..., 0] * f[0, 0] + q[..., 1] * f[0, 1] + f[0, 2]
    y = q[..., 0] * f[1, 0] + q[..., 1] * f[1, 1] + f[1, 2]
    w = 1.0 + np.asarray(depths)[:, None, None] * y[None]  # depth, face, corner
    px, py = x[None] / w, y[None] / w
    k = np.asarray(STRETCHES)[None, :, None]  # depth, stretch, face

    def side(a: int, b: int) -> np.ndarray:
        return np.hypot((px[:, :, b] - px[:, :, a])[:, None, :], k * (py[:, :, b] - py[:, :, a])[:, None, :])

    across, up = (side(0, 1) + side(3, 2)) / 2, (side(3, 0) + side(2, 1)) / 2  # (a face's mean sides)
    cost = _fit_cost(across / np.maximum(up, 1e-9), np.maximum(np.minimum(across, up), 1e-9))
    cost[(w <= 0.2).any(axis=(1, 2))] = np.inf  # a depth that would put a face beyond the horizon
    return cost


def _spread_costs(q: np.ndarray, spreads: np.ndarray, f: np.ndarray, depths: tuple[float, ...]) -> np.ndarray:
    """:func:`_quad_costs` measured on the faces' spreads (n x 2 x 2, photo pixels squared) instead
    of their corners: each spread carried into every view by the view's local linear map at the
    face's centre; its width the root of its second moment across the face's up (corner 3 to
    corner 0 of ``q``, carried alike), its height that along it. A uniform rectangle ``w`` by ``h``
    spreads ``w^2 / 12`` across and ``h^2 / 12`` along, so the roots' ratio is the face's width over
    its height however the face is turned or sheared."""
    lin = f[:2, :2]
    c = q.mean(1) @ lin.T + f[:2, 2]  # the centres in the formula's coordinates (f is affine)
    m = lin @ spreads @ lin.T
    u = (q[:, 0] - q[:, 3]) @ lin.T
    d = np.asarray(depths)[:, None]  # depth, face
    s = 1.0 + d * c[None, :, 1]
    # the formula's local linear map, its stretch left out: [[1 / s, -x d / s^2], [0, 1 / s^2]]
    a00, a01, a11 = 1.0 / s, -c[None, :, 0] * d / s**2, 1.0 / s**2
    m00 = a00 * a00 * m[:, 0, 0] + 2 * a00 * a01 * m[:, 0, 1] + a01 * a01 * m[:, 1, 1]
    m01 = a00 * a11 * m[:, 0, 1] + a01 * a11 * m[:, 1, 1]
    m11 = a11 * a11 * m[:, 1, 1]
    ux, uy = a00 * u[:, 0] + a01 * u[:, 1], a11 * u[:, 1]
    k = np.asarray(STRETCHES)[None, :, None]  # depth, stretch, face: the stretch scales y
    m00, m01, m11 = m00[:, None] * np.ones_like(k), k * m01[:, None], k * k * m11[:, None]
    ux, uy = ux[:, None] * np.ones_like(k), k * uy[:, None]
    norm = np.maximum(np.hypot(ux, uy), 1e-12)
    ux, uy = ux / norm, uy / norm
    along = ux * ux * m00 + 2 * ux * uy * m01 + uy * uy * m11
    across = uy * uy * m00 - 2 * ux * uy * m01 + ux * ux * m11
    width = np.sqrt(np.maximum(across, 1e-12))
    cost = _fit_cost(width / np.sqrt(np.maximum(along, 1e-12)), width)
    cost[(s <= 0.2).any(axis=1)] = np.inf  # a depth that would put a face beyond the horizon
    return cost


def _depths(faces: int) -> tuple[float, ...]:
    """The depths tried on ``faces`` faces: none but 0 under :data:`MIN_FACES_FOR_DEPTH`."""
    return DEPTHS if faces >= MIN_FACES_FOR_DEPTH else DEPTHS[:1]


def _fit_cost(aspect: np.ndarray, width: np.ndarray) -> np.ndarray:
    """How far faces whose width over height is ``aspect`` and whose width is ``width`` (each view
    x face, the faces last) are from a face's shape and from one size: the median of how far the
    aspect is from :data:`FACE_ASPECT`, plus :data:`SIZE_WEIGHT` times the median of how far the
    width is from the median width (log ratios)."""
    shape = np.median(np.abs(np.log(aspect / FACE_ASPECT)), axis=-1)
    size = np.median(np.abs(np.log(width / np.median(width, axis=-1, keepdims=True))), axis=-1)
    return shape + SIZE_WEIGHT * size


def _best(cost: np.ndarray, depths: tuple[float, ...], roll: float) -> View:
    """The view of the least ``cost`` (``depths`` x :data:`STRETCHES`): a depth only where it fits
    the faces better than none by :data:`DEPTH_GAIN`, and of views within :data:`TIE` of the least,
    the first in order of depth, then stretch (the one nearest straight above)."""
    if cost[1:].min(initial=np.inf) > cost[0].min() - DEPTH_GAIN:  # (a depth must earn its place)
        cost = cost[:1]
    i, j = np.unravel_index(int(np.argmax(cost.ravel() <= cost.min() + TIE)), cost.shape)
    return View(STRETCHES[j], depths[i], roll)


def moved(points, m: np.ndarray) -> np.ndarray:
    """``points`` (any shape ending in 2) moved by the homography ``m``, as an n x 2 array."""
    p = np.asarray(points, np.float64).reshape(-1, 2) @ m[:, :2].T + m[:, 2]
    return p[:, :2] / p[:, 2:]


def straightening(
    view: View, box: tuple[int, int, int, int], faces: list[np.ndarray]
) -> tuple[np.ndarray, tuple[int, int]]:
    """The homography that takes photo pixels to the part ``box`` of the photo seen from straight
    above (``view``), scaled so that ``faces`` (photo pixels) come out as wide as they were, within
    :data:`TILE_PX` (and the image within :data:`MAX_PIXELS`); and that image's size (width,
    height)."""
    return _framed(*_seen_above(view, box, faces))


def _seen_above(
    view: View, box: tuple[int, int, int, int], faces: list[np.ndarray]
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """:func:`straightening`'s homography before it is scaled, its scale, and where it takes
    ``box`` (the least and the greatest corner)."""
    m = _plane(view) @ _frame(box)
    x0, y0, x1, y1 = box
    corners = moved([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], m)
    seen_faces = list(moved(faces, m).reshape(-1, 4, 2))
    scale = float(np.clip(tile_width(faces), *TILE_PX)) / max(tile_width(seen_faces), 1e-9)
    lo, hi = corners.min(0), corners.max(0)
    scale = min(scale, float(np.sqrt(MAX_PIXELS / max(float(np.prod(hi - lo)), 1e-9))))
    return m, scale, lo, hi


def _framed(m: np.ndarray, scale: float, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """``m`` scaled by ``scale`` and moved so that the points it takes to ``lo``-``hi`` fill an
    image; and that image's size (width, height)."""
    m = np.array([[scale, 0, -lo[0] * scale], [0, scale, -lo[1] * scale], [0, 0, 1]]) @ m
    size = (max(1, int(np.ceil((hi - lo)[0] * scale))), max(1, int(np.ceil((hi - lo)[1] * scale))))
    return m, size


def beyond(
    view: View, box: tuple[int, int, int, int], faces: list[np.ndarray], shape: tuple[int, ...], bottom: float
) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The part of a photo of ``shape`` above ``bottom`` (its whole width: the table beyond the
    hand) seen as :func:`straightening` shows ``box``: in ``view``, at the same scale or smaller
    (the image within :data:`MAX_PIXELS`); the homography and the image's size (width, height).
    Cut where a patch of the photo would be drawn out over more than :data:`BEYOND_MAGNIFY` times
    the area it is at ``bottom`` (towards the horizon); ``None`` where less than a tile width of
    ``faces`` is left."""
    m0, scale, _lo, _hi = _seen_above(view, box, faces)
    w = shape[1]
    # a homography draws a patch out over an area as 1 / depth cubed, depth linear over the photo
    depth = lambda x, y: m0[2, 0] * x + m0[2, 1] * y + m0[2, 2]
    near = min(depth(0.0, bottom), depth(float(w), bottom))
    if near <= 0:
        return None
    least = near / BEYOND_MAGNIFY ** (1 / 3)
    top = 0.0
    for x in (0.0, float(w)):  # the highest row at which both ends stay before that
        if depth(x, 0.0) < least:
            top = max(top, (least - m0[2, 0] * x - m0[2, 2]) / m0[2, 1])
    if bottom - top < tile_width(faces):
        return None
    seen = moved([[0.0, top], [float(w), top], [float(w), bottom], [0.0, bottom]], m0)
    lo, hi = seen.min(0), seen.max(0)
    scale = min(scale, float(np.sqrt(MAX_PIXELS / max(float(np.prod(hi - lo)), 1e-9))))
    return _framed(m0, scale, lo, hi)
