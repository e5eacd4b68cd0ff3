"""Writes to the ledger: claims, kongs, wins, draws, corrections, undo, the deal and the round wind."""

from __future__ import annotations

import pytest

from companion import ledger as L
from tests.builders import TWO_WINNERS_ON_EAST

from .helpers import WIN_S, err, new_table


def test_an_evening_kong_claim_win_undo_and_correction(client):
    view = new_table(client, start_points=100)
    t = view["table"]["token"]
    assert view["ledger"]["balances"] == [100] * 4
    assert view["ledger"]["state"]["winds"] == ["E", "S", "W", "N"]

    # a claim and an exposed kong are this hand's claims
    assert client.post(f"/api/tables/{t}/claims", json={"claimer": "S", "from": "W"}).status_code == 201
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "kong", "declarer": "S", "from": "W"})
    assert resp.status_code == 201
    kong_pay = resp.json["changes"]["entries"][-1]["payments"]
    assert sum(kong_pay) == 0
    assert resp.json["changes"]["claims"] == {"S": {"W": 2}}

    # preview: the table fills in variant, round wind, streak and claims
    preview = client.post(f"/api/tables/{t}/hands/score", json={"winners": [WIN_S]}).json
    assert preview["claims"] == {"S": {"W": 2}} and preview["result"]["results"][0]["winner"] == "S"
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]})
    assert resp.status_code == 201
    ledger = resp.json["changes"]
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
    ledger = resp.json["changes"]
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
    assert resp.json["changes"]["entries"][-1]["id"] == win["id"]
    resp = client.post(f"/api/tables/{t}/undo", json={"event_id": 12345})
    assert resp.status_code == 409 and err(resp)["code"] == "stale"
    client.post(f"/api/tables/{t}/undo")
    resp = client.post(f"/api/tables/{t}/undo")
    ledger = resp.json["changes"]
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
    winners = [dict(w) for w in TWO_WINNERS_ON_EAST]
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": winners})
    assert resp.status_code == 201
    entry = resp.json["changes"]["entries"][-1]
    assert [r["winner"] for r in entry["result"]["results"]] == ["S", "W"]
    assert entry["payments"][0] < 0 and entry["payments"][1] > 0 and entry["payments"][2] > 0


def test_dealer_streak_and_round_wind(client):
    # the winner deals next (ningxia's text): the dealer's own wins and draws keep the deal
    t = new_table(client)["table"]["token"]
    win_e = {**WIN_S, "winner": "E"}
    state = client.post(f"/api/tables/{t}/hands", json={"winners": [win_e]}).json["changes"]["state"]
    assert state["dealer"] == 0 and state["dealer_streak"] == 1
    state = client.post(f"/api/tables/{t}/draws").json["changes"]["state"]
    assert state["dealer"] == 0 and state["dealer_streak"] == 2
    assert client.post(f"/api/tables/{t}/hands/score", json={"winners": [win_e]}).status_code == 200

    # next_seat: the deal passes when a non-dealer wins; four passes move the round wind
    t = new_table(client, options={"dealer_rotation": "next_seat"})["table"]["token"]
    for i in range(4):
        state = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]}).json["changes"]["state"]
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
    state = resp.json["changes"]["state"]
    expect = v.next_dealer([], True, resolve_options(v.options, {}), **extra)
    if variant == "nanning":
        assert state["dealer"] == 2  # the last drawer (West) deals
    assert state["dealer"] == L.HandState(1, 0, "E", 0).player_at(expect)
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "concealed_kong", "declarer": "S"})
    assert resp.status_code == 201 and sum(resp.json["changes"]["balances"]) == 0


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


def merged(ledger: dict, changes: dict) -> dict:
    """A write's changes applied to the ledger the page held, as web/ledger.js mergeChanges does."""
    log = list(ledger["log"])
    for row in changes["log"]:
        at = next((i for i, old in enumerate(log) if old["id"] == row["id"]), None)
        if at is None:
            log.append(row)
        else:
            log[at] = row
    cut = changes["entries_from"]
    return {
        "state": changes["state"],
        "claims": changes["claims"],
        "balances": changes["balances"],
        "entries": ledger["entries"][:cut] + changes["entries"],
        "log": log,
        "timeline": ledger["timeline"][: cut + 1] + changes["timeline"],
        "version": changes["version"],
        "last_undoable": changes["last_undoable"],
    }


