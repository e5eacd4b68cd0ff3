"""Table (c12)'s photos (:mod:`training.real_tile_scenes`): the phone-like layouts drawn with faces cut
from real photos of the held-out sets (no network: crops, split and background made here)."""

from __future__ import annotations

import csv

import cv2
import numpy as np
import pytest

from training import real_tile_scenes
from training.phone_scenes import KINDS

#: every face a set shows
CODES = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
CODES += [f"{k}f" for k in range(1, 9)]


def _crop(colour: tuple[int, int, int]) -> np.ndarray:
    """A 104 x 80 'tile crop': ivory with a block of ``colour`` in the middle, as a face's artwork."""
    img = np.full((104, 80, 3), (200, 225, 235), np.uint8)
    img[30:74, 20:60] = colour
    return img


def _data(tmp_path) -> tuple:
    """A data folder holding three crops (``133.jpg`` labelled ``8m`` in data.csv, as the real one
    is) and a split naming two held-out sets and one crop kept for training."""
    crops = tmp_path / "data" / "camerash-mahjong-dataset" / "raw-tiles"
    crops.mkdir(parents=True)
    rows = [("133.jpg", 26, "characters-8", "1", "heldout"), ("7.jpg", 1, "dots-1", "13", "heldout")]
    rows.append(("8.jpg", 2, "dots-2", "5", "train"))
    for name, *_ in rows:
        cv2.imwrite(str(crops / name), _crop((40, 60, 200)))
    tiles = tmp_path / "data" / "camerash-mahjong-dataset" / "tiles-data"
    tiles.mkdir()
    with open(tiles / "data.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["image-name", "label", "label-name"])
        w.writerows((name, label, label_name) for name, label, label_name, _s, _p in rows)
    split = tmp_path / "split.csv"
    with open(split, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["image", "label", "source_photo", "set", "match_score", "split"])
        w.writerows((name, "?", "x.jpg", s, "0.9", part) for name, _l, _n, s, part in rows)
    return tmp_path / "data", split


def test_held_out_crops_are_read_per_set_under_their_corrected_labels(tmp_path):
    data, split = _data(tmp_path)
    faces = real_tile_scenes.heldout_faces(data, split)
    # only the held-out sets, and 133.jpg (eight dots) under 8p, as the classifier's training reads it
    assert sorted(faces) == ["1", "13"]
    assert list(faces["1"]) == ["8p"] and list(faces["13"]) == ["1p"]
    assert faces["1"]["8p"][0].shape == (104, 80, 3) and faces["1"]["8p"][0].dtype == np.float32


def test_no_crops_no_faces(tmp_path):
    _data_, split = _data(tmp_path)
    assert real_tile_scenes.heldout_faces(tmp_path / "elsewhere", split) == {}


def test_a_face_is_one_of_its_codes_crops():
    a, b = _crop((0, 0, 255)).astype(np.float32), _crop((255, 0, 0)).astype(np.float32)
    face = real_tile_scenes.face_fn_of({"1m": [a, b]})
    rng = np.random.default_rng(0)
    drawn = [face("1m", rng) for _ in range(20)]
    assert all(d is a or d is b for d in drawn) and any(d is a for d in drawn) and any(d is b for d in drawn)


@pytest.mark.parametrize("kind", KINDS)
def test_scenes_are_the_same_on_every_run_and_drawn_from_one_set(monkeypatch, tmp_path, kind):
    from training import backgrounds

    wall = np.random.default_rng(0).integers(0, 255, (900, 1200, 3), np.uint8)
    bg = backgrounds.Background("images/wall.jpg", "pkg", "1.0", "usr/share/wall.jpg", "GPL-2+", "wall")
    monkeypatch.setattr(backgrounds, "load_manifest", lambda *a, **k: [bg])
    monkeypatch.setattr(backgrounds, "read_background", lambda *a, **k: wall)
    monkeypatch.setattr("training.negatives.is_heldout_background", lambda name: True)
    codes = CODES
    red, blue = _crop((40, 40, 220)).astype(np.float32), _crop((220, 40, 40)).astype(np.float32)
    faces = {"1": {c: [red] for c in codes}, "13": {c: [blue] for c in codes}}
    monkeypatch.setattr(real_tile_scenes, "heldout_faces", lambda data: faces)
    first = real_tile_scenes.real_tile_scenes(kind, 3, tmp_path, 500)
    again = real_tile_scenes.real_tile_scenes(kind, 3, tmp_path, 500)
    assert [name for name, _, _ in first] == [name for name, _, _ in again]
    assert [jpeg for _, jpeg, _ in first] == [jpeg for _, jpeg, _ in again]
    for name, jpeg, scene in first:
        assert scene.tiles and all(code in codes or code == "back" for code in scene.codes)
        # every face of a photo from its one set: red artwork there, or blue, never both
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
        shown = []
        for tile in scene.tiles:
            if tile["code"] == "back":
                continue
            centre = np.asarray(tile["quad"], np.float32).mean(0).astype(int)
            b, _g, r = img[centre[1], centre[0]]
            shown.append("1" if r > b else "13")
        assert shown and set(shown) == {name.rsplit(" ", 1)[1]}


def test_no_scenes_without_crops_or_backgrounds(monkeypatch, tmp_path):
    from training import backgrounds

    monkeypatch.setattr(backgrounds, "load_manifest", lambda *a, **k: [])
    assert real_tile_scenes.real_tile_scenes("tray", 2, tmp_path, 0) == []


def test_table_c13_sees_each_c12_photo_from_every_seat(monkeypatch, tmp_path):
    """(c13): every (c12) photo seen from each seat of ``--real-tile-seats``, its tiles carried along
    (the same faces, squatter: a face's height shrinks more than its width seen from a seat)."""
    import argparse

    from training import evaluate

    wall = np.random.default_rng(0).integers(0, 255, (900, 1200, 3), np.uint8)
    faces = {"1": {c: [_crop((40, 40, 220)).astype(np.float32)] for c in CODES}}
    monkeypatch.setattr(real_tile_scenes, "heldout_faces", lambda data: faces)
    from training import backgrounds

    bg = backgrounds.Background("images/wall.jpg", "pkg", "1.0", "usr/share/wall.jpg", "GPL-2+", "wall")
    monkeypatch.setattr(backgrounds, "load_manifest", lambda *a, **k: [bg])
    monkeypatch.setattr(backgrounds, "read_background", lambda *a, **k: wall)
    monkeypatch.setattr("training.negatives.is_heldout_background", lambda name: True)
    tables: dict = {}
    monkeypatch.setattr(evaluate, "_scene_table", lambda items, key, *rest: tables.__setitem__(key, items))
    monkeypatch.setattr(evaluate, "PHONE_TABLES", {"diagonal": evaluate.PHONE_TABLES["diagonal"]})
    a = argparse.Namespace(real_tile_scenes=2, real_tile_seats="45,55")
    evaluate._report_real_tile_scenes(a, tmp_path, None, None, {})
    assert set(tables) == {"real_tiles_diagonal", "real_tiles_diagonal_seat_45", "real_tiles_diagonal_seat_55"}
    for seat in ("45", "55"):
        for (name, _, above), (seen_name, jpeg, seen) in zip(
            tables["real_tiles_diagonal"], tables[f"real_tiles_diagonal_seat_{seat}"]
        ):
            assert seen_name == f"{name}-seat{seat}" and jpeg[:2] == b"\xff\xd8"
            assert len(seen.tiles) + len(seen.partial) >= len(above.tiles)
            assert set(seen.codes) <= set(above.codes)
    a.real_tile_seats = ""
    tables.clear()
    evaluate._report_real_tile_scenes(a, tmp_path, None, None, {})
    assert set(tables) == {"real_tiles_diagonal"}
