"""The companion's HTTP API with Flask's test client: contract endpoints, tables, hands, kongs,
claims, undo, corrections, exports, errors, uploads, and the real recogniser on a photo fixture."""
from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from companion import ledger as L
from companion.app import WEB_DIR, create_app
from companion.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Store, StoreError
from engine import contract

ROOT = Path(__file__).resolve().parent.parent
E2E_PHOTO = ROOT / "tests" / "e2e" / "data" / "hand_photo.jpg"
PLAYERS = ["Alice", "Bob", "Chen", "Dora"]
WIN_S = {"winner": "S", "win": {"by": "self_draw"},
         "hand": {"concealed": "123m456p789s11222z", "winning_tile": "2z"}}


class FakeReading:
    """A recognition for API tests where the classifier is not the point."""

    def __init__(self, codes=("1m", "2m", "3m")):
        self.codes = codes

    def to_dict(self):
        tiles = [{"code": c, "quad": [[10 * i, 0], [10 * i + 9, 0], [10 * i + 9, 12], [10 * i, 12]], "confidence": 0.9,
                  "alternatives": [[c, 0.9], ["9m", 0.05], ["9p", 0.05]], "rotated": False, "row": 0, "group": 0}
                 for i, c in enumerate(self.codes)]
        return {"tiles": tiles, "groups": [{"index": 0, "row": 0, "tiles": list(range(len(tiles))),
                                            "codes": "".join(self.codes)}],
                "width": 100, "height": 20, "timings_ms": {"total": 1}, "reason": None}


@pytest.fixture()
def app(tmp_path):
    return create_app(tmp_path / "data", recognizer=lambda data: FakeReading())


@pytest.fixture()
def client(app):
    return app.test_client()


def new_table(client, variant="ningxia", **extra):
    body = {"variant": variant, "players": PLAYERS, "first_dealer": 0, **extra}
    resp = client.post("/api/tables", json=body)
    assert resp.status_code == 201, resp.json
    return resp.json


def err(resp):
    assert resp.is_json, resp.data[:200]
    body = resp.json
    assert body["ok"] is False and "Traceback" not in json.dumps(body)
    return body["error"]


# ---------------------------------------------------------------------------- documents


def test_openapi_documents_every_api_route(app, client):
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        assert path in doc["paths"], path
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in doc["paths"][path], (path, method)


def test_variants_list_options_with_defaults(client):
    variants = client.get("/api/variants").json["variants"]
    names = [v["name"] for v in variants]
    assert "ningxia" in names
    for v in variants:
        for opt in v["options"]:
            assert {"name", "default", "description"} <= set(opt)
    tiles = client.get("/api/tiles").json["tiles"]
    assert len(tiles) == 42 and tiles[0] == {"code": "1m", "suit": "m", "en": "1 characters", "zh": "一萬"}


