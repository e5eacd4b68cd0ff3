"""The table's evening in real headless Chromium: create a table, record a kong, photograph a win,
fix a misread tile, score, confirm, undo, read the ledger; in English on a tablet (1024×768) and in
Simplified Chinese on a phone (390×844). Screenshots of each main screen go to
``test-output/screenshots/``."""

from __future__ import annotations

import csv
import io
import json
import urllib.request

import pytest

from .conftest import DATA, MISREAD_INDEX, set_viewport, shot

pytestmark = pytest.mark.e2e

WAIT = 15


def _wait(driver, cond, timeout=WAIT):
    """Poll ``cond`` until it holds; an element the page redrew meanwhile (stale) is looked up again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
    return wait.until(cond)


def visible(driver, css):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    return _wait(driver, EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def click(driver, css):
    el = visible(driver, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.click()
    return el


def hidden(driver, css):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    _wait(driver, EC.invisibility_of_element_located((By.CSS_SELECTOR, css)))


def balances(driver):
    return [int(driver.find_element("css selector", f"#bal-{i}").text) for i in range(4)]


def js_errors(driver):
    try:
        return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    except Exception:  # pragma: no cover - log type not offered
        return []


def open_home(driver, base, lang):
    driver.get(base + "/")
    driver.execute_script("localStorage.clear(); localStorage.setItem('mjc.lang', arguments[0]);", lang)
    driver.get(base + "/")
    _wait(
        driver,
        lambda d: d.execute_script(
            "return [...document.querySelectorAll('#f-variant option')].some(o => o.value === 'ningxia')"
        ),
    )


def create_table(driver, names, variant="ningxia"):
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "f-variant")).select_by_value(variant)
    for i, name in enumerate(names):
        el = driver.find_element("id", f"f-player-{i}")
        el.clear()
        el.send_keys(name)
    click(driver, "#create-btn")
    visible(driver, "#screen-table #seat-0")
    return driver.current_url.rsplit("/t/", 1)[1]


def Select(el):
    from selenium.webdriver.support.ui import Select as _Select

    return _Select(el)


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.read().decode("utf-8-sig")


def group_codes(driver):
    """Each shown group's role and tile codes, in order."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#groups .group')].map(g => [g.querySelector('.role-chip.on').dataset.role,"
        " [...g.querySelectorAll('button.tile-btn .tile')].map(t => t.dataset.code).join('')])"
    )


def photo_win(driver, prefix, winner, by, value, arrows):
    """Upload the photo fixture, fix the misread tile from its alternatives, answer, score: the
    result shows ``value`` and one payment arrow per payer with the amounts ``arrows``; confirm."""
    d = driver
    click(d, "#act-win")
    d.find_element("id", "photo-input").send_keys(str(DATA / "hand_photo.jpg"))
    visible(d, "#step-review")
    _wait(d, lambda x: len(x.find_elements("css selector", "#photo-overlay g.box")) == 14)
    # the misread tile is boxed red (doubtful), the others green
    strokes = [p.get_attribute("stroke") for p in d.find_elements("css selector", "#photo-overlay polygon")]
    assert strokes[MISREAD_INDEX] == "#e03131" and strokes.count("#2f9e44") == 13
    truth = json.loads((DATA / "hand_photo.json").read_text())
    right = truth["tiles"][MISREAD_INDEX]["code"]
    shot(d, f"{prefix}_2_photo_review")
    click(d, f"#groups button.tile-btn[data-tile='{MISREAD_INDEX}']")
    visible(d, "#sheet .alts")
    shot(d, f"{prefix}_3_fix_tile", full=False)
    click(d, f"#sheet .alt[data-code='{right}']")
    hidden(d, "#sheet")
    face = d.find_element("css selector", f"#groups button.tile-btn[data-tile='{MISREAD_INDEX}'] .tile")
    assert face.get_attribute("data-code") == right
    # the second group (a 5z pung with a lying tile) defaults to a claimed meld
    assert [role for role, _ in group_codes(d)] == ["hand", "meld"]
    click(d, f"[data-name=winner] button[data-seat={winner}]")
    click(d, f"#q-from button[data-seat={by}]")
    click(d, "#score-btn")
    visible(d, "#step-result")
    assert int(visible(d, "#result-value").text) == value
    assert len(d.find_elements("css selector", "#result svg.arrows line.pay")) == len(arrows)
    assert sorted(int(a.text) for a in d.find_elements("css selector", "#result svg.arrows text.amt")) == sorted(arrows)
    shot(d, f"{prefix}_4_result")
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")


def test_tablet_evening_in_english(live_server, browser):
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, "en")
    assert visible(d, "#screen-home h1").text == "New table"
    # the rule set's documented options are shown with their defaults
    assert "default: Yes" in d.find_element("id", "f-options").text
    for i, name in enumerate(["Alice", "Bob", "Chen", "Dora"]):
        d.find_element("id", f"f-player-{i}").send_keys(name)
    shot(d, "tablet_en_1_new_table")
    token = create_table(d, ["Alice", "Bob", "Chen", "Dora"])
    assert balances(d) == [0, 0, 0, 0]
    assert "East round" in d.find_element("id", "t-sub").text

    # a kong as it happens: Bob (South) kongs Chen's (West) discard
    click(d, "#act-kong")
    click(d, "[data-name=kong-declarer] button[data-seat=S]")
    click(d, "[data-name=kong-from] button[data-seat=W]")
    click(d, "#kong-record")
    hidden(d, "#sheet")
    # Ningxia: the discarder of an exposed kong pays 3
    after_kong = balances(d)
    assert after_kong == [0, 3, -3, 0]

    # a win: photograph, fix the misread tile, answer, score, confirm
    # a standard win by self-draw: each other player pays 2, Bob collects 6
    photo_win(d, "tablet_en", winner="S", by="self", value=6, arrows=[2, 2, 2])
    after_win = balances(d)
    assert after_win == [-2, 9, -5, -2]
    entries = d.find_elements("css selector", "#ledger li.entry")
    assert len(entries) == 2 and "Bob won" in entries[0].text
    assert "Hand 2" in d.find_element("id", "t-sub").text
    assert len(d.find_elements("css selector", "#chart svg polyline")) == 4
    assert "Standard win" in json.dumps(json.loads(fetch(f"{live_server}/api/tables/{token}"))["ledger"]["entries"])
    shot(d, "tablet_en_5_table_ledger")

    # undo the win: balances go back, the ledger keeps the kong
    click(d, "#act-undo")
    assert "Bob won" in visible(d, "#sheet-body").text
    click(d, "#sheet-yes")
    hidden(d, "#sheet")
    _wait(d, lambda x: balances(x) == after_kong)
    entries = d.find_elements("css selector", "#ledger li.entry")
    assert len(entries) == 1 and "kong" in entries[0].text.lower()
    assert "Hand 1" in d.find_element("id", "t-sub").text

    # a drawn hand: the dealer keeps the deal under this rule set, the streak shows
    click(d, "#act-draw")
    click(d, "#sheet-yes")
    hidden(d, "#sheet")
    _wait(d, lambda x: "Hand 2" in x.find_element("id", "t-sub").text)
    assert "dealer streak 1" in d.find_element("id", "t-sub").text

    # the exports agree with the screen
    rows = list(csv.reader(io.StringIO(fetch(f"{live_server}/api/tables/{token}/export.csv"))))
    assert rows[0][0] == "seq" and rows[-1][-4:] == [str(b) for b in after_kong]
    assert [r[5] for r in rows[1:]] == ["start", "kong", "draw"]
    exported = json.loads(fetch(f"{live_server}/api/tables/{token}/export.json"))
    assert [e["kind"] for e in exported["events"]] == ["kong", "hand", "undo", "hand"]
    assert not js_errors(d), js_errors(d)


