"""Table settings after creation (companion.settings): renames, seat swaps and house-rule changes
recorded as events, each hand scored under the rules it was played under, duplicate names refused,
undo, and random evenings of hands and settings checked against the full replay."""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.app import create_app
from companion.ledger import replay
from companion.live import ledger_of
from companion.rules import TableRules

from .helpers import PLAYERS, WIN_S, err, new_table

WINDS = ["E", "S", "W", "N"]


def _settings(client: Any, t: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{t}/settings", json=body)


def _ok(resp: Any) -> dict[str, Any]:
    assert resp.status_code == 201, resp.json
    changes: dict[str, Any] = resp.json["changes"]
    return changes


# ---------------------------------------------------------------- duplicate names


@pytest.mark.parametrize(
    "players, field",
    [
        (["Ann", "Bo", "ann", "Cy"], "players[2]"),
        (["Ann", "Bo", "Cy", " ANN "], "players[3]"),
        (["Ann", "Bo", "Bo", "Bo"], "players[2]"),
        (["Zoë", "zoë", "Cy", "Di"], "players[1]"),
    ],
)
def test_a_new_table_refuses_duplicate_names(client, players, field):
    resp = client.post("/api/tables", json={"variant": "ningxia", "players": players})
    assert resp.status_code == 400
    assert err(resp)["code"] == "duplicate_name" and err(resp)["field"] == field
    assert "different name" in err(resp)["message"]


@pytest.mark.parametrize(
    "body, status, code, field",
    [
        ({"rename": {"player": 1, "name": "alice"}}, 400, "duplicate_name", "rename.name"),
        ({"rename": {"player": 1, "name": "  DORA "}}, 400, "duplicate_name", "rename.name"),
        ({"rename": {"player": 1, "name": "Bob"}}, 400, "no_change", "rename.name"),
        ({"rename": {"player": 4, "name": "Eve"}}, 400, "bad_input", "rename.player"),
        ({"rename": {"player": 1, "name": "   "}}, 400, "bad_input", "rename.name"),
        ({"swap": {"players": [2, 2]}}, 400, "no_change", "swap.players"),
        ({"swap": {"players": [0]}}, 400, "bad_input", "swap.players"),
        ({"options": {"seven_pairs": True}}, 400, "no_change", "options"),
        ({"options": {"seven_pairs": "no"}}, 400, "bad_option", "options.seven_pairs"),
        ({"options": {"nope": 1}}, 400, "bad_option", "options.nope"),
        ({"options": {"dealer_rotation": "dice"}}, 400, "bad_option", "options.dealer_rotation"),
        ({}, 400, "bad_input", None),
        ({"swap": {"players": [0, 1]}, "options": {"seven_pairs": False}}, 400, "bad_input", "options"),
    ],
)
def test_a_settings_change_refused_names_the_field_and_records_nothing(client, body, status, code, field):
    t = new_table(client)["table"]["token"]
    resp = _settings(client, t, body)
    assert resp.status_code == status and err(resp)["code"] == code and err(resp).get("field") == field
    assert client.get(f"/api/tables/{t}/ledger").json["version"] == 0


def test_the_watch_link_cannot_change_settings(client):
    view = new_table(client)
    resp = _settings(client, view["table"]["watch_token"], {"rename": {"player": 0, "name": "Eve"}})
    assert resp.status_code == 403 and err(resp)["code"] == "read_only"


@pytest.mark.parametrize(
    "variant, options, field",
    [("hefei", {"base_score": -20}, "options.base_score"), ("ningbo", {"minimum_tai": 101}, "options.minimum_tai")],
)
def test_house_rules_are_checked_as_at_creation(client, variant, options, field):
    t = new_table(client, variant=variant)["table"]["token"]
    resp = _settings(client, t, {"options": options})
    assert resp.status_code == 400 and err(resp)["code"] == "bad_option" and err(resp)["field"] == field


# ---------------------------------------------------------------- rename


def test_a_rename_shows_everywhere_and_history_stays_attributable(client):
    view = new_table(client)
    t, watch = view["table"]["token"], view["table"]["watch_token"]
    won = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]}).json["changes"]["entries"][-1]
    changes = _ok(_settings(client, t, {"rename": {"player": 1, "name": " Bobby "}}))
    entry = changes["entries"][-1]
    assert entry["kind"] == "settings" and entry["change"] == "rename"
    assert (entry["player"], entry["name"], entry["was"]) == (1, "Bobby", "Bob")
    for token in (t, watch):
        assert client.get(f"/api/tables/{token}").json["table"]["players"] == ["Alice", "Bobby", "Chen", "Dora"]
    # the hand Bob won is still player 1's: the winner is a wind, the state maps it to player 1
    hand = client.get(f"/api/tables/{t}/ledger").json["entries"][0]
    assert hand["id"] == won["id"] and hand["state"]["seats"]["S"] == 1 and hand["payments"][1] > 0
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{t}/export.csv").data.decode("utf-8-sig"))))
    assert "Bobby change" in rows[0] and "Bob change" not in rows[0]
    assert rows[2][6] == "Bobby won 6 on self-draw" and rows[3][5:7] == ["settings", "Bob is now called Bobby"]
    # a case change of one's own name is allowed; the old name is free for another player
    _ok(_settings(client, t, {"rename": {"player": 1, "name": "BOBBY"}}))
    _ok(_settings(client, t, {"rename": {"player": 3, "name": "Bob"}}))
    assert client.get(f"/api/tables/{t}").json["table"]["players"] == ["Alice", "BOBBY", "Chen", "Bob"]


