"""Tile-face artwork loader for training the tile classifier.

:func:`load_artwork` returns every usable face image per class from the artwork sources in
``shared/vision-data`` (see its README.md)::

    {style_name: {class_code: [image, ...]}}

Images are ``uint8`` numpy arrays, either

* BGR (3 channels): an opaque *face* (the tile's front, including its own ivory/white ground), as
  cut from sprite sheets and scans (gnome smooth.png, xmahjongg sheets, FluffyStuff PNGs), or
* BGRA (4 channels): a *glyph* on a transparent ground (kmahjongg SVG glyphs, ffalt Unicode SVG
  glyphs, Unicode fonts), to be composed onto a synthetic face by :mod:`training.render`.

Class codes are our notation (``1m``..``9m``, ``1p``.., ``1s``.., ``1z``..``7z``, ``1f``..``8f``) plus
``back``. Rendering SVGs needs ``rsvg-convert`` (Debian ``librsvg2-bin``); glyphs from fonts need
Pillow. Both are training-time only. Results are cached as ``.npz`` in ``training/.cache/`` (gitignored)
so later runs need neither tool. Styles whose tool is missing are skipped with a warning.

Unusable styles are skipped on purpose: gnome ``edu_kang_xi`` (radicals instead of faces),
kmahjongg ``egypt``/``alphabet`` (fantasy sets) and ``jade`` (white glyphs meant for a red tile).
"""

from __future__ import annotations

import gzip
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "vision-data"
CACHE_DIR = Path(__file__).resolve().parent / ".cache"

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"{n}z" for n in range(1, 8)]
FLOWERS = [f"{n}f" for n in range(1, 9)]
CLASSES = SUITED + HONOURS + FLOWERS + ["back"]  # 43 classes; the classifier's output order

CACHE_VERSION = 7


def _warn(msg: str) -> None:
    print(f"[artwork] {msg}", file=sys.stderr)


def read_image(path: Path, flags=cv2.IMREAD_UNCHANGED) -> np.ndarray:
    """cv2.imread that also handles GIF (through Pillow when cv2 cannot)."""
    img = cv2.imread(str(path), flags)
    if img is None:
        from PIL import Image  # training-time only

        pil = Image.open(path).convert("RGB")
        img = cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)
    return img


def _alpha_crop(img: np.ndarray, thr: int = 8, pad: int = 2) -> np.ndarray:
    """Crop a BGRA image to the bounding box of its visible pixels."""
    a = img[:, :, 3]
    ys, xs = np.nonzero(a > thr)
    if len(xs) == 0:
        return img
    y0, y1 = max(0, ys.min() - pad), min(img.shape[0], ys.max() + 1 + pad)
    x0, x1 = max(0, xs.min() - pad), min(img.shape[1], xs.max() + 1 + pad)
    return img[y0:y1, x0:x1].copy()


def _to_bgra_if_needed(img: np.ndarray) -> np.ndarray:
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    return img


# ---------------------------------------------------------------------------------------------
# SVG rendering


def _rsvg(
    svg_path: Path, out_png: Path, export_id: str | None = None, width: int | None = None, zoom: float | None = None
) -> np.ndarray | None:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        return None
    cmd = [exe]
    if export_id:
        cmd += ["-i", export_id]
    if width:
        cmd += ["-w", str(width)]
    if zoom:
        cmd += ["-z", str(zoom)]
    cmd += [str(svg_path), "-o", str(out_png)]
    r = subprocess.run(cmd, capture_output=True)
    if r.returncode != 0 or not out_png.exists():
        return None
    return cv2.imread(str(out_png), cv2.IMREAD_UNCHANGED)


_KMJ_IDS = {}
for _n in range(1, 10):
    _KMJ_IDS[f"CHARACTER_{_n}"] = f"{_n}m"
    _KMJ_IDS[f"ROD_{_n}"] = f"{_n}p"
    _KMJ_IDS[f"BAMBOO_{_n}"] = f"{_n}s"
_KMJ_IDS.update(
    {
        "WIND_1": "4z",
        "WIND_2": "2z",
        "WIND_3": "1z",
        "WIND_4": "3z",
        "DRAGON_1": "5z",
        "DRAGON_2": "6z",
        "DRAGON_3": "7z",
    }
)
for _n in range(1, 5):
    _KMJ_IDS[f"FLOWER_{_n}"] = f"{_n}f"
    _KMJ_IDS[f"SEASON_{_n}"] = f"{_n + 4}f"


