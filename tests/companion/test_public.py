"""The public API: rule sets, tiles, the scoring contract, notation, errors, uploads, the real recogniser."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion import live
from companion.api.models import Recognition, RecognizedGroup
from companion.app import create_app
from engine import contract

from .helpers import E2E_PHOTO, ROOT, WIN_S, FakeReading, err, new_table


def test_variants_list_options_with_defaults(client):
    variants = client.get("/api/variants").json["variants"]
    names = [v["name"] for v in variants]
    assert "ningxia" in names
    for v in variants:
        for opt in v["options"]:
            assert {"name", "default", "description"} <= set(opt)
    tiles = client.get("/api/tiles").json["tiles"]
    assert len(tiles) == 42 and tiles[0] == {"code": "1m", "suit": "m", "en": "1 characters", "zh": "一萬"}


@pytest.mark.parametrize(
    "payload",
    [
        {"variant": "ningxia", **WIN_S},
        [
            {
                "variant": "ningxia",
                "winner": "S",
                "win": {"by": "discard", "from": "E"},
                "hand": {"concealed": "123m789s11122z999p", "winning_tile": "9p"},
            },
            {
                "variant": "ningxia",
                "winner": "W",
                "win": {"by": "discard", "from": "E"},
                "hand": {"concealed": "456m456s333z77z789p", "winning_tile": "9p"},
            },
        ],
    ],
)
def test_score_endpoint_is_the_contract(client, payload):
    resp = client.post("/api/score", json=payload)
    assert resp.status_code == 200
    assert resp.json == contract.score(payload)


def test_score_refusal_is_422_and_malformed_is_400(client):
    short = {"variant": "ningxia", "winner": "S", "hand": {"concealed": "123m456p789s1122z", "winning_tile": "2z"}}
    resp = client.post("/api/score", json=short)
    assert resp.status_code == 400 and err(resp)["field"] == "hand.concealed"
    resp = client.post("/api/score", json={"variant": "ningxia", "hand": {"concealed": "1m"}})
    assert resp.status_code == 400 and err(resp)["field"] == "winner"
    not_a_win = {"variant": "ningxia", "winner": "S", "hand": {"concealed": "123m456p789s11223z", "winning_tile": "3z"}}
    resp = client.post("/api/score", json=not_a_win)
    assert resp.status_code == 422
    assert resp.json == contract.score(not_a_win)


@pytest.mark.parametrize(
    "text, tiles",
    [
        ("123m 5z", ["1m", "2m", "3m", "5z"]),
        ("一萬 東 中", ["1m", "1z", "7z"]),
        ("", []),
    ],
)
def test_notation_endpoint_reads_typed_tiles_as_the_engine_does(client, text, tiles):
    resp = client.post("/api/notation", json={"tiles": text})
    assert resp.status_code == 200
    assert resp.get_json()["tiles"] == tiles


@pytest.mark.parametrize("body, field", [({"tiles": "9z"}, "tiles"), ({"tiles": 5}, "tiles"), ({"text": "1m"}, "text")])
def test_notation_endpoint_names_what_is_wrong(client, body, field):
    resp = client.post("/api/notation", json=body)
    assert resp.status_code == 400
    assert err(resp)["field"] == field


def test_waits_endpoint(client):
    payload = {"variant": "ningxia", "winner": "S", "hand": {"concealed": "123m456p789s1122z"}}
    resp = client.post("/api/waits", json=payload)
    assert resp.status_code == 200 and resp.json == contract.waits(payload)
    assert set(resp.json["waits"]) == {"1z", "2z"}


def test_unknown_api_path_and_method_are_json(client):
    assert client.get("/api/nothing").status_code == 404 and err(client.get("/api/nothing"))["code"] == "not_found"
    resp = client.get("/api/score")
    assert resp.status_code == 405 and err(resp)["code"] == "method_not_allowed"


def test_unexpected_error_is_a_clean_500(client, monkeypatch):
    t = new_table(client)["table"]["token"]
    monkeypatch.setattr(live.LiveLedger, "snapshot", lambda self: 1 / 0)
    resp = client.get(f"/api/tables/{t}")
    assert resp.status_code == 500 and err(resp)["code"] == "internal"


def test_upload_over_the_limit_is_413(tmp_path):
    small = create_app(tmp_path / "d", max_upload=1000, recognizer=lambda d: FakeReading()).test_client()
    resp = small.post(
        "/api/recognize", data={"photo": (io.BytesIO(b"x" * 5000), "a.jpg")}, content_type="multipart/form-data"
    )
    assert resp.status_code == 413 and err(resp)["code"] == "too_large"


def test_recognize_needs_a_photo_field(client):
    resp = client.post(
        "/api/recognize", data={"picture": (io.BytesIO(b"abc"), "a.jpg")}, content_type="multipart/form-data"
    )
    assert resp.status_code == 400 and err(resp)["field"] == "photo" and "'photo'" in err(resp)["message"]
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(b""), "a.jpg")}, content_type="multipart/form-data")
    assert resp.status_code == 400 and err(resp)["code"] == "empty_file"


def test_recognition_model_names_every_reason_the_recogniser_gives():
    from typing import get_args

    from vision.hand import NOTES

    assert set(get_args(RecognizedGroup.model_fields["reason"].annotation)) == set(NOTES)


GRID = ROOT.parent / "shared" / "vision-data" / "camerash-mahjong-dataset" / "raw-images" / "13.jpg"


@pytest.mark.skipif(not GRID.exists(), reason="../shared/vision-data (Camerash photos) not available")
def test_an_overexposed_photo_is_read_with_a_note_saying_what_to_check_and_how_to_retake(tmp_path):
    """A grid of touching tiles on white, its levels 1.3 times as high and clipped: the tiles are
    read, those on burnt-out white are not sure, and the reason says so, which the page shows
    beside its Try again button."""
    cv2 = pytest.importorskip("cv2")
    from training.exposure import overexpose

    photo = cv2.imencode(".jpg", overexpose(cv2.imread(str(GRID)), 1.3))[1].tobytes()
    client = create_app(tmp_path / "d").test_client()
    resp = client.post(
        "/api/recognize", data={"photo": (io.BytesIO(photo), "grid.jpg")}, content_type="multipart/form-data"
    )
    body = resp.json
    assert resp.status_code == 200 and body["ok"] is True and len(body["tiles"]) >= 130
    unsure = sum(not t["sure"] for t in body["tiles"])
    assert body["reason"].startswith("overexposed photo: ") and f"the {len(body['tiles'])} tiles" in body["reason"]
    assert unsure >= int(body["reason"].split()[2])  # the burnt-out ones, and any read unsurely anyway
    Recognition.model_validate(body)


def test_recognize_with_the_real_recogniser_on_a_photo_fixture(tmp_path):
    """The real ``vision.recognize``: a photo fixture in, the ``mjc recognize --json`` shape out."""
    pytest.importorskip("cv2")
    client = create_app(tmp_path / "d").test_client()

    def post(photo: Path):
        return client.post(
            "/api/recognize",
            data={"photo": (io.BytesIO(photo.read_bytes()), photo.name)},
            content_type="multipart/form-data",
        )

    resp = post(E2E_PHOTO)  # a table photo with 14 tiles in it
    assert resp.status_code == 200, resp.json
    body = resp.json
    assert body["ok"] is True and body["photo"] == E2E_PHOTO.name
    assert (body["width"], body["height"]) == (1200, 900)
    assert len(body["tiles"]) >= 10, body.get("reason")
    for tile in body["tiles"]:
        assert {"code", "quad", "confidence", "alternatives", "rotated", "row", "group"} <= set(tile)
        assert len(tile["quad"]) == 4
    assert sum(len(g["tiles"]) for g in body["groups"]) == len(body["tiles"])
    Recognition.model_validate(body)
    # one row of 14 tiles: every group is the hand, the first the hand's row
    assert [g["hand"] for g in body["groups"]] == [True] * len(body["groups"])
    assert body["groups"][0]["reason"] == "hand_row" and body["groups"][0]["note"]

    # the vision engineer's photo fixtures, when there: a reading or a named image error, never a crash
    folder = ROOT / "tests" / "fixtures" / "photos"
    photos = (
        sorted(p for p in folder.glob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")) if folder.is_dir() else []
    )
    for photo in photos[:1]:
        resp = post(photo)
        assert resp.status_code in (200, 400), resp.status_code
        assert resp.json["ok"] is (resp.status_code == 200)

    # not a photo: the recogniser's own error code, as a 400
    resp = client.post(
        "/api/recognize",
        data={"photo": (io.BytesIO(b"hello, not an image"), "x.jpg")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 400 and err(resp)["code"] == "not_an_image" and err(resp)["field"] == "photo"
