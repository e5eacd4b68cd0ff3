"""The live ledger (companion.live) against the full replay (companion.ledger.replay): random
evenings of claims, kongs, wins, draws, corrections and undos, written partly through one server
and partly through another on the same ledger (the first one then catches up with the tail), on
both back ends (a PostgreSQL example is a new table in the test's database)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import live
from companion.app import create_app
from companion.ledger import replay
from companion.live import ledger_of
from companion.rules import TableRules

from .helpers import WIN_S, new_table

WINDS = ["E", "S", "W", "N"]

write = st.one_of(
    st.tuples(st.just("claim"), st.sampled_from(WINDS), st.integers(1, 3)),
    st.tuples(st.just("kong"), st.sampled_from(["kong", "concealed_kong", "added_kong"]), st.sampled_from(WINDS)),
    st.tuples(st.just("win"), st.sampled_from(WINDS), st.booleans()),
    st.tuples(st.just("draw"), st.just(None), st.just(None)),
    st.tuples(st.just("correct"), st.sampled_from(WINDS), st.integers(0, 5)),
    st.tuples(st.just("undo"), st.just(None), st.just(None)),
)


def _post(client: Any, t: str, op: tuple[str, Any, Any]) -> None:
    """One write; refusals (nothing to undo, no hand to correct) are part of the evening too."""
    kind, a, b = op
    if kind == "claim":
        client.post(f"/api/tables/{t}/claims", json={"claimer": a, "from": WINDS[(WINDS.index(a) + b) % 4]})
    elif kind == "kong":
        body = {"type": a, "declarer": b}
        if a != "concealed_kong":
            body["from"] = WINDS[(WINDS.index(b) + 1) % 4]
        client.post(f"/api/tables/{t}/kongs", json=body)
    elif kind == "win":
        win = {"by": "self_draw"} if b else {"by": "discard", "from": WINDS[(WINDS.index(a) + 2) % 4]}
        client.post(f"/api/tables/{t}/hands", json={"winners": [{**WIN_S, "winner": a, "win": win}]})
    elif kind == "draw":
        client.post(f"/api/tables/{t}/draws")
    elif kind == "correct":
        entries = client.get(f"/api/tables/{t}/ledger").json["entries"]
        hands = [e for e in entries if e["kind"] == "hand"]
        if hands:
            target = hands[b % len(hands)]["id"]
            body = {"drawn": True} if b % 2 else {"winners": [{**WIN_S, "winner": a}]}
            client.post(f"/api/tables/{t}/hands/{target}/correct", json=body)
    else:
        client.post(f"/api/tables/{t}/undo")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(first=st.lists(write, max_size=12), then=st.lists(write, max_size=12), more=st.lists(write, max_size=6))
def test_live_ledger_equals_the_full_replay(database_url: str | None, first: list, then: list, more: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        apps = [create_app(data, database_url=database_url) for _ in range(2)]
        here, there = (a.test_client() for a in apps)
        t = new_table(here, start_points=100)["table"]["token"]
        for op in first:
            _post(here, t, op)
        for op in then:  # another server on the same file: `here` only reads the tail next time
            _post(there, t, op)
        for op in more:
            _post(here, t, op)
        store = here.application.extensions["mjc_store"]
        table, _ = store.find_table(t)
        rules = TableRules.of(table)
        full = replay(table, rules, store.events(table.id)).to_dict()
        assert ledger_of(store, table, rules).to_dict() == full
        assert here.get(f"/api/tables/{t}/ledger").json == {"ok": True, "changed": True, **full}
        assert sum(full["balances"]) == 400 and all(sum(p["balances"]) == 400 for p in full["timeline"])
        assert full["version"] == len(store.events(table.id))
        for a in apps:
            a.extensions["mjc_store"].close()


def test_tables_beyond_the_kept_number_are_folded_again_when_used(tmp_path, monkeypatch):
    monkeypatch.setattr(live, "KEEP_TABLES", 2)
    client = create_app(tmp_path / "data").test_client()
    tokens = [new_table(client, start_points=10)["table"]["token"] for _ in range(4)]
    for round_no in range(3):
        for i, t in enumerate(tokens):
            kong = {"type": "kong", "declarer": WINDS[(i + round_no) % 4], "from": WINDS[(i + round_no + 1) % 4]}
            assert client.post(f"/api/tables/{t}/kongs", json=kong).status_code == 201
    store = client.application.extensions["mjc_store"]
    assert len(live.ledgers(store)._tables) <= 2
    for t in tokens:
        table, _ = store.find_table(t)
        full = replay(table, TableRules.of(table), store.events(table.id)).to_dict()
        assert client.get(f"/api/tables/{t}/ledger").json == {"ok": True, "changed": True, **full}