def _load_kmahjongg(data: Path, tmp: Path) -> dict:
    out = {}
    for style in ("traditional", "default", "classic"):
        src = data / "kmahjongglib-tilesets-debian" / f"{style}.svgz"
        if not src.exists():
            continue
        svg = tmp / f"kmj_{style}.svg"
        svg.write_bytes(gzip.decompress(src.read_bytes()))
        faces: dict = {}
        for eid, code in _KMJ_IDS.items():
            if style == "classic" and eid.startswith("DRAGON"):
                continue  # drawn as creatures, nothing like real dragon tiles
            if style == "classic" and eid in ("FLOWER_1", "FLOWER_2"):
                code = {"FLOWER_1": "2f", "FLOWER_2": "1f"}[eid]  # captioned 'Orchid', 'Plum'
            img = _rsvg(svg, tmp / "x.png", export_id=eid, zoom=2.0)
            if img is None:
                _warn(f"kmahjongg {style}: cannot render {eid} (is rsvg-convert installed?)")
                break
            img = _alpha_crop(img, thr=0)
            faces.setdefault(code, []).append(img)
        if faces:
            out[f"kmahjongg-{style}"] = faces
    return out


_FFALT_IDS = {}
for _n in range(1, 10):
    _FFALT_IDS[f"t_do{_n}"] = f"{_n}p"
    _FFALT_IDS[f"t_ch{_n}"] = f"{_n}m"
    _FFALT_IDS[f"t_ba{_n}"] = f"{_n}s"
_FFALT_IDS.update(
    {
        "t_wi_east": "1z",
        "t_wi_south": "2z",
        "t_wi_west": "3z",
        "t_wi_north": "4z",
        "t_dr_white": "5z",
        "t_dr_green": "6z",
        "t_dr_red": "7z",
        "t_fl_plum": "1f",
        "t_fl_orchid": "2f",
        "t_fl_chrysanthemum": "3f",
        "t_fl_bamboo": "4f",
        "t_se_spring": "5f",
        "t_se_summer": "6f",
        "t_se_fall": "7f",
        "t_se_winter": "8f",
    }
)


def _load_ffalt(data: Path, tmp: Path) -> dict:
    out = {}
    folder = data / "ffalt-mah-tilesets"
    # classic.svg only cuts sprites out of classic.png: crop them directly
    src, png = folder / "classic.svg", folder / "classic.png"
    if src.exists() and png.exists():
        text = src.read_text(encoding="utf-8")
        sheet = read_image(png, cv2.IMREAD_UNCHANGED)
        faces: dict = {}
        # its flower ids do not match the pictures (t_fl_bamboo is an iris...): map by picture
        fix = {"t_fl_plum": "3f", "t_fl_orchid": "4f", "t_fl_chrysanthemum": "1f", "t_fl_bamboo": "2f"}
        for eid, code in _FFALT_IDS.items():
            code = fix.get(eid, code)
            m = re.search(rf'<svg id="{eid}"[^>]*viewBox="([-\d. ]+)"', text)
            if not m:
                continue
            x, y, w, h = (int(round(float(v))) for v in m.group(1).split())
            img = sheet[y : y + h, x : x + w]
            if img.size and img.shape[2] == 4 and img[:, :, 3].max() > 0:
                faces.setdefault(code, []).append(_alpha_crop(img.copy(), thr=0, pad=6))
        if faces:
            out["ffalt-classic"] = faces
    for style in ("uni", "unib"):
        src = folder / f"{style}.svg"
        if not src.exists():
            continue
        text = src.read_text(encoding="utf-8")
        m_defs = re.search(r"<defs>.*</defs>", text, re.S)
        if not m_defs:
            continue
        defs = m_defs.group(0)
        faces = {}
        for eid, code in _FFALT_IDS.items():
            m = re.search(rf'<svg id="{eid}"[^>]*viewBox="([-\d. ]+)"', text)
            if not m:
                continue
            vb = [float(v) for v in m.group(1).split()]
            doc = (
                '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                f'width="{vb[2]}" height="{vb[3]}" viewBox="0 0 {vb[2]} {vb[3]}">{defs}'
                f'<use xlink:href="#{eid}" href="#{eid}" x="0" y="0" width="{vb[2]}" height="{vb[3]}"/></svg>'
            )
            p = tmp / "ff.svg"
            p.write_text(doc, encoding="utf-8")
            glyph = _rsvg(p, tmp / "x.png", width=150)
            if glyph is None:
                _warn(f"ffalt {style}: cannot render {eid}")
                break
            if glyph.ndim == 3 and glyph.shape[2] == 4 and glyph[:, :, 3].max() == 0:
                continue
            faces.setdefault(code, []).append(glyph)
        if faces:
            out[f"ffalt-{style}"] = faces
    return out


