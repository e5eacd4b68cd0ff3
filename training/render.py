"""Render tile-face artwork onto realistic synthetic mahjong tiles.

Reusable API (numpy + OpenCV only):

* :func:`render_tile_body` - one tile with its 3-D body (face, coloured back layer, thickness),
  lighting and glare, as a BGRA image with alpha plus the face quad; for composing synthetic
  scenes (e.g. a row of tiles on a table for the segmenter).
* :func:`render_tile` - an upright tile *crop* as a segmenter would produce it (rectified face,
  slightly loose/tight/offset box, some body and table visible at the edges), degraded by
  perspective jitter, small rotation, blur, noise and JPEG, resized to ``size``. This is what
  the classifier is trained on.
* :func:`blank_face` / :func:`random_face_color` / :func:`compose_face` - the building blocks.

Faces come from :mod:`training.artwork`: BGR opaque faces (with their own ground) or BGRA glyphs
on a transparent ground. ``face=None`` renders a blank face (the plain white dragon).
All randomness comes from the ``numpy.random.Generator`` passed in, so results are reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

__all__ = [
    "render_tile",
    "render_tile_body",
    "compose_face",
    "blank_face",
    "random_face_color",
    "random_back_color",
    "framed_white_dragon",
    "plain_back",
    "degrade",
    "strong_blur",
    "squashed",
    "quarter_turned",
    "TILE_ASPECT",
]

TILE_ASPECT = 0.75  # face width / height of a typical tile

_BACK_COLORS = [  # BGR tile back / thickness colours seen on real sets
    (60, 130, 40),
    (40, 100, 20),
    (90, 150, 60),  # greens
    (150, 90, 30),
    (120, 60, 10),
    (200, 140, 60),  # blues
    (40, 170, 230),
    (30, 140, 200),
    (60, 200, 240),  # yellows/orange
    (40, 40, 180),
    (60, 60, 210),
    (110, 70, 200),  # reds/pinks
    (180, 180, 180),
    (220, 225, 230),
    (120, 110, 100),  # white/grey
    (60, 80, 120),
    (40, 60, 90),  # brown/wood
    (140, 60, 120),
    (100, 140, 30),  # purple, teal
]


def random_face_color(rng: np.random.Generator) -> np.ndarray:
    """A BGR tile-face colour: ivory / cream / white / faintly tinted, as float32 array."""
    r = rng.random()
    if r < 0.45:  # ivory / cream
        c = np.array([rng.uniform(170, 225), rng.uniform(215, 245), rng.uniform(230, 252)])
    elif r < 0.9:  # white / light grey
        v = rng.uniform(205, 252)
        c = np.array([v, v, v]) + rng.uniform(-8, 8, 3)
    else:  # faint tint (greenish / bluish / pinkish plastics)
        c = rng.uniform(205, 240) + rng.uniform(-12, 12, 3)
    return np.clip(c, 0, 255).astype(np.float32)


def random_back_color(rng: np.random.Generator, coloured_only: bool = False) -> np.ndarray:
    """A BGR colour for a tile's back layer; ``coloured_only`` excludes white/grey backs (which a
    face-down tile could not be told from a blank white dragon by)."""
    choices = [c for c in _BACK_COLORS if not coloured_only or (max(c) - min(c) > 40)]
    c = np.array(choices[rng.integers(len(choices))], np.float32)
    return np.clip(c * rng.uniform(0.75, 1.2) + rng.uniform(-15, 15, 3), 0, 255).astype(np.float32)


def blank_face(h: int, w: int, color) -> np.ndarray:
    return np.full((h, w, 3), np.asarray(color, np.float32), np.float32)


def framed_white_dragon(rng: np.random.Generator, h: int = 128, w: int = 96) -> np.ndarray:
    """A BGRA glyph of a framed white dragon (blue or black rectangular frame), several variants."""
    img = np.zeros((h, w, 4), np.uint8)
    col = [(160, 60, 20), (200, 90, 30), (30, 30, 30), (120, 60, 40), (180, 120, 40)][rng.integers(5)]
    mx, my = int(w * rng.uniform(0.12, 0.22)), int(h * rng.uniform(0.1, 0.2))
    t = max(2, int(w * rng.uniform(0.04, 0.09)))
    cv2.rectangle(img, (mx, my), (w - mx, h - my), col + (255,), t)
    if rng.random() < 0.5:  # double frame
        t2 = max(1, t // 2)
        o = t + int(w * rng.uniform(0.03, 0.07))
        cv2.rectangle(img, (mx + o, my + o), (w - mx - o, h - my - o), col + (255,), t2)
    if rng.random() < 0.25:  # corner marks (as on some sets)
        for x, y in [(mx, my), (w - mx, my), (mx, h - my), (w - mx, h - my)]:
            cv2.circle(img, (x, y), t + 1, col + (255,), -1)
    return img


def plain_back(rng: np.random.Generator, h: int = 128, w: int = 96) -> np.ndarray:
    """A synthetic tile back (plain or faintly patterned, coloured) as BGR uint8."""
    c = random_back_color(rng, coloured_only=True)
    img = blank_face(h, w, c)
    if rng.random() < 0.4:  # subtle pattern
        pat: np.ndarray = rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
        pat = cv2.resize(pat, (w, h), interpolation=cv2.INTER_CUBIC)[:, :, None]
        img = img + pat * rng.uniform(3, 15)
    if rng.random() < 0.25:  # embossed logo-ish blob
        cv2.circle(img, (w // 2, h // 2), int(w * rng.uniform(0.15, 0.3)), (c * 0.8).tolist(), -1)
    return np.clip(img, 0, 255).astype(np.uint8)


def _recolor_mono(glyph: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Give a dark monochrome BGRA glyph a random ink colour (black, dark blue/green/red); light
    details inside the glyph stay light."""
    inks = [(20, 20, 20), (120, 50, 20), (40, 110, 30), (30, 30, 170), (60, 60, 60)]
    ink = np.array(inks[rng.integers(len(inks))], np.float32)
    g = glyph.copy()
    luma = cv2.cvtColor(glyph[:, :, :3], cv2.COLOR_BGR2GRAY).astype(np.float32)[:, :, None] / 255
    g[:, :, :3] = np.clip(ink * (1 - luma) + 255 * luma, 0, 255).astype(np.uint8)
    return g


