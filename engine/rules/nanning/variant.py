"""Nanning Lucky Catch (南宁麻将), 136 tiles, no flowers.

What is implemented (the sentence-by-sentence trace is in ``docs/rules/nanning.md``):

* **Winning hand**: four sets and a pair, seven pairs or thirteen orphans. Only pungs and kongs are
  claimed from discards (the guide's "Calling Tiles" names no chow): a declared chow is bad input
  ``chow_claim_not_allowed`` (a refusal, exit 1, field ``hand.melds[i]``, as in every rule set)
  unless ``allow_chow``.
* **Payout table** (:mod:`engine.rules.nanning.patterns`): each row gives what each opponent pays
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

from collections.abc import Mapping, Sequence
from typing import Any

from ...decompose import Decomposition, decompose
from ...errors import MeldError
from ...melds import MeldKind
from ...seats import SEATS, Seat, others
from ...tiles import Tile
from ...tilesets import STANDARD_136
from ..base import (
    BelowMinimum,
    Multiplier,
    NotAWin,
    Refusal,
    Scored,
    ScoreInput,
    ScoreResult,
    Sealed,
    Variant,
    best_of,
    everyone_pays,
    pay,
    refuse_claimed_chows,
)
from .errors import NanningInputError
from .fishing import Fish, go_fishing
from .options import OPTIONS, payout_table
from .patterns import PATTERNS, HandContext, NanningPattern

# --------------------------------------------------------------------------- the rule set


class Nanning(Variant):
    """Nanning Lucky Catch: payout table, 9-point minimum, fishing, sealing, immediate kong pay."""

    name = "nanning"
    title = "Nanning Lucky Catch"
    title_zh = "南宁麻将"
    tileset = STANDARD_136
    options = OPTIONS
    indicator = "fish"

    # ----------------------------------------------------------------- hand value

    def value_hand(
        self, inp: ScoreInput, d: Decomposition, table: Mapping[str, Mapping[str, int]], opts: Mapping[str, Any]
    ) -> Scored[HandContext]:
        """Rows that apply to decomposition ``d`` and the per-payer value under ``combine``; under
        ``highest`` the other non-plain rows that apply are kept as ``unpaid``."""
        ctx = HandContext(inp, d, table)
        met: list[NanningPattern] = [p for p in PATTERNS if p.is_condition_met(ctx)]
        special = [p for p in met if not p.plain]
        if opts["combine"] == "add":
            items = tuple(p.item(ctx) for p in (special or met))
            return Scored(int(sum(i.value for i in items)), items, d, ctx)
        ranked = sorted(met, key=lambda p: -p.value_for(ctx))  # stable: table order breaks ties
        best = ranked[0]
        unpaid = tuple(p.item(ctx) for p in ranked[1:] if not p.plain)
        return Scored(best.value_for(ctx), (best.item(ctx),), d, ctx, unpaid=unpaid)

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
                f"the winner claimed {claimed} pungs/kongs; a hand holds at most four", field="context.claims"
            )
        need = opts["seal_claims"]
        if need == 0:
            return []
        return [v for v in others(inp.winner) if inp.claims_between(inp.winner, v) >= need]

    # ----------------------------------------------------------------- scoring

    def check_melds(self, inp: ScoreInput, opts: Mapping[str, Any]) -> None:
        """A declared chow is bad input unless ``allow_chow`` (scoring and waits)."""
        refuse_claimed_chows(inp, opts["allow_chow"], "Nanning claims only pungs and kongs", "allow_chow")

    def check_input(self, inp: ScoreInput, opts: Mapping[str, Any]) -> None:
        """Reject what Nanning's rules make impossible (exit 2, naming the field): a declared chow
        (unless ``allow_chow``), a kong win (kong blossom) with no kong in the hand."""
        self.check_melds(inp, opts)
        if inp.win.after_kong and not any(m.is_kong for m in inp.hand.melds):
            raise NanningInputError(
                "a kong win (kong blossom) is on the replacement tile after declaring a kong, but the hand "
                "shows no kong: add the kong to 'hand.melds' or drop 'win.after_kong'",
                field="win.after_kong",
            )

    def score(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """Score one winner: the best table value, the minimum, fishing and sealing payments."""
        table = payout_table(opts)
        self.check_input(inp, opts)
        decompositions = decompose(list(inp.hand.concealed), inp.hand.melds)
        if not decompositions:
            raise NotAWin("the tiles do not form four sets and a pair, seven pairs or thirteen orphans")
        sealer = self.sealed_by(inp, inp.winner, opts)
        if sealer is not None:
            raise Sealed(
                f"{inp.winner} is sealed (封胡): {sealer} claimed {inp.claims_between(sealer, inp.winner)} "
                f"pungs/kongs from {inp.winner} this hand, so {inp.winner} cannot win it"
            )
        victims = self.sealed_victims(inp, opts)
        fish = go_fishing(inp, opts)

        best = best_of(decompositions, lambda d: (self.value_hand(inp, d, table, opts),))
        assert best is not None  # every decomposition has a row: the plain self-draw or discard row
        value = best.value
        normal_payers = others(inp.winner) if inp.win.self_draw else (inp.win.from_seat,)
        total = value * len(normal_payers)
        if total < opts["minimum"]:
            raise BelowMinimum(
                f"the hand collects {total} ({value} x {len(normal_payers)}), below the minimum of "
                f"{opts['minimum']}; a plain hand must be self-drawn"
            )

        amounts, multipliers, sealing = self.amounts(inp, value, fish, victims, opts)
        notes = [f"also applies, not added (combine: highest): {i.label} {i.value}" for i in best.unpaid]
        if inp.win.robbed_kong:
            notes.append(
                f"robbed kong: {inp.win.from_seat}'s kong never stands, so its kong payment is void (record none)"
            )
        extras: dict[str, Any] = {"fish": fish.to_dict(inp.winner)}
        if sealing:
            extras["sealing"] = sealing
        return ScoreResult(
            value, list(best.items), pay(inp.winner, amounts), multipliers, extras, str(best.decomposition), notes
        )

    def amounts(
        self, inp: ScoreInput, value: int, fish: Fish, victims: Sequence[Seat], opts: Mapping[str, Any]
    ) -> tuple[dict[Seat, int], list[Multiplier], dict[str, Any]]:
        """Who pays what: normal payment, or the sealed player's liability when the winner sealed
        one. Each share is ``value`` × the fish factor between the winner and the share's seat."""
        winner = inp.winner
        shares = {p: value * fish.factor(winner, p) for p in others(winner)}
        fish_mults = {
            p: Multiplier("lucky_catch", "Lucky catch (fish)", "钓鱼", fish.factor(winner, p), p)
            for p in others(winner)
            if fish.factor(winner, p) > 1
        }
        discarder = inp.win.from_seat
        assert inp.win.self_draw or discarder is not None
        if not victims:
            payers = list(others(winner)) if inp.win.self_draw or discarder is None else [discarder]
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
        assert discarder is not None
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
                raise NanningInputError(
                    "several winners of one discard win on the same tile: 'hand.winning_tile' differs",
                    field=f"[{i}].hand.winning_tile",
                )
            if inp.indicators.fish != inputs[0].indicators.fish:
                raise NanningInputError(
                    "every winner of one discard fishes the same wall tiles", field=f"[{i}].indicators.fish"
                )
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
            result
            if inp is taker
            else ScoreResult(0, [], {}, extras={"passed_over": True, "tile_goes_to": taker.winner}, notes=[note])
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

    def kong_payments(
        self, kind: MeldKind, declarer: Seat, from_seat: Seat | None, opts: Mapping[str, Any]
    ) -> dict[Seat, int]:
        """Concealed kong: all other players pay ``kong_points``; exposed kong: the discarder pays;
        added kong: the discarder of the pung's tile (``from_seat``) pays. Call it only once the kong
        stands: a robbed kong is void and pays nothing."""
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

    def next_dealer(
        self,
        winners: Sequence[Seat],
        drawn: bool,
        opts: Mapping[str, Any],
        *,
        discarder: Seat | None = None,
        last_drawer: Seat | None = None,
    ) -> Seat:
        """'If the current dealer wins the round, they retain their role… if another player wins,
        that player becomes the new dealer.' 'For multiple winners, the discarder becomes the next
        dealer.' 'If the game ends in a draw, the player who draws the last tile becomes the dealer.'

        ``discarder`` is needed with two winners (with three it is the fourth seat); ``last_drawer``
        with a drawn hand. Missing: ``bad_input``."""
        if drawn or not winners:
            if last_drawer is None:
                raise NanningInputError(
                    "a drawn Nanning hand passes the deal to the player who drew the last tile: give 'last_drawer'",
                    field="last_drawer",
                )
            return last_drawer
        if len(winners) == 1:
            return winners[0]
        if discarder is None:
            rest = [s for s in SEATS if s not in winners]
            if len(rest) != 1:
                raise NanningInputError(
                    "with several winners the discarder deals next: give 'discarder'", field="discarder"
                )
            discarder = rest[0]
        return discarder


VARIANT = Nanning()
