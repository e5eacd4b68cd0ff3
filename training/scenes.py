"""Synthetic table photos with exact ground truth, for testing and benchmarking the photo pipeline.

A scene is laid out top-down on a table plane (hand rows of touching tiles, melds separated by gaps,
sometimes a claimed tile lying at 90 degrees, indicator tiles apart), drawn with a 3-D-ish tile
body (face layer, coloured back layer, drop shadow) on a procedurally generated surface (felt,
wood grain, patterned cloth, automatic-table plastic), then seen through a random camera
homography and degraded (light gradient, cast shadow, glare, blur, noise, JPEG).

Tile faces come from ``face_fn(code, rng) -> BGR uint8 portrait image``. By default the faces are
drawn by :func:`training.render` when the classifier engineer's renderer is importable, otherwise by
a private placeholder (coloured symbols on ivory) that is only good for geometry checks.

Ground truth per tile: ``code``, ``quad`` (4 [x, y] points clockwise from the top-left of the
upright face, in output-image pixels), ``rotated``, ``row``, ``group`` (reading order).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

ALL_CODES = (
    [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)] + [f"{r}f" for r in range(1, 9)]
)
PLAY_CODES = ALL_CODES[:34]


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    tiles: list[dict] = field(default_factory=list)
    #: quads (photo pixels) of tiles only partly shown (under other tiles or a finger, or cut by the
    #: photo's edge): finding one is no false tile and missing one no miss, and the finder's training
    #: neither rewards nor punishes marking them
    partial: list[list[list[float]]] = field(default_factory=list)

    @property
    def codes(self) -> list[str]:
        return [t["code"] for t in self.tiles]

    def jpeg(self, quality: int = 90) -> bytes:
        import cv2

        ok, buf = cv2.imencode(".jpg", self.image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
        return buf.tobytes()


# --------------------------------------------------------------------------------------------
# faces

_SUIT_COL = {"m": (40, 40, 190), "p": (150, 80, 30), "s": (40, 130, 40), "z": (90, 40, 20), "f": (40, 100, 200)}


def _placeholder_face(code: str, rng: np.random.Generator, w: int = 120, h: int = 160) -> np.ndarray:
    import cv2

    ivory = np.array([228, 238, 242], np.float32) + rng.normal(0, 6, 3)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(ivory, 0, 255).astype(np.uint8)
    rank, suit = int(code[0]), code[1]
    col = _SUIT_COL.get(suit, (0, 0, 0))
    if suit == "p":
        cols = 2 if rank > 3 else 1
        rows = math.ceil(rank / cols)
        k = 0
        for r in range(rows):
            for c in range(cols):
                if k >= rank:
                    break
                cx = int(w * (c + 1) / (cols + 1))
                cy = int(h * (r + 1) / (rows + 1))
                cv2.circle(img, (cx, cy), int(min(w / (cols + 1), h / (rows + 1)) * 0.4), col, 3)
                k += 1
    elif suit == "s":
        for k in range(rank):
            x = int(w * (k % 3 + 1) / 4)
            y0 = int(h * (0.15 + 0.25 * (k // 3)))
            cv2.line(img, (x, y0), (x, y0 + int(h * 0.18)), col, 4)
    else:
        txt = code.upper()
        cv2.putText(img, txt, (int(w * 0.08), int(h * 0.62)), cv2.FONT_HERSHEY_SIMPLEX, w / 60, col, 4)
    return img


_ART_CACHE: dict = {}
#: artwork styles that look like real ivory/white tiles once composed (glyph styles are composed
#: onto a random ivory/white ground; opaque sheets with coloured or dark grounds are left out)
SCENE_STYLES = [
    "ffalt-classic",
    "ffalt-uni",
    "ffalt-unib",
    "kmahjongg-classic",
    "kmahjongg-default",
    "kmahjongg-traditional",
    "gnome-smooth",
    "xmahjongg-real",
]


def artwork_face_fn(styles: list[str] | None = None, one_style_per_scene: bool = True):
    """Faces composed from the artwork styles (``training.artwork`` + ``training.render``), or ``None``
    when the artwork or the renderer is unavailable (no shared data)."""
    try:
        from training import artwork, render
    except Exception:
        return None
    if "art" not in _ART_CACHE:
        try:
            _ART_CACHE["art"] = artwork.load_artwork()
        except Exception:
            _ART_CACHE["art"] = {}
    art = _ART_CACHE["art"]
    names = [n for n in (styles or SCENE_STYLES) if n in art]
    if not names:
        return None
    state: dict = {}

    def face(code: str, rng: np.random.Generator) -> np.ndarray:
        if one_style_per_scene and "style" not in state:
            state["style"] = names[int(rng.integers(len(names)))]
            state["color"] = render.random_face_color(rng)
        style = state.get("style") or names[int(rng.integers(len(names)))]
        faces = art[style].get(code)
        if not faces:  # style lacks this class: borrow from any style that has it
            pool = [n for n in names if art[n].get(code)]
            faces = art[pool[int(rng.integers(len(pool)))]][code] if pool else None
        img = None if (faces is None or (code == "5z" and rng.random() < 0.5)) else faces[int(rng.integers(len(faces)))]
        out = render.compose_face(img, rng, 128, 96, face_color=state.get("color"))
        return np.clip(out, 0, 255).astype(np.uint8)

    return face


def default_face_fn():
    """Artwork faces when available (a new face function, i.e. a new style, per call), else the
    placeholder renderer."""
    return artwork_face_fn() or _placeholder_face


# --------------------------------------------------------------------------------------------
# surfaces


def _noise(rng, h, w, scale):
    import cv2

    sh, sw = max(2, int(h / scale)), max(2, int(w / scale))
    n = rng.normal(0, 1, (sh, sw)).astype(np.float32)
    return cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)


def make_surface(rng: np.random.Generator, w: int, h: int, kind: str | None = None) -> np.ndarray:
    import cv2

    kind = kind or rng.choice(["felt", "felt", "wood", "cloth", "plastic", "dark"])
    if kind == "felt":
        base = rng.choice([[60, 120, 40], [120, 80, 20], [40, 90, 30], [130, 110, 40], [40, 40, 120], [90, 60, 60]])
        base = np.array(base, np.float32) * rng.uniform(0.7, 1.4)
        img = base + (_noise(rng, h, w, 3) * 6 + _noise(rng, h, w, 60) * 8)[:, :, None]
    elif kind == "wood":
        base = np.array(rng.choice([[60, 110, 170], [40, 80, 130], [90, 150, 200], [30, 55, 95]]), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        warp = _noise(rng, h, w, 80) * 25
        freq = rng.uniform(0.03, 0.12)
        grain = np.sin((u + warp) * freq) * 0.5 + 0.5
        img = base * (0.75 + 0.35 * grain)[:, :, None] + (_noise(rng, h, w, 2) * 5)[:, :, None]
    elif kind == "cloth":
        c1 = rng.uniform(20, 200, 3).astype(np.float32)
        c2 = rng.uniform(20, 200, 3).astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(15, 60)
        pattern = rng.choice(["check", "stripe", "dots"])
        if pattern == "check":
            m = ((xx // p + yy // p) % 2).astype(np.float32)
        elif pattern == "stripe":
            m = ((xx + yy) // p % 2).astype(np.float32)
        else:
            m = (((xx % p) - p / 2) ** 2 + ((yy % p) - p / 2) ** 2 < (p / 4) ** 2).astype(np.float32)
        m = cv2.GaussianBlur(m, (0, 0), 1.0)
        img = c1 * (1 - m[:, :, None]) + c2 * m[:, :, None] + (_noise(rng, h, w, 2) * 6)[:, :, None]
    elif kind == "plastic":
        base = np.array(rng.choice([[110, 90, 50], [60, 70, 75], [150, 120, 60], [50, 100, 60]]), np.float32)
        img = base + (_noise(rng, h, w, 200) * 10)[:, :, None] + rng.normal(0, 2, (h, w, 1)).astype(np.float32)
    elif kind == "pale":
        img = _pale(rng, w, h)
    else:  # dark table
        base = rng.uniform(15, 60, 3).astype(np.float32)
        img = base + (_noise(rng, h, w, 40) * 5)[:, :, None]
    return np.clip(img, 0, 255).astype(np.float32)


#: the colours (BGR) of the pale tables :func:`_pale` draws: white, light grey, cream, beige, a cold
#: grey-blue and a grey-green; each scaled by 0.9-1.03
PALE_COLOURS = ([250, 250, 250], [232, 232, 232], [215, 232, 242], [200, 216, 228], [236, 228, 218], [222, 230, 222])


def _pale(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A pale plain table (kind ``pale`` of :func:`make_surface`, drawn only where asked for: the
    benchmark's scenes keep their random stream): one of :data:`PALE_COLOURS`, as light as ivory
    tile faces or lighter (a white desk, a white tablecloth, light laminate), plain, woven (a
    faint crosshatch), grained (faint laminate wood) or veined (faint marble), with slow shading."""
    base = np.array(PALE_COLOURS[int(rng.integers(len(PALE_COLOURS)))], np.float32) * rng.uniform(0.9, 1.03)
    texture = rng.choice(["plain", "woven", "grained", "veined"])
    shade = _noise(rng, h, w, 150) * 5 + _noise(rng, h, w, 2) * 2
    if texture == "woven":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(3, 8)
        shade += (np.sin(xx * 2 * math.pi / p) + np.sin(yy * 2 * math.pi / p)) * rng.uniform(1.5, 4)
    elif texture == "grained":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang) + _noise(rng, h, w, 80) * 25
        shade += np.sin(u * rng.uniform(0.03, 0.12)) * rng.uniform(3, 8)
    elif texture == "veined":
        veins = np.abs(_noise(rng, h, w, 60))
        shade -= np.exp(-veins * rng.uniform(8, 16)) * rng.uniform(15, 40)
    return base + shade[:, :, None]


