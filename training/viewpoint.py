"""A photo of tiles lying on a table as a player sitting at the table would take it: at a slant.

The labelled real photos were taken from straight above, or nearly. A player photographs a winning
hand from their seat, the phone some 30-60 degrees off straight above: the far side of the table
comes out smaller than the near side, and every tile comes out squatter than it is (a face 0.75 as
wide as high, seen ``t`` degrees off straight above, looks ``0.75 / cos t`` as wide as high).

:func:`seen_from` treats a photo taken from above as the table itself and looks at it through a
pinhole camera turned ``degrees`` off straight above, from its bottom side, about one and a half
table widths away (a phone held at a seat): the plane's true homography, not a keystone of the
image corners (which keeps tiles as tall as they were). :func:`slanted` does that to labelled photos
for the benchmark's table (c3): their labels stay true, since the rows keep their order;
:func:`scene_seen_from` to a synthetic photo and its tiles' quads (table b11).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import cv2
import numpy as np

from training.labelled_variants import variants
from training.scenes import Scene

#: the camera's distance from the table's centre, in the photo's long sides
DISTANCE = 1.3


def camera(
    width: int, height: int, degrees: float, distance: float = DISTANCE, roll: float = 0.0
) -> tuple[np.ndarray, tuple[int, int]]:
    """The homography that takes a ``width`` x ``height`` photo of the table from straight above to
    the view of a pinhole camera ``degrees`` off straight above, from the photo's bottom side,
    ``distance`` long sides from its centre and aimed at it, turned ``roll`` degrees about its own
    axis (as ``cv2.getRotationMatrix2D`` turns a picture: a phone held a little askew); and the
    view's size (scaled to fit the photo's: the long side of its bounding box at most the photo's
    own)."""
    a = np.radians(degrees)
    d = distance * max(width, height)
    eye = np.array([0.0, d * np.sin(a), d * np.cos(a)])  # the table's centre at the origin, z up
    z = -eye / np.linalg.norm(eye)  # the camera looks at the centre
    x = np.array([1.0, 0.0, 0.0])
    y = np.cross(x, z)  # image down: towards the near side (so no mirror image)
    rot = np.stack([x, y, z])
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    cam = (np.c_[corners - [width / 2, height / 2], np.zeros(4)] - eye) @ rot.T
    seen = cam[:, :2] / cam[:, 2:3]
    c, r = np.cos(np.radians(roll)), np.sin(np.radians(roll))
    seen = seen @ np.array([[c, r], [-r, c]]).T
    lo, hi = seen.min(0), seen.max(0)
    seen = (seen - lo) * min(width / (hi - lo)[0], height / (hi - lo)[1])
    size = (int(np.ceil(seen[:, 0].max())), int(np.ceil(seen[:, 1].max())))
    return cv2.getPerspectiveTransform(corners.astype(np.float32), seen.astype(np.float32)).astype(np.float64), size


def seen_from(img: np.ndarray, degrees: float, distance: float = DISTANCE, roll: float = 0.0) -> np.ndarray:
    """``img`` (a photo of the table from straight above) as :func:`camera` sees it: the far (top)
    side smaller and every tile squatter, and the whole turned by ``roll`` degrees. What the camera
    sees beyond the photo is the photo's median edge colour (more table: repeating the edge pixels
    would stretch a tile cut by the photo's edge into a blank tile)."""
    m, size = camera(img.shape[1], img.shape[0], degrees, distance, roll)
    edge = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]).reshape(-1, img.shape[2] if img.ndim == 3 else 1)
    fill = tuple(float(v) for v in np.median(edge, axis=0))
    return cv2.warpPerspective(img, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


def scene_seen_from(scene: Scene, degrees: float, distance: float = DISTANCE) -> Scene:
    """A synthetic table photo with its ground truth (:class:`training.scenes.Scene`) as a player
    photographs the hand from a seat: :func:`camera` turned ``degrees`` off straight above, zoomed
    so that the tiles are as wide as in ``scene`` (the player frames the hand, not the table) and
    aimed at their middle, in a photo of ``scene``'s size. Every tile's quad is carried along; a
    tile that ends up partly out of the photo becomes a partly shown one."""
    h, w = scene.image.shape[:2]
    m, _ = camera(w, h, degrees, distance)

    def moved(quad, by: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(1, -1, 2), by).reshape(-1, 2)

    if scene.tiles:
        before = [np.asarray(t["quad"], np.float64) for t in scene.tiles]
        after = [moved(q, m) for q in before]
        zoom = float(np.median([np.linalg.norm(q[1] - q[0]) for q in before]))
        zoom /= max(float(np.median([np.linalg.norm(q[1] - q[0]) for q in after])), 1e-6)
        pts = np.concatenate(after)
        cx, cy = (pts.min(0) + pts.max(0)) / 2
    else:
        zoom, (cx, cy) = 1.0, (w / 2, h / 2)
    aim = np.array([[zoom, 0, w / 2 - zoom * cx], [0, zoom, h / 2 - zoom * cy], [0, 0, 1]]) @ m
    edge = np.concatenate([scene.image[0], scene.image[-1], scene.image[:, 0], scene.image[:, -1]])
    fill = tuple(float(v) for v in np.median(edge.reshape(-1, 3), axis=0))
    image = cv2.warpPerspective(
        scene.image, aim, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=fill
    )
    tiles, partial = [], [moved(q, aim).tolist() for q in scene.partial]
    for t in scene.tiles:
        q = moved(t["quad"], aim)
        if q[:, 0].min() >= 2 and q[:, 1].min() >= 2 and q[:, 0].max() <= w - 3 and q[:, 1].max() <= h - 3:
            tiles.append({**t, "quad": q.tolist()})
        else:
            partial.append(q.tolist())
    return Scene(image, tiles, partial)


def slanted(
    labelled: Iterable[tuple[str, bytes, list[str]]], views: Iterable[tuple[float, ...]]
) -> Iterator[tuple[tuple[float, ...], str, bytes, list[str]]]:
    """Each labelled photo ``(name, image bytes, labels)`` seen from each of ``views``, ``(degrees
    off straight above, distance[, roll])`` (:func:`seen_from`): ``(view, name, JPEG bytes,
    labels)``."""
    return variants(labelled, views, lambda img, view: seen_from(img, *view))


def slanted_turned(
    labelled: Iterable[tuple[str, bytes, list[str]]], views: Iterable[tuple[float, int]]
) -> Iterator[tuple[tuple[float, int], str, bytes, list[str]]]:
    """Each labelled photo ``(name, image bytes, labels)`` seen from a seat and turned, for each of
    ``views``, ``(degrees off straight above, quarter turns)``: :func:`seen_from`, then turned that
    many quarter turns counter-clockwise (as :func:`numpy.rot90` turns it), as a photo whose EXIF
    orientation was lost, or that a player turned, shows it (the table's depth running across the
    photo): ``(view, name, JPEG bytes, labels)``. The labels keep their order: turned up again, the
    rows read as before."""
    return variants(labelled, views, lambda img, view: np.ascontiguousarray(np.rot90(seen_from(img, view[0]), view[1])))
