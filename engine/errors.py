"""Named errors for everything the engine refuses.

Every error carries a stable ``code`` (used by the JSON contract and the HTTP API)
and a message that says what is wrong and what to do about it.
"""

from __future__ import annotations


class MahjongError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict:
        out = {"code": self.code, "message": self.message}
        if self.field:
            out["field"] = self.field
        return out


class NotationError(MahjongError):
    """A tile string could not be parsed (``9z``, ``0m``, ``x``, a digit without a suit)."""

    code = "bad_notation"


class TileSetError(MahjongError):
    """A tile that the variant's tile set does not contain (a ``1m`` in Hefei, a flower in Ningxia)."""

    code = "tile_not_in_set"


class TooManyCopiesError(MahjongError):
    """More copies of one tile than the set holds (a fifth ``5p``, a second ``3f``)."""

    code = "too_many_copies"


class TileCountError(MahjongError):
    """The hand has the wrong number of tiles (14 plus one per kong, flowers apart)."""

    code = "wrong_tile_count"


class MeldError(MahjongError):
    """A declared meld is not a chow, pung or kong of the kind it says it is."""

    code = "bad_meld"


class SeatError(MahjongError):
    """A seat that is not one of ``E S W N``."""

    code = "bad_seat"
