"""Ningbo mahjong (宁波麻将), from ``../shared/rules/ningbo.txt``.

The rules implemented (``docs/rules/ningbo.md`` traces every sentence):

* 144 tiles with flowers. A win is four sets and a pair ("they have completed four complete sets
  and one pair"); seven pairs and thirteen orphans are not wins here.
* Baida (百搭): the indicator tile ``indicators.baida`` is turned face up; the wilds are its three
  remaining copies and the four copies of the next tile (9 → 1, E → S → W → N → E,
  Green → Red → White → Green). A flower indicator makes the other seven flowers wild; they are
  then held among the concealed tiles. A wild stands for any suited or honour tile, its own face
  included (还搭), but never a flower, and by default never a fifth copy of a kind (the face-up
  indicator counts as one copy shown). Wilds only complete a win: a declared meld holding a wild
  face is invalid input, except a concealed kong of four wild copies; a discarded wild cannot be
  won on ("You cannot call Baida").
* Tai: every row of the guide's table (:mod:`engine.rules.ningbo.patterns`); a win needs at least
  4 tai (:class:`BelowMinimum` below it). Every decomposition and every place of the winning tile
  is scored; the best is paid.
* Payment: total = tai × special multiplier. A discard win is paid by the discarder, a self-draw
  by each of the three others. Robbing a kong: the kong's declarer pays ×5. Kong flower win
  (winning on the kong replacement): ×2. Three-meld contract (三摊承包): when the winner claimed
  three or more pungs/kongs from one player, that player pays everything owed, ×5.
* Several winners on one discard: the tile goes to the winner closest in turn after the
  discarder ("it goes to whoever is closer in turn").
* The deal passes to the next player after every hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ...decompose import Decomposition, Form, WildSpec, decompose
from ...melds import MeldKind
from ...seats import Seat, next_seat, others
from ...tiles import FLOWERS, HONOURS, NUM_KINDS, Tile, format_tiles, is_flower, next_in_cycle, tile_str
from ...tilesets import WITH_FLOWERS_144
from ...waits import WaitShape, has_single_winning_tile, wait_shapes
from ..base import (
    BelowMinimum,
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
    everyone_pays,
    no_payments,
    pay,
    refuse_claimed_chows,
)
from .errors import MissingBaidaError, WildFlowerExposedError, WildInMeldError, WinFlagError
from .options import OPTIONS
from .patterns import PATTERNS, NingboContext

_FIXED = tuple(p for p in PATTERNS if not p.reads_wait)
_BY_PLACE = tuple(p for p in PATTERNS if p.reads_wait)

#: Only "four complete sets and one pair" win: no seven pairs, no thirteen orphans.
FORMS: tuple[Form, ...] = ("standard",)
ROB_FACTOR = 5
CONTRACT_FACTOR = 5
KONG_FLOWER_FACTOR = 2
CONTRACT_CLAIMS = 3


class Ningbo(Variant):
    """宁波麻将 — Ningbo mahjong with Baida wilds and a 4-tai minimum."""

    name = "ningbo"
    title = "Ningbo"
    title_zh = "宁波麻将"
    tileset = WITH_FLOWERS_144
    options = OPTIONS
    indicator = "baida"

    # ------------------------------------------------------------------ wilds

    def wild_spec(self, inp: ScoreInput, opts: Mapping[str, Any]) -> WildSpec:
        """The three other copies of the indicator and the four of the next tile; for a flower
        indicator the other seven flowers. No indicator: an error unless ``require_baida`` is off.
        The face-up indicator is a copy shown (``visible``): without ``wild_fifth_copy`` wilds
        may stand for at most three of its kind."""
        baida = inp.indicators.baida
        fifth = bool(opts["wild_fifth_copy"])
        if baida is None:
            if opts["require_baida"]:
                raise MissingBaidaError(
                    "Ningbo needs the Baida indicator: give 'indicators.baida' (the tile turned face up), "
                    "or set option require_baida to false to score without wilds",
                    field="indicators.baida",
                )
            return WildSpec(frozenset(), fifth)
        if is_flower(baida):
            return WildSpec(frozenset(FLOWERS) - {baida}, fifth)
        return WildSpec(frozenset({baida, next_in_cycle(baida)}), fifth, visible=(baida,))

    def winning_tiles(self, inp: ScoreInput, opts: Mapping[str, Any]) -> list[Tile]:
        """The base answer (standard form, wilds, the indicator shown) once the hand passes the
        checks scoring makes on where its tiles sit."""
        self._check_hand(inp, opts, self.wild_spec(inp, opts))
        return super().winning_tiles(inp, opts)

    def winning_forms(self, opts: Mapping[str, Any]) -> tuple[Form, ...]:
        """'four complete sets and one pair': ``mjc waits`` lists no seven-pairs or orphans waits."""
        return FORMS

    def visible_tiles(self, inp: ScoreInput) -> tuple[Tile, ...]:
        """The indicator is one copy of its kind shown face up."""
        return (inp.indicators.baida,) if inp.indicators.baida is not None else ()

    def waits_extras(self, inp: ScoreInput, opts: Mapping[str, Any], waits: list[Tile]) -> dict[str, Any]:
        """``mjc waits`` shows the indicator and the wild kinds (wild kinds complete most ready hands)."""
        if inp.indicators.baida is None:
            return {}
        spec = self.wild_spec(inp, opts)
        return {
            "wilds": {"indicator": tile_str(inp.indicators.baida), "kinds": [tile_str(k) for k in sorted(spec.kinds)]}
        }

    # ------------------------------------------------------------------ scoring

    def score(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """Score one winner: four sets and a pair (wilds completing it), the best arrangement's
        tai, at least ``minimum_tai``, then the special multipliers and who pays."""
        wild = self.wild_spec(inp, opts)
        self._check_input(inp, opts, wild)
        hand = inp.hand
        win_tile = hand.winning_tile
        assert win_tile is not None
        winning_is_wild = win_tile in wild.kinds
        if winning_is_wild and not inp.win.self_draw and not opts["win_on_discarded_wild"]:
            raise NotAllowedOnDiscard(
                f"{tile_str(win_tile)} is a Baida (wild) and 'You cannot call Baida': a discarded wild "
                "cannot complete a win (option win_on_discarded_wild allows it)"
            )
        decomps = self._decompositions(inp, wild)
        if not decomps:
            raise NotAWin("these tiles do not make four sets and a pair, even with the wilds")
        scored = self._best(inp, opts, wild, decomps, winning_is_wild)
        minimum = int(opts["minimum_tai"])
        if scored.value < minimum:
            listed = ", ".join(f"{i.label_zh} {i.value}" for i in scored.items) or "nothing"
            raise BelowMinimum(f"the hand is worth {scored.value} tai ({listed}); Ningbo needs at least {minimum}")
        return self._paid(inp, opts, wild, scored)

    def _check_input(self, inp: ScoreInput, opts: Mapping[str, Any], wild: WildSpec) -> None:
        """Reject what Ningbo's rules make impossible (exit 2, naming the field)."""
        if inp.win.after_kong and not any(m.is_kong for m in inp.hand.melds):
            raise WinFlagError(
                "a kong win is on the replacement tile after declaring a kong, but the hand shows no kong: "
                "add the kong to 'hand.melds' or drop 'win.after_kong'",
                field="win.after_kong",
            )
        if inp.win.after_kong and not inp.win.self_draw:
            raise WinFlagError(
                "a kong win is on the replacement tile you draw ('also counts as a self-draw'): "
                "set 'win.by' to 'self_draw'",
                field="win.after_kong",
            )
        self._check_hand(inp, opts, wild)

    def _check_hand(self, inp: ScoreInput, opts: Mapping[str, Any], wild: WildSpec) -> None:
        """Reject tiles Ningbo's rules cannot put where the input puts them (scoring and waits):
        a wild flower set aside, a wild in a declared meld, a claimed chow at a table without."""
        for flower in inp.hand.flowers:
            if flower in wild.kinds:
                raise WildFlowerExposedError(
                    f"with a flower indicator {tile_str(flower)} is a wild: put it among 'hand.concealed'",
                    field="hand.flowers",
                )
        for i, meld in enumerate(inp.hand.melds):
            faces = set(meld.tiles)
            if faces & wild.kinds and meld.kind != MeldKind.CONCEALED_KONG:
                raise WildInMeldError(
                    f"{meld.kind.value} {format_tiles(meld.tiles)} holds a Baida: wilds cannot be "
                    "claimed or used to pung or chow (only four wild copies may form a concealed kong)",
                    field=f"hand.melds[{i}]",
                )
        refuse_claimed_chows(
            inp, opts["claimed_chows"], "this table calls a discard only for a pung or kong", "claimed_chows"
        )

    def _decompositions(self, inp: ScoreInput, wild: WildSpec) -> list[Decomposition]:
        """Every standard arrangement, groups of wilds only over representative kinds (the wild
        spec's ``visible`` indicator keeps wilds within the copies left)."""
        hand = inp.hand
        return decompose(list(hand.concealed), hand.melds, wilds=wild, forms=FORMS, free_kinds=_free_kinds(inp, wild))

    def _best(
        self,
        inp: ScoreInput,
        opts: Mapping[str, Any],
        wild: WildSpec,
        decomps: list[Decomposition],
        winning_is_wild: bool,
    ) -> Scored[NingboContext]:
        """Score every decomposition with every place of the winning tile; pay the most tai. A
        single wait pairing the discard with a wild is skipped under ``wild_pair_on_discard`` off;
        when nothing else is left the hand wins by self-draw only."""
        hand = inp.hand
        win_tile = hand.winning_tile
        assert win_tile is not None
        _counts, faces = wild.split(hand.concealed)
        kong_wilds = sum(len(m.tiles) for m in hand.melds if set(m.tiles) & wild.kinds)
        only_wait = bool(opts["waits_need_single_tile"]) and has_single_winning_tile(
            list(hand.concealed), win_tile, hand.melds, wilds=wild, tileset=self.tileset
        )
        no_discard_wild_pair = not inp.win.self_draw and not opts["wild_pair_on_discard"]

        def places(d: Decomposition) -> Iterator[Scored[NingboContext]]:
            """Decomposition ``d`` scored once per shape the winning tile's place can have."""
            shapes = wait_shapes(d, win_tile, tileset=self.tileset, winning_tile_is_wild=winning_is_wild)
            fixed: list[ScoreItem] | None = None
            tried: list[WaitShape | None] = [*sorted(shapes)] or [None]
            for shape in tried:
                pair = d.pair
                if no_discard_wild_pair and shape == "single" and pair is not None and pair.wilds:
                    continue
                ctx = NingboContext(
                    inp, opts, d, shape, only_wait, wild, winning_is_wild, len(faces) + kong_wilds, kong_wilds
                )
                if fixed is None:
                    fixed = [p.item(ctx) for p in _FIXED if p.is_condition_met(ctx)]
                by_place = {p.name: p.item(ctx) for p in _BY_PLACE if p.is_condition_met(ctx)}
                found = {i.name: i for i in fixed} | by_place
                items = tuple(found[p.name] for p in PATTERNS if p.name in found)
                yield Scored(int(sum(i.value for i in items)), items, d, ctx)

        best = best_of(decomps, places)
        if best is None:
            raise NotAllowedOnDiscard(
                "the winning tile only pairs with a Baida (抛搭): this wait wins by self-draw only "
                "(option wild_pair_on_discard)"
            )
        return best

    def _paid(
        self, inp: ScoreInput, opts: Mapping[str, Any], wild: WildSpec, scored: Scored[NingboContext]
    ) -> ScoreResult:
        """Total = tai × special multipliers; discarder pays, or all three on a self-draw; the
        robbed kong's declarer or the contracted player pays alone, ×5."""
        winner = inp.winner
        multipliers: list[Multiplier] = []
        notes: list[str] = []
        base = scored.value
        if inp.win.after_kong and opts["kong_win"] in ("both", "multiplier_only"):
            base *= KONG_FLOWER_FACTOR
            multipliers.append(Multiplier("kong_flower", "Kong flower win", "杠上开花", KONG_FLOWER_FACTOR))
        value = base
        contract = _contracted(inp, opts)
        extras: dict[str, Any] = {}
        if contract is not None:
            victim, claims = contract
            shares = 3 if inp.win.self_draw and opts["contract_pays"] == "all_shares" else 1
            value = base * CONTRACT_FACTOR
            payments = pay(winner, {victim: value * shares})
            multipliers.append(Multiplier("contract", "Three-meld contract", "三摊承包", CONTRACT_FACTOR, victim))
            extras["contract"] = {"payer": victim, "claims": claims}
            if inp.win.robbed_kong:
                notes.append(
                    f"the robbed kong was {inp.win.from_seat}'s; the contract makes {victim} pay alone, ×5 once"
                    if inp.win.from_seat != victim
                    else f"{victim} is both the robbed kong's declarer and the contracted player: ×5 once"
                )
        elif inp.win.robbed_kong:
            assert inp.win.from_seat is not None
            value = base * ROB_FACTOR
            payments = pay(winner, {inp.win.from_seat: value})
            multipliers.append(Multiplier("robbing_kong", "Robbing a kong", "捉杠", ROB_FACTOR, inp.win.from_seat))
        elif inp.win.self_draw:
            payments = everyone_pays(winner, value)
        else:
            assert inp.win.from_seat is not None
            payments = pay(winner, {inp.win.from_seat: value})
        if inp.indicators.baida is not None:
            extras["wilds"] = _wilds_extra(inp, wild, scored.decomposition)
        return ScoreResult(
            value,
            list(scored.items),
            payments,
            multipliers,
            extras,
            decomposition=str(scored.decomposition),
            notes=notes,
        )

    # ------------------------------------------------------------------ several winners, kongs, dealer

    def score_many(self, inputs: Sequence[ScoreInput], opts: Mapping[str, Any]) -> list[ScoreResult]:
        """'If more than one player needs the discarded tile for the win, it goes to whoever is
        closer in turn after the person who discarded the tile.' The closest winner whose hand
        the rules pay takes it; the others get an empty result with a note (option
        ``multiple_winners``: ``all`` pays each)."""
        if len(inputs) == 1:
            return [self.score(inputs[0], opts)]
        if opts["multiple_winners"] == "all":
            return [self.score_one_of_several(inp, opts) for inp in inputs]
        discarder = inputs[0].win.from_seat
        assert discarder is not None
        order = [next_seat(discarder, i) for i in (1, 2, 3)]
        by_seat = {inp.winner: inp for inp in inputs}
        first_refusal: Refusal | None = None
        taker: Seat | None = None
        result: ScoreResult | None = None
        for seat in order:
            if seat not in by_seat:
                continue
            try:
                result = self.score_one_of_several(by_seat[seat], opts)
            except Refusal as err:
                first_refusal = first_refusal or err
                continue
            taker = seat
            break
        if result is None:
            assert first_refusal is not None
            raise first_refusal
        out = []
        for inp in inputs:
            if inp.winner == taker:
                out.append(result)
            else:
                out.append(
                    ScoreResult(
                        0,
                        [],
                        no_payments(),
                        extras={"passed_over": True, "tile_goes_to": taker},
                        notes=[f"the discard goes to {taker}, closer in turn after {discarder}"],
                    )
                )
        return out

    def kong_payments(
        self, kind: MeldKind, declarer: Seat, from_seat: Seat | None, opts: Mapping[str, Any]
    ) -> dict[Seat, int]:
        """The guide pays nothing for a kong as it is declared."""
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
        """'After each game, the next person to the right (counterclockwise) becomes the dealer':
        the deal always passes, whoever won, discarded or drew the last tile."""
        return "S"


