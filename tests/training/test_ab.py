"""The before-and-after sets (:mod:`training.ab`): photos scored as multisets of tiles, summed up,
and the photos two readings differ on."""

from __future__ import annotations

import json

from training import ab


def _row(file: str, labels: list[str], read: list[str], sure: int = 0, sure_wrong: int = 0, ms: float = 10.0) -> dict:
    return {
        "file": file,
        "name": file,
        "labels": labels,
        "read": read,
        "sure": sure,
        "sure_wrong": sure_wrong,
        "ms": ms,
    }


def test_a_reading_is_scored_as_multisets_of_tiles():
    assert ab.score(["1m", "1m", "2p"], ["2p", "1m"]) == (1, 0)
    assert ab.score(["1m", "2p"], ["2p", "3s", "1m", "1m"]) == (0, 2)
    assert ab.score(["5z", "5z"], ["5z", "5z"]) == (0, 0)


def test_a_set_is_summed_up():
    rows = [
        _row("000.jpg", ["1m", "2m"], ["2m", "1m"], ms=30.0),
        _row("001.jpg", ["3f", "4s"], ["7f", "4s"], sure=2, sure_wrong=1, ms=10.0),
        _row("002.jpg", ["9p"], [], ms=20.0),
    ]
    assert ab.summary(rows) == {
        "photos": 3,
        "tiles": 5,
        "missed": 2,
        "extra": 1,
        "exact": 1,
        "sure": 2,
        "sure_wrong": 1,
        "median_ms": 20.0,
        "hand_photos": 0,
        "hand_exact": 0,
    }


def test_the_hand_is_scored_where_the_set_knows_it():
    """Of the photos whose hand is known, those whose tiles marked as the hand are exactly the
    hand's (as multisets) count; photos whose hand is not known are left out."""
    rows = [
        {**_row("000.jpg", ["1m", "2m", "9p"], ["1m", "2m", "9p"]), "hand": ["1m", "2m"], "hand_read": ["2m", "1m"]},
        {**_row("001.jpg", ["1m", "2m", "9p"], ["1m", "2m", "9p"]), "hand": ["1m", "2m"], "hand_read": ["1m", "9p"]},
        {**_row("002.jpg", ["5z"], ["5z"]), "hand": None, "hand_read": ["5z"]},
    ]
    s = ab.summary(rows)
    assert (s["hand_photos"], s["hand_exact"]) == (2, 1)


def test_a_change_in_the_tiles_marked_as_the_hand_is_listed():
    row = {**_row("000.jpg", ["1m", "2m", "9p"], ["1m", "2m", "9p"]), "hand": ["1m", "2m"]}
    before = {"t2": [{**row, "hand_read": ["1m"]}]}
    after = {"t2": [{**row, "hand_read": ["1m", "2m"]}]}
    assert ab.differences(before, after) == ["t2 000.jpg: hand missed [2m] extra [] -> missed [] extra []"]
    unknown = {"t2": [{**row, "hand": None, "hand_read": ["9p"]}]}
    assert ab.differences(unknown, after) == []


def test_the_photos_two_readings_differ_on_are_listed():
    before = {"c7": [_row("000.jpg", ["1m", "2m"], ["1m", "3m"]), _row("001.jpg", ["5z"], ["5z"])]}
    after = {"c7": [_row("000.jpg", ["1m", "2m"], ["1m", "2m"]), _row("001.jpg", ["5z"], ["5z"], ms=99.0)]}
    assert ab.differences(before, after) == ["c7 000.jpg: missed [2m] extra [3m] -> missed [] extra []"]
    assert ab.differences(before, before) == []


def test_reading_sets_not_built_says_what_to_do(tmp_path, capsys):
    assert ab.main(["read", str(tmp_path), str(tmp_path / "out.json"), "c7"]) == 2
    said = capsys.readouterr().out
    assert "no set c7" in said and "training.ab build" in said


def test_diff_reads_two_files(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"c": [_row("000.jpg", ["1m"], ["1m"])]}))
    b.write_text(json.dumps({"c": [_row("000.jpg", ["1m"], [])]}))
    assert ab.main(["diff", str(a), str(b)]) == 0
    assert capsys.readouterr().out.strip() == "c 000.jpg: missed [] extra [] -> missed [1m] extra []"


def test_again_saves_every_photo_once_more_with_its_labels_and_hand(tmp_path, capsys):
    import cv2
    import numpy as np

    y, x = np.mgrid[0:60, 0:80]
    img = np.dstack([x * 3, y * 4, (x + y) * 2]).astype(np.uint8)  # (smooth: little JPEG noise)
    cv2.rectangle(img, (20, 15), (50, 45), (240, 240, 230), -1)
    jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    ab._save(
        tmp_path / "built" / "c7",
        [("table one", jpeg, ["1m", "2m"]), ("table two", jpeg, ["5z"])],
        {"table one": ["1m"], "table two": None},
    )
    assert ab.main(["again", str(tmp_path / "built"), str(tmp_path / "again")]) == 0
    assert capsys.readouterr().out.strip() == "c7: 2 photos"
    labels = json.loads((tmp_path / "again" / "c7" / "labels.json").read_text())
    assert labels == {
        "000.jpg": {"name": "table one", "labels": ["1m", "2m"], "hand": ["1m"]},
        "001.jpg": {"name": "table two", "labels": ["5z"]},
    }
    saved = (tmp_path / "again" / "c7" / "000.jpg").read_bytes()
    out = cv2.imdecode(np.frombuffer(saved, np.uint8), cv2.IMREAD_COLOR)
    assert saved != jpeg and out.shape == img.shape  # (the same photo, its JPEG noise another)
    assert float(np.abs(out.astype(int) - img.astype(int)).mean()) < 8


def test_again_without_sets_says_what_to_do(tmp_path, capsys):
    assert ab.main(["again", str(tmp_path), str(tmp_path / "again")]) == 2
    said = capsys.readouterr().out
    assert "no sets" in said and "training.ab build" in said
