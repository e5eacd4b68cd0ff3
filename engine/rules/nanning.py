"""Nanning Lucky Catch (南宁麻将), 136 tiles, no flowers.

What is implemented (the sentence-by-sentence trace is in ``docs/rules/nanning.md``):

* **Winning hand**: four sets and a pair, seven pairs or thirteen orphans. Only pungs and kongs are
  claimed from discards (the guide's "Calling Tiles" names no chow): a declared chow is bad input
  ``chow_not_allowed`` (exit 2, field ``hand.melds[i]``) unless ``allow_chow``.
* **Payout table** (:mod:`engine.rules.nanning_patterns`): each row gives what each opponent pays
  on a self-draw or what the discarder pays. ``combine: "highest"`` (default) pays the best single
  row; ``"add"`` adds every row that applies (the plain rows only when nothing else does).
  ``values`` overrides cells of the table.
* **Minimum** ("9 points in standard Nanning Mahjong"): the total the winner collects under normal
  payment, before fishing — a plain self-draw collects 3 × 3 = 9, a plain discard win 2, so a plain
  hand must be self-drawn (平胡需自摸). ``minimum`` changes it; 0 turns it off.
* **Lucky-catch fishing** (钓鱼): up to three fish tiles (``indicators.fish``) each name a seat
  counted from the dealer (1 5 9 East Red → East, 2 6 South Green → South, 3 7 West White → West,
  4 8 North → North). Between the winner and each payer the amount doubles for every fish naming
  either of them. Only when the winner holds 9 or more tiles outside exposed melds (a concealed
  kong counts as four tiles in hand unless ``fish_concealed_kongs`` is off), and never on a
  last-tile win (no wall tiles remain).
* **Sealing** (封胡): a player who let the same player pung/kong ``seal_claims`` (3) times is
  sealed: cannot win (``Sealed``) and, when that claimer wins, pays everyone's share on a
  self-draw or kong blossom, double on its own discard, and its share beside the discarder on
  another player's discard.
* **Kongs** pay at once: concealed — every other player 1; exposed and added — the discarder 1.
  A robbed kong never stands, so its payment is never recorded; :meth:`score` never includes kong
  payments.
* **Several winners** on one discard are each paid by the discarder (``several_winners``; or only
  the nearest in turn after the discarder whose hand the rules pay).
* **Dealer**: the dealer keeps the deal on its own win, another single winner deals next; several
  winners — the discarder deals; a drawn hand — the player who drew the last tile deals.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..decompose import Decomposition, decompose
from ..errors import MahjongError, MeldError
from ..melds import MeldKind
from ..seats import SEATS, Seat, others
from ..tiles import Tile, format_tiles, is_suited, tile_str
from ..tilesets import STANDARD_136
from .base import (
    BelowMinimum,
    Multiplier,
    NotAWin,
    OptionError,
    OptionSpec,
    Refusal,
    ScoreInput,
    ScoreItem,
    ScoreResult,
    Sealed,
    Variant,
    everyone_pays,
    pay,
)
from .nanning_patterns import CELLS, DEFAULT_TABLE, PATTERNS, HandContext, NanningPattern

# --------------------------------------------------------------------------- fish tiles → seats

#: Honour tiles and the seat they name: winds their own seat, Red → East, Green → South, White → West.
_HONOUR_SEAT: dict[str, Seat] = {"1z": "E", "2z": "S", "3z": "W", "4z": "N", "7z": "E", "6z": "S", "5z": "W"}


def fish_seat(tile: Tile) -> Seat:
    """The seat a fish tile names, counted from the dealer: ranks 1 5 9 → East, 2 6 → South,
    3 7 → West, 4 8 → North; winds their seat; Red → East, Green → South, White → West."""
    if is_suited(tile):
        return SEATS[(tile % 9) % 4]
    return _HONOUR_SEAT[tile_str(tile)]


# --------------------------------------------------------------------------- refusals and errors


class ChowNotAllowed(MahjongError):
    """A declared chow: Nanning claims only pungs and kongs (unless ``allow_chow``). Play the rules
    forbid, so bad input (exit 2) naming the meld — the same code as Ningbo's ``claimed_chows``."""

    code = "chow_not_allowed"