def _csv(client: Any, t: str, lang: str) -> list[list[str]]:
    text = client.get(f"/api/tables/{t}/export.csv?lang={lang}").data.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize(
    "lang, rename, swap, rules",
    [
        (
            "en",
            "Bob is now called Bobby",
            "Bobby and Dora swap seats from hand 1",
            "house rules from hand 1: Fewest points to win 9 -> 12, Payout table the guide's table -> "
            "Seven pairs, Self-draw (each pays) 10; Concealed hand, Discard (discarder pays) 5",
        ),
        (
            "zh",
            "Bob 改名为 Bobby",
            "Bobby 和 Dora 从第 1 局起交换座位",
            "从第 1 局起的规则:起和分 9 → 12;赔付表 规则书的表 → 七小对,自摸(每家付) 10、门清,点炮(放炮者付) 5",
        ),
    ],
)
def test_settings_in_the_export_are_in_players_words_in_its_language(client, lang, rename, swap, rules):
    """A rename, a swap and changed house rules (a payout table among them) read in the export's
    language, each rule by its name and values in players' words, never option names or JSON."""
    t = new_table(client, variant="nanning")["table"]["token"]
    _ok(_settings(client, t, {"rename": {"player": 1, "name": "Bobby"}}))
    _ok(_settings(client, t, {"swap": {"players": [1, 3]}}))
    values = {"seven_pairs": {"self_draw": 10}, "concealed_hand": {"discard": 5}}
    _ok(_settings(client, t, {"options": {"minimum": 12, "values": values}}))
    details = [row[6] for row in _csv(client, t, lang)[2:]]
    assert details == [rename, swap, rules]


def _honours(view: dict[str, Any]) -> list[str]:
    return [c for c in view["table"]["variant"]["tile_codes"] if c.endswith("z")]


def test_the_pickers_tiles_follow_the_tables_current_options(client):
    """Ningxia without honours: the table's facts offer no honour tile, from creation or from the
    hand a settings change takes effect; a hand already started keeps the rules it began with."""
    plain = new_table(client)
    assert len(_honours(plain)) == 7 and len(plain["table"]["variant"]["tile_codes"]) == 34
    bare = new_table(client, options={"honours": False})
    assert _honours(bare) == [] and len(bare["table"]["variant"]["tile_codes"]) == 27
    t = plain["table"]["token"]
    _ok(_settings(client, t, {"options": {"honours": False}}))
    assert _honours(client.get(f"/api/tables/{t}").json) == []
    # a kong starts hand 1: honours back from hand 2 on, hand 1 still without them
    assert client.post(f"/api/tables/{t}/kongs", json={"type": "concealed_kong", "declarer": "E"}).status_code == 201
    _ok(_settings(client, t, {"options": {"honours": True}}))
    view = client.get(f"/api/tables/{t}").json
    assert _honours(view) == [] and view["table"]["next_options"]["honours"] is True


