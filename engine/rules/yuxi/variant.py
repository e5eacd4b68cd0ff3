"""Yuxi Flower Blooming Mahjong (玉溪麻将), from the beginner's guide in
``../shared/rules/yuxi-flower-blooming.txt``; every reading is traced in ``docs/rules/yuxi.md``.

The rules implemented here:

* 136 tiles, no flowers. A win is four sets and a pair, or seven pairs (no thirteen orphans).
* "Payout = Base Points × Hand Type Multiplier". The base is 1 by default (option
  ``base_points``). Each row of the payout table is a :class:`YuxiPattern` worth a multiplier
  (×2 … ×32). When several rows apply they multiply (option ``combine``: ``"largest"`` keeps only
  the largest). A hand with no row is a Basic Win (平胡) worth the base alone.
* "A Basic Win … can only be won via self-draw": a basic hand won on a discard is refused
  (:class:`NotAllowedOnDiscard`).
* Who pays: on a self-draw each of the three others pays the whole amount; on a discard (or a
  robbed kong) the discarder (the kong's declarer) alone pays it. Several winners on one discard
  each score alone and the discarder pays them all (option ``multiple_winners``: only the winner
  nearest in turn after the discarder, as the guide's FAQ has it).
* Facts of the hand that the photo cannot show come in ``win``: ``win.ten_old_men`` (Ten Old Men)
  and ``win.double_kong`` (Double Gang on Flower: the winning replacement tile came after two kongs
  declared back to back).
* Bloom tiles (two face-up tiles at the end of the wall, ``indicators.bloom``): after declaring a
  kong a player may take a bloom tile that completes the hand instead of drawing a replacement
  tile; that is a Flower Blooming (杠上花) win. It is entered as ``win.after_kong`` with a
  self-draw whose winning tile is the bloom tile. Bloom tiles still on the table count toward the
  four copies of their kind.
* Dealer: the dealer keeps the deal on a dealer win or a draw; otherwise the winner deals next
  (several winners on one discard: the one nearest in turn after the discarder).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...decompose import Form, decompose, is_winning
from ...melds import Meld, MeldKind
from ...seats import SEATS, Seat, others
from ...tiles import Tile, tile_str
from ...tilesets import STANDARD_136
from ..base import (
    Multiplier,
    NotAllowedOnDiscard,
    NotAWin,
    Refusal,
    Scored,
    ScoreInput,
    ScoreItem,
    ScoreResult,
    Variant,
    best_of,
    no_payments,
    pay,
)
from .errors import YuxiInputError
from .options import OPTIONS
from .patterns import BASIC_WIN, PATTERNS, YuxiContext

FORMS: tuple[Form, ...] = ("standard", "seven_pairs")
""""Four melds and one pair or seven pairs": thirteen orphans is not a Yuxi win."""

MAX_BLOOM_TILES = 2


# --------------------------------------------------------------------------- the variant


class YuxiVariant(Variant):
    """Yuxi Flower Blooming Mahjong: base points × hand multiplier, bloom tiles, winner deals."""

    name = "yuxi"
    title = "Yuxi Flower Blooming Mahjong"
    title_zh = "玉溪麻将"
    tileset = STANDARD_136
    options = OPTIONS
    indicator = "bloom"
    extra_win_flags = ("double_kong", "ten_old_men")

    # ----------------------------------------------------------------- scoring

    def score(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """Score one winner. Every decomposition is scored and the best paid; a hand whose every
        decomposition is a Basic Win (or, per ``basic_discard_lifted_by``, lacks a hand-shape row)
        is refused on a discard."""
        base = opts["base_points"]
        self._check_win(inp)
        decompositions = decompose(list(inp.hand.concealed), inp.hand.melds, forms=FORMS)
        if not decompositions:
            raise NotAWin("the tiles are not four sets and a pair, nor seven pairs (the only Yuxi wins)")
        best = best_of(
            decompositions,
            lambda d: self._evaluate(YuxiContext(inp, opts, d), base),
            key=lambda c: (c.value, len(c.items)),
        )
        if best is None:
            if opts["basic_discard_lifted_by"] == "hand_pattern":
                why = (
                    "a hand won on a discard needs All Triplets, Full Flush, a seven-pairs row or Four Great Blessings"
                )
            else:
                why = "a Basic Win (no row of the payout table) can only be won by self-draw"
            raise NotAllowedOnDiscard(why)

        if inp.win.self_draw:
            payments = pay(inp.winner, {s: best.value for s in others(inp.winner)})
        else:
            assert inp.win.from_seat is not None
            payments = pay(inp.winner, {inp.win.from_seat: best.value})
        return ScoreResult(
            value=best.value,
            items=[ScoreItem("base_points", "Base points", "底分", base), *best.items],
            payments=payments,
            multipliers=list(best.multipliers),
            extras={"bloom": self._bloom_extra(inp)},
            decomposition=str(best.decomposition),
            notes=self._notes(inp, opts),
        )

    def score_many(self, inputs: Sequence[ScoreInput], opts: Mapping[str, Any]) -> list[ScoreResult]:
        """ "If multiple players can claim the same discarded tile, all winning players score points
        independently, and the discarder pays all points." With ``multiple_winners="nearest_only"``
        the guide's FAQ wins instead: the tile goes to the winner nearest in turn after the
        discarder; the others get an empty result saying so.

        Scored independently: a winner the rules refuse (a Basic Win on the discard) gets its own
        refused result (:meth:`ScoreResult.refusal`, nothing paid) and the others are paid; only
        when every winner is refused is the whole call refused."""
        if len(inputs) < 2:
            return [self.score(inp, opts) for inp in inputs]
        if opts["multiple_winners"] == "all_score":
            return self._independently(inputs, opts)
        discarder = inputs[0].win.from_seat
        assert discarder is not None
        nearest = _nearest_after(discarder, [i.winner for i in inputs])
        out = []
        for inp in inputs:
            if inp.winner == nearest:
                out.append(self.score(inp, opts))
            else:
                out.append(
                    ScoreResult(
                        0,
                        [],
                        no_payments(),
                        extras={"bloom": self._bloom_extra(inp)},
                        notes=[
                            f"the discard goes to {nearest}, nearer in turn after {discarder} (option multiple_winners)"
                        ],
                    )
                )
        return out

    def _independently(self, inputs: Sequence[ScoreInput], opts: Mapping[str, Any]) -> list[ScoreResult]:
        results: list[ScoreResult] = []
        for inp in inputs:
            try:
                results.append(self.score_one_of_several(inp, opts))
            except Refusal as err:
                results.append(ScoreResult.refusal(err, {"bloom": self._bloom_extra(inp)}))
        refusals = [r.refused for r in results if r.refused is not None]
        if len(refusals) == len(results):
            raise refusals[0]
        return results

    @staticmethod
    def _evaluate(ctx: YuxiContext, base: int) -> tuple[Scored[YuxiContext], ...]:
        """One decomposition scored: the base times the multipliers of the rows met (all of them
        under ``combine: multiply``, the largest under ``largest``); no row is a Basic Win worth
        the base. On a discard a reading the rules do not let win there (a Basic Win, or under
        ``basic_discard_lifted_by = "hand_pattern"`` one without a hand-shape row) gives nothing."""
        matched = tuple(p for p in PATTERNS if p.is_condition_met(ctx))
        if not ctx.inp.win.self_draw:
            lifted_by = ctx.opts["basic_discard_lifted_by"]
            if not any(p.hand_shape or lifted_by == "any_pattern" for p in matched):
                return ()
        if not matched:
            return (Scored(base, (BASIC_WIN,), ctx.decomposition, ctx),)
        if ctx.opts["combine"] == "multiply":
            applied = matched
        else:
            applied = (max(matched, key=lambda p: p.value_for(ctx)),)
        factor = 1
        for p in applied:
            factor *= p.value_for(ctx)
        items = tuple(p.item(ctx) for p in matched)
        multipliers = tuple(Multiplier(p.name, p.label, p.label_zh, p.value_for(ctx)) for p in applied)
        return (Scored(base * factor, items, ctx.decomposition, ctx, multipliers),)

    @staticmethod
    def _check_win(inp: ScoreInput) -> None:
        """Reject win facts that contradict each other or the hand (exit 2, naming the field)."""
        win = inp.win
        kongs = sum(1 for m in inp.hand.melds if m.is_kong)
        if win.after_kong and win.robbed_kong:
            raise YuxiInputError(
                "a robbed kong is not a win after a kong: set only one of 'win.after_kong' and 'win.robbed_kong'",
                field="win.robbed_kong",
            )
        if win.after_kong and win.self_draw and kongs == 0:
            raise YuxiInputError(
                "a win on a kong's replacement (or bloom) tile needs that kong among 'hand.melds'",
                field="win.after_kong",
            )
        if win.double_kong and not (win.self_draw and kongs >= 2):
            raise YuxiInputError(
                "Double Gang on Flower ('win.double_kong') is a self-drawn win after two kongs "
                "declared back to back: it needs 'win.by' = 'self_draw' and two kongs among "
                "'hand.melds'",
                field="win.double_kong",
            )

    @staticmethod
    def _notes(inp: ScoreInput, opts: Mapping[str, Any]) -> list[str]:
        win = inp.win
        if not win.first_turn:
            return []
        if inp.is_dealer and not win.self_draw:
            return ["first_turn: the dealer's Heavenly Win is a self-draw on the starting hand; not counted"]
        if not inp.is_dealer and win.self_draw and not opts["earthly_self_draw"]:
            return [
                "first_turn: Earthly Win is a win on the dealer's first discard (option earthly_self_draw "
                "also counts a first self-draw); not counted"
            ]
        if not inp.is_dealer and not win.self_draw and (win.from_seat != "E" or win.robbed_kong):
            return ["first_turn: Earthly Win is a win on the dealer's first discard; not counted"]
        return []

    # ----------------------------------------------------------------- bloom tiles

    @staticmethod
    def _check_indicators(inp: ScoreInput) -> None:
        ind = inp.indicators
        if ind.baida is not None:
            raise YuxiInputError("Yuxi has no Baida indicator; leave out 'indicators.baida'", field="indicators.baida")
        if ind.fish:
            raise YuxiInputError("Yuxi has no fish tiles; leave out 'indicators.fish'", field="indicators.fish")
        if len(ind.bloom) > MAX_BLOOM_TILES:
            raise YuxiInputError(f"Yuxi shows two bloom tiles, got {len(ind.bloom)}", field="indicators.bloom")
        for i, tile in enumerate(ind.bloom):
            if not STANDARD_136.contains(tile):
                raise YuxiInputError(
                    f"bloom tile {tile_str(tile)} is not in the 136-tile set", field=f"indicators.bloom[{i}]"
                )

    @staticmethod
    def _bloom_used(inp: ScoreInput) -> Tile | None:
        """The bloom tile taken for this win: a self-drawn win after a kong whose winning tile is
        one of the bloom tiles (a replacement draw of the same kind pays the same)."""
        win, tile = inp.win, inp.hand.winning_tile
        if win.after_kong and win.self_draw and tile is not None and tile in inp.indicators.bloom:
            return tile
        return None

    def visible_tiles(self, inp: ScoreInput) -> tuple[Tile, ...]:
        """Bloom tiles still face up on the table (a bloom tile taken for the win is in the hand)."""
        self._check_indicators(inp)
        shown = list(inp.indicators.bloom)
        used = self._bloom_used(inp)
        if used is not None:
            shown.remove(used)
        return tuple(shown)

    def _bloom_extra(self, inp: ScoreInput) -> dict[str, Any]:
        """``tiles``: the bloom tiles; ``used``: the one taken for this win or ``None``;
        ``eligible``: the win came after a kong by self-draw and a bloom tile completes the hand."""
        bloom = inp.indicators.bloom
        used = self._bloom_used(inp)
        eligible = False
        if inp.win.after_kong and inp.win.self_draw and bloom:
            before = inp.hand.without_winning_tile()
            eligible = bool(_completing(before.concealed, before.melds, bloom))
        return {
            "tiles": [tile_str(t) for t in bloom],
            "used": tile_str(used) if used is not None else None,
            "eligible": eligible,
        }

    def winning_forms(self, opts: Mapping[str, Any]) -> tuple[Form, ...]:
        """Four sets and a pair, or seven pairs: thirteen orphans is not a Yuxi win."""
        return FORMS

    def waits_extras(self, inp: ScoreInput, opts: Mapping[str, Any], waits: list[Tile]) -> dict[str, Any]:
        """The bloom tiles that would complete this waiting hand if taken after a kong
        (:func:`_bloom_completes`): none for a hand that has no kong and cannot make one."""
        bloom = inp.indicators.bloom
        done = _bloom_completes(inp.hand.concealed, inp.hand.melds, bloom)
        return {"bloom": {"tiles": [tile_str(t) for t in bloom], "completes": [tile_str(t) for t in done]}}

    # ----------------------------------------------------------------- table events

    def kong_payments(
        self, kind: MeldKind, declarer: Seat, from_seat: Seat | None, opts: Mapping[str, Any]
    ) -> dict[Seat, int]:
        """The guide pays nothing for a kong itself: kongs only lead to Flower Bloom wins."""
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
        """ "If the dealer wins the round or if the round ends in a draw, the same player continues as
        the dealer … if another player wins, the winner becomes the new dealer." With no winner the
        deal stays, as in a draw. Several non-dealer winners on one discard: the one nearest in turn
        after ``discarder`` (the first listed when it is not given), or under
        ``multi_win_dealer = "nearest_after_dealer"`` the first in play order after East.
        ``last_drawer`` plays no part in Yuxi."""
        if drawn or not winners or "E" in winners:
            return "E"
        if opts["multi_win_dealer"] == "nearest_after_dealer":
            return _nearest_after("E", winners)
        if discarder is not None and discarder not in winners:
            return _nearest_after(discarder, winners)
        return winners[0]


def _nearest_after(seat: Seat, winners: Sequence[Seat]) -> Seat:
    """The winner first in play order after ``seat`` (the FAQ's "closer in turn")."""
    return min(winners, key=lambda w: (SEATS.index(w) - SEATS.index(seat) - 1) % 4)


def _bloom_completes(concealed: Sequence[Tile], melds: Sequence[Meld], bloom: Sequence[Tile]) -> list[Tile]:
    """The distinct bloom tiles a waiting hand can win with. A bloom tile is taken only instead of
    a kong's replacement tile, so only after a kong this hand has or can make:

    * a kong among its melds (the one just declared): the bloom tiles that complete the hand;
    * a pung among its melds (the fourth tile drawn makes an added kong; the shape stays): the same;
    * three of a kind in hand (the fourth, drawn or discarded, makes a kong): the bloom tiles that
      complete the rest of the hand with that kong.

    A hand holding all four copies of a kind declares its kong on a later turn, after a draw this
    answer cannot know; its bloom tiles are listed only through the cases above."""
    found: set[Tile] = set()
    if any(m.is_kong or m.kind == MeldKind.PUNG for m in melds):
        found.update(_completing(concealed, melds, bloom))
    for kind in sorted(set(concealed)):
        if list(concealed).count(kind) == 3:
            rest = [t for t in concealed if t != kind]
            kong = Meld(MeldKind.CONCEALED_KONG, (kind,) * 4)
            found.update(_completing(rest, [*melds, kong], bloom))
    return [t for t in dict.fromkeys(bloom) if t in found]


def _completing(concealed: Sequence[Tile], melds: Sequence[Meld], bloom: Sequence[Tile]) -> list[Tile]:
    """The distinct bloom tiles that complete ``concealed`` with ``melds`` into a Yuxi win."""
    out: list[Tile] = []
    for tile in bloom:
        if tile not in out and is_winning([*concealed, tile], melds, forms=FORMS):
            out.append(tile)
    return out


VARIANT = YuxiVariant()
