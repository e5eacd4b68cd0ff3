"""Things on a mahjong table that are not tiles, drawn onto a synthetic table plane.

A tile finder trained only on tiles and bare table tops learns that every light rectangle is a tile.
Real photos show paper, keyboards, dice, coins, scoring sticks and the white edge of a tile rack
beside the hand, and fingers over it. Each function here draws one such object onto a float32 BGR
canvas at a centre and angle (degrees, clockwise) in canvas pixels, with ``unit`` the tile height in
pixels, and returns the polygon it covers; none of them has ground truth (no tile is there).
:data:`CLUTTER` lists the objects laid beside the tiles; :func:`draw_finger` lays a finger over a
tile after the tiles are drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from importlib.util import find_spec
from pathlib import Path

import cv2
import numpy as np


def rect_poly(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    """Corners (4x2 float32, clockwise from the top-left) of a ``w`` x ``h`` rectangle centred at
    ``cx, cy`` and turned ``angle`` degrees clockwise."""
    a = math.radians(angle)
    u = np.array([math.cos(a), math.sin(a)])  # the rectangle's x axis in the canvas
    v = np.array([-math.sin(a), math.cos(a)])  # its y axis (down)
    c = np.array([cx, cy])
    return np.array(
        [c + sx * w / 2 * u + sy * h / 2 * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float32
    )


def _fill(canvas: np.ndarray, poly: np.ndarray, colour, shade: float = 0.0) -> None:
    """Fill ``poly`` with ``colour`` (anti-aliased), darker by ``shade`` towards its lower edge."""
    x0, y0 = np.maximum(np.floor(poly.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(poly.max(0)).astype(int) + 2, [canvas.shape[1], canvas.shape[0]])
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(m, [np.round((poly - [x0, y0]) * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    a = (m.astype(np.float32) / 255)[:, :, None]
    col = np.asarray(colour, np.float32)
    if shade:
        g = np.linspace(1.0, 1.0 - shade, y1 - y0, dtype=np.float32)[:, None, None]
        col = col * g
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + col * a


def _text(canvas: np.ndarray, text: str, org: tuple[int, int], scale: float, colour, thickness: int) -> None:
    """``text`` at ``org`` (its baseline's left end) on a float canvas (cv2.putText draws on uint8 only)."""
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x0, y0 = org[0], org[1] - th - thickness
    x1, y1 = org[0] + tw + thickness, org[1] + base + thickness
    if x0 < 0 or y0 < 0 or x1 > canvas.shape[1] or y1 > canvas.shape[0]:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.putText(m, text, (0, org[1] - y0), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thickness, cv2.LINE_AA)
    a = (m.astype(np.float32) / 255)[:, :, None]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + np.asarray(colour, np.float32) * a


def draw_paper(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """A sheet of white paper (a score sheet, a receipt), sometimes with lines of grey text."""
    w = unit * rng.uniform(2.0, 5.0)
    h = w * rng.choice([1.41, 0.71, 2.5])
    poly = rect_poly(c[0], c[1], w, h, angle)
    _fill(canvas, poly, rng.uniform(215, 250, 3).clip(0, 255))
    if rng.random() < 0.7:
        a = math.radians(angle)
        u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        ink = rng.uniform(40, 110)
        for k in range(int(h / (unit * 0.18))):
            y = -h / 2 + unit * 0.25 + k * unit * 0.18
            if y > h / 2 - unit * 0.2:
                break
            ln = w * rng.uniform(0.4, 0.85)
            p0 = np.array(c) + u * (-w / 2 + unit * 0.2) + v * y
            p1 = p0 + u * ln
            cv2.line(
                canvas,
                tuple(np.round(p0).astype(int)),
                tuple(np.round(p1).astype(int)),
                (ink, ink, ink),
                max(1, int(unit * 0.04)),
                cv2.LINE_AA,
            )
    return poly


#: the typefaces printed matter is drawn in: OpenCV's Hershey fonts (italic added at random) and,
#: where installed, TrueType fonts (Debian ``fonts-dejavu-core``, which ``python3 run.py train``
#: installs); a page is set in a TrueType font :data:`TRUETYPE_SHARE` of the time
PRINT_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
)
TRUETYPE_FONTS = tuple(
    f"/usr/share/fonts/truetype/dejavu/DejaVu{face}.ttf"
    for face in ("Sans", "Sans-Bold", "SansMono", "SansMono-Bold", "Serif", "Serif-Bold")
)
TRUETYPE_SHARE = 0.5
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _word(rng: np.random.Generator) -> str:
    """A made-up word or number of 1-9 characters."""
    if rng.random() < 0.25:
        return str(int(rng.integers(0, 10 ** int(rng.integers(1, 5)))))
    return "".join(_LETTERS[int(i)] for i in rng.integers(0, 52, int(rng.integers(1, 10))))


@cache
def _truetype_fonts() -> tuple[str, ...]:
    """The :data:`TRUETYPE_FONTS` installed, when Pillow (the ``train`` extra) is there to set them."""
    return tuple(f for f in TRUETYPE_FONTS if Path(f).exists()) if find_spec("PIL") else ()


class _Type:
    """One typeface at one size, setting text into a print mask (uint8 alpha): a Hershey font
    (``cv2.putText``), or a TrueType font (:func:`_truetype_fonts`) when one is drawn; letters
    ``letter`` pixels tall (a capital), strokes ``thick`` pixels wide."""

    def __init__(self, m: np.ndarray, letter: float, thick: int, rng: np.random.Generator) -> None:
        self.m, self.im, self.font = m, None, None
        fonts = _truetype_fonts()
        if rng.random() < TRUETYPE_SHARE and fonts:  # (the draw is made either way)
            from PIL import Image, ImageDraw, ImageFont

            path = fonts[int(rng.integers(len(fonts)))]
            self.font = ImageFont.truetype(path, max(4, round(letter / 0.73)))  # (a capital: 0.73 em)
            self.im = Image.fromarray(m)
            self.draw = ImageDraw.Draw(self.im)
        else:
            self.hershey = int(PRINT_FONTS[int(rng.integers(len(PRINT_FONTS)))]) | (
                cv2.FONT_ITALIC if rng.random() < 0.2 else 0
            )
            self.thick = thick
            self.scale = cv2.getFontScaleFromHeight(self.hershey, max(2, int(letter)), thick)

    def width(self, text: str) -> float:
        """How wide ``text`` is set."""
        if self.font is not None:
            return float(self.draw.textlength(text, font=self.font))
        return float(cv2.getTextSize(text, self.hershey, self.scale, self.thick)[0][0])

    def put(self, text: str, org: tuple[int, int]) -> None:
        """Set ``text`` from ``org`` (its baseline's left end)."""
        if self.font is not None:
            self.draw.text(org, text, fill=255, font=self.font, anchor="ls")
        else:
            cv2.putText(self.m, text, org, self.hershey, self.scale, 255, self.thick, cv2.LINE_AA)

    def done(self) -> None:
        """Write what was set into the mask (Pillow draws on a copy)."""
        if self.im is not None:
            np.maximum(self.m, np.asarray(self.im), out=self.m)


def _print_mask(w: int, h: int, unit: float, rng: np.random.Generator) -> np.ndarray:
    """The ink (uint8 alpha, ``h`` x ``w``) of a printed page: lines of words whose letters stand
    0.1-0.5 tile heights (``unit``) tall, a heading sometimes; or a score sheet, a ruled grid with a
    number in each cell."""
    m = np.zeros((h, w), np.uint8)
    letter = unit * rng.uniform(0.1, 0.5)
    thick = max(1, round(letter * rng.uniform(0.05, 0.14)))
    margin = int(unit * 0.2)
    if rng.random() < 0.3:  # a score sheet
        cell_w, cell_h = letter * rng.uniform(3.0, 5.0), letter * rng.uniform(1.6, 2.4)
        for x in np.arange(margin, w - margin, cell_w):
            cv2.line(m, (int(x), margin), (int(x), h - margin), 255, max(1, thick // 2))
        ink = _Type(m, letter, thick, rng)
        for y in np.arange(margin, h - margin, cell_h):
            cv2.line(m, (margin, int(y)), (w - margin, int(y)), 255, max(1, thick // 2))
            for x in np.arange(margin, w - margin - cell_w, cell_w):
                ink.put(_word(rng)[:4], (int(x + cell_w * 0.15), int(y + cell_h * 0.75)))
        ink.done()
        return m
    y = margin + letter
    if rng.random() < 0.4:  # a heading, up to twice as tall
        big = min(2.0 * letter, 0.8 * unit)
        heading = _Type(m, big, thick + 1, rng)
        y = margin + big
        heading.put(" ".join(_word(rng) for _ in range(3)), (margin, int(y)))
        heading.done()
        y += big
    ink = _Type(m, letter, thick, rng)
    step = letter * rng.uniform(1.5, 2.3)
    while y < h - margin:
        x = margin + (letter * 2 if rng.random() < 0.2 else 0)
        end = w - margin - (rng.uniform(0, 0.5) * w if rng.random() < 0.2 else 0)
        while True:
            word = _word(rng)
            tw = ink.width(word)
            if x + tw > end:
                break
            ink.put(word, (int(x), int(y)))
            x += tw + letter * rng.uniform(0.4, 0.8)
        y += step
    ink.done()
    return m


def draw_print(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """Printed matter: a page of a book or a leaflet, a score sheet, or print straight on the table
    (a box, a mat); lines of letters and numbers in a row look like a row of small tiles to a finder."""
    w = unit * rng.uniform(2.0, 6.0)
    h = w * rng.choice([1.41, 0.71, 1.0])
    poly = rect_poly(c[0], c[1], w, h, angle)
    if rng.random() < 0.75:
        _fill(canvas, poly, rng.uniform(200, 250, 3))
    mask = _print_mask(int(w), int(h), unit, rng)
    # the page's corner 0 goes to the polygon's corner 0, its x axis along the turned rectangle's
    a = math.radians(angle)
    M = np.array([[math.cos(a), -math.sin(a), poly[0][0]], [math.sin(a), math.cos(a), poly[0][1]]], np.float32)
    alpha = cv2.warpAffine(mask, M, (canvas.shape[1], canvas.shape[0])).astype(np.float32)[:, :, None] / 255
    ink = rng.uniform(10, 90, 3) if rng.random() < 0.8 else rng.uniform(0, 200, 3)
    canvas[:] = canvas * (1 - alpha) + ink.astype(np.float32) * alpha
    return poly


def draw_keyboard(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """A computer keyboard: rows of squarish keys (light or dark) with letters, on a plate."""
    key = unit * rng.uniform(0.45, 0.75)
    rows, cols = int(rng.integers(3, 6)), int(rng.integers(8, 15))
    pitch = key * 1.12
    w, h = cols * pitch + key * 0.4, rows * pitch + key * 0.4
    poly = rect_poly(c[0], c[1], w, h, angle)
    light = rng.random() < 0.5
    plate = rng.uniform(20, 60, 3) if not light else rng.uniform(150, 200, 3)
    _fill(canvas, poly, plate)
    a = math.radians(angle)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    keycol = rng.uniform(225, 250, 3) if light else rng.uniform(30, 70, 3)
    inkcol = (40, 40, 40) if light else (220, 220, 220)
    for r in range(rows):
        for k in range(cols):
            kc = (
                np.array(c)
                + u * (-w / 2 + key * 0.2 + pitch * (k + 0.5))
                + v * (-h / 2 + key * 0.2 + pitch * (r + 0.5))
            )
            _fill(canvas, rect_poly(kc[0], kc[1], key, key, angle), keycol, shade=0.15)
            letter = chr(int(rng.integers(65, 91)))
            org = tuple(np.round(kc - u * key * 0.3 - v * key * 0.05).astype(int))
            _text(canvas, letter, org, key / 60, inkcol, max(1, int(key / 25)))
    return poly


def draw_dice(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """Two or three dice: small white (or red) cubes showing their pips."""
    s = unit * rng.uniform(0.3, 0.45)
    pts = []
    for k in range(int(rng.integers(2, 4))):
        dc = (c[0] + rng.uniform(-1, 1) * s * 1.5, c[1] + rng.uniform(-1, 1) * s * 1.5 + k * s * 0.3)
        ang = angle + rng.uniform(-40, 40)
        poly = rect_poly(dc[0], dc[1], s, s, ang)
        body = rng.uniform(225, 250, 3) if rng.random() < 0.8 else np.array([40, 40, 200.0])
        _fill(canvas, poly + [0, s * 0.25], body * 0.7)
        _fill(canvas, poly, body)
        n = int(rng.integers(1, 7))
        for j in range(n):
            off = (np.array([j % 3, j // 3]) - [1, 0.5]) * s * 0.28
            a = math.radians(ang)
            p = (
                np.array(dc)
                + off[0] * np.array([math.cos(a), math.sin(a)])
                + off[1] * np.array([-math.sin(a), math.cos(a)])
            )
            cv2.circle(
                canvas,
                tuple(np.round(p).astype(int)),
                max(1, int(s * 0.08)),
                (30, 30, 160) if j == 0 else (30, 30, 30),
                -1,
                cv2.LINE_AA,
            )
        pts.append(poly)
    return cv2.convexHull(np.concatenate(pts)).reshape(-1, 2).astype(np.float32)


def draw_coins(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """A few coins or round chips: metallic or coloured discs with a rim."""
    pts = []
    for _ in range(int(rng.integers(1, 5))):
        r = unit * rng.uniform(0.22, 0.45)
        p = (c[0] + rng.uniform(-1.5, 1.5) * unit * 0.6, c[1] + rng.uniform(-1, 1) * unit * 0.6)
        col = np.array(
            rng.choice([[60, 170, 210], [190, 190, 190], [60, 120, 180], [200, 80, 40], [40, 40, 200]]), np.float64
        )
        ctr = tuple(np.round(p).astype(int))
        cv2.circle(canvas, ctr, int(r), tuple(col * 0.7), -1, cv2.LINE_AA)
        cv2.circle(canvas, ctr, int(r * 0.85), tuple(col), -1, cv2.LINE_AA)
        cv2.circle(
            canvas,
            (ctr[0] - int(r * 0.25), ctr[1] - int(r * 0.25)),
            int(r * 0.3),
            tuple(np.minimum(col * 1.3, 255)),
            -1,
            cv2.LINE_AA,
        )
        pts.append(np.array([[p[0] - r, p[1] - r], [p[0] + r, p[1] - r], [p[0] + r, p[1] + r], [p[0] - r, p[1] + r]]))
    return cv2.convexHull(np.concatenate(pts).astype(np.float32)).reshape(-1, 2)


def draw_sticks(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """Scoring sticks: long thin white sticks with coloured dots, side by side or fanned."""
    ln, wd = unit * rng.uniform(2.5, 4.0), unit * rng.uniform(0.1, 0.16)
    pts = []
    fan = rng.uniform(0, 12)
    for k in range(int(rng.integers(2, 7))):
        ang = angle + (k - 2) * fan
        a = math.radians(ang)
        v = np.array([-math.sin(a), math.cos(a)])
        sc = np.array(c) + v * k * wd * 1.6
        poly = rect_poly(sc[0], sc[1], ln, wd, ang)
        _fill(canvas, poly, rng.uniform(220, 248, 3))
        dot = tuple(float(x) for x in rng.choice([[40, 40, 200], [30, 30, 30], [40, 140, 40]]))
        for j in range(int(rng.integers(1, 6))):
            u = np.array([math.cos(a), math.sin(a)])
            p = sc + u * (j - 2) * wd * 1.5
            cv2.circle(canvas, tuple(np.round(p).astype(int)), max(1, int(wd * 0.3)), dot, -1, cv2.LINE_AA)
        pts.append(poly)
    return cv2.convexHull(np.concatenate(pts)).reshape(-1, 2).astype(np.float32)


def draw_rack_edge(
    canvas: np.ndarray, c: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """The edge of a tile rack: a long bar of white or coloured plastic with a highlight line."""
    ln, wd = unit * rng.uniform(6, 12), unit * rng.uniform(0.25, 0.5)
    poly = rect_poly(c[0], c[1], ln, wd, angle)
    col = (
        rng.uniform(215, 245, 3)
        if rng.random() < 0.6
        else np.array(rng.choice([[40, 120, 40], [150, 90, 30], [30, 30, 30], [40, 40, 170]]), np.float64)
    )
    _fill(canvas, poly, col, shade=0.35)
    a = math.radians(angle)
    v = np.array([-math.sin(a), math.cos(a)])
    hl = rect_poly(c[0] - v[0] * wd * 0.3, c[1] - v[1] * wd * 0.3, ln * 0.98, wd * 0.12, angle)
    _fill(canvas, hl, np.minimum(col * 1.2 + 20, 255))
    return poly


def draw_finger(
    canvas: np.ndarray, tip: tuple[float, float], angle: float, unit: float, rng: np.random.Generator
) -> np.ndarray:
    """A finger reaching in: a skin-coloured capsule ending at ``tip``, pointing along ``angle``."""
    wd = unit * rng.uniform(0.35, 0.55)
    ln = unit * rng.uniform(1.5, 3.0)
    a = math.radians(angle)
    u = np.array([math.cos(a), math.sin(a)])
    base = np.array(tip) - u * ln
    ctr = (np.array(tip) + base) / 2
    poly = rect_poly(ctr[0], ctr[1], ln, wd, angle)
    skin = np.array(
        rng.choice([[120, 150, 200], [90, 120, 170], [60, 85, 130], [140, 170, 220]]), np.float64
    ) * rng.uniform(0.85, 1.1)
    _fill(canvas, poly + [unit * 0.08, unit * 0.12], np.asarray(skin) * 0.35)  # its shadow
    _fill(canvas, poly, skin, shade=0.2)
    cv2.circle(canvas, tuple(np.round(tip).astype(int)), int(wd / 2), tuple(float(x) for x in skin), -1, cv2.LINE_AA)
    nail = np.array(tip) - u * wd * 0.45
    cv2.ellipse(
        canvas,
        tuple(np.round(nail).astype(int)),
        (int(wd * 0.35), int(wd * 0.28)),
        angle,
        0,
        360,
        tuple(float(x) for x in np.minimum(skin * 1.15 + 15, 255)),
        -1,
        cv2.LINE_AA,
    )
    return (
        cv2.convexHull(np.concatenate([poly, rect_poly(tip[0], tip[1], wd, wd, angle)]))
        .reshape(-1, 2)
        .astype(np.float32)
    )


Drawer = Callable[[np.ndarray, tuple[float, float], float, float, np.random.Generator], np.ndarray]

#: objects laid on the table beside the tiles, and how often each is picked
CLUTTER: list[tuple[Drawer, float]] = [
    (draw_paper, 0.25),
    (draw_keyboard, 0.2),
    (draw_dice, 0.15),
    (draw_coins, 0.1),
    (draw_sticks, 0.15),
    (draw_rack_edge, 0.15),
]


def pick(rng: np.random.Generator) -> Drawer:
    """One clutter object's drawing function, at the rates :data:`CLUTTER` gives."""
    p = np.array([w for _, w in CLUTTER])
    return CLUTTER[int(rng.choice(len(CLUTTER), p=p / p.sum()))][0]
