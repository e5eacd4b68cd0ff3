"""Benchmark of the photo pipeline (``vision.recognize``) against ground truth.

    .venv/bin/python -m training.evaluate [--data ../shared/vision-data] [--scenes 60] [--json out.json]

Prints tables of

(a) the classifier on held-out real crops (``training.evaluate_crops``, when the model exists);
(b) synthetic table photos (:mod:`training.scenes`, artwork faces, fixed seeds): tile detection recall
    and precision (quad IoU >= 0.5), tiles read correctly, exact-photo rate, median / 95th-percentile
    time; (b2) the same for scenes with concealed kongs, with tile backs read / falsely reported;
    (b3) for hands standing up facing the camera;
(b4-b8) phone-like photos (:mod:`training.phone_scenes`, fixed seeds): hand rows at 20-45 degrees,
    sets packed edge to edge in a tray, hands standing in a rack, loose piles, hands among clutter on
    real background photos (:mod:`training.backgrounds`; procedural surfaces when its cache is not built);
(b9) the b8 photos blurred as by a shaking hand and out of focus (:data:`BLURS`);
(b10) every kind of b4-b8 at the size a phone camera takes, 4000x3000 (:data:`PHONE_SIZE`);
(b11) the b8 photos seen from a seat at the table, 35 and 50 degrees off straight above
    (:mod:`training.viewpoint`: the far side smaller, every tile squatter); (b12) the b4 rows at a
    diagonal seen so, 45 and 55 degrees off straight above (their faces come out as parallelograms);
(c) labelled real photos (``training/labels/real_photos.json``: photo name -> tile codes in reading
    order): multiset tile recall / precision, order-aware accuracy (1 - edit distance / length),
    exact photos, time; photos whose tile set was used to train the classifier are marked;
(c2) the same photos (hands and rows, not the grids) turned and pasted into real background photos
    that the classifier's negatives leave out (:mod:`training.real_composites`), scored as (c);
(c3) the same photos seen at a slant, as a player photographs a hand from a seat at the table:
    30, 45 and 55 degrees off straight above (:mod:`training.viewpoint`), and 50 degrees from a
    phone held closer (the near tiles far larger than the far ones), scored as (c);
(c4) the same photos overexposed, levels 1.3 and 1.5 times as high, clipped at white, as a phone
    that metered a dark table burns out the faces (:mod:`training.exposure`), scored as (c);
(c5) the (c2) composites seen from a seat, 45 degrees off straight above and 55 with the phone
    turned 5 (a hand on a real surface photographed from a chair, in sets the held-out rows keep out
    of the classifier's training), scored as (c), with the tiles missed counted by suit;
(c6) the same photos (hands and rows) pasted small into a 4000x3000 photo of a real surface, their
    long side 12, 15 and 20 % of its width, as a hand far from a phone's camera, scored as (c);
(c7) photos of a table: one of the same photos (a hand of up to 20 tiles) pasted large at the
    bottom of a real background, two or three others pasted smaller above it (other players' tiles,
    farther off), every tile labelled; as taken and from a seat 45 degrees off, scored as (c);
(c8) real photos of sets no model was trained or tuned on (``training/labels/unseen_photos.json``:
    the untagged camerash photos, labelled by eye in session 37), scored as (c);
(c9) the same photos as (c), grainy as a phone takes them in a dim room: Gaussian noise of 12, 17
    and 24 grey levels added (:mod:`training.grain`), scored as (c);
(c10) the same photos (hands and rows, not the grids) on pale plain tables, white, light grey and
    cream (:func:`training.real_composites.pale_composites`), straight above and from a seat 30, 45
    and 55 degrees off, scored as (c);
(c11) the same photos as (c) with a shadow cast across about half of each (a phone's or an arm's, the
    shaded side 0.6, 0.45 and 0.3 times as light as the lit one, a penumbra 4 % of the photo wide;
    :mod:`training.shadow`), scored as (c);
(c12) the b4-b8 kinds of phone-like photos drawn with real faces: each face a labelled crop of the two
    physical sets the classifier never learned from (:mod:`training.real_tile_scenes`), on the
    background photos its negatives leave out, scored as (b4-b8);
(c13) the (c12) photos seen from a seat at the table (:func:`training.viewpoint.scene_seen_from`, 45
    and 55 degrees off straight above by default), as a player photographs a hand: real faces of
    unseen sets, squat and foreshortened, scored as (b4-b8);
(c14) the same photos as (c) seen from a seat 45 and 55 degrees off, then turned a quarter either way,
    as a photo that lost its EXIF orientation or that a player turned shows them (the table's depth
    running across the photo: :func:`training.viewpoint.slanted_turned`), scored as (c);
(c15) photos rendered with a physically based renderer (:mod:`training.blender_scenes`: Blender's
    Cycles): tiles as solids with bevels, thickness, two layers and a glossy face, real faces of the
    sets no model learned from, under a lamp and a window, from above or from a seat: a hand lying
    face up with its discards and the wall, a concealed hand standing facing the camera, a row at a
    diagonal; scored as (b4-b8), the wall's face-down tiles counted as partly shown;
(d) the PyPI package ``mahjong-detector`` (YOLOv8 ONNX, 34 classes, no flowers) on the same photos
    and scenes, side by side (install with ``pip install mahjong-detector==0.0.6``);
(e) end-to-end time of a 12-megapixel JPEG (median of several runs);
(f) reliability of the calibrated confidence and precision of "sure" tiles, (g) false tiles on
    photos without tiles and (h) held-out crops and labelled photos, previous vs current classifier
    (:mod:`training.evaluate_reject`).

Shared data is read from ``../shared/vision-data`` relative to the repository (``--data``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from training import scenes as _scenes
from training.exposure import exposures
from training.grain import grains
from training.shadow import darknesses
from vision import onnx_model
from vision.classifier import suit
from vision.recognize import recognize

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "vision-data"
LABELS = Path(__file__).resolve().parent / "labels" / "real_photos.json"
#: (c8) labelled photos of sets no model saw: kept out of training, tuning and the composites
UNSEEN_LABELS = LABELS.parent / "unseen_photos.json"

# mahjong-detector class names -> our codes
DETECTOR_MAP = {"chun": "7z", "haku": "5z", "hatsu": "6z", "tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z"}


# ----------------------------------------------------------------------------------------------
# metrics


def quad_intersection(a, b) -> float:
    """The area two convex quads share (0 when OpenCV cannot intersect them)."""
    try:
        inter, _ = cv2.intersectConvexConvex(
            np.asarray(a, np.float32).reshape(4, 2), np.asarray(b, np.float32).reshape(4, 2)
        )
    except cv2.error:
        return 0.0
    return float(inter)


def quad_iou(a, b) -> float:
    a = np.asarray(a, np.float32).reshape(4, 2)
    b = np.asarray(b, np.float32).reshape(4, 2)
    inter = quad_intersection(a, b)
    union = abs(cv2.contourArea(a)) + abs(cv2.contourArea(b)) - inter
    return float(inter / union) if union > 0 else 0.0


def on_partial(pred_quad, partial: list, share: float = 0.5) -> bool:
    """Whether at least ``share`` of ``pred_quad`` lies on one of a scene's partly shown tiles
    (``Scene.partial``): such a find is neither a tile found nor a false tile."""
    area = abs(cv2.contourArea(np.asarray(pred_quad, np.float32).reshape(4, 2)))
    return area > 0 and any(quad_intersection(pred_quad, q) / area >= share for q in partial)


def match_quads(gt_quads, pred_quads, thr: float = 0.5) -> list[tuple[int, int, float]]:
    """Greedy one-to-one matching by IoU (best pairs first)."""
    pairs = []
    for gi, g in enumerate(gt_quads):
        ga = np.asarray(g, np.float32)
        gc = ga.mean(0)
        gr = np.linalg.norm(ga - gc, axis=1).max()
        for pi, p in enumerate(pred_quads):
            pc = np.asarray(p, np.float32).mean(0)
            if np.linalg.norm(pc - gc) > 2 * gr:
                continue
            v = quad_iou(g, p)
            if v >= thr:
                pairs.append((v, gi, pi))
    pairs.sort(reverse=True)
    used_g, used_p, out = set(), set(), []
    for v, gi, pi in pairs:
        if gi in used_g or pi in used_p:
            continue
        used_g.add(gi)
        used_p.add(pi)
        out.append((gi, pi, v))
    return out


def _edits(a: list, b: list) -> list[list[int]]:
    """The table of the fewest edits (insertions, deletions, substitutions) that turn ``a[:i]``
    into ``b[:j]``, for every ``i`` and ``j``."""
    d = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        prev, cur = d[-1], [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        d.append(cur)
    return d


def edit_distance(a: list, b: list) -> int:
    return _edits(a, b)[-1][-1]


def sequence_scores(gt: list[str], pred: list[str], ordered: bool = True) -> dict:
    """Tile multiset hits, order accuracy and whether the photo was read exactly. Labels that are
    not ``ordered`` (several labelled photos pasted into one: the labels of each follow one
    another, the reading follows the rows) have no order: ``order_acc`` is NaN, and exact means
    the same multiset."""
    inter = sum((Counter(gt) & Counter(pred)).values())
    return {
        "n_gt": len(gt),
        "n_pred": len(pred),
        "multiset_hits": inter,
        "order_acc": max(0.0, 1 - edit_distance(gt, pred) / max(1, len(gt))) if ordered else float("nan"),
        "exact": gt == pred if ordered else Counter(gt) == Counter(pred),
    }


def sure_wrong_bounds(gt: list[str], tiles: list) -> tuple[int, int]:
    """How many of the recognised ``tiles`` (each with ``code`` and ``sure``, in reading order) shown
    as sure are wrong, against a labelled photo's labels ``gt`` (codes in reading order; the labels
    give no places), at the least and at the most. At the least: beyond a code's count in the
    labels its readings are wrong, the unsure ones first (two readings swapped between codes go
    uncounted). At the most: the sure readings that an alignment of the two sequences with the
    fewest edits (:func:`edit_distance`) leaves unpaired or pairs with another code (a row read in
    the wrong order counts its right readings too)."""
    extra, least = _read_too_often(gt, tiles)
    paired = _aligned(gt, [t.code for t in tiles])
    most = sum(1 for j, t in enumerate(tiles) if t.sure and (j not in paired or gt[paired[j]] != t.code))
    return least, max(least, most)


def sure_wrong_unordered(gt: list[str], tiles: list) -> tuple[int, int]:
    """As :func:`sure_wrong_bounds`, for labels without order (:func:`sequence_scores`): at the
    least as there, at the most every sure reading of a code read more often than labelled (two
    readings swapped between codes still go uncounted)."""
    extra, least = _read_too_often(gt, tiles)
    return least, sum(1 for t in tiles if t.sure and t.code in extra)


def _read_too_often(gt: list[str], tiles: list) -> tuple[Counter, int]:
    """The codes read more often than labelled (and how much more), and how many sure readings
    that makes wrong at the least: the unsure readings of a code counted wrong first."""
    extra = Counter(t.code for t in tiles) - Counter(gt)
    return extra, sum(max(0, k - sum(1 for t in tiles if t.code == c and not t.sure)) for c, k in extra.items())


def _aligned(a: list, b: list) -> dict[int, int]:
    """An alignment of ``a`` and ``b`` with the fewest edits: index in ``b`` -> index in ``a`` of
    the pairs it keeps (equal or substituted)."""
    d = _edits(a, b)
    pairs: dict[int, int] = {}
    i, j = len(a), len(b)
    while i and j:
        if d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            i, j = i - 1, j - 1
            pairs[j] = i
        elif d[i][j] == d[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return pairs


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%" if x == x else "    -"  # (NaN: not measured)


def _timing(ts: list[float]) -> tuple[float, float]:
    if not ts:
        return float("nan"), float("nan")
    return float(np.median(ts)), float(np.percentile(ts, 95))


# ----------------------------------------------------------------------------------------------
# mahjong-detector (PyPI) adapter


class Detector:
    """Adapter for ``mahjong-detector`` 0.0.6: boxes + our codes, ordered with our grouping."""

    def __init__(self):
        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image

        self._names, self._predict, self._pre = CLASS_NAMES, predict, preprocess_image

    def detect(self, data: bytes) -> tuple[list[str], list, float]:
        from PIL import Image, ImageOps

        from vision.grouping import arrange

        t0 = time.perf_counter()
        img: Image.Image = Image.open(io.BytesIO(data))
        img = ImageOps.exif_transpose(img)
        pim, pad = self._pre(img)
        dets = self._predict(pim, pad)
        dt = (time.perf_counter() - t0) * 1000
        quads = [[[d.x1, d.y1], [d.x2, d.y1], [d.x2, d.y2], [d.x1, d.y2]] for d in dets]
        codes = [DETECTOR_MAP.get(self._names[d.class_id], self._names[d.class_id]) for d in dets]
        if quads:
            order, _, _ = arrange(quads)
            quads = [quads[i] for i in order]
            codes = [codes[i] for i in order]
        return codes, quads, dt


def _detector():
    try:
        return Detector()
    except Exception as exc:  # not installed
        return f"mahjong-detector unavailable ({type(exc).__name__}: {exc})"


# ----------------------------------------------------------------------------------------------
# (b) synthetic scenes


def synthetic_scenes(n: int, seed0: int = 5000):
    """Fixed benchmark scenes (artwork faces when the data is present)."""
    out = []
    sizes = [(1600, 1200), (1200, 1600), (2000, 1500), (1000, 750), (4000, 3000)]
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        size = sizes[i % len(sizes)] if i % 10 != 9 else sizes[4]
        sc = _scenes.make_scene(rng, size=size)
        out.append((f"scene{seed0 + i}", sc.jpeg(int(rng.integers(75, 95))), sc))
    return out


def kong_scenes(n: int, seed0: int = 7000):
    """Fixed scenes with one or two concealed kongs (tile backs showing), for the back counts."""
    out = []
    sizes = [(1600, 1200), (1200, 1600), (2000, 1500)]
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        sc = _scenes.make_scene(rng, size=sizes[i % len(sizes)], n_kongs=1 + i % 2)
        out.append((f"kong{seed0 + i}", sc.jpeg(int(rng.integers(75, 95))), sc))
    return out


def standing_scenes(n: int, seed0: int = 8000):
    """Fixed scenes of a hand standing up, facing the camera (tile tops showing above the faces)."""
    out = []
    sizes = [(1600, 1200), (1200, 1600), (2000, 1500)]
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        sc = _scenes.make_scene(rng, size=sizes[i % len(sizes)], standing=True, n_rows=1, n_indicators=0)
        out.append((f"standing{seed0 + i}", sc.jpeg(int(rng.integers(75, 95))), sc))
    return out


#: the phone-like benchmark tables: kind -> (table, title, first seed)
PHONE_TABLES = {
    "diagonal": ("b4", "hand rows at 20-45 degrees", 9000),
    "tray": ("b5", "sets packed edge to edge in a tray, at any angle", 9100),
    "rack": ("b6", "hands standing in a rack", 9200),
    "pile": ("b7", "loose piles at any angle, tiles over one another", 9300),
    "clutter": ("b8", "hands among clutter (paper, keys, dice, coins, sticks) on real backgrounds", 9400),
}


def phone_scenes(kind: str, n: int):
    """Fixed phone-like scenes of ``kind`` (:data:`PHONE_TABLES`)."""
    from training.phone_scenes import make_phone_scene

    out = []
    sizes = [(1600, 1200), (1200, 1600), (2000, 1500)]
    seed0 = PHONE_TABLES[kind][2]
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        sc = make_phone_scene(rng, kind, size=sizes[i % len(sizes)])
        out.append((f"{kind}{seed0 + i}", sc.jpeg(int(rng.integers(75, 95))), sc))
    return out


#: (b10) the size a phone camera takes (12 MP): every kind of b4-b8 photographed at it, seeds from
#: :data:`PHONE_SIZE_SEED0` on (20 per kind; b4-b8 use 9000-9499, training 30000 and over)
PHONE_SIZE = (4000, 3000)
PHONE_SIZE_SEED0 = 9500


def phone_size_scenes(kind: str, n: int):
    """``n`` (at most 20) phone-like scenes of ``kind`` at :data:`PHONE_SIZE`, upright and sideways
    in turn."""
    from training.phone_scenes import make_phone_scene

    seed0 = PHONE_SIZE_SEED0 + 20 * list(PHONE_TABLES).index(kind)
    out = []
    for i in range(min(n, 20)):
        rng = np.random.default_rng(seed0 + i)
        sc = make_phone_scene(rng, kind, size=PHONE_SIZE if i % 2 == 0 else PHONE_SIZE[::-1])
        out.append((f"{kind}{seed0 + i}", sc.jpeg(int(rng.integers(75, 95))), sc))
    return out


#: (b9) the b8 photos taken with a shaking hand or out of focus: a horizontal motion streak, and
#: a defocus (Gaussian sigma), each as a share of the photo's width
BLURS = {
    "motion streak 0.5 % of the width": ("motion", 0.005),
    "defocus sigma 0.15 % of the width": ("defocus", 0.0015),
}


def blurred_scenes(n: int, blur: str) -> list:
    """The first ``n`` b8 photos (:func:`phone_scenes` ``clutter``) blurred as :data:`BLURS` says."""
    kind, share = BLURS[blur]
    out = []
    for name, data, sc in phone_scenes("clutter", n):
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert img is not None  # (the JPEG phone_scenes just encoded)
        if kind == "motion":
            k = max(3, int(round(img.shape[1] * share)))
            img = cv2.filter2D(img, -1, np.full((1, k), 1.0 / k, np.float32))
        else:
            img = cv2.GaussianBlur(img, (0, 0), img.shape[1] * share)
        out.append((f"{name}-{kind}", cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes(), sc))
    return out


#: photos seen from a seat at the table, this many degrees off straight above, per kind of
#: :data:`PHONE_TABLES`: (b11) the b8 hands among clutter, (b12) the b4 rows at a diagonal, whose
#: faces then come out as parallelograms
SEAT_TABLES = {"clutter": ("b11", (35.0, 50.0)), "diagonal": ("b12", (45.0, 55.0))}


def seat_scenes(n: int, degrees: float, kind: str = "clutter") -> list:
    """The first ``n`` photos of ``kind`` (:func:`phone_scenes`) and their tiles seen ``degrees``
    off straight above (:func:`training.viewpoint.scene_seen_from`)."""
    from training.viewpoint import scene_seen_from

    out = []
    for name, _data, sc in phone_scenes(kind, n):
        seen = scene_seen_from(sc, degrees)
        out.append((f"{name}-seat{degrees:g}", seen.jpeg(90), seen))
    return out


BASELINE = "ours, baseline finder model"


@contextlib.contextmanager
def _env(name: str, value: str):
    """The environment variable ``name`` set to ``value`` meanwhile."""
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old


@contextlib.contextmanager
def _segmenter_from(directory: str | None):
    """Run the learned finder with the segmenter in ``directory`` (``$MJC_MODEL_DIR``) meanwhile."""
    if directory is None:
        yield
        return
    with _env(onnx_model.ENV_DIR, directory):
        yield


def _recognize(data: bytes, classifier, finder):
    """:func:`vision.recognize.recognize` with ``finder``: a finder name, ``None`` (the default),
    ``("learned", folder)`` (the learned finder with the segmenter model in ``folder``) or
    ``("classifier", clf)`` (the default finder with the classifier ``clf`` instead of ``classifier``)."""
    if isinstance(finder, tuple) and finder[0] == "classifier":
        return recognize(data, classifier=finder[1])
    if isinstance(finder, tuple):
        with _segmenter_from(finder[1]):
            return recognize(data, classifier=classifier, finder=finder[0])
    return recognize(data, classifier=classifier, finder=finder)


def _finders() -> dict:
    """Our systems to compare: the default finder ("ours"), and the classical one beside it when
    the learned model ships."""
    from vision.finders import learned

    with_classical = learned.available() and not _BASELINE_DIR.get("no_classical")
    out: dict = {"ours": None, CLASSICAL: "classical"} if with_classical else {"ours": None}
    if _BASELINE_DIR["dir"]:
        out[BASELINE] = ("learned", _BASELINE_DIR["dir"])
    return out


#: the folder of a baseline segmenter to compare with (``--baseline-models``), and whether to leave
#: the classical finder out (``--no-classical``)
_BASELINE_DIR: dict = {"dir": None, "no_classical": False}

CLASSICAL = "ours, classical finder"


def eval_scenes(items, classifier=None, detector=None, finders: dict | None = None) -> dict:
    finders = _finders() if finders is None else finders
    res: dict[str, list] = {k: [] for k in finders}
    res["detector"] = []
    items = list(items)
    # each system reads every photo in a pass of its own, so none is timed while another's
    # network threads are still busy (on a 2-core machine that slowed the one timed next by half)
    for system, finder in finders.items():
        for name, data, sc in items:
            gt_q = [t["quad"] for t in sc.tiles]
            res[system].append(_score_scene(name, data, sc, gt_q, sc.codes, classifier, finder))
    if detector is not None and not isinstance(detector, str):
        for name, data, sc in items:
            gt_q = [t["quad"] for t in sc.tiles]
            gt_c = sc.codes
            codes, quads, dt = detector.detect(data)
            pairs = match_quads(gt_q, quads, thr=0.3)  # axis-aligned boxes: looser IoU
            ignored = _ignored(pairs, quads, sc)
            # the detector has no flower classes: count them as unreadable for it
            row = {
                "name": name,
                "n_gt": len(gt_q),
                "n_pred": len(quads) - len(ignored),
                "found": len(pairs),
                "read": sum(gt_c[g] == codes[p] for g, p, _ in pairs),
                "ms": dt,
                **sequence_scores(gt_c, [c for i, c in enumerate(codes) if i not in ignored]),
            }
            row["exact_photo"] = row["read"] == len(gt_q) and row["n_pred"] == len(gt_q)
            res["detector"].append(row)
    return res


def _ignored(pairs, pred_quads, sc) -> set[int]:
    """The predictions matched to no tile that lie on a partly shown one (:func:`on_partial`)."""
    matched = {p for _g, p, _v in pairs}
    return {i for i, q in enumerate(pred_quads) if i not in matched and on_partial(q, sc.partial)}


def _score_scene(name, data, sc, gt_q, gt_c, classifier, finder) -> dict:
    rec = _recognize(data, classifier, finder)
    pq = [t.quad for t in rec.tiles]
    pc = [t.code for t in rec.tiles]
    pairs = match_quads(gt_q, pq)
    ignored = _ignored(pairs, pq, sc)
    row = {
        "name": name,
        "n_gt": len(gt_q),
        "n_pred": len(pq) - len(ignored),
        "on_partial": len(ignored),
        "found": len(pairs),
        "read": sum(gt_c[g] == pc[p] for g, p, _ in pairs),
        "rot_gt": sum(t["rotated"] for t in sc.tiles),
        "rot_ok": sum(sc.tiles[g]["rotated"] and rec.tiles[p].rotated for g, p, _ in pairs),
        "ms": rec.timings_ms["total"],
        **sequence_scores(gt_c, [c for i, c in enumerate(pc) if i not in ignored]),
    }
    row["exact_photo"] = row["read"] == len(gt_q) and row["n_pred"] == len(gt_q)
    row["sure"] = sum(t.sure for i, t in enumerate(rec.tiles) if i not in ignored)
    row["sure_right"] = sum(rec.tiles[p].sure and gt_c[g] == pc[p] for g, p, _ in pairs)
    row["backs_gt"] = gt_c.count("back")
    row["backs_pred"] = pc.count("back")
    row["backs_read"] = sum(gt_c[g] == "back" and pc[p] == "back" for g, p, _ in pairs)
    return row


def _summ(rows: list[dict]) -> dict:
    if not rows:
        return {}
    n_gt = sum(r["n_gt"] for r in rows)
    n_pred = sum(r["n_pred"] for r in rows)
    out = {
        "photos": len(rows),
        "tiles": n_gt,
        "multiset_recall": sum(r["multiset_hits"] for r in rows) / max(1, n_gt),
        "multiset_precision": sum(r["multiset_hits"] for r in rows) / max(1, n_pred),
        "order_acc": statistics.mean(r["order_acc"] for r in rows),
        "exact_sequence": sum(r["exact"] for r in rows) / len(rows),
    }
    if "found" in rows[0]:
        out["det_recall"] = sum(r["found"] for r in rows) / max(1, n_gt)
        out["det_precision"] = sum(r["found"] for r in rows) / max(1, n_pred)
        out["read_recall"] = sum(r["read"] for r in rows) / max(1, n_gt)
        out["exact_photo"] = sum(r["exact_photo"] for r in rows) / len(rows)
    if "backs_gt" in rows[0]:
        out["backs"] = (
            f"{sum(r['backs_read'] for r in rows)}/{sum(r['backs_gt'] for r in rows)} read, "
            f"{sum(r['backs_pred'] - r['backs_read'] for r in rows)} false"
        )
    if "sure_right" in rows[0]:
        out["sure"] = sum(r["sure"] for r in rows)
        out["sure_right"] = sum(r["sure_right"] for r in rows)
    if "sure_wrong" in rows[0]:
        out["sure"] = sum(r["sure"] for r in rows)
        out["sure_right_range"] = [out["sure"] - sum(r["sure_wrong"][k] for r in rows) for k in (1, 0)]
    if "on_partial" in rows[0]:
        out["on_partial"] = sum(r["on_partial"] for r in rows)
    if "rot_gt" in rows[0]:
        out["lying_found"] = f"{sum(r['rot_ok'] for r in rows)}/{sum(r['rot_gt'] for r in rows)}"
    out["median_ms"], out["p95_ms"] = _timing([r["ms"] for r in rows])
    return out


# ----------------------------------------------------------------------------------------------
# (c) real photos


def load_labels(path: Path = LABELS) -> dict:
    if not path.exists():
        return {}
    d = json.loads(path.read_text())
    return {k: v for k, v in d.items() if not k.startswith("_")}


def _photo_path(data: Path, name: str) -> Path | None:
    cam = data / "camerash-mahjong-dataset"
    for sub in ("raw-images", "untagged-images-raw"):
        p = cam / sub / name
        if p.exists():
            return p
    return None


def _training_photos() -> set[str]:
    p = REPO / "models" / "real_crops_split.csv"
    out = set()
    if p.exists():
        import csv

        with open(p, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("split") == "train":
                    out.add(row["source_photo"])
    return out


def eval_real(data: Path, classifier=None, detector=None, finders: dict | None = None) -> dict:
    """(c) every labelled real photo found under ``data`` (the missing ones listed as such)."""
    items, missing = [], []
    for name, gt in load_labels().items():
        p = _photo_path(data, name)
        if p is None:
            missing.append(name)
        else:
            items.append((name, name, p.read_bytes(), gt))
    res = eval_labelled(items, classifier, detector, finders)
    res["missing"] = missing
    return res


def eval_unseen(data: Path, classifier=None, detector=None, finders: dict | None = None) -> dict:
    """(c8) every labelled photo of a set no model saw (:data:`UNSEEN_LABELS`) found under ``data``."""
    labelled = load_labels(UNSEEN_LABELS).items()
    items = [(_short(n), n, p.read_bytes(), gt) for n, gt in labelled if (p := _photo_path(data, n))]
    return eval_labelled(items, classifier, detector, finders)


def _short(name: str, most: int = 48) -> str:
    """A photo's file name cut to ``most`` characters for a table (the shop photos' names run to 150)."""
    return name if len(name) <= most else name[: most - 1] + "…"


def eval_labelled(items, classifier=None, detector=None, finders: dict | None = None, ordered: bool = True) -> dict:
    """Our systems and the detector on labelled photos: ``items`` of (name, labelled photo, JPEG
    bytes, labels in reading order, or in no order where ``ordered`` is false); scored as tile
    multisets and sequences (:func:`sequence_scores`), with whether the classifier saw crops of the
    labelled photo."""
    sure_wrong = sure_wrong_bounds if ordered else sure_wrong_unordered
    trained = _training_photos()
    finders = _finders() if finders is None else finders
    res: dict[str, list] = {k: [] for k in finders}
    res["detector"] = []
    items = list(items)
    for system, finder in finders.items():  # a pass per system, as in eval_scenes
        for name, photo, raw, gt in items:
            rec = _recognize(raw, classifier, finder)
            pred = [t.code for t in rec.tiles]
            res[system].append(
                {
                    "name": name,
                    "ms": rec.timings_ms["total"],
                    "in_training": photo in trained,
                    "pred": pred,
                    "labels": gt,
                    "sure": sum(t.sure for t in rec.tiles),
                    "sure_wrong": sure_wrong(gt, rec.tiles),
                    "hand_pred": [rec.tiles[i].code for g in rec.groups if g["hand"] for i in g["tiles"]],
                    **sequence_scores(gt, pred, ordered),
                }
            )
    if detector is not None and not isinstance(detector, str):
        for name, photo, raw, gt in items:
            codes, _, dt = detector.detect(raw)
            res["detector"].append(
                {
                    "name": name,
                    "ms": dt,
                    "in_training": photo in trained,
                    "pred": codes,
                    "labels": gt,
                    **sequence_scores(gt, codes, ordered),
                }
            )
    return res


def eval_real_composites(data: Path, per_photo: int, classifier=None, detector=None) -> dict:
    """(c2) the labelled real photos pasted into real background photos
    (:mod:`training.real_composites`)."""
    items = [(c.name, c.photo, c.jpeg, c.labels) for c in _composites(data, per_photo)]
    return eval_labelled(items, classifier, detector)


def _composites(data: Path, per_photo: int, **options) -> list:
    """The (c2) composites of the labelled real photos under ``data``, or others as ``options``
    say (:func:`training.real_composites.composites`)."""
    from training.real_composites import composites

    return composites(
        _labelled_paths(data),
        per_photo,
        **options,
    )


def eval_real_far(data: Path, shares: list[float], classifier=None, detector=None) -> dict:
    """(c6) the labelled real photos of up to :data:`training.real_composites.MAX_TILES` tiles
    pasted, turned, into a :data:`PHONE_SIZE` photo of a real surface the classifier never learned
    "not a tile" from, their long side ``shares`` of its width: a hand far from a 12-megapixel
    camera. Per share, :func:`eval_labelled`'s results."""
    out = {}
    for share in shares:
        made = _composites(data, 1, seed0=13000, share=(share, share), sizes=(PHONE_SIZE, PHONE_SIZE[::-1]))
        out[share] = eval_labelled([(c.name, c.photo, c.jpeg, c.labels) for c in made], classifier, detector)
    return out