# ---------------------------------------------------------------------------------------------
# Raster sources

_FLUFFY = {}
for _n in range(1, 10):
    _FLUFFY[f"Man{_n}"] = f"{_n}m"
    _FLUFFY[f"Pin{_n}"] = f"{_n}p"
    _FLUFFY[f"Sou{_n}"] = f"{_n}s"
_FLUFFY.update(
    {
        "Man5-Dora": "5m",
        "Pin5-Dora": "5p",
        "Sou5-Dora": "5s",
        "Ton": "1z",
        "Nan": "2z",
        "Shaa": "3z",
        "Pei": "4z",
        "Haku": "5z",
        "Hatsu": "6z",
        "Chun": "7z",
        "Back": "back",
    }
)


def load_fluffystuff(data: Path, styles=("Regular",)) -> dict:
    """FluffyStuff riichi faces (CC0). Glyph PNGs on transparent ground; ``Back`` is opaque."""
    out = {}
    for style in styles:
        folder = data / "fluffystuff-riichi-mahjong-tiles" / "Export" / style
        faces: dict = {}
        for name, code in _FLUFFY.items():
            p = folder / f"{name}.png"
            if not p.exists():
                continue
            img = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
            if img is None:
                continue
            img = _to_bgra_if_needed(img)
            if img.shape[2] == 4:
                img = _alpha_crop(img, thr=0)
            if code == "back" and img.shape[2] == 4:
                a = img[:, :, 3:4].astype(np.float32) / 255
                img = (img[:, :, :3] * a + 255 * (1 - a)).astype(np.uint8)
            faces.setdefault(code, []).append(img)
        if faces:
            out[f"fluffystuff-{style.lower()}"] = faces
    return out


