"""Meld sources against the claims and kongs recorded this hand (companion.melds): a scored hand's
preview flags each meld whose source or kind disagrees with what the ledger recorded."""

from __future__ import annotations

from typing import Any

import pytest

from companion.api.models import HandPreview

from .helpers import new_table


def winner(*melds: dict[str, Any], who: str = "S") -> dict[str, Any]:
    """A Ningxia self-draw win for ``who`` with ``melds`` beside 123m 456p 789s 22z (22z the pair)."""
    concealed = "123m456p789s22z" if len(melds) == 1 else "123m456p22z"
    return {
        "winner": who,
        "win": {"by": "self_draw"},
        "hand": {"concealed": concealed, "winning_tile": "2z", "melds": list(melds)},
    }


PUNG_W = {"type": "pung", "tiles": "111z", "from": "W"}
PUNG_N = {"type": "pung", "tiles": "111z", "from": "N"}
KONG_W = {"type": "kong", "tiles": "1111z", "from": "W"}
ADDED_W = {"type": "added_kong", "tiles": "1111z", "from": "W"}
CONCEALED = {"type": "concealed_kong", "tiles": "1111z"}
CLAIM_W = ("claims", {"claimer": "S", "from": "W"})
CLAIM_N_BY_E = ("claims", {"claimer": "E", "from": "N"})
KONG_FROM_W = ("kongs", {"type": "kong", "declarer": "S", "from": "W"})
ADD_KONG = ("kongs", {"type": "added_kong", "declarer": "S"})
CONCEALED_KONG = ("kongs", {"type": "concealed_kong", "declarer": "S"})


@pytest.mark.parametrize(
    "recorded, melds, expected",
    [
        ([CLAIM_W], [PUNG_W], []),
        ([], [PUNG_N], []),  # nothing recorded: nothing to disagree with
        ([CLAIM_N_BY_E], [PUNG_N], []),  # another player's claim
        ([CLAIM_W], [PUNG_N], [("meld_source", "winners[0].hand.melds[0]", "pung", "W")]),
        ([KONG_FROM_W], [PUNG_W], [("meld_kind", "winners[0].hand.melds[0]", "kong", "W")]),
        ([CLAIM_W, ADD_KONG], [ADDED_W], []),
        ([KONG_FROM_W], [KONG_W], []),
        ([CONCEALED_KONG], [PUNG_W], [("meld_missing", "winners[0].hand.melds", "concealed_kong", None)]),
        ([CLAIM_W, CONCEALED_KONG], [PUNG_W, CONCEALED | {"tiles": "7777s"}], []),
        (
            [CLAIM_W, ("claims", {"claimer": "S", "from": "N"})],
            [PUNG_N | {"tiles": "777s"}, PUNG_N],
            [("meld_source", "winners[0].hand.melds[1]", "pung", "W")],
        ),
    ],
)
def test_a_preview_flags_melds_that_disagree_with_the_ledger(client, recorded, melds, expected):
    t = new_table(client)["table"]["token"]
    for path, body in recorded:
        assert client.post(f"/api/tables/{t}/{path}", json=body).status_code == 201
    resp = client.post(f"/api/tables/{t}/hands/score", json={"winners": [winner(*melds)]})
    assert resp.status_code == 200, resp.json
    preview = HandPreview.model_validate(resp.json)
    got = [(w.code, w.field, w.recorded.meld, w.recorded.from_) for w in preview.warnings]
    assert got == expected
    for w in resp.json["warnings"]:
        assert w["recorded"]["event"] is not None and w["winner"] in w["message"]


def test_a_correction_is_checked_against_its_own_hand(client):
    t = new_table(client)["table"]["token"]
    client.post(f"/api/tables/{t}/claims", json={"claimer": "S", "from": "W"})
    hand = client.post(f"/api/tables/{t}/hands", json={"winners": [winner(PUNG_W)]}).json["event"]
    # hand 2: nothing recorded yet; correcting hand 1 compares with hand 1's claim
    body = {"winners": [winner(PUNG_N)], "correct": hand["id"]}
    warnings = client.post(f"/api/tables/{t}/hands/score", json=body).json["warnings"]
    assert [(w["code"], w["meld"]["from"], w["recorded"]["from"]) for w in warnings] == [("meld_source", "N", "W")]
    assert client.post(f"/api/tables/{t}/hands/score", json={"winners": [winner(PUNG_N)]}).json["warnings"] == []
