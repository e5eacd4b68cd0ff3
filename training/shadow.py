"""A photo of tiles with a shadow cast across it: the phone's, the player's hand or arm.

A player photographing a hand under a lamp often shades part of it with the phone or an arm: one
side of a line across the tiles lies in shadow, a few times darker than the other, and between
them runs a penumbra as wide as the light is large (a ceiling lamp's: a tile or so; a small spot's:
a few pixels). Tiles the edge crosses are half lit. The finder had learned shadows only as soft
darkenings by a fifth to nearly a half (:func:`training.scenes._degrade`): shown a labelled real
photo with a shadow darker than that across it, it took the edge for the end of the tiles'
faces, and cut the tiles it crossed (table (c11) of the benchmark).

:func:`cast` darkens an image that way; :func:`cast_on_patch` draws one such shadow at random over
a training patch of the finder (:mod:`training.train_segmenter`, ``--shadow``), and
:func:`shadowed` makes the benchmark's photos: the labelled real photos, their labels kept, since
nothing moves.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterable, Iterator

import numpy as np

from training.labelled_variants import floats_over, variants

#: the shadow's light over the lit side's, drawn for a training patch (:func:`cast_on_patch`)
TRAIN_DARKNESS = (0.25, 0.7)
#: the penumbra's width on a training patch, pixels (drawn evenly on a log scale)
TRAIN_PENUMBRA_PX = (1.0, 40.0)
#: the benchmark's penumbra, a share of the photo's long side (:func:`shadow_across`)
BENCH_PENUMBRA = 0.04


def cast(
    img: np.ndarray, edge: tuple[float, float, float], darkness: float, penumbra: float, band: float | None = None
) -> np.ndarray:
    """``img`` (H x W x 3, any numeric type; float32 returned) shaded on one side of the line
    ``edge`` = ``(nx, ny, c)`` (pixels at ``nx * x + ny * y + c > 0`` lie in the shadow; ``(nx, ny)`` a
    unit normal): their light times ``darkness``, rising to full light across a penumbra
    ``penumbra`` pixels wide centred on the line (a linear ramp). ``band``, when given: the shadow is
    a band that wide (an arm, a phone seen edge on), lit again beyond it with the same penumbra."""
    h, w = img.shape[:2]
    nx, ny, c = edge
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = nx * xx + ny * yy + c
    half = max(penumbra, 1e-3) / 2
    inside = np.clip((d + half) / (2 * half), 0.0, 1.0)
    if band is not None:
        inside = np.minimum(inside, np.clip((band - d + half) / (2 * half), 0.0, 1.0))
    light = 1.0 - (1.0 - darkness) * inside
    return img.astype(np.float32) * light[:, :, None]


def cast_on_patch(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``img`` (a training patch, float32) with a shadow cast across it: an edge at any angle
    through its middle half, :data:`TRAIN_DARKNESS` and :data:`TRAIN_PENUMBRA_PX` drawn, and one
    shadow in three a band a third of the patch to its whole width wide."""
    h, w = img.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    nx, ny = float(np.cos(angle)), float(np.sin(angle))
    px, py = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    penumbra = float(np.exp(rng.uniform(*np.log(TRAIN_PENUMBRA_PX))))
    band = float(rng.uniform(0.33, 1.0) * max(h, w)) if rng.random() < 1 / 3 else None
    return cast(img, (nx, ny, -(nx * px + ny * py)), float(rng.uniform(*TRAIN_DARKNESS)), penumbra, band)


def shadow_across(img: np.ndarray, darkness: float, seed: int) -> np.ndarray:
    """``img`` (BGR uint8) with a shadow of ``darkness`` cast over about half of it: an edge through
    its centre give or take a tenth, at 20-70 degrees to its long side (so that it crosses tiles
    lying in rows along it), the shaded side drawn, a penumbra :data:`BENCH_PENUMBRA` of the long
    side wide; the same shadow for the same ``seed`` (the benchmark reads the same photos every run)."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    tilt = np.radians(rng.uniform(20, 70)) * rng.choice([-1, 1])
    along = tilt if w >= h else tilt + np.pi / 2  # (the edge's direction, from the long side)
    nx, ny = float(-np.sin(along)), float(np.cos(along))
    if rng.random() < 0.5:
        nx, ny = -nx, -ny
    cx, cy = w * rng.uniform(0.4, 0.6), h * rng.uniform(0.4, 0.6)
    out = cast(img, (nx, ny, -(nx * cx + ny * cy)), darkness, BENCH_PENUMBRA * max(h, w))
    return np.clip(out, 0, 255).astype(np.uint8)


def darknesses(spec: str) -> list[float]:
    """``--shadows``: comma-separated darknesses, the shadow's light over the lit side's, each over 0
    and under 1 (``0.5,0.3``); ``''``: none."""
    values = floats_over(spec, 0.0, "a shadow's darkness")
    if any(v >= 1 for v in values):
        raise ValueError(f"a shadow's darkness must be under 1, not {spec!r}")
    return values


def shadowed(
    labelled: Iterable[tuple[str, bytes, list[str]]], darkness_values: Iterable[float]
) -> Iterator[tuple[float, str, bytes, list[str]]]:
    """Each labelled photo ``(name, image bytes, labels)`` with a shadow of each of
    ``darkness_values`` cast across it (:func:`shadow_across`, seeded by the photo's name):
    ``(darkness, name, JPEG bytes, labels)``."""
    values = list(darkness_values)
    for name, raw, gt in labelled:  # (each photo decoded once, for all its shadows)
        yield from variants([(name, raw, gt)], values, functools.partial(shadow_across, seed=zlib.crc32(name.encode())))
