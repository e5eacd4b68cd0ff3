"""Yuxi Flower Blooming Mahjong (玉溪麻将), from the beginner's guide in
``shared/rules/yuxi-flower-blooming.txt``; every reading is traced in ``docs/rules/yuxi.md``.

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

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from ..decompose import Decomposition, Form, decompose, is_winning
from ..errors import MahjongError
from ..melds import Meld, MeldKind
from ..seats import SEATS, Seat, others
from ..tiles import WINDS, Tile, is_suited, suit_of, tile_str
from ..tilesets import STANDARD_136
from .base import (
    Multiplier,
    NotAllowedOnDiscard,
    NotAWin,
    OptionError,
    OptionSpec,
    Pattern,
    ScoreInput,
    ScoreItem,
    ScoreResult,
    Variant,
    no_payments,
    pay,
)

FORMS: tuple[Form, ...] = ("standard", "seven_pairs")
""""Four melds and one pair or seven pairs": thirteen orphans is not a Yuxi win."""

MAX_BLOOM_TILES = 2


class YuxiInputError(MahjongError):
    """Win facts that contradict each other or the hand (exit status 2, like any malformed input)."""

    code = "bad_input"


# --------------------------------------------------------------------------- the per-hand context


@dataclass(frozen=True)
class YuxiContext:
    """What the patterns read: the input, the resolved options and one decomposition."""

    inp: ScoreInput
    opts: Mapping[str, Any]
    decomposition: Decomposition

    @property
    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand, melds included (a kong as four)."""
        return self.inp.hand.all_tiles()

    @property
    def single_suit(self) -> bool:
        tiles = self.all_tiles
        return all(is_suited(t) for t in tiles) and len({suit_of(t) for t in tiles}) == 1

    @property
    def seven_pairs(self) -> bool:
        return self.decomposition.form == "seven_pairs"

    @property
    def quads(self) -> int:
        """Seven pairs only: kinds held four times (each counts as two pairs)."""
        return self.decomposition.quads

    @property
    def all_pungs(self) -> bool:
        d = self.decomposition
        return d.form == "standard" and all(g.is_pung_like for g in d.sets)

    @property
    def four_wind_sets(self) -> bool:
        d = self.decomposition
        return d.form == "standard" and {g.first for g in d.sets if g.is_pung_like} >= set(WINDS)


# --------------------------------------------------------------------------- the payout table


class YuxiPattern(Pattern[YuxiContext]):
    """One row of the payout table; ``value`` is its multiplier. ``hand_shape`` marks rows about
    the tiles themselves (rather than how or when the hand was won): with the option
    ``basic_discard_lifted_by="hand_pattern"`` only these let a hand be won on a discard."""

    hand_shape: ClassVar[bool] = False


class AllTriplets(YuxiPattern):
    """碰碰胡 ×2: four pungs or kongs and a pair. Four Great Blessings already is one and does not
    also score it unless ``blessings_with_triplets``."""

    name, value, label, label_zh, hand_shape = "all_triplets", 2, "All Triplets", "碰碰胡", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.all_pungs and (ctx.opts["blessings_with_triplets"] or not ctx.four_wind_sets)


class FullFlush(YuxiPattern):
    """清一色 ×2: every tile from one suit. Inside Pure Triple Dragon Seven Pairs it is not
    counted again (that row is worth its own ×32)."""

    name, value, label, label_zh, hand_shape = "full_flush", 2, "Full Flush", "清一色", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.single_suit and not (ctx.seven_pairs and ctx.quads == 3)


class SevenPairs(YuxiPattern):
    """小七对 ×2: seven pairs, no declared meld, no four of a kind."""

    name, value, label, label_zh, hand_shape = "seven_pairs", 2, "Seven Pairs", "小七对", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 0


class DragonSevenPairs(YuxiPattern):
    """龙七对 ×4: seven pairs with one four of a kind counted as two pairs (replaces Seven Pairs)."""

    name, value, label, label_zh, hand_shape = "dragon_seven_pairs", 4, "Dragon Seven Pairs", "龙七对", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 1


class DoubleDragonSevenPairs(YuxiPattern):
    """双龙七对 ×8: seven pairs with two fours of a kind."""

    name, value, label, label_zh, hand_shape = (
        "double_dragon_seven_pairs", 8, "Double Dragon Seven Pairs", "双龙七对", True)

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 2