_SMOOTH_ORDER = (
    [f"{n}p" for n in range(1, 10)]
    + ["4z", "3z", "2z", "1z", "7z", "6z"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + ["2f", "3f", "1f", "4f", "5z", "5f", "6f", "7f", "8f", None]
)


def _load_gnome_smooth(data: Path) -> dict:
    p = data / "gnome-mahjongg-themes-debian" / "smooth.png"
    if not p.exists():
        return {}
    sheet = read_image(p, cv2.IMREAD_UNCHANGED)
    faces: dict = {}
    for i, code in enumerate(_SMOOTH_ORDER):
        if code is None:
            continue
        cell = sheet[0:132, i * 96 : (i + 1) * 96]
        face = cell[4:111, 12:91, :3].copy()
        faces.setdefault(code, []).append(face)
    return {"gnome-smooth": faces}


_XMJ_ROWS = (
    [f"{n}p" for n in range(1, 10)]
    + ["4z", "3z", "2z", "1z", "7z", "6z"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
)
_DOROTHY_ORDER = _XMJ_ROWS + ["5f", "6f", "7f", "8f", "5z", "4f", "2f", "1f", "3f"]
# xmahjongg gnome sheets: 華 花 are generic flower/season tiles -> skipped; then 梅 竹, white, 4 winds
_XGNOME_ORDER = _XMJ_ROWS + [None, None, "1f", "4f", "5z", None, None, None, None]
_XGNOME2_ORDER = (
    [f"{n}s" for n in range(1, 10)]
    + ["4z", "3z", "2z", "1z", "7z", "6z"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
)
_REAL_ORDER = (
    [f"{n}p" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}m" for n in range(1, 10)]
    + ["5f", "6f", "7f", "8f", "4z", "2z", "1z", "3z", None]
    + ["1f", "2f", "3f", "4f", "6z", "5z", "7z", None, None]
)


def _load_xmahjongg(data: Path) -> dict:
    folder = data / "xmahjongg-tiles-debian"
    out = {}
    # name, cols, cell w, cell h, face box (x0, y0, x1, y1) in cell, order, rows, reps
    specs: list[tuple[str, int, int, int, tuple[int, int, int, int], Sequence[str | None], int, int]] = [
        ("dorothys", 21, 64, 80, (2, 2, 50, 68), _DOROTHY_ORDER, 2, 2),
        ("dorwhite", 21, 64, 80, (2, 2, 50, 68), _DOROTHY_ORDER, 2, 2),
        ("gnome", 21, 40, 56, (3, 3, 37, 51), _XGNOME_ORDER, 2, 2),
        ("gnome2", 21, 40, 56, (3, 3, 37, 51), _XGNOME2_ORDER, 2, 1),  # rows 2-3: dark faces, unused
    ]
    for name, cols, cw, ch, box, order, nrows, reps in specs:
        p = folder / f"{name}.gif"
        if not p.exists():
            continue
        sheet = read_image(p, cv2.IMREAD_COLOR)
        if sheet.ndim == 2:
            sheet = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR)
        faces: dict = {}
        # rows 0-1 are the normal faces; rows 2-3 are the same tiles highlighted (blue): use them
        # too, as a differently tinted style
        for rep in range(min(reps, sheet.shape[0] // (ch * nrows))):
            for i, code in enumerate(order):
                if code is None:
                    continue
                r, c = divmod(i, cols)
                r += rep * nrows
                cell = sheet[r * ch : (r + 1) * ch, c * cw : (c + 1) * cw]
                face = cell[box[1] : box[3], box[0] : box[2]].copy()
                faces.setdefault(code, []).append(face)
        out[f"xmahjongg-{name}"] = faces
    p = folder / "real.gif"
    if p.exists():
        sheet = read_image(p, cv2.IMREAD_COLOR)
        h, w = sheet.shape[:2]
        cw, ch = w / 9, h / 5
        faces = {}
        for i, code in enumerate(_REAL_ORDER):
            if code is None:
                continue
            r, c = divmod(i, 9)
            x0, x1 = int(round(c * cw)) + 2, int(round((c + 1) * cw)) - 2
            y0, y1 = int(round(r * ch)) + 2, int(round((r + 1) * ch)) - 2
            faces.setdefault(code, []).append(sheet[y0:y1, x0:x1].copy())
        out["xmahjongg-real"] = faces
    return out


# Unicode: U+1F000.. E S W N Rd Gr Wh, 1m..9m, 1s..9s, 1p..9p, plum orchid bamboo chrys, seasons, joker, back
_UNI_ORDER = (
    ["1z", "2z", "3z", "4z", "7z", "6z", "5z"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + ["1f", "2f", "4f", "3f", "5f", "6f", "7f", "8f", None, "back"]
)


def _load_unicode_fonts(data: Path) -> dict:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        _warn("Pillow missing: skipping Unicode font glyphs")
        return {}
    out = {}
    folder = data / "unicode-mahjong-fonts-debian"
    for fname, style in (("Symbola_hint.ttf", "symbola"), ("NotoSansSymbols2-Regular.ttf", "noto")):
        p = folder / fname
        if not p.exists():
            continue
        font = ImageFont.truetype(str(p), 160)
        faces: dict = {}
        for i, code in enumerate(_UNI_ORDER):
            if code is None:
                continue
            ch = chr(0x1F000 + i)
            im = Image.new("L", (260, 300), 0)
            ImageDraw.Draw(im).text((30, 30), ch, font=font, fill=255)
            a = np.asarray(im)
            ys, xs = np.nonzero(a > 20)
            if len(xs) == 0:
                continue
            a = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
            # the glyph draws the tile outline: cut it off (keep the inside of the frame)
            h, w = a.shape
            a = _strip_outline(a)
            bgra = np.zeros(a.shape + (4,), np.uint8)
            bgra[:, :, 3] = a
            if code == "back":
                # a tile back glyph is hatched: make it an opaque dark-green back
                face = np.full(a.shape + (3,), (60, 120, 40), np.uint8)
                face = (face * (1 - a[:, :, None] / 255.0 * 0.5)).astype(np.uint8)
                faces.setdefault(code, []).append(face)
                continue
            faces.setdefault(code, []).append(bgra)
        out[f"unicode-{style}"] = faces
    return out


def _strip_outline(a: np.ndarray) -> np.ndarray:
    """Remove the rectangular tile outline that mahjong font glyphs draw around the face."""
    h, w = a.shape
    on = a > 100

    # scan inward from each side while the row/column is mostly 'on' (the outline) or just after it
    def inward(profile, n):
        i = 0
        while i < n // 4 and profile[i] > 0.5:
            i += 1
        while i < n // 4 and profile[i] > 0.02:
            i += 1
        return i

    top = inward(on.mean(1), h)
    bot = inward(on.mean(1)[::-1], h)
    left = inward(on.mean(0), w)
    right = inward(on.mean(0)[::-1], w)
    if top == 0 and left == 0:
        return a
    return a[top : h - bot, left : w - right]


# Chinese fonts installed on the machine (Debian fonts-arphic-ukai, fonts-arphic-uming,
# fonts-wqy-zenhei, fonts-wqy-microhei): character, wind, dragon, flower and season tiles
# typeset in several calligraphy styles and weights (real sets differ most in their lettering).
CJK_FONTS = {
    "ukai": "/usr/share/fonts/truetype/arphic/ukai.ttc",
    "uming": "/usr/share/fonts/truetype/arphic/uming.ttc",
    "zenhei": "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "microhei": "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
}
_NUMERALS = "一二三四伍六七八九"
_FLOWER_CHARS = "梅蘭菊竹春夏秋冬"


def _text_mask(font, ch: str, box_w: int, box_h: int, bold: int = 0) -> np.ndarray:
    """An L mask of ``ch`` fitted into box_w x box_h (aspect kept), optionally emboldened."""
    from PIL import Image, ImageDraw

    im = Image.new("L", (400, 400), 0)
    ImageDraw.Draw(im).text((50, 50), ch, font=font, fill=255)
    a = np.asarray(im)
    ys, xs = np.nonzero(a > 40)
    if len(xs) == 0:
        return np.zeros((box_h, box_w), np.uint8)
    a = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    if bold:
        a = cv2.dilate(a, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * bold + 1, 2 * bold + 1)))
    s = min(box_w / a.shape[1], box_h / a.shape[0])
    nw, nh = max(1, int(a.shape[1] * s)), max(1, int(a.shape[0] * s))
    a = cv2.resize(a, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((box_h, box_w), np.uint8)
    y0, x0 = (box_h - nh) // 2, (box_w - nw) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = a
    return out


def _paint(canvas: np.ndarray, mask: np.ndarray, x: int, y: int, color) -> None:
    h, w = mask.shape
    a = mask.astype(np.float32)[:, :, None] / 255
    roi = canvas[y : y + h, x : x + w]
    roi[:, :, :3] = (roi[:, :, :3] * (1 - a) + np.array(color, np.float32) * a).astype(np.uint8)
    roi[:, :, 3] = np.maximum(roi[:, :, 3], mask)


def _load_cjk_fonts() -> dict:
    try:
        from PIL import ImageFont
    except ImportError:
        _warn("Pillow missing: skipping CJK font tiles")
        return {}
    out = {}
    W, H = 96, 128
    RED, GREEN, BLUE, BLACK = (30, 30, 190), (40, 120, 20), (140, 50, 20), (25, 25, 25)
    for name, path in CJK_FONTS.items():
        if not Path(path).exists():
            continue
        font = ImageFont.truetype(path, 200)
        faces: dict = {}
        for bold in (0, 6):

            def new():
                return np.zeros((H, W, 4), np.uint8)

            for i, num in enumerate(_NUMERALS):
                for wan, ncol in (("萬", BLACK if bold else BLUE), ("万" if i % 2 else "萬", RED)):
                    g = new()
                    _paint(g, _text_mask(font, num, 70, 44, bold), 13, 6, ncol)
                    _paint(g, _text_mask(font, wan, 76, 66, bold), 10, 56, RED)
                    faces.setdefault(f"{i + 1}m", []).append(g)
            for j, ch in enumerate("東南西北"):
                for col in (BLACK, BLUE if bold else GREEN):
                    g = new()
                    _paint(g, _text_mask(font, ch, 80, 100, bold), 8, 14, col)
                    faces.setdefault(f"{j + 1}z", []).append(g)
            for ch, code, col in (("中", "7z", RED), ("發", "6z", GREEN), ("发", "6z", GREEN)):
                g = new()
                _paint(g, _text_mask(font, ch, 80, 100, bold), 8, 14, col)
                faces.setdefault(code, []).append(g)
            for j, ch in enumerate(_FLOWER_CHARS):
                g = new()
                col = (RED, BLUE, GREEN, BLACK)[j % 4]
                _paint(g, _text_mask(font, ch, 64, 80, bold), 16, 30, col)
                _paint(g, _text_mask(font, str(j % 4 + 1), 18, 24, 0), 72, 4, RED if j < 4 else BLUE)
                faces.setdefault(f"{j + 1}f", []).append(g)
        out[f"cjk-{name}"] = faces
    return out


# ---------------------------------------------------------------------------------------------


def load_artwork(data_dir: str | os.PathLike | None = None, use_cache: bool = True, verbose: bool = False) -> dict:
    """Every usable face image per class, grouped by style.

    Returns ``{style_name: {class_code: [uint8 BGR or BGRA image, ...]}}``. Cached in
    ``training/.cache/artwork_v{N}_{tools}.npz`` (``tools``: which optional renderers were there);
    pass ``use_cache=False`` to rebuild.
    """
    data = Path(data_dir) if data_dir else DEFAULT_DATA
    cache = CACHE_DIR / f"artwork_v{CACHE_VERSION}_{_tools_fingerprint()}.npz"
    if use_cache and cache.exists():
        return _load_cache(cache)
    out: dict = {}
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        out.update(load_fluffystuff(data))
        out.update(_load_kmahjongg(data, tmp))
        out.update(_load_ffalt(data, tmp))
        out.update(_load_gnome_smooth(data))
        out.update(_load_xmahjongg(data))
        out.update(_load_unicode_fonts(data))
        out.update(_load_cjk_fonts())
    if verbose:
        for style, faces in out.items():
            print(f"{style:26s} {len(faces):2d} classes {sum(map(len, faces.values())):3d} images")
    if out:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        _save_cache(cache, out)
    return out


def _tools_fingerprint() -> str:
    """Which optional renderers this machine has (``rsvg-convert``, Pillow, each CJK font): the artwork
    depends on them, so a cache built without them (a test run on a bare machine) is never
    reused where they are installed, and the benchmark's synthetic photos stay the same."""
    have = [
        shutil.which("rsvg-convert") is not None,
        importlib.util.find_spec("PIL") is not None,
        *(Path(p).exists() for p in CJK_FONTS.values()),
    ]
    return "".join("1" if h else "0" for h in have)


def _save_cache(path: Path, art: dict) -> None:
    arrays = {}
    for style, faces in art.items():
        for code, imgs in faces.items():
            for i, img in enumerate(imgs):
                arrays[f"{style}|{code}|{i}"] = img
    np.savez_compressed(path, **arrays)


def _load_cache(path: Path) -> dict:
    art: dict = {}
    with np.load(path) as z:
        for key in sorted(z.files, key=lambda k: (k.split("|")[0], k.split("|")[1], int(k.split("|")[2]))):
            style, code, _ = key.split("|")
            art.setdefault(style, {}).setdefault(code, []).append(z[key])
    return art


def by_class_style(art: dict) -> dict:
    """``{code: {style: [img, ...]}}`` (for sampling a style first, then one of its images)."""
    out: dict = {}
    for style, faces in art.items():
        for code, imgs in faces.items():
            out.setdefault(code, {})[style] = list(imgs)
    return out


def by_class(art: dict) -> dict:
    """Flatten ``{style: {code: [img]}}`` into ``{code: [(style, img), ...]}``."""
    out: dict = {}
    for style, faces in art.items():
        for code, imgs in faces.items():
            for img in imgs:
                out.setdefault(code, []).append((style, img))
    return out


def montage(art: dict, path: str, cell=(48, 64)) -> None:
    """Write a contact sheet (one row per style, one column per class) for checking the mapping."""
    rows = []
    for _style, faces in art.items():
        row = []
        for code in CLASSES:
            imgs = faces.get(code)
            c = np.full((cell[1], cell[0], 3), 128, np.uint8)
            if imgs:
                img = imgs[0]
                if img.shape[2] == 4:
                    a = img[:, :, 3:4].astype(np.float32) / 255
                    img = (img[:, :, :3] * a + 235 * (1 - a)).astype(np.uint8)
                c = cv2.resize(img, cell, interpolation=cv2.INTER_AREA)
            row.append(cv2.copyMakeBorder(c, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=(255, 0, 255)))
        rows.append(np.hstack(row))
    cv2.imwrite(path, np.vstack(rows))


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Build the artwork cache and a contact sheet")
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--montage", default=None)
    a = ap.parse_args()
    art = load_artwork(a.data, use_cache=not a.rebuild, verbose=True)
    if a.montage:
        montage(art, a.montage)
