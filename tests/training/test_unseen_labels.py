"""The photos of sets no model saw (``training/labels/unseen_photos.json``, table (c8)): labelled as
the other real photos are, kept apart from them, and read by the recogniser."""

import importlib
from collections import Counter

import pytest

from training import evaluate as ev
from training.artwork import CLASSES

RAW = ev.DEFAULT_DATA / "camerash-mahjong-dataset" / "untagged-images-raw"


def test_every_label_is_a_tile_code_and_no_set_holds_a_face_more_often_than_a_set_has_it():
    labels = ev.load_labels(ev.UNSEEN_LABELS)
    assert len(labels) == 7 and sum(map(len, labels.values())) == 992
    for name, codes in labels.items():
        assert set(codes) <= set(CLASSES), name
        counts = Counter(codes)
        assert all(n <= (1 if c.endswith("f") else 4) for c, n in counts.items() if c not in ("6p", "back")), name


def test_the_unseen_photos_are_kept_apart_from_the_labelled_real_photos():
    """The negatives, the composites and the classifier's held-out split draw on ``real_photos.json``
    only: none of these photos may appear there."""
    assert not set(ev.load_labels(ev.UNSEEN_LABELS)) & set(ev.load_labels())


@pytest.mark.skipif(not RAW.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize(
    "name",
    [
        "TB268V6BKuSBuNjSsziXXbq8pXa___425369108.png",
        "TB268V6BKuSBuNjSsziXXbq8pXa___4253691089.png",
        "ymi-chinese-mahjong-white-tile-mini-travel-set-mini-yellow-mountain-imports-6.jpg",
    ],
)
def test_a_whole_set_no_model_saw_is_read_tile_for_tile(name):
    """Photos of full 144-tile sets of designs no model was trained on, read exactly: the
    ``ymi`` set's blank spares, laid beside it, are not read as white dragons, since its white
    dragons are framed (:func:`vision.layout_rules._drop_spare_blanks`)."""
    recognize = importlib.import_module("vision.recognize").recognize
    labels = ev.load_labels(ev.UNSEEN_LABELS)[name]
    assert Counter(recognize((RAW / name).read_bytes()).codes) == Counter(labels)


@pytest.mark.skipif(not RAW.exists(), reason="../shared/vision-data (Camerash photos) not available")
def test_the_unseen_photos_are_scored_as_labelled_photos():
    res = ev.eval_unseen(ev.DEFAULT_DATA, detector=None, finders={"ours": None})
    rows = res["ours"]
    assert len(rows) == 7 and not any(r["in_training"] for r in rows)
    assert sum(r["multiset_hits"] for r in rows) >= 980
