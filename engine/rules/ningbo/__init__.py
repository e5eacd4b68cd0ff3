"""Ningbo mahjong (宁波麻将): Baida wilds, flowers, a 4-tai minimum (``docs/rules/ningbo.md``)."""

from __future__ import annotations

from .options import OPTIONS
from .patterns import PATTERNS, NingboContext
from .variant import VARIANT, Ningbo

__all__ = ["OPTIONS", "PATTERNS", "VARIANT", "Ningbo", "NingboContext"]