def eval_real_tables(
    data: Path, n: int, views: list[tuple[float, float, float]], classifier=None, detector=None
) -> dict:
    """(c7) ``n`` photos of a table (:func:`training.real_composites.table_composites`): a labelled
    hand pasted large, near the camera, and other labelled photos pasted smaller beyond it, every
    tile labelled, in no order; as they are (key ``None``) and seen from each of ``views`` (as for
    :func:`eval_real_slanted`). Per view, :func:`eval_labelled`'s results."""
    from training.labelled_variants import variants
    from training.real_composites import table_composites, table_hand
    from training.viewpoint import seen_from

    made = table_composites(
        _labelled_paths(data),
        n,
        frozenset(_training_photos()),
    )
    photo_of = {c.name: c.photo for c in made}
    as_taken = [(c.name, c.photo, c.jpeg, c.labels) for c in made]
    out: dict[tuple[float, float, float] | None, dict] = {
        None: eval_labelled(as_taken, classifier, detector, ordered=False)
    }
    seen = list(variants(((c.name, c.jpeg, c.labels) for c in made), views, lambda img, v: seen_from(img, *v)))
    for view in views:
        items = [(n_, photo_of[n_], raw, gt) for k, n_, raw, gt in seen if k == view]
        out[view] = eval_labelled(items, classifier, detector, ordered=False)
    hand_of = {c.name: table_hand(c.name) for c in made}
    hands = {name: _row_hand(data, name) for name in set(hand_of.values())}  # (each photo read once)
    for res in out.values():
        for rows in res.values():
            for r in rows:
                r["hand_labels"] = hands[hand_of[r["name"]]]
    return out


