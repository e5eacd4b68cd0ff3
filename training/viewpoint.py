"""A photo of tiles lying on a table as a player sitting at the table would take it: at a slant.

The labelled real photos were taken from straight above, or nearly. A player photographs a winning
hand from their seat, the phone some 30-60 degrees off straight above: the far side of the table
comes out smaller than the near side, and every tile comes out squatter than it is (a face 0.75 as
wide as high, seen ``t`` degrees off straight above, looks ``0.75 / cos t`` as wide as high).

:func:`seen_from` treats a photo taken from above as the table itself and looks at it through a
pinhole camera turned ``degrees`` off straight above, from its bottom side, about one and a half
table widths away (a phone held at a seat): the plane's true homography, not a keystone of the
image corners (which keeps tiles as tall as they were). :func:`slanted` does that to labelled photos
for the benchmark's table (c3): their labels stay true, since the rows keep their order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import cv2
import numpy as np

#: the camera's distance from the table's centre, in the photo's long sides
DISTANCE = 1.3
JPEG_QUALITY = 90


def seen_from(img: np.ndarray, degrees: float, distance: float = DISTANCE) -> np.ndarray:
    """``img`` (a photo of the table from straight above) seen by a pinhole camera ``degrees`` off
    straight above, from the photo's bottom side, ``distance`` long sides from its centre and aimed
    at it: the far (top) side smaller and every tile squatter. The view is scaled to fit the
    photo's size (the long side of its bounding box at most the photo's own); what the camera sees
    beyond the photo is the photo's median edge colour (more table: repeating the edge pixels
    would stretch a tile cut by the photo's edge into a blank tile)."""
    h, w = img.shape[:2]
    a = np.radians(degrees)
    d = distance * max(h, w)
    eye = np.array([0.0, d * np.sin(a), d * np.cos(a)])  # the table's centre at the origin, z up
    z = -eye / np.linalg.norm(eye)  # the camera looks at the centre
    x = np.array([1.0, 0.0, 0.0])
    y = np.cross(x, z)  # image down: towards the near side (so no mirror image)
    rot = np.stack([x, y, z])
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    cam = (np.c_[corners - [w / 2, h / 2], np.zeros(4)] - eye) @ rot.T
    seen = cam[:, :2] / cam[:, 2:3]
    lo, hi = seen.min(0), seen.max(0)
    seen = (seen - lo) * min(w / (hi - lo)[0], h / (hi - lo)[1])
    size = (int(np.ceil(seen[:, 0].max())), int(np.ceil(seen[:, 1].max())))
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), seen.astype(np.float32))
    edge = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]).reshape(-1, img.shape[2] if img.ndim == 3 else 1)
    fill = tuple(float(v) for v in np.median(edge, axis=0))
    return cv2.warpPerspective(img, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


def slanted(
    labelled: Iterable[tuple[str, bytes, list[str]]], angles: Iterable[float]
) -> Iterator[tuple[float, str, bytes, list[str]]]:
    """Each labelled photo ``(name, image bytes, labels)`` seen from each of ``angles`` degrees off
    straight above (:func:`seen_from`): ``(angle, name, JPEG bytes, labels)``."""
    photos = [(name, cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR), gt) for name, raw, gt in labelled]
    for angle in angles:
        for name, img, gt in photos:
            ok, buf = cv2.imencode(".jpg", seen_from(img, angle), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if ok:
                yield angle, name, buf.tobytes(), gt