class TripleDragonSevenPairs(YuxiPattern):
    """三龙七对 ×16: seven pairs with three fours of a kind, not all one suit."""

    name, value, label, label_zh, hand_shape = (
        "triple_dragon_seven_pairs", 16, "Triple Dragon Seven Pairs", "三龙七对", True)

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 3 and not ctx.single_suit


class PureTripleDragonSevenPairs(YuxiPattern):
    """清三龙七对 ×32: Triple Dragon Seven Pairs in one suit (replaces Full Flush and Triple Dragon)."""

    name, value, label, label_zh, hand_shape = (
        "pure_triple_dragon_seven_pairs", 32, "Pure Triple Dragon Seven Pairs", "清三龙七对", True)

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.seven_pairs and ctx.quads == 3 and ctx.single_suit


class FourGreatBlessings(YuxiPattern):
    """大四喜 ×32: pungs or kongs of all four winds."""

    name, value, label, label_zh, hand_shape = "four_great_blessings", 32, "Four Great Blessings", "大四喜", True

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.four_wind_sets


class TenOldMen(YuxiPattern):
    """十老头 ×2: the winner's first ten discards were honours with no pung or kong by others.
    The photo cannot show discards: the table states it with ``win.ten_old_men``."""

    name, value, label, label_zh = "ten_old_men", 2, "Ten Old Men", "十老头"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.ten_old_men


class FlowerBloom(YuxiPattern):
    """杠上花 ×2: a self-drawn win on a kong's replacement tile or on a bloom tile taken instead."""

    name, value, label, label_zh = "flower_bloom", 2, "Flower Bloom (Kong on Flower)", "杠上花"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.after_kong and ctx.inp.win.self_draw


class DoubleGangOnFlower(YuxiPattern):
    """双杠上花 ×2, on top of Flower Bloom: the self-drawn winning tile came after two kongs
    declared back to back (``win.double_kong``, which needs ``win.after_kong``)."""

    name, value, label, label_zh = "double_gang_on_flower", 2, "Double Gang on Flower", "双杠上花"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.double_kong and ctx.inp.win.self_draw


class KongDiscardWin(YuxiPattern):
    """杠上炮 ×2: won on the tile a player discarded just after declaring a kong
    (``win.after_kong`` with a discard win)."""

    name, value, label, label_zh = "kong_discard_win", 2, "Kong Discard Win", "杠上炮"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.after_kong and not ctx.inp.win.self_draw


class RobbingAKong(YuxiPattern):
    """抢杠胡 ×2: won on the tile another player was adding to a kong."""

    name, value, label, label_zh = "robbing_a_kong", 2, "Robbing a Kong", "抢杠胡"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.robbed_kong


class HeavenlyWin(YuxiPattern):
    """天胡 ×32: the dealer wins on the starting hand (``win.first_turn``, dealer, self-draw)."""

    name, value, label, label_zh = "heavenly_win", 32, "Heavenly Win", "天胡"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        return ctx.inp.win.first_turn and ctx.inp.is_dealer and ctx.inp.win.self_draw


class EarthlyWin(YuxiPattern):
    """地胡 ×32: a non-dealer wins on the dealer's first discard (``win.first_turn``, discard from
    East); with ``earthly_self_draw`` also a non-dealer's self-draw on its first draw."""

    name, value, label, label_zh = "earthly_win", 32, "Earthly Win", "地胡"

    def is_condition_met(self, ctx: YuxiContext) -> bool:
        win = ctx.inp.win
        if not win.first_turn or ctx.inp.is_dealer:
            return False
        if win.self_draw:
            return bool(ctx.opts["earthly_self_draw"])
        return win.from_seat == "E" and not win.robbed_kong


PATTERNS: tuple[YuxiPattern, ...] = (
    AllTriplets(), FullFlush(), SevenPairs(), DragonSevenPairs(), DoubleDragonSevenPairs(),
    TripleDragonSevenPairs(), PureTripleDragonSevenPairs(), FourGreatBlessings(), TenOldMen(),
    FlowerBloom(), DoubleGangOnFlower(), KongDiscardWin(), RobbingAKong(), HeavenlyWin(), EarthlyWin(),
)

BASIC_WIN = ScoreItem("basic_win", "Basic Win", "平胡", 1)