#: a labelled photo at least this many times as long as it is wide holds one row of tiles: a hand
#: (the pasted photo near the camera in (c7) is a hand where it is one; others are grids)
ROW_ASPECT = 4.0


def _row_hand(data: Path, name: str) -> list[str] | None:
    """The labels of the labelled photo ``name`` where its tiles lie in one row (:data:`ROW_ASPECT`),
    else ``None``."""
    path = _photo_path(data, name)
    img = cv2.imread(str(path)) if path is not None else None
    if img is None:
        return None
    h, w = img.shape[:2]
    return list(load_labels()[name]) if max(h, w) >= ROW_ASPECT * min(h, w) else None


def hand_scores(rows: list[dict]) -> dict:
    """Which tiles are the hand, on the photos whose hand is known (``hand_labels``, as
    :func:`eval_real_tables` gives them): how many photos had exactly the hand's tiles marked as
    the hand (as multisets), and of the hand's tiles how many were marked (recall) and of the
    tiles marked how many were the hand's (precision)."""
    known = [r for r in rows if r.get("hand_labels") is not None]
    hits = [sum((Counter(r["hand_pred"]) & Counter(r["hand_labels"])).values()) for r in known]
    return {
        "photos": len(known),
        "exact": sum(Counter(r["hand_pred"]) == Counter(r["hand_labels"]) for r in known),
        "recall": sum(hits) / max(1, sum(len(r["hand_labels"]) for r in known)) if known else float("nan"),
        "precision": sum(hits) / max(1, sum(len(r["hand_pred"]) for r in known)) if known else float("nan"),
    }


