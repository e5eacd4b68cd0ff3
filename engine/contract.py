"""The JSON contract shared by ``mjc score`` / ``mjc waits`` and the HTTP API.

Input (one winner; a JSON list of such objects for several winners on one discard)::

    {"variant": "ningbo|nanning|yuxi|hefei|ningxia", "options": {},
     "round_wind": "E", "winner": "S",
     "win": {"by": "self_draw|discard", "from": "W", "after_kong": false, "robbed_kong": false,
             "last_tile": false, "first_turn": false, "double_kong": false, "ten_old_men": false},
     "hand": {"concealed": "123m456p789s1122z", "winning_tile": "2z",
              "melds": [{"type": "chow|pung|kong|concealed_kong|added_kong", "tiles": "555p", "from": "N"}],
              "flowers": "15f"},
     "indicators": {"baida": "3s", "bloom": ["6p", "1z"], "fish": ["1m", "6s", "5z"]},
     "context": {"dealer_streak": 0, "claims": {"S": {"W": 3}}}}

Output on a paid win, for one winner or several: ``{"ok": true, "results": [{"winner", "value",
"items", "multipliers", "payments", …}], "payments": {"E", "S", "W", "N"}}`` — one entry per
winner in input order, ``value`` the hand's worth in the rule set's own unit (tai, points,
multiplier × base; see ``docs/rules/<variant>.md``), each entry's ``payments`` what each seat
gains or pays for that winner (plus ``wilds``, ``fish`` or ``bloom`` where the rule set has them),
the top-level ``payments`` their sums; on a
refusal ``{"ok": false, "error": {"code", "message"}}`` (exit status 1); on malformed input the
same shape with ``"field"`` naming the culprit (exit status 2); ``error.kind`` says which
(``"refused"`` or ``"invalid"``). :func:`exit_code` maps a result
to the exit status. Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import MahjongError
from .hand import Hand
from .melds import Meld
from .rules import get_variant
from .rules.base import (
    Indicators,
    Refusal,
    ScoreInput,
    ScoreResult,
    TableContext,
    WinInfo,
    add_payments,
    resolve_options,
)
from .seats import SEATS, Seat, parse_seat
from .tiles import format_tiles, parse_tile, parse_tiles, tile_str


class InputError(MahjongError):
    """The JSON is malformed: a missing or mistyped field."""

    code = "bad_input"


def _field(obj: Mapping[str, Any], name: str, kind: type | tuple, path: str, default: Any = ...) -> Any:
    if name not in obj or obj[name] is None:
        if default is ...:
            raise InputError(f"missing field '{path}{name}'", field=f"{path}{name}")
        return default
    value = obj[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InputError(f"field '{path}{name}' must be a {want}, got {value!r}", field=f"{path}{name}")
    return value


def _tiles(text: Any, field: str) -> list[int]:
    if not isinstance(text, str):
        raise InputError(f"field '{field}' must be a string of tiles like '123m', got {text!r}", field=field)
    try:
        return parse_tiles(text)
    except MahjongError as err:
        err.field = err.field or field
        raise


def _tile(text: Any, field: str) -> int:
    if not isinstance(text, str):
        raise InputError(f"field '{field}' must be one tile like '5p', got {text!r}", field=field)
    try:
        return parse_tile(text)
    except MahjongError as err:
        err.field = err.field or field
        raise


_TOP_FIELDS = ("variant", "options", "round_wind", "winner", "win", "hand", "indicators", "context")
_WIN_FLAGS = ("after_kong", "robbed_kong", "last_tile", "first_turn", "double_kong", "ten_old_men")


def parse_input(obj: Any, *, complete: bool = True) -> ScoreInput:
    """Parse one JSON object into a :class:`ScoreInput` (raises :class:`MahjongError` with ``field``).
    ``complete``: the hand holds its winning tile (``score``) or is one tile short (``waits``)."""
    if not isinstance(obj, dict):
        raise InputError("the input must be a JSON object (or a list of objects for several winners)")
    for key in obj:
        if key not in _TOP_FIELDS:
            raise InputError(f"unknown field '{key}'; known fields: {', '.join(sorted(_TOP_FIELDS))}", field=key)
    variant = _field(obj, "variant", str, "")
    get_variant(variant)
    options = _field(obj, "options", dict, "", {})
    winner = parse_seat(_field(obj, "winner", str, ""), field="winner")
    round_wind = parse_seat(_field(obj, "round_wind", str, "", "E"), field="round_wind")
    win = _parse_win(_field(obj, "win", dict, "", {}), winner)
    hand = _parse_hand(_field(obj, "hand", dict, ""), winner, complete=complete)
    indicators = _parse_indicators(_field(obj, "indicators", dict, "", {}))
    context = _parse_context(_field(obj, "context", dict, "", {}))
    return ScoreInput(variant, winner, hand, win, round_wind, indicators, context, options)


def _parse_win(win_obj: dict, winner: Seat) -> WinInfo:
    """``win``: self-draw or discard (a discard names its seat, never the winner's), and the
    win flags; a robbed kong is a discard win, ``double_kong`` needs ``after_kong``."""
    by = _field(win_obj, "by", str, "win.", "self_draw")
    if by not in ("self_draw", "discard"):
        raise InputError(f"field 'win.by' must be 'self_draw' or 'discard', got {by!r}", field="win.by")
    from_raw = _field(win_obj, "from", str, "win.", None)
    from_seat = parse_seat(from_raw, field="win.from") if from_raw is not None else None
    known_win = {"by", "from", *_WIN_FLAGS}
    for key in win_obj:
        if key not in known_win:
            raise InputError(f"unknown field 'win.{key}'; known: {', '.join(sorted(known_win))}", field=f"win.{key}")
    flags = {k: _field(win_obj, k, bool, "win.", False) for k in _WIN_FLAGS}
    if flags["double_kong"] and not flags["after_kong"]:
        raise InputError("'win.double_kong' (two kongs back to back) needs 'win.after_kong'", field="win.double_kong")
    if by == "discard" and from_seat is None:
        raise InputError(
            "a win by discard needs 'win.from': the seat that discarded (or whose kong was robbed)", field="win.from"
        )
    if from_seat == winner:
        raise InputError("'win.from' cannot be the winner's own seat", field="win.from")
    if by == "self_draw" and flags["robbed_kong"]:
        raise InputError(
            "robbing a kong is a win on another player's tile: set 'win.by' to 'discard'", field="win.robbed_kong"
        )
    if by == "self_draw":
        from_seat = None
    return WinInfo(by, from_seat, **flags)  # type: ignore[arg-type]  # by: checked above


def _parse_hand(hand_obj: dict, winner: Seat, *, complete: bool) -> Hand:
    """``hand``: the concealed tiles, the declared melds, the flowers set aside and the winning
    tile (required to score, refused for ``waits``)."""
    concealed = _tiles(_field(hand_obj, "concealed", str, "hand."), "hand.concealed")
    melds = [
        _parse_meld(m, f"hand.melds[{i}]", winner) for i, m in enumerate(_field(hand_obj, "melds", list, "hand.", []))
    ]
    flowers = _tiles(_field(hand_obj, "flowers", str, "hand.", ""), "hand.flowers")
    winning = None
    if complete:
        winning = _tile(_field(hand_obj, "winning_tile", str, "hand."), "hand.winning_tile")
    elif "winning_tile" in hand_obj and hand_obj["winning_tile"] is not None:
        raise InputError("'waits' takes a hand one tile short, without 'winning_tile'", field="hand.winning_tile")
    return Hand(tuple(concealed), tuple(melds), tuple(flowers), winning)


def _parse_meld(m: Any, where: str, winner: Seat) -> Meld:
    """One declared meld at ``where``: a claimed meld names the seat it came from, never the winner's."""
    path = f"{where}."
    if not isinstance(m, dict):
        raise InputError(f"'{where}' must be an object with type, tiles and from", field=where)
    try:
        meld = Meld.parse(
            _field(m, "type", str, path), _field(m, "tiles", str, path), _field(m, "from", str, path, None)
        )
    except MahjongError as err:
        err.field = f"{path}{err.field}" if err.field and not err.field.startswith("hand.") else (err.field or where)
        raise
    if meld.kind.value != "concealed_kong" and meld.from_seat is None:
        raise InputError(f"a claimed {meld.kind.value} needs 'from': the seat it was claimed from", field=f"{path}from")
    if meld.from_seat == winner:
        raise InputError("a meld cannot be claimed from its owner's own seat", field=f"{path}from")
    return meld


def _parse_indicators(ind_obj: dict) -> Indicators:
    """``indicators``: Ningbo's Baida tile, Yuxi's bloom tiles, Nanning's fish tiles."""
    baida_raw = _field(ind_obj, "baida", str, "indicators.", None)
    bloom = [
        _tile(t, f"indicators.bloom[{i}]") for i, t in enumerate(_field(ind_obj, "bloom", list, "indicators.", []))
    ]
    fish = [_tile(t, f"indicators.fish[{i}]") for i, t in enumerate(_field(ind_obj, "fish", list, "indicators.", []))]
    return Indicators(_tile(baida_raw, "indicators.baida") if baida_raw else None, tuple(bloom), tuple(fish))


def _parse_context(ctx_obj: dict) -> TableContext:
    """``context``: the dealer's streak (never negative) and ``claims[a][b]``, the pungs/kongs
    seat ``a`` claimed from seat ``b`` this hand (whole numbers)."""
    streak = _field(ctx_obj, "dealer_streak", int, "context.", 0)
    if streak < 0:
        raise InputError("'context.dealer_streak' cannot be negative", field="context.dealer_streak")
    claims_raw = _field(ctx_obj, "claims", dict, "context.", {})
    claims: dict[Seat, dict[Seat, int]] = {}
    for claimer, row in claims_raw.items():
        c = parse_seat(claimer, field=f"context.claims.{claimer}")
        if not isinstance(row, dict):
            raise InputError("'context.claims' maps a seat to {seat: count}", field=f"context.claims.{claimer}")
        claims[c] = {}
        for victim, count in row.items():
            v = parse_seat(victim, field=f"context.claims.{claimer}.{victim}")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise InputError("claim counts must be whole numbers ≥ 0", field=f"context.claims.{claimer}.{victim}")
            claims[c][v] = count
    return TableContext(streak, claims)


def _error(err: MahjongError) -> dict:
    """The error shape; ``kind`` is ``refused`` (the rules do not pay) or ``invalid`` (bad input)."""
    return {"ok": False, "error": err.to_dict() | {"kind": "refused" if isinstance(err, Refusal) else "invalid"}}


def _prepare(obj: Any, *, complete: bool):
    inp = parse_input(obj, complete=complete)
    variant = get_variant(inp.variant)
    opts = resolve_options(variant.options, inp.options)
    wild = variant.wild_spec(inp, opts)
    inp.hand.validate(
        variant.tileset, complete=complete, wild_kinds=wild.kinds, extra_visible=variant.visible_tiles(inp)
    )
    return inp, variant, opts, wild


def score(payload: Any) -> dict:
    """Score one winner (an object) or several winners on one discard (a list). Never raises."""
    try:
        if isinstance(payload, list):
            return _score_many(payload)
        inp, variant, opts, _wild = _prepare(payload, complete=True)
        return _results([inp], [variant.score(inp, opts)])
    except MahjongError as err:
        return _error(err)


def _score_many(payload: list) -> dict:
    if not payload:
        raise InputError("an empty list: give one object per winner")
    prepared = []
    for i, obj in enumerate(payload):
        try:
            prepared.append(_prepare(obj, complete=True))
        except MahjongError as err:
            err.field = f"[{i}].{err.field}" if err.field else f"[{i}]"
            raise
    inputs = [p[0] for p in prepared]
    variant, opts = prepared[0][1], prepared[0][2]
    if len(inputs) > 1:
        if any(i.variant != inputs[0].variant for i in inputs):
            raise InputError("all winners of one discard must use the same variant", field="[1].variant")
        if any(i.win.by != "discard" for i in inputs):
            raise InputError(
                "several winners are only possible on one discard: every 'win.by' must be 'discard'", field="win.by"
            )
        if any(dict(i.options) != dict(inputs[0].options) for i in inputs):
            raise InputError(
                "all winners of one discard are scored at one table: give the same 'options' to each",
                field="[1].options",
            )
        if len({i.hand.winning_tile for i in inputs}) != 1:
            raise InputError(
                "several winners on one discard all win on that same tile: 'hand.winning_tile' differs",
                field="[1].hand.winning_tile",
            )
        if len({i.win.from_seat for i in inputs}) != 1:
            raise InputError("several winners must have won on the same discard ('win.from' differs)", field="win.from")
        if len({i.winner for i in inputs}) != len(inputs):
            raise InputError("each winner may appear only once", field="winner")
    return _results(inputs, variant.score_many(inputs, opts))


def _results(inputs: list[ScoreInput], results: list[ScoreResult]) -> dict:
    """The one output shape: each winner's result with its seat, and the payments summed."""
    return {
        "ok": True,
        "results": [r.to_dict() | {"winner": i.winner} for r, i in zip(results, inputs)],
        "payments": add_payments(*(r.payments for r in results)),
    }


def waits(payload: Any) -> dict:
    """The tiles that complete a hand one tile short (``winning_tile`` absent). Never raises."""
    try:
        inp, variant, opts, wild = _prepare(payload, complete=False)
        tiles = variant.winning_tiles(inp, opts)
        out = {"ok": True, "waits": [tile_str(t) for t in tiles], "notation": format_tiles(tiles)}
        out.update(variant.waits_extras(inp, opts, tiles))
        return out
    except MahjongError as err:
        return _error(err)


def exit_code(result: dict) -> int:
    """0 for a paid win or a waits answer, 1 for a refusal, 2 for malformed input."""
    if result.get("ok"):
        return 0
    return 1 if result.get("error", {}).get("kind") == "refused" else 2


def describe_variants() -> list[dict]:
    """Each rule set's name, titles, tile count and documented options (for the companion)."""
    from .rules import VARIANT_NAMES

    return [get_variant(n).describe() for n in VARIANT_NAMES]


__all__ = ["score", "waits", "exit_code", "parse_input", "describe_variants", "InputError", "SEATS"]
