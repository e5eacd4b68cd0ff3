"""A photo of tiles as a phone takes it in a dim room: grainy.

A phone in poor light raises its sensor's gain, and a photo taken underexposed is brightened once
more by the recogniser (:func:`vision.photo.exposed`): the sensor's noise comes out with the
picture. :func:`grainy` adds Gaussian noise to the labelled real photos for the benchmark's table
(c9); their labels stay true, since nothing moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from training.labelled_variants import floats_over, variants


def add_grain(img: np.ndarray, sigma: float) -> np.ndarray:
    """``img`` (BGR uint8) with Gaussian noise of standard deviation ``sigma`` grey levels added to
    every channel of every pixel, clipped to 0-255; the same noise for the same ``sigma`` and size
    (seeded by ``sigma``), so that the table reads the same photos on every run."""
    rng = np.random.default_rng(round(sigma * 100))
    return np.clip(img.astype(np.float32) + rng.normal(0.0, sigma, img.shape), 0, 255).astype(np.uint8)


def grains(spec: str) -> list[float]:
    """``--grain``: comma-separated standard deviations over 0 (``12,17,24``); ``''``: none."""
    return floats_over(spec, 0.0, "a grain's standard deviation")


def grainy(
    labelled: Iterable[tuple[str, bytes, list[str]]], sigmas: Iterable[float]
) -> Iterator[tuple[float, str, bytes, list[str]]]:
    """Each labelled photo ``(name, image bytes, labels)`` with each of ``sigmas`` of grain
    (:func:`add_grain`): ``(sigma, name, JPEG bytes, labels)``."""
    return variants(labelled, sigmas, add_grain)
