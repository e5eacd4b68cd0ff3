"""Int8 runtime copies of the shipped finder and classifiers (onnxruntime static quantization).

    python3 run.py quantize [--models models/] [--data ../shared/vision-data]

The networks are trained and exported in float32, and the float files stay the training artefacts
(training continues from them, ``--init-onnx``). On the table's CPU (two cores, AVX2 without int8
dot-product instructions) the float finder and classifiers (the classifier and its fallback for
featureless crops, :data:`CLASSIFIERS`) are most of a photo's time; static int8 quantization runs
them about 1.5 and 2 times faster. Format: QDQ, per-channel int8 weights, uint8
activations whose ranges (min-max) are measured on calibration inputs. The first and the last
layer of each network stay float (:func:`float_layers`): quantized, they moved the finder's face
map on about 3 % of the pixels and the classifier's top-1 on about 10 % of the crops; kept float,
on about 0.05 % and 1 %.

Calibration inputs, none of them a benchmark photo:

* the finder: :data:`CALIBRATION_SCENES` synthetic photos (every phone-like kind of
  :mod:`training.phone_scenes` and the hands of :func:`training.scenes.make_scene`, seeds from
  :data:`CALIBRATION_SEED`) seen as the finder's first look sees them;
* the classifiers: the real crops of the training split (``models/real_crops_split.csv``) and the
  crops the recogniser cuts from the finds in those photos.

Checked against the float network on inputs not used for calibration (seeds from
:data:`VALIDATION_SEED`, and the held-out real crops), and recorded in ``<name>.json`` under
``runtime`` with the file (``<name>.int8.onnx``), which :func:`vision.onnx_model.runtime_file` then
runs. A classifier's calibration (temperature, sure threshold) belongs to the network that runs,
so it is fitted again afterwards (:func:`training.calibrate.calibrate`).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from training import artwork, calibration
from training.calibrate import calibrate, update_metadata
from training.evaluate import match_quads
from training.evaluate_crops import heldout_names
from vision import onnx_model
from vision.classifier import TileClassifier
from vision.finders import learned
from vision.finders.candidate import Candidate
from vision.finders.geometry import with_crops

REPO = Path(__file__).resolve().parent.parent
#: the classifier and its fallback for featureless crops (see :mod:`vision.classifier`)
CLASSIFIERS = ("tile_classifier", "tile_fallback")
CALIBRATION_SCENES = 36
VALIDATION_SCENES = 18
CALIBRATION_SEED = 3_000_000
VALIDATION_SEED = 3_100_000
BATCH = 64  # classifier crops per calibration batch


def _scene(seed: int):
    """A synthetic photo: a phone-like kind for most seeds, a hand on a table for every sixth."""
    from training import phone_scenes, scenes

    rng = np.random.default_rng(seed)
    if seed % 6 == 5:
        return scenes.make_scene(rng, size=(1600, 1200))
    kind = phone_scenes.KINDS[seed % len(phone_scenes.KINDS)]
    return phone_scenes.make_phone_scene(rng, kind, size=((1600, 1200), (1200, 1600))[seed % 2])


def _finder_input(img: np.ndarray) -> np.ndarray:
    return learned.network_input(img, learned.INPUT_LONG)[0]


def _found_crops(img: np.ndarray) -> list[np.ndarray]:
    """The upright crops the recogniser cuts from the tiles the (float) finder finds in ``img``."""
    found, _ = learned.find_tiles(img)
    out = []
    for t in found:
        cd = with_crops(img, Candidate(t.quad, lying=t.lying, ambiguous=t.ambiguous))
        out += [crop for _, crop in cd.crops]
    return out


def _real_training_crops(data: Path) -> list[np.ndarray]:
    """The real tile crops of the training split (``models/real_crops_split.csv``)."""
    split = REPO / "models" / "real_crops_split.csv"
    root = data / "camerash-mahjong-dataset" / "tiles-resized"
    if not split.is_file() or not root.is_dir():
        return []
    with open(split, newline="") as f:
        names = [row["image"] for row in csv.DictReader(f) if row.get("split") == "train"]
    return [artwork.read_image(root / n, cv2.IMREAD_COLOR) for n in names if (root / n).is_file()]


def float_layers(model_path: Path) -> list[str]:
    """The first and the last weighted layer (``Conv`` or ``Gemm``) of a network, which stay float."""
    import onnx

    layers = [n.name for n in onnx.load(str(model_path)).graph.node if n.op_type in ("Conv", "Gemm")]
    return [layers[0], layers[-1]]


def quantize(src: Path, dst: Path, inputs: Iterator[dict]) -> list[str]:
    """Write the int8 QDQ copy of ``src`` to ``dst``, activation ranges from ``inputs`` (feeds);
    returns the layers kept float."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quant_pre_process,
        quantize_static,
    )

    class _Feeds(CalibrationDataReader):
        def get_next(self):
            return next(inputs, None)

    keep = float_layers(src)
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre))
        quantize_static(
            str(pre),
            str(dst),
            _Feeds(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=keep,
        )
    return keep


def _session(path: Path):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def finder_agreement(float_path: Path, int8_path: Path, images: list[np.ndarray]) -> dict:
    """How the int8 finder agrees with the float one on ``images``: the share of map pixels on the
    same side of 0.5 (face, core) and the share of the float finder's tiles the int8 one finds too
    (same instance rule, IoU >= 0.5), and the reverse."""
    a, b = _session(float_path), _session(int8_path)
    face = core = 0.0
    pixels = matched = n_float = n_int8 = 0
    for img in images:
        x, _, _, s = learned.network_input(img)
        ma, mb = (1 / (1 + np.exp(-sess.run(None, {"image": x})[0][0])) for sess in (a, b))
        face += float(((ma[0] > 0.5) == (mb[0] > 0.5)).sum())
        core += float(((ma[1] > 0.5) == (mb[1] > 0.5)).sum())
        pixels += ma[0].size
        ta = learned.instances_from_maps(ma[0], ma[1])
        tb = learned.instances_from_maps(mb[0], mb[1])
        matched += len(match_quads([t.quad for t in ta], [t.quad for t in tb]))
        n_float, n_int8 = n_float + len(ta), n_int8 + len(tb)
    return {
        "photos": len(images),
        "face_pixels_same": round(face / pixels, 5),
        "core_pixels_same": round(core / pixels, 5),
        "float_tiles_found_by_int8": round(matched / max(1, n_float), 4),
        "int8_tiles_found_by_float": round(matched / max(1, n_int8), 4),
    }


def _read(sess, x: np.ndarray) -> np.ndarray:
    """Top-1 class per crop, averaged with its half-turn where the network is unsure
    (:func:`training.calibration.tta_probabilities`; the tighter views left out: both networks are
    compared on the same preprocessed inputs)."""
    name = sess.get_inputs()[0].name
    lo = sess.run(None, {name: x})[0]
    lt = sess.run(None, {name: np.ascontiguousarray(x[:, :, ::-1, ::-1])})[0]
    return calibration.tta_probabilities(lo, [lt]).argmax(1)


def classifier_agreement(float_path: Path, int8_path: Path, clf: TileClassifier, crops, labels=None) -> dict:
    """Top-1 agreement of the int8 and float classifiers on ``crops``, and each one's accuracy where
    ``labels`` (class codes) are given."""
    x = clf.preprocess(crops)
    pa, pb = _read(_session(float_path), x), _read(_session(int8_path), x)
    out = {"crops": len(crops), "top1_same": round(float((pa == pb).mean()), 4)}
    if labels is not None:
        y = np.array([clf.classes.index(c) for c in labels])
        out["float_top1"] = round(float((pa == y).mean()), 4)
        out["int8_top1"] = round(float((pb == y).mean()), 4)
    return out


def _runtime_record(
    name: str, keep: list[str], calibration: str, validation: dict, command: str = "python3 run.py quantize"
) -> dict:
    return {
        "file": f"{name}.int8.onnx",
        "format": "int8 QDQ (onnxruntime static quantization, min-max ranges): per-channel int8 weights, "
        "uint8 activations",
        "float_layers": keep,
        "calibration_inputs": calibration,
        "validation_against_float": validation,
        "command": command,
        "date": datetime.date.today().isoformat(),
        "note": f"{name}.onnx (float32) is the trained model; training continues from it",
    }


def _write_runtime(models: Path, name: str, record: dict) -> None:
    update_metadata(models / f"{name}.json", runtime=record)


def run(models: Path, data: Path, calibration_scenes: int = CALIBRATION_SCENES, finder_only: bool = False) -> dict:
    """Quantize the three networks in ``models``, record it, and recalibrate the classifiers. The
    finds and crops come from the float networks in ``models``; only the calibration runs the int8
    classifiers (opened then for the first time in this process). ``finder_only``: the finder
    alone, after it was retrained; the classifiers' int8 copies and their calibration stay as they
    are (quantized on the crops the previous finder cut, which differ only where the finds do)."""
    os.environ[onnx_model.ENV_DIR] = str(models)
    os.environ[onnx_model.ENV_FLOAT] = "1"
    cal_images = [_scene(CALIBRATION_SEED + i).image for i in range(calibration_scenes)]
    val_images = [_scene(VALIDATION_SEED + i).image for i in range(VALIDATION_SCENES)]
    report: dict = {}

    seg = models / "tile_segmenter.onnx"
    seg_int8 = models / "tile_segmenter.int8.onnx"
    keep = quantize(seg, seg_int8, ({"image": _finder_input(img)} for img in cal_images))
    report["tile_segmenter"] = finder_agreement(seg, seg_int8, val_images)
    _write_runtime(
        models,
        "tile_segmenter",
        _runtime_record(
            "tile_segmenter",
            keep,
            f"{calibration_scenes} synthetic photos (training.quantize._scene, seeds {CALIBRATION_SEED}+: the "
            "phone-like kinds and hands on a table) at the finder's first look",
            {**report["tile_segmenter"], "inputs": f"{VALIDATION_SCENES} synthetic photos, seeds {VALIDATION_SEED}+"},
            "python3 run.py quantize --finder-only" if finder_only else "python3 run.py quantize",
        ),
    )

    if finder_only:
        del os.environ[onnx_model.ENV_FLOAT]
        return report
    from training.train_classifier import read_camerash_labels

    real = _real_training_crops(data)
    found = [c for img in cal_images for c in _found_crops(img)]
    names = heldout_names(models)
    root = data / "camerash-mahjong-dataset" / "tiles-resized"
    labels = read_camerash_labels(data)
    heldout = [artwork.read_image(root / n, cv2.IMREAD_COLOR) for n in names]
    val_crops = [c for img in val_images for c in _found_crops(img)]
    for name in CLASSIFIERS:
        clf = TileClassifier(models, name=name)
        src, dst = models / f"{name}.onnx", models / f"{name}.int8.onnx"
        x = clf.preprocess(real + found)
        feeds = ({clf.session.get_inputs()[0].name: x[i : i + BATCH]} for i in range(0, len(x), BATCH))
        keep = quantize(src, dst, feeds)
        report[name] = {
            "heldout_real_crops": classifier_agreement(src, dst, clf, heldout, [labels[n] for n in names]),
            "found_crops": classifier_agreement(src, dst, clf, val_crops),
        }
        inputs = (
            f"held-out real crops (models/heldout_real_crops.txt); crops cut from the finds in {VALIDATION_SCENES} "
            f"synthetic photos, seeds {VALIDATION_SEED}+"
        )
        calibration_inputs = (
            f"{len(real)} real crops of the training split and {len(found)} crops cut from the finds in the "
            f"finder's {calibration_scenes} calibration photos"
        )
        _write_runtime(
            models, name, _runtime_record(name, keep, calibration_inputs, {**report[name], "inputs": inputs})
        )
    del os.environ[onnx_model.ENV_FLOAT]
    for name in CLASSIFIERS:
        report[name]["calibration"] = calibrate(models, data, name)
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(artwork.DEFAULT_DATA), help="shared/vision-data folder")
    ap.add_argument("--models", default=str(REPO / "models"))
    ap.add_argument("--scenes", type=int, default=CALIBRATION_SCENES, help="calibration photos")
    ap.add_argument(
        "--finder-only",
        action="store_true",
        help="quantize the retrained finder alone; the classifiers' int8 copies and calibration stay",
    )
    a = ap.parse_args(argv)
    print(json.dumps(run(Path(a.models), Path(a.data), a.scenes, a.finder_only), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
