"""Hands the Hefei text does not pay: :class:`Refusal` subclasses with their own codes."""

from __future__ import annotations

from ..base import Refusal


class FewerThanEight(Refusal):
    """The tiles form sets and a pair but no suit has 8 tiles (melds included, a kong as 4)."""

    code = "fewer_than_eight"
