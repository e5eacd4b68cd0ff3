"""A table's settings after creation, recorded as ``settings`` events (see :mod:`companion.ledger`).

A player is their index 0-3 in the table's ``players``: that is their identity in every event,
so renaming never changes who won or paid what. Three changes, each one event whose ``data``
holds ``change`` and what changed:

``rename``  ``player`` is now called ``name`` (``was``: the name before), everywhere at once: the
            ledger, the exports and the watch link show the current name. Names are unique at a
            table, compared trimmed and case-insensitively.
``renames`` several renames at once (``renames``: a list of ``{player, name, was}``), checked on
            the names the table ends with, so two players may exchange names in one change.
``swap``    the two ``players`` exchange seats from the hand ``hand_no`` on: each takes the wind
            the other would have had in that hand and after (whoever sits in the dealer's seat
            deals). The dealer's streak, the round wind and how far the deal has moved this round
            belong to the seats and do not change.
``options`` the house rules (the rule set's options, checked as at creation) from the hand
            ``hand_no`` on: ``options`` holds the whole resolved set, ``changed`` each changed
            option's ``[before, after]``. Each hand keeps the rules it was played under (its
            ``state.rules`` names this event), so a correction of an older hand is scored under
            that hand's rules.

A swap or a house-rule change takes effect from the current hand when nothing has been recorded
in it yet (no claim, no kong), else from the hand after it. Settings events are undone like any
other: the latest effective event first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.rules.base import resolve_options

from .errors import bad
from .house_rules import rule_name, value_words
from .rules import TableRules
from .store import Event

if TYPE_CHECKING:
    from .ledger import HandState


def same_name(a: str, b: str) -> bool:
    """Are two player names the same name (trimmed, case-insensitive)?"""
    return a.strip().casefold() == b.strip().casefold()


def duplicate_of(names: Sequence[str], index: int) -> int | None:
    """The index of an earlier player named like ``names[index]``, or None."""
    return next((i for i in range(index) if same_name(names[i], names[index])), None)


def names(created: Sequence[str], events: Iterable[Event]) -> list[str]:
    """The players' names: as created, with each ``rename`` (in order) applied."""
    out = list(created)
    for ev in events:
        if ev.data.get("change") == "rename":
            out[int(ev.data["player"])] = str(ev.data["name"])
        elif ev.data.get("change") == "renames":
            for r in ev.data["renames"]:
                out[int(r["player"])] = str(r["name"])
    return out


def latest_rules(events: Iterable[Event]) -> int | None:
    """The latest ``options`` change among ``events`` (its id), or None."""
    found = None
    for ev in events:
        if ev.data.get("change") == "options":
            found = ev.id
    return found


def settle(state: HandState, events: Iterable[Event]) -> HandState:
    """``state`` with the swaps and house rules that take effect from its hand applied in order."""
    for ev in events:
        if ev.data.get("hand_no") != state.hand_no:
            continue
        if ev.data.get("change") == "swap":
            a, b = ev.data["players"]
            state = state.swapped(int(a), int(b))
        elif ev.data.get("change") == "options":
            state = state.under(ev.id)
    return state


def from_hand(state: HandState, started: bool) -> int:
    """The hand a swap or a house-rule change takes effect from: this one unless it has started."""
    return state.hand_no + 1 if started else state.hand_no


def rename(players: Sequence[str], player: int, name: str) -> dict[str, Any]:
    """A rename's data; 400 ``duplicate_name`` when another player has that name, 400
    ``no_change`` when it is the player's name already."""
    for i, other in enumerate(players):
        if i != player and same_name(other, name):
            raise bad(
                f"{other!r} already plays at this table (seat {i + 1}); names must differ: choose another name",
                field="rename.name",
                code="duplicate_name",
            )
    if players[player] == name:
        raise bad(f"player {player + 1} is already called {name!r}; nothing to change", "rename.name", "no_change")
    return {"change": "rename", "player": player, "name": name, "was": players[player]}


