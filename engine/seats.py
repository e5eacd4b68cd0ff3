"""Seats ``E S W N``. East is always the dealer of the hand; play goes E → S → W → N."""

from __future__ import annotations

from typing import Literal

from .errors import SeatError

Seat = Literal["E", "S", "W", "N"]
SEATS: tuple[Seat, ...] = ("E", "S", "W", "N")


def parse_seat(value: object, *, field: str = "seat") -> Seat:
    """Validate a seat letter (case-insensitive); raises :class:`SeatError` naming ``field``."""
    if isinstance(value, str) and value.upper() in SEATS:
        return value.upper()  # type: ignore[return-value]
    raise SeatError(f"{field} must be one of E S W N, got {value!r}", field=field)


def next_seat(seat: Seat, steps: int = 1) -> Seat:
    """The seat ``steps`` places counter-clockwise in play order (E → S → W → N → E)."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def others(seat: Seat) -> tuple[Seat, ...]:
    """The three seats other than ``seat``, in play order after it."""
    return tuple(next_seat(seat, i) for i in (1, 2, 3))