def eval_real_composites_slanted(
    data: Path, per_photo: int, views: list[tuple[float, float, float]], classifier=None, detector=None
) -> dict:
    """(c5) the (c2) composites seen from each of ``views`` (as for :func:`eval_real_slanted`): a
    hand on a real surface photographed from a seat, in the sets the held-out rows keep out of the
    classifier's training. Per view, :func:`eval_labelled`'s results."""
    return _seen_from_seats(_composites(data, per_photo), views, classifier, detector)


def _seen_from_seats(made: list, views: list[tuple[float, float, float]], classifier=None, detector=None) -> dict:
    """Composites ``made`` (:class:`training.real_composites.Composite`) seen from each of ``views``
    (:func:`training.viewpoint.seen_from`): per view, :func:`eval_labelled`'s results."""
    from training.labelled_variants import variants
    from training.viewpoint import seen_from

    photo_of = {c.name: c.photo for c in made}
    seen = list(variants(((c.name, c.jpeg, c.labels) for c in made), views, lambda img, v: seen_from(img, *v)))
    return {
        view: eval_labelled([(n, photo_of[n], raw, gt) for k, n, raw, gt in seen if k == view], classifier, detector)
        for view in views
    }


def _labelled_paths(data: Path):
    """``(name, path, labels)`` of each labelled real photo found under ``data``."""
    return ((n, p, gt) for n, gt in load_labels().items() if (p := _photo_path(data, n)) is not None)


def eval_real_pale(data: Path, views: list[tuple[float, float, float]], classifier=None, detector=None) -> dict:
    """(c10) the labelled real photos of up to :data:`training.real_composites.MAX_TILES` tiles on
    pale plain tables (:func:`training.real_composites.pale_composites`, two per photo), seen from
    each of ``views`` (as for :func:`eval_real_slanted`): ivory faces on a white desk or tablecloth,
    photographed from a seat. Per view, :func:`eval_labelled`'s results."""
    from training.real_composites import pale_composites

    return _seen_from_seats(pale_composites(_labelled_paths(data), PALE_PER_PHOTO), views, classifier, detector)


#: (c10) pale-table composites per labelled photo
PALE_PER_PHOTO = 2


def misses_by_suit(rows: list[dict]) -> Counter:
    """The labelled tiles that photos' readings ``rows`` (:func:`eval_labelled`'s, each with
    ``labels`` and ``pred``) left unread, as multisets, counted by suit (``m p s z f`` and ``back``:
    :func:`vision.classifier.suit`): which kinds of tile the misses are."""
    out: Counter = Counter()
    for r in rows:
        for code in (Counter(r["labels"]) - Counter(r["pred"])).elements():
            out[suit(code)] += 1
    return out


def eval_real_changed(data: Path, keys: list, change, classifier=None, detector=None) -> dict:
    """The labelled real photos changed by ``change(labelled, keys)`` (an iterator of ``(key, name,
    JPEG bytes, labels)``: :func:`training.viewpoint.slanted`, :func:`training.exposure.overexposed`):
    per key, :func:`eval_labelled`'s results."""
    labelled = [(n, p.read_bytes(), gt) for n, gt in load_labels().items() if (p := _photo_path(data, n)) is not None]
    changed = list(change(labelled, keys))
    return {
        key: eval_labelled([(n, n, raw, gt) for k, n, raw, gt in changed if k == key], classifier, detector)
        for key in keys
    }


def eval_real_slanted(data: Path, views: list[tuple[float, float, float]], classifier=None, detector=None) -> dict:
    """(c3) the labelled real photos seen at a slant, as from a seat at the table
    (:func:`training.viewpoint.slanted`; ``views``: degrees off straight above, the camera's
    distance in photo lengths, and its roll in degrees): per view, :func:`eval_labelled`'s results."""
    from training.viewpoint import slanted

    return eval_real_changed(data, views, slanted, classifier, detector)


def eval_real_turned(data: Path, views: list[tuple[float, int]], classifier=None, detector=None) -> dict:
    """(c14) the labelled real photos seen from a seat and turned a quarter
    (:func:`training.viewpoint.slanted_turned`; ``views``: degrees off straight above, and quarter
    turns counter-clockwise): per view, :func:`eval_labelled`'s results."""
    from training.viewpoint import slanted_turned

    return eval_real_changed(data, views, slanted_turned, classifier, detector)


def turned_views(spec: str) -> list[tuple[float, int]]:
    """``--turned-seats``: comma-separated ``degrees:quarters`` (``45:1``: seen 45 degrees off straight
    above, then turned a quarter counter-clockwise; ``55:3``, clockwise): ``(degrees, quarters)`` per
    view."""
    views = []
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        degrees, sep, quarters = part.partition(":")
        try:
            views.append((float(degrees), int(quarters) % 4 if sep else 1))
        except ValueError:
            raise argparse.ArgumentTypeError(f"a turned seat is degrees:quarters, as 45:1, not {part!r}") from None
    return views


