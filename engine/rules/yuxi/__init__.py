"""Yuxi Flower Blooming Mahjong (玉溪麻将): base points × hand multipliers, bloom tiles
(``docs/rules/yuxi.md``)."""

from __future__ import annotations

from .options import OPTIONS
from .patterns import PATTERNS, YuxiContext
from .variant import VARIANT, YuxiVariant

__all__ = ["OPTIONS", "PATTERNS", "VARIANT", "YuxiContext", "YuxiVariant"]
