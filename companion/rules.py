"""A table's rule set, resolved once: the variant and its options with the documented defaults.

What the ledger asks of the rule set goes through :class:`TableRules`: who deals after a hand
(:meth:`TableRules.next_wind`), which facts a drawn hand must carry for that
(:meth:`TableRules.draw_needs`) and what a kong pays as it is declared.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import MahjongError
from engine.melds import MeldKind
from engine.rules import get_variant
from engine.rules.base import Variant, resolve_options
from engine.seats import SEATS, Seat

from .house_rules import labelled
from .store import Table


@dataclass(frozen=True)
class TableRules:
    """The table's rule set and its options resolved (defaults filled in, names checked)."""

    variant: Variant
    options: dict[str, Any]

    @classmethod
    def of(cls, table: Table) -> TableRules:
        """Resolve the table's rule set; raises the engine's error for an unknown variant or option."""
        variant = get_variant(table.variant)
        return cls(variant, resolve_options(variant.options, table.options))

    def describe(self) -> dict[str, Any]:
        """The rule set as the page reads it: name, titles, options, facts under the table's
        options (the picker's ``tile_codes`` follow them), and ``draw_needs``."""
        return labelled(self.variant.describe(self.options)) | {"draw_needs": self.draw_needs()}

    def next_dealer_args(self) -> list[str]:
        """The keyword facts the rule set's ``next_dealer`` accepts (``discarder``, ``last_drawer``)."""
        return _keyword_facts(type(self.variant))

    def draw_needs(self) -> list[str]:
        """The facts a drawn hand must carry for this rule set to name the next dealer (Nanning:
        ``last_drawer``, the player who drew the last tile), found by asking the rule set."""
        try:
            self.variant.next_dealer([], True, self.options)
        except MahjongError as err:
            return [err.field] if err.field else ["last_drawer"]
        return []

    def next_wind(self, data: Mapping[str, Any]) -> Seat:
        """Who deals after the recorded hand ``data``, in that hand's winds. Raises the rule set's
        error when it needs a fact the hand does not carry (Nanning's draw needs ``last_drawer``);
        a wind the rule set does not name passes the deal (``S``). A winner the rules refused (one
        of several scored independently, Yuxi) did not win: only paid winners count."""
        accepted = self.next_dealer_args()
        extra: dict[str, Any] = {}
        if data["outcome"] == "draw":
            if "last_drawer" in accepted and data.get("last_drawer"):
                extra["last_drawer"] = data["last_drawer"]
            wind = self.variant.next_dealer([], True, self.options, **extra)
        else:
            results = data["result"]["results"]
            winners = [r["winner"] for r in results if r.get("ok", True) and not r.get("passed_over")]
            froms = {
                (w.get("win") or {}).get("from")
                for w in data.get("winners", [])
                if (w.get("win") or {}).get("by") == "discard"
            } - {None}
            if "discarder" in accepted and len(froms) == 1:
                extra["discarder"] = froms.pop()
            wind = self.variant.next_dealer(winners, False, self.options, **extra)
        return wind if wind in SEATS else "S"

    def kong_payments(self, kind: MeldKind, declarer: Seat, victim: Seat | None) -> dict[Seat, int]:
        """What each wind gains (or pays) as the kong is declared; zeros where the rule set has none."""
        by_wind = self.variant.kong_payments(kind, declarer, victim, self.options)
        return {w: int(by_wind.get(w, 0)) for w in SEATS}


@functools.cache
def _keyword_facts(variant: type[Variant]) -> list[str]:
    """The keyword-only parameters of a rule set's ``next_dealer`` (asked once per rule set: every
    write asks, and ``inspect.signature`` costs more than the rest of the question)."""
    params = inspect.signature(variant.next_dealer).parameters
    return [n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY]