def _is_mono(glyph: np.ndarray) -> bool:
    a = glyph[:, :, 3] > 128
    if a.sum() < 10:
        return True
    px = glyph[:, :, :3][a].astype(np.int16)
    return float((px.max(1) - px.min(1)).mean()) < 25 and float(px.mean()) < 90


def compose_face(face, rng: np.random.Generator, h: int, w: int, face_color=None, recolor: bool = True) -> np.ndarray:
    """Compose artwork onto a face of ``h`` x ``w`` pixels; returns a float32 BGR face.

    ``face``: BGRA glyph (placed with a random margin onto a plain ``face_color`` ground), BGR
    opaque face (resized to fill, its ground colour shifted towards ``face_color`` when
    ``recolor``), or ``None`` (blank face).
    """
    if face_color is None:
        face_color = random_face_color(rng)
    base = blank_face(h, w, face_color)
    if face is None:
        return base
    if face.ndim == 3 and face.shape[2] == 4:
        glyph = face
        if _is_mono(glyph) and rng.random() < 0.6:
            glyph = _recolor_mono(glyph, rng)
        gh, gw = glyph.shape[:2]
        mx = rng.uniform(0.06, 0.16)
        my = rng.uniform(0.05, 0.13)
        s = min(w * (1 - 2 * mx) / gw, h * (1 - 2 * my) / gh)
        s *= rng.uniform(0.85, 1.0)
        nw, nh = max(2, int(gw * s)), max(2, int(gh * s))
        g = cv2.resize(glyph, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        x0 = int((w - nw) / 2 + rng.uniform(-0.04, 0.04) * w)
        y0 = int((h - nh) / 2 + rng.uniform(-0.04, 0.04) * h)
        x0 = int(np.clip(x0, 0, w - nw))
        y0 = int(np.clip(y0, 0, h - nh))
        a = g[:, :, 3:4].astype(np.float32) / 255.0
        roi = base[y0 : y0 + nh, x0 : x0 + nw]
        base[y0 : y0 + nh, x0 : x0 + nw] = roi * (1 - a) + g[:, :, :3].astype(np.float32) * a
        return base
    # opaque face: optionally trim, then fill
    fh, fw = face.shape[:2]
    t = rng.uniform(0, 0.04, 4)
    f = face[int(t[0] * fh) : fh - int(t[1] * fh), int(t[2] * fw) : fw - int(t[3] * fw)]
    f = cv2.resize(f, (w, h), interpolation=cv2.INTER_AREA if f.shape[0] > h else cv2.INTER_LINEAR)
    f = f.astype(np.float32)
    if recolor and rng.random() < 0.7:
        border = np.concatenate(
            [f[:3].reshape(-1, 3), f[-3:].reshape(-1, 3), f[:, :3].reshape(-1, 3), f[:, -3:].reshape(-1, 3)]
        )
        bg = np.median(border, 0)
        if bg.min() > 120:  # a light ground: move it towards the target face colour
            f = f * (np.asarray(face_color, np.float32) / np.maximum(bg, 1))
    return np.clip(f, 0, 255)


def _rounded_mask(h: int, w: int, r: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(1, min(r, h // 2 - 1, w // 2 - 1))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def _lighting(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Linear lighting gradient, optional soft shadow band and specular glare (float32 BGR in/out)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    d = np.cos(ang) * (xx / w - 0.5) + np.sin(ang) * (yy / h - 0.5)
    gain = 1 + d * rng.uniform(0, 0.5) * strength
    gain *= rng.uniform(0.55, 1.15) if strength > 0 else 1
    out = img * gain[:, :, None]
    # colour cast of the light
    out = out * rng.uniform(0.92, 1.06, 3).astype(np.float32)
    if rng.random() < 0.3 * strength:  # shadow edge across the tile
        ang2 = rng.uniform(0, 2 * np.pi)
        d2 = np.cos(ang2) * (xx / w - 0.5) + np.sin(ang2) * (yy / h - 0.5) - rng.uniform(-0.3, 0.3)
        soft = rng.uniform(0.02, 0.15)
        sh = 1 - rng.uniform(0.15, 0.5) / (1 + np.exp(-d2 / soft))
        out = out * sh[:, :, None]
    if rng.random() < 0.35 * strength:  # glare blob
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.08, 0.4) * w, rng.uniform(0.05, 0.3) * h
        g = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
        out = out + g[:, :, None] * rng.uniform(40, 160)
    return out


def render_tile_body(
    face,
    rng: np.random.Generator,
    face_h: int = 128,
    *,
    face_color=None,
    back_color=None,
    aspect: float | None = None,
    light: bool = True,
    thickness: tuple[float, float, float] | None = None,
):
    """Render one tile with a visible 3-D body, upright, on a transparent ground.

    Returns ``(bgra, quad)``: ``bgra`` is a uint8 BGRA image (alpha = the tile's silhouette) and
    ``quad`` a float32 4x2 array with the face corners (TL, TR, BR, BL) in that image. The body is
    drawn as a face-coloured layer plus a coloured back layer offset in a random direction, as a
    tile seen slightly from one side looks; ``thickness``, when given, is that offset ``(dx, dy)``
    in face heights and the face-coloured part of it (tiles of one photo share it).
    """
    if aspect is None:
        aspect = rng.uniform(0.68, 0.82)
    fh = int(face_h)
    fw = max(8, int(round(fh * aspect)))
    if face_color is None:
        face_color = random_face_color(rng)
    if back_color is None:
        back_color = random_back_color(rng)
    facei = compose_face(face, rng, fh, fw, face_color)
    # body offsets: total thickness visible towards a random direction (mostly down / sideways)
    if thickness is None:
        thickness = body_thickness(rng, 0.28)
    dx, dy, frac = thickness[0] * fh, thickness[1] * fh, thickness[2]
    thick = float(np.hypot(dx, dy))
    pad = int(thick) + 4
    H, W = fh + 2 * pad, fw + 2 * pad
    out = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    r = int(fw * rng.uniform(0.06, 0.16))
    mask = _rounded_mask(fh, fw, r).astype(np.float32) / 255
    side_col = np.asarray(face_color, np.float32) * rng.uniform(0.7, 0.95)
    layers = []
    n_steps = int(np.clip(thick / 2, 1, 8))
    for i in range(n_steps, 0, -1):  # from the farthest layer to the nearest
        t = i / n_steps
        col = back_color if t > frac else side_col
        shade = 0.8 + 0.2 * (1 - t)
        layers.append((dx * t, dy * t, np.asarray(col, np.float32) * shade))
    x0, y0 = pad, pad
    for ox, oy, col in layers:
        xs, ys = int(round(x0 + ox)), int(round(y0 + oy))
        sl = (slice(ys, ys + fh), slice(xs, xs + fw))
        m = mask[:, :, None]
        out[sl] = out[sl] * (1 - m) + col * m
        alpha[sl] = np.maximum(alpha[sl], mask)
    # face on top, with a slight edge bevel darkening
    bevel = cv2.GaussianBlur(mask, (0, 0), max(1.0, fw * 0.03))
    f = facei * (0.85 + 0.15 * bevel[:, :, None])
    sl = (slice(y0, y0 + fh), slice(x0, x0 + fw))
    m = mask[:, :, None]
    out[sl] = out[sl] * (1 - m) + f * m
    alpha[sl] = np.maximum(alpha[sl], mask)
    if light:
        out = _lighting(out, rng)
    bgra = np.dstack([np.clip(out, 0, 255), alpha * 255]).astype(np.uint8)
    quad = np.array([[x0, y0], [x0 + fw, y0], [x0 + fw, y0 + fh], [x0, y0 + fh]], np.float32)
    return bgra, quad


def body_thickness(rng: np.random.Generator, most: float) -> tuple[float, float, float]:
    """A tile body's visible thickness for :func:`render_tile_body`: its offset ``(dx, dy)`` in face
    heights, up to ``most`` long towards a random direction (mostly down or sideways), and the
    face-coloured (ivory) part of it, the rest being the back's colour."""
    ang = rng.uniform(0, 2 * np.pi)
    thick = rng.uniform(0.0, most)
    dx, dy = np.cos(ang) * thick, abs(np.sin(ang)) * thick * rng.choice([1, 1, 1, -1])
    return float(dx), float(dy), float(rng.uniform(0.35, 0.7))


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Table / cloth / wood-ish background (float32 BGR)."""
    c = rng.uniform(20, 230, 3)
    if rng.random() < 0.35:  # green felt
        c = np.array([rng.uniform(30, 90), rng.uniform(90, 170), rng.uniform(20, 80)])
    bg = np.empty((h, w, 3), np.float32)
    bg[:] = c
    k = rng.integers(2, 24)
    noise: np.ndarray = rng.normal(0, 1, (h // k + 2, w // k + 2, 1)).astype(np.float32)
    noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    if noise.ndim == 2:
        noise = noise[:, :, None]
    return bg + noise * rng.uniform(0, 25)


#: the sides a neighbouring tile can lie on (:func:`render_tile`)
SIDES = ("left", "right", "above", "below")
#: the gap between touching faces, as a share of the face's side across it (besides the bodies)
NEIGHBOUR_GAP = (0.0, 0.04)
#: the most thickness touching tiles show, in face heights (a row seen from above shows little)
NEIGHBOUR_THICKNESS = 0.12
#: how far a neighbour is offset along the shared side, as a share of that side
NEIGHBOUR_SLIP = 0.05
#: how far the crop's box strays towards a neighbour, as a share of the face's side across
NEIGHBOUR_STRAY = (0.02, 0.10)
#: the unit step (x, y) towards each side
TOWARD = {
    "left": np.array([-1.0, 0.0]),
    "right": np.array([1.0, 0.0]),
    "above": np.array([0.0, -1.0]),
    "below": np.array([0.0, 1.0]),
}


def render_tile(
    face,
    rng: np.random.Generator,
    size=(48, 64),
    *,
    face_color=None,
    back_color=None,
    augment: bool = True,
    face_h: int | None = None,
    neighbours: Sequence[tuple[str, object]] = (),
) -> np.ndarray:
    """An upright tile crop as a segmenter would hand it to the classifier (uint8 BGR, ``size`` =
    (width, height)).

    The tile (see :func:`render_tile_body`) is pasted on a random table background, seen under a
    small random perspective/rotation, then cropped around its face with a jittered box (loose,
    tight or offset by a few percent, as rectification produces) and rectified back to upright.
    With ``augment`` it is also blurred, noised and JPEG-compressed.

    ``neighbours``, ``(side, face)`` pairs with ``side`` one of :data:`SIDES`: tiles of the same set
    (face and back colours, size) laid against this one on those sides first (:func:`_laid_beside`),
    as in a hand's row or a tray, so that a box a little too large or off shows a sliver of the
    next tile's face and edge, as the finder's boxes of touching tiles do.
    """
    W, H = size
    if face_h is None:
        face_h = int(rng.uniform(0.8, 1.5) * H) if augment else int(1.25 * H)
    # (drawn in render_tile_body's order, so that a tile alone comes out as it always did)
    aspect = float(rng.uniform(0.68, 0.82))
    if face_color is None:
        face_color = random_face_color(rng)
    if back_color is None:
        back_color = random_back_color(rng)
    body = {"face_color": face_color, "back_color": back_color, "aspect": aspect, "light": augment}
    if neighbours:  # (touching tiles seen alike: the same body showing the same way)
        body["thickness"] = body_thickness(rng, NEIGHBOUR_THICKNESS)
    tile, quad = render_tile_body(face, rng, face_h, **body)
    th, tw = tile.shape[:2]
    m = int(0.3 * max(th, tw))
    bg = _background(rng, th + 2 * m, tw + 2 * m)
    for side, other in neighbours:
        _laid_beside(bg, quad + m, side, render_tile_body(other, rng, face_h, **body), body["thickness"], rng)
    a = tile[:, :, 3:4].astype(np.float32) / 255
    # soft drop shadow
    if augment and rng.random() < 0.6:
        sh = cv2.GaussianBlur(tile[:, :, 3].astype(np.float32) / 255, (0, 0), max(1, tw * 0.04))
        ox, oy = rng.integers(-tw // 10, tw // 10 + 1, 2)
        region = bg[m + oy : m + oy + th, m + ox : m + ox + tw]
        region *= 1 - sh[:, :, None] * rng.uniform(0.2, 0.6)
    region = bg[m : m + th, m : m + tw]
    bg[m : m + th, m : m + tw] = region * (1 - a) + tile[:, :, :3].astype(np.float32) * a
    q = quad + m
    # the segmenter's estimate of the face quad: jittered corners (loose/tight/offset)
    fw, fh = q[1, 0] - q[0, 0], q[3, 1] - q[0, 1]
    if augment:
        grow = rng.uniform(-0.06, 0.10)
        shift = rng.uniform(-0.06, 0.06, 2)
        if neighbours:  # (a box over touching tiles strays onto one of them)
            toward = TOWARD[neighbours[int(rng.integers(len(neighbours)))][0]]
            shift = shift * (toward == 0) + toward * rng.uniform(*NEIGHBOUR_STRAY)
        c = q.mean(0) + shift * [fw, fh]
        est = c + (q - q.mean(0)) * (1 + grow)
        est = est + rng.normal(0, 0.02, (4, 2)) * [fw, fh]
        # small in-plane rotation error of the rectification
        ang = np.deg2rad(rng.uniform(-6, 6))
        R = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
        est = (est - c) @ R.T + c
    else:
        est = q
    dst = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    Mp = cv2.getPerspectiveTransform(est.astype(np.float32), dst)
    img = cv2.warpPerspective(
        np.clip(bg, 0, 255).astype(np.uint8), Mp, (W, H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    if augment:
        img = degrade(img, rng)
    return img


def _laid_beside(
    bg: np.ndarray,
    quad: np.ndarray,
    side: str,
    other: tuple[np.ndarray, np.ndarray],
    thickness: tuple[float, float, float],
    rng: np.random.Generator,
) -> None:
    """Paste ``other`` (a :func:`render_tile_body` result drawn with ``thickness``, as the tile of
    ``quad``) into ``bg`` (float32, in place) so its face lies against the face ``quad`` (upright,
    ``bg`` pixels) on ``side``, as touching tiles lie: the bodies' thickness that way and a small gap
    between the faces; what falls outside ``bg`` is cut off."""
    tile, oq = other
    fw, fh = quad[1, 0] - quad[0, 0], quad[3, 1] - quad[0, 1]
    across = fw if side in ("left", "right") else fh
    # (between the faces: the body showing that way, one tile's or the other's)
    body = abs(thickness[0] if side in ("left", "right") else thickness[1]) * fh
    gap = rng.uniform(*NEIGHBOUR_GAP) * across + body
    slip = rng.uniform(-NEIGHBOUR_SLIP, NEIGHBOUR_SLIP)
    ow, oh = oq[1, 0] - oq[0, 0], oq[3, 1] - oq[0, 1]
    x, y = quad[0]  # where the neighbour's face corner goes
    if side == "left":
        x, y = x - gap - ow, y + slip * fh
    elif side == "right":
        x, y = x + fw + gap, y + slip * fh
    elif side == "above":
        x, y = x + slip * fw, y - gap - oh
    else:
        x, y = x + slip * fw, y + fh + gap
    x0, y0 = int(round(x - oq[0, 0])), int(round(y - oq[0, 1]))
    h, w = tile.shape[:2]
    bx0, by0, bx1, by1 = max(0, x0), max(0, y0), min(bg.shape[1], x0 + w), min(bg.shape[0], y0 + h)
    if bx0 >= bx1 or by0 >= by1:
        return
    part = tile[by0 - y0 : by1 - y0, bx0 - x0 : bx1 - x0].astype(np.float32)
    a = part[:, :, 3:4] / 255
    region = bg[by0:by1, bx0:bx1]
    region[:] = region * (1 - a) + part[:, :, :3] * a


def strong_blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Heavy camera blur of a uint8 crop, as in a photo taken by hand in dim light or out of focus:
    a motion streak 8-25 % of the crop's width long at any angle (two times in three), else a
    defocus of 3-6 % of its width (Gaussian sigma)."""
    w = img.shape[1]
    if rng.random() < 2 / 3:
        n = max(3, int(round(w * rng.uniform(0.08, 0.25))))
        line = np.zeros((n, n), np.float32)
        line[n // 2, :] = 1
        rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1.0)
        streak = cv2.warpAffine(line, rot, (n, n))
        streak = (streak / max(float(streak.sum()), 1e-6)).astype(np.float32)
        return cv2.filter2D(img, -1, streak, borderType=cv2.BORDER_REFLECT)
    return cv2.GaussianBlur(img, (0, 0), w * float(rng.uniform(0.03, 0.06)))


#: a face seen small as well as at a slant (:func:`squashed`) is first this share of the crop's size
SEEN_SMALL = (0.4, 0.75)


def squashed(img: np.ndarray, rng: np.random.Generator, small: float = 0.0) -> np.ndarray:
    """A uint8 face crop as the recogniser's upright crop of a face seen at a slant shows it (a photo
    taken from a seat at the table, :mod:`training.viewpoint`): squashed to ``cos t`` of its height
    by the camera (``t`` 30-65 degrees off straight above) and stretched back by the crop, so only
    the squat face's detail is left; along the face's width one time in three (a lying tile's
    crop, seen across the photo the other way). A ``small`` share of the crops is also seen small,
    at :data:`SEEN_SMALL` of the crop's size before the slant squashes it: a tile at the far end of
    a row or a rack, seen from a seat, whose squat face is some 15-30 pixels high in the photo (where
    a two-stroke character reads as three)."""
    h, w = img.shape[:2]
    f = float(np.cos(np.radians(rng.uniform(30, 65))))
    s = float(rng.uniform(*SEEN_SMALL)) if small > 0 and rng.random() < small else 1.0
    fx, fy = (s, s * f) if rng.random() < 2 / 3 else (s * f, s)
    size = (max(4, round(w * fx)), max(4, round(h * fy)))
    return cv2.resize(cv2.resize(img, size, interpolation=cv2.INTER_AREA), (w, h), interpolation=cv2.INTER_LINEAR)


def quarter_turned(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uint8 face crop turned a quarter, either way, and fitted into the upright crop's box
    (squashed across, stretched along): what the recogniser's crop of a squarish or slanted tile
    holds when it is read the wrong way round; seen at a slant before it is turned one time in two
    (:func:`squashed`)."""
    h, w = img.shape[:2]
    face = squashed(img, rng) if rng.random() < 0.5 else img
    turned = cv2.rotate(face, cv2.ROTATE_90_CLOCKWISE if rng.random() < 0.5 else cv2.ROTATE_90_COUNTERCLOCKWISE)
    return cv2.resize(turned, (w, h), interpolation=cv2.INTER_AREA if h < turned.shape[0] else cv2.INTER_LINEAR)


def degrade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Camera-like degradation of a uint8 BGR crop: blur, noise, down/up-sampling, JPEG."""
    h, w = img.shape[:2]
    out = img
    r = rng.random()
    if r < 0.3:
        s = rng.uniform(0.3, 1.2)
        out = cv2.GaussianBlur(out, (0, 0), s)
    elif r < 0.45:  # motion blur
        k = int(rng.integers(2, 5))
        ker = np.zeros((k, k), np.float32)
        if rng.random() < 0.5:
            ker[k // 2, :] = 1
        else:
            ker[:, k // 2] = 1
        out = cv2.filter2D(out, -1, ker / ker.sum())
    if rng.random() < 0.3:  # low resolution source
        f = rng.uniform(0.4, 0.8)
        small = cv2.resize(out, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        out = np.clip(out.astype(np.float32) + rng.normal(0, rng.uniform(1, 8), out.shape), 0, 255)
        out = out.astype(np.uint8)
    if rng.random() < 0.5:
        q = int(rng.integers(35, 95))
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out
