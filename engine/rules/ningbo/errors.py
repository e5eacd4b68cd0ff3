"""Input Ningbo's rules make impossible: each a :class:`MahjongError` with its own code (exit 2)."""

from __future__ import annotations

from ...errors import MahjongError


class MissingBaidaError(MahjongError):
    """No ``indicators.baida`` while option ``require_baida`` is on (the default)."""

    code = "missing_indicator"


class WildInMeldError(MahjongError):
    """A declared meld holds a wild face: wilds cannot be claimed, punged or chowed."""

    code = "wild_in_meld"


class WinFlagError(MahjongError):
    """Win details that contradict Ningbo's rules (a kong win is a self-draw on a declared kong's
    replacement tile) or each other (several winners of one discard won on different tiles)."""

    code = "bad_input"


class WildFlowerExposedError(MahjongError):
    """A wild flower set aside under ``hand.flowers`` (with a flower indicator it is a wild)."""

    code = "wild_flower_exposed"
