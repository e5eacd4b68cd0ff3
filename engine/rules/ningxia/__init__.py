"""Ningxia Waterslide (宁夏滑水麻将): flat payouts, kong payments (``docs/rules/ningxia.md``)."""

from __future__ import annotations

from .options import OPTIONS
from .patterns import PATTERNS, NingxiaContext
from .variant import VARIANT, Ningxia

__all__ = ["OPTIONS", "PATTERNS", "VARIANT", "Ningxia", "NingxiaContext"]