class NanningInputError(MahjongError):
    """Input that cannot describe a Nanning hand (too many fish tiles, winners that disagree on
    the fish, a kong win without a kong, a drawn hand without its last drawer). Exit status 2 in
    the contract."""

    code = "bad_input"


# --------------------------------------------------------------------------- options

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("minimum", 9,
               "Minimum a win must collect in total under normal payment, before fishing and sealing "
               "(the guide's '9 points'; a plain self-draw collects 3 x 3 = 9, a plain discard win 2). "
               "0 turns the minimum off."),
    OptionSpec("combine", "highest",
               "How table rows combine: 'highest' pays the single best row; 'add' adds every row that "
               "applies (the plain self-draw / discard rows only when no other row does).",
               ("highest", "add")),
    OptionSpec("values", {},
               "Overrides of the payout table: {row: {'self_draw': n, 'discard': n}}; a cell added to a "
               "row makes the row pay on that win type. Rows: " + ", ".join(p.name for p in PATTERNS) + "."),
    OptionSpec("allow_chow", False,
               "Allow declared chows (the guide only lets pungs and kongs be claimed)."),
    OptionSpec("seal_claims", 3,
               "Pungs/kongs one player must claim from the same player to seal that player (封胡): 3 per "
               "the guide, 4 at some tables (四笔封胡); 0 turns sealing off.",
               (0, 3, 4)),
    OptionSpec("sealed_self_draw", "shares",
               "On the sealing player's self-draw the sealed player pays everyone's share: 'shares' — "
               "each share with its own seat's fish factor; 'own' — three times its own share.",
               ("shares", "own")),
    OptionSpec("fish_min_tiles", 9,
               "Fishing happens only when the winner holds at least this many tiles outside exposed "
               "melds (winning tile included)."),
    OptionSpec("fish_concealed_kongs", True,
               "Count a concealed kong as four tiles in hand for the fishing threshold (it is not an "
               "exposed meld)."),
    OptionSpec("max_fish", 3,
               "Most fish tiles flipped (the guide: the last three wall tiles, fewer if fewer remain)."),
    OptionSpec("several_winners", "all",
               "Several players win on one discard: 'all' — each is paid by the discarder (the guide's "
               "'For multiple winners' note); 'nearest' — the tile goes only to the winner nearest in turn "
               "after the discarder (the guide's FAQ), the others are paid nothing.",
               ("all", "nearest")),
    OptionSpec("kong_points", 1,
               "Immediate kong payment: concealed — each other player pays this; exposed and added — "
               "the discarder pays this."),
)


