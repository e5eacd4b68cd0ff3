"""Hefei (合肥麻将): 84 tiles, at least eight of one suit, points (嘴) times a base of 20.

The rule text (``../shared/rules/hefei.txt``, beside the repository):

* Tiles: ranks 2-8 of characters, dots and bamboo only, four each (``HEFEI_84``).
* Win: four sets and a pair (or seven pairs, from the special table) with at least 8 tiles of
  one suit, melds included (a kong counts 4). Otherwise :class:`FewerThanEight`.
* Points: every row of the general table and the special-hands table that the hand meets is
  summed (:mod:`engine.rules.hefei.patterns`); the score is points × the base score (20).
  Worked example: concealed pung 1 + single wait 1 + suit bonus 1 + dealer with two consecutive
  wins 8 = 11 points → 220. The text's "+15 for winning a hand", which the example leaves out,
  is the option ``win_points`` (default on; see ``docs/rules/hefei.md``).
* Payment (the text is silent): on a self-draw each of the three others pays the score; on a
  discard the discarder alone pays. Only one player wins a discard: the one closest in turn after
  the discarder (the text's FAQ; option ``multiple_winners``). The dealer's streak (+4 points per consecutive win or loss)
  is the dealer's item when the dealer wins and is added to the dealer's own payment when the
  dealer pays (option ``dealer_streak_on_loss``).
* Kongs pay nothing when declared (only the concealed kong's +4 points in a won hand).
* The dealer changes after every hand; the round wind moves after four hands (the ledger's job:
  Hefei has no wind tiles, so the round wind never scores).

When a hand reads several ways (and, on a discard, the winning tile could complete more than one
group) every reading is scored and the best is paid.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ...decompose import Decomposition, Form, decompose, is_winning
from ...melds import Meld, MeldKind
from ...seats import Seat, next_seat, others
from ...tiles import Tile
from ...tilesets import HEFEI_84
from ...waits import wait_shapes
from ..base import (
    Multiplier,
    NotAWin,
    Scored,
    ScoreInput,
    ScoreResult,
    Variant,
    best_of,
    no_payments,
    pay,
    refuse_claimed_chows,
)
from .errors import FewerThanEight
from .options import OPTIONS
from .patterns import EIGHT, PATTERNS, STREAK_POINTS, HefeiContext

FORMS: tuple[Form, ...] = ("standard", "seven_pairs")
RANKS = range(1, 8)  # ranks 2-8 as offsets within a suit


def suit_counts(hand_tiles: Sequence[Tile], melds: Sequence[Meld]) -> tuple[int, int, int]:
    """Tiles per suit (characters, dots, bamboo): concealed tiles plus every meld tile (kong = 4)."""
    counts = [0, 0, 0]
    for tile in [*hand_tiles, *(t for m in melds for t in m.tiles)]:
        counts[tile // 9] += 1
    return counts[0], counts[1], counts[2]


def has_eight(hand_tiles: Sequence[Tile], melds: Sequence[Meld]) -> bool:
    """'one suit … must have at least 8 tiles'."""
    return max(suit_counts(hand_tiles, melds)) >= EIGHT


def hefei_wins(concealed: Sequence[Tile], melds: Sequence[Meld]) -> bool:
    """Sets and a pair (or seven pairs) with 8 tiles of one suit."""
    return is_winning(concealed, melds, forms=FORMS) and has_eight(concealed, melds)


def hefei_winning_tiles(concealed: Sequence[Tile], melds: Sequence[Meld]) -> list[Tile]:
    """Kinds that would win a 13-count hand under Hefei rules (kinds whose four copies are all
    already held cannot arrive)."""
    held = [0] * 42
    for tile in [*concealed, *(t for m in melds for t in m.tiles)]:
        held[tile] += 1
    return [k for k in HEFEI_84.kinds if held[k] < 4 and hefei_wins([*concealed, k], melds)]


class Hefei(Variant):
    """Hefei: 84 tiles, eight of a suit, 嘴 summed from both tables × 20."""

    name = "hefei"
    title = "Hefei"
    title_zh = "合肥麻将"
    tileset = HEFEI_84
    options = OPTIONS

    # ----------------------------------------------------------------- checks and waits

    def _check_claims(self, inp: ScoreInput, opts: Mapping[str, Any]) -> None:
        rule = "a Hefei discard is called only for a pung, a kong or the win"
        refuse_claimed_chows(inp, opts["claimed_chows"], rule, "claimed_chows")

    def winning_tiles(self, inp: ScoreInput, opts: Mapping[str, Any]) -> list[Tile]:
        """Only tiles that win under Hefei rules, the eight-of-a-suit rule included."""
        self._check_claims(inp, opts)
        return hefei_winning_tiles(inp.hand.concealed, inp.hand.melds)

    # ----------------------------------------------------------------- the hand's facts

    def _placements(self, d: Decomposition, tile: Tile) -> list[int]:
        """Indices of the concealed groups the winning tile can sit in."""
        return [i for i, g in enumerate(d.groups) if not g.is_declared and tile in g.tiles]

    def _single_wait(self, inp: ScoreInput, opts: Mapping[str, Any], d: Decomposition, at: int) -> bool:
        """卡: the winning tile completed an edge, closed or pair wait in group ``at`` (``shape``), or
        exactly one kind could complete the hand (``one_tile``)."""
        win_tile = inp.hand.winning_tile
        assert win_tile is not None
        if opts["single_wait"] == "shape":
            group = d.groups[at]
            shapes = wait_shapes(Decomposition(d.form, (group,)), win_tile, tileset=HEFEI_84)
            return bool(shapes & {"edge", "closed", "single"})
        before = list(inp.hand.concealed)
        before.remove(win_tile)
        return len(hefei_winning_tiles(before, inp.hand.melds)) == 1

    def _rank_counts(self, inp: ScoreInput, opts: Mapping[str, Any]) -> tuple[int, ...]:
        tiles = list(inp.hand.concealed)
        if opts["same_number_tiles"] == "all":
            tiles += [t for m in inp.hand.melds for t in m.tiles]
        return tuple(sum(1 for t in tiles if t % 9 == r) for r in RANKS)

    def _live_quads(self, inp: ScoreInput) -> int:
        """活: kinds held four times that are not a declared kong (four in hand, or a pung plus the
        fourth in hand)."""
        held = [0] * 34
        for tile in inp.hand.concealed:
            held[tile] += 1
        for meld in inp.hand.melds:
            if meld.kind == MeldKind.PUNG:
                held[meld.tiles[0]] += 3
        return sum(1 for c in held if c == 4)

    def context(
        self, inp: ScoreInput, opts: Mapping[str, Any], d: Decomposition, at: int, single_wait: bool
    ) -> HefeiContext:
        """The facts the patterns read for reading ``d`` with the winning tile in group ``at``: on a
        discard that group is exposed (its pung is not concealed, its chow not a concealed one)."""
        exposed = None if inp.win.self_draw else at
        pungs = tuple(
            g.first for i, g in enumerate(d.groups) if g.kind == "pung" and not g.is_declared and i != exposed
        )
        kongs = tuple(m.tiles[0] for m in inp.hand.melds if m.kind == MeldKind.CONCEALED_KONG)
        chows: dict[tuple[Tile, ...], list[bool]] = {}
        for i, g in enumerate(d.groups):
            if g.kind == "chow":
                chows.setdefault(g.tiles, []).append(not g.is_declared and i != exposed)
        doubles = sum(len(flags) // 2 for flags in chows.values())
        concealed_doubles = sum(sum(flags) // 2 for flags in chows.values())
        return HefeiContext(
            decomposition=d,
            exposed=exposed,
            self_draw=inp.win.self_draw,
            suit_counts=suit_counts(inp.hand.concealed, inp.hand.melds),
            rank_counts=self._rank_counts(inp, opts),
            single_wait=single_wait,
            concealed_pung_kinds=pungs,
            concealed_kong_kinds=kongs,
            live_quads=self._live_quads(inp),
            double_sequences=doubles,
            concealed_double_sequences=concealed_doubles,
            winner_is_dealer=inp.is_dealer,
            dealer_streak=inp.context.dealer_streak,
            streak_points=STREAK_POINTS if inp.win.self_draw else opts["dealer_streak_on_discard"],
            last_tile=inp.win.last_tile,
            first_turn=inp.win.first_turn,
            opts=opts,
        )

    # ----------------------------------------------------------------- scoring

    def score(self, inp: ScoreInput, opts: Mapping[str, Any]) -> ScoreResult:
        """Sum the points of every row met by the best reading; pay points × base."""
        self._check_claims(inp, opts)
        hand = inp.hand
        readings = decompose(hand.concealed, hand.melds, forms=FORMS)
        if not readings:
            raise NotAWin("not a winning hand: Hefei needs four sets and a pair, or seven pairs")
        if not has_eight(hand.concealed, hand.melds):
            counts = suit_counts(hand.concealed, hand.melds)
            raise FewerThanEight(
                f"no suit has 8 tiles (characters {counts[0]}, dots {counts[1]}, bamboo {counts[2]}, melds "
                "included): Hefei needs at least 8 tiles of one suit to win"
            )
        win_tile = hand.winning_tile
        assert win_tile is not None
        one_tile: list[bool] = []  # "one_tile" single wait: the same for every reading, found once

        def places(d: Decomposition) -> Iterator[Scored[HefeiContext]]:
            """Reading ``d`` scored once per concealed group the winning tile can sit in."""
            for at in self._placements(d, win_tile):
                if opts["single_wait"] == "one_tile":
                    if not one_tile:
                        one_tile.append(self._single_wait(inp, opts, d, at))
                    single = one_tile[0]
                else:
                    single = self._single_wait(inp, opts, d, at)
                ctx = self.context(inp, opts, d, at, single)
                items = tuple(p.item(ctx) for p in PATTERNS if p.is_condition_met(ctx))
                yield Scored(sum(int(i.value) for i in items), items, d, ctx)

        best = best_of(readings, places)
        assert best is not None  # the winning tile is always in some concealed group
        return self._pay(inp, opts, best)

    def _pay(self, inp: ScoreInput, opts: Mapping[str, Any], best: Scored[HefeiContext]) -> ScoreResult:
        """Points × base (× 2 on a kong replacement under ``kong_replacement_doubles``): the
        discarder pays, or each other player on a self-draw; a paying dealer adds its streak."""
        points, ctx = best.value, best.context
        base = opts["base_score"]
        multipliers = [Multiplier("base_score", "Base score", "底分", base)]
        factor = 1
        if opts["kong_replacement_doubles"] and inp.win.after_kong and inp.win.self_draw:
            factor = 2
            multipliers.append(Multiplier("kong_replacement", "Win on a kong replacement", "杠上开花", 2))
        value = points * base * factor
        payers = others(inp.winner) if inp.win.self_draw else (inp.win.from_seat,)
        dealer_loss = 0
        if opts["dealer_streak_on_loss"] and not inp.is_dealer and "E" in payers:
            dealer_loss = ctx.streak_points * inp.context.dealer_streak
        amounts = {p: value + (dealer_loss * base * factor if p == "E" else 0) for p in payers if p is not None}
        extras: dict[str, Any] = {"points": points}
        notes = []
        if dealer_loss:
            extras["dealer_streak"] = {"payer": "E", "points": dealer_loss, "amount": dealer_loss * base * factor}
            notes.append(f"the dealer pays {dealer_loss} more points for a streak of {inp.context.dealer_streak}")
        if inp.win.last_tile and not inp.win.self_draw:
            notes.append("no sea floor bonus on a discard: the sea fishing phase has no discards")
        return ScoreResult(
            value=value,
            items=list(best.items),
            payments=pay(inp.winner, amounts),
            multipliers=multipliers,
            extras=extras,
            decomposition=str(best.decomposition),
            notes=notes,
        )

    def score_many(self, inputs: Sequence[ScoreInput], opts: Mapping[str, Any]) -> list[ScoreResult]:
        """'If more than one player needs the discarded tile for mahjong, it goes to whoever is closer
        in turn after the person who discarded the tile': every hand is checked (a refusal still
        refuses), the nearest winner is paid, the others get nothing. Under ``multiple_winners =
        "all"`` each is paid in full."""
        results = [self.score(inp, opts) for inp in inputs]
        if opts["multiple_winners"] == "all" or len(inputs) < 2:
            return results
        discarder = inputs[0].win.from_seat
        assert discarder is not None
        order = [next_seat(discarder, i) for i in (1, 2, 3)]
        nearest = min((inp.winner for inp in inputs), key=order.index)
        return [
            result
            if inp.winner == nearest
            else ScoreResult(
                value=0,
                items=[],
                payments={},
                extras={"points": 0, "discard_goes_to": nearest},
                notes=[f"the discard goes to {nearest}, closer in turn after {discarder}"],
            )
            for inp, result in zip(inputs, results)
        ]

    # ----------------------------------------------------------------- kongs and the deal

    def kong_payments(
        self, kind: MeldKind, declarer: Seat, from_seat: Seat | None, opts: Mapping[str, Any]
    ) -> dict[Seat, int]:
        """Hefei kongs pay nothing as they are declared (a concealed kong scores +4 points in a won hand)."""
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
        """'After each hand, the dealer changes': the next seat deals, win or draw. Under
        ``keep_on_win`` the dealer keeps the deal by winning. ``discarder`` and ``last_drawer``
        play no part in Hefei."""
        if opts["dealer_rotation"] == "keep_on_win" and not drawn and "E" in winners:
            return "E"
        return "S"


VARIANT = Hefei()
