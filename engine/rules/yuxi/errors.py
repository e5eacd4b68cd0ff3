"""Input Yuxi's rules make impossible (exit status 2 in the contract)."""

from __future__ import annotations

from ...errors import MahjongError


class YuxiInputError(MahjongError):
    """Win facts that contradict each other or the hand (exit status 2, like any malformed input)."""

    code = "bad_input"
