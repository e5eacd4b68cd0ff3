"""Phone-like table photos with exact ground truth: tiles at any angle, packed, standing, piled, among clutter.

:func:`training.scenes.make_scene` draws hands as axis-aligned rows on a procedural surface; real
photos also show hand rows at 20-45 degrees, whole sets packed edge to edge in a tray, hands standing
in a rack, loose piles with tiles over one another, fingers over a tile, and things that are not
tiles (paper, keyboards, dice, coins, scoring sticks, a rack's edge) on real tables and desks.
:func:`make_phone_scene` draws one such photo of a given ``kind`` (:data:`KINDS`):

* ``diagonal``: one or two hand rows (melds apart, sometimes a claimed tile lying across) turned
  20-45 degrees either way;
* ``tray``: a whole set (4-8 rows of 8-18 tiles) packed edge to edge in a tray, at any angle;
* ``rack``: a hand standing up in a rack, facing the camera, the rack's front edge over the
  tiles' feet;
* ``pile``: loose tiles at any angle, over one another, some face down;
* ``clutter``: a hand on a real background photo among objects that are not tiles.

Each tile is drawn as a sprite: its face (artwork, or its back's colour), warped to its place and
angle, over its body (the ivory layer, then the back's colour) and its shadow. The table plane is a
real background photo (:mod:`training.backgrounds`, when the cache is built) or a procedural surface
(:func:`training.scenes.make_surface`); clutter (:mod:`training.clutter`) lies beside the tiles.
Then the camera (perspective and rotation) and the phone's degradations (light, shadow, glare, blur,
noise, JPEG) of :mod:`training.scenes` apply.

Ground truth per tile, as :class:`training.scenes.Scene` gives it: ``code``, ``quad`` (clockwise
from the top-left of the upright face, output pixels), ``rotated`` (the face's up points more than
45 degrees away from image-up), ``row`` and ``group``; only for tiles at least
:data:`MIN_VISIBLE` visible. Tiles partly under others or under a finger (at least
:data:`MIN_PARTIAL` visible), and tiles cut by the photo's edge, are the scene's ``partial`` quads:
neither to be found nor to be missed. Each scene draws its faces from one set (:func:`deck`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from training import clutter as _clutter
from training import scenes as _scenes
from training.clutter import rect_poly

KINDS = ("diagonal", "tray", "rack", "pile", "clutter")
MIN_VISIBLE = 0.8  # fraction of a tile's face (as drawn) that must show for it to have ground truth
MIN_PARTIAL = 0.25  # tiles showing less than MIN_VISIBLE but at least this much are "partial"


@dataclass
class Spot:
    """Where a tile lies on the table plane, in layout units (a tile is 1 high): its centre, the
    angle (degrees, clockwise) its face's up is turned from the plane's up, its code, row and group,
    and whether it stands up facing the camera."""

    code: str
    cx: float
    cy: float
    angle: float
    row: int
    group: int
    standing: bool = False


def deck(rng) -> Callable[[], str]:
    """Draws from one shuffled set, as a real table does: four of each of the 34 playing tiles, then
    (a tray holding more than 136) the eight flowers; a scene never shows a fifth copy of a face."""
    order = [str(c) for c in rng.permutation(np.repeat(_scenes.PLAY_CODES, 4))]
    order += [str(c) for c in rng.permutation(_scenes.ALL_CODES[34:])]
    it = iter(order)
    return lambda: next(it)


# --------------------------------------------------------------------------------------------
# layouts (layout units: tile height 1, width ``aspect``)


def layout_rows(rng, aspect: float, angle: float, n_rows: int, codes_fn, claimed: bool) -> list[Spot]:
    """Hand rows of touching tiles turned ``angle`` degrees: a concealed run, then melds of three
    apart; with ``claimed``, sometimes one tile of a meld lies across (turned 90 degrees)."""
    a = math.radians(angle)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    out: list[Spot] = []
    group = 0
    y = 0.0
    for row in range(n_rows):
        spec = [int(rng.integers(5, 15))] + [3] * int(rng.integers(0, 3)) if row == 0 else [3] * int(rng.integers(1, 4))
        x = 0.0
        for n in spec:
            lying_at = int(rng.integers(0, n)) if (claimed and n == 3 and rng.random() < 0.6) else -1
            for k in range(n):
                lying = k == lying_at
                w = 1.0 if lying else aspect
                c = u * (x + w / 2) + v * (y + (1 - aspect / 2 if lying else 0.5))
                turn = float(rng.choice([-90, 90])) if lying else 0.0
                out.append(Spot(codes_fn(), float(c[0]), float(c[1]), angle + turn, row, group))
                x += w + rng.uniform(0, 0.04) * aspect
            x += rng.uniform(0.35, 1.0) * aspect
            group += 1
        y += 1 + rng.uniform(0.3, 0.9)
    return out


def layout_tray(rng, aspect: float, angle: float, codes_fn) -> tuple[list[Spot], np.ndarray]:
    """A whole set packed edge to edge in rows (gaps under 2% of a tile), and the tray's outline."""
    rows, cols = int(rng.integers(4, 9)), int(rng.integers(8, 19))
    gx, gy = aspect * (1 + rng.uniform(0, 0.02)), 1 + rng.uniform(0, 0.02)
    a = math.radians(angle)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    out = []
    for r in range(rows):
        for k in range(cols):
            c = u * (k - (cols - 1) / 2) * gx + v * (r - (rows - 1) / 2) * gy
            out.append(Spot(codes_fn(), float(c[0]), float(c[1]), angle, r, r))
    rim = rng.uniform(0.15, 0.5)
    tray = rect_poly(0, 0, cols * gx + 2 * rim, rows * gy + 2 * rim, angle)
    return out, tray


