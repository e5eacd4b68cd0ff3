"""The win screen as a table uses it, in headless Chromium: the review step's role chips and the
winning tile's badge, the picker (the rule set's tiles only, copies counted over the groups in
use), the photo draft (Try again, the same file twice, a late reading, Back, Cancel, a reload),
the house rules in players' words, the table's layout (44 px tap targets, chart lines told apart,
times in the tablet's zone). Every test ends with no JavaScript error logged."""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta

import pytest

from . import conftest
from .conftest import DATA, set_viewport
from .test_companion_e2e import click, create_table, fetch, group_codes, hidden, js_errors, open_home, visible

pytestmark = pytest.mark.e2e


def _wait(driver, cond, timeout=15):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(cond)


def script_errors(driver):
    """SEVERE browser log entries other than a refused request the test asked for (source
    "network": the browser logs every 4xx/5xx answer)."""
    return [e for e in js_errors(driver) if e.get("source") != "network"]


def _photo(driver, path=DATA / "hand_photo.jpg"):
    driver.find_element("id", "photo-input").send_keys(str(path))


def _roles(driver):
    return [role for role, _ in group_codes(driver)]


def test_the_photo_draft_survives_a_reload_back_returns_to_the_table_and_cancel_clears_it(live_server, browser):
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, "en")
    create_table(d, ["Ann", "Bob", "Chen", "Dora"])
    click(d, "#act-win")
    _photo(d)
    _wait(d, lambda x: _roles(x) == ["hand", "meld"])
    click(d, "#q-winner button[data-seat=S]")
    # a reload keeps the draft: the tiles, their roles, the winner, the photo (from the server)
    d.refresh()
    _wait(d, lambda x: x.find_element("id", "screen-win").is_displayed() and _roles(x) == ["hand", "meld"])
    assert "on" in d.find_element("css selector", "#q-winner button[data-seat=S]").get_attribute("class")
    href = d.find_element("css selector", "#photo-overlay image").get_attribute("href")
    assert "/photos/" in href
    # Back returns to the table; Win resumes the draft
    d.back()
    visible(d, "#screen-table #seat-0")
    click(d, "#act-win")
    _wait(d, lambda x: _roles(x) == ["hand", "meld"])
    # Cancel drops it: the next win starts from the photo step
    click(d, "#win-cancel")
    visible(d, "#screen-table #seat-0")
    click(d, "#act-win")
    visible(d, "#step-capture")
    assert not d.find_element("id", "step-review").is_displayed()
    kept = d.execute_script(
        "return Object.keys(localStorage).filter(k => k.startsWith('mjc.win.')).map(k => JSON.parse(localStorage[k]))"
    )
    assert [len(w["drafts"][0]["groups"]) for w in kept] == [0]
    # the same file chosen again after Retake is read again
    _photo(d)
    _wait(d, lambda x: len(group_codes(x)) == 2)
    click(d, "#retake-btn")
    visible(d, "#step-capture")
    _photo(d)
    _wait(d, lambda x: len(group_codes(x)) == 2)
    click(d, "#win-cancel")
    assert not script_errors(d)


def test_try_again_after_a_failed_reading_and_a_late_reading_keeps_typed_tiles(scripted_server, browser):
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, scripted_server, "en")
    create_table(d, ["Ann", "Bob", "Chen", "Dora"])
    # the server is busy: the error and "Try again", which sends the same photo again
    conftest.SCRIPT[:] = ["fail"]
    click(d, "#act-win")
    _photo(d)
    assert "busy" in visible(d, "#capture-error").text
    click(d, "#photo-retry")
    _wait(d, lambda x: _roles(x) == ["hand", "meld"])
    click(d, "#win-cancel")
    # a poor reading (no tiles, and why): "Try again" goes back to take another photo
    conftest.SCRIPT[:] = ["empty"]
    click(d, "#act-win")
    _photo(d)
    assert "too dark" in visible(d, "#recog-poor").text
    click(d, "#photo-try-again")
    visible(d, "#step-capture")
    _photo(d)
    _wait(d, lambda x: _roles(x) == ["hand", "meld"])
    click(d, "#win-cancel")
    # a slow reading arrives after the table typed the hand: the typed tiles stay
    conftest.SCRIPT[:] = ["slow"]
    click(d, "#act-win")
    _photo(d)
    click(d, "#manual-btn")
    d.find_element("id", "notation-input").send_keys("123m456p789s11222z")
    click(d, "#notation-add")
    _wait(d, lambda x: group_codes(x) == [["hand", "1m2m3m4p5p6p7s8s9s1z1z2z2z2z"]])
    time.sleep(conftest.SLOW_S + 0.5)
    assert group_codes(d) == [["hand", "1m2m3m4p5p6p7s8s9s1z1z2z2z2z"]]
    assert "your tiles are kept" in visible(d, "#review-error").text
    click(d, "#win-cancel")
    assert not script_errors(d)