@pytest.mark.parametrize(
    "renames, players, detail",
    [
        # two players exchange names: refused one at a time, accepted together
        (
            [{"player": 0, "name": "Bob"}, {"player": 1, "name": "Alice"}],
            ["Bob", "Alice", "Chen", "Dora"],
            "Alice is now called Bob, Bob is now called Alice",
        ),
        # a round of three, and one name given unchanged (left out of the event)
        (
            [{"player": 1, "name": "Chen"}, {"player": 2, "name": "Dora"}, {"player": 3, "name": "Bob"}]
            + [{"player": 0, "name": "Alice"}],
            ["Alice", "Chen", "Dora", "Bob"],
            "Bob is now called Chen, Chen is now called Dora, Dora is now called Bob",
        ),
    ],
)
def test_several_renames_in_one_change_may_exchange_names(client, renames, players, detail):
    t = new_table(client)["table"]["token"]
    one = _settings(client, t, {"rename": {"player": 0, "name": "Bob"}})
    assert one.status_code == 400 and err(one)["code"] == "duplicate_name"
    entry = _ok(_settings(client, t, {"renames": renames}))["entries"][-1]
    assert entry["change"] == "renames" and len(entry["renames"]) == sum(a != b for a, b in zip(PLAYERS, players))
    assert client.get(f"/api/tables/{t}").json["table"]["players"] == players
    assert _csv(client, t, "en")[2][5:7] == ["settings", detail]
    # one change, one undo: every name back
    assert client.post(f"/api/tables/{t}/undo", json={}).status_code == 201
    assert client.get(f"/api/tables/{t}").json["table"]["players"] == PLAYERS


@pytest.mark.parametrize(
    "renames, code, field",
    [
        ([{"player": 0, "name": "Bob"}, {"player": 2, "name": "Dan"}], "duplicate_name", "renames[0].name"),
        ([{"player": 0, "name": "Zed"}, {"player": 1, "name": " zed "}], "duplicate_name", "renames[0].name"),
        ([{"player": 0, "name": "Zed"}, {"player": 0, "name": "Yan"}], "bad_input", "renames[1].player"),
        ([{"player": 0, "name": "Alice"}, {"player": 1, "name": "Bob"}], "no_change", "renames"),
        ([], "bad_input", "renames"),
    ],
)
def test_renames_refused_name_the_field_and_record_nothing(client, renames, code, field):
    t = new_table(client)["table"]["token"]
    resp = _settings(client, t, {"renames": renames})
    assert resp.status_code == 400 and err(resp)["code"] == code and err(resp)["field"] == field, err(resp)
    assert client.get(f"/api/tables/{t}/ledger").json["version"] == 0


# ---------------------------------------------------------------- swap


@pytest.mark.parametrize(
    "pair, winds, dealer",
    [
        ([1, 3], ["E", "N", "W", "S"], 0),  # Bob and Dora exchange South and North
        ([0, 2], ["W", "S", "E", "N"], 2),  # the dealer's seat: Chen sits there and deals
        ([3, 0], ["N", "S", "W", "E"], 3),
    ],
)
def test_a_swap_exchanges_the_winds_the_two_would_have_had(client, pair, winds, dealer):
    t = new_table(client)["table"]["token"]
    # Alice (East) wins twice: dealer streak 2 before the swap
    for _ in range(2):
        client.post(f"/api/tables/{t}/hands", json={"winners": [{**WIN_S, "winner": "E"}]})
    state = _ok(_settings(client, t, {"swap": {"players": pair}}))["state"]
    assert state["winds"] == winds and state["dealer"] == dealer
    assert state["dealer_streak"] == 2 and state["round_wind"] == "E" and state["hand_no"] == 3
    # the next hand is played (and paid) in the new seats: South wins, whoever sits there now
    south = state["seats"]["S"]
    hand = _ok(client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]}))["entries"][-1]
    assert hand["state"]["winds"] == winds and hand["payments"][south] > 0
    # ningxia: the winner deals next; the deal then moves on round the physical seats
    after = client.get(f"/api/tables/{t}/ledger").json["state"]
    assert after["dealer"] == south and after["seating"] == state["seating"]


def test_a_swap_during_a_hand_waits_for_the_next_hand(client):
    t = new_table(client)["table"]["token"]
    client.post(f"/api/tables/{t}/kongs", json={"type": "kong", "declarer": "S", "from": "W"})
    changes = _ok(_settings(client, t, {"swap": {"players": [1, 2]}}))
    assert changes["entries"][-1]["hand_no"] == 2
    assert changes["state"]["winds"] == ["E", "S", "W", "N"] and changes["claims"] == {"S": {"W": 1}}
    state = _ok(client.post(f"/api/tables/{t}/draws"))["state"]
    assert state["hand_no"] == 2 and state["winds"] == ["E", "W", "S", "N"]


# ---------------------------------------------------------------- house rules


