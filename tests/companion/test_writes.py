"""Two devices at one table: stale writes refused (409 with what changed) and idempotency keys (a
retried write is answered with its first event, never recorded twice); corrections keep every fact."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.app import create_app
from tests.builders import TWO_WINNERS_ON_EAST

from .helpers import WIN_S, FakeReading, err, new_table

FIXED = {**WIN_S, "win": {"by": "discard", "from": "N"}}

#: what another device records between the page's read and its write (the hand 1 win is event 1)
OTHERS: dict[str, tuple[str, dict[str, Any]]] = {
    "claim": ("claims", {"claimer": "W", "from": "N"}),
    "kong": ("kongs", {"type": "kong", "declarer": "W", "from": "N"}),
    "draw": ("draws", {}),
    "win": ("hands", {"winners": [WIN_S]}),
    "correction": ("hands/1/correct", {"winners": [FIXED]}),
    "undo": ("undo", {}),
}
#: the page's write, made on the version before the other device's event
WRITES: dict[str, tuple[str, dict[str, Any]]] = {
    "claim": ("claims", {"claimer": "S", "from": "E"}),
    "kong": ("kongs", {"type": "concealed_kong", "declarer": "S"}),
    "draw": ("draws", {}),
    "drawn hand": ("hands", {"drawn": True}),
    "won hand": ("hands", {"winners": [WIN_S]}),
    "correction": ("hands/1/correct", {"winners": [FIXED]}),
    "undo": ("undo", {}),
}
#: the (write, other event) pairs that are not stale: claims and kongs stand on their own, except
#: under a won hand (they change its claims) and an undo (they change what it takes back)
ACCEPTED = {
    (write, other) for write in ("claim", "kong", "draw", "drawn hand", "correction") for other in ("claim", "kong")
}


def post(client: FlaskClient, token: str, path: str, body: dict[str, Any], key: str | None = None) -> Any:
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(f"/api/tables/{token}/{path}", json=body, headers=headers)


def version(client: FlaskClient, token: str) -> int:
    found: int = client.get(f"/api/tables/{token}/ledger").json["version"]
    return found


@pytest.mark.parametrize("other", list(OTHERS))
@pytest.mark.parametrize("write", list(WRITES))
def test_a_write_is_refused_when_the_ledger_changed_under_it(client: FlaskClient, write: str, other: str) -> None:
    t = new_table(client)["table"]["token"]
    assert post(client, t, "hands", {"winners": [WIN_S]}).status_code == 201
    base = version(client, t)
    other_path, other_body = OTHERS[other]
    assert post(client, t, other_path, other_body).status_code == 201
    path, body = WRITES[write]
    resp = post(client, t, path, {**body, "base_version": base})
    if (write, other) in ACCEPTED:
        assert resp.status_code == 201, resp.json
        assert version(client, t) == base + 2
        return
    assert resp.status_code == 409, resp.json
    assert err(resp)["code"] == "stale" and err(resp)["field"] == "base_version"
    stale = resp.json["stale"]
    assert stale["base_version"] == base and stale["version"] == base + 1 and stale["omitted"] == 0
    assert [e["seq"] for e in stale["events"]] == [base + 1]
    assert stale["events"][0]["kind"] == {"win": "hand", "draw": "hand", "correction": "correct"}.get(other, other)
    assert "another device" in err(resp)["message"]
    assert version(client, t) == base + 1  # nothing recorded


def test_the_same_write_on_the_current_version_or_without_one_is_recorded(client: FlaskClient) -> None:
    t = new_table(client)["table"]["token"]
    for path, body in WRITES.values():
        if path == "hands/1/correct":
            continue
        v = version(client, t)
        assert post(client, t, path, {**body, "base_version": v}).status_code == 201, path
    assert post(client, t, "draws", {}).status_code == 201  # no base version: no check


def test_a_version_the_ledger_never_reached_is_stale_and_a_stale_preview_is_refused(client: FlaskClient) -> None:
    t = new_table(client)["table"]["token"]
    resp = post(client, t, "claims", {"claimer": "S", "from": "E", "base_version": 5})
    assert resp.status_code == 409 and "reload" in err(resp)["message"]
    assert resp.json["stale"] == {"base_version": 5, "version": 0, "events": [], "omitted": 0}
    post(client, t, "kongs", {"type": "kong", "declarer": "W", "from": "N"})
    # a won hand's preview on version 0 misses the kong's claim; a correction's preview does not care
    resp = post(client, t, "hands/score", {"winners": [WIN_S], "base_version": 0})
    assert resp.status_code == 409 and resp.json["stale"]["events"][0]["kind"] == "kong"
    assert post(client, t, "hands/score", {"winners": [WIN_S], "base_version": 1}).status_code == 200


def test_a_stale_answer_lists_the_latest_events(client: FlaskClient) -> None:
    t = new_table(client)["table"]["token"]
    for _ in range(25):
        post(client, t, "claims", {"claimer": "W", "from": "N"})
    resp = post(client, t, "undo", {"base_version": 0})
    stale = resp.json["stale"]
    assert [e["seq"] for e in stale["events"]] == list(range(6, 26)) and stale["omitted"] == 5


def test_the_device_draw_case_books_nothing_wrong(client: FlaskClient) -> None:
    """Issue 10: device A previews South's self-draw; device B records a draw; A confirms on what
    it saw → 409, the ledger holds only the draw; A confirms again on the new version → the win is
    the next hand's, South's."""
    t = new_table(client)["table"]["token"]
    seen = version(client, t)
    preview = post(client, t, "hands/score", {"winners": [WIN_S], "base_version": seen})
    assert preview.status_code == 200 and preview.json["payments_by_player"][1] > 0
    assert post(client, t, "draws", {"base_version": seen}, key="b-draw").status_code == 201
    resp = post(client, t, "hands", {"winners": [WIN_S], "base_version": seen}, key="a-win")
    assert resp.status_code == 409 and resp.json["stale"]["events"][0]["data"]["outcome"] == "draw"
    ledger = client.get(f"/api/tables/{t}/ledger").json
    assert [e.get("outcome") for e in ledger["entries"]] == ["draw"] and ledger["balances"] == [0, 0, 0, 0]
    resp = post(client, t, "hands", {"winners": [WIN_S], "base_version": ledger["version"]}, key="a-win-2")
    assert resp.status_code == 201
    entry = resp.json["changes"]["entries"][-1]
    assert entry["hand_no"] == 2 and entry["payments"][entry["state"]["seats"]["S"]] > 0


# ---------------------------------------------------------------- idempotency keys


def test_the_same_key_twice_records_one_event(client: FlaskClient) -> None:
    t = new_table(client)["table"]["token"]
    first = post(client, t, "hands", {"winners": [WIN_S], "base_version": 0}, key="k-1")
    again = post(client, t, "hands", {"winners": [WIN_S], "base_version": 0}, key="k-1")
    assert first.status_code == 201 and first.json["replayed"] is False
    # answered with the first event, not stale although its own event moved the version on
    assert again.status_code == 200 and again.json["replayed"] is True
    assert again.json["event"] == first.json["event"]
    assert again.json["changes"]["from_version"] == again.json["changes"]["version"] == 1
    assert again.json["changes"]["entries"] == [] and again.json["changes"]["log"] == []
    assert version(client, t) == 1
    event = client.get(f"/api/tables/{t}/export.json").json["events"][0]
    assert event["data"]["idempotency"]["key"] == "k-1"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("hands", {"winners": [FIXED], "base_version": 0}),  # another body
        ("hands", {"winners": [WIN_S], "base_version": 0, "tiles": [1]}),
        ("hands", {"winners": [WIN_S]}),  # the base version left out
        ("hands/score", None),  # not a write: keys are not looked at
        ("draws", {"base_version": 0}),  # another endpoint
        ("undo", {}),
    ],
)
def test_a_key_sent_again_with_another_request_is_refused(client: FlaskClient, path: str, body: Any) -> None:
    t = new_table(client)["table"]["token"]
    post(client, t, "hands", {"winners": [WIN_S], "base_version": 0}, key="k-1")
    if body is None:
        assert post(client, t, path, {"winners": [WIN_S]}, key="k-1").status_code == 200
        return
    resp = post(client, t, path, body, key="k-1")
    assert resp.status_code == 422 and err(resp)["code"] == "idempotency_key_reused"
    assert err(resp)["field"] == "Idempotency-Key" and "new key" in err(resp)["message"]
    assert version(client, t) == 1


def test_a_key_is_per_table(client: FlaskClient) -> None:
    one, two = (new_table(client)["table"]["token"] for _ in range(2))
    assert post(client, one, "draws", {}, key="same").status_code == 201
    assert post(client, two, "draws", {}, key="same").status_code == 201


@pytest.mark.parametrize("key", ["", "x" * 201, "with space", "naïve"])
def test_a_malformed_key_is_refused(client: FlaskClient, key: str) -> None:
    t = new_table(client)["table"]["token"]
    resp = client.post(f"/api/tables/{t}/draws", json={}, headers={"Idempotency-Key": key.encode().decode("latin-1")})
    assert resp.status_code == 400 and err(resp)["field"] == "Idempotency-Key"
    assert version(client, t) == 0


def test_concurrent_retries_with_one_key_record_one_event(client: FlaskClient) -> None:
    app = client.application
    t = new_table(client)["table"]["token"]
    answers: list[Any] = []
    start = threading.Barrier(8)

    def send() -> None:
        own = app.test_client()
        start.wait()
        answers.append(post(own, t, "hands", {"winners": [WIN_S], "base_version": 0}, key="tap-1"))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(a.status_code for a in answers) == [200] * 7 + [201]
    assert len({a.json["event"]["id"] for a in answers}) == 1
    assert [e["kind"] for e in client.get(f"/api/tables/{t}/export.json").json["events"]] == ["hand"]


def test_keys_survive_a_restart_and_are_seen_by_another_process(tmp_path: Path) -> None:
    first = create_app(tmp_path / "d", recognizer=lambda data: FakeReading()).test_client()
    t = new_table(first)["table"]["token"]
    recorded = post(first, t, "kongs", {"type": "kong", "declarer": "S", "from": "W"}, key="k")
    # a second app on the same folder: another process, or the server after a restart
    second = create_app(tmp_path / "d", recognizer=lambda data: FakeReading()).test_client()
    again = post(second, t, "kongs", {"type": "kong", "declarer": "S", "from": "W"}, key="k")
    assert again.status_code == 200 and again.json["event"] == recorded.json["event"]
    # the first process folds the second's events before it looks a key up
    other = post(second, t, "claims", {"claimer": "N", "from": "E"}, key="k2")
    assert post(first, t, "claims", {"claimer": "N", "from": "E"}, key="k2").json["event"] == other.json["event"]
    assert version(first, t) == version(second, t) == 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["claim", "kong", "draw"]), st.integers(0, 5)), min_size=1, max_size=12))
def test_retries_never_record_twice(tmp_path: Path, actions: list[tuple[str, int]]) -> None:
    """Any run of writes, each retried a random number of times (the answer lost): one event per
    action, every retry answered with its action's event."""
    client = create_app(tmp_path / f"h{len(list(tmp_path.iterdir()))}").test_client()
    t = new_table(client)["table"]["token"]
    ids = []
    for n, (write, retries) in enumerate(actions):
        path, body = WRITES[write]
        answers = [post(client, t, path, body, key=f"action-{n}") for _ in range(retries + 1)]
        assert [a.status_code for a in answers] == [201] + [200] * retries
        assert len({a.json["event"]["id"] for a in answers}) == 1
        ids.append(answers[0].json["event"]["id"])
    events = client.get(f"/api/tables/{t}/export.json").json["events"]
    assert [e["id"] for e in events] == ids