def test_page_and_static_files_are_local(client):
    page = client.get("/")
    assert page.status_code == 200 and b"/static/main.js" in page.data
    assert client.get("/t/sometoken").status_code == 200
    for name in ("main.js", "i18n.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for path in WEB_DIR.iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)\s*=\s*["']https?://""", text), f"{path.name} loads from the network"
        assert "@import url(http" not in text


# ---------------------------------------------------------------------------- the contract


@pytest.mark.parametrize("payload", [
    {"variant": "ningxia", **WIN_S},
    [{"variant": "ningxia", "winner": "S", "win": {"by": "discard", "from": "E"},
      "hand": {"concealed": "123m789s11122z999p", "winning_tile": "9p"}},
     {"variant": "ningxia", "winner": "W", "win": {"by": "discard", "from": "E"},
      "hand": {"concealed": "456m456s333z77z789p", "winning_tile": "9p"}}],
])
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


@pytest.mark.parametrize("text, tiles", [
    ("123m 5z", ["1m", "2m", "3m", "5z"]),
    ("一萬 東 中", ["1m", "1z", "7z"]),
    ("", []),
])
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


def test_bad_json_is_400_and_says_so(client):
    resp = client.post("/api/score", data="{not json", content_type="application/json")
    assert resp.status_code == 400 and err(resp)["code"] == "bad_json" and "line 1" in err(resp)["message"]
    resp = client.post("/api/tables", data="", content_type="application/json")
    assert resp.status_code == 400 and err(resp)["code"] == "bad_json"
    resp = client.post("/api/tables", json={"variant": "ningxia", "players": ["A", "", "C", "D"]})
    assert resp.status_code == 400 and err(resp)["field"] == "players[1]"
    resp = client.post("/api/tables", json={"variant": "ningxia", "players": PLAYERS, "options": {"nope": 1}})
    assert resp.status_code == 400 and err(resp)["field"] == "options.nope"
    resp = client.post("/api/tables", json={"variant": "mars", "players": PLAYERS})
    assert resp.status_code == 400 and err(resp)["field"] == "variant"
    resp = client.post("/api/tables", json={"variant": "ningxia", "players": PLAYERS, "first_dealer": 7})
    assert resp.status_code == 400 and err(resp)["field"] == "first_dealer"
    resp = client.post("/api/tables", json={"variant": "ningxia", "players": PLAYERS, "colour": "red"})
    assert resp.status_code == 400 and err(resp)["field"] == "colour"


def test_unknown_api_path_and_method_are_json(client):
    assert client.get("/api/nothing").status_code == 404 and err(client.get("/api/nothing"))["code"] == "not_found"
    resp = client.get("/api/score")
    assert resp.status_code == 405 and err(resp)["code"] == "method_not_allowed"


def test_unexpected_error_is_a_clean_500(client, monkeypatch):
    t = new_table(client)["table"]["token"]
    monkeypatch.setattr(L, "replay", lambda *a, **k: 1 / 0)
    resp = client.get(f"/api/tables/{t}")
    assert resp.status_code == 500 and err(resp)["code"] == "internal"


# ---------------------------------------------------------------------------- uploads


def test_upload_over_the_limit_is_413(tmp_path):
    small = create_app(tmp_path / "d", max_upload=1000, recognizer=lambda d: FakeReading()).test_client()
    resp = small.post("/api/recognize", data={"photo": (io.BytesIO(b"x" * 5000), "a.jpg")},
                      content_type="multipart/form-data")
    assert resp.status_code == 413 and err(resp)["code"] == "too_large"


def test_recognize_needs_a_photo_field(client):
    resp = client.post("/api/recognize", data={"picture": (io.BytesIO(b"abc"), "a.jpg")},
                       content_type="multipart/form-data")
    assert resp.status_code == 400 and err(resp)["field"] == "photo" and "'photo'" in err(resp)["message"]
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(b""), "a.jpg")}, content_type="multipart/form-data")
    assert resp.status_code == 400 and err(resp)["code"] == "empty_file"


def test_recognize_with_the_real_recogniser_on_a_photo_fixture(tmp_path):
    """The real ``vision.recognize``: a photo fixture in, the ``mjc recognize --json`` shape out."""
    pytest.importorskip("cv2")
    client = create_app(tmp_path / "d").test_client()

    def post(photo: Path):
        return client.post("/api/recognize", data={"photo": (io.BytesIO(photo.read_bytes()), photo.name)},
                           content_type="multipart/form-data")

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

    # the vision engineer's photo fixtures, when there: a reading or a named image error, never a crash
    folder = ROOT / "tests" / "fixtures" / "photos"
    photos = sorted(p for p in folder.glob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")) if folder.is_dir() else []
    for photo in photos[:1]:
        resp = post(photo)
        assert resp.status_code in (200, 400), resp.status_code
        assert resp.json["ok"] is (resp.status_code == 200)

    # not a photo: the recogniser's own error code, as a 400
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(b"hello, not an image"), "x.jpg")},
                       content_type="multipart/form-data")
    assert resp.status_code == 400 and err(resp)["code"] == "not_an_image" and err(resp)["field"] == "photo"


def test_table_photo_is_stored_and_linked_to_the_hand(client):
    t = new_table(client)["table"]["token"]
    jpeg = E2E_PHOTO.read_bytes()
    resp = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(jpeg), "h.jpg")},
                       content_type="multipart/form-data")
    assert resp.status_code == 201
    pid = resp.json["photo_id"]
    assert [x["code"] for x in resp.json["tiles"]] == ["1m", "2m", "3m"]
    assert client.get(f"/api/tables/{t}/photos/{pid}").data == jpeg
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S], "photo_id": pid})
    assert resp.status_code == 201 and resp.json["ledger"]["entries"][-1]["photo_id"] == pid
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S], "photo_id": 999})
    assert resp.status_code == 400 and err(resp)["field"] == "photo_id"


# ---------------------------------------------------------------------------- tables and the ledger