def layout_rack(rng, aspect: float, angle: float, codes_fn) -> list[Spot]:
    """A hand of 13-17 tiles standing side by side (in a rack), facing the camera."""
    n = int(rng.integers(13, 18))
    a = math.radians(angle)
    u = np.array([math.cos(a), math.sin(a)])
    out = []
    for k in range(n):
        c = u * (k * aspect * (1 + rng.uniform(0, 0.02)))
        out.append(Spot(codes_fn(), float(c[0]), float(c[1]), angle, 0, 0, standing=True))
    return out


def layout_pile(rng, codes_fn) -> list[Spot]:
    """6-24 loose tiles at any angle, some over others, about a third face down."""
    n = int(rng.integers(6, 25))
    radius = math.sqrt(n) * rng.uniform(0.5, 0.9)
    out = []
    for k in range(n):
        r, t = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        code = "back" if rng.random() < 0.3 else codes_fn()
        out.append(Spot(code, r * math.cos(t), r * math.sin(t), float(rng.uniform(-180, 180)), 0, k))
    return out


# --------------------------------------------------------------------------------------------
# drawing


@dataclass
class _Canvas:
    """The table plane being drawn: ``img`` (float32 BGR), ``ids`` (which tile's face shows at
    each pixel: its index, -1 for none) and ``drawn`` (each tile's face pixels as drawn, before
    anything covered them: what "visible" is measured against)."""

    img: np.ndarray
    ids: np.ndarray
    drawn: dict[int, int] = field(default_factory=dict)

    def cover(self, poly: np.ndarray) -> None:
        """Mark ``poly`` as covering every tile face under it."""
        cv2.fillPoly(self.ids, [np.round(poly).astype(np.int32)], -1)


