"""Input Nanning's rules make impossible (exit status 2 in the contract)."""

from __future__ import annotations

from ...errors import MahjongError


class NanningInputError(MahjongError):
    """Input that cannot describe a Nanning hand (too many fish tiles, winners that disagree on
    the fish, a kong win without a kong, a drawn hand without its last drawer). Exit status 2 in
    the contract."""

    code = "bad_input"
