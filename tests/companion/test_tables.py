"""Tables: creating one (the fields named when refused), tokens and the watch link, exports, polling."""

from __future__ import annotations

import csv
import io

import pytest

from .helpers import PLAYERS, WIN_S, err, new_table


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


@pytest.mark.parametrize(
    "extra, field, code",
    [
        ({"players": PLAYERS[:3]}, "players", "bad_input"),
        ({"players": [*PLAYERS[:3], "x" * 41]}, "players[3]", "bad_input"),
        ({"first_dealer": True}, "first_dealer", "bad_input"),
        ({"first_dealer": "1"}, "first_dealer", "bad_input"),
        ({"start_points": -1}, "start_points", "bad_input"),
        ({"name": "x" * 81}, "name", "bad_input"),
        ({"options": ["x"]}, "options", "bad_input"),
        ({"options": {"seven_pairs": "yes"}}, "options.seven_pairs", "bad_option"),
        ({"variant": 5}, "variant", "bad_input"),
        ({"variant": "mars"}, "variant", "unknown_variant"),
    ],
)
def test_a_new_table_names_the_field_at_fault(client, extra, field, code):
    resp = client.post("/api/tables", json={"variant": "ningxia", "players": PLAYERS, **extra})
    assert resp.status_code == 400 and err(resp)["field"] == field and err(resp)["code"] == code


def test_a_new_table_keeps_trimmed_names_and_resolved_options(client):
    view = new_table(client, players=["  Alice ", "Bob", "Chen", "Dora"], name=" Friday ", options=None)
    assert view["table"]["players"] == PLAYERS and view["table"]["name"] == "Friday"
    assert view["table"]["options"]["seven_pairs"] is True
    assert view["table"]["variant"]["draw_needs"] == []


@pytest.mark.parametrize(
    "variant, options, field",
    [
        ("hefei", {"base_score": -20}, "options.base_score"),
        (
            "hefei",
            {"base_score": 10**6},
            "options.base_score",
        ),  # 10**26 never reaches the options: over JSON's safe integers (test_limits)
        ("yuxi", {"base_points": 0}, "options.base_points"),
        ("nanning", {"kong_points": 10_001}, "options.kong_points"),
        ("nanning", {"values": {"full_flush": {"discard": -1}}}, "options.values.full_flush.discard"),
        ("ningbo", {"minimum_tai": 101}, "options.minimum_tai"),
    ],
)
def test_a_new_table_refuses_options_out_of_range(client, variant, options, field):
    resp = client.post("/api/tables", json={"variant": variant, "players": PLAYERS, "options": options})
    assert resp.status_code == 400 and err(resp)["field"] == field and err(resp)["code"] == "bad_option"