def test_tokens_watch_link_and_404(client):
    view = new_table(client)
    token, watch = view["table"]["token"], view["table"]["watch_token"]
    assert token != watch and len(token) >= 20
    assert client.get("/api/tables/not-a-token").status_code == 404
    assert err(client.get("/api/tables/not-a-token"))["code"] == "no_such_table"
    assert client.post("/api/tables/not-a-token/draws").status_code == 404
    watched = client.get(f"/api/tables/{watch}").json
    assert watched["table"]["read_only"] is True and "token" not in watched["table"]
    resp = client.post(f"/api/tables/{watch}/draws")
    assert resp.status_code == 403 and err(resp)["code"] == "read_only"
    assert client.get(f"/api/tables/{watch}/ledger").json["version"] == 0


def test_an_evening_kong_claim_win_undo_and_correction(client):
    view = new_table(client, start_points=100)
    t = view["table"]["token"]
    assert view["ledger"]["balances"] == [100] * 4
    assert view["ledger"]["state"]["winds"] == ["E", "S", "W", "N"]

    # a claim and an exposed kong are this hand's claims
    assert client.post(f"/api/tables/{t}/claims", json={"claimer": "S", "from": "W"}).status_code == 201
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "kong", "declarer": "S", "from": "W"})
    assert resp.status_code == 201
    kong_pay = resp.json["ledger"]["entries"][-1]["payments"]
    assert sum(kong_pay) == 0
    assert resp.json["ledger"]["claims"] == {"S": {"W": 2}}

    # preview: the table fills in variant, round wind, streak and claims
    preview = client.post(f"/api/tables/{t}/hands/score", json={"winners": [WIN_S]}).json
    assert preview["claims"] == {"S": {"W": 2}} and preview["result"]["results"][0]["winner"] == "S"
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]})
    assert resp.status_code == 201
    ledger = resp.json["ledger"]
    win = ledger["entries"][-1]
    assert win["claims"] == {"S": {"W": 2}} and win["outcome"] == "win"
    assert ledger["balances"] == [100 + k + w for k, w in zip(kong_pay, win["payments"])]
    # ningxia: the winner deals next; Bob was South, so Bob is now East
    assert ledger["state"]["hand_no"] == 2 and ledger["state"]["dealer"] == 1 and ledger["claims"] == {}

    # correct hand 1: won on Dora's discard instead; balances recompute, the deal is unchanged
    fixed = {**WIN_S, "win": {"by": "discard", "from": "N"}}
    preview = client.post(f"/api/tables/{t}/hands/score", json={"winners": [fixed], "correct": win["id"]}).json
    assert preview["state"]["hand_no"] == 1 and preview["claims"] == {"S": {"W": 2}}
    resp = client.post(f"/api/tables/{t}/hands/{win['id']}/correct", json={"winners": [fixed]})
    assert resp.status_code == 201
    ledger = resp.json["ledger"]
    corrected = ledger["entries"][-1]
    assert corrected["corrected"] and corrected["replaces"] == win["id"]
    assert corrected["payments"][0] == 0 and corrected["payments"][3] < 0
    assert ledger["balances"] == [100 + k + w for k, w in zip(kong_pay, corrected["payments"])]
    assert ledger["state"]["dealer"] == 1
    statuses = {e["id"]: e["status"] for e in ledger["log"]}
    assert statuses[win["id"]] == "corrected"

    # undo takes back the correction (the original returns), then the win, then the kong
    before = ledger["version"]
    resp = client.post(f"/api/tables/{t}/undo", json={"event_id": corrected["id"]})
    assert resp.status_code == 201
    assert resp.json["ledger"]["entries"][-1]["id"] == win["id"]
    resp = client.post(f"/api/tables/{t}/undo", json={"event_id": 12345})
    assert resp.status_code == 409 and err(resp)["code"] == "stale"
    client.post(f"/api/tables/{t}/undo")
    resp = client.post(f"/api/tables/{t}/undo")
    ledger = resp.json["ledger"]
    assert ledger["state"]["hand_no"] == 1 and ledger["claims"] == {"S": {"W": 1}}
    assert ledger["balances"] == [100] * 4
    assert ledger["version"] == before + 3
    # nothing was deleted: every event is still in the export
    exported = client.get(f"/api/tables/{t}/export.json").json
    assert [e["kind"] for e in exported["events"]] == ["claim", "kong", "hand", "correct", "undo", "undo", "undo"]