def eval_real_overexposed(data: Path, gains: list[float], classifier=None, detector=None) -> dict:
    """(c4) the labelled real photos overexposed (:func:`training.exposure.overexposed`; ``gains``:
    how many times their levels are scaled before clipping): per gain, :func:`eval_labelled`'s
    results."""
    from training.exposure import overexposed

    return eval_real_changed(data, gains, overexposed, classifier, detector)


def eval_real_grainy(data: Path, sigmas: list[float], classifier=None, detector=None) -> dict:
    """(c9) the labelled real photos with grain added (:func:`training.grain.grainy`; ``sigmas``: the
    noise's standard deviation in grey levels): per deviation, :func:`eval_labelled`'s results."""
    from training.grain import grainy

    return eval_real_changed(data, sigmas, grainy, classifier, detector)


def eval_real_shadowed(data: Path, values: list[float], classifier=None, detector=None) -> dict:
    """(c11) the labelled real photos with a shadow cast across (:func:`training.shadow.shadowed`;
    ``values``: the shaded side's light over the lit side's): per darkness, :func:`eval_labelled`'s
    results."""
    from training.shadow import shadowed

    return eval_real_changed(data, values, shadowed, classifier, detector)


def _shares(spec: str) -> list[float]:
    """``--far-shares``: comma-separated shares of a photo's width, each in (0, 1)."""
    out = [float(p) for p in spec.split(",") if p.strip()]
    if any(not 0 < x < 1 for x in out):
        raise argparse.ArgumentTypeError(f"shares of the width must lie between 0 and 1: {spec!r}")
    return out


def slant_views(spec: str) -> list[tuple[float, float, float]]:
    """``--slant-angles``: comma-separated ``degrees``, ``degrees@distance`` (the camera's distance
    from the table's centre in photo lengths; default :data:`training.viewpoint.DISTANCE`), each
    optionally followed by ``r`` and a roll in degrees (the phone turned about its own axis:
    ``50r8``, ``50@0.8r-8``): ``(degrees, distance, roll)`` per view."""
    from training.viewpoint import DISTANCE

    views = []
    for part in (p.strip() for p in spec.split(",")):
        if part:
            view, _, roll = part.partition("r")
            degrees, _, distance = view.partition("@")
            views.append((float(degrees), float(distance) if distance else DISTANCE, float(roll) if roll else 0.0))
    return views


def _view_name(view: tuple[float, float, float]) -> str:
    from training.viewpoint import DISTANCE

    degrees, distance, roll = view
    name = f"{degrees:g} deg" if distance == DISTANCE else f"{degrees:g} deg, {distance:g} away"
    return name if not roll else f"{name}, turned {roll:g}"


# ----------------------------------------------------------------------------------------------
# (e) 12 MP timing


def time_12mp(runs: int = 7, classifier=None) -> dict:
    rng = np.random.default_rng(777)
    sc = _scenes.make_scene(rng, size=(4000, 3000), n_rows=1, n_indicators=1)
    data = sc.jpeg(90)
    recognize(data, classifier=classifier)  # warm-up (model load)
    stages = []
    for _ in range(runs):
        rec = recognize(data, classifier=classifier)
        stages.append(rec.timings_ms)
    tot = [s["total"] for s in stages]
    return {
        "bytes": len(data),
        "runs": runs,
        "median_ms": float(np.median(tot)),
        "min_ms": float(np.min(tot)),
        "stages_median_ms": {k: float(np.median([s[k] for s in stages])) for k in stages[0]},
        "tiles_gt": len(sc.tiles),
        "tiles_found": len(rec.tiles),
    }


# ----------------------------------------------------------------------------------------------
# report


def _table(title: str, rows: list[tuple]) -> None:
    print(f"\n{title}")
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    for k, r in enumerate(rows):
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
        if k == 0:
            print("  " + "  ".join("-" * w for w in widths))


def _fmt_summary(name: str, s: dict, with_det=True) -> tuple:
    if not s:
        return (name,) + ("-",) * (10 if with_det else 5)
    base = (name, s["photos"], s["tiles"])
    det = (
        (
            _pct(s.get("det_recall", float("nan"))),
            _pct(s.get("det_precision", float("nan"))),
            _pct(s.get("read_recall", float("nan"))),
            _pct(s.get("exact_photo", float("nan"))),
            _fmt_sure(s),
        )
        if with_det
        else ()
    )
    return base + det + (_pct(s["multiset_recall"]), _pct(s["order_acc"]), f"{s['median_ms']:.0f}/{s['p95_ms']:.0f}")


def _fmt_sure(s: dict) -> str:
    """The share of the tiles shown as sure that are right, and how many were sure (``-`` for a
    system that says nothing of sureness, such as the detector)."""
    if "sure" not in s:
        return "-"
    return f"{_pct(s['sure_right'] / s['sure']) if s['sure'] else '-'} of {s['sure']}"


SCENE_HEADER = (
    "system",
    "photos",
    "tiles",
    "found",
    "prec",
    "read",
    "exact",
    "sure right",
    "multiset",
    "order",
    "ms med/p95",
)


def _report_crops(data: Path, per_class: int, clf, report: dict) -> None:
    """(a) the classifier on held-out real crops and synthetic crops."""
    try:
        from training.evaluate_crops import evaluate_crops

        crops = evaluate_crops(data, synthetic_per_class=per_class, classifier=clf)
        report["crops"] = {
            k: {kk: vv for kk, vv in v.items() if kk in ("n", "accuracy", "top3_accuracy", "skipped")}
            for k, v in crops.items()
        }
        rows: list[tuple] = [("set", "crops", "top-1", "top-3")]
        for k, v in crops.items():
            if "skipped" in v:
                rows.append((k, "-", "skipped", v["skipped"]))
            else:
                rows.append((k, v["n"], _pct(v["accuracy"]), _pct(v["top3_accuracy"])))
        _table("(a) classifier on crops", rows)
    except Exception as exc:
        print(f"\n(a) crop evaluation failed: {type(exc).__name__}: {exc}")


def _report_scenes(a: argparse.Namespace, clf, det, report: dict) -> None:
    """(b) synthetic table photos (with the detector), (b2) with concealed kongs, (b3) standing hands."""
    if a.scenes > 0:
        items = synthetic_scenes(a.scenes)
        sres = eval_scenes(items, classifier=clf, detector=det)
        report["synthetic"] = {k: _summ(v) for k, v in sres.items() if v}
        report["synthetic_rows"] = sres
        rows = [SCENE_HEADER] + [_fmt_summary(k, report["synthetic"][k]) for k in sres if sres[k]]
        _table(
            f"(b) synthetic table photos ({a.scenes}, sizes 1000-4000 px; lying tiles found "
            f"{report['synthetic']['ours'].get('lying_found')})",
            rows,
        )
    if a.kong_scenes > 0:
        kres = eval_scenes(kong_scenes(a.kong_scenes), classifier=clf, finders=_with_previous_classifier(clf))
        ks = {k: _summ(v) for k, v in kres.items() if v}
        report["kong_scenes"] = ks
        _table(
            f"(b2) synthetic photos with concealed kongs ({a.kong_scenes}; tile backs: "
            + "; ".join(f"{k} {v.get('backs')}" for k, v in ks.items())
            + ")",
            [SCENE_HEADER] + [_fmt_summary(k, v) for k, v in ks.items()],
        )
    if a.standing_scenes > 0:
        sres2 = eval_scenes(standing_scenes(a.standing_scenes), classifier=clf)
        ss = {k: _summ(v) for k, v in sres2.items() if v}
        report["standing_scenes"] = ss
        _table(
            f"(b3) synthetic photos of hands standing up ({a.standing_scenes})",
            [SCENE_HEADER] + [_fmt_summary(k, v) for k, v in ss.items()],
        )


def _with_previous_classifier(clf) -> dict:
    """Our systems (:func:`_finders`) and, when there is one, our default finder with the previously
    shipped classifier (git history, :func:`training.evaluate_reject.previous_model`)."""
    from training.evaluate_reject import previous_model
    from vision.classifier import TileClassifier

    systems = _finders()
    with tempfile.TemporaryDirectory() as tmp:
        prev = previous_model(Path(tmp)) if clf is not None else None
        if prev is not None:  # the session is loaded here, the files may go
            systems[f"ours, previous classifier ({prev[1]})"] = ("classifier", TileClassifier(prev[0]))
    return systems


def _report_phone(a: argparse.Namespace, clf, det, report: dict) -> None:
    """(b4-b8) phone-like photos, one table per kind, with the detector side by side, and our
    default finder with the previously shipped classifier in the same run."""
    if a.phone_scenes <= 0:
        return
    from training import backgrounds

    real = "real backgrounds" if backgrounds.load_manifest() else "no background cache: procedural surfaces only"
    systems = _with_previous_classifier(clf)
    for kind, (table, title, _) in PHONE_TABLES.items():
        _scene_table(
            phone_scenes(kind, a.phone_scenes),
            f"phone_{kind}",
            lambda ours, table=table, title=title: (
                f"({table}) {title} ({a.phone_scenes}, {real}; lying tiles found {ours.get('lying_found')}; "
                f"finds on partly shown tiles, not counted: {ours.get('on_partial')})"
            ),
            clf,
            det,
            report,
            systems,
        )


def _scene_table(items, key: str, title, clf, det, report: dict, finders: dict | None = None) -> None:
    """Our systems (``finders``, default :func:`_finders`) and the detector on the scenes ``items``
    (:func:`eval_scenes`): summed up into ``report[key]`` and printed as a table whose title is
    ``title(our summary)``."""
    res = eval_scenes(items, classifier=clf, detector=det, finders=finders)
    summ = {k: _summ(v) for k, v in res.items() if v}
    report[key] = summ
    _table(title(summ["ours"]), [SCENE_HEADER] + [_fmt_summary(k, v) for k, v in summ.items()])


