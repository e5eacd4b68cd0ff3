"""The shipped models open one way (:mod:`vision.onnx_model`): from the ``models`` package, or from
``$MJC_MODEL_DIR`` when set, one cached session per model file, for the classifier and the tile
finder alike."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnxruntime")

from vision import onnx_model  # noqa: E402
from vision.classifier import TileClassifier, get_classifier  # noqa: E402
from vision.finders import finder_name, learned  # noqa: E402

MODELS = Path(__file__).resolve().parent.parent.parent / "models"
NAMES = ("tile_classifier", "tile_segmenter")


def _copy(folder: Path, names: tuple[str, ...]) -> None:
    for name in names:
        for suffix in (".onnx", ".json"):
            shutil.copy(MODELS / f"{name}{suffix}", folder / f"{name}{suffix}")


def test_models_ship_in_the_models_package(monkeypatch):
    monkeypatch.delenv(onnx_model.ENV_DIR, raising=False)
    assert Path(str(onnx_model.model_dir())) == MODELS
    for name in NAMES:
        assert onnx_model.available(name)
        assert onnx_model.metadata(name)
    assert onnx_model.metadata("no_such_model") == {}


@pytest.mark.parametrize("name", NAMES)
def test_model_dir_env_is_honoured(name, tmp_path, monkeypatch):
    _copy(tmp_path, (name,))
    monkeypatch.setenv(onnx_model.ENV_DIR, str(tmp_path))
    assert onnx_model.model_file(name) == tmp_path / f"{name}.onnx"
    assert onnx_model.available(name)
    sess = onnx_model.session(name)
    assert onnx_model.session(name) is sess  # created once, then shared
    monkeypatch.delenv(onnx_model.ENV_DIR)
    assert onnx_model.model_file(name) == MODELS / f"{name}.onnx"
    assert onnx_model.session(name) is not sess  # the shipped file has its own session


@pytest.mark.parametrize("name", NAMES)
def test_sessions_use_two_threads_that_do_not_spin(name):
    """A network's threads sleep when its run ends: spinning, they held a core the Python steps
    between the networks needed (a 2-core tablet server ran a tray photo 40 % slower)."""
    opts = onnx_model.session(name).get_session_options()
    assert opts.intra_op_num_threads == onnx_model.INTRA_OP_THREADS == 2
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_both_models_load_through_the_helper(tmp_path, monkeypatch):
    _copy(tmp_path, NAMES)
    monkeypatch.setenv(onnx_model.ENV_DIR, str(tmp_path))
    opened: list[str] = []
    real = onnx_model.session

    def recording(name, directory=None):
        opened.append(str(onnx_model.model_file(name, ".onnx", directory)))
        return real(name, directory)

    monkeypatch.setattr(onnx_model, "session", recording)
    clf = get_classifier()
    assert clf.model_path == tmp_path / "tile_classifier.onnx"
    assert clf.session is real("tile_classifier")
    face, core, _ = learned.predict_maps(np.full((240, 320, 3), 90, np.uint8))
    assert face.shape == core.shape
    assert opened == [str(tmp_path / "tile_classifier.onnx"), str(tmp_path / "tile_segmenter.onnx")]
    assert TileClassifier(MODELS).session is real("tile_classifier", MODELS)


def test_default_finder_follows_the_model_folder(tmp_path, monkeypatch):
    _copy(tmp_path, ("tile_classifier",))
    monkeypatch.setenv(onnx_model.ENV_DIR, str(tmp_path))
    assert not learned.available()
    assert finder_name() == "classical"
    monkeypatch.delenv(onnx_model.ENV_DIR)
    assert finder_name() == "learned"


# ----------------------------------------------------------------------------------------------
# int8 copies (python3 run.py quantize): what runs, and that it reads as the float network does

PHOTOS = MODELS.parent / "tests" / "fixtures" / "photos"


@pytest.mark.parametrize("name", [*NAMES, "tile_fallback"])
def test_the_int8_copy_runs_where_it_ships_and_the_float_network_on_request(name, tmp_path, monkeypatch):
    monkeypatch.delenv(onnx_model.ENV_FLOAT, raising=False)
    copy = onnx_model.metadata(name, MODELS)["runtime"]["file"]
    assert copy == f"{name}.int8.onnx" and (MODELS / copy).is_file()
    assert onnx_model.runtime_file(name, MODELS) == MODELS / copy
    _copy(tmp_path, (name,))  # the metadata names the copy, which is not in this folder
    assert onnx_model.runtime_file(name, tmp_path) == tmp_path / f"{name}.onnx"
    shutil.copy(MODELS / copy, tmp_path / copy)
    assert onnx_model.runtime_file(name, tmp_path) == tmp_path / copy
    monkeypatch.setenv(onnx_model.ENV_FLOAT, "1")
    assert onnx_model.runtime_file(name, tmp_path) == tmp_path / f"{name}.onnx"


@pytest.mark.parametrize("photo", ["scene_11", "scene_12", "scene_13"])
def test_the_int8_networks_read_a_photo_as_the_float_ones_do(photo, monkeypatch):
    """The int8 finder and classifier find the same tiles as the float networks, read them as well
    (right but for at most one tile), and read every tile they show as sure as the float networks
    do, or right. Quantisation moves only readings the networks are unsure of or got wrong: on
    scene_13 the float networks read a small 3m as a 5m, which the int8 ones read right (with the
    classifier of session 15, at 0.936, just under sure; with session 27's, surely)."""
    import json
    from collections import Counter

    from vision.recognize import recognize

    labels = json.loads((PHOTOS / f"{photo}.json").read_text())
    truth = labels["codes"]
    centres = np.array([np.mean(t["quad"], 0) for t in labels["tiles"]])
    data = (PHOTOS / f"{photo}.jpg").read_bytes()
    monkeypatch.delenv(onnx_model.ENV_FLOAT, raising=False)
    int8 = recognize(data, classifier=TileClassifier(MODELS))
    monkeypatch.setenv(onnx_model.ENV_FLOAT, "1")
    float_ = recognize(data, classifier=TileClassifier(MODELS))
    assert len(int8.tiles) == len(float_.tiles) == len(truth)
    for a, b in zip(int8.tiles, float_.tiles):
        width = np.linalg.norm(np.subtract(a.quad[1], a.quad[0]))
        assert np.linalg.norm(np.mean(a.quad, 0) - np.mean(b.quad, 0)) < 0.3 * width  # the same tile
        right = labels["tiles"][int(np.argmin(np.linalg.norm(centres - np.mean(a.quad, 0), axis=1)))]["code"]
        assert b.code == a.code or not a.sure or a.code == right
    for rec in (int8, float_):
        assert sum((Counter(rec.codes) & Counter(truth)).values()) >= len(truth) - 1


def test_the_classifier_learned_not_a_tile_from_the_shipped_finders_false_finds(monkeypatch):
    """The classifier's "not a tile" crops include the finder's own false finds, so a new finder
    means mining them again and fine-tuning the classifier (docs/vision.md, session 14): the
    metadata names the finder that mined them, and it is the one that ships."""
    from training.negatives import finder_id

    monkeypatch.delenv(onnx_model.ENV_DIR, raising=False)
    monkeypatch.delenv(onnx_model.ENV_FLOAT, raising=False)
    mined_with = onnx_model.metadata("tile_classifier")["training"]["not_a_tile"]["finder"]
    assert mined_with.split()[:2] == finder_id().split()
