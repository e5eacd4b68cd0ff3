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


def stretched(img: np.ndarray, stretch: float) -> tuple[np.ndarray, float]:
    """``img`` stretched up and down by ``stretch`` (linear interpolation), and the stretch its
    whole pixel rows come to (which maps its pixels back: ``y / that``)."""
    h, w = img.shape[:2]
    rows = max(1, int(round(h * stretch)))
    return cv2.resize(img, (w, rows), interpolation=cv2.INTER_LINEAR), rows / h
