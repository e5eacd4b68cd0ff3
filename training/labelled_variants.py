"""The labelled real photos changed as real tables change a photo, their labels kept.

A change that moves no tile out of its row (a slant, an exposure) keeps the labels true, so the
benchmark reads the changed photos against the same labels: (c3) seen from a seat
(:mod:`training.viewpoint`), (c4) overexposed (:mod:`training.exposure`), (c9) grainy
(:mod:`training.grain`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import cv2
import numpy as np

JPEG_QUALITY = 90

#: what tells one change from another: a view, a gain, a grain
Key = TypeVar("Key")


def variants(
    labelled: Iterable[tuple[str, bytes, list[str]]],
    keys: Iterable[Key],
    change: Callable[[np.ndarray, Key], np.ndarray],
) -> Iterator[tuple[Key, str, bytes, list[str]]]:
    """Each labelled photo ``(name, image bytes, labels)`` changed by ``change(image, key)`` for
    each of ``keys``, key by key: ``(key, name, JPEG bytes, labels)``."""
    photos = []
    for name, raw, gt in labelled:
        img = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError(f"labelled photo {name} could not be decoded")
        photos.append((name, img, gt))
    for key in keys:
        for name, img, gt in photos:
            ok, buf = cv2.imencode(".jpg", change(img, key), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if ok:
                yield key, name, buf.tobytes(), gt


def floats_over(spec: str, least: float, what: str) -> list[float]:
    """The comma-separated numbers of an option (``'1.3,1.5'``; ``''``: none), each over ``least``;
    a :class:`ValueError` naming ``what`` one is otherwise."""
    values = [float(p) for p in (p.strip() for p in spec.split(",")) if p]
    if any(v <= least for v in values):
        raise ValueError(f"{what} must be over {least:g}, not {spec!r}")
    return values
