"""Calibrate a shipped classifier without retraining (onnxruntime only, no torch).

    .venv/bin/python -m training.calibrate [--data ../shared/vision-data] [--models models/]

Runs the model on the held-out real crops (``models/heldout_real_crops.txt``: whole tile sets the
classifier never trained on), in the views the runtime reads (the crop, its half-turn and, where
the calibration has an ``inset`` share or ``--inset SHARE`` sets one (0: none; the shipped
classifier's is :data:`vision.classifier.INSET_SHARE`), the crop cut tighter by that share as it
lies and turned), fits the temperature and the "sure" threshold
(:mod:`training.calibration`) and writes them and the inset into ``tile_classifier.json``
(``calibration``), which :class:`vision.classifier.TileClassifier` reads.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from training import artwork, calibration
from training.evaluate_crops import heldout_names
from vision.classifier import INSET_SHARE, MODEL_NAME, TileClassifier, inset

REPO = Path(__file__).resolve().parent.parent


def heldout_logits(
    clf: TileClassifier, data: Path, models: Path, share: float = 0.0
) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """Logits of the held-out real crops, those of their other views (the half-turns and, where
    ``share``, the crops cut tighter by it as they lie and turned), and the labels' class indexes."""
    from training.train_classifier import read_camerash_labels

    labels = read_camerash_labels(data)
    names = heldout_names(models)
    root = data / "camerash-mahjong-dataset" / "tiles-resized"
    crops = [artwork.read_image(root / n, cv2.IMREAD_COLOR) for n in names]
    x = clf.preprocess(crops)
    run = clf.session.run
    name = clf.session.get_inputs()[0].name
    read = lambda batch: run(None, {name: np.ascontiguousarray(batch)})[0]
    views = [read(x[:, :, ::-1, ::-1])]
    if share:
        tight = clf.preprocess([inset(c, share) for c in crops])
        views += [read(tight), read(tight[:, :, ::-1, ::-1])]
    return read(x), views, np.array([clf.classes.index(labels[n]) for n in names])


def calibrate(models: Path, data: Path, name: str = MODEL_NAME, share: float | None = None) -> dict:
    """Fit and store the calibration of the classifier ``name`` (the shipped one, or its fallback
    ``tile_fallback``) in ``models``, its unsure crops read cut tighter by ``share`` too (0: not;
    ``None``: by the share its calibration has now); returns it."""
    clf = TileClassifier(models, name=name)
    share = clf.inset if share is None else share
    lo, views, y = heldout_logits(clf, data, models, share)
    none = clf.none_column
    temp = calibration.fit_temperature(lo, views, y, none)
    p = calibration.tta_probabilities(lo, views, temp, none)
    pred = p.argmax(1)
    conf, right = p.max(1), (pred == y) & (pred != (-1 if none is None else none))
    thr = calibration.sure_threshold(conf, right)
    prec, n = calibration.sure_precision(conf, right, thr)
    unsure = calibration.unsure_suits(
        [clf.classes[i] for i in y], [clf.classes[i] for i in pred], suits=calibration.read_suits(clf.classes)
    )
    cal = {
        "network": Path(str(clf.model_path)).name,  # the file that runs (an int8 copy where one ships)
        "temperature": temp,
        "sure_threshold": thr,
        "sure_precision_heldout": round(prec, 4),
        "sure_crops_heldout": n,
        "unsure_suits": unsure,
        "inset": share,
        "method": f"{calibration.METHOD}; python -m training.calibrate",
    }
    update_metadata(
        models / f"{name}.json",
        calibration=cal,
        output={**clf.metadata.get("output", {}), "softmax": SOFTMAX},
    )
    return cal


SOFTMAX = "divide by calibration.temperature, then apply softmax"


def update_metadata(path: Path, **entries) -> None:
    """Set ``entries`` in the model metadata ``path``, written back with the file's own indent."""
    text = path.read_text()
    meta = json.loads(text)
    meta.update(entries)
    second = text.splitlines()[1] if text.count("\n") > 1 else ""
    path.write_text(json.dumps(meta, indent=len(second) - len(second.lstrip()) or 2) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(artwork.DEFAULT_DATA), help="shared/vision-data folder")
    ap.add_argument("--models", default=str(REPO / "models"))
    ap.add_argument("--name", default=MODEL_NAME, help="the classifier (tile_classifier or tile_fallback)")
    ap.add_argument(
        "--inset",
        type=float,
        default=None,
        help=f"share an unsure crop is cut tighter by for two more views (0: none; the shipped one's: {INSET_SHARE}); "
        "default: the model's own",
    )
    a = ap.parse_args(argv)
    print(json.dumps(calibrate(Path(a.models), Path(a.data), a.name, a.inset), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
