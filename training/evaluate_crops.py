"""Crop-level evaluation of the tile classifier (no torch needed).

    .venv/bin/python -m training.evaluate_crops [--data ../shared/vision-data] [--synthetic 30]

Two sets:

* ``heldout_real``: the Camerash crops listed in ``models/heldout_real_crops.txt`` (whole source
  tile sets never used in training; labels from the dataset's data.csv);
* ``synthetic``: tiles rendered from the artwork with a fixed seed different from training's.

:func:`evaluate_crops` returns a dict (accuracy, per-class accuracy, top confused pairs, errors) per
set; :func:`print_report` prints it. ``training/evaluate.py`` can call both.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import cv2

from vision.classifier import TileClassifier, get_classifier
from vision.onnx_model import model_dir

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "vision-data"


def heldout_names(models: Path | None = None) -> list[str]:
    p = (models or model_dir()) / "heldout_real_crops.txt"
    return [ln.strip() for ln in p.read_text().splitlines() if ln.strip() and not ln.startswith("#")]


def _score(clf: TileClassifier, crops, labels, names) -> dict:
    res = clf.classify(crops, top_k=3)
    pred = [r[0][0] for r in res]
    per = {}
    for c in sorted(set(labels), key=clf.classes.index):
        idx = [i for i, l in enumerate(labels) if l == c]
        per[c] = {"n": len(idx), "correct": sum(pred[i] == c for i in idx)}
        per[c]["accuracy"] = per[c]["correct"] / len(idx)
    conf = Counter((labels[i], pred[i]) for i in range(len(labels)) if pred[i] != labels[i])
    errors = [
        {"name": names[i], "label": labels[i], "top3": res[i]} for i in range(len(labels)) if pred[i] != labels[i]
    ]
    n = len(labels)
    return {
        "n": n,
        "accuracy": sum(p == l for p, l in zip(pred, labels)) / max(1, n),
        "top3_accuracy": sum(l in [c for c, _ in r] for r, l in zip(res, labels)) / max(1, n),
        "per_class": per,
        "confused_pairs": [{"true": t, "pred": p, "count": k} for (t, p), k in conf.most_common(15)],
        "errors": errors,
    }


def evaluate_crops(
    data_dir: str | Path | None = None,
    synthetic_per_class: int = 30,
    classifier: TileClassifier | None = None,
    seed: int = 20261122,
) -> dict:
    """Evaluate on held-out real crops and on a synthetic rendered set.

    Returns ``{"heldout_real": {...}, "synthetic": {...}}``; a set whose data is missing is
    reported as ``{"skipped": reason}``.
    """
    data = Path(data_dir) if data_dir else DEFAULT_DATA
    clf = classifier or get_classifier()
    out: dict = {}
    cam = data / "camerash-mahjong-dataset"
    if (cam / "tiles-data" / "data.csv").exists():
        from training.train_classifier import read_camerash_labels  # module-level imports are numpy/cv2 only

        labels = read_camerash_labels(data)
        names = heldout_names()
        crops = [cv2.imread(str(cam / "tiles-resized" / n)) for n in names]
        out["heldout_real"] = _score(clf, crops, [labels[n] for n in names], names)
    else:
        out["heldout_real"] = {"skipped": f"no Camerash data under {data}"}
    if synthetic_per_class > 0:
        try:
            from training import artwork
            from training.train_classifier import render_set

            art = artwork.load_artwork(data)
            if not art:
                raise FileNotFoundError("no artwork")
            X, y = render_set(
                artwork.by_class_style(art), synthetic_per_class, seed, size=(clf.width * 2, clf.height * 2)
            )
            codes = [artwork.CLASSES[i] for i in y]
            out["synthetic"] = _score(clf, list(X), codes, [f"synth{i}" for i in range(len(y))])
        except (FileNotFoundError, OSError) as e:
            out["synthetic"] = {"skipped": str(e)}
    return out


def print_report(result: dict, show_errors: int = 20) -> None:
    for name, r in result.items():
        print(f"== {name}")
        if "skipped" in r:
            print("   skipped:", r["skipped"])
            continue
        print(f"   accuracy {r['accuracy'] * 100:.2f}%  top-3 {r['top3_accuracy'] * 100:.2f}%  ({r['n']} crops)")
        per = r["per_class"]
        cells = [f"{c:>4s} {v['correct']:>3d}/{v['n']:<3d}" for c, v in per.items()]
        for i in range(0, len(cells), 6):
            print("   " + "  ".join(cells[i : i + 6]))
        if r["confused_pairs"]:
            print(
                "   top confusions (true -> predicted x count):",
                ", ".join(f"{p['true']}->{p['pred']} x{p['count']}" for p in r["confused_pairs"]),
            )
        for e in r["errors"][:show_errors]:
            print(f"   miss {e['name']}: {e['label']} -> " + ", ".join(f"{c} {p:.2f}" for c, p in e["top3"]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Crop-level evaluation of the tile classifier")
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--synthetic", type=int, default=30, help="synthetic tiles per class (0: skip)")
    a = ap.parse_args(argv)
    print_report(evaluate_crops(a.data, a.synthetic))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