def test_each_hand_is_scored_under_the_rules_it_was_played_under(client):
    view = new_table(client, variant="yuxi")
    t = view["table"]["token"]
    first = _ok(client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]}))["entries"][-1]
    assert first["payments"] == [-1, 3, -1, -1] and first["state"]["rules"] is None
    changes = _ok(_settings(client, t, {"options": {"base_points": 3}}))
    rules = changes["entries"][-1]
    assert rules["changed"] == {"base_points": [1, 3]} and rules["hand_no"] == 2
    assert changes["state"]["rules"] == rules["id"]
    table = client.get(f"/api/tables/{t}").json["table"]
    assert table["options"]["base_points"] == 3 and table["next_options"] is None
    south = changes["state"]["seats"]["S"]  # Bob won hand 1 and deals hand 2
    preview = client.post(f"/api/tables/{t}/hands/score", json={"winners": [WIN_S]}).json
    assert preview["payments_by_player"][south] == 9 and sorted(preview["payments_by_player"]) == [-3, -3, -3, 9]
    second = _ok(client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]}))["entries"][-1]
    assert second["payments"][south] == 9 and second["state"]["rules"] == rules["id"]
    # correcting hand 1 (played under base_points 1) scores it under base_points 1
    fixed = {**WIN_S, "winner": "W"}
    preview = client.post(f"/api/tables/{t}/hands/score", json={"winners": [fixed], "correct": first["id"]}).json
    assert preview["payments_by_player"][2] == 3 and preview["state"]["rules"] is None
    corrected = _ok(client.post(f"/api/tables/{t}/hands/{first['id']}/correct", json={"winners": [fixed]}))
    assert corrected["entries"][0]["payments"][2] == 3 and sum(corrected["balances"]) == 0
    # correcting hand 2 keeps its rules
    corrected = _ok(client.post(f"/api/tables/{t}/hands/{second['id']}/correct", json={"winners": [fixed]}))
    west = second["state"]["seats"]["W"]
    assert corrected["entries"][-1]["payments"][west] == 9 and corrected["entries"][-1]["state"]["rules"] == rules["id"]


def test_a_rule_refused_from_the_next_hand_on_but_not_for_older_hands(client):
    seven_pairs = {"winner": "S", "win": {"by": "self_draw"}, "hand": {"concealed": "1122m3344p5566s77z"}}
    seven_pairs["hand"]["winning_tile"] = "7z"
    t = new_table(client)["table"]["token"]
    first = _ok(client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]}))["entries"][-1]
    _ok(_settings(client, t, {"options": {"seven_pairs": False}}))
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [seven_pairs]})
    assert resp.status_code == 422 and err(resp)["code"] == "seven_pairs_not_allowed"
    assert _ok(client.post(f"/api/tables/{t}/hands/{first['id']}/correct", json={"winners": [seven_pairs]}))


def test_rules_changed_during_a_hand_apply_from_the_next(client):
    t = new_table(client, variant="nanning")["table"]["token"]
    kong = {"type": "kong", "declarer": "S", "from": "W"}
    before = _ok(client.post(f"/api/tables/{t}/kongs", json=kong))["entries"][-1]["payments_by_wind"]
    changes = _ok(_settings(client, t, {"options": {"kong_points": 3}}))
    assert changes["entries"][-1]["hand_no"] == 2 and changes["state"]["rules"] is None
    table = client.get(f"/api/tables/{t}").json["table"]
    assert table["options"]["kong_points"] == 1 and table["next_options"]["kong_points"] == 3
    assert _ok(client.post(f"/api/tables/{t}/kongs", json=kong))["entries"][-1]["payments_by_wind"] == before
    state = _ok(client.post(f"/api/tables/{t}/draws", json={"last_drawer": "N"}))["state"]
    assert state["rules"] == changes["entries"][-1]["id"]
    after = _ok(client.post(f"/api/tables/{t}/kongs", json=kong))["entries"][-1]["payments_by_wind"]
    assert after == {w: 3 * p for w, p in before.items()} and any(after.values())
    # a further change starts from the latest rules, not from the table's own
    _ok(_settings(client, t, {"options": {"minimum": 10}}))
    table = client.get(f"/api/tables/{t}").json["table"]
    assert table["next_options"]["kong_points"] == 3 and table["next_options"]["minimum"] == 10


# ---------------------------------------------------------------- undo


