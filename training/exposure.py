"""A photo of tiles as a phone overexposes it: the levels scaled up and clipped at white.

A phone meters the whole frame. Over a dark mat or a dark wooden table, or under a lamp's pool of
light, it exposes for the table and burns out the ivory faces: a face comes out white, the shading
at its edges and the seams between touching tiles go with it, and light ink (a green bamboo, a blue
dot) loses a channel. :func:`overexposed` does that to the labelled real photos for the benchmark's
table (c4): their labels stay true, since nothing moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from training.labelled_variants import floats_over, variants


def overexpose(img: np.ndarray, gain: float) -> np.ndarray:
    """``img`` (BGR uint8) with its levels scaled by ``gain``, every channel alike, clipped at 255."""
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def exposures(spec: str) -> list[float]:
    """``--exposures``: comma-separated gains over 1 (``1.3,1.5``); ``''``: none."""
    return floats_over(spec, 1.0, "an overexposure gain")


def overexposed(
    labelled: Iterable[tuple[str, bytes, list[str]]], gains: Iterable[float]
) -> Iterator[tuple[float, str, bytes, list[str]]]:
    """Each labelled photo ``(name, image bytes, labels)`` overexposed by each of ``gains``
    (:func:`overexpose`): ``(gain, name, JPEG bytes, labels)``."""
    return variants(labelled, gains, overexpose)