#: (c12) the first seed of each kind's photos drawn with real faces (:func:`_report_real_tile_scenes`)
REAL_TILE_SEED0 = 21000


#: (c15) the first seed of each kind's rendered photos (:func:`_report_blender_scenes`)
BLENDER_SEED0 = 31000


def _report_blender_scenes(a: argparse.Namespace, data: Path, clf, det, report: dict) -> None:
    """(c15) photos rendered with Blender's path tracer (:func:`training.blender_scenes.blender_scenes`):
    solid, bevelled, glossy tiles with real faces of the sets no model learned from, one table per
    kind (:data:`training.blender_scenes.KINDS`), the detector side by side; seeds
    :data:`BLENDER_SEED0` + 100 x the kind's place. Skipped, with the reason, where Blender's
    module cannot be installed."""
    if a.blender_scenes <= 0:
        return
    from training.blender_scenes import KINDS, blender_scenes, ensure_blender

    try:
        python = ensure_blender()
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"\n(c15) skipped: Blender's module (bpy) could not be installed: {exc}")
        return
    titles = {
        "hand": "a hand lying face up, melds apart, discards and the wall beyond",
        "standing": "a concealed hand standing, facing the camera, melds lying in front",
        "diagonal": "a hand's row at 20-45 degrees",
    }
    for k, kind in enumerate(KINDS):
        items = blender_scenes(kind, a.blender_scenes, data, BLENDER_SEED0 + 100 * k, python)
        if not items:
            print(f"\n(c15) skipped: no held-out real crops under {data} or no background cache")
            return
        title = (
            f"(c15) rendered (Blender, Cycles): {titles[kind]}; solid bevelled tiles, real faces of a set no "
            f"model learned from ({a.blender_scenes}; training.blender_scenes)"
        )
        _scene_table(items, f"rendered_{kind}", lambda _ours, t=title: t, clf, det, report)


def _report_real_tile_scenes(a: argparse.Namespace, data: Path, clf, det, report: dict) -> None:
    """(c12) the b4-b8 kinds drawn with real faces (:func:`training.real_tile_scenes.real_tile_scenes`),
    one table per kind, the detector side by side; seeds :data:`REAL_TILE_SEED0` + 100 x the kind's
    place in :data:`PHONE_TABLES`. (c13) the same photos seen from a seat at each of
    ``--real-tile-seats`` degrees off straight above, one table per kind and angle."""
    if a.real_tile_scenes <= 0:
        return
    from training.real_tile_scenes import real_tile_scenes
    from training.viewpoint import scene_seen_from

    seats = [float(d) for d in a.real_tile_seats.split(",") if d.strip()]
    for k, (kind, (table, title, _)) in enumerate(PHONE_TABLES.items()):
        items = real_tile_scenes(kind, a.real_tile_scenes, data, REAL_TILE_SEED0 + 100 * k)
        if not items:
            print(f"\n(c12) skipped: no held-out real crops under {data} or no background cache")
            return
        title_ = (
            f"(c12) as ({table}), {title}, every face a real tile of a set no model learned from "
            f"({a.real_tile_scenes}; training.real_tile_scenes)"
        )
        _scene_table(items, f"real_tiles_{kind}", lambda _ours, t=title_: t, clf, det, report)
        for degrees in seats:
            seen = [scene_seen_from(sc, degrees) for _name, _jpeg, sc in items]
            title_ = (
                f"(c13) the (c12) {kind} photos seen from a seat, {degrees:g} degrees off straight above "
                f"({a.real_tile_scenes}; training.viewpoint)"
            )
            _scene_table(
                [(f"{name}-seat{degrees:g}", sc.jpeg(90), sc) for (name, _jpeg, _sc), sc in zip(items, seen)],
                f"real_tiles_{kind}_seat_{degrees:g}",
                lambda _ours, t=title_: t,
                clf,
                det,
                report,
            )


def _report_blurred(a: argparse.Namespace, clf, det, report: dict) -> None:
    """(b9) the b8 photos blurred (:data:`BLURS`), one table per blur, as b4-b8 are reported."""
    if a.blurred_scenes <= 0:
        return
    systems = _with_previous_classifier(clf)
    for blur in BLURS:
        title = f"(b9) the b8 photos blurred: {blur} ({a.blurred_scenes})"
        items = blurred_scenes(a.blurred_scenes, blur)
        _scene_table(items, f"blurred_{BLURS[blur][0]}", lambda _ours, t=title: t, clf, det, report, systems)


def _report_seat(a: argparse.Namespace, clf, det, report: dict) -> None:
    """(b11, b12) photos seen from a seat (:data:`SEAT_TABLES`), one table per kind and angle."""
    if a.seat_scenes <= 0:
        return
    for kind, (table, angles) in SEAT_TABLES.items():
        for degrees in angles:
            title = (
                f"({table}) the {PHONE_TABLES[kind][0]} photos seen from a seat at the table, {degrees:g} degrees "
                f"off straight above ({a.seat_scenes}; training.viewpoint: the far side smaller, every tile squatter)"
            )
            items = seat_scenes(a.seat_scenes, degrees, kind)
            key = f"seat_{degrees:g}" if kind == "clutter" else f"seat_{kind}_{degrees:g}"
            _scene_table(items, key, lambda _ours, t=title: t, clf, det, report)


def _report_phone_size(a: argparse.Namespace, clf, det, report: dict) -> None:
    """(b10) every kind of b4-b8 at the size a phone takes (:data:`PHONE_SIZE`): one row per kind
    and system, and all kinds together."""
    if a.phone_size_scenes <= 0:
        return
    rows: list = [SCENE_HEADER]
    pooled: dict[str, list] = {}
    for kind, (table, _title, _) in PHONE_TABLES.items():
        res = eval_scenes(phone_size_scenes(kind, a.phone_size_scenes), classifier=clf, detector=det)
        for system, r in res.items():
            if r:
                pooled.setdefault(system, []).extend(r)
                rows.append(_fmt_summary(f"{system}, {table} {kind}", _summ(r)))
    summ = {k: _summ(v) for k, v in pooled.items()}
    report["phone_size"] = summ
    rows += [_fmt_summary(f"{k}, all kinds", v) for k, v in summ.items()]
    w, h = PHONE_SIZE
    _table(f"(b10) the b4-b8 kinds photographed at {w}x{h} ({a.phone_size_scenes} per kind)", rows)


def _real_photo_rows(rres: dict) -> list[tuple]:
    """Per labelled real photo: ours and the detector side by side."""
    rows: list[tuple] = [
        (
            "photo",
            "tiles",
            "set",
            "ours found",
            "ours multiset",
            "ours order",
            "ours ms",
            "det found",
            "det multiset",
            "det order",
            "det ms",
        )
    ]
    dets = {r["name"]: r for r in rres["detector"]}
    for r in rres["ours"]:
        d = dets.get(r["name"])
        rows.append(
            (
                r["name"],
                r["n_gt"],
                "train" if r["in_training"] else "held-out",
                r["n_pred"],
                _pct(r["multiset_hits"] / max(1, r["n_gt"])),
                _pct(r["order_acc"]),
                f"{r['ms']:.0f}",
                d["n_pred"] if d else "-",
                _pct(d["multiset_hits"] / max(1, d["n_gt"])) if d else "-",
                _pct(d["order_acc"]) if d else "-",
                f"{d['ms']:.0f}" if d else "-",
            )
        )
    return rows


def _sure_range(s: dict) -> str:
    """The labelled photos' sure column: the share of the sure tiles that are right, at the least
    and at the most (:func:`sure_wrong_bounds`), one figure when the two agree; ``-`` for a system
    without sureness."""
    if "sure_right_range" not in s:
        return "-"
    if not s["sure"]:
        return "- of 0"
    lo, hi = (_pct(k / s["sure"]).strip() for k in s["sure_right_range"])
    return f"{lo if lo == hi else f'{lo[:-1]}-{hi}'} of {s['sure']}"


def _subsets(rows: list[dict]) -> tuple[tuple[str, list[dict]], ...]:
    """Labelled photos' results ``rows`` (:func:`eval_labelled`'s) as the tables split them: all,
    and those of photos the classifier saw no crop of."""
    return ("all", rows), ("held-out", [r for r in rows if not r["in_training"]])


def _real_summary_rows(rres: dict, systems: list[str]) -> list[tuple]:
    """Per system: all labelled real photos, and the held-out ones."""
    rows: list[tuple] = [
        (
            "system",
            "subset",
            "photos",
            "tiles",
            "multiset recall",
            "multiset precision",
            "order acc",
            "exact",
            "sure right",
            "ms med/p95",
        )
    ]
    for sysname, rows_ in ((k if k != "detector" else "mahjong-detector", rres[k]) for k in systems):
        for subset, sel in _subsets(rows_):
            s = _summ(sel)
            if not s:
                continue
            rows.append(
                (
                    sysname,
                    subset,
                    s["photos"],
                    s["tiles"],
                    _pct(s["multiset_recall"]),
                    _pct(s["multiset_precision"]),
                    _pct(s["order_acc"]),
                    _pct(s["exact_sequence"]),
                    _sure_range(s),
                    f"{s['median_ms']:.0f}/{s['p95_ms']:.0f}",
                )
            )
    return rows


def _report_real(data: Path, clf, det, report: dict) -> None:
    """(c/d) labelled real photos: per photo, and summed up per system."""
    labels = load_labels()
    if not (labels and (data / "camerash-mahjong-dataset").exists()):
        print(f"\n(c) real photos skipped (labels: {LABELS.exists()}, data: {data.exists()})")
        return
    rres = eval_real(data, classifier=clf, detector=det)
    report["real"] = rres
    _table(
        f"(c/d) labelled real photos ({len(rres['ours'])}; 'train' = the classifier saw crops of this photo)",
        _real_photo_rows(rres),
    )
    systems = [k for k in rres if k not in ("detector", "missing")] + ["detector"]
    _table("(c/d) real photos summary", _real_summary_rows(rres, systems))
    report["real_summary"] = {k: _summ(rres[k]) for k in systems}


