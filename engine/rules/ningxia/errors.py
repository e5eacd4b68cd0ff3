"""Ningxia's refusals and the table facts that cannot describe a Ningxia event."""

from __future__ import annotations

from ...errors import MahjongError
from ..base import Refusal


class NingxiaInputError(MahjongError):
    """Table facts that cannot describe a Ningxia event (an exposed kong without its discarder, a
    hand that was neither won nor drawn)."""

    code = "bad_input"


class ChowClaimNotAllowed(Refusal):
    """A declared (claimed) chow: the Ningxia text lets a discard be called only for a pung, a
    kong or the win (option ``claimed_chows``)."""

    code = "chow_claim_not_allowed"


class SevenPairsNotAllowed(Refusal):
    """The hand only wins as seven pairs and the table plays without seven pairs
    (option ``seven_pairs`` false)."""

    code = "seven_pairs_not_allowed"
