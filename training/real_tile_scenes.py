"""Phone-like photos whose tiles are real: the b4-b8 layouts drawn with faces cut from real photos.

The phone-like photos of :mod:`training.phone_scenes` lay tiles in diagonal rows, trays, racks and
piles among clutter, but draw their faces from tile artwork. The real photos hold real tiles only as
they were photographed (hands, grids), so the scene kinds a player's photo also shows are measured
on real tiles nowhere else. Here the same layouts are drawn with each face cut from a real photo:
the Camerash dataset's labelled crops of the two physical sets the classifier never learned from
(``models/real_crops_split.csv``, split ``heldout``: sets ``1`` and ``13``, 182 crops, every one of
the 42 faces in each set). A scene takes its faces from one of the two sets, as a table plays with
one set, and its table from the background photos the classifier's negatives leave out
(:func:`training.negatives.is_heldout_background`). The rest (bodies, backs, shadows, clutter,
fingers, the camera and the phone's degradations) is :func:`training.phone_scenes.make_phone_scene`'s.

The same crops fit the classifier's temperature and sure threshold (``python -m
training.calibrate``), so the sure readings of these photos are not an independent measure of the
calibration; which tiles are found and read is.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from training.scenes import Scene

#: the held-out split of the real crops, and where their images lie under the data folder
SPLIT = Path(__file__).resolve().parent.parent / "models" / "real_crops_split.csv"
CROPS = Path("camerash-mahjong-dataset") / "raw-tiles"

Faces = dict[str, dict[str, list[np.ndarray]]]


def heldout_faces(data: Path, split: Path = SPLIT) -> Faces:
    """{set id: {code: [face, ...]}}: every held-out crop of ``split`` read from ``data`` (BGR
    float32, as cut: upright, the face and a sliver of its edge), under its label as corrected by eye
    (:func:`training.train_classifier.read_camerash_labels`: ``133.jpg`` shows eight dots, not the
    ``8m`` of its row); empty where the data is absent."""
    from training.train_classifier import read_camerash_labels

    if not (data / CROPS).is_dir():
        return {}
    labels = read_camerash_labels(data)
    out: Faces = {}
    with open(split, newline="") as f:
        for row in csv.DictReader(f):
            if row["split"] != "heldout":
                continue
            img = cv2.imread(str(data / CROPS / row["image"]), cv2.IMREAD_COLOR)
            if img is None:
                return {}
            out.setdefault(row["set"], {}).setdefault(labels[row["image"]], []).append(img.astype(np.float32))
    return out


def face_fn_of(faces: dict[str, list[np.ndarray]]) -> Callable[[str, np.random.Generator], np.ndarray]:
    """The face function :func:`training.phone_scenes.make_phone_scene` draws a tile with: one of
    the set's crops of ``code``, picked at random (a set's copies of a face look alike)."""

    def face(code: str, rng: np.random.Generator) -> np.ndarray:
        crops = faces[code]
        return crops[int(rng.integers(len(crops)))]

    return face


def real_tile_scenes(kind: str, n: int, data: Path, seed0: int) -> list[tuple[str, bytes, Scene]]:
    """``n`` fixed phone-like scenes of ``kind`` (:data:`training.phone_scenes.KINDS`) drawn with
    real faces (:func:`heldout_faces`) on the held-out background photos: (name, JPEG, scene), each
    from its own seed ``seed0 + i``; none without the crops or the background cache."""
    from training import backgrounds
    from training.negatives import background_name, is_heldout_background
    from training.phone_scenes import make_phone_scene

    faces = heldout_faces(data)
    held = [b for b in backgrounds.load_manifest() if is_heldout_background(background_name(b))]
    if not faces or not held:
        return []
    sets = sorted(faces)
    sizes = [(1600, 1200), (1200, 1600), (2000, 1500)]
    out = []
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        one = sets[int(rng.integers(len(sets)))]
        sc = make_phone_scene(
            rng, kind, size=sizes[i % len(sizes)], face_fn=face_fn_of(faces[one]), real_background=True, tables=held
        )
        out.append((f"{kind}{seed0 + i} set {one}", sc.jpeg(int(rng.integers(75, 95))), sc))
    return out