def _report_unseen(data: Path, clf, det, report: dict) -> None:
    """(c8) labelled real photos of sets no model saw: per photo, and summed up per system."""
    if not (load_labels(UNSEEN_LABELS) and (data / "camerash-mahjong-dataset").exists()):
        print("\n(c8) skipped: no labelled photos of unseen sets")
        return
    rres = eval_unseen(data, classifier=clf, detector=det)
    report["unseen"] = rres
    _table(
        f"(c8) real photos of sets no model was trained or tuned on ({len(rres['ours'])}; catalogue photos of "
        "whole sets, labelled by eye in session 37)",
        _real_photo_rows(rres),
    )
    systems = [k for k in rres if k != "detector"] + ["detector"]
    _table("(c8) summary", _real_summary_rows(rres, systems))
    report["unseen_summary"] = {k: _summ(rres[k]) for k in systems}


def _report_real_composites(data: Path, per_photo: int, clf, det, report: dict) -> None:
    """(c2) labelled real photos on real backgrounds, summed up per system, and the composites we
    read wrong."""
    from training import real_composites

    if per_photo <= 0:
        return
    rres = eval_real_composites(data, per_photo, classifier=clf, detector=det)
    if not rres["ours"]:
        print("\n(c2) skipped: no labelled real photos or no background cache (training.backgrounds)")
        return
    report["real_composites"] = rres
    systems = [k for k in rres if k != "detector"] + ["detector"]
    report["real_composites_summary"] = {k: _summ(rres[k]) for k in systems}
    _table(
        f"(c2) labelled real photos of up to {real_composites.MAX_TILES} tiles, turned and pasted into the real "
        f"background photos the classifier's negatives leave out ({len(rres['ours'])} photos, {per_photo} per "
        "labelled photo; the finder's synthetic photos used them under synthetic tiles)",
        _real_summary_rows(rres, systems),
    )
    rows: list[tuple] = [("composite", "read beyond the labels", "labels not read")]
    for r in rres["ours"]:
        pred, labels = Counter(r["pred"]), Counter(r["labels"])
        if pred != labels:
            rows.append(
                (r["name"], " ".join(sorted((pred - labels).elements())), " ".join(sorted((labels - pred).elements())))
            )
    if len(rows) > 1:
        _table("(c2) ours: the composites whose tiles are not the labels' (as multisets)", rows)


def _report_real_changed(title: str, by_key: dict, name, report: dict, report_key: str) -> None:
    """A table of the labelled real photos changed in several ways (``by_key``: per change,
    :func:`eval_labelled`'s results; ``name(key)``: the change in words), summed up per change and
    system."""
    report[report_key] = {
        name(key): {k: _summ(r) for k, r in res.items() if k != "detector" or r} for key, res in by_key.items()
    }
    rows: list[tuple] = []
    for key, res in by_key.items():
        systems = [k for k in res if k != "detector"] + (["detector"] if res["detector"] else [])
        summary = _real_summary_rows(res, systems)
        rows += [summary[0]] if not rows else []
        rows += [(f"{name(key)}: {r[0]}", *r[1:]) for r in summary[1:]]
    _table(title, rows)


#: the tables of the labelled real photos changed one way, several keys each: table -> (title,
#: evaluation ``(data, keys, classifier, detector)``, the key in words, the report's key)
REAL_CHANGES: dict = {
    "c3": (
        "(c3) labelled real photos seen at a slant, as from a seat at the table (degrees off straight above; "
        "the camera 1.3 photo lengths from the table's centre, or as said; training.viewpoint: the far side "
        "smaller, every tile squatter)",
        eval_real_slanted,
        _view_name,
        "real_slanted",
    ),
    "c14": (
        "(c14) labelled real photos seen from a seat as (c3), then turned a quarter (counter-clockwise: 1, "
        "clockwise: 3), as a photo that lost its EXIF orientation or that a player turned shows them: the "
        "table's depth runs across the photo (training.viewpoint.slanted_turned)",
        eval_real_turned,
        lambda view: (
            f"{view[0]:g} deg, turned {'counter-clockwise' if view[1] == 1 else 'clockwise' if view[1] == 3 else f'{90 * view[1]} deg'}"
        ),
        "real_turned",
    ),
    "c4": (
        "(c4) labelled real photos overexposed, as a phone metering a dark table burns out the faces (levels "
        "scaled by the gain, clipped at white; training.exposure)",
        eval_real_overexposed,
        lambda gain: f"levels x {gain:g}",
        "real_overexposed",
    ),
    "c9": (
        "(c9) labelled real photos grainy, as a phone takes them in a dim room (Gaussian noise of this many grey "
        "levels added to every pixel; training.grain)",
        eval_real_grainy,
        lambda sigma: f"noise {sigma:g}",
        "real_grainy",
    ),
    "c11": (
        "(c11) labelled real photos with a shadow cast across about half of each, as a phone or an arm shades a "
        "hand under a lamp (the shaded side this many times as light as the lit one, a penumbra 4 % of the "
        "photo wide; training.shadow)",
        eval_real_shadowed,
        lambda darkness: f"shadow x {darkness:g}",
        "real_shadowed",
    ),
    "c10": (
        "(c10) labelled real photos of up to 40 tiles on pale plain tables (white, light grey, cream: as light as "
        f"ivory faces or lighter; {PALE_PER_PHOTO} per photo, training.real_composites.pale_composites), seen from "
        "a seat as (c3)",
        eval_real_pale,
        _view_name,
        "real_pale",
    ),
}


def _report_real_changes(data: Path, table: str, keys: list, clf, det, report: dict) -> None:
    """The table ``table`` of :data:`REAL_CHANGES` (c3, c4, c9, c10, c11, c14): the labelled real photos changed by
    each of ``keys``, summed up per key and system (nothing where ``keys`` is empty)."""
    if not keys or not _have_labelled(data, table):
        return
    title, evaluate, name, report_key = REAL_CHANGES[table]
    _report_real_changed(title, evaluate(data, keys, clf, det), name, report, report_key)


def _have_labelled(data: Path, table: str) -> bool:
    """Whether the labelled real photos are at hand (else says that ``table`` is skipped)."""
    if load_labels() and (data / "camerash-mahjong-dataset").exists():
        return True
    print(f"\n({table}) skipped: no labelled real photos")
    return False


#: the suits :func:`misses_by_suit` counts, in the order the (c5) table shows them
SUITS_SHOWN = ("m", "p", "s", "z", "f", "back")


def _report_real_composites_slanted(
    data: Path, per_photo: int, views: list[tuple[float, float, float]], clf, det, report: dict
) -> None:
    """(c5) the (c2) composites seen from a seat, summed up per view and system, and our misses by
    suit."""
    from training import real_composites

    if per_photo <= 0 or not views or not _have_labelled(data, "c5"):
        return
    by_view = eval_real_composites_slanted(data, per_photo, views, classifier=clf, detector=det)
    if not any(res["ours"] for res in by_view.values()):
        print("\n(c5) skipped: no background cache (training.backgrounds)")
        return
    _report_real_changed(
        f"(c5) the (c2) composites (labelled photos of up to {real_composites.MAX_TILES} tiles on real "
        f"backgrounds, {per_photo} per photo) seen from a seat at the table, as (c3); the held-out rows are "
        "sets the classifier never saw",
        by_view,
        _view_name,
        report,
        "real_composites_slanted",
    )
    rows: list[tuple] = [("view", "subset", "labels not read", *SUITS_SHOWN)]
    for view, res in by_view.items():
        for subset, sel in _subsets(res["ours"]):
            missed = misses_by_suit(sel)
            rows.append((_view_name(view), subset, sum(missed.values()), *(missed[k] for k in SUITS_SHOWN)))
    _table("(c5) ours: the labelled tiles not read, by suit (f: flowers and seasons)", rows)


def _report_real_far(data: Path, shares: list[float], clf, det, report: dict) -> None:
    """(c6) labelled real photos far from a 12-megapixel camera, summed up per share and system."""
    from training import real_composites

    if not shares or not _have_labelled(data, "c6"):
        return
    by_share = eval_real_far(data, shares, classifier=clf, detector=det)
    if not any(res["ours"] for res in by_share.values()):
        print("\n(c6) skipped: no background cache (training.backgrounds)")
        return
    _report_real_changed(
        f"(c6) labelled real photos of up to {real_composites.MAX_TILES} tiles pasted small into a {PHONE_SIZE[0]}x{PHONE_SIZE[1]} photo "
        "of a real surface, as a hand far from a phone's camera (the pasted photo's long side as a share of "
        "the frame's)",
        by_share,
        lambda share: f"{share:g} of the width",
        report,
        "real_far",
    )


def _report_real_tables(data: Path, n: int, views: list[tuple[float, float, float]], clf, det, report: dict) -> None:
    """(c7) photos of a table: a labelled hand near the camera, other labelled tiles beyond it."""
    from training import real_composites

    if n <= 0 or not _have_labelled(data, "c7"):
        return
    by_view = eval_real_tables(data, n, views, classifier=clf, detector=det)
    if not by_view[None]["ours"]:
        print("\n(c7) skipped: no background cache (training.backgrounds)")
        return
    _report_real_changed(
        f"(c7) a table: a labelled photo of up to {real_composites.TABLE_HAND_MAX} tiles pasted large at the "
        f"bottom of a real background (the hand, near the camera), two or three of up to {real_composites.MAX_TILES} "
        "pasted smaller above it (other players' tiles, farther off), every tile labelled; as they are and seen "
        "from a seat as (c3); 'held-out': no pasted photo's set trained the classifier; the labels have no order "
        "(exact: as multisets)",
        by_view,
        lambda view: "as taken" if view is None else _view_name(view),
        report,
        "real_tables",
    )
    rows: list[tuple] = [
        ("view: system", "photos", "hand marked exactly", "hand's tiles marked", "marked that are the hand's")
    ]
    report["real_tables_hand"] = {}
    for view, res in by_view.items():
        name = "as taken" if view is None else _view_name(view)
        for system in (k for k in res if k != "detector"):
            h = hand_scores(res[system])
            report["real_tables_hand"][f"{name}: {system}"] = h
            rows.append((f"{name}: {system}", h["photos"], f"{h['exact']}", _pct(h["recall"]), _pct(h["precision"])))
    _table(
        "(c7) which tiles are the hand, on the photos whose hand is one row of tiles (the others are grids): the "
        "groups marked as the hand against the hand's labels, as multisets (mahjong-detector marks no hand)",
        rows,
    )


