"""Hefei (合肥麻将): 84 tiles, eight of a suit, points × a base of 20 (``docs/rules/hefei.md``)."""

from __future__ import annotations

from .options import OPTIONS
from .patterns import PATTERNS, HefeiContext
from .variant import VARIANT, Hefei

__all__ = ["OPTIONS", "PATTERNS", "VARIANT", "Hefei", "HefeiContext"]