def test_several_writes_merge_into_what_the_server_holds(live_server, browser):
    """Writes answer what they changed; the page merges it. After kongs, draws and an undo — one
    kong recorded by another device in between, which makes the page reload instead — the seats,
    the ledger and the chart are the server's."""
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, "en")
    token = create_table(d, ["Alice", "Bob", "Chen", "Dora"])

    def kong(declarer, discarder):
        click(d, "#act-kong")
        click(d, f"[data-name=kong-declarer] button[data-seat={declarer}]")
        click(d, f"[data-name=kong-from] button[data-seat={discarder}]")
        click(d, "#kong-record")
        hidden(d, "#sheet")

    def server_ledger():
        return json.loads(fetch(f"{live_server}/api/tables/{token}"))["ledger"]

    def shows_the_server():
        ledger = server_ledger()
        return (
            balances(d) == ledger["balances"]
            and len(d.find_elements("css selector", "#ledger li.entry")) == len(ledger["entries"])
            and len(d.find_elements("css selector", "#chart polyline")) == 4
        )

    kong("S", "W")
    kong("N", "E")
    click(d, "#act-draw")
    click(d, "#sheet-yes")
    hidden(d, "#sheet")
    _wait(d, lambda x: shows_the_server())
    # another device records a kong: the page's ledger is one version behind
    other = urllib.request.Request(
        f"{live_server}/api/tables/{token}/kongs",
        data=json.dumps({"type": "kong", "declarer": "W", "from": "N"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    urllib.request.urlopen(other, timeout=10).close()
    kong("E", "S")
    _wait(d, lambda x: shows_the_server())
    click(d, "#act-undo")
    click(d, "#sheet-yes")
    hidden(d, "#sheet")
    _wait(d, lambda x: shows_the_server())
    assert [e["kind"] for e in server_ledger()["entries"]] == ["kong", "kong", "hand", "kong"]
    assert sum(balances(d)) == 0
    shot(d, "tablet_en_6_after_several_writes")
    assert not js_errors(d), js_errors(d)


def test_phone_evening_in_chinese(live_server, browser):
    d = browser
    set_viewport(d, 390, 844, mobile=True)
    open_home(d, live_server, "zh")
    assert visible(d, "#screen-home h1").text == "新牌桌"
    for i, name in enumerate(["甲", "乙", "丙", "丁"]):
        d.find_element("id", f"f-player-{i}").send_keys(name)
    shot(d, "phone_zh_1_new_table")
    token = create_table(d, ["甲", "乙", "丙", "丁"])
    assert "东风圈" in d.find_element("id", "t-sub").text
    shot(d, "phone_zh_1b_table", full=False)

    # a win on West's (丙) discard by North (丁): photo, fix a tile, score, confirm
    # a standard win on a discard: the discarder alone pays 3
    photo_win(d, "phone_zh", winner="N", by="W", value=3, arrows=[3])
    b = balances(d)
    assert b == [0, 0, -3, 3]
    assert "丁 和牌" in d.find_element("css selector", "#ledger li.entry").text
    shot(d, "phone_zh_5_ledger")

    # correct the hand: it was South's (乙) discard, not West's; balances recompute
    click(d, "#ledger li.entry button")
    visible(d, "#step-ask")
    assert "更正第 1 局" in d.find_element("id", "win-title").text
    # the recorded hand, read back by the server, is the draft: the hand and the claimed pung
    assert group_codes(d) == [["hand", "1m2m3m4p5p6p7s8s9s1z1z"], ["meld", "5z5z5z"]]
    click(d, "#q-from button[data-seat=S]")
    # the table also types tiles: replace the hand with a typed one (no meld)
    for k in range(len(group_codes(d))):
        click(d, f"#groups .group[data-group='{k}'] .role-chip[data-role=ignore]")
    d.find_element("id", "notation-input").send_keys("123m456p789s11222z")
    click(d, "#notation-add")
    _wait(d, lambda x: group_codes(x)[-1] == ["hand", "1m2m3m4p5p6p7s8s9s1z1z2z2z2z"])
    click(d, "#score-btn")
    visible(d, "#step-result")
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")
    fixed = balances(d)
    assert fixed == [0, -3, 0, 3]
    assert "已更正" in d.find_element("css selector", "#ledger li.entry").text

    # the watch link: read-only, live
    watch = json.loads(fetch(f"{live_server}/api/tables/{token}"))["table"]["watch_token"]
    d.get(f"{live_server}/w/{watch}")
    visible(d, "#readonly-banner")
    assert not d.find_element("id", "actions").is_displayed()
    assert balances(d) == fixed
    shot(d, "phone_zh_6_watch", full=False)

    # back on the table link: undo the correction, then the win
    d.get(f"{live_server}/t/{token}")
    for expected in (b, [0, 0, 0, 0]):
        click(d, "#act-undo")
        click(d, "#sheet-yes")
        hidden(d, "#sheet")
        _wait(d, lambda x, expected=expected: balances(x) == expected)
    assert "还没有牌局" in d.find_element("id", "ledger").text

    # the same table on the tablet, in Chinese
    set_viewport(d, 1024, 768, mobile=False)
    d.refresh()
    visible(d, "#seat-0")
    shot(d, "tablet_zh_7_table", full=False)
    assert not js_errors(d), js_errors(d)


@pytest.mark.parametrize(("variant", "lang", "bad_lead"), [("ningbo", "en", ""), ("hefei", "zh", "牌的写法不对 — ")])
def test_roles_and_flags_are_the_rule_sets_and_typed_tiles_are_read_by_the_server(
    live_server, browser, variant, lang, bad_lead
):
    """The page offers exactly the roles and win flags the rule set publishes (Ningbo has a Baida
    indicator, Hefei none); typed Chinese tile names are read by the server, and a typo shows the
    server's message (led by its translation in Chinese)."""
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, live_server, lang)
    facts = next(v for v in json.loads(fetch(f"{live_server}/api/variants"))["variants"] if v["name"] == variant)
    create_table(d, ["P1", "P2", "P3", "P4"], variant=variant)
    click(d, "#act-win")
    click(d, "#manual-btn")
    d.find_element("id", "notation-input").send_keys("一萬二萬三萬 東東")
    click(d, "#notation-add")
    _wait(d, lambda x: group_codes(x) == [["hand", "1m2m3m1z1z"]])
    options = d.find_elements("css selector", "#groups .role-chip")
    assert [o.get_attribute("data-role") for o in options] == facts["roles"]
    assert all(o.text and not o.text.startswith("role_") for o in options)
    flags = d.find_elements("css selector", "#q-flags input[type=checkbox]")
    assert [f.get_attribute("id") for f in flags] == [f"flag-{f}" for f in facts["win_flags"]]
    assert not any(x.text.startswith("flag_") for x in d.find_elements("css selector", "#q-flags label"))
    assert not js_errors(d), js_errors(d)
    # the refused text (a 400, which the browser logs) leaves the draft as it was
    d.find_element("id", "notation-input").send_keys("12x")
    click(d, "#notation-add")
    error = visible(d, "#review-error").text
    assert error.endswith(
        f"{bad_lead}unknown suit letter 'x': use m (characters), p (dots), s (bamboo), z (honours), f (flowers) [tiles]"
    ), error
    assert group_codes(d) == [["hand", "1m2m3m1z1z"]]
    assert [e["message"].split(" - ")[0].rsplit("/", 1)[1] for e in js_errors(d)] == ["notation"]


#: the roles of the groups as listed: the hand's first, then the indicator candidates, then the others
CLUTTER_ROLES = ["hand", "meld"] + ["ignore"] * 6


@pytest.mark.parametrize(
    "lang, size, variant",
    [("en", (1024, 768), "ningbo"), ("zh", (390, 844), "ningbo"), ("en", (1024, 768), "ningxia")],
)
def test_cluttered_photo_leaves_the_others_out_and_asks_for_the_indicator(
    cluttered_server, browser, lang, size, variant
):
    """A photo with more than the hand: the groups the recogniser marks as not the hand are
    ignored, each saying why; two tiles near the hand could be the Baida indicator, so none is
    taken and the page asks (a rule set without indicators does not); one tap on the chip answers;
    a stray group put to use goes back with one tap on "Ignore all others"."""
    d = browser
    set_viewport(d, *size, mobile=size[0] < 500)
    open_home(d, cluttered_server, lang)
    create_table(d, ["P1", "P2", "P3", "P4"], variant=variant)
    click(d, "#act-win")
    d.find_element("id", "photo-input").send_keys(str(DATA / "hand_photo.jpg"))
    visible(d, "#step-review")
    _wait(d, lambda x: len(group_codes(x)) == 8)
    assert [role for role, _ in group_codes(d)] == CLUTTER_ROLES
    whys = [w.text for w in d.find_elements("css selector", "#groups .group-why")]
    assert len(whys) == 6 and all(w.startswith("Not the hand: " if lang == "en" else "不是手牌:") for w in whys)
    if lang == "en":
        maybe = "maybe an indicator" if variant == "ningbo" else "set apart near the hand"
        assert maybe in whys[0] and maybe in whys[1]
        assert "smaller tiles than the hand" in whys[2] and "discard pile" in whys[3] and "tile backs only" in whys[4]
    # 19 tiles outside the hand: their boxes dimmed, the photo cropped to the hand
    assert len(d.find_elements("css selector", "#photo-overlay g.box.ignored")) == 19
    assert not d.find_elements("css selector", "#ignore-others")
    chips = d.find_elements("css selector", "#groups button.this-indicator")
    shot(d, f"clutter_{lang}_{size[0]}_{variant}_review")
    if variant == "ningxia":
        assert not chips and not d.find_elements("css selector", "#ask-indicator")
    else:
        ask = visible(d, "#ask-indicator").text
        assert ask == (
            "Several groups could be the Baida indicator: tap the one that is."
            if lang == "en"
            else "有几组都可能是百搭指示牌:请点真正的那一组。"
        )
        assert len(chips) == 2
        click(d, "#groups .group[data-group='7'] button.this-indicator")
        hidden(d, "#ask-indicator")
        assert [role for role, _ in group_codes(d)] == ["hand", "meld", "ignore", "baida"] + ["ignore"] * 4
        assert not d.find_elements("css selector", "#groups button.this-indicator")
    # a stray group put to use by hand is the table's choice: "Ignore all others" is not offered
    # (it would undo it), the group's own Ignore chip puts it back
    click(d, "#groups .group:last-child .role-chip[data-role=hand]")
    assert [role for role, _ in group_codes(d)][-1] == "hand"
    assert not d.find_elements("css selector", "#ignore-others")
    click(d, "#groups .group:last-child .role-chip[data-role=ignore]")
    assert [role for role, _ in group_codes(d)][-1] == "ignore"
    assert d.find_element("css selector", "#groups button.tile-btn .tile.winning").get_attribute("data-code") == "1z"
    assert not js_errors(d), js_errors(d)


def test_ignore_all_others_keeps_the_roles_the_table_set(scripted_server, browser):
    """One face-up tile near the hand: the page takes it as the Baida indicator. The table says the
    Baida is another group (its chip) and puts a stray group to use as a meld by hand; "Ignore all
    others" then ignores only the page's own guess, keeping both groups the table set."""
    from . import conftest

    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    open_home(d, scripted_server, "en")
    create_table(d, ["P1", "P2", "P3", "P4"], variant="ningbo")
    conftest.SCRIPT[:] = ["clutter1"]
    click(d, "#act-win")
    d.find_element("id", "photo-input").send_keys(str(DATA / "hand_photo.jpg"))
    visible(d, "#step-review")
    _wait(d, lambda x: len(group_codes(x)) == 7)
    roles = [role for role, _ in group_codes(d)]
    assert roles == ["hand", "meld", "baida"] + ["ignore"] * 4, roles
    assert not d.find_elements("css selector", "#ask-indicator")
    listed = d.find_elements("css selector", "#groups .group")
    guessed, chosen, stray = (listed[k].get_attribute("data-group") for k in (2, 3, 4))
    click(d, f"#groups .group[data-group='{chosen}'] .role-chip[data-role=baida]")
    click(d, f"#groups .group[data-group='{stray}'] .role-chip[data-role=meld]")
    click(d, "#ignore-others")
    _wait(
        d,
        lambda x: [role for role, _ in group_codes(x)] == ["hand", "meld", "ignore", "baida", "meld"] + ["ignore"] * 2,
    )
    assert (
        d.find_element("css selector", f"#groups .group[data-group='{guessed}'] .role-chip.on").get_attribute(
            "data-role"
        )
        == "ignore"
    )
    assert not d.find_elements("css selector", "#ignore-others")
    assert not js_errors(d), js_errors(d)
