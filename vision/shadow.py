"""A shadow cast across part of a hand: measured on the tile faces, and lifted before the tiles
are found.

A player photographing a hand under a lamp often shades part of it with the phone or an arm. The
faces in the shadow are as ivory as the others, only darker, several times so. The finder learned
shadows only as soft darkenings: a look that sees the tiles small (the size it aims at) takes a
deeply shaded face for the table, and its boxes stop at the shadow's edge or straddle two tiles.
The classifier is not the weak part: cut at the right place, a shaded tile reads as well as a lit
one (session 51: 1,201 of 1,201 boxes of the labelled photos read right with the shadow cast).

So the light falling on the faces is measured where the finder's face map marks faces of an
ivory or white ground (:func:`light_on_faces`): at each face pixel, the brightest pixel within half a tile (a face's
ground, its ink left out), averaged over about a tile round each place (a shadow's edge blurs over
a tile or so), and where no face is that near, over four tiles. Where that light is under the lit
faces' (their :data:`LIT_PERCENTILE`) by :data:`SHADED_GAIN` or more on :data:`SHADED_SHARE` of
the face pixels or more, the photo is shaded in part, and every pixel is lifted by the gain that
brings its faces to the lit faces' light (at most :data:`GAIN_MAX`; never darkened): a shaded face
and the table round it come out as they would lit (:func:`lifted`). A photo lit evenly, or dim all
over, has no part to lift and is read as it is.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from .photo import Photo

#: a pixel of the finder's face map marks a face at this probability or more
FACE_MARK = 0.4
#: ... where its colour's saturation (the spread of its channels over the largest) is at most this:
#: an ivory or white ground, lit or shaded (ivory 0.15, a cream one about 0.35), not a brown wood, a
#: green cloth or a coloured back the face map marks in places (a wooden table's grain, 0.5-0.7)
FACE_SATURATION_MAX = 0.4
#: the light of the lit faces: this percentile of the faces' light (the brightest pixel within half
#: a tile of each face pixel)
LIT_PERCENTILE = 90
#: a face is shaded where its light is this many times under the lit faces' or more (the benchmark's
#: shadows, 0.6, 0.45 and 0.3 times the light; a phone's vignetting leaves the corners about 0.7)
SHADED_GAIN = 1.6
#: ... and a photo is shaded in part where this share of the face pixels are
SHADED_SHARE = 0.05
#: the most a pixel is lifted by (a shadow 0.25 times the light)
GAIN_MAX = 4.0
#: the light is averaged over this many tile widths round a place (a Gaussian's sigma), and where
#: the faces there weigh under :data:`NEAR_WEIGHT`, over :data:`FAR_TILES` (a place between groups)
NEAR_TILES = 1.0
FAR_TILES = 4.0
NEAR_WEIGHT = 0.05
#: ... and where they weigh under this even then, the place is not lifted (the room beyond the tiles)
FAR_WEIGHT = 0.01
#: the light is averaged on a grid where a tile is this many pixels wide
COARSE_TILE_PX = 4.0
#: fewer face pixels than this measure nothing
FACE_PIXELS_MIN = 20


def light_on_faces(img: np.ndarray, face: np.ndarray, scale: float, tile_px: float) -> np.ndarray | None:
    """The gain that brings each place of ``img`` (BGR uint8, working pixels) to the light of the lit
    faces, at the face map's size (``face``: the finder's face probabilities, ``scale`` working
    pixels a map pixel; ``tile_px``: the tiles' width, working pixels), 1 where the light is the lit
    faces' or more, or where no face is near; ``None`` where the photo is not shaded in part
    (:data:`SHADED_GAIN`, :data:`SHADED_SHARE`)."""
    h, w = face.shape[:2]
    if int(np.count_nonzero(face >= FACE_MARK)) < FACE_PIXELS_MIN:
        return None
    # (shrunk by a whole factor first, OpenCV's fast averaging, then to the map's size)
    k = max(1, img.shape[1] // w, img.shape[0] // h)
    hk, wk = img.shape[0] // k, img.shape[1] // k
    b, g, r = cv2.split(cv2.resize(img[: hk * k, : wk * k], (wk, hk), interpolation=cv2.INTER_AREA))
    most, least = cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)
    value, floor = (cv2.resize(m, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32) for m in (most, least))
    # (a face's ground is ivory or white, in a shadow too: a shadow darkens, it does not colour)
    pale = (value - floor) <= FACE_SATURATION_MAX * np.maximum(value, 1.0)
    marked = ((face >= FACE_MARK) & pale).astype(np.float32)
    if marked.sum() < FACE_PIXELS_MIN:
        return None
    tile = max(tile_px / scale, 2.0)  # (a tile's width, map pixels)
    half = max(3, int(round(tile / 2)) | 1)
    ground = cv2.dilate(value * marked, np.ones((half, half), np.uint8)) * marked  # (a face's ground, no ink)
    lit = float(np.percentile(ground[marked > 0], LIT_PERCENTILE))
    # (averaged where a tile is COARSE_TILE_PX wide: the light varies over a tile or more)
    f = min(1.0, COARSE_TILE_PX / tile)
    size = (max(1, round(w * f)), max(1, round(h * f)))
    ground_c, marked_c = (cv2.resize(m, size, interpolation=cv2.INTER_AREA) for m in (ground, marked))

    def averaged(tiles: float) -> tuple[np.ndarray, np.ndarray]:
        sigma = tiles * tile * f
        return cv2.GaussianBlur(ground_c, (0, 0), sigma), cv2.GaussianBlur(marked_c, (0, 0), sigma)

    (near, near_w), (far, far_w) = averaged(NEAR_TILES), averaged(FAR_TILES)
    light = np.where(
        near_w > NEAR_WEIGHT,
        near / np.maximum(near_w, 1e-6),
        np.where(far_w > FAR_WEIGHT, far / np.maximum(far_w, 1e-6), 0.0),
    )
    gain_c = np.where(light > 0, np.clip(lit / np.maximum(light, 1e-3), 1.0, GAIN_MAX), 1.0).astype(np.float32)
    gain = cv2.resize(gain_c, (w, h), interpolation=cv2.INTER_LINEAR)
    if float((gain[marked > 0] >= SHADED_GAIN).mean()) < SHADED_SHARE:
        return None
    return gain


def lifted(ph: Photo, gain: np.ndarray) -> Photo:
    """``ph`` with every pixel of its working image and its detail image times ``gain`` (a map of
    any size over the same framing, :func:`light_on_faces`), clipped at white."""

    def lift(img: np.ndarray) -> np.ndarray:
        g = cv2.resize(gain, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
        return np.clip(img.astype(np.float32) * g[:, :, None], 0, 255).astype(np.uint8)

    return dataclasses.replace(ph, image=lift(ph.image), detail=None if ph.detail is None else lift(ph.detail))