# --------------------------------------------------------------------------- options

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("base_points", 1, "Base points every payout is multiplied from (the guide: 1, or 2, 3, 5 by agreement); "
               "a whole number of at least 1."),
    OptionSpec("combine", "multiply", "How several payout-table rows combine: 'multiply' their multipliers "
               "(default), or count only the 'largest'.", ("multiply", "largest")),
    OptionSpec("basic_discard_lifted_by", "any_pattern", "Which rows let a hand be won on a discard (a Basic "
               "Win cannot be): 'any_pattern' (default: any row, Kong Discard Win, Robbing a Kong and Earthly Win "
               "included) or 'hand_pattern' (only rows about the tiles: All Triplets, Full Flush, the seven-pairs "
               "rows, Four Great Blessings).", ("any_pattern", "hand_pattern")),
    OptionSpec("blessings_with_triplets", False, "Four Great Blessings also scores All Triplets (default: no, the "
               "larger hand includes it)."),
    OptionSpec("earthly_self_draw", False, "A non-dealer's self-drawn win on its first draw (no calls before) is "
               "also an Earthly Win (default: only a win on the dealer's first discard)."),
    OptionSpec("multi_win_dealer", "nearest_after_discarder", "With several winners on one discard and the dealer "
               "not among them, who deals next: 'nearest_after_discarder' (default: the winner nearest in turn "
               "after the discarder, as the guide's FAQ orders claims; the first winner listed when the discarder "
               "is not given) or 'nearest_after_dealer' (the winner first in play order after East).",
               ("nearest_after_discarder", "nearest_after_dealer")),
    OptionSpec("multiple_winners", "all_score", "Several players win on one discard: 'all_score' (default: each "
               "scores and the discarder pays all) or 'nearest_only' (the FAQ's priority rule: only the winner "
               "nearest in turn after the discarder is paid).", ("all_score", "nearest_only")),
)


# --------------------------------------------------------------------------- the variant