def test_chips_badge_and_picker_follow_the_rule_set(live_server, browser):
    """Hefei plays ranks 2-8 of the three suits: the picker offers those 21 tiles only; a tile used
    four times is disabled only while its group is in use; the winning tile carries the badge,
    "+ tile" leaves it where it is, and only a hand tile offers "This is the winning tile"."""
    d = browser
    set_viewport(d, 390, 844, mobile=True)
    open_home(d, live_server, "en")
    create_table(d, ["Ann", "Bob", "Chen", "Dora"], variant="hefei")
    click(d, "#act-win")
    click(d, "#manual-btn")
    d.find_element("id", "notation-input").send_keys("一萬 二萬 二萬 二萬 二萬")
    click(d, "#notation-add")
    _wait(d, lambda x: group_codes(x) == [["hand", "1m2m2m2m2m"]])
    badges = d.find_elements("css selector", "#groups .win-badge")
    assert len(badges) == 1 and "winning tile" in badges[0].text
    winning = d.find_element("css selector", "#groups .tile-btn.is-winning").get_attribute("data-tile")
    click(d, "#groups .tile-btn.add")
    codes = [b.get_attribute("data-code") for b in d.find_elements("css selector", "#sheet .picker button[data-code]")]
    assert codes == [f"{r}{s}" for s in "mps" for r in range(2, 9)]
    assert d.find_element("css selector", "#sheet .picker button[data-code='2m']").get_attribute("disabled")
    # phone picker tiles are at least 44 px both ways
    sizes = d.execute_script(
        "return [...document.querySelectorAll('#sheet .picker button')].map(b => [b.offsetWidth, b.offsetHeight])"
    )
    assert min(w for w, _ in sizes) >= 44 and min(h for _, h in sizes) >= 44, sizes
    click(d, "#sheet .picker button[data-code='5p']")
    click(d, "#picker-done")
    hidden(d, "#sheet")
    assert d.find_element("css selector", "#groups .tile-btn.is-winning").get_attribute("data-tile") == winning
    # the group ignored: its 2m no longer count, the picker offers 2m again
    click(d, "#groups .group[data-group='0'] .role-chip[data-role=ignore]")
    click(d, "#picker-add")
    assert not d.find_element("css selector", "#sheet .picker button[data-code='2m']").get_attribute("disabled")
    click(d, "#sheet .picker button[data-code='3s']")
    click(d, "#sheet .picker button[data-code='3s']")
    click(d, "#sheet .picker button[data-code='3s']")
    click(d, "#picker-done")
    hidden(d, "#sheet")
    # a meld's tile offers no "winning tile"; a hand tile does
    click(d, "#groups .group[data-group='1'] .role-chip[data-role=meld]")
    click(d, "#groups .group[data-group='1'] button.tile-btn[data-tile]")
    visible(d, "#sheet #remove-tile")
    assert not d.find_elements("css selector", "#sheet #mark-winning")
    click(d, "#sheet-close")
    click(d, "#groups .group[data-group='1'] .role-chip[data-role=hand]")
    click(d, "#groups .group[data-group='1'] button.tile-btn[data-tile]")
    visible(d, "#sheet #mark-winning")
    click(d, "#sheet-close")
    click(d, "#win-cancel")
    assert not script_errors(d)


@pytest.mark.parametrize(("lang", "name", "words"), [("en", "Baida must be shown", "Yes"), ("zh", "必须翻百搭", "是")])
def test_house_rules_are_in_players_words(live_server, browser, lang, name, words):
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, lang)
    text = d.find_element("id", "f-options").text
    assert name in text and words in text
    labels = [el.text for el in d.find_elements("css selector", "#f-options .opt-name")]
    assert labels and not any("_" in label for label in labels)
    assert "require_baida" not in text and "{" not in text
    assert not script_errors(d)


