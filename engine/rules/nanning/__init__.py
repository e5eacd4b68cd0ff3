"""Nanning Lucky Catch (南宁麻将): payout table, fishing, sealing (``docs/rules/nanning.md``)."""

from __future__ import annotations

from .fishing import fish_seat
from .options import OPTIONS
from .patterns import PATTERNS, HandContext
from .variant import VARIANT, Nanning

__all__ = ["OPTIONS", "PATTERNS", "VARIANT", "HandContext", "Nanning", "fish_seat"]