def test_refused_hand_is_422_and_records_nothing(client):
    t = new_table(client)["table"]["token"]
    bad = {"winner": "S", "win": {"by": "self_draw"}, "hand": {"concealed": "123m456p789s11223z", "winning_tile": "3z"}}
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [bad]})
    assert resp.status_code == 422 and err(resp)["code"] == "not_a_win"
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [{**WIN_S, "hand": {"concealed": "1m"}}]})
    assert resp.status_code == 400 and err(resp)["field"].startswith("winners[0].hand")
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [{**WIN_S, "context": {}}]})
    assert resp.status_code == 400 and err(resp)["field"] == "winners[0].context"
    assert client.get(f"/api/tables/{t}/ledger").json["version"] == 0


def test_several_winners_on_one_discard(client):
    t = new_table(client)["table"]["token"]
    winners = [
        {"winner": "S", "win": {"by": "discard", "from": "E"}, "hand": {"concealed": "123m789s11122z999p", "winning_tile": "9p"}},
        {"winner": "W", "win": {"by": "discard", "from": "E"}, "hand": {"concealed": "456m456s333z77z789p", "winning_tile": "9p"}},
    ]
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": winners})
    assert resp.status_code == 201
    entry = resp.json["ledger"]["entries"][-1]
    assert [r["winner"] for r in entry["result"]["results"]] == ["S", "W"]
    assert entry["payments"][0] < 0 and entry["payments"][1] > 0 and entry["payments"][2] > 0


def test_dealer_streak_and_round_wind(client):
    # the winner deals next (ningxia's text): the dealer's own wins and draws keep the deal
    t = new_table(client)["table"]["token"]
    win_e = {**WIN_S, "winner": "E"}
    state = client.post(f"/api/tables/{t}/hands", json={"winners": [win_e]}).json["ledger"]["state"]
    assert state["dealer"] == 0 and state["dealer_streak"] == 1
    state = client.post(f"/api/tables/{t}/draws").json["ledger"]["state"]
    assert state["dealer"] == 0 and state["dealer_streak"] == 2
    assert client.post(f"/api/tables/{t}/hands/score", json={"winners": [win_e]}).status_code == 200

    # next_seat: the deal passes when a non-dealer wins; four passes move the round wind
    t = new_table(client, options={"dealer_rotation": "next_seat"})["table"]["token"]
    for i in range(4):
        state = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]}).json["ledger"]["state"]
        assert state["dealer"] == (i + 1) % 4 and state["dealer_streak"] == 0
    assert state["round_wind"] == "S" and state["hand_no"] == 5
    assert state["winds"] == ["E", "S", "W", "N"]


@pytest.mark.parametrize("variant", ["hefei", "ningbo", "nanning", "yuxi", "ningxia"])
def test_every_rule_set_rotates_through_the_ledger(client, variant):
    """A drawn hand under each rule set moves the deal the way ``next_dealer`` says."""
    from engine.rules import get_variant
    from engine.rules.base import resolve_options

    try:
        v = get_variant(variant)
    except Exception:
        pytest.skip(f"rule set {variant} not installed")
    view = new_table(client, variant=variant)
    t = view["table"]["token"]
    extra = {}
    if "last_drawer" in view["table"]["variant"]["draw_needs"]:
        # Nanning: a draw passes the deal to whoever drew the last tile; without it nothing is recorded
        resp = client.post(f"/api/tables/{t}/draws")
        assert resp.status_code == 400 and err(resp)["field"] == "last_drawer"
        assert client.get(f"/api/tables/{t}").status_code == 200
        assert client.get(f"/api/tables/{t}/ledger").json["version"] == 0
        extra = {"last_drawer": "W"}
    resp = client.post(f"/api/tables/{t}/draws", json=extra)
    assert resp.status_code == 201, resp.json
    state = resp.json["ledger"]["state"]
    expect = v.next_dealer([], True, resolve_options(v.options, {}), **extra)
    if variant == "nanning":
        assert state["dealer"] == 2  # the last drawer (West) deals
    assert state["dealer"] == L.HandState(1, 0, "E", 0).player_at(expect)
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "concealed_kong", "declarer": "S"})
    assert resp.status_code == 201 and sum(resp.json["ledger"]["balances"]) == 0