# --------------------------------------------------------------------------- helpers


def _free_kinds(inp: ScoreInput, wild: WildSpec) -> list[Tile]:
    """Representative kinds for groups made only of wilds: every honour (dragons and the winds
    score), each wild face (还搭), and in each suit already in the hand its least-used rank (a
    suit's ranks score alike). Keeps the arrangements few when many wilds are held."""
    used = [0] * NUM_KINDS
    for tile in inp.hand.all_tiles():
        if tile < NUM_KINDS and tile not in wild.kinds:
            used[tile] += 1
    baida = inp.indicators.baida
    if baida is not None and baida < NUM_KINDS:
        used[baida] += 1
    kinds = set(HONOURS) | {k for k in wild.kinds if k < NUM_KINDS}
    for suit in range(3):
        ranks = range(suit * 9, suit * 9 + 9)
        if any(used[k] for k in ranks):
            kinds.update(sorted(ranks, key=lambda k: (used[k], k))[:1])
    return sorted(kinds)


def _contracted(inp: ScoreInput, opts: Mapping[str, Any]) -> tuple[Seat, int] | None:
    """The player the winner claimed three or more melds from (三摊承包), with the count."""
    best: tuple[Seat, int] | None = None
    for victim in others(inp.winner):
        count = inp.claims_between(inp.winner, victim)
        if opts["contract_counts_chows"]:
            own = sum(1 for m in inp.hand.melds if m.from_seat == victim)
            count = max(count, own)
        if count >= CONTRACT_CLAIMS and (best is None or count > best[1]):
            best = (victim, count)
    return best


def _wilds_extra(inp: ScoreInput, wild: WildSpec, d: Decomposition) -> dict[str, Any]:
    """``{"indicator", "kinds", "in_hand": [{"tile", "stands_for"}, …]}``; wilds in a concealed
    kong stand for themselves."""
    in_hand = [{"tile": tile_str(face), "stands_for": tile_str(kind)} for face, kind in d.substitutions]
    for meld in inp.hand.melds:
        if set(meld.tiles) & wild.kinds:
            in_hand.extend(
                {"tile": tile_str(t), "stands_for": tile_str(t), "meld": meld.kind.value} for t in meld.tiles
            )
    assert inp.indicators.baida is not None
    return {
        "indicator": tile_str(inp.indicators.baida),
        "kinds": [tile_str(k) for k in sorted(wild.kinds)],
        "in_hand": in_hand,
    }


VARIANT = Ningbo()