# ---------------------------------------------------------------- corrections keep every fact

YUXI_HAND = {
    "winner": "S",
    "win": {"by": "self_draw", "after_kong": True, "double_kong": True, "ten_old_men": True},
    "hand": {
        "concealed": "123m11z222z",
        "winning_tile": "2z",
        "melds": [{"type": "kong", "tiles": "6666p", "from": "N"}, {"type": "concealed_kong", "tiles": "9999s"}],
    },
    "indicators": {"bloom": ["2z", "3m"]},
}


def test_a_correction_keeps_the_photo_and_reading_and_records_every_winner(client: FlaskClient) -> None:
    t = new_table(client, "yuxi")["table"]["token"]
    photo = client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")})
    photo_id = photo.json["photo_id"]
    tiles = [{"code": "1m", "read": "7m"}]
    hand = post(client, t, "hands", {"winners": [YUXI_HAND], "photo_id": photo_id, "tiles": tiles}).json
    event_id = hand["event"]["id"]
    # the table corrects who discarded nothing else: every fact it sends is kept, photo and reading too
    fixed = {**YUXI_HAND, "win": {**YUXI_HAND["win"], "last_tile": True}}
    resp = post(client, t, f"hands/{event_id}/correct", {"winners": [fixed], "base_version": 1})
    assert resp.status_code == 201, resp.json
    entry = resp.json["changes"]["entries"][-1]
    assert entry["winners"] == [fixed] and entry["photo_id"] == photo_id and entry["tiles"] == tiles
    names = [i["name"] for i in entry["result"]["results"][0]["items"]]
    assert {"ten_old_men", "double_gang_on_flower"} <= set(names), names
    # several winners on one discard: a correction records them all
    t = new_table(client)["table"]["token"]
    two = [dict(w) for w in TWO_WINNERS_ON_EAST]
    event_id = post(client, t, "hands", {"winners": two}).json["event"]["id"]
    moved = [{**w, "win": {"by": "discard", "from": "N"}} for w in two]
    entry = post(client, t, f"hands/{event_id}/correct", {"winners": moved}).json["changes"]["entries"][-1]
    assert entry["winners"] == moved and [r["winner"] for r in entry["result"]["results"]] == ["S", "W"]
    assert entry["payments"][3] < 0 and entry["payments"][0] == 0
