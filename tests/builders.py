"""Builders shared by the engine and rule tests: one winner's score input, the one result of a
single winner out of the contract's ``results``, and random JSON shaped like the contract's input."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine.contract import exit_code, score

#: South and West both win on East's discard (a table's won hand with two winners; the page's
#: and the API's tests of several winners)
TWO_WINNERS_ON_EAST: list[dict[str, Any]] = [
    {
        "winner": "S",
        "win": {"by": "discard", "from": "E"},
        "hand": {"concealed": "123m789s11122z999p", "winning_tile": "9p"},
    },
    {
        "winner": "W",
        "win": {"by": "discard", "from": "E"},
        "hand": {"concealed": "456m456s333z77z789p", "winning_tile": "9p"},
    },
]


def payload(
    variant: str,
    concealed: str,
    winning: str | None = None,
    *,
    winner: str = "S",
    by: str = "self_draw",
    frm: str | None = None,
    win: dict[str, Any] | None = None,
    melds: list[dict[str, Any]] | None = None,
    flowers: str | None = None,
    round_wind: str | None = None,
    options: dict[str, Any] | None = None,
    baida: str | None = None,
    bloom: list[str] | None = None,
    fish: list[str] | None = None,
    streak: int | None = None,
    claims: dict[str, dict[str, int]] | None = None,
    context: dict[str, Any] | None = None,
    **flags: bool,
) -> dict[str, Any]:
    """One winner's input for ``engine.contract.score``. ``winning`` defaults to the last tile of
    ``concealed``. ``win`` gives the whole win object; otherwise it is built from ``by``, ``frm``
    (the discarder) and the win ``flags``. ``baida`` / ``bloom`` / ``fish`` fill ``indicators``;
    ``streak`` and ``claims`` fill ``context`` (or give ``context`` whole). Fields left ``None``
    are left out, so the rule set's defaults apply."""
    if win is None:
        win = {"by": by, **flags, **({"from": frm} if frm else {})}
    hand: dict[str, Any] = {"concealed": concealed, "winning_tile": winning or concealed[-2:], "melds": melds or []}
    if flowers is not None:
        hand["flowers"] = flowers
    out: dict[str, Any] = {"variant": variant, "winner": winner, "win": win, "hand": hand}
    if round_wind is not None:
        out["round_wind"] = round_wind
    if options is not None:
        out["options"] = dict(options)
    indicators = {
        name: value for name, value in (("baida", baida), ("bloom", bloom), ("fish", fish)) if value is not None
    }
    if indicators:
        out["indicators"] = indicators
    context = dict(context or {})
    if streak is not None:
        context["dealer_streak"] = streak
    if claims is not None:
        context["claims"] = claims
    if context:
        out["context"] = context
    return out


def only(result: dict[str, Any]) -> dict[str, Any]:
    """The one winner's entry of a paid result (``results[0]``); a refusal or an error as it is."""
    if not result["ok"]:
        return result
    assert len(result["results"]) == 1, result
    assert result["payments"] == result["results"][0]["payments"], result
    return result["results"][0]


def scored(p: dict[str, Any] | list[dict[str, Any]]) -> dict[str, Any]:
    """``engine.contract.score``: for one winner (an object) that winner's entry, via :func:`only`;
    for several winners (a list) the whole result."""
    result = score(p)
    return only(result) if isinstance(p, dict) else result


def assert_answer(result: dict[str, Any]) -> None:
    """``result`` is one of the contract's answers: a paid win whose payments sum to zero, a waits
    list, or an error with a code, a message and its kind (which fixes the exit status)."""
    if result["ok"]:
        if "results" in result:
            assert result["results"] and sum(result["payments"].values()) == 0, result
        else:
            assert isinstance(result["waits"], list), result
        assert exit_code(result) == 0
        return
    error = result["error"]
    assert error["code"] and error["message"], result
    assert exit_code(result) == {"refused": 1, "invalid": 2}[error["kind"]]


def json_junk(leaves: st.SearchStrategy, keys: list[str], *, max_size: int, max_leaves: int) -> st.SearchStrategy:
    """Random JSON: ``leaves`` nested in lists (up to 4 items) and objects (up to ``max_size`` of the
    contract's ``keys``), for the never-raise properties."""
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(keys), inner, max_size=max_size),
        max_leaves=max_leaves,
    )
