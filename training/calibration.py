"""Confidence calibration of the classifier: a temperature and a "sure" threshold.

The runtime (:class:`vision.classifier.TileClassifier`) divides the logits by the temperature
``T`` before the softmax and, for a crop the network reads under
:data:`vision.classifier.HALF_TURN_BELOW`, averages it with its other views' (its half-turn, and
where the calibration has an ``inset`` and those two still leave it unsure, the crop cut tighter
by it as it lies and turned).
:func:`fit_temperature` picks the ``T`` that minimises the negative log-likelihood of the true
classes on a calibration set the classifier never trained on (the held-out real crops: whole tile
sets never seen). :func:`sure_threshold` then picks the lowest confidence at which the tiles read
at or above it are right at least :data:`SURE_PRECISION` of the time on that set; a tile is shown as
sure when its confidence reaches the threshold (and it is read as a tile, not as "not a tile").
:func:`unsure_suits` names the suits whose held-out crops are read right less often than that
overall, or that the held-out crops do not show (tile backs): no reading of them is shown as sure,
however confident (the held-out flowers).

:func:`reliability` bins confidences for the benchmark's reliability table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from vision.classifier import NOT_A_TILE, half_turn_rows, read_probabilities, suit, tighter_rows

#: tiles shown as sure must be right this often on held-out real crops
SURE_PRECISION = 0.995
TEMPERATURES = np.round(np.exp(np.linspace(np.log(0.3), np.log(5.0), 120)), 4)
THRESHOLDS = np.round(np.linspace(0.3, 0.999, 700), 4)
#: a threshold no probability reaches: nothing is sure
NEVER = 1.01
#: how the metadata's ``calibration`` was fitted (its ``method``)
METHOD = (
    "temperature minimising the NLL of the held-out real crops (whole tile sets never trained on), read in "
    "the views the runtime reads (half-turn, and the crop cut tighter by inset where set and those two leave it "
    "unsure); a tile is sure when its calibrated confidence >= sure_threshold, the lowest threshold "
    f"whose sure crops are right >= {SURE_PRECISION}, and its suit is not one of unsure_suits (the suits whose "
    "held-out crops are read right less often than that, or that they do not show)"
)
BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.0001)


def tta_probabilities(
    logits: np.ndarray, views: Sequence[np.ndarray], temperature: float = 1.0, none: int | None = None
) -> np.ndarray:
    """The runtime's probabilities (:func:`vision.classifier.read_probabilities`): the tempered
    softmax of each crop, averaged with its half-turn's (``views[0]``, the half-turns' logits, one
    row per crop) where the network reads the crop under :data:`vision.classifier.HALF_TURN_BELOW`,
    and where ``views`` holds the tighter crops' logits too (as they lie and turned), with theirs
    where the two readings still leave it so (:func:`vision.classifier.tighter_rows`), as to which
    tile it is (``none``: the not-a-tile column, whose probability they leave)."""
    rows = half_turn_rows(logits)
    if not views:
        return read_probabilities(logits, [], temperature)
    read = [(rows, views[0][rows])]
    tight = tighter_rows(logits, rows, views[0][rows], none) if len(views) > 1 else rows[:0]
    return read_probabilities(logits, read + [(tight, v[tight]) for v in views[1:]], temperature, none)


def fit_temperature(
    logits: np.ndarray, views: Sequence[np.ndarray], labels: np.ndarray, none: int | None = None
) -> float:
    """The temperature (grid :data:`TEMPERATURES`) with the least negative log-likelihood of the
    runtime's probabilities (:func:`tta_probabilities`)."""
    best, best_nll = 1.0, np.inf
    for t in TEMPERATURES:
        p = tta_probabilities(logits, views, float(t), none)
        nll = -float(np.mean(np.log(np.maximum(p[np.arange(len(labels)), labels], 1e-12))))
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def sure_precision(conf: np.ndarray, right: np.ndarray, threshold: float) -> tuple[float, int]:
    """(precision, count) of the readings at or above ``threshold`` (precision 1 when none are)."""
    sel = conf >= threshold
    n = int(sel.sum())
    return (float(right[sel].mean()) if n else 1.0), n


def sure_threshold(conf: np.ndarray, right: np.ndarray, precision: float = SURE_PRECISION) -> float:
    """The lowest threshold in :data:`THRESHOLDS` whose sure readings, and those of every higher
    threshold, are right at least ``precision`` of the time (:data:`NEVER`, above every
    probability, when none qualifies)."""
    ok = [sure_precision(conf, right, float(t))[0] >= precision for t in THRESHOLDS]
    for i in range(len(THRESHOLDS)):
        if all(ok[i:]):
            return float(THRESHOLDS[i])
    return NEVER


def unsure_suits(
    truth: list[str], read: list[str], precision: float = SURE_PRECISION, suits: Iterable[str] = ()
) -> list[str]:
    """The suits (:func:`vision.classifier.suit`) of the true codes ``truth`` whose crops are read right (``read``, the
    classifier's top codes, in the same order) less than ``precision`` of the time, whatever the
    confidence; and of ``suits`` (every suit the classifier reads) those with no crop in ``truth``:
    how often their readings are right on a set the classifier never saw was never measured. A
    tile's back is one: the held-out real crops are faces, and backs come in every colour, while
    patches of leaf, grass and petal beside a hand were read as sure backs.

    The sure threshold is one number for every class. A suit the classifier reads worse than a
    sure tile must be right has no confidence that makes its readings right often enough on sets
    it never saw: flowers come in many more designs than the suits do (on the held-out sets, 15 of
    16 flower crops read right, every suit tile right; on the labelled real photos, set 1's 3f read
    as 7f at 0.98), so the table is asked to confirm them."""
    out = []
    for s in sorted({suit(t) for t in truth} | set(suits)):
        pairs = [(t, r) for t, r in zip(truth, read) if suit(t) == s]
        if not pairs or sum(t == r for t, r in pairs) < precision * len(pairs):
            out.append(s)
    return out


def read_suits(classes: Iterable[str]) -> set[str]:
    """The suits (:func:`vision.classifier.suit`) of a classifier's ``classes``, not a tile left out."""
    return {suit(c) for c in classes if c != NOT_A_TILE}


def reliability(conf: np.ndarray, right: np.ndarray, bins=BINS) -> list[tuple[float, float, int, float]]:
    """Per confidence bin ``[lo, hi)``: ``(lo, hi, count, accuracy)`` (accuracy nan when empty)."""
    out = []
    for lo, hi in zip(bins[:-1], bins[1:]):
        sel = (conf >= lo) & (conf < hi)
        n = int(sel.sum())
        out.append((float(lo), float(min(hi, 1.0)), n, float(right[sel].mean()) if n else float("nan")))
    return out
