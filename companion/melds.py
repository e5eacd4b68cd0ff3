"""The melds recorded during a hand (its ``claim`` and ``kong`` events) against the melds the table
enters for a winner, so that a disagreement is flagged when the hand is scored.

What was recorded, per claimer: each claimed pung or kong with the seat it came from; each exposed
kong (``kong`` from a discarder); an added kong makes one of the declarer's recorded pungs a kong
(the same source); a concealed kong comes from nobody. Chows are not recorded, so never compared.

The winner's melds are matched to what was recorded for them: the same kind from the same seat
first; then a meld of the same kind from another seat is flagged ``meld_source`` (the recorded
source named), one from the same seat of another kind ``meld_kind``, and a recorded meld left
over ``meld_missing``. A meld entered with nothing recorded for it is not flagged: tables need
not record every claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: the kind a meld is recorded and compared as (a declared added kong is a kong from its pung's source)
KINDS = {"pung": "pung", "kong": "kong", "added_kong": "kong", "concealed_kong": "concealed_kong"}


def recorded_melds(entries: Sequence[Mapping[str, Any]], hand_no: int) -> list[dict[str, Any]]:
    """The melds recorded during hand ``hand_no`` (effective ledger entries, in order): each
    ``{"claimer", "meld", "from", "event"}`` with ``meld`` one of pung, kong, concealed_kong."""
    out: list[dict[str, Any]] = []
    for e in entries:
        if e.get("kind") not in ("claim", "kong") or e.get("hand_no") != hand_no:
            continue
        if e["kind"] == "claim":
            out.append({"claimer": e.get("claimer"), "meld": e.get("meld"), "from": e.get("from"), "event": e["id"]})
        elif e.get("type") == "added_kong":
            pung = next((m for m in out if m["claimer"] == e.get("declarer") and m["meld"] == "pung"), None)
            if pung is not None:
                pung["meld"], pung["event"] = "kong", e["id"]
            else:
                out.append({"claimer": e.get("declarer"), "meld": "kong", "from": e.get("from"), "event": e["id"]})
        else:
            meld = "kong" if e.get("type") == "kong" else "concealed_kong"
            out.append({"claimer": e.get("declarer"), "meld": meld, "from": e.get("from"), "event": e["id"]})
    return out


def meld_warnings(recorded: Sequence[Mapping[str, Any]], winners: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each disagreement between the winners' melds and those ``recorded`` this hand."""
    warnings: list[dict[str, Any]] = []
    for k, w in enumerate(winners):
        mine = [dict(r) for r in recorded if r.get("claimer") == w.get("winner")]
        entered = [
            (i, KINDS[m["type"]], m.get("from"), m.get("tiles"))
            for i, m in enumerate((w.get("hand") or {}).get("melds") or [])
            if isinstance(m, Mapping) and m.get("type") in KINDS
        ]
        left = _match(entered, mine, lambda e, r: e[1] == r["meld"] and e[2] == r["from"])
        for code, same in (
            ("meld_source", lambda e, r: e[1] == r["meld"]),
            ("meld_kind", lambda e, r: e[2] == r["from"] and r["from"] is not None),
        ):
            for e, r in _pairs(left, mine, same):
                warnings.append(_warning(code, k, w["winner"], e, r))
        warnings.extend(_warning("meld_missing", k, w["winner"], None, r) for r in mine)
    return warnings


def _match(entered: list[tuple], recorded: list[dict[str, Any]], same: Any) -> list[tuple]:
    """Take each entered meld's first recorded match out of ``recorded``; answer those unmatched."""
    left = []
    for e in entered:
        r = next((r for r in recorded if same(e, r)), None)
        if r is None:
            left.append(e)
        else:
            recorded.remove(r)
    return left


def _pairs(left: list[tuple], recorded: list[dict[str, Any]], same: Any) -> list[tuple[tuple, dict[str, Any]]]:
    """Pair entered melds left over with recorded ones by ``same`` (both taken out of their lists)."""
    pairs = []
    for e in list(left):
        r = next((r for r in recorded if same(e, r)), None)
        if r is not None:
            recorded.remove(r)
            left.remove(e)
            pairs.append((e, r))
    return pairs


def _warning(code: str, k: int, winner: str, entered: tuple | None, rec: Mapping[str, Any]) -> dict[str, Any]:
    """One warning: the meld entered (by its place in ``winners[k].hand.melds``) and what was recorded."""
    said = f"a {rec['meld'].replace('_', ' ')}" + (f" from {rec['from']}" if rec.get("from") else "")
    out: dict[str, Any] = {
        "code": code,
        "winner": winner,
        "field": f"winners[{k}].hand.melds",
        "meld": None,
        "recorded": {"meld": rec["meld"], "from": rec.get("from"), "event": rec.get("event")},
        "message": f"{winner}: {said} was recorded this hand, but the hand has no such meld; check the melds",
    }
    if entered is not None:
        i, kind, source, tiles = entered
        shown = f"{tiles} ({kind.replace('_', ' ')}" + (f" from {source})" if source else ")")
        out["field"] = f"winners[{k}].hand.melds[{i}]"
        out["meld"] = {"tiles": tiles, "meld": kind, "from": source}
        out["message"] = f"{winner}: meld {shown} was recorded as {said}; check whose discard it took"
    return out