# --------------------------------------------------------------------------------------------
# layout


@dataclass
class _Placed:
    code: str
    x: float  # top-left of the tile's footprint on the table plane (canvas px)
    y: float
    w: float  # footprint size (rotated tiles: w and h swapped)
    h: float
    rotated: int  # 0 upright, +1 lying rotated 90 cw, -1 lying rotated 90 ccw
    row: int
    group: int


def _layout(rng, tw, th, n_rows, with_rotated, n_indicators, codes_fn, n_kongs=0, grid=None):
    gap_seam = lambda: rng.uniform(0.0, 0.06) * tw
    placed: list[_Placed] = []
    rows_spec = []
    # hand rows: concealed group + melds
    if grid is not None:
        # a block of rows of touching tiles (a set laid out for a photo, a wall, a catalogue grid)
        rows_spec = [[int(grid[1])] for _ in range(int(grid[0]))]
    elif n_rows == 1:
        rows_spec.append([rng.integers(5, 15)] + [3] * int(rng.integers(0, 3)))
    else:
        rows_spec.append([int(rng.integers(7, 14))])
        rows_spec.append([3] * int(rng.integers(1, 4)) + ([1] if rng.random() < 0.3 else []))
    # concealed kongs: a group of four at the end of the last hand row, shown with the two outer
    # tiles face down (or, sometimes, all four)
    for _ in range(int(n_kongs)):
        rows_spec[-1].append(-4)
    y = 0.0
    row_index = 0
    group_index = 0
    for spec in rows_spec:
        x = 0.0
        row_h = th
        for _gi, n in enumerate(spec):
            kong = n < 0
            n = abs(int(n))
            rot_pos = int(rng.integers(0, n)) if (with_rotated and n == 3 and rng.random() < 0.7) else -1
            all_backs = kong and rng.random() < 0.3
            kong_code = codes_fn() if kong else None
            for k in range(int(n)):
                code = ("back" if (all_backs or k in (0, n - 1)) else kong_code) if kong else codes_fn()
                if k == rot_pos:
                    r = int(rng.choice([-1, 1]))
                    placed.append(_Placed(code, x, y + th - tw, th, tw, r, row_index, group_index))
                    x += th + gap_seam()
                else:
                    placed.append(_Placed(code, x, y, tw, th, 0, row_index, group_index))
                    x += tw + gap_seam()
            x += rng.uniform(0.35, 1.0) * tw
            group_index += 1
        if grid is not None:
            y += row_h + (rng.uniform(0.0, 0.04) if rng.random() < 0.6 else rng.uniform(0.1, 0.6)) * th
        else:
            y += (
                row_h + rng.uniform(0.0, 0.04) * th
                if n_rows == 2 and row_index == 0 and rng.random() < 0.5
                else row_h + rng.uniform(0.35, 0.9) * th
            )
        row_index += 1
    if n_indicators:
        # indicators apart: a row below, each tile separated by a clear gap
        x = rng.uniform(0, 2) * tw
        y += rng.uniform(0.2, 0.8) * th
        for _ in range(n_indicators):
            placed.append(_Placed(f"{int(rng.integers(1, 9))}f", x, y, tw, th, 0, row_index, group_index))
            x += tw * rng.uniform(1.5, 2.5)
            group_index += 1
    return placed


