"""A claimed chow the rules forbid answers the same in every rule set: a refusal (exit 1) with
code ``chow_claim_not_allowed`` naming the meld, in ``mjc score`` and ``mjc waits``; the house
rule that allows claimed chows lifts it, and Yuxi (whose guide lets chows be claimed) pays it."""

from __future__ import annotations

import pytest

from engine.contract import exit_code, score, waits

CHOW = {"type": "chow", "tiles": "123p", "from": "E"}
HEFEI_CHOW = {"type": "chow", "tiles": "234p", "from": "E"}  # Hefei plays ranks 2-8 only
#: per rule set: a winning hand with a claimed chow, and the option that allows the claim
CASES = {
    "hefei": ({"concealed": "567p678p22s345s", "winning_tile": "5s"}, {}, {"claimed_chows": True}),
    "ningxia": ({"concealed": "456s789s11z222z", "winning_tile": "9s"}, {}, {"claimed_chows": True}),
    "nanning": ({"concealed": "456s789s11z222z", "winning_tile": "9s"}, {}, {"allow_chow": True}),
    "ningbo": (
        {"concealed": "456s678s22s555z", "winning_tile": "2s"},
        {"claimed_chows": False},
        {"claimed_chows": True},
    ),
}
#: the same hands one tile short (for waits)
SHORT = {
    "hefei": "567p678p22s34s",
    "ningxia": "456s78s11z222z",
    "nanning": "456s78s11z222z",
    "ningbo": "456s678s2s555z",
}
BAIDA = {"ningbo": {"indicators": {"baida": "3s"}}}


def _payload(variant: str, hand: dict, options: dict) -> dict:
    body = {"variant": variant, "winner": "S", "hand": {**hand, "melds": [HEFEI_CHOW if variant == "hefei" else CHOW]}}
    if "winning_tile" in hand:
        body["win"] = {"by": "self_draw"}
    return body | BAIDA.get(variant, {}) | {"options": options}


@pytest.mark.parametrize("variant", sorted(CASES))
def test_a_forbidden_chow_claim_is_refused_alike(variant):
    hand, forbidding, allowing = CASES[variant]
    short = {"concealed": SHORT[variant]}
    for result in (score(_payload(variant, hand, forbidding)), waits(_payload(variant, short, forbidding))):
        assert exit_code(result) == 1, result
        assert result["error"]["code"] == "chow_claim_not_allowed" and result["error"]["field"] == "hand.melds[0]"
    assert exit_code(score(_payload(variant, hand, allowing))) in (0, 1)  # the rules' verdict on the hand itself
    assert score(_payload(variant, hand, allowing)).get("error", {}).get("code") != "chow_claim_not_allowed"


def test_yuxi_pays_a_claimed_chow():
    hand = {"concealed": "456s789s11z222z", "winning_tile": "9s"}
    result = score(_payload("yuxi", hand, {}))
    assert result["ok"], result