def _report_reject(data: Path, clf, report: dict) -> None:
    """(f) reliability and sure precision, (g) false tiles on photos without tiles, (h) previous vs
    current classifier."""
    from training import evaluate_reject

    try:
        report["reject"] = evaluate_reject.report(data, clf, load_labels(), _training_photos(), _table)
    except Exception as exc:
        print(f"\n(f/g/h) failed: {type(exc).__name__}: {exc}")


def _int8_ships() -> bool:
    return any(onnx_model.runtime_file(n) != onnx_model.model_file(n) for n in ("tile_segmenter", "tile_classifier"))


def _report_timing(runs: int, clf, report: dict) -> None:
    """(e) a 12-megapixel synthetic JPEG end to end, per stage; where int8 copies of the networks
    ship (the default), also with the float networks, in the same run."""
    from vision.classifier import TileClassifier

    timings = {"int8 networks (shipped)" if _int8_ships() else "float networks": time_12mp(runs, classifier=clf)}
    if _int8_ships() and clf is not None:
        with _env(onnx_model.ENV_FLOAT, "1"):
            timings["float networks"] = time_12mp(runs, classifier=TileClassifier())
    report["timing_12mp"] = next(iter(timings.values()))
    report["timing_12mp_by_networks"] = timings
    base = timings.get("float networks", report["timing_12mp"])["median_ms"]
    rows: list[tuple] = [
        (
            "networks",
            "runs",
            "median ms",
            "vs float",
            "min ms",
            "decode",
            "segment",
            "classify",
            "group",
            "tiles found/gt",
        )
    ]
    for name, t in timings.items():
        st = t["stages_median_ms"]
        rows.append(
            (
                name,
                t["runs"],
                f"{t['median_ms']:.0f}",
                f"{t['median_ms'] / base:.2f}x",
                f"{t['min_ms']:.0f}",
                f"{st['decode']:.0f}",
                f"{st['segment']:.0f}",
                f"{st['classify']:.0f}",
                f"{st['group']:.0f}",
                f"{t['tiles_found']}/{t['tiles_gt']}",
            )
        )
    _table("(e) 12-megapixel synthetic JPEG end to end", rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="shared vision-data folder")
    ap.add_argument("--scenes", type=int, default=40, help="synthetic scenes (0: skip)")
    ap.add_argument("--kong-scenes", type=int, default=12, help="synthetic scenes with concealed kongs (0: skip)")
    ap.add_argument("--standing-scenes", type=int, default=12, help="synthetic scenes of standing hands (0: skip)")
    ap.add_argument("--phone-scenes", type=int, default=12, help="phone-like scenes per kind, tables b4-b8 (0: skip)")
    ap.add_argument("--blurred-scenes", type=int, default=12, help="b8 photos blurred, table b9 (0: skip)")
    ap.add_argument(
        "--seat-scenes",
        type=int,
        default=12,
        help="b8 and b4 photos seen from a seat, per angle, tables b11 and b12 (0: skip)",
    )
    ap.add_argument(
        "--phone-size-scenes", type=int, default=4, help="b4-b8 kinds at 4000x3000 per kind, table b10 (0: skip)"
    )
    ap.add_argument("--composites", type=int, default=4, help="(c2) composites per labelled real photo (0: skip)")
    ap.add_argument(
        "--real-tile-scenes",
        type=int,
        default=12,
        help="(c12) phone-like photos per kind of b4-b8 drawn with real faces (0: skip)",
    )
    ap.add_argument(
        "--blender-scenes",
        type=int,
        default=8,
        help="(c15) photos per kind rendered with Blender (bpy, installed into training/.cache on first use; "
        "renders cached there; 0: skip)",
    )
    ap.add_argument(
        "--real-tile-seats",
        default="45,55",
        help="(c13) view the (c12) photos from a seat at these degrees off straight above (comma-separated; '' skips)",
    )
    ap.add_argument(
        "--slant-angles",
        type=slant_views,
        default="30,45,55,50@0.8,50r8",
        help="(c3) view the labelled real photos at these degrees off straight above (comma-separated; "
        "degrees@distance: the camera that many photo lengths from the table's centre, default 1.3; "
        "a trailing r<degrees>: the phone turned that much about its own axis, as 50r8; '' skips)",
    )
    ap.add_argument(
        "--turned-seats",
        type=turned_views,
        default="45:1,45:3,55:1,55:3",
        help="(c14) view the labelled real photos from a seat at these degrees off straight above, then turn them "
        "that many quarter turns counter-clockwise (degrees:quarters, comma-separated; '' skips)",
    )
    ap.add_argument(
        "--seat-composites",
        type=slant_views,
        default="45,55r5",
        help="(c5) view the (c2) composites from these seats, as --slant-angles ('' skips)",
    )
    ap.add_argument(
        "--far-shares",
        type=_shares,
        default="0.12,0.15,0.2",
        help="(c6) paste the labelled real photos into a 4000x3000 photo, their long side these shares of its "
        "width (comma-separated; '' skips)",
    )
    ap.add_argument("--tables", type=int, default=24, help="(c7) photos of a table, a hand among other tiles (0 skips)")
    ap.add_argument(
        "--table-seats",
        type=slant_views,
        default="45",
        help="(c7) also view the photos of a table from these seats, as --slant-angles ('' skips)",
    )
    ap.add_argument(
        "--exposures",
        type=exposures,
        default="1.3,1.5",
        help="(c4) overexpose the labelled real photos by these gains (comma-separated, each over 1: the levels "
        "scaled, then clipped at white; '' skips)",
    )
    ap.add_argument(
        "--grain",
        type=grains,
        default="12,17,24",
        help="(c9) add Gaussian noise of these standard deviations (grey levels, comma-separated) to the labelled "
        "real photos ('' skips)",
    )
    ap.add_argument(
        "--shadows",
        type=darknesses,
        default="0.6,0.45,0.3",
        help="(c11) cast a shadow this many times as light as the lit side across the labelled real photos "
        "(comma-separated, each between 0 and 1; '' skips)",
    )
    ap.add_argument(
        "--pale-seats",
        type=slant_views,
        default="0,30,45,55r5",
        help="(c10) view the labelled real photos on pale plain tables from these seats, as --slant-angles "
        "(0: straight above; '' skips)",
    )
    ap.add_argument(
        "--baseline-models",
        default=None,
        help="a folder holding another tile_segmenter.onnx to compare with the shipped one, side by side",
    )
    ap.add_argument("--no-classical", action="store_true", help="leave the classical finder out of the comparison")
    ap.add_argument("--crops", type=int, default=10, help="synthetic crops per class for (a) (0: skip)")
    ap.add_argument("--no-detector", action="store_true", help="skip the mahjong-detector comparison")
    ap.add_argument("--timing-runs", type=int, default=7)
    ap.add_argument("--json", help="write all results here")
    a = ap.parse_args(argv)
    data = Path(a.data)
    report: dict = {}
    _BASELINE_DIR.update(dir=a.baseline_models, no_classical=a.no_classical)
    if (
        a.phone_scenes > 0
        or a.blurred_scenes > 0
        or a.seat_scenes > 0
        or a.phone_size_scenes > 0
        or a.composites > 0
        or a.real_tile_scenes > 0
        or a.far_shares
        or a.tables > 0
    ):
        from training import backgrounds

        backgrounds.ensure_backgrounds()  # b8-b10 and c2 draw on them: fetched once, then cached

    clf = None
    try:
        from vision.classifier import get_classifier

        clf = get_classifier()
    except Exception as exc:
        print(f"classifier unavailable: {exc}; tiles are located but not read (codes '?')")
    if clf is not None:
        _report_crops(data, a.crops, clf, report)
        _report_reject(data, clf, report)
    det = None if a.no_detector else _detector()
    if isinstance(det, str):
        print("\n" + det)
    _report_scenes(a, clf, det, report)
    _report_phone(a, clf, det, report)
    _report_blurred(a, clf, det, report)
    _report_seat(a, clf, det, report)
    _report_phone_size(a, clf, det, report)
    _report_real(data, clf, det, report)
    _report_unseen(data, clf, det, report)
    _report_real_composites(data, a.composites, clf, det, report)
    for table, keys in (
        ("c3", a.slant_angles),
        ("c14", a.turned_seats),
        ("c4", a.exposures),
        ("c9", a.grain),
        ("c10", a.pale_seats),
        ("c11", a.shadows),
    ):
        _report_real_changes(data, table, keys, clf, det, report)
    _report_real_composites_slanted(data, a.composites, a.seat_composites, clf, det, report)
    _report_real_far(data, a.far_shares, clf, det, report)
    _report_real_tables(data, a.tables, a.table_seats, clf, det, report)
    _report_real_tile_scenes(a, data, clf, det, report)
    _report_blender_scenes(a, data, clf, det, report)
    if a.timing_runs > 0:
        _report_timing(a.timing_runs, clf, report)
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
