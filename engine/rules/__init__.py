"""The five rule sets, one package each, looked up by name.

Each package ``engine.rules.<name>`` has the same shape: ``variant.py`` (the
:class:`engine.rules.base.Variant` subclass and its scoring flow), ``patterns.py`` (every scoring
pattern as a small :class:`engine.rules.base.Pattern`), ``options.py`` (the house rules with their
documented defaults) and, where the rule set has its own, ``errors.py``. Its ``__init__`` exports
``VARIANT``, ``OPTIONS`` and ``PATTERNS``.
"""

from __future__ import annotations

from importlib import import_module

from ..errors import MahjongError
from .base import Variant

VARIANT_NAMES = ("ningbo", "nanning", "yuxi", "hefei", "ningxia")


class UnknownVariantError(MahjongError):
    code = "unknown_variant"


def get_variant(name: str) -> Variant:
    """The rule set called ``name`` (one of :data:`VARIANT_NAMES`)."""
    if name not in VARIANT_NAMES:
        raise UnknownVariantError(f"unknown variant {name!r}: use one of {', '.join(VARIANT_NAMES)}", field="variant")
    return import_module(f"{__name__}.{name}").VARIANT
