"""Runtime tile-face classifier (numpy + OpenCV + onnxruntime; no torch).

    from vision.classifier import get_classifier
    top3 = get_classifier().classify(crops)   # crops: list of BGR uint8 upright tile faces
    # -> [[("5p", 0.97), ("6p", 0.01), ("4p", 0.005)], ...]

The model (``tile_classifier.onnx``) and its metadata (``tile_classifier.json``: class order, input
size, normalisation, training and validation record) open through :mod:`vision.onnx_model`, as the
tile finder's do: from ``$MJC_MODEL_DIR`` if set, else from the ``models`` package.

Class codes: ``1m``-``9m``, ``1p``-``9p``, ``1s``-``9s``, ``1z``-``7z`` (E S W N White Green Red),
``1f``-``8f`` (plum orchid chrysanthemum bamboo spring summer autumn winter), ``back`` and, in a
model trained with hard negatives, :data:`NOT_A_TILE` (``none``): the crop is not one tile face.

Calibration: the metadata's ``calibration`` gives a ``temperature`` the logits are divided by
before the softmax (fitted on held-out real crops) and a ``sure_threshold``: a tile read at or
above it is right at least 99.5 % of the time on held-out real crops (:meth:`TileClassifier.is_sure`),
and ``unsure_suits``: the suits whose held-out crops are read right less often than that (``f``,
the flowers) or that they do not show (``back``), whose readings are never shown as sure
(:meth:`TileClassifier.suit_can_be_sure`).
A model without calibration has temperature 1 and no tile is sure.

Featureless faces: a plain tile back and a blank white dragon look, in a crop, like paper, an
empty tray slot or a mat, and a model trained with ``none`` reads them as ``none``. When the
folder also holds ``tile_fallback.onnx`` (the previous classifier, without ``none``), the few
crops the primary reads as ``none``, ``back`` or ``5z`` are read again by it: if it reads
:data:`FEATURELESS` (``back`` or ``5z``), its reading (its own calibration) replaces the primary's
and the recogniser's layout rules decide (a back must be linked to the hand's tiles, a white dragon
must be the size of the tiles with artwork); otherwise the primary's reading stands (a ``none`` is
rejected). The primary only flags featureless crops (it is unsure between a back and ``none``);
featureless faces read as they did before it. Every crop goes through the primary once, so the
speed is the primary's.

Crops may be any size; they are resized (no padding) to the model's input. The tile finder may
not know a tile's up from down: the model was trained half-turn invariant and, by default, a crop
the network reads at under :data:`HALF_TURN_BELOW` (its own softmax, before calibration) is read
again turned 180 degrees and the probability vectors averaged (:func:`half_turn_rows`,
:func:`read_probabilities`); a crop read at or above it keeps its one reading. Where the model's
calibration was fitted so (its ``inset``, :data:`INSET_SHARE` for the shipped classifier), a crop
that the two readings still leave under :data:`HALF_TURN_BELOW` (:func:`tighter_rows`) is read cut
tighter too (:func:`inset`), as it lies and turned, and the four readings are averaged as to which
tile it shows (whether it shows one stays the first two readings' say): a finder's box that takes
in a strip of the seam or of the next tile (the seam above a ``2m`` reads as the third stroke of a
``3m``) is read without it as well.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from . import onnx_model

if TYPE_CHECKING:
    from .onnx_model import Traversable

MODEL_NAME = "tile_classifier"
#: the previous classifier, without ``none``: asked about the crops the primary reads as not a tile
FALLBACK_NAME = "tile_fallback"
#: the class of a crop that is not one tile face
NOT_A_TILE = "none"
#: the fallback's readings that stand for the primary's ``none``: the faces that are featureless in
#: a crop (a plain back, a blank white dragon), which only the layout can tell from paper or a slot
FEATURELESS = ("back", "5z")
#: a crop the network reads at or above this (its softmax before calibration) is not read again
#: turned: on 1,938 crops of the benchmark's photos (phone-like b4-b8, synthetic, standing and kong
#: scenes, the labelled real photos) the half-turn changed no such reading's class nor whether it is
#: sure (calibrated at most 0.18 lower, never under the recogniser's thresholds), and 59 % of the
#: crops are read so; the network's half-turn pass is the classifier's largest cost on photos of
#: many tiles (a tray, a whole set)
HALF_TURN_BELOW = 0.9
#: the share of an unsure crop's height and width cut away, half on each side, for its tighter
#: views: on the real-tile A/B sets (training.ab, session 33) 0.08 read best of 0.06, 0.08 and 0.1,
#: and made 2 sure readings wrong where the crop and its half-turn alone made 10
INSET_SHARE = 0.08
#: which crops a view was read of (indexes into the batch) and its logits, a row per index
View = tuple[np.ndarray, np.ndarray]


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Row-wise softmax of ``logits / temperature``."""
    z = logits / temperature
    z = z - z.max(1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(1, keepdims=True)


def half_turn_rows(logits: np.ndarray) -> np.ndarray:
    """Indexes of the crops whose reading (``logits``, one row per crop) is under
    :data:`HALF_TURN_BELOW`: those read again turned 180 degrees."""
    return np.flatnonzero(softmax(logits).max(1) < HALF_TURN_BELOW) if len(logits) else np.zeros(0, np.int64)


def read_probabilities(
    logits: np.ndarray, views: Sequence[View], temperature: float = 1.0, none: int | None = None
) -> np.ndarray:
    """The classifier's probabilities: the softmax of ``logits / temperature``, each crop's averaged
    with that of the other views read of it (``views``: the half-turns of the crops
    :func:`half_turn_rows` names first, then, where read, the tighter crops of :func:`tighter_rows`).
    A tighter crop says which tile a crop shows, not whether it shows one (cut tighter, a patch of
    a printed page has lost the margin that told it from a tile): where ``none`` (the column of
    :data:`NOT_A_TILE`) is given, a crop's probability of being no tile stays that of its own
    reading and its half-turn's, and the tiles share the rest as all its views say."""
    p = softmax(logits, temperature)
    if not views:
        return p
    total, count = p.copy(), np.ones((len(p), 1))
    for rows, view in views:
        total[rows] += softmax(view, temperature)
        count[rows] += 1
    out = total / count
    if none is not None and len(views) > 1:
        two = read_probabilities(logits, views[:1], temperature)
        rows = np.unique(np.concatenate([r for r, _v in views[1:]]))
        tiles = np.flatnonzero(np.arange(p.shape[1]) != none)
        cells = np.ix_(rows, tiles)
        out[cells] *= ((1.0 - two[rows, none]) / out[cells].sum(1))[:, None]
        out[rows, none] = two[rows, none]
    return out


def tighter_rows(logits: np.ndarray, rows: np.ndarray, turned: np.ndarray, none: int | None = None) -> np.ndarray:
    """Of the crops ``rows`` (:func:`half_turn_rows`), those that their reading averaged with their
    half-turn's (``turned``, a row per index of ``rows``; the network's own softmax) still leaves
    under :data:`HALF_TURN_BELOW`, as a tile (not as ``none``, the column of :data:`NOT_A_TILE`,
    where given: a tighter crop says which tile, not whether one): the crops read cut tighter as
    well."""
    both = read_probabilities(logits[rows], [(np.arange(len(rows)), turned)])
    return rows[(both.max(1) < HALF_TURN_BELOW) & (both.argmax(1) != (-1 if none is None else none))]


def inset(crop: np.ndarray, share: float) -> np.ndarray:
    """``crop`` with ``share`` of its height and of its width cut away, half on each side, at its
    own size: the rest drawn out over it (to the fraction of a pixel, so a crop of a small tile
    loses no more than a large one's)."""
    h, w = crop.shape[:2]
    k = 1.0 / (1.0 - share)
    m = np.array([[k, 0.0, (1.0 - k) * (w - 1) / 2], [0.0, k, (1.0 - k) * (h - 1) / 2]])
    return cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class TileClassifier:
    """Classifies upright tile-face crops into the classes of ``metadata['classes']``.

    ``model_dir_``: the folder holding the model (default :func:`vision.onnx_model.model_dir`)."""

    def __init__(
        self,
        model_dir_: str | os.PathLike | Traversable | None = None,
        half_turn_tta: bool = True,
        name: str = MODEL_NAME,
    ):
        directory = _directory(model_dir_)
        self.model_path = onnx_model.runtime_file(name, directory)
        self.metadata: dict = onnx_model.metadata(name, directory)
        self.classes: list[str] = list(self.metadata["classes"])
        #: the column of :data:`NOT_A_TILE` (``None`` in a model without it)
        self.none_column: int | None = self.classes.index(NOT_A_TILE) if NOT_A_TILE in self.classes else None
        inp = self.metadata["input"]
        self.width, self.height = int(inp["width"]), int(inp["height"])
        self.bgr = inp.get("channel_order", "BGR").upper() == "BGR"
        self._mean = np.asarray(inp["mean"], np.float32).reshape(1, 3, 1, 1)
        self._std = np.asarray(inp["std"], np.float32).reshape(1, 3, 1, 1)
        self.half_turn_tta = half_turn_tta
        cal = self.metadata.get("calibration") or {}
        self.temperature = float(cal.get("temperature", 1.0))
        #: calibrated confidence at which a tile reading counts as sure (None: never)
        self.sure_threshold: float | None = (
            float(cal["sure_threshold"]) if cal.get("sure_threshold") is not None else None
        )
        #: suit letters whose readings are never shown as sure (:meth:`suit_can_be_sure`)
        self.unsure_suits: frozenset[str] = frozenset(cal.get("unsure_suits", ()))
        #: the share a crop still unsure is cut tighter by for two more views (0: none), as calibrated
        self.inset = float(cal.get("inset", 0.0))
        self.session = onnx_model.session(name, directory)
        self._input_name = self.session.get_inputs()[0].name
        #: the previous classifier asked about crops read as ``none`` (see the module docstring)
        self.fallback: TileClassifier | None = None
        if NOT_A_TILE in self.classes and onnx_model.available(FALLBACK_NAME, directory):
            self.fallback = TileClassifier(directory, half_turn_tta, FALLBACK_NAME)
        self._alone: TileClassifier | None = None  # (:meth:`without_fallback`, made on first use)

    # -- preprocessing -------------------------------------------------------------------------
    def preprocess(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """BGR (or gray/BGRA) uint8 crops -> float32 NCHW batch, normalised as in training."""
        batch = np.empty((len(crops), self.height, self.width, 3), np.uint8)
        for i, c in enumerate(crops):
            c = np.asarray(c)
            if c.dtype != np.uint8:
                c = np.clip(c, 0, 255).astype(np.uint8)
            if c.ndim == 2:
                c = cv2.cvtColor(c, cv2.COLOR_GRAY2BGR)
            elif c.shape[2] == 4:
                c = cv2.cvtColor(c, cv2.COLOR_BGRA2BGR)
            if c.shape[0] < 2 or c.shape[1] < 2:
                raise ValueError(f"crop {i} is too small: {c.shape}")
            interp = cv2.INTER_AREA if c.shape[0] > self.height else cv2.INTER_LINEAR
            batch[i] = cv2.resize(c, (self.width, self.height), interpolation=interp)
        if not self.bgr:
            batch = batch[..., ::-1]
        # (pixel / 255 - mean) / std, in place on one contiguous float copy
        x = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)
        x *= 1.0 / (255.0 * self._std)
        x -= self._mean / self._std
        return x

    # -- inference -----------------------------------------------------------------------------
    def probabilities(self, crops: Sequence[np.ndarray], *, calibrated: bool = True) -> np.ndarray:
        """(N, num_classes) softmax probabilities in ``self.classes`` order: calibrated (logits /
        temperature) by default, else as the network gives them."""
        return self._probabilities(crops, (calibrated,))[0]

    def _probabilities(self, crops: Sequence[np.ndarray], calibrated: Sequence[bool]) -> list[np.ndarray]:
        """One network pass, its softmax for each ``calibrated`` flag (half-turn averaged when
        enabled); rows read as ``none`` replaced by the fallback's featureless readings."""
        out = self._network(crops, [self.temperature if c else 1.0 for c in calibrated])
        if self.fallback is not None and len(crops):
            asked = [self.classes.index(c) for c in (NOT_A_TILE, *FEATURELESS)]
            rows = np.flatnonzero(np.isin(out[0].argmax(1), asked))
            if len(rows):
                self._featureless(crops, rows, calibrated, out)
        return out

    def _featureless(
        self, crops: Sequence[np.ndarray], rows: np.ndarray, calibrated: Sequence[bool], out: list[np.ndarray]
    ) -> None:
        """Rows ``rows`` of ``out`` (read as ``none``, ``back`` or ``5z``): where the fallback reads them as one of
        :data:`FEATURELESS`, its probabilities (calibrated by its own temperature where asked,
        ``none`` at 0) replace the primary's."""
        fb = self.fallback
        assert fb is not None
        probs = fb._network([crops[i] for i in rows], [fb.temperature if c else 1.0 for c in calibrated])
        cols = [self.classes.index(c) for c in fb.classes]
        keep = np.isin(np.asarray(fb.classes)[probs[0].argmax(1)], FEATURELESS)
        for o, p in zip(out, probs):
            for r, row, k in zip(rows, p, keep):
                if k:
                    o[r] = 0.0
                    o[r, cols] = row

    def _network(self, crops: Sequence[np.ndarray], temperatures: Sequence[float]) -> list[np.ndarray]:
        """This model's softmax at each temperature; when enabled, the crops it reads under
        :data:`HALF_TURN_BELOW` read again in their other views (:meth:`_views`) and averaged
        (:func:`read_probabilities`)."""
        if len(crops) == 0:
            return [np.zeros((0, len(self.classes)), np.float32) for _ in temperatures]
        x = self.preprocess(crops)
        logits = self._run(x)
        views = self._views(crops, x, logits) if self.half_turn_tta else []
        return [read_probabilities(logits, views, t, self.none_column).astype(np.float32) for t in temperatures]

    def _views(self, crops: Sequence[np.ndarray], x: np.ndarray, logits: np.ndarray) -> list[View]:
        """The other views read of the crops (``x``: preprocessed, ``logits``: read as they are):
        the half-turns of those read under :data:`HALF_TURN_BELOW` and, where :attr:`inset` is set,
        of those still unsure after it (:func:`tighter_rows`), the crop cut tighter by it
        (:func:`inset`) as it lies and turned, in one more network pass."""
        rows = half_turn_rows(logits)
        if not len(rows):
            return []
        views = [(rows, self._run(x[rows][:, :, ::-1, ::-1]))]
        tight_rows = tighter_rows(logits, rows, views[0][1], self.none_column) if self.inset else rows[:0]
        if len(tight_rows):
            tight = self.preprocess([inset(np.asarray(crops[i]), self.inset) for i in tight_rows])
            read = np.split(self._run(np.concatenate([tight, tight[:, :, ::-1, ::-1]])), 2)
            views += [(tight_rows, v) for v in read]
        return views

    def _run(self, x: np.ndarray) -> np.ndarray:
        """The network's logits for the preprocessed batch ``x``."""
        return self.session.run(None, {self._input_name: np.ascontiguousarray(x)})[0]

    def _top(self, p: np.ndarray, top_k: int) -> list[list[tuple[str, float]]]:
        return [[(self.classes[i], float(row[i])) for i in np.argsort(-row)[:top_k]] for row in p]

    def classify(self, crops: Sequence[np.ndarray], top_k: int = 3) -> list[list[tuple[str, float]]]:
        """Top-``top_k`` ``(code, calibrated probability)`` per crop, most probable first."""
        return self._top(self.probabilities(crops), top_k)

    def classify_both(
        self, crops: Sequence[np.ndarray], top_k: int = 3
    ) -> tuple[list[list[tuple[str, float]]], list[list[tuple[str, float]]]]:
        """From one network pass: the top-``top_k`` as the network gives it (what the recogniser's
        rules were tuned on: which turn of a crop reads best, which finds are not tiles) and the
        calibrated probabilities of the same classes (what is shown, and what :meth:`is_sure` judges)."""
        raw, cal = self._probabilities(crops, (False, True))
        order = [np.argsort(-row)[:top_k] for row in raw]
        return (
            [[(self.classes[i], float(row[i])) for i in idx] for row, idx in zip(raw, order)],
            [[(self.classes[i], float(row[i])) for i in idx] for row, idx in zip(cal, order)],
        )

    def without_fallback(self) -> TileClassifier:
        """This classifier reading with its own network alone: every crop it reads as a tile with
        artwork reads the same, and a crop it reads as ``none``, ``back`` or ``5z`` keeps that
        reading, not asked of :attr:`fallback` (one network fewer). For a caller that takes no such
        reading (:func:`vision.placed_boxes._oversized_read_again` where no part has the colour of backs)."""
        if self._alone is None:
            alone = copy.copy(self)
            alone.fallback, alone._alone = None, alone
            self._alone = alone
        return self._alone

    def is_sure(self, code: str, probability: float) -> bool:
        """Whether a reading is sure: a tile class (not :data:`NOT_A_TILE`) at or above the
        calibrated ``sure_threshold``."""
        return code != NOT_A_TILE and self.sure_threshold is not None and probability >= self.sure_threshold

    def suit_can_be_sure(self, code: str) -> bool:
        """Whether a sure reading of ``code`` may be shown as sure: its suit is not one the
        classifier reads right less often than a sure tile must be on the held-out sets
        (``unsure_suits``; the flowers, whose designs vary most from set to set). Such a reading
        still counts as a confident tile for the recogniser's layout rules."""
        return suit(code) not in self.unsure_suits


def suit(code: str) -> str:
    """The suit letter of a tile code (``5p`` -> ``p``, ``3f`` -> ``f``); any other class
    (``back``, ``none``) is its own suit."""
    return code[-1] if len(code) == 2 and code[0].isdigit() else code


def _directory(model_dir_: str | os.PathLike | Traversable | None) -> Traversable:
    if model_dir_ is None:
        return onnx_model.model_dir()
    return Path(model_dir_) if isinstance(model_dir_, (str, os.PathLike)) else model_dir_


_CACHE: dict[str, TileClassifier] = {}
_CACHE_LOCK = threading.Lock()


def get_classifier(model_dir_: str | os.PathLike | Traversable | None = None) -> TileClassifier:
    """A process-wide cached :class:`TileClassifier` (one per model folder, default
    :func:`vision.onnx_model.model_dir`)."""
    directory = _directory(model_dir_)
    key = str(directory)
    with _CACHE_LOCK:
        clf = _CACHE.get(key)
        if clf is None:
            clf = _CACHE[key] = TileClassifier(directory)
        return clf
