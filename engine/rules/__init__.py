"""The five rule sets, one module each, looked up by name.

Each module ``engine.rules.<name>`` defines ``VARIANT``, an instance of
:class:`engine.rules.base.Variant`.
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