def renames(players: Sequence[str], given: Sequence[tuple[int, str]]) -> dict[str, Any]:
    """Several renames at once, checked on the names the table ends with (so ``A`` and ``B`` may
    exchange names): 400 ``bad_input`` when a player is named twice, ``duplicate_name`` when two
    players would share a name, ``no_change`` when every player already has the name given."""
    seen: set[int] = set()
    for k, (player, _) in enumerate(given):
        if player in seen:
            raise bad(f"player {player + 1} is renamed twice; give each player once", f"renames[{k}].player")
        seen.add(player)
    after = list(players)
    for player, name in given:
        after[player] = name
    for k, (player, name) in enumerate(given):
        for i, other in enumerate(after):
            if i != player and same_name(other, name):
                raise bad(
                    f"{name!r} would be the name of two players (seats {min(i, player) + 1} and "
                    f"{max(i, player) + 1}); names must differ: choose another name",
                    field=f"renames[{k}].name",
                    code="duplicate_name",
                )
    changed = [{"player": p, "name": n, "was": players[p]} for p, n in given if players[p] != n]
    if not changed:
        raise bad("these players already have these names; nothing to change", "renames", "no_change")
    return {"change": "renames", "renames": changed}


def swap(state: HandState, a: int, b: int) -> dict[str, Any]:
    """A swap's data: the two players and the winds they had before."""
    if a == b:
        raise bad("a swap needs two different players (0-3)", field="swap.players", code="no_change")
    return {"change": "swap", "players": [a, b], "winds": [state.wind_of(a), state.wind_of(b)]}


def options(rules: TableRules, latest: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """A house-rule change's data: ``given`` over the ``latest`` rules, checked by the rule set as
    at creation (400 naming ``options.<name>``); 400 ``no_change`` when nothing changes."""
    merged = resolve_options(rules.variant.options, {**latest, **given})
    changed = {k: [latest.get(k), v] for k, v in merged.items() if latest.get(k) != v}
    if not changed:
        raise bad("these house rules are already in force; change at least one option", "options", "no_change")
    return {"change": "options", "options": merged, "changed": changed}


#: the sentences of :func:`describe` in each language
SENTENCES: dict[str, dict[str, str]] = {
    "en": {
        "rename": "{was} is now called {name}",
        "swap": "{a} and {b} swap seats from hand {n}",
        "options": "house rules from hand {n}: {items}",
        "item": "{name} {was} -> {now}",
        "sep": ", ",
    },
    "zh": {
        "rename": "{was} 改名为 {name}",
        "swap": "{a} 和 {b} 从第 {n} 局起交换座位",
        "options": "从第 {n} 局起的规则:{items}",
        "item": "{name} {was} → {now}",
        "sep": ";",
    },
}


def describe(entry: Mapping[str, Any], players: Sequence[str], lang: str = "en", variant: str = "") -> str:
    """A settings entry in words in ``lang`` ("en" or "zh"; anything else is English) with the
    players' current names, for the CSV export: a changed house rule by its name and values in
    players' words (``variant``'s, :mod:`companion.house_rules`)."""
    words = SENTENCES.get(lang, SENTENCES["en"])
    change = entry.get("change")
    if change == "rename":
        return words["rename"].format(was=entry.get("was"), name=players[int(entry["player"])])
    if change == "renames":
        return words["sep"].join(
            words["rename"].format(was=r.get("was"), name=players[int(r["player"])]) for r in entry["renames"]
        )
    if change == "swap":
        a, b = (players[int(p)] for p in entry["players"])
        return words["swap"].format(a=a, b=b, n=entry.get("hand_no"))
    if change == "options":
        items = words["sep"].join(
            words["item"].format(
                name=rule_name(variant, k, lang),
                was=value_words(variant, k, old, lang),
                now=value_words(variant, k, new, lang),
            )
            for k, (old, new) in entry.get("changed", {}).items()
        )
        return words["options"].format(n=entry.get("hand_no"), items=items)
    return ""