@dataclass(frozen=True)
class _Candidate:
    """One decomposition scored: the rows that counted and what each payer pays."""

    decomposition: Decomposition
    matched: tuple[YuxiPattern, ...]
    multipliers: tuple[YuxiPattern, ...]
    value: int


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
        if base < 1:
            raise OptionError(f"option 'base_points' must be at least 1, got {base}", field="options.base_points")
        self._check_win(inp)
        decompositions = decompose(list(inp.hand.concealed), inp.hand.melds, forms=FORMS)
        if not decompositions:
            raise NotAWin("the tiles are not four sets and a pair, nor seven pairs (the only Yuxi wins)")
        candidates = [self._evaluate(YuxiContext(inp, opts, d), base) for d in decompositions]
        if not inp.win.self_draw:
            candidates = [c for c in candidates if self._allowed_on_discard(c, opts)]
            if not candidates:
                if opts["basic_discard_lifted_by"] == "hand_pattern":
                    why = "a hand won on a discard needs All Triplets, Full Flush, a seven-pairs row or Four Great Blessings"
                else:
                    why = "a Basic Win (no row of the payout table) can only be won by self-draw"
                raise NotAllowedOnDiscard(why)
        best = max(candidates, key=lambda c: (c.value, len(c.matched)))

        if inp.win.self_draw:
            payments = pay(inp.winner, {s: best.value for s in others(inp.winner)})
        else:
            assert inp.win.from_seat is not None
            payments = pay(inp.winner, {inp.win.from_seat: best.value})
        ctx = YuxiContext(inp, opts, best.decomposition)
        items = [p.item(ctx) for p in best.matched] or [BASIC_WIN]
        return ScoreResult(
            value=best.value,
            items=[ScoreItem("base_points", "Base points", "底分", base), *items],
            payments=payments,
            multipliers=[Multiplier(p.name, p.label, p.label_zh, p.value_for(ctx)) for p in best.multipliers],
            extras={"bloom": self._bloom_extra(inp)},
            decomposition=str(best.decomposition),
            notes=self._notes(inp, opts),
        )

    def score_many(self, inputs: Sequence[ScoreInput], opts: Mapping[str, Any]) -> list[ScoreResult]:
        """"If multiple players can claim the same discarded tile, all winning players score points
        independently, and the discarder pays all points." With ``multiple_winners="nearest_only"``
        the guide's FAQ wins instead: the tile goes to the winner nearest in turn after the
        discarder; the others get an empty result saying so."""
        if opts["multiple_winners"] == "all_score" or len(inputs) < 2:
            return [self.score(inp, opts) for inp in inputs]
        discarder = inputs[0].win.from_seat
        assert discarder is not None
        nearest = _nearest_after(discarder, [i.winner for i in inputs])
        out = []
        for inp in inputs:
            if inp.winner == nearest:
                out.append(self.score(inp, opts))
            else:
                out.append(ScoreResult(0, [], no_payments(), extras={"bloom": self._bloom_extra(inp)},
                                       notes=[f"the discard goes to {nearest}, nearer in turn after {discarder} "
                                              "(option multiple_winners)"]))
        return out

    def _evaluate(self, ctx: YuxiContext, base: int) -> _Candidate:
        matched = tuple(p for p in PATTERNS if p.is_condition_met(ctx))
        if not matched:
            return _Candidate(ctx.decomposition, (), (), base)
        if ctx.opts["combine"] == "multiply":
            applied = matched
        else:
            applied = (max(matched, key=lambda p: p.value_for(ctx)),)
        factor = 1
        for p in applied:
            factor *= p.value_for(ctx)
        return _Candidate(ctx.decomposition, matched, applied, base * factor)

    @staticmethod
    def _allowed_on_discard(c: _Candidate, opts: Mapping[str, Any]) -> bool:
        if opts["basic_discard_lifted_by"] == "hand_pattern":
            return any(p.hand_shape for p in c.matched)
        return bool(c.matched)

    @staticmethod
    def _check_win(inp: ScoreInput) -> None:
        """Reject win facts that contradict each other or the hand (exit 2, naming the field)."""
        win = inp.win
        kongs = sum(1 for m in inp.hand.melds if m.is_kong)
        if win.after_kong and win.robbed_kong:
            raise YuxiInputError("a robbed kong is not a win after a kong: set only one of 'win.after_kong' and "
                                 "'win.robbed_kong'", field="win.robbed_kong")
        if win.after_kong and win.self_draw and kongs == 0:
            raise YuxiInputError("a win on a kong's replacement (or bloom) tile needs that kong among 'hand.melds'",
                                 field="win.after_kong")
        if win.double_kong and not (win.self_draw and kongs >= 2):
            raise YuxiInputError("Double Gang on Flower ('win.double_kong') is a self-drawn win after two kongs "
                                 "declared back to back: it needs 'win.by' = 'self_draw' and two kongs among "
                                 "'hand.melds'", field="win.double_kong")

    @staticmethod
    def _notes(inp: ScoreInput, opts: Mapping[str, Any]) -> list[str]:
        win = inp.win
        if not win.first_turn:
            return []
        if inp.is_dealer and not win.self_draw:
            return ["first_turn: the dealer's Heavenly Win is a self-draw on the starting hand; not counted"]
        if not inp.is_dealer and win.self_draw and not opts["earthly_self_draw"]:
            return ["first_turn: Earthly Win is a win on the dealer's first discard (option earthly_self_draw "
                    "also counts a first self-draw); not counted"]
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
                raise YuxiInputError(f"bloom tile {tile_str(tile)} is not in the 136-tile set",
                                     field=f"indicators.bloom[{i}]")

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
        return {"tiles": [tile_str(t) for t in bloom], "used": tile_str(used) if used is not None else None,
                "eligible": eligible}

    def winning_forms(self, opts: Mapping[str, Any]) -> tuple[Form, ...]:
        """Four sets and a pair, or seven pairs: thirteen orphans is not a Yuxi win."""
        return FORMS

    def waits_extras(self, inp: ScoreInput, opts: Mapping[str, Any], waits: list[Tile]) -> dict[str, Any]:
        """The bloom tiles that would complete this waiting hand if taken after a kong."""
        bloom = inp.indicators.bloom
        done = _completing(inp.hand.concealed, inp.hand.melds, bloom)
        return {"bloom": {"tiles": [tile_str(t) for t in bloom], "completes": [tile_str(t) for t in done]}}

    # ----------------------------------------------------------------- table events

    def kong_payments(self, kind: MeldKind, declarer: Seat, from_seat: Seat | None,
                      opts: Mapping[str, Any]) -> dict[Seat, int]:
        """The guide pays nothing for a kong itself: kongs only lead to Flower Bloom wins."""
        return no_payments()

    def next_dealer(self, winners: Sequence[Seat], drawn: bool, opts: Mapping[str, Any], *,
                    discarder: Seat | None = None, last_drawer: Seat | None = None) -> Seat:
        """"If the dealer wins the round or if the round ends in a draw, the same player continues as
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


def _completing(concealed: Sequence[Tile], melds: Sequence[Meld], bloom: Sequence[Tile]) -> list[Tile]:
    """The distinct bloom tiles that complete ``concealed`` with ``melds`` into a Yuxi win."""
    out: list[Tile] = []
    for tile in bloom:
        if tile not in out and is_winning([*concealed, tile], melds, forms=FORMS):
            out.append(tile)
    return out


VARIANT = YuxiVariant()
