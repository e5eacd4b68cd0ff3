"""Ningxia Waterslide (宁夏滑水麻将): flat payouts, "no fault, no loss".

The rule text (``../shared/rules/ningxia-waterslide.txt``, beside the repository) pays a fixed amount per hand kind,
"What You Pay Is What You See", with no formula:

=================== ============================== ==============
hand                on self-draw (each other pays) on discard
=================== ============================== ==============
standard win        2 (total 6)                    3
seven pairs         6 (total 18)                   9
dragon seven pairs  10 (total 30)                  15
=================== ============================== ==============

"If you self-draw, everyone else pays. If you discard, you pay." A dragon seven pairs is seven
pairs with a four of a kind counted as two pairs (:attr:`Decomposition.quads`); when a hand
reads several ways the best-paying reading is paid. Several winners on one discard are each paid
in full by the discarder ("One Discard, Three Wins: 9 total, 3 points to each winner").

Kongs pay as they are declared: concealed 2 from each other player, exposed 3 from the
discarder, added 1 from each other player.

The winner of a hand deals the next; after a draw the dealer deals again (several winners on one
discard: the dealer if among them, else the winner nearest in turn after the discarder).

``ScoreResult.value`` is the total the winner collects; each item's value is what one payer pays.
See ``docs/rules/ningxia.md`` for every sentence of the text and the readings chosen.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ...decompose import NO_WILDS, Decomposition, Form, WildSpec, decompose
from ...errors import TileSetError
from ...melds import MeldKind
from ...seats import SEATS, Seat
from ...tiles import RED, is_honour, tile_str
from ...tilesets import STANDARD_136
from ..base import (
    NotAWin,
    OptionError,
    Scored,
    ScoreInput,
    ScoreResult,
    Variant,
    best_of,
    everyone_pays,
    no_payments,
    pay,
    refuse_claimed_chows,
)
from .errors import NingxiaInputError, SevenPairsNotAllowed
from .options import OPTIONS
from .patterns import PATTERNS, NingxiaContext

# Kong payments as declared: (kind, amount, who pays).
CONCEALED_KONG_EACH = 2
EXPOSED_KONG_FROM_DISCARDER = 3
ADDED_KONG_EACH = 1


# --------------------------------------------------------------------------- the variant


class Ningxia(Variant):
    """Ningxia Waterslide: flat self-draw / discard amounts, kong payments, winner deals next."""

    name = "ningxia"
    title = "Ningxia Waterslide"
    title_zh = "宁夏滑水麻将"
    tileset = STANDARD_136
    options = OPTIONS

    def wild_spec(self, inp: ScoreInput, opts: Mapping[str, Any]) -> WildSpec:
        """Red dragons are wild only under ``red_dragon_wild`` (which needs ``honours``)."""
        if not opts["red_dragon_wild"]:
            return NO_WILDS
        if not opts["honours"]:
            raise OptionError(
                "option 'red_dragon_wild' needs 'honours': without honours there is no Red dragon",
                field="options.red_dragon_wild",
            )
        return WildSpec(frozenset({RED}))

    def winning_forms(self, opts: Mapping[str, Any]) -> tuple[Form, ...]:
        """Four sets and a pair, and seven pairs unless the table turned them off."""
        return self._forms(opts)

    def winning_tiles(self, inp: ScoreInput, opts: Mapping[str, Any]) -> list[int]:
        """Tiles that win under this rule set (no honours when the table plays without them)."""
        self._check(inp, opts)
        return [t for t in super().winning_tiles(inp, opts) if opts["honours"] or not is_honour(t)]

    def _forms(self, opts: Mapping[str, Any]) -> tuple[Form, ...]:
        return ("standard", "seven_pairs") if opts["seven_pairs"] else ("standard",)

    def _readings(self, concealed: Sequence[int], inp: ScoreInput, opts: Mapping[str, Any]) -> list[Decomposition]:
        return decompose(concealed, inp.hand.melds, wilds=self.wild_spec(inp, opts), forms=self._forms(opts))

    def tile_kinds(self, opts: Mapping[str, Any]) -> list[int]:
        """The 136 tiles' kinds; without ``honours`` only the three suits (the 108-tile game)."""
        return [k for k in super().tile_kinds(opts) if opts["honours"] or not is_honour(k)]

    def _check(self, inp: ScoreInput, opts: Mapping[str, Any]) -> None:
        if not opts["honours"]:
            for tile in inp.hand.all_tiles():
                if is_honour(tile):
                    raise TileSetError(
                        f"{tile_str(tile)} is an honour and this table plays without honours (option 'honours' "
                        "is false); check the photo or the option",
                        field="hand.concealed" if tile in inp.hand.concealed else "hand.melds",
                    )
        rule = "a Ningxia Waterslide discard is called only for a pung, a kong or the win"
        refuse_claimed_chows(inp, opts["claimed_chows"], rule, "claimed_chows")

    def score(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """Pay the best row of the flat table the hand reads as."""
        self._check(inp, opts)
        readings = self._readings(inp.hand.concealed, inp, opts)
        if not readings:
            if not opts["seven_pairs"] and decompose(
                inp.hand.concealed, inp.hand.melds, wilds=self.wild_spec(inp, opts), forms=("seven_pairs",)
            ):
                raise SevenPairsNotAllowed("seven pairs does not win at this table (option 'seven_pairs' is false)")
            raise NotAWin("not a winning hand: Ningxia Waterslide needs four sets and a pair, or seven pairs")
        self_draw = inp.win.self_draw

        def rows(d: Decomposition) -> Iterator[Scored[NingxiaContext]]:
            """Every row of the table reading ``d`` meets, worth what one payer pays."""
            ctx = NingxiaContext(d, self_draw)
            for pattern in PATTERNS:
                if pattern.is_condition_met(ctx):
                    yield Scored(pattern.value_for(ctx), (pattern.item(ctx),), d, ctx)

        best = best_of(readings, rows)
        assert best is not None  # every reading is standard or seven pairs
        amount = best.value
        if self_draw:
            payments = everyone_pays(inp.winner, amount)
        else:
            assert inp.win.from_seat is not None
            payments = pay(inp.winner, {inp.win.from_seat: amount})
        return ScoreResult(
            value=payments[inp.winner],
            items=list(best.items),
            payments=payments,
            decomposition=str(best.decomposition),
        )

    def kong_payments(
        self, kind: MeldKind, declarer: Seat, from_seat: Seat | None, opts: Mapping[str, Any]
    ) -> dict[Seat, int]:
        """Concealed kong: 2 from each other player; exposed kong: 3 from the discarder; added kong:
        1 from each other player."""
        if kind == MeldKind.CONCEALED_KONG:
            return everyone_pays(declarer, CONCEALED_KONG_EACH)
        if kind == MeldKind.ADDED_KONG:
            return everyone_pays(declarer, ADDED_KONG_EACH)
        if kind == MeldKind.KONG:
            if from_seat is None or from_seat == declarer:
                raise NingxiaInputError(
                    "an exposed kong is paid by the discarder: give 'from', the seat it was "
                    "claimed from (not the declarer)",
                    field="from",
                )
            return pay(declarer, {from_seat: EXPOSED_KONG_FROM_DISCARDER})
        return no_payments()

    def next_dealer(
        self,
        winners: Sequence[Seat],
        drawn: bool,
        opts: Mapping[str, Any],
        *,
        discarder: Seat | None = None,
        last_drawer: Seat | None = None,
    ) -> Seat:
        """A draw keeps the dealer. Under 'winner' the winner deals next; with several winners on
        one discard the dealer keeps the deal if among them, otherwise the winner nearest in turn
        after ``discarder`` deals (the first listed when it is not given). Under 'next_seat' the
        dealer keeps the deal only by winning. ``last_drawer`` plays no part in Ningxia."""
        if drawn:
            return "E"
        if not winners:
            raise NingxiaInputError("a hand that was not drawn needs at least one winner", field="winners")
        if "E" in winners:
            return "E"
        if opts["dealer_rotation"] == "next_seat":
            return "S"
        if discarder is not None and discarder not in winners:
            return min(winners, key=lambda w: (SEATS.index(w) - SEATS.index(discarder) - 1) % 4)
        return winners[0]


VARIANT = Ningxia()