def test_kong_and_claim_validation(client):
    t = new_table(client)["table"]["token"]
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "kong", "declarer": "S"})
    assert resp.status_code == 400 and err(resp)["field"] == "from"
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "concealed_kong", "declarer": "S", "from": "W"})
    assert resp.status_code == 400 and err(resp)["field"] == "from"
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "big", "declarer": "S"})
    assert resp.status_code == 400 and err(resp)["field"] == "type"
    resp = client.post(f"/api/tables/{t}/claims", json={"claimer": "S", "from": "S"})
    assert resp.status_code == 400 and err(resp)["field"] == "from"
    resp = client.post(f"/api/tables/{t}/claims", json={"claimer": "X", "from": "S"})
    assert resp.status_code == 400 and err(resp)["field"] == "claimer"
    assert client.post(f"/api/tables/{t}/undo").status_code == 409


def test_exports(client):
    t = new_table(client)["table"]["token"]
    client.post(f"/api/tables/{t}/kongs", json={"type": "kong", "declarer": "S", "from": "W"})
    client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]})
    resp = client.get(f"/api/tables/{t}/export.csv")
    assert resp.status_code == 200 and "attachment" in resp.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(resp.data.decode("utf-8-sig"))))
    assert rows[0][:6] == ["seq", "time", "hand", "round_wind", "dealer", "event"]
    assert [r[5] for r in rows[1:]] == ["start", "kong", "win"]
    final = client.get(f"/api/tables/{t}/ledger").json["balances"]
    assert [int(x) for x in rows[-1][-4:]] == final
    data = client.get(f"/api/tables/{t}/export.json").json
    assert data["ledger"]["balances"] == final and len(data["events"]) == 2


def test_ledger_polling_says_when_nothing_changed(client):
    t = new_table(client)["table"]["token"]
    assert client.get(f"/api/tables/{t}/ledger?since=0").json == {"ok": True, "changed": False, "version": 0}
    client.post(f"/api/tables/{t}/draws")
    assert client.get(f"/api/tables/{t}/ledger?since=0").json["changed"] is True


# ---------------------------------------------------------------------------- storage


def test_wal_append_only_and_schema_version(tmp_path, client, app):
    store = app.extensions["mjc_store"]
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.schema_version() == SCHEMA_VERSION
    t = new_table(client)["table"]["token"]
    client.post(f"/api/tables/{t}/draws")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("DELETE FROM events")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("UPDATE events SET kind = 'x'")


def test_migration_from_version_1_keeps_data(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    conn = sqlite3.connect(folder / DB_NAME)
    conn.executescript(MIGRATIONS[0])
    conn.execute("INSERT INTO tables (token, watch_token, variant, options, players, first_dealer, start_points,"
                 " created_at) VALUES ('tok', 'w', 'ningxia', '{}', '[\"a\",\"b\",\"c\",\"d\"]', 2, 0, 'then')")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    store = Store(folder)
    assert store.schema_version() == SCHEMA_VERSION
    table, control = store.find_table("tok")
    assert control and table.first_dealer == 2 and table.name == ""
    client = create_app(folder).test_client()
    assert client.get("/api/tables/tok").json["ledger"]["state"]["dealer"] == 2

    newer = tmp_path / "newer"
    newer.mkdir()
    conn = sqlite3.connect(newer / DB_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        Store(newer)


def test_serve_prints_the_address_and_uses_waitress(tmp_path, monkeypatch, capsys):
    import waitress

    from companion import server

    seen = {}

    class Dummy:
        def run(self):
            seen["ran"] = True

        def close(self):
            seen["closed"] = True

    def fake_create_server(app, **kw):
        seen.update(kw)
        return Dummy()

    monkeypatch.setattr(waitress, "create_server", fake_create_server)
    monkeypatch.setattr(server, "lan_addresses", lambda: ["192.168.1.23"])
    assert server.serve(host="0.0.0.0", port=8765, data_dir=str(tmp_path / "d")) == 0
    out = capsys.readouterr().out
    assert "http://192.168.1.23:8765/" in out and seen["threads"] >= 2 and seen["ran"] and seen["closed"]
    assert (tmp_path / "d" / DB_NAME).exists()


def test_concurrent_writers_are_serialised(app):
    """Several devices recording at once: one transaction per event, nothing lost, seq has no gaps."""
    import threading

    t = new_table(app.test_client())["table"]["token"]
    codes: list[int] = []

    def worker():
        client = app.test_client()
        for _ in range(5):
            codes.append(client.post(f"/api/tables/{t}/draws").status_code)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert codes == [201] * 20
    ledger = app.test_client().get(f"/api/tables/{t}/ledger").json
    assert [e["seq"] for e in ledger["log"]] == list(range(1, 21))
    assert ledger["state"]["hand_no"] == 21 and ledger["state"]["dealer_streak"] == 20