def test_the_table_layout_targets_chart_and_local_times(live_server, browser):
    """Export links, Correct, checkboxes and radios are 44 px tap targets; the four balance lines
    differ in dash pattern (two players with equal balances stay apart); the x axis shows hand
    numbers; times show in the tablet's zone (here Asia/Shanghai, UTC+8); long names are cut with
    an ellipsis in the seat cards."""
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    d.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Shanghai"})
    try:
        open_home(d, live_server, "en")
        token = create_table(d, ["Alexandra Konstantinopoulou-Smythe", "Bob", "Chen", "Dora"])
        for _ in range(2):
            click(d, "#act-kong")
            click(d, "[data-name=kong-declarer] button[data-seat=S]")
            click(d, "[data-name=kong-from] button[data-seat=W]")
            click(d, "#kong-record")
            hidden(d, "#sheet")
        _wait(d, lambda x: len(x.find_elements("css selector", "#ledger li.entry")) == 2)
        dashes = [p.get_attribute("stroke-dasharray") or "" for p in d.find_elements("css selector", "#chart polyline")]
        assert len(set(dashes)) == 4, dashes
        axis = [t.text for t in d.find_elements("css selector", "#chart text.axis")]
        assert "1" in axis and "hand" in axis
        sizes = d.execute_script(
            "const r = (el) => { const b = el.getBoundingClientRect(); return [b.width, b.height]; };"
            "return [...document.querySelectorAll('#export-csv, #export-json')].map(r)"
        )
        assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
        name = d.find_element("css selector", "#seat-0 .name")
        assert d.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", name)
        assert name.value_of_css_property("text-overflow") == "ellipsis"
        # the two kongs may straddle a minute, and the page lists the newest first: compare as sets
        entries = json.loads(fetch(f"{live_server}/api/tables/{token}"))["ledger"]["entries"]
        local = [datetime.fromisoformat(e["created_at"]) + timedelta(hours=8) for e in entries]
        clocks = {t.strftime(f) for t in local for f in ("%H:%M", "%I:%M %p")}  # the locale's clock
        shown = [t.text for t in d.find_elements("css selector", "#ledger li.entry .time")]
        assert len(shown) == 2 and set(shown) <= clocks, (shown, clocks)
        # home: the dealer radios and (on the win screen) the flag checkboxes sit in 44 px labels
        d.get(live_server + "/")
        # the page draws the player rows after it loads: wait for the four radios, then measure
        radios = _wait(
            d,
            lambda x: x.execute_script(
                "const h = [...document.querySelectorAll('label.radio')].map(l => l.getBoundingClientRect().height);"
                "return h.length === 4 ? h : null"
            ),
        )
        assert min(radios) >= 44, radios
    finally:
        d.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
    assert not script_errors(d)


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        ("en", "No last-tile bonus on a discard: the last tiles are not discarded."),
        ("zh", "点和不算海底:海底阶段不打牌。"),
    ],
)
def test_result_notes_are_in_players_words(live_server, browser, lang, note):
    """A Hefei win on a discard marked "last tile": the rule set's note, in the page's language."""
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, lang)
    create_table(d, ["Ann", "Bob", "Chen", "Dora"], variant="hefei")
    click(d, "#act-win")
    click(d, "#manual-btn")
    d.find_element("id", "notation-input").send_keys("234m345m456m678m22m\n")
    _wait(d, lambda x: len(group_codes(x)) == 1)
    click(d, "#q-winner button[data-seat=S]")
    click(d, "#q-from button[data-seat=W]")
    click(d, "#flag-last_tile")
    click(d, "#score-btn")
    assert visible(d, "#result .notes").text == note
    click(d, "#win-cancel")
    assert not script_errors(d)


def _picker_codes(driver):
    return [
        b.get_attribute("data-code") for b in driver.find_elements("css selector", "#sheet .picker button[data-code]")
    ]


def test_the_picker_follows_the_tables_house_rules(live_server, browser):
    """Ningxia offers the winds and dragons until the table turns them off in its settings: from
    then on the picker offers the three suits only (27 tiles)."""
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, "en")
    create_table(d, ["Ann", "Bob", "Chen", "Dora"], variant="ningxia")
    click(d, "#act-win")
    click(d, "#manual-btn")
    click(d, "#picker-add")
    assert len(_picker_codes(d)) == 34 and "7z" in _picker_codes(d)
    click(d, "#sheet-close")
    click(d, "#win-cancel")
    click(d, "#act-settings")
    box = visible(d, "#set-opt-honours")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    click(d, "#set-rules")
    _wait(d, lambda x: "Winds and dragons Yes → No" in x.find_element("id", "ledger").text)
    click(d, "#sheet-close")
    hidden(d, "#sheet")
    click(d, "#act-win")
    click(d, "#manual-btn")
    click(d, "#picker-add")
    assert _picker_codes(d) == [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    assert not script_errors(d), script_errors(d)
