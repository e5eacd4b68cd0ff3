"""Strict request parsing: size caps before parsing, depth, numbers, strings, surrogates — each a
400 (or 413) naming the field, never a 500, and nothing stored that could not be sent back as JSON."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import jsonlimits
from companion.api.guards import CONTRACT_BODY, OTHER_BODY, TABLE_BODY
from companion.jsonlimits import MAX_DEPTH, MAX_INT, MAX_STRING, JsonLimitError

from .helpers import PLAYERS, ROOT, WIN_S, answer, err, new_table

NEW = {"variant": "ningxia", "players": PLAYERS}


def raw(client, path, text, **kw):
    """POST ``text`` as it is, labelled JSON."""
    return client.post(path, data=text.encode("utf-8", "surrogatepass"), content_type="application/json", **kw)


@pytest.mark.parametrize(
    ("text", "field", "says"),
    [
        ('{"variant": "ningxia", "players": ["A","B","C","D"], "start_points": NaN}', "start_points", "NaN"),
        ('{"variant": "ningxia", "players": ["A","B","C","D"], "options": {"x": Infinity}}', "options.x", "NaN"),
        ('{"variant": "ningxia", "players": ["A","B","C","D"], "options": {"x": -Infinity}}', "options.x", "NaN"),
        ('{"variant": "ningxia", "players": ["A","B","C","D"], "options": {"x": 1e999}}', "options.x", "infinity"),
        (
            '{"variant": "ningxia", "players": ["A","B","C","D"], "start_points": ' + "9" * 5000 + "}",
            "start_points",
            "±",
        ),
        ('{"variant": "ningxia", "players": ["A","B","C","D"], "start_points": 9007199254740992}', "start_points", "±"),
        ('{"variant": "ningxia", "players": ["A","\\ud800","C","D"]}', "players[1]", "surrogate"),
        ('{"variant": "ningxia", "players": ["A","B","C","D"], "name": "\\udfff"}', "name", "surrogate"),
        ('{"variant": "ningxia", "\\ud83d": 1}', "", "surrogate"),
        ('{"variant": "' + "x" * (MAX_STRING + 1) + '"}', "variant", "characters"),
    ],
)
def test_json_a_browser_could_not_read_back_is_refused_naming_the_field(client, text, field, says):
    resp = raw(client, "/api/tables", text)
    assert resp.status_code == 400, resp.data[:300]
    error = err(resp)
    assert error["code"] == "bad_json" and error.get("field", "") == field and says in error["message"]
    assert client.get("/api/health").json["ok"] is True


def test_nesting_deep_or_very_deep_is_400_not_500(client):
    for depth in (MAX_DEPTH + 1, 1_000, 100_000):
        body = '{"variant": "ningxia", "hand": ' + "[" * depth + "]" * depth + "}"
        resp = raw(client, "/api/waits", body[: CONTRACT_BODY - 1] if len(body) >= CONTRACT_BODY else body)
        assert resp.status_code in (400, 413) and resp.status_code != 500
        assert err(resp)["code"] in ("bad_json", "too_large")
    resp = raw(client, "/api/waits", '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1))
    assert resp.status_code == 400 and "nested too deeply" in err(resp)["message"]


def test_a_nan_on_a_hand_is_refused_and_the_table_stays_valid_json(client):
    t = new_table(client)["table"]["token"]
    body = json.dumps({"winners": [WIN_S], "tiles": [[{"code": "1m", "read": None}]]}).replace("null", "NaN")
    resp = raw(client, f"/api/tables/{t}/hands", body)
    assert resp.status_code == 400 and err(resp)["field"] == "tiles[0][0].read"

    def no_constant(name: str) -> None:
        raise AssertionError(f"{name} in the JSON")

    for path in (f"/api/tables/{t}", f"/api/tables/{t}/export.json"):
        # (strict parsing: a random link token may hold the letters "NaN")
        json.loads(client.get(path).data.decode(), parse_constant=no_constant)
    assert client.get(f"/api/tables/{t}/ledger").json["version"] == 0


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("/api/score", CONTRACT_BODY),
        ("/api/waits", CONTRACT_BODY),
        ("/api/notation", CONTRACT_BODY),
        ("/api/tables", TABLE_BODY),
        ("/claims", TABLE_BODY),
        ("/hands", TABLE_BODY),
        ("/hands/score", TABLE_BODY),
    ],
)
def test_bodies_over_the_endpoint_cap_are_413_before_parsing(client, path, limit):
    if not path.startswith("/api/"):
        path = f"/api/tables/{new_table(client)['table']['token']}{path}"
    huge = json.dumps({"tiles": "1m" * (limit // 2 + 10)})
    resp = raw(client, path, huge)
    assert resp.status_code == 413
    error = err(resp)
    assert error["code"] == "too_large" and str(limit) in error["message"]


def test_a_16_mb_tile_string_costs_nothing(client):
    resp = raw(client, "/api/score", json.dumps({"variant": "ningxia", **WIN_S, "x": "1m" * 8_000_000}))
    assert resp.status_code == 413 and err(resp)["code"] == "too_large"


def test_a_get_with_a_body_is_capped_too(client):
    resp = client.get("/api/health", data=b"x" * (OTHER_BODY + 1))
    assert resp.status_code == 413


@pytest.mark.parametrize("photo_id", [2**63, 2**64, 10**30])
def test_photo_ids_sqlite_cannot_hold_are_404(client, photo_id):
    t = new_table(client)["table"]["token"]
    resp = client.get(f"/api/tables/{t}/photos/{photo_id}")
    assert resp.status_code == 404 and err(resp)["code"] == "no_such_photo"


def test_huge_ids_in_bodies_and_paths_are_4xx(client):
    t = new_table(client)["table"]["token"]
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S], "photo_id": 2**63})
    assert resp.status_code == 400 and err(resp)["field"] == "photo_id"
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S], "photo_id": MAX_INT})
    assert resp.status_code == 400 and err(resp)["field"] == "photo_id"
    resp = client.post(f"/api/tables/{t}/hands/{2**70}/correct", json={"drawn": True})
    assert resp.status_code == 404 and err(resp)["code"] == "no_such_hand"
    resp = client.post(f"/api/tables/{t}/undo", json={"event_id": 2**80})
    assert resp.status_code == 400 and err(resp)["field"] == "event_id"


@pytest.mark.parametrize("tiles", ["¹23m", "1²3m", "①23m", "１２３m", "123ｍ", "\u0000", "1m\u200b"])
def test_odd_characters_in_notation_are_400(client, tiles):
    resp = client.post("/api/notation", json={"tiles": tiles})
    assert resp.status_code == 400 and err(resp)["field"] == "tiles"
    resp = client.post("/api/score", json={"variant": "ningxia", "winner": "S", "hand": {"concealed": tiles}})
    assert resp.status_code == 400 and err(resp)["field"] == "hand.concealed"


def test_long_names_are_refused(client):
    resp = client.post("/api/tables", json=NEW | {"players": ["A" * 41, "B", "C", "D"]})
    assert resp.status_code == 400 and err(resp)["field"] == "players[0]"
    resp = client.post("/api/tables", json=NEW | {"name": "n" * 81})
    assert resp.status_code == 400 and err(resp)["field"] == "name"
    assert answer(client.post("/api/tables", json=NEW | {"name": "東" * 80}))["table"]["name"] == "東" * 80


def run_cli(command: str, text: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "companion", command], input=text, capture_output=True, cwd=ROOT, timeout=60
    )


@pytest.mark.parametrize(
    ("text", "code", "says"),
    [
        (b'{"variant": "ningxia", "winner": "S", "hand": {"concealed": "123m"}, "x": NaN}', "bad_json", "NaN"),
        (b'{"variant": "ningxia", "winner": "S", "x": ' + b"7" * 5000 + b"}", "bad_json", "5000 digits"),
        (b'{"variant": "ningxia", "winner": "\\ud800"}', "bad_json", "surrogate"),
        (b"[" * 5_000, "bad_json", ""),
        (b'{"variant": "' + b"x" * 20_000 + b'"}', "too_large", "bytes"),
        (b"\xff\xfe{}", "bad_json", "UTF-8"),
        ('{"variant": "ningxia", "winner": "S", "hand": {"concealed": "①23m"}}'.encode(), "", ""),
    ],
)
def test_mjc_score_and_waits_get_the_same_limits(text, code, says):
    for command in ("score", "waits"):
        done = run_cli(command, text)
        assert done.returncode == 2, done.stderr
        assert b"Traceback" not in done.stderr and done.stderr == b""
        error = json.loads(done.stdout)["error"]
        assert (not code or error["code"] == code) and says in error["message"]


# A JSON value of any shape within the limits survives a round trip; outside them, a clear refusal.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=4), kids, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_loads_either_refuses_or_answers_what_dumps_can_write_strictly(value):
    text = json.dumps(value)
    try:
        parsed = jsonlimits.loads(text)
    except JsonLimitError as refusal:
        assert refusal.message and not _within_limits(value)
        return
    assert _within_limits(value)
    assert json.loads(json.dumps(parsed, allow_nan=False, ensure_ascii=False)) == parsed


def _within_limits(value) -> bool:
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) <= MAX_INT
    if isinstance(value, str):
        return not any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, list):
        return all(_within_limits(v) for v in value)
    if isinstance(value, dict):
        return all(_within_limits(k) and _within_limits(v) for k, v in value.items())
    return True
