"""What a tile finder hands on: one :class:`Candidate` per place that may hold a tile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

#: which finder proposed a candidate: the learned finder (faces and backs alike), the classical
#: colour-and-seam finder (faces), or a classical probe for a face-down tile beside a row
Source = Literal["learned", "classical", "back_probe"]


@dataclass(frozen=True, eq=False)
class Candidate:
    """A possible tile: where it lies, how plausible its shape is, and the crops to classify.

    ``quad`` is 4x2 float32 in working-image pixels, clockwise from the top-left as the tile lies
    (up = image up). ``lying``: the tile lies at 90 degrees. ``score``: plausibility of its aspect
    (:func:`vision.finders.geometry.aspect_score`, 1 for a probe). ``blob``: the region it was found
    in (touching tiles share one; -1 for a probe), ``blob_size`` the candidates found there.
    ``ink``: the fraction of its interior that is artwork. ``ambiguous``: upright or lying is unclear
    from the shape (the classifier decides). ``slanted``: lying by its shape, but it may be an upright
    face seen at a slant (:func:`vision.finders.geometry.may_be_slanted`; the classifier decides when
    it reads the lying crop unsurely). ``crops``: ``(rotation_degrees, upright BGR crop)`` pairs, the
    geometric guess first (:func:`vision.finders.geometry.with_crops`). ``spread``: the second
    moments of the face's pixels as the learned finder saw them (2x2, ``quad``'s pixels squared;
    :func:`vision.finders.learned.core_spreads`), ``None`` where no finder measured them. ``look``:
    the long side in pixels of the learned finder's look that found it (0 for the classical
    finder). ``cut_into``: the tiles the learned finder cut the core it found this one in into (a
    core far longer than a tile: touching tiles whose seams it could not see); 1 for a whole core."""

    quad: np.ndarray
    lying: bool = False
    score: float = 1.0
    source: Source = "classical"
    blob: int = 0
    blob_size: int = 1
    ink: float = 0.0
    ambiguous: bool = False
    slanted: bool = False
    crops: tuple[tuple[int, np.ndarray], ...] = ()
    spread: np.ndarray | None = None
    look: int = 0
    cut_into: int = 1