def payout_table(opts: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The guide's table with ``values`` overrides applied (raises :class:`OptionError`)."""
    table = {row: dict(cells) for row, cells in DEFAULT_TABLE.items()}
    for row, cells in opts["values"].items():
        where = f"options.values.{row}"
        if row not in table:
            raise OptionError(f"unknown payout row '{row}'; rows: {', '.join(table)}", field=where)
        if not isinstance(cells, dict):
            raise OptionError(f"'{where}' must map 'self_draw' / 'discard' to points", field=where)
        for cell, points in cells.items():
            if cell not in CELLS:
                raise OptionError(f"'{where}' cells are 'self_draw' and 'discard', got {cell!r}",
                                  field=f"{where}.{cell}")
            if not isinstance(points, int) or isinstance(points, bool) or points < 0:
                raise OptionError(f"'{where}.{cell}' must be a whole number >= 0, got {points!r}",
                                  field=f"{where}.{cell}")
            table[row][cell] = points
    return table


def _check_numbers(opts: Mapping[str, Any]) -> None:
    for name in ("minimum", "fish_min_tiles", "max_fish", "kong_points"):
        if opts[name] < 0:
            raise OptionError(f"option '{name}' cannot be negative", field=f"options.{name}")


# --------------------------------------------------------------------------- fishing


@dataclass(frozen=True)
class Fish:
    """The lucky catch of one win: the tiles, whether fishing happens, and each seat's catches."""

    tiles: tuple[Tile, ...]
    eligible: bool
    in_hand: int
    catches: dict[Seat, int]
    reason: str

    def factor(self, winner: Seat, payer: Seat) -> int:
        """×2 for every fish naming the winner or the payer."""
        return 2 ** (self.catches[winner] + self.catches[payer]) if self.eligible else 1

    def to_dict(self, winner: Seat) -> dict:
        """The ``fish`` output: ``factor[p]`` is the multiplier between the winner and seat ``p``;
        the winner's own entry is its own catches' factor."""
        matches = [{"tile": tile_str(t), "seat": fish_seat(t)} for t in self.tiles] if self.eligible else []
        return {
            "tiles": [tile_str(t) for t in self.tiles],
            "matches": matches,
            "factor": {s: (2 ** self.catches[s] if self.eligible else 1) if s == winner else self.factor(winner, s)
                       for s in SEATS},
            "eligible": self.eligible,
            "tiles_in_hand": self.in_hand,
            "reason": self.reason,
        }


def tiles_in_hand(inp: ScoreInput, opts: Mapping[str, Any]) -> int:
    """Tiles the winner holds outside exposed melds: the concealed tiles (winning tile included)
    plus four per concealed kong when ``fish_concealed_kongs``."""
    kongs = sum(1 for m in inp.hand.melds if m.kind == MeldKind.CONCEALED_KONG)
    return len(inp.hand.concealed) + (4 * kongs if opts["fish_concealed_kongs"] else 0)


def go_fishing(inp: ScoreInput, opts: Mapping[str, Any]) -> Fish:
    """Decide whether fishing happens and count the catches per seat."""
    tiles = inp.indicators.fish
    if len(tiles) > opts["max_fish"]:
        raise NanningInputError(
            f"{len(tiles)} fish tiles given; at most {opts['max_fish']} are flipped", field="indicators.fish")
    held = tiles_in_hand(inp, opts)
    catches = {s: 0 for s in SEATS}
    if inp.win.last_tile:
        return Fish(tiles, False, held, catches, "last tile: no wall tiles remain to flip")
    if held < opts["fish_min_tiles"]:
        return Fish(tiles, False, held, catches,
                    f"the winner holds {held} tiles outside exposed melds (fewer than {opts['fish_min_tiles']})")
    for tile in tiles:
        catches[fish_seat(tile)] += 1
    reason = "no fish tiles flipped" if not tiles else f"the winner holds {held} tiles outside exposed melds"
    return Fish(tiles, True, held, catches, reason)


# --------------------------------------------------------------------------- the rule set


@dataclass(frozen=True)
class Valuation:
    """The rows paid for one decomposition, the other non-plain rows that apply but are not paid
    (``combine: "highest"``), and the per-payer value."""

    decomposition: Decomposition
    items: list[ScoreItem]
    unpaid: list[ScoreItem]
    value: int


class Nanning(Variant):
    """Nanning Lucky Catch: payout table, 9-point minimum, fishing, sealing, immediate kong pay."""

    name = "nanning"
    title = "Nanning Lucky Catch"
    title_zh = "南宁麻将"
    tileset = STANDARD_136
    options = OPTIONS
    indicator = "fish"

    # ----------------------------------------------------------------- hand value

    def value_hand(self, inp: ScoreInput, d: Decomposition, table: Mapping[str, Mapping[str, int]],
                   opts: Mapping[str, Any]) -> Valuation:
        """Rows that apply to decomposition ``d`` and the per-payer value under ``combine``."""
        ctx = HandContext(inp, d, table)
        met: list[NanningPattern] = [p for p in PATTERNS if p.is_condition_met(ctx)]
        special = [p for p in met if not p.plain]
        if opts["combine"] == "add":
            items = [p.item(ctx) for p in (special or met)]
            return Valuation(d, items, [], int(sum(i.value for i in items)))
        ranked = sorted(met, key=lambda p: -p.value_for(ctx))  # stable: table order breaks ties
        best = ranked[0]
        unpaid = [p.item(ctx) for p in ranked[1:] if not p.plain]
        return Valuation(d, [best.item(ctx)], unpaid, best.value_for(ctx))

    # ----------------------------------------------------------------- sealing

    def sealed_by(self, inp: ScoreInput, victim: Seat, opts: Mapping[str, Any]) -> Seat | None:
        """The player who sealed ``victim`` (claimed ``seal_claims`` pungs/kongs from it), if any."""
        need = opts["seal_claims"]
        if need == 0:
            return None
        sealers = [c for c in others(victim) if inp.claims_between(c, victim) >= need]
        return sealers[0] if sealers else None

    def sealed_victims(self, inp: ScoreInput, opts: Mapping[str, Any]) -> list[Seat]:
        """The players the winner has sealed. A player claims at most four pungs/kongs a hand."""
        claimed = sum(inp.claims_between(inp.winner, v) for v in others(inp.winner))
        if claimed > 4:
            raise NanningInputError(
                f"the winner claimed {claimed} pungs/kongs; a hand holds at most four", field="context.claims")
        need = opts["seal_claims"]
        if need == 0:
            return []
        return [v for v in others(inp.winner) if inp.claims_between(inp.winner, v) >= need]

    # ----------------------------------------------------------------- scoring

    def check_melds(self, inp: ScoreInput, opts: Mapping[str, Any]) -> None:
        """A declared chow is bad input unless ``allow_chow`` (scoring and waits)."""
        for i, meld in enumerate(inp.hand.melds):
            if meld.kind == MeldKind.CHOW and not opts["allow_chow"]:
                raise ChowNotAllowed(
                    f"declared chow {format_tiles(meld.tiles)}: Nanning claims only pungs and kongs "
                    "(set option 'allow_chow' if this table allows chows)", field=f"hand.melds[{i}]")

    def check_input(self, inp: ScoreInput, opts: Mapping[str, Any]) -> None:
        """Reject what Nanning's rules make impossible (exit 2, naming the field): a declared chow
        (unless ``allow_chow``), a kong win (kong blossom) with no kong in the hand."""
        self.check_melds(inp, opts)
        if inp.win.after_kong and not any(m.is_kong for m in inp.hand.melds):
            raise NanningInputError(
                "a kong win (kong blossom) is on the replacement tile after declaring a kong, but the hand "
                "shows no kong: add the kong to 'hand.melds' or drop 'win.after_kong'", field="win.after_kong")

    def score(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """Score one winner: the best table value, the minimum, fishing and sealing payments."""
        _check_numbers(opts)
        table = payout_table(opts)
        self.check_input(inp, opts)
        decompositions = decompose(list(inp.hand.concealed), inp.hand.melds)
        if not decompositions:
            raise NotAWin("the tiles do not form four sets and a pair, seven pairs or thirteen orphans")
        sealer = self.sealed_by(inp, inp.winner, opts)
        if sealer is not None:
            raise Sealed(
                f"{inp.winner} is sealed (封胡): {sealer} claimed {inp.claims_between(sealer, inp.winner)} "
                f"pungs/kongs from {inp.winner} this hand, so {inp.winner} cannot win it")
        victims = self.sealed_victims(inp, opts)
        fish = go_fishing(inp, opts)

        best = max((self.value_hand(inp, d, table, opts) for d in decompositions), key=lambda v: v.value)
        value = best.value
        normal_payers = others(inp.winner) if inp.win.self_draw else (inp.win.from_seat,)
        total = value * len(normal_payers)
        if total < opts["minimum"]:
            raise BelowMinimum(
                f"the hand collects {total} ({value} x {len(normal_payers)}), below the minimum of "
                f"{opts['minimum']}; a plain hand must be self-drawn")

        amounts, multipliers, sealing = self.amounts(inp, value, fish, victims, opts)
        notes = [f"also applies, not added (combine: highest): {i.label} {i.value}" for i in best.unpaid]
        if inp.win.robbed_kong:
            notes.append(f"robbed kong: {inp.win.from_seat}'s kong never stands, so its kong payment "
                         "is void (record none)")
        extras: dict[str, Any] = {"fish": fish.to_dict(inp.winner)}
        if sealing:
            extras["sealing"] = sealing
        return ScoreResult(value, best.items, pay(inp.winner, amounts), multipliers, extras,
                           str(best.decomposition), notes)

    def amounts(self, inp: ScoreInput, value: int, fish: Fish, victims: Sequence[Seat],
                opts: Mapping[str, Any]) -> tuple[dict[Seat, int], list[Multiplier], dict[str, Any]]:
        """Who pays what: normal payment, or the sealed player's liability when the winner sealed
        one. Each share is ``value`` × the fish factor between the winner and the share's seat."""
        winner = inp.winner
        shares = {p: value * fish.factor(winner, p) for p in others(winner)}
        fish_mults = {p: Multiplier("lucky_catch", "Lucky catch (fish)", "钓鱼", fish.factor(winner, p), p)
                      for p in others(winner) if fish.factor(winner, p) > 1}
        discarder = inp.win.from_seat
        if not victims:
            payers = list(others(winner)) if inp.win.self_draw else [discarder]
            return {p: shares[p] for p in payers}, [fish_mults[p] for p in payers if p in fish_mults], {}
        sealed = victims[0]
        info: dict[str, Any] = {"sealed": sealed, "claims": inp.claims_between(winner, sealed)}
        if inp.win.self_draw:
            if opts["sealed_self_draw"] == "shares":
                owed = sum(shares.values())
                mults = list(fish_mults.values())
            else:
                owed = 3 * shares[sealed]
                mults = [fish_mults[sealed]] if sealed in fish_mults else []
            info["case"] = "kong_blossom" if inp.win.after_kong else "self_draw"
            seal_mult = Multiplier("sealed_pays_all", "Sealed player pays everyone's share", "封胡包赔", 3, sealed)
            return {sealed: owed}, [*mults, seal_mult], info
        if discarder == sealed:
            info["case"] = "discard_by_sealed"
            seal_mult = Multiplier("sealed_pays_double", "Sealed player pays double", "封胡加倍", 2, sealed)
            mults = [fish_mults[sealed]] if sealed in fish_mults else []
            return {sealed: 2 * shares[sealed]}, [*mults, seal_mult], info
        info["case"] = "discard_by_other"
        payers = [discarder, sealed]
        return {p: shares[p] for p in payers}, [fish_mults[p] for p in payers if p in fish_mults], info

    def score_many(self, inputs: Sequence[ScoreInput], opts: Mapping[str, Any]) -> list[ScoreResult]:
        """Several winners on one discard. ``several_winners: "all"``: each is scored alone and paid
        by the discarder (with its own fish factors and sealing). ``"nearest"``: the tile goes to the
        winner nearest in turn after the discarder whose hand the rules pay (a refused hand — sealed,
        below the minimum — cannot take it); the others get an empty result with ``passed_over``,
        ``tile_goes_to`` and a note. Every winner won on the same tile and fishes the same wall tiles
        (else ``bad_input``)."""
        for i, inp in enumerate(inputs[1:], start=1):
            if inp.hand.winning_tile != inputs[0].hand.winning_tile:
                raise NanningInputError("several winners of one discard win on the same tile: "
                                        "'hand.winning_tile' differs", field=f"[{i}].hand.winning_tile")
            if inp.indicators.fish != inputs[0].indicators.fish:
                raise NanningInputError("every winner of one discard fishes the same wall tiles",
                                        field=f"[{i}].indicators.fish")
        if len(inputs) == 1:
            return [self.score(inputs[0], opts)]
        if opts["several_winners"] == "all":
            return [self.score_one_of_several(inp, opts) for inp in inputs]
        discarder = inputs[0].win.from_seat
        assert discarder is not None
        first_refusal: Refusal | None = None
        taker: ScoreInput | None = None
        result: ScoreResult | None = None
        for inp in sorted(inputs, key=lambda inp: others(discarder).index(inp.winner)):
            try:
                result = self.score_one_of_several(inp, opts)
            except Refusal as err:
                first_refusal = first_refusal or err
                continue
            taker = inp
            break
        if taker is None or result is None:
            assert first_refusal is not None
            raise first_refusal
        note = f"the discard goes to {taker.winner}, nearer in turn after {discarder} (several_winners: nearest)"
        return [
            result if inp is taker else ScoreResult(
                0, [], {}, extras={"passed_over": True, "tile_goes_to": taker.winner}, notes=[note])
            for inp in inputs
        ]

    def winning_tiles(self, inp: ScoreInput, opts: Mapping[str, Any]) -> list[Tile]:
        """The base answer (all three forms, fish tiles shown) for a hand whose melds Nanning allows."""
        self.check_melds(inp, opts)
        return super().winning_tiles(inp, opts)

    def visible_tiles(self, inp: ScoreInput) -> tuple[Tile, ...]:
        """The flipped fish tiles are physical tiles of the set: they count toward copy limits."""
        return inp.indicators.fish

    # ----------------------------------------------------------------- kongs and dealer

    def kong_payments(self, kind: MeldKind, declarer: Seat, from_seat: Seat | None,
                      opts: Mapping[str, Any]) -> dict[Seat, int]:
        """Concealed kong: all other players pay ``kong_points``; exposed kong: the discarder pays;
        added kong: the discarder of the pung's tile (``from_seat``) pays. Call it only once the kong
        stands: a robbed kong is void and pays nothing."""
        _check_numbers(opts)
        points = opts["kong_points"]
        if from_seat == declarer:
            raise MeldError("a kong's discarder must be another player's seat", field="from")
        if kind == MeldKind.CONCEALED_KONG:
            return everyone_pays(declarer, points)
        if kind in (MeldKind.KONG, MeldKind.ADDED_KONG):
            if from_seat is None:
                raise MeldError(f"an {kind.value} needs the seat that discarded its tile", field="from")
            return pay(declarer, {from_seat: points})
        raise MeldError(f"a {kind.value} is not a kong: it has no kong payment", field="type")

    def next_dealer(self, winners: Sequence[Seat], drawn: bool, opts: Mapping[str, Any], *,
                    discarder: Seat | None = None, last_drawer: Seat | None = None) -> Seat:
        """'If the current dealer wins the round, they retain their role… if another player wins,
        that player becomes the new dealer.' 'For multiple winners, the discarder becomes the next
        dealer.' 'If the game ends in a draw, the player who draws the last tile becomes the dealer.'

        ``discarder`` is needed with two winners (with three it is the fourth seat); ``last_drawer``
        with a drawn hand. Missing: ``bad_input``."""
        if drawn or not winners:
            if last_drawer is None:
                raise NanningInputError("a drawn Nanning hand passes the deal to the player who drew the "
                                        "last tile: give 'last_drawer'", field="last_drawer")
            return last_drawer
        if len(winners) == 1:
            return winners[0]
        if discarder is None:
            rest = [s for s in SEATS if s not in winners]
            if len(rest) != 1:
                raise NanningInputError("with several winners the discarder deals next: give 'discarder'",
                                        field="discarder")
            discarder = rest[0]
        return discarder


VARIANT = Nanning()