@pytest.mark.parametrize(
    "body, check",
    [
        ({"rename": {"player": 2, "name": "Chan"}}, lambda view: view["table"]["players"] == PLAYERS),
        ({"swap": {"players": [0, 1]}}, lambda view: view["ledger"]["state"]["winds"] == ["E", "S", "W", "N"]),
        ({"options": {"seven_pairs": False}}, lambda view: view["table"]["options"]["seven_pairs"] is True),
    ],
)
def test_a_settings_change_is_undone_like_any_event(client, body, check):
    t = new_table(client)["table"]["token"]
    event = _settings(client, t, body).json["event"]
    ledger = client.get(f"/api/tables/{t}/ledger").json
    assert ledger["last_undoable"] == event["id"]
    undone = client.post(f"/api/tables/{t}/undo", json={"event_id": event["id"]})
    assert undone.status_code == 201 and undone.json["changes"]["entries"] == []
    view = client.get(f"/api/tables/{t}").json
    assert check(view) and view["ledger"]["state"]["rules"] is None
    assert [row["status"] for row in view["ledger"]["log"]] == ["undone", "undo"]


# ---------------------------------------------------------------- random evenings

write = st.one_of(
    st.tuples(st.just("win"), st.sampled_from(WINDS), st.booleans()),
    st.tuples(st.just("draw"), st.just(None), st.just(None)),
    st.tuples(st.just("kong"), st.sampled_from(WINDS), st.just(None)),
    st.tuples(st.just("correct"), st.sampled_from(WINDS), st.integers(0, 5)),
    st.tuples(st.just("undo"), st.just(None), st.just(None)),
    st.tuples(st.just("rename"), st.integers(0, 3), st.sampled_from(["Ann", "ann", "Bo", "Cy", "Alice"])),
    st.tuples(st.just("swap"), st.integers(0, 3), st.integers(0, 3)),
    st.tuples(st.just("rules"), st.sampled_from([1, 2, 3]), st.sampled_from(["all_score", "nearest_only"])),
)


def _post(client: Any, t: str, op: tuple[str, Any, Any]) -> None:
    """One write of a random evening (refusals are part of it too)."""
    kind, a, b = op
    base = f"/api/tables/{t}"
    if kind == "win":
        win = {"by": "self_draw"} if b else {"by": "discard", "from": WINDS[(WINDS.index(a) + 2) % 4]}
        client.post(f"{base}/hands", json={"winners": [{**WIN_S, "winner": a, "win": win}]})
    elif kind == "draw":
        client.post(f"{base}/draws")
    elif kind == "kong":
        client.post(f"{base}/kongs", json={"type": "kong", "declarer": a, "from": WINDS[(WINDS.index(a) + 1) % 4]})
    elif kind == "correct":
        hands = [e for e in client.get(f"{base}/ledger").json["entries"] if e["kind"] == "hand"]
        if hands:
            body = {"drawn": True} if b % 2 else {"winners": [{**WIN_S, "winner": a}]}
            client.post(f"{base}/hands/{hands[b % len(hands)]['id']}/correct", json=body)
    elif kind == "undo":
        client.post(f"{base}/undo")
    elif kind == "rename":
        _settings(client, t, {"rename": {"player": a, "name": b}})
    elif kind == "swap":
        _settings(client, t, {"swap": {"players": [a, b]}})
    else:
        _settings(client, t, {"options": {"base_points": a, "multiple_winners": b}})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.lists(write, max_size=14), then=st.lists(write, max_size=10))
def test_random_evenings_of_hands_and_settings(first: list, then: list) -> None:
    """The live ledger equals the full replay (written partly through a second server); balances
    sum to the start; names stay unique; every hand in effect was paid as its own rules score it."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        here, there = create_app(data).test_client(), create_app(data).test_client()
        t = new_table(here, variant="yuxi", start_points=50)["table"]["token"]
        for op in first:
            _post(here, t, op)
        for op in then:
            _post(there, t, op)
        store = here.application.extensions["mjc_store"]
        table, _ = store.find_table(t)
        rules = TableRules.of(table)
        full = replay(table, rules, store.events(table.id))
        live = ledger_of(store, table, rules)
        assert live.to_dict() == full.to_dict()
        assert (live.players, live.options, live.rules) == (full.players, full.options, full.rules)
        assert sum(full.balances) == 200 and all(sum(p["balances"]) == 200 for p in full.timeline)
        assert len({n.casefold() for n in full.players}) == 4
        view = here.get(f"/api/tables/{t}").json
        assert view["table"]["players"] == full.players and view["ledger"] == full.to_dict()
        for entry in full.entries:
            if entry["kind"] == "hand" and entry["outcome"] == "win":
                base = entry["state"]["rules"]
                points = 1 if base is None else store_options(full, base)["base_points"]
                assert max(entry["payments"]) == 3 * points


def store_options(ledger: Any, marker: int) -> dict[str, Any]:
    """The house rules the settings event ``marker`` set."""
    options: dict[str, Any] = ledger.rules_at(marker).options
    return options
