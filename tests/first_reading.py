"""A fixture photo's first reading beside its labels, for the tests of the steps that read again
(:func:`vision.read_finds._read`'s readings before any of those steps)."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

from training.evaluate import quad_iou
from vision import photo
from vision.finders import find_candidates

PHOTOS = Path(__file__).resolve().parent / "fixtures" / "photos"


def first_reading(name: str) -> tuple:
    """The fixture photo ``name`` (as ``scene_11``: its ``.jpg`` and the ``.json`` of its labelled
    tiles, quads in pixels of the photo 960 px wide) loaded, its first reading, and its labelled
    tiles ``(code, quad)`` in the working image's pixels."""
    ph = photo.load((PHOTOS / f"{name}.jpg").read_bytes())
    cands = find_candidates(ph.image, detail=ph.detail)
    readings, _, _ = sys.modules["vision.read_finds"]._read(cands, None)
    s = ph.image.shape[1] / 960
    labelled = json.loads((PHOTOS / f"{name}.json").read_text())["tiles"]
    return ph, readings, [(t["code"], np.array(t["quad"]) * s) for t in labelled]


def reading_of(readings, quad: np.ndarray):
    """The reading whose box covers the labelled ``quad`` best."""
    return max(readings, key=lambda r: quad_iou(r.quad, quad))


def boxed_as(r, quad: np.ndarray, code: str, p: float = 0.99, sure: bool = True):
    """The reading ``r`` boxed by ``quad`` (its find's box too, no crops), upright, read as ``code``
    at ``p``, sure or not."""
    q = quad.astype(np.float32)
    cd = dataclasses.replace(r.candidate, quad=q, crops=())
    return dataclasses.replace(r, candidate=cd, quad=q, rotation=0, top=[(code, p)], sure=sure)
