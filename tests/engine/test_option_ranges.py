"""Option ranges: every number option of every rule set has a documented range; a value outside
it is malformed input (exit 2 in the contract, 400 at table creation) naming ``options.NAME``."""

from __future__ import annotations

import pytest

from engine import contract
from engine.rules import VARIANT_NAMES, get_variant
from engine.rules.base import OptionError, resolve_options
from engine.rules.nanning.options import payout_table

NUMBER_OPTIONS = [
    (variant.name, spec)
    for variant in map(get_variant, VARIANT_NAMES)
    for spec in variant.options
    if isinstance(spec.default, (int, float)) and not isinstance(spec.default, bool) and spec.choices is None
]


def test_every_number_option_has_a_range_holding_its_default():
    assert {name for name, _ in NUMBER_OPTIONS} >= {"hefei", "nanning", "ningbo", "yuxi"}
    for name, spec in NUMBER_OPTIONS:
        assert spec.minimum is not None and spec.maximum is not None, (name, spec.name)
        assert spec.minimum <= spec.default <= spec.maximum, (name, spec.name)
        assert f"{spec.maximum:,}" in spec.description, (name, spec.name)  # the range is documented


@pytest.mark.parametrize("variant, spec", NUMBER_OPTIONS, ids=[f"{v}.{s.name}" for v, s in NUMBER_OPTIONS])
def test_a_value_outside_the_range_is_refused_and_the_bounds_accepted(variant, spec):
    specs = get_variant(variant).options
    assert resolve_options(specs, {spec.name: spec.minimum})[spec.name] == spec.minimum
    assert resolve_options(specs, {spec.name: spec.maximum})[spec.name] == spec.maximum
    for bad in (spec.minimum - 1, spec.maximum + 1, 10**26, -20):
        if spec.minimum <= bad <= spec.maximum:
            continue
        with pytest.raises(OptionError) as caught:
            resolve_options(specs, {spec.name: bad})
        assert caught.value.field == f"options.{spec.name}" and f"{spec.maximum:,}" in caught.value.message


@pytest.mark.parametrize("options", [{"base_score": -20}, {"base_score": 10**26}, {"base_score": 0}])
def test_the_contract_refuses_an_out_of_range_option_as_malformed(options):
    payload = {
        "variant": "hefei",
        "winner": "S",
        "win": {"by": "self_draw"},
        "hand": {"concealed": "123m456m789m234p55p", "winning_tile": "5p"},
        "options": options,
    }
    result = contract.score(payload)
    assert contract.exit_code(result) == 2 and result["error"]["field"] == "options.base_score"


def test_nanning_payout_cells_are_bounded():
    specs = get_variant("nanning").options
    with pytest.raises(OptionError) as caught:
        payout_table(resolve_options(specs, {"values": {"full_flush": {"self_draw": 10_001}}}))
    assert caught.value.field == "options.values.full_flush.self_draw"