def _tile_sprite(face: np.ndarray, mask: np.ndarray, quad: np.ndarray, canvas: _Canvas, index: int) -> None:
    """Warp ``face`` (with its 0-1 ``mask``) onto the canvas so its corners land on ``quad``."""
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 2, [canvas.img.shape[1], canvas.img.shape[0]])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    side_w = float(np.linalg.norm(quad[1] - quad[0]))
    side_h = float(np.linalg.norm(quad[3] - quad[0]))
    fw, fh = max(4, int(round(side_w))), max(4, int(round(side_h)))
    face = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(mask, (fw, fh), interpolation=cv2.INTER_AREA)
    src = np.array([[0, 0], [fw, 0], [fw, fh]], np.float32)
    M = cv2.getAffineTransform(src, (quad[:3] - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    f = cv2.warpAffine(face, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    m = cv2.warpAffine(mask, M, size, flags=cv2.INTER_LINEAR, borderValue=0)[:, :, None]
    roi = canvas.img[y0:y1, x0:x1]
    roi[:] = f * m + roi * (1 - m)
    ids = canvas.ids[y0:y1, x0:x1]
    ids[m[:, :, 0] > 0.5] = index
    canvas.drawn[index] = int((m[:, :, 0] > 0.5).sum())


def _body(canvas: _Canvas, quad: np.ndarray, thick: float, standing: bool, back_col: np.ndarray, split: float) -> None:
    """The tile's side seen below its face (above it when it stands): the ivory layer, then the
    back's colour; it hides whatever face lies there."""
    d = np.array([0.0, -thick if standing else thick], np.float32)
    for frac, col in ((1.0, back_col * 0.8), (split, np.array([185, 200, 210], np.float32))):
        hull = cv2.convexHull(np.concatenate([quad, quad + d * frac])).reshape(-1, 2)
        _clutter._fill(canvas.img, hull, col, shade=0.2)
        canvas.cover(hull)


def _faces(rng, face_fn, back_col: np.ndarray) -> tuple:
    """The rounded-corner, bevelled mask shared by the scene's faces, and a function drawing a face."""
    w, h = 96, 128
    m = _scenes._rounded_mask(w, h, min(w, h) * 0.08).astype(np.float32) / 255
    dist = cv2.distanceTransform((m > 0).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = (0.8 + 0.2 * np.clip(dist / (0.06 * min(w, h) + 1), 0, 1))[:, :, None]

    def face(code: str) -> np.ndarray:
        img = _scenes._back_face(back_col, rng) if code == "back" else face_fn(code, rng).astype(np.float32)
        return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA) * bevel

    return m, face


def _table(
    rng, size: tuple[int, int], real: bool | None, tables: list | None = None, surface: str | None = None
) -> np.ndarray:
    """The table plane (float32 BGR, ``size`` = (width, height)): the procedural ``surface`` where
    one is named (:func:`training.scenes.make_surface`), else a real background photo (one of
    ``tables``, default every cached one) when ``real`` (default: two times in three when there is
    one), else a procedural surface."""
    from training import backgrounds

    if surface is not None:
        return _scenes.make_surface(rng, size[0], size[1], surface)
    have = backgrounds.load_manifest() if tables is None else tables
    use_real = bool(have) and (real if real is not None else rng.random() < 0.67)
    if not use_real:
        return _scenes.make_surface(rng, size[0], size[1])
    b = have[int(rng.integers(len(have)))]
    img = backgrounds.random_crop(backgrounds.read_background(b), size, rng).astype(np.float32)
    return img * rng.uniform(0.7, 1.1)


def _place_clutter(
    canvas: _Canvas,
    rng,
    footprint: np.ndarray,
    unit: float,
    view: tuple[int, int, int, int],
    n: int,
    drawers: Sequence[_clutter.Drawer] | None = None,
) -> None:
    """Lay ``n`` clutter objects in the ``view`` (x0, y0, x1, y1), centred away from the tiles'
    ``footprint`` (a uint8 mask of the plane at 1/4 size); each drawn by one of ``drawers`` (any
    equally often) or, by default, :func:`training.clutter.pick`."""
    free = cv2.erode(
        (footprint == 0).astype(np.uint8), np.ones((3, 3), np.uint8), iterations=max(1, int(unit * 1.2 / 4))
    )
    x0, y0, x1, y1 = view
    for _ in range(n):
        for _try in range(30):
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            if free[min(free.shape[0] - 1, int(cy / 4)), min(free.shape[1] - 1, int(cx / 4))]:
                draw = drawers[int(rng.integers(len(drawers)))] if drawers else _clutter.pick(rng)
                draw(canvas.img, (cx, cy), float(rng.uniform(-180, 180)), unit, rng)
                break


def _spots(kind: str, rng, aspect: float, codes_fn) -> tuple[list[Spot], np.ndarray | None]:
    """The layout of a scene of ``kind``, and a tray's outline when it has one."""
    if kind == "diagonal":
        angle = float(rng.uniform(20, 45) * rng.choice([-1, 1]))
        return layout_rows(rng, aspect, angle, int(rng.choice([1, 1, 2])), codes_fn, rng.random() < 0.4), None
    if kind == "tray":
        angle = float(rng.uniform(-180, 180) if rng.random() < 0.5 else rng.uniform(-30, 30))
        return layout_tray(rng, aspect, angle, codes_fn)
    if kind == "rack":
        return layout_rack(rng, aspect, float(rng.uniform(-15, 15)), codes_fn), None
    if kind == "pile":
        return layout_pile(rng, codes_fn), None
    if kind == "clutter":
        angle = float(rng.uniform(-30, 30))
        return layout_rows(rng, aspect, angle, int(rng.choice([1, 1, 2])), codes_fn, rng.random() < 0.4), None
    raise ValueError(f"unknown scene kind {kind!r}: use one of {', '.join(KINDS)}")


def make_phone_scene(
    rng: np.random.Generator | int | None = None,
    kind: str | None = None,
    *,
    size: tuple[int, int] | None = None,
    face_fn=None,
    real_background: bool | None = None,
    n_clutter: int | None = None,
    finger: bool | None = None,
    perspective: float | None = None,
    degrade: bool = True,
    tables: list | None = None,
    drawers: Sequence[_clutter.Drawer] | None = None,
    surface: str | None = None,
) -> _scenes.Scene:
    """One phone-like photo of ``kind`` (:data:`KINDS`; default random) with ground truth; ``size``
    is (width, height), default random 800-2000 px. ``real_background``, ``n_clutter`` (objects that
    are not tiles; default 0-3, 2-5 for ``clutter``) and ``finger`` (a finger over a tile) default
    to random choices. ``tables``: the background photos (:class:`training.backgrounds.Background`)
    a real table is cut from (default: every cached one). ``drawers``: the clutter objects to draw
    (default: every kind of :data:`training.clutter.CLUTTER`, at its rates). ``surface``: a
    procedural table of that kind instead (:func:`training.scenes.make_surface`: ``pale``, a white
    desk under paper, keys and coins as well)."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    kind = kind or str(rng.choice(KINDS))
    face_fn = face_fn or _scenes.default_face_fn()
    if size is None:
        long_side = int(rng.choice([800, 1200, 1600, 2000]))
        size = (long_side * 3 // 4, long_side) if rng.random() < 0.35 else (long_side, long_side * 3 // 4)
    W, H = size
    aspect = rng.uniform(0.70, 0.80)
    spots, tray = _spots(kind, rng, aspect, deck(rng))
    corners = [rect_poly(p.cx, p.cy, aspect, 1.0, p.angle) for p in spots]
    pts = np.concatenate(corners + ([tray] if tray is not None else []))
    lo, hi = pts.min(0), pts.max(0)
    fill = rng.uniform(*{"tray": (0.55, 0.9), "pile": (0.35, 0.7)}.get(kind, (0.45, 0.85)))
    s = min(W * fill / (hi[0] - lo[0]), H * fill / (hi[1] - lo[1]))
    Mg = int(0.2 * max(W, H))
    centre = np.array([Mg + W / 2, Mg + H / 2]) + rng.uniform(-0.08, 0.08, 2) * [W, H]
    to_canvas = lambda q: ((q - (lo + hi) / 2) * s + centre).astype(np.float32)
    canvas = _Canvas(
        _table(rng, (W + 2 * Mg, H + 2 * Mg), real_background if kind != "clutter" else True, tables, surface),
        np.full((H + 2 * Mg, W + 2 * Mg), -1, np.int32),
    )
    back_col = _scenes._back_colour(rng, 1 if any(p.code == "back" for p in spots) else 0)
    quads = [to_canvas(c) for c in corners]
    if tray is not None:
        tq = to_canvas(tray)
        col = np.array(
            rng.choice([[30, 30, 30], [40, 70, 110], [60, 110, 60], [200, 200, 200], [120, 60, 30]]), np.float32
        )
        _clutter._fill(canvas.img, tq, col * 0.7, shade=0.1)
    footprint = np.zeros(((H + 2 * Mg) // 4 + 1, (W + 2 * Mg) // 4 + 1), np.uint8)
    for q in quads + ([to_canvas(tray)] if tray is not None else []):
        cv2.fillPoly(footprint, [np.round(q / 4).astype(np.int32)], 1)
    n = (
        n_clutter
        if n_clutter is not None
        else (int(rng.integers(2, 6)) if kind == "clutter" else int(rng.choice([0, 0, 1, 2, 3])))
    )
    _place_clutter(canvas, rng, footprint, s, (Mg, Mg, Mg + W, Mg + H), n, drawers)
    _draw_tiles(canvas, rng, spots, quads, s, back_col, face_fn)
    if kind == "rack":
        _rack_front(canvas, rng, quads, s)
    if finger if finger is not None else rng.random() < 0.25:
        _finger(canvas, rng, quads, s)
    return _photograph(canvas, rng, spots, quads, (W, H), Mg, perspective, degrade)


def _draw_tiles(canvas: _Canvas, rng, spots: list[Spot], quads: list[np.ndarray], s: float, back_col, face_fn) -> None:
    """Shadows first (one blurred layer darkening the table), then each tile's body and face in order
    (later tiles over earlier ones)."""
    thick = rng.uniform(0.12, 0.3) * s * (1.5 if any(p.standing for p in spots) else 1.0)
    off = np.array([rng.uniform(-0.1, 0.1), rng.uniform(0.05, 0.2)]) * s
    shadow = np.zeros(canvas.ids.shape, np.float32)
    for q, p in zip(quads, spots):
        cv2.fillPoly(shadow, [np.round(q + off + [0, -thick if p.standing else thick]).astype(np.int32)], 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(2.0, thick * 0.8)) * rng.uniform(0.35, 0.65)
    canvas.img *= 1 - shadow[:, :, None]
    mask, face = _faces(rng, face_fn, back_col)
    split = rng.uniform(0.3, 0.6)
    for i, (q, p) in enumerate(zip(quads, spots)):
        _body(canvas, q, thick, p.standing, back_col, split)
        _tile_sprite(face(p.code), mask, q, canvas, i)


def _rack_front(canvas: _Canvas, rng, quads: list[np.ndarray], s: float) -> None:
    """The rack's front edge: a bar along the standing tiles' feet, over their lowest 0-12%."""
    left = min(quads, key=lambda q: q[:, 0].mean())
    right = max(quads, key=lambda q: q[:, 0].mean())
    a = left[3] + (right[2] - left[3]) * 0.5
    ang = math.degrees(math.atan2(right[2][1] - left[3][1], right[2][0] - left[3][0]))
    ln = float(np.linalg.norm(right[2] - left[3])) + s * rng.uniform(0.3, 1.0)
    wd = s * rng.uniform(0.2, 0.4)
    up = rng.uniform(0.0, 0.12) * s
    v = np.array([-math.sin(math.radians(ang)), math.cos(math.radians(ang))])
    c = a + v * (wd / 2 - up)
    poly = rect_poly(float(c[0]), float(c[1]), ln, wd, ang)
    col = (
        rng.uniform(200, 240, 3)
        if rng.random() < 0.5
        else np.array(rng.choice([[40, 120, 40], [150, 90, 30], [30, 30, 30]]), np.float64)
    )
    _clutter._fill(canvas.img, poly, col, shade=0.3)
    canvas.cover(poly)


def _finger(canvas: _Canvas, rng, quads: list[np.ndarray], s: float) -> None:
    """A finger from below reaching onto one tile (covering a little of it, sometimes much)."""
    q = quads[int(rng.integers(len(quads)))]
    c = q.mean(0)
    tip = c + (q[3] + q[2] - 2 * c) / 2 * rng.uniform(0.3, 1.1)
    poly = _clutter.draw_finger(canvas.img, (float(tip[0]), float(tip[1])), float(rng.uniform(-130, -50)), s, rng)
    canvas.cover(poly)


def _camera(rng, size: tuple[int, int], margin: int, perspective: float | None, quads: list[np.ndarray]):
    """The camera's homography from the plane (``margin`` pixels round the ``size`` view) to the
    photo: a perspective tilt (``perspective``, default random 0-0.15) and a turn of at most 5
    degrees (the layouts carry their own angle), milder until every tile ``quads`` stays in view; and
    the tiles' quads as the photo shows them."""
    W, H = size
    persp = perspective if perspective is not None else rng.uniform(0, 0.15)
    turn = math.radians(rng.uniform(-5, 5))
    src = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    R = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    jitter = rng.normal(0, 1, (4, 2))
    t1, t2 = rng.uniform(0.3, 1), rng.uniform(0.3, 1)

    def view(damp: float) -> np.ndarray:
        rot = R if damp else np.eye(2)
        return _scenes.tilted((src - [W / 2, H / 2]) @ rot.T + [W / 2, H / 2], persp * damp, W, jitter, t1, t2)

    return _scenes.fit_camera(size, src + margin, view, quads)


def _photograph(canvas: _Canvas, rng, spots, quads, size, Mg, perspective, degrade) -> _scenes.Scene:
    """The camera's view of the plane, with ground truth for the tiles that mostly show; tiles that
    partly show (:data:`MIN_PARTIAL`, or cut by the photo's edge) are the scene's ``partial``."""
    W, H = size
    tiles, partial = [], []
    for i, (q, p) in enumerate(zip(quads, spots)):
        # measured against the face as drawn (its rounded corners never count as hidden)
        shown = float((canvas.ids == i).sum()) / max(1, canvas.drawn.get(i, 0))
        if shown >= MIN_VISIBLE:
            tiles.append({"code": p.code, "quad": q, "rotated": False, "row": p.row, "group": p.group})
        elif shown >= MIN_PARTIAL:
            partial.append(q)
    Hm, warped = _camera(rng, (W, H), Mg, perspective, [t["quad"] for t in tiles])
    img = cv2.warpPerspective(canvas.img, Hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out, cut = [], []
    for t, w in zip(tiles, warped):
        if w[:, 0].min() < 0 or w[:, 1].min() < 0 or w[:, 0].max() > W - 1 or w[:, 1].max() > H - 1:
            cut.append(w)
            continue
        up = w[0] - w[3]  # the face's up in the photo
        t["rotated"] = bool(abs(math.degrees(math.atan2(up[0], -up[1]))) > 45)
        t["quad"] = [[float(a), float(b)] for a, b in w]
        out.append(t)
    for q in partial:
        cut.append(cv2.perspectiveTransform(q.reshape(1, 4, 2).astype(np.float64), Hm).reshape(4, 2))
    if degrade:
        img = _scenes._degrade(img, rng)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if degrade and rng.random() < 0.7:
        img = _scenes._jpeg_roundtrip(img, int(rng.integers(60, 95)))
    return _scenes.Scene(img, out, [[[float(a), float(b)] for a, b in q] for q in cut])