def _back_face(back_col, rng, w: int = 96, h: int = 128) -> np.ndarray:
    """The top of a face-down tile: the back layer's colour, slightly lighter, faintly textured."""
    import cv2

    col = np.clip(back_col * rng.uniform(0.95, 1.15), 0, 255)
    img = np.empty((h, w, 3), np.float32)
    img[:] = col
    pat = cv2.resize(
        rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    img += pat[:, :, None] * rng.uniform(2, 8)
    return np.clip(img, 0, 255)


def _rounded_mask(w, h, r):
    import cv2

    m = np.zeros((h, w), np.uint8)
    r = max(1, int(r))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    return m


def make_scene(
    rng: np.random.Generator | int | None = None,
    *,
    size: tuple[int, int] | None = None,
    n_rows: int | None = None,
    with_rotated: bool | None = None,
    n_indicators: int | None = None,
    face_fn=None,
    surface: str | None = None,
    perspective: float | None = None,
    degrade: bool = True,
    codes: list[str] | None = None,
    jpeg_quality: int | None = None,
    n_kongs: int = 0,
    grid: tuple[int, int] | None = None,
    fill: float | None = None,
    standing: bool = False,
) -> Scene:
    """One random table photo with ground truth. ``size`` is (width, height) of the output.

    ``n_kongs`` concealed kongs are added at the end of the last hand row: four tiles, the outer
    two (sometimes all four) face down, showing the tile back (ground-truth code ``back``) in the
    colour of the set's back layer. The default (0) keeps the benchmark's fixed scenes unchanged.
    ``grid=(rows, cols)`` lays out a block of rows of touching tiles instead of a hand; ``fill`` is
    the fraction of the frame the layout spans (default: random 0.5-0.85). Leaving both out keeps
    the random stream, hence the benchmark's scenes, unchanged. ``standing`` draws the tiles
    standing up facing the camera: the tile's top (ivory layer, then the back's colour) shows above
    each face, the shadow falls behind, and the body is seen thicker."""
    import cv2

    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    face_fn = face_fn or default_face_fn()
    W, H = size if size is not None else _photo_size(rng)
    n_rows = n_rows if n_rows is not None else int(rng.choice([1, 1, 2]))
    with_rotated = with_rotated if with_rotated is not None else bool(rng.random() < 0.5)
    n_indicators = n_indicators if n_indicators is not None else int(rng.choice([0, 0, 1, 2, 3]))
    code_iter = iter(codes) if codes else None

    def codes_fn():
        if code_iter is not None:
            try:
                return next(code_iter)
            except StopIteration:
                pass
        return str(rng.choice(PLAY_CODES))

    aspect = rng.uniform(0.70, 0.80)
    th = 100.0
    tw = th * aspect
    placed = _layout(rng, tw, th, n_rows, with_rotated, n_indicators, codes_fn, n_kongs, grid)
    x0 = min(p.x for p in placed)
    x1 = max(p.x + p.w for p in placed)
    y0 = min(p.y for p in placed)
    y1 = max(p.y + p.h for p in placed)
    lw, lh = x1 - x0, y1 - y0
    # scale layout to fill 45-85% of the image width (or height)
    fill = rng.uniform(0.5, 0.85) if fill is None else float(fill)
    s = min(W * fill / lw, H * fill / lh)
    Mg = int(0.2 * max(W, H))  # surface margin so the camera warp never runs out of table
    CW, CH = W + 2 * Mg, H + 2 * Mg
    cx, cy = Mg + W / 2 + rng.uniform(-0.08, 0.08) * W, Mg + H / 2 + rng.uniform(-0.08, 0.08) * H
    # the table plane is drawn on a canvas the size of the output, then warped by a homography
    thick = rng.uniform(0.12, 0.3) * th * s  # tile body thickness seen from above at an angle
    if standing:
        thick *= 1.5
    back_col = _back_colour(rng, n_kongs)
    table = make_surface(rng, CW, CH, surface)
    layers = _Layers.empty(CH, CW)
    off = np.array([rng.uniform(-0.1, 0.1), rng.uniform(0.05, 0.2)]) * th * s  # shadow offset
    look = _Look(thick, standing, back_col, off)
    frame = _Frame(cx, cy, x0, y0, lw, lh, s, Mg, W, H)
    tiles_gt = _draw_tiles(placed, frame, layers, look, face_fn, rng)
    canvas = layers.compose(table, thick, rng)
    Hm, warped = _camera(rng, (W, H), Mg, perspective, [t["quad"] for t in tiles_gt])
    img = cv2.warpPerspective(canvas, Hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    for tile, q in zip(tiles_gt, warped):
        tile["quad"] = [[float(a), float(b)] for a, b in q]
    return Scene(_as_photo(img, rng, degrade, jpeg_quality), _in_frame(tiles_gt, W, H))


def _photo_size(rng: np.random.Generator) -> tuple[int, int]:
    """A phone photo's (width, height): long side 800-2000 px, 4:3, portrait a third of the time."""
    long_side = int(rng.choice([800, 1200, 1600, 2000]))
    portrait = rng.random() < 0.35
    return (long_side * 3 // 4, long_side) if portrait else (long_side, long_side * 3 // 4)


def _in_frame(tiles: list[dict], width: int, height: int) -> list[dict]:
    """The ground-truth tiles whose whole quad lies inside the photo."""
    return [
        t
        for t in tiles
        if min(p[0] for p in t["quad"]) >= 0
        and min(p[1] for p in t["quad"]) >= 0
        and max(p[0] for p in t["quad"]) <= width - 1
        and max(p[1] for p in t["quad"]) <= height - 1
    ]


def _as_photo(img: np.ndarray, rng: np.random.Generator, degrade: bool, jpeg_quality: int | None) -> np.ndarray:
    """The camera's last steps: blur, noise and colour (``degrade``), 8 bits, and a JPEG round trip
    (always at ``jpeg_quality`` when given, else 70 % of degraded photos at quality 60-95)."""
    if degrade:
        img = _degrade(img, rng)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg_quality or (degrade and rng.random() < 0.7):
        img = _jpeg_roundtrip(img, jpeg_quality or int(rng.integers(60, 95)))
    return img


@dataclass(frozen=True)
class _Frame:
    """Where the layout lands on the table canvas: its box ``x0, y0, lw, lh`` (layout units) scaled by
    ``s`` about the centre ``cx, cy``; the view is the ``W`` x ``H`` window ``margin`` pixels in."""

    cx: float
    cy: float
    x0: float
    y0: float
    lw: float
    lh: float
    s: float
    margin: int
    W: int
    H: int

    def place(self, p: _Placed) -> tuple[float, float, float, float]:
        """Top-left corner, width and height of tile ``p`` on the canvas."""
        X = self.cx + (p.x - self.x0 - self.lw / 2) * self.s
        Y = self.cy + (p.y - self.y0 - self.lh / 2) * self.s
        return X, Y, p.w * self.s, p.h * self.s

    def fits(self, xi: int, yi: int, iw: int, ih: int, thick: float) -> bool:
        """Whether a tile drawn at ``xi, yi`` (``iw`` x ``ih``, body ``thick``) lies in the view."""
        Mg, W, H = self.margin, self.W, self.H
        return not (xi < Mg or yi - int(thick) - 2 < Mg or xi + iw >= Mg + W or yi + ih + int(thick) + 2 >= Mg + H)


def _draw_tiles(
    placed: list[_Placed], frame: _Frame, layers: _Layers, look: _Look, face_fn, rng: np.random.Generator
) -> list[dict]:
    """Draw every tile of the layout that lies in the view onto ``layers``; the ground truth of each
    (code, quad clockwise from the top-left of the upright face in canvas pixels, lying, row, group)."""
    tiles_gt = []
    for p in placed:
        X, Y, w, h = frame.place(p)
        iw, ih = max(4, int(round(w))), max(4, int(round(h)))
        xi, yi = int(round(X)), int(round(Y))
        if not frame.fits(xi, yi, iw, ih, look.thick):
            continue
        face, m = _tile_face(p, face_fn, look.back_col, rng, (iw, ih))
        layers.draw_tile(face, m, (xi, yi), look, rng)
        c = np.array([[X, Y], [X + w, Y], [X + w, Y + h], [X, Y + h]])
        if p.rotated == 1:  # face rotated clockwise: its top-left lies at the footprint's top-right
            c = np.roll(c, -1, axis=0)
        elif p.rotated == -1:
            c = np.roll(c, 1, axis=0)
        tiles_gt.append({"code": p.code, "quad": c, "rotated": p.rotated != 0, "row": p.row, "group": p.group})
    return tiles_gt


def _back_colour(rng: np.random.Generator, n_kongs: int) -> np.ndarray:
    """The colour of the set's back layer (BGR float32); a strong colour when the scene has kongs."""
    back_col = np.array(
        rng.choice(
            [
                [40, 140, 40],
                [170, 110, 30],
                [40, 150, 210],
                [60, 60, 200],
                [200, 200, 200],
                [30, 30, 30],
                [160, 60, 160],
            ]
        ),
        np.float32,
    )
    if n_kongs and (back_col.max() - back_col.min() < 40):
        # a face-down tile on a white/grey/black set cannot be told from the table or a blank face
        back_col = np.array(
            rng.choice([[40, 140, 40], [170, 110, 30], [40, 150, 210], [60, 60, 200], [160, 60, 160]]), np.float32
        )
    return back_col


def _tile_face(
    p: _Placed, face_fn, back_col: np.ndarray, rng: np.random.Generator, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """The face of tile ``p`` as it lies on the table, ``size`` (width, height) pixels, bevelled
    (darker towards the edge), and its rounded-corner mask (0-1)."""
    import cv2

    iw, ih = size
    face = _back_face(back_col, rng) if p.code == "back" else face_fn(p.code, rng).astype(np.float32)
    if p.rotated == 1:
        face = cv2.rotate(face, cv2.ROTATE_90_CLOCKWISE)
    elif p.rotated == -1:
        face = cv2.rotate(face, cv2.ROTATE_90_COUNTERCLOCKWISE)
    face = cv2.resize(face, (iw, ih), interpolation=cv2.INTER_AREA)
    r = min(iw, ih) * 0.08
    m = _rounded_mask(iw, ih, r).astype(np.float32) / 255
    dist = cv2.distanceTransform((m > 0).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = np.clip(dist / (0.06 * min(iw, ih) + 1), 0, 1)
    return face * (0.8 + 0.2 * bevel)[:, :, None], m


@dataclass(frozen=True)
class _Look:
    """How the scene's tiles are drawn: body ``thick``-ness (pixels), ``standing`` up or lying flat,
    the back layer's colour and the offset of the shadows."""

    thick: float
    standing: bool
    back_col: np.ndarray
    shadow_offset: np.ndarray


@dataclass
class _Layers:
    """What is drawn onto the table before the camera sees it: tile shadows, tile sides (body
    layers) and tile faces, each with its coverage."""

    shadow: np.ndarray
    face: np.ndarray
    face_alpha: np.ndarray
    side: np.ndarray
    side_alpha: np.ndarray

    @classmethod
    def empty(cls, ch: int, cw: int) -> _Layers:
        return cls(
            np.zeros((ch, cw), np.float32),
            np.zeros((ch, cw, 3), np.float32),
            np.zeros((ch, cw), np.float32),
            np.zeros((ch, cw, 3), np.float32),
            np.zeros((ch, cw), np.float32),
        )

    def draw_tile(
        self, face: np.ndarray, m: np.ndarray, at: tuple[int, int], look: _Look, rng: np.random.Generator
    ) -> None:
        """One tile with its top-left corner ``at``: its face (mask ``m``), its side (the ivory layer
        then the coloured back layer, below the face; above it for a standing tile, whose top shows)
        and its shadow."""
        xi, yi = at
        ih, iw = m.shape
        sl = (slice(yi, yi + ih), slice(xi, xi + iw))
        self.face[sl] = face * m[:, :, None] + self.face[sl] * (1 - m[:, :, None])
        self.face_alpha[sl] = np.maximum(self.face_alpha[sl], m)
        t = int(round(look.thick))
        if t > 0:
            ivory_side = np.array([185, 200, 210], np.float32)
            split = rng.uniform(0.3, 0.6)
            for frac0, frac1, col in ((0, split, ivory_side), (split, 1.0, look.back_col * 0.8)):
                a = int(round(t * frac0))
                b = int(round(t * frac1))
                if b <= a:
                    continue
                mm = np.zeros((ih + b - a, iw), np.float32)
                if look.standing:  # the tile's top shows above its face: ivory layer, then the back
                    sl3 = (slice(yi - b, yi + ih - a), slice(xi, xi + iw))
                    for dy in range(0, b - a + 1, max(1, (b - a) // 4 or 1)):
                        mm[b - a - dy : b - a - dy + ih] = np.maximum(mm[b - a - dy : b - a - dy + ih], m)
                else:
                    sl3 = (slice(yi + a, yi + ih + b), slice(xi, xi + iw))
                    for dy in range(0, b - a + 1, max(1, (b - a) // 4 or 1)):
                        mm[dy : dy + ih] = np.maximum(mm[dy : dy + ih], m)
                self.side[sl3] = np.where(mm[:, :, None] > 0, col, self.side[sl3])
                self.side_alpha[sl3] = np.maximum(self.side_alpha[sl3], mm)
        off = look.shadow_offset
        sx, sy = int(round(xi + off[0])), int(round(yi + off[1] + t if not look.standing else yi - off[1] - t))
        ch, cw = self.shadow.shape
        if 0 <= sx and sx + iw < cw and 0 <= sy and sy + ih < ch:
            self.shadow[sy : sy + ih, sx : sx + iw] = np.maximum(self.shadow[sy : sy + ih, sx : sx + iw], m)

    def compose(self, table: np.ndarray, thick: float, rng: np.random.Generator) -> np.ndarray:
        """The table with the (blurred) shadows, then the sides, then the faces laid over it."""
        import cv2

        ksz = max(3, thick * 0.8)
        shadow = cv2.GaussianBlur(self.shadow, (0, 0), ksz) * rng.uniform(0.35, 0.65)
        canvas = table * (1 - shadow[:, :, None])
        canvas = self.side * self.side_alpha[:, :, None] + canvas * (1 - self.side_alpha[:, :, None])
        return self.face * self.face_alpha[:, :, None] + canvas * (1 - self.face_alpha[:, :, None])


def _camera(
    rng: np.random.Generator, size: tuple[int, int], margin: int, perspective: float | None, quads: list[np.ndarray]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """The camera's homography from the table canvas (``margin`` pixels round the ``size`` view) to
    the photo: a rotation and a perspective tilt (``perspective``, default random), retried milder
    until every tile ``quads`` stays in view; and the tiles' quads as the photo shows them."""

    W, H = size
    persp = perspective if perspective is not None else rng.uniform(0, 0.12)
    ang_deg = rng.uniform(-12, 12) if rng.random() < 0.7 else rng.uniform(-25, 25)
    src = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    ctr = np.array([W / 2, H / 2])
    jitter = rng.normal(0, 1, (4, 2))
    t1, t2 = rng.uniform(0.3, 1), rng.uniform(0.3, 1)

    def view(damp: float) -> np.ndarray:
        ang = math.radians(ang_deg * damp)
        R = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        return tilted((src - ctr) @ R.T + ctr, persp * damp, W, jitter, t1, t2)

    return fit_camera(size, src + margin, view, quads)


def tilted(dst: np.ndarray, persp: float, width: int, jitter: np.ndarray, t1: float, t2: float) -> np.ndarray:
    """The view's corners ``dst`` with a perspective tilt ``persp`` (the far edge shrinks, by ``t1``
    and ``t2`` on its two ends) and corner ``jitter`` in proportion."""
    dst = dst.copy()
    tilt = persp * width
    dst[0, 0] += tilt * t1
    dst[1, 0] -= tilt * t2  # far edge shrinks
    return dst + jitter * persp * 0.2 * width


def fit_camera(
    size: tuple[int, int], src: np.ndarray, view, quads: list[np.ndarray]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """The homography from the canvas corners ``src`` to ``view(damp)``, tried at damp 1, 0.6, 0.36 …
    and last 0 (the plain view) until every tile in ``quads`` stays 2 pixels inside the ``size``
    photo; and the quads as the photo shows them."""
    import cv2

    W, H = size
    quads0 = [q.reshape(1, 4, 2).astype(np.float64) for q in quads]
    for attempt in range(6):
        damp = 0.6**attempt if attempt < 5 else 0.0
        Hm = cv2.getPerspectiveTransform(src.astype(np.float32), view(damp).astype(np.float32))
        warped = [cv2.perspectiveTransform(q, Hm).reshape(4, 2) for q in quads0]
        if all(
            q[:, 0].min() >= 2 and q[:, 1].min() >= 2 and q[:, 0].max() <= W - 3 and q[:, 1].max() <= H - 3
            for q in warped
        ):
            break
    return Hm, warped


def _degrade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A phone camera's view of ``img`` (float): uneven light, sometimes a cast shadow, a warm tint,
    sometimes a glare spot and blur, and sensor noise."""
    import cv2

    H, W = img.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    g = 1 + rng.uniform(-0.25, 0.25) * (xx / W - 0.5) + rng.uniform(-0.25, 0.25) * (yy / H - 0.5)
    light = rng.uniform(0.7, 1.15) * g
    if rng.random() < 0.4:  # cast shadow (a hand / phone)
        f = 8  # draw and blur at 1/8 resolution, then upsample (smooth anyway)
        mask: np.ndarray = np.zeros((H // f + 1, W // f + 1), np.float32)
        cv2.ellipse(
            mask,
            (int(rng.uniform(0, W) / f), int(rng.uniform(0, H) / f)),
            (int(rng.uniform(0.1, 0.4) * W / f), int(rng.uniform(0.1, 0.3) * H / f)),
            rng.uniform(0, 180),
            0,
            360,
            1.0,
            -1,
        )
        mask = cv2.GaussianBlur(mask, (0, 0), W * 0.03 / f)
        mask = cv2.resize(mask, (W, H), interpolation=cv2.INTER_LINEAR)
        light = light * (1 - rng.uniform(0.2, 0.45) * mask)
    img = img * light[:, :, None]
    warm = np.array([rng.uniform(0.85, 1.0), 1.0, rng.uniform(1.0, 1.12)], np.float32)
    img = img * warm
    if rng.random() < 0.4:  # glare spot
        f = 8
        gl: np.ndarray = np.zeros((H // f + 1, W // f + 1), np.float32)
        cv2.circle(gl, (int(rng.uniform(0.2, 0.8) * W / f), int(rng.uniform(0.2, 0.8) * H / f)), 0, 1.0, -1)
        gl = cv2.GaussianBlur(gl, (0, 0), W * rng.uniform(0.02, 0.06) / f)
        gl = cv2.resize(gl, (W, H), interpolation=cv2.INTER_CUBIC)
        img = img + (gl / (gl.max() + 1e-6) * rng.uniform(40, 110))[:, :, None]
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.6) * W / 1600)
    return img + rng.normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)


def _jpeg_roundtrip(img: np.ndarray, quality: int) -> np.ndarray:
    """``img`` after JPEG compression at ``quality``."""
    import cv2

    _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if decoded is None:
        raise RuntimeError("a synthetic scene did not survive JPEG encoding")
    return decoded


def empty_table(rng: np.random.Generator | int | None = None, size=(800, 600)) -> np.ndarray:
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    return make_surface(rng, size[0], size[1]).clip(0, 255).astype(np.uint8)


def write_fixtures(out_dir, seeds=(11, 12, 13), size=(960, 720)) -> list[str]:
    """Write small synthetic JPEG photos + ground truth JSON (for tests/fixtures/photos)."""
    import json
    from pathlib import Path

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    specs: list[dict[str, Any]] = [
        dict(n_rows=1, with_rotated=True, n_indicators=1),
        dict(n_rows=2, with_rotated=False, n_indicators=0),
        dict(n_rows=1, with_rotated=False, n_indicators=2),
    ]
    for seed, spec in zip(seeds, specs):
        rng = np.random.default_rng(seed)
        sc = make_scene(rng, size=size, perspective=0.05, **spec)
        name = f"scene_{seed}.jpg"
        (out / name).write_bytes(sc.jpeg(88))
        gt = {
            "image": name,
            "codes": sc.codes,
            "tiles": [
                {
                    "code": t["code"],
                    "quad": [[round(x, 1), round(y, 1)] for x, y in t["quad"]],
                    "rotated": t["rotated"],
                    "row": t["row"],
                    "group": t["group"],
                }
                for t in sc.tiles
            ],
        }
        (out / f"scene_{seed}.json").write_text(json.dumps(gt, indent=1))
        written.append(name)
    return written


if __name__ == "__main__":  # pragma: no cover
    import argparse

    ap = argparse.ArgumentParser(description="write synthetic scene fixtures")
    ap.add_argument("--fixtures", default="tests/fixtures/photos")
    a = ap.parse_args()
    print(write_fixtures(a.fixtures))
