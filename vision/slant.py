"""A photo taken from a seat at the table: how much squatter its tile faces look, and the photo
stretched back to their true shape.

A player photographs a winning hand from their seat, the phone some 30-60 degrees off straight
above. The table's depth then runs up the photo, shortened: a face 0.75 as wide as high, seen
``t`` degrees off straight above, looks ``0.75 / cos t`` as wide as high (1.06 at 45 degrees,
1.31 at 55), and a tile lying at a diagonal looks like a parallelogram, whose crop, cut by a
rectangle, shows its face sheared and its neighbours' edges. The finder learnt faces seen from
above, and both cost: on the labelled real photos seen at 55 degrees, 88 % of the tiles were read.

Stretching the photo up and down by ``1 / cos t`` undoes the shortening (near enough: a phone is
held far enough from the hand that the far tiles are hardly smaller than the near ones), and in the
stretched photo the faces are rectangles of their true shape again. The camera's tilt always runs
up the photo, whether it is held upright or sideways (its picture is turned by its EXIF orientation
before this), so one number says it all: the *stretch*.

The stretch is measured on the tiles a first reading read (:func:`stretch_of`): the classifier
settled which way each face is up, and a face's width over its height, once the photo is
stretched right, is :data:`~vision.finders.geometry.FACE_ASPECT`. A photo taken from above
measures 1.0-1.1 (:data:`MIN_STRETCH` is where a second look starts).
"""

from __future__ import annotations

import cv2
import numpy as np

from .finders.geometry import FACE_ASPECT

#: the stretches tried (a face seen up to 60 degrees off straight above needs 2.0)
STRETCHES = tuple(round(1.0 + 0.05 * i, 2) for i in range(21))
#: a photo whose faces need at least this stretch is read again stretched (a tilt of about 30 degrees)
MIN_STRETCH = 1.15
#: a photo whose every tile a first reading read surely (but for those never sure: flowers) is read
#: again only when its faces need at least this stretch (about 48 degrees): below it the finder
#: finds faces as they are, and on the labelled real photos seen at 30, 45 and 55 degrees and the
#: b11 photos, 17 second readings of such photos gained nothing, and none gained
SURE_READ_AGAIN_FROM = 1.5
#: the stretch is measured on at least this many faces ...
MIN_FACES = 3
#: ... read at least this surely (calibrated confidence), face-down tiles left out (a back has no up)
FACE_CONFIDENCE = 0.8


def stretch_of(faces: list[np.ndarray]) -> float:
    """The stretch up and down (one of :data:`STRETCHES`) that makes the upright faces ``faces``
    (4x2 quads, corner 0 the face's top-left, corners clockwise) their true shape: the one whose
    median face, stretched, is nearest :data:`FACE_ASPECT` as wide as high (a log ratio). 1.0 when
    there are fewer than :data:`MIN_FACES` faces. A face turned a quarter (a tile lying across the
    row) comes out wider as the photo is stretched, an upright one narrower, and a tile at a diagonal
    changes little: each tells the stretch as far as its turn allows, and the median settles it."""
    if len(faces) < MIN_FACES:
        return 1.0
    q = np.asarray(faces, np.float64).reshape(-1, 4, 2)
    across, up = q[:, 1] - q[:, 0], q[:, 0] - q[:, 3]
    k = np.asarray(STRETCHES)[:, None]
    width = np.hypot(across[None, :, 0], k * across[None, :, 1])
    height = np.hypot(up[None, :, 0], k * up[None, :, 1])
    off = np.median(np.abs(np.log(width / np.maximum(height, 1e-6) / FACE_ASPECT)), axis=1)
    return float(STRETCHES[int(np.argmin(off))])


#: the part of the photo read again reaches this many tile widths beyond the tiles read at first
REACH = 2.0
#: ... and is narrowed (rather than stretched) only as far as leaves its tiles this wide (pixels):
#: the finder sees the seams between touching tiles from about 20
MIN_TILE_PX = 32.0


def tile_width(quads: list[np.ndarray]) -> float:
    """The median short side of ``quads`` (4x2)."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    return float(
        np.median(np.minimum(np.linalg.norm(q[:, 1] - q[:, 0], axis=1), np.linalg.norm(q[:, 3] - q[:, 0], axis=1)))
    )


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


def straightened(img: np.ndarray, stretch: float, tile_px: float) -> tuple[np.ndarray, float, float]:
    """``img`` resized so that it comes out ``stretch`` times as high for its width as it is: its
    faces take their true shape. It is narrowed side to side as far as that goes, as long as its
    tiles (``tile_px`` wide) stay :data:`MIN_TILE_PX` wide, and stretched up and down for the rest:
    the finder then looks at fewer pixels (the classifier's crops are cut from the photo as it is,
    see :func:`vision.finders.geometry.with_crops`). Also the factors its whole pixel columns and
    rows come to (which map its pixels back: ``x / kx``, ``y / ky``)."""
    h, w = img.shape[:2]
    across = min(1.0, max(1.0 / stretch, MIN_TILE_PX / max(tile_px, 1e-6)))
    cols, rows = max(1, int(round(w * across))), max(1, int(round(h * across * stretch)))
    out = cv2.resize(img, (cols, rows), interpolation=cv2.INTER_AREA if rows <= h else cv2.INTER_LINEAR)
    return out, cols / w, rows / h
