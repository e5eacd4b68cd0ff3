"""Meld sources in headless Chromium: a claim recorded during the hand prefills whose discard the
typed pung came from, and a source that disagrees with the ledger is flagged on the result."""

from __future__ import annotations

import json

import pytest

from .conftest import set_viewport, shot
from .test_companion_e2e import Select, _wait, click, create_table, fetch, hidden, js_errors, open_home, visible

pytestmark = pytest.mark.e2e


def type_tiles(driver, text):
    groups = len(driver.find_elements("css selector", "#groups .group"))
    box = visible(driver, "#notation-input")
    box.clear()
    box.send_keys(text)
    click(driver, "#notation-add")
    _wait(driver, lambda d: len(d.find_elements("css selector", "#groups .group")) == groups + 1)


def test_a_recorded_claim_prefills_the_meld_source_and_a_disagreement_is_flagged(live_server, browser):
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, "en")
    token = create_table(d, ["Alice", "Bob", "Chen", "Dora"])
    # Bob (South) claims Dora's (North) discard for a pung during the hand
    click(d, "#act-claim")
    click(d, "[data-name=claimer] button[data-seat=S]")
    click(d, "[data-name=claim-from] button[data-seat=N]")
    click(d, "#claim-record")
    hidden(d, "#sheet")

    click(d, "#act-win")
    click(d, "#manual-btn")
    type_tiles(d, "123m456p789s22z")
    type_tiles(d, "111z")
    click(d, "[data-name=winner] button[data-seat=S]")
    click(d, "#q-from button[data-seat=self]")
    source = visible(d, "#groups select.from")
    assert source.get_attribute("value") == "N"  # the ledger's claim, not the player before (E)

    # the table says West instead: scoring shows a warning naming the meld and the recorded source
    Select(source).select_by_value("W")
    click(d, "#score-btn")
    warning = visible(d, "#meld-warnings").text
    assert "111z" in warning and "N Dora" in warning and "W Chen" in warning
    shot(d, "melds_en_warning")

    # back to the recorded source: no warning; the hand is recorded with the meld from North
    Select(d.find_element("css selector", "#groups select.from")).select_by_value("N")
    click(d, "#score-btn")
    visible(d, "#step-result")
    assert not d.find_elements("css selector", "#meld-warnings")
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")
    assert not js_errors(d), js_errors(d)
    ledger = json.loads(fetch(f"{live_server}/api/tables/{token}/ledger"))
    assert ledger["entries"][-1]["winners"][0]["hand"]["melds"] == [{"type": "pung", "tiles": "1z1z1z", "from": "N"}]
