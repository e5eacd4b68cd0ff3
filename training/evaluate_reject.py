"""Benchmark sections for "not a tile" and calibrated confidence (no torch needed).

Called by :mod:`training.evaluate` (``python3 run.py bench vision``); prints

(f) reliability: calibrated confidence bins -> count and accuracy, on the held-out real crops and
    on the tiles read in the labelled real photos (a tile is right when the edit-distance alignment
    of the reading to the labels pairs it with a label of the same code; extra tiles are wrong),
    and the precision of the tiles shown as ``sure``;
(g) false tiles on background photos without tiles (:func:`training.negatives.background_photos`;
    each marked whether the current classifier's negatives came from it, per its metadata): the
    previous shipped classifier
    (from git history) and the current one in the same run, per photo, with how many read as the
    white dragon 5z and as flowers;
(h) the previous and the current classifier on the held-out real crops and the labelled real photos.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

from training import artwork, calibration, negatives
from vision.classifier import NOT_A_TILE, TileClassifier
from vision.recognize import recognize

REPO = Path(__file__).resolve().parent.parent
MODEL_FILES = ("tile_classifier.onnx", "tile_classifier.json")
#: the fallback for featureless crops that shipped with a classifier, where one did
FALLBACK_FILES = ("tile_fallback.onnx", "tile_fallback.json")


# ---------------------------------------------------------------------------------------------
# (f) reliability


def align_right(gt: list[str], pred: list[str]) -> list[bool]:
    """For each predicted code: whether a minimal edit-distance alignment of ``pred`` to ``gt``
    pairs it with an equal label (substitutions and insertions are wrong)."""
    n, m = len(gt), len(pred)
    d = np.zeros((n + 1, m + 1), np.int32)
    d[:, 0] = np.arange(n + 1)
    d[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (gt[i - 1] != pred[j - 1]))
    right = [False] * m
    i, j = n, m
    while i > 0 and j > 0:
        if d[i, j] == d[i - 1, j - 1] + (gt[i - 1] != pred[j - 1]):
            right[j - 1] = gt[i - 1] == pred[j - 1]
            i, j = i - 1, j - 1
        elif d[i, j] == d[i, j - 1] + 1:
            j -= 1
        else:
            i -= 1
    return right


def crop_readings(
    data: Path, clf: TileClassifier, models: Path
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per held-out real tile set: (calibrated confidence, right, shown as sure) of each held-out
    crop (a crop read as not a tile is wrong; a reading is sure as the recogniser shows it: at the
    threshold, in a suit that can be sure)."""
    import csv

    from training.train_classifier import read_camerash_labels

    labels = read_camerash_labels(data)
    root = data / "camerash-mahjong-dataset" / "tiles-resized"
    by_set: dict[str, list] = {}
    with open(models / "real_crops_split.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["split"] == "heldout":
                by_set.setdefault(row["set"], []).append(row["image"])
    out = {}
    for s, names in sorted(by_set.items()):
        crops = [artwork.read_image(root / n, cv2.IMREAD_COLOR) for n in names]
        p = clf.probabilities(crops)
        codes = [clf.classes[k] for k in p.argmax(1)]
        right = np.array([c == labels[n] and c != NOT_A_TILE for c, n in zip(codes, names)])
        sure = np.array([clf.is_sure(c, float(q)) and clf.suit_can_be_sure(c) for c, q in zip(codes, p.max(1))])
        out[s] = (p.max(1), right, sure)
    return out


def photo_readings(data: Path, clf: TileClassifier, photos: dict, trained: set[str]) -> dict[str, tuple]:
    """``{"train"|"held-out": (confidence, right, sure)}`` of every tile read in the labelled photos."""
    from training.evaluate import _photo_path

    acc: dict[str, list] = {"train": [], "held-out": []}
    for name, gt in photos.items():
        p = _photo_path(data, name)
        if p is None:
            continue
        rec = recognize(p.read_bytes(), classifier=clf)
        right = align_right(gt, [t.code for t in rec.tiles])
        key = "train" if name in trained else "held-out"
        acc[key] += [(t.confidence, r, t.sure) for t, r in zip(rec.tiles, right)]
    return {k: tuple(np.array([x[i] for x in v]) for i in range(3)) for k, v in acc.items() if v}


def _sure_cell(right: np.ndarray, sure: np.ndarray, clf: TileClassifier) -> str:
    if clf.sure_threshold is None:
        return "no calibration"
    n = int(sure.sum())
    prec = float(right[sure].mean()) if n else 1.0
    return f"{n}/{len(right)} sure, {100 * prec:.2f}% right"


def reliability_report(data: Path, clf: TileClassifier, photos: dict, trained: set[str], table) -> dict:
    """Print (f) with ``table(title, rows)``; returns the figures."""
    models = Path(str(clf.model_path)).parent
    crops = crop_readings(data, clf, models)
    sets: dict[str, tuple] = {f"crops, held-out set {s}": v for s, v in crops.items()}
    if crops:
        vals = list(crops.values())
        sets["crops, held-out (all)"] = tuple(np.concatenate([v[i] for v in vals]) for i in range(3))
    for k, v in photo_readings(data, clf, photos, trained).items():
        sets[f"labelled photos, {k}"] = v
    bins = calibration.reliability(np.zeros(0), np.zeros(0, bool))
    rows: list[tuple] = [("set", "n", "sure", *[f"{lo:.2f}-{hi:.2f}" for lo, hi, _, _ in bins])]
    out = {}
    for name, (conf, right, sure) in sets.items():
        rel = calibration.reliability(conf, right)
        out[name] = {"n": len(conf), "accuracy": float(right.mean()), "bins": rel, "sure": int(sure.sum())}
        cells = [f"{n} {100 * a:.0f}%" if n else "-" for _, _, n, a in rel]
        rows.append((name, len(conf), _sure_cell(right, sure, clf), *cells))
    never = "".join(f", {s} never" for s in sorted(clf.unsure_suits))
    table(
        f"(f) reliability: calibrated confidence bin -> tiles, accuracy (temperature {clf.temperature:g}, "
        f"sure >= {clf.sure_threshold}{never})",
        rows,
    )
    return out


# ---------------------------------------------------------------------------------------------
# (g) false tiles on photos without tiles


def previous_model(out: Path) -> tuple[Path, str] | None:
    """The classifier shipped before the current one, from git history, written into ``out`` with
    the fallback that shipped with it (where one did, so it reads featureless crops as it did):
    HEAD's when the working tree's model differs from it, else the one before the last commit that
    changed it. ``None`` without git or history. Its float network runs (its metadata of then)."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout

    try:
        onnx = "models/" + MODEL_FILES[0]
        changed = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", onnx], cwd=REPO).returncode != 0
        revs = git("log", "--format=%h", "-n", "2", "--", onnx).split()
        rev = "HEAD" if changed else (revs[1] if len(revs) > 1 else None)
        if rev is None:
            return None
        for f in MODEL_FILES:
            blob = subprocess.run(["git", "show", f"{rev}:models/{f}"], cwd=REPO, capture_output=True, check=True)
            (out / f).write_bytes(blob.stdout)
        for f in FALLBACK_FILES:
            blob = subprocess.run(["git", "show", f"{rev}:models/{f}"], cwd=REPO, capture_output=True)
            if blob.returncode == 0:
                (out / f).write_bytes(blob.stdout)
        return out, rev
    except (OSError, subprocess.CalledProcessError):
        return None


def trained_backgrounds(clf: TileClassifier) -> set[str]:
    """The background photos the classifier's negatives were cut from (its metadata)."""
    rec = clf.metadata.get("training", {}).get("not_a_tile", {})
    return set(rec.get("background_photos", {}))


def false_tiles(clfs: dict[str, TileClassifier], trained: set[str]) -> list[dict]:
    """Per background photo (cached ones only, nothing is fetched) and classifier: tiles reported,
    shown as sure, read as 5z, read as flowers, rejected; ``trained_on``: the name is in ``trained``."""
    rows = []
    for name, _licence, img in negatives.background_photos(heldout=None, fetch=False):
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        row: dict = {"photo": name, "trained_on": name in trained}
        for label, clf in clfs.items():
            rec = recognize(enc.tobytes(), classifier=clf)
            codes = [t.code for t in rec.tiles]
            row[label] = {
                "tiles": len(codes),
                "sure": sum(t.sure for t in rec.tiles),
                "5z": codes.count("5z"),
                "flowers": sum(c.endswith("f") for c in codes),
                "rejected": rec.rejected,
            }
        rows.append(row)
    return rows


def _sums(rows: list[dict], trained: bool) -> dict:
    sel = [r for r in rows if r["trained_on"] == trained]
    return {
        k: {f: sum(r[k][f] for r in sel) for f in FIELDS}
        for k in (sel[0] if sel else {})
        if k not in ("photo", "trained_on")
    }


FIELDS = ("tiles", "sure", "5z", "flowers", "rejected")


def false_tiles_report(clfs: dict[str, TileClassifier], table) -> dict:
    """Print (g) with ``table(title, rows)``: each classifier of ``clfs`` side by side (the last is
    the current one, whose metadata says which photos gave negatives)."""
    rows = false_tiles(clfs, trained_backgrounds(list(clfs.values())[-1]))
    head: list[str] = ["photo", "negatives from it"]
    for k in clfs:
        head += [f"{k} tiles", *FIELDS[1:]]
    out_rows: list[tuple] = [tuple(head)]
    for r in rows:
        cells = [r["photo"], "yes" if r["trained_on"] else "no"]
        for k in clfs:
            cells += [r[k][f] for f in FIELDS]
        out_rows.append(tuple(cells))
    for label, trained in (("sum, never seen", False), ("sum, negatives from it", True)):
        sums = _sums(rows, trained)
        cells = [label, f"{sum(r['trained_on'] == trained for r in rows)} photos"]
        for k in clfs:
            cells += [sums.get(k, {}).get(f, 0) for f in FIELDS]
        out_rows.append(tuple(cells))
    table("(g) false tiles on photos without tiles (previous vs current classifier, same run)", out_rows)
    return {"rows": rows, "never_seen": _sums(rows, False), "trained_on": _sums(rows, True)}


def compare_report(data: Path, clfs: dict[str, TileClassifier], false: dict, table) -> dict:
    """(h) previous vs current classifier in one run: held-out real crops top-1, labelled real
    photos (all and held-out) multiset recall / precision / exact, false tiles on never-seen
    photos without tiles."""
    from training.evaluate import _summ, eval_real
    from training.evaluate_crops import evaluate_crops

    rows: list[tuple] = [
        ("classifier", "held-out crops top-1", "photos", "recall", "precision", "exact", "false tiles (never seen)")
    ]
    out = {}
    for k, c in clfs.items():
        crops = evaluate_crops(data, synthetic_per_class=0, classifier=c)["heldout_real"]
        real = eval_real(data, classifier=c, finders={"ours": None})["ours"]
        ft = false.get("never_seen", {}).get(k, {}).get("tiles", "-")
        for subset, sel in (("all", real), ("held-out", [r for r in real if not r["in_training"]])):
            s = _summ(sel)
            rows.append(
                (
                    k,
                    f"{crops.get('accuracy', float('nan')):.4f} ({crops.get('n', 0)})",
                    f"{subset} {s['photos']}",
                    f"{s['multiset_recall']:.4f}",
                    f"{s['multiset_precision']:.4f}",
                    f"{s['exact_sequence']:.2f}",
                    ft,
                )
            )
            out[f"{k} {subset}"] = {"heldout_crops": crops.get("accuracy"), **s}
    table("(h) previous vs current classifier, same run", rows)
    return out


def report(data: Path, clf: TileClassifier, photos: dict, trained: set[str], table) -> dict:
    """(f), (g) and (h); the previous classifier comes from git history (:func:`previous_model`)."""
    out: dict = {}
    if (data / "camerash-mahjong-dataset").exists():
        out["reliability"] = reliability_report(data, clf, photos, trained, table)
    with tempfile.TemporaryDirectory() as tmp:
        prev = previous_model(Path(tmp))
        clfs = {"current": clf}
        if prev is not None:
            clfs = {f"previous ({prev[1]})": TileClassifier(prev[0]), "current": clf}
        out["false_tiles"] = false_tiles_report(clfs, table)
        if (data / "camerash-mahjong-dataset").exists():
            out["compare"] = compare_report(data, clfs, out["false_tiles"], table)
    return out