def test_a_write_reads_no_history_and_its_changes_merge_into_what_a_fresh_read_derives(client, monkeypatch):
    """record() folds the new event into the table's live ledger: no event is read back from the
    database (the ledger in memory is up to date), the rule set is asked who deals next at most
    for the hand written, and the changes merged into the ledger held before give exactly what
    reading the table afresh gives, for appends, corrections and undos alike."""
    from companion.rules import TableRules
    from companion.store import Store

    t = new_table(client, start_points=50)["table"]["token"]
    calls = {"events": 0, "next_wind": 0}
    events, next_wind = Store.events, TableRules.next_wind

    def counting_events(self, *a, **k):
        calls["events"] += 1
        return events(self, *a, **k)

    def counting_next_wind(self, data):
        calls["next_wind"] += 1
        return next_wind(self, data)

    monkeypatch.setattr(Store, "events", counting_events)
    monkeypatch.setattr(TableRules, "next_wind", counting_next_wind)
    fixed = {**WIN_S, "win": {"by": "discard", "from": "N"}}
    writes = [
        ("claims", {"claimer": "S", "from": "W"}, 0, 1),
        ("kongs", {"type": "kong", "declarer": "S", "from": "W"}, 0, 1),
        ("hands", {"winners": [WIN_S]}, 1, 1),  # the new hand
        ("draws", {}, 1, 1),
        ("hands/{hand}/correct", {"winners": [fixed]}, 1, 2),  # the hand and its correction
        ("undo", {}, 0, 3),  # the undo, the correction, the original hand again in effect
        ("undo", {}, 0, 2),  # the undo and the draw
        ("hands", {"drawn": True}, 1, 1),
    ]
    hand = None
    held = client.get(f"/api/tables/{t}/ledger").json
    for path, body, winds, log_rows in writes:
        calls.update(events=0, next_wind=0)
        resp = client.post(f"/api/tables/{t}/{path.format(hand=hand)}", json=body)
        assert resp.status_code == 201, resp.json
        assert calls == {"events": 0, "next_wind": winds}, path
        changes = resp.json["changes"]
        assert changes["from_version"] == held["version"] and len(changes["log"]) == log_rows, path
        if path == "hands" and hand is None:
            hand = resp.json["event"]["id"]
        fresh = client.get(f"/api/tables/{t}/ledger").json
        held = {"ok": True, "changed": True, **merged(held, changes)}
        assert held == fresh, path


def test_a_write_reads_what_another_process_appended(app, tmp_path):
    """The live ledger is a cache of the events: rows another process appended are read (only
    they) before the next write is computed."""
    from companion.store import Store

    client = app.test_client()
    t = new_table(client, start_points=50)["table"]["token"]
    client.post(f"/api/tables/{t}/claims", json={"claimer": "S", "from": "W"})
    other = app.test_client()  # same app; a second store on the same file stands for the other process
    outside = Store(app.extensions["mjc_store"].data_dir)
    table, _ = outside.find_table(t)
    with outside.transaction() as conn:
        outside.append(conn, table.id, "claim", {"claimer": "W", "from": "N", "hand_no": 1, "payments": [0] * 4})
    resp = other.post(f"/api/tables/{t}/claims", json={"claimer": "N", "from": "E"})
    assert resp.json["changes"]["from_version"] == 2 and resp.json["changes"]["claims"] == {
        "S": {"W": 1},
        "W": {"N": 1},
        "N": {"E": 1},
    }


def test_engine_errors_answer_400_and_refusals_422_with_kind(client):
    """One handler maps the engine's errors: malformed input 400 ``invalid``, a refusal 422 ``refused``."""
    t = new_table(client, variant="nanning")["table"]["token"]
    resp = client.post(f"/api/tables/{t}/kongs", json={"type": "added_kong", "declarer": "S"})
    assert resp.status_code == 400 and err(resp)["field"] == "from" and err(resp)["kind"] == "invalid"
    not_a_win = {**WIN_S, "hand": {"concealed": "123m456p789s11223z", "winning_tile": "3z"}}
    resp = client.post(f"/api/tables/{t}/hands/score", json={"winners": [not_a_win]})
    assert resp.status_code == 422 and err(resp)["code"] == "not_a_win" and err(resp)["kind"] == "refused"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"winners": []}, "winners"),
        ({"winners": [WIN_S] * 4}, "winners"),
        ({"winners": [{**WIN_S, "winner": "X"}]}, "winners[0].winner"),
        ({"winners": [{**WIN_S, "win": "self_draw"}]}, "winners[0].win"),
        ({"winners": [WIN_S], "photo_id": "1"}, "photo_id"),
        ({"drawn": True, "last_drawer": "Q"}, "last_drawer"),
        ({"drawn": True, "winners": [WIN_S]}, "winners"),
        ({"drawn": False}, "drawn"),
    ],
)
def test_hand_bodies_name_the_field_at_fault(client, body, field):
    t = new_table(client)["table"]["token"]
    resp = client.post(f"/api/tables/{t}/hands", json=body)
    assert resp.status_code == 400 and err(resp)["field"] == field
    assert client.get(f"/api/tables/{t}/ledger").json["version"] == 0


def test_yuxi_two_winners_one_basic_on_the_discard_records_the_paid_one(client):
    """Yuxi scores several winners on one discard independently: the Basic Win is refused in its
    own result (paid nothing), the other winner is paid and deals next (the winner deals)."""
    t = new_table(client, variant="yuxi")["table"]["token"]
    triplets = {"concealed": "111m222p333s444m55p", "winning_tile": "5p"}
    basic = {"concealed": "123m456p789s234m55p", "winning_tile": "5p"}
    winners = [
        {"winner": "S", "win": {"by": "discard", "from": "W"}, "hand": triplets},
        {"winner": "N", "win": {"by": "discard", "from": "W"}, "hand": basic},
    ]
    preview = client.post(f"/api/tables/{t}/hands/score", json={"winners": winners})
    assert preview.status_code == 200
    paid, refused = preview.json["result"]["results"]
    assert paid["ok"] and refused["ok"] is False and refused["error"]["code"] == "not_on_discard"
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": winners})
    assert resp.status_code == 201
    changes = resp.json["changes"]
    pays = changes["entries"][-1]["payments"]
    assert pays[1] > 0 and pays[3] == 0 and pays[2] == -pays[1] and sum(pays) == 0
    assert changes["state"]["dealer"] == 1  # S (seat 1) won and deals; N's refused hand did not win
    csv_rows = client.get(f"/api/tables/{t}/export.csv").data.decode("utf-8-sig")
    assert "Bob won 2 on Chen's discard; Dora not paid (not_on_discard)" in csv_rows
