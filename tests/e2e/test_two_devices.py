"""Two tablets at one table, and corrections that keep every fact, in real headless Chromium.

Device A scores South's self-draw while device B records a drawn hand: A's confirmation is refused
(the ledger books nothing wrong), A is told what changed and the win is scored again as the next
hand with the same player, then recorded. A correction opens with every recorded fact and every
winner (a tab each), shows the payments as recorded and as corrected side by side, and records
them all."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from engine.tiles import parse_tiles
from tests.builders import TWO_WINNERS_ON_EAST

from .conftest import set_viewport, shot
from .test_companion_e2e import _wait, click, fetch, group_codes, hidden, js_errors, visible

pytestmark = pytest.mark.e2e

PLAYERS = ["Alice", "Bob", "Chen", "Dora"]
NOTICE = {"en": "Another device changed the ledger first", "zh": "另一台设备先改动了账本"}
DRAW_LINE = {"en": "Recorded — hand 1: Drawn hand", "zh": "已记录 — 第 1 局:流局"}
RESCORED = {"en": "Scored again as hand 2", "zh": "已按第 2 局重新计分"}


def ledger_of(base: str, token: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(fetch(f"{base}/api/tables/{token}"))["ledger"]
    return found


def post(base: str, token: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"{base}/api/tables/{token}/{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        answer: dict[str, Any] = json.loads(resp.read())
    return answer


def open_table(driver: Any, base: str, token: str, lang: str) -> None:
    """Open the table's link in ``lang`` (the browser's log emptied first)."""
    js_errors(driver)
    driver.get(f"{base}/")
    driver.execute_script("localStorage.setItem('mjc.lang', arguments[0]);", lang)
    driver.get(f"{base}/t/{token}")
    visible(driver, "#screen-table #seat-0")


def shown_balances(driver: Any) -> list[int]:
    """The four seats' balances as shown, read at once (the seats may be redrawn meanwhile)."""
    found: list[int] = driver.execute_script(
        "return [0, 1, 2, 3].map((i) => Number(document.getElementById('bal-' + i).textContent))"
    )
    return found


def text_of(driver: Any, css: str) -> str:
    """The text of the element now matching ``css`` ("" when none), read at once (it may be redrawn)."""
    text: str = driver.execute_script(
        "const el = document.querySelector(arguments[0]); return el ? el.textContent : ''", css
    )
    return text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_win_confirmed_on_a_stale_view_is_refused_and_scored_again(live_server, browser, second_browser, lang):
    a, b = browser, second_browser
    for d in (a, b):
        set_viewport(d, 1024, 768, mobile=False)
    token = post_table(live_server)
    open_table(a, live_server, token, lang)
    open_table(b, live_server, token, lang)

    # A: South (Bob) self-draws, typed tiles, scored
    click(a, "#act-win")
    click(a, "#manual-btn")
    a.find_element("id", "notation-input").send_keys("123m456p789s11222z")
    click(a, "#notation-add")
    _wait(a, lambda x: group_codes(x) == [["hand", "1m2m3m4p5p6p7s8s9s1z1z2z2z2z"]])
    click(a, "[data-name=winner] button[data-seat=S]")
    click(a, "#q-from button[data-seat=self]")
    click(a, "#score-btn")
    visible(a, "#step-result")
    assert "Bob" in a.find_element("css selector", "#result .result-one h3").text

    # B: a drawn hand; Chen drew the last tile, so under Nanning Chen deals next
    click(b, "#act-draw")
    click(b, "[data-name=last-drawer] button[data-seat=W]")
    click(b, "#sheet-yes")
    hidden(b, "#sheet")

    # A confirms what it saw: refused; the ledger holds only the draw; A is told, in words
    click(a, "#confirm-btn")
    notice = visible(a, "#win-notice").text
    assert NOTICE[lang] in notice and DRAW_LINE[lang] in notice and RESCORED[lang] in notice, notice
    ledger = ledger_of(live_server, token)
    assert [e.get("outcome") for e in ledger["entries"]] == ["draw"] and ledger["balances"] == [0, 0, 0, 0]
    # scored again on the new hand: the same player, Bob, now North (Chen deals)
    visible(a, "#step-result")
    _wait(a, lambda x: text_of(x, "#result .result-one h3").split(" — ")[0].endswith("Bob"))
    assert re.findall(r"\d+", a.find_element("css selector", "#win-title").text) == ["2"]
    shot(a, f"two_devices_{lang}_stale_notice")
    click(a, "#confirm-btn")
    visible(a, "#screen-table #seat-0")

    ledger = ledger_of(live_server, token)
    assert [e.get("outcome") for e in ledger["entries"]] == ["draw", "win"]
    win = ledger["entries"][1]
    assert win["hand_no"] == 2 and win["state"]["dealer"] == 2 and win["winners"][0]["winner"] == "N"
    assert win["payments"][1] > 0 and all(p < 0 for i, p in enumerate(win["payments"]) if i != 1)
    _wait(a, lambda x: shown_balances(x) == ledger["balances"])
    # B follows by polling
    _wait(b, lambda x: shown_balances(x) == ledger["balances"], timeout=15)
    # the one error the browser logs on A is the refused request
    errors = js_errors(a)
    assert [e["message"].split(" - ")[0].rsplit("/", 1)[1] for e in errors] == ["hands"], errors
    assert "status of 409" in errors[0]["message"] and not js_errors(b), errors


def post_table(base: str, variant: str = "nanning") -> str:
    req = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps({"variant": variant, "players": PLAYERS}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        token: str = json.loads(resp.read())["table"]["token"]
    return token


YUXI_HAND = {
    "winner": "S",
    "win": {"by": "self_draw", "after_kong": True, "double_kong": True, "ten_old_men": True},
    "hand": {
        "concealed": "123m11z222z",
        "winning_tile": "2z",
        "melds": [{"type": "kong", "tiles": "6666p", "from": "N"}, {"type": "concealed_kong", "tiles": "9999s"}],
    },
    "indicators": {"bloom": ["2z", "3m"]},
}


def same_hand(recorded: dict[str, Any], sent: dict[str, Any]) -> bool:
    """The same winner with the same facts (tile strings compared as tiles)."""

    def norm(w: dict[str, Any]) -> dict[str, Any]:
        hand = dict(w["hand"], concealed=sorted(parse_tiles(w["hand"]["concealed"])))
        hand["melds"] = [dict(m, tiles=sorted(parse_tiles(m["tiles"]))) for m in hand.get("melds", [])]
        if "flowers" in hand:
            hand["flowers"] = sorted(parse_tiles(hand["flowers"]))
        return dict(w, hand=hand)

    return norm(recorded) == norm(sent)


def group_codes_of_correction(d: Any) -> list[list[str]]:
    """Open the latest ledger entry's correction; its groups' roles and codes."""
    click(d, "#ledger li.entry button[data-correct]")
    visible(d, "#step-ask")
    found: list[list[str]] = group_codes(d)
    return found


def compare_rows(d: Any) -> list[list[str]]:
    return [
        [td.text for td in tr.find_elements("css selector", "td")]
        for tr in d.find_elements("css selector", "#compare tbody tr")
    ]


#: a recorded winner per rule set with the facts a photo cannot show: flags, melds and their
#: sources (an added kong, a concealed kong), flowers, the Baida, bloom and fish tiles
ROUND_TRIPS: dict[str, dict[str, Any]] = {
    "yuxi": YUXI_HAND,
    "ningbo": {
        "winner": "S",
        "win": {"by": "self_draw", "last_tile": True},
        "hand": {"concealed": "123m456p678s2s555z3s", "winning_tile": "2s", "flowers": "15f"},
        "indicators": {"baida": "3s"},
    },
    "nanning": {
        "winner": "S",
        "win": {"by": "self_draw", "first_turn": True},
        "hand": {"concealed": "123m456p789s11222z", "winning_tile": "2z"},
        "indicators": {"fish": ["1m", "6s", "5z"]},
    },
    # Hefei: ranks 2-8 only, at least 8 tiles of one suit (11 characters here), a claimed pung
    "hefei": {
        "winner": "S",
        "win": {"by": "discard", "from": "W", "last_tile": True},
        "hand": {
            "concealed": "234m567m22m456p",
            "winning_tile": "4p",
            "melds": [{"type": "pung", "tiles": "888m", "from": "E"}],
        },
    },
    "ningxia": {
        "winner": "S",
        "win": {"by": "discard", "from": "W", "robbed_kong": True},
        "hand": {
            "concealed": "789s11z999p",
            "winning_tile": "9p",
            "melds": [
                {"type": "pung", "tiles": "555p", "from": "E"},
                {"type": "added_kong", "tiles": "7777m", "from": "N"},
            ],
        },
    },
}


@pytest.mark.parametrize("variant", list(ROUND_TRIPS))
def test_a_correction_keeps_every_fact(live_server, browser, variant):
    """Correct, score and confirm without a change: the recorded winner is the same, fact for fact;
    the correction screen shows each player's payment as recorded beside the corrected one."""
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    token = post_table(live_server, variant)
    sent = ROUND_TRIPS[variant]
    hand = post(live_server, token, "hands", {"winners": [sent]})["changes"]["entries"][-1]
    open_table(d, live_server, token, "en")
    click(d, "#ledger li.entry button[data-correct]")
    visible(d, "#step-ask")
    flags = [f.get_attribute("data-flag") for f in d.find_elements("css selector", "#q-flags input")]
    assert [f for f in flags if d.find_element("id", f"flag-{f}").is_selected()] == [
        f for f in flags if sent["win"].get(f)
    ]
    before = [f"{n} {p:+d}".replace("+0", "0") for n, p in zip(PLAYERS, hand["payments"])]
    assert [" ".join(r[:2]) for r in compare_rows(d)] == before and all(r[2] == "—" for r in compare_rows(d))
    click(d, "#score-btn")
    visible(d, "#step-result")
    assert [r[1] for r in compare_rows(d)] == [r[2] for r in compare_rows(d)]  # nothing changed
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")
    entry = ledger_of(live_server, token)["entries"][-1]
    assert entry["corrected"] and same_hand(entry["winners"][0], sent), entry["winners"]
    assert entry["payments"] == hand["payments"]
    assert not js_errors(d), js_errors(d)


def test_a_correction_shows_the_payments_before_and_after(live_server, browser):
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    token = post_table(live_server, "yuxi")
    post(live_server, token, "hands", {"winners": [YUXI_HAND]})
    open_table(d, live_server, token, "en")
    assert [role for role, _ in group_codes_of_correction(d)] == ["hand", "meld", "concealed_kong", "bloom"]

    # not Ten Old Men after all: the side-by-side payments show the change before confirming
    click(d, "#flag-ten_old_men")
    click(d, "#score-btn")
    visible(d, "#step-result")
    rows = compare_rows(d)
    assert len(d.find_elements("css selector", "#compare tr.changed")) == 4, rows
    shot(d, "correction_before_after")
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")
    entry = ledger_of(live_server, token)["entries"][-1]
    assert same_hand(
        entry["winners"][0], {**YUXI_HAND, "win": {k: v for k, v in YUXI_HAND["win"].items() if k != "ten_old_men"}}
    )
    assert [f"{p:+d}".replace("+0", "0") for p in entry["payments"]] == [r[2] for r in rows]
    assert not js_errors(d), js_errors(d)


TWO_WINNERS = TWO_WINNERS_ON_EAST


@pytest.mark.parametrize(("lang", "size"), [("en", (1024, 768)), ("zh", (390, 844))])
def test_a_correction_of_two_winners_has_a_tab_each_and_records_both(live_server, browser, lang, size):
    d = browser
    set_viewport(d, *size, mobile=size[0] < 500)
    token = post_table(live_server, "ningxia")
    post(live_server, token, "hands", {"winners": TWO_WINNERS})
    open_table(d, live_server, token, lang)
    click(d, "#ledger li.entry button[data-correct]")
    visible(d, "#step-ask")
    tabs = d.find_elements("css selector", "#winner-tabs button[data-draft]")
    assert [t.text.split()[-1] for t in tabs] == ["Bob", "Chen"] and "on" in tabs[0].get_attribute("class")
    assert group_codes(d) == [["hand", "1m2m3m7s8s9s1z1z1z2z2z9p9p9p"]]
    # it was North's discard: change it on both winners' tabs
    click(d, "#q-from button[data-seat=N]")
    click(d, "#winner-tabs button[data-draft='1']")
    _wait(d, lambda x: group_codes(x) == [["hand", "4m5m6m4s5s6s3z3z3z7z7z7p8p9p"]])
    assert d.find_element("css selector", "#q-from button.on").get_attribute("data-seat") == "E"
    click(d, "#q-from button[data-seat=N]")
    click(d, "#score-btn")
    visible(d, "#step-result")
    assert len(d.find_elements("css selector", "#result .result-one")) == 2
    changed = d.find_elements("css selector", "#compare tr.changed")
    assert {r.get_attribute("data-player") for r in changed} == {"0", "3"}
    shot(d, f"correction_two_winners_{lang}_{size[0]}")
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")
    entry = ledger_of(live_server, token)["entries"][-1]
    moved = [{**w, "win": {"by": "discard", "from": "N"}} for w in TWO_WINNERS]
    assert len(entry["winners"]) == 2 and all(same_hand(r, s) for r, s in zip(entry["winners"], moved))
    assert entry["payments"][0] == 0 and entry["payments"][3] < 0
    assert not js_errors(d), js_errors(d)


@pytest.mark.parametrize(("lang", "size"), [("en", (1024, 768)), ("zh", (390, 844))])
def test_a_correction_adds_another_winner_on_the_discard(live_server, browser, lang, size):
    """East's discard had two winners but only South was recorded: the correction adds West (its
    tiles typed), shows both results and the payments before and after, and records both."""
    d = browser
    set_viewport(d, *size, mobile=size[0] < 500)
    token = post_table(live_server, "ningxia")
    post(live_server, token, "hands", {"winners": TWO_WINNERS[:1]})
    open_table(d, live_server, token, lang)
    click(d, "#ledger li.entry button[data-correct]")
    visible(d, "#step-ask")
    assert not d.find_elements("css selector", "#winner-tabs button[data-draft]")
    click(d, "#score-btn")
    visible(d, "#step-result")
    click(d, "#another-winner")
    click(d, "#manual-btn")
    d.find_element("id", "notation-input").send_keys("456m456s333z77z789p")
    click(d, "#notation-add")
    _wait(d, lambda x: group_codes(x) == [["hand", "4m5m6m4s5s6s3z3z3z7z7z7p8p9p"]])
    click(d, "#q-winner button[data-seat=W]")
    assert d.find_element("css selector", "#q-from button.on").get_attribute("data-seat") == "E"
    tabs = d.find_elements("css selector", "#winner-tabs button[data-draft]")
    assert [t.text.split()[-1] for t in tabs] == ["Bob", "Chen"]
    click(d, "#score-btn")
    visible(d, "#step-result")
    assert len(d.find_elements("css selector", "#result .result-one")) == 2
    changed = {r.get_attribute("data-player") for r in d.find_elements("css selector", "#compare tr.changed")}
    assert changed == {"0", "2"}  # East pays West too; West is paid
    shot(d, f"correction_add_winner_{lang}_{size[0]}")
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")
    entry = ledger_of(live_server, token)["entries"][-1]
    assert entry["corrected"] and [w["winner"] for w in entry["winners"]] == ["S", "W"]
    assert all(same_hand(r, s) for r, s in zip(entry["winners"], TWO_WINNERS))
    assert entry["payments"][2] > 0 and entry["payments"][0] < 0
    assert not js_errors(d), js_errors(d)


def test_a_correction_removes_a_winner(live_server, browser):
    """Two winners were recorded but West did not win after all: its tab's × takes it out; the
    correction scores South alone and records one winner."""
    d = browser
    set_viewport(d, 1024, 768, mobile=False)
    token = post_table(live_server, "ningxia")
    post(live_server, token, "hands", {"winners": TWO_WINNERS})
    alone = post(live_server, post_table(live_server, "ningxia"), "hands", {"winners": TWO_WINNERS[:1]})
    open_table(d, live_server, token, "en")
    click(d, "#ledger li.entry button[data-correct]")
    visible(d, "#step-ask")
    drop = d.find_element("css selector", "#winner-tabs button[data-drop='1']")
    assert drop.get_attribute("aria-label") == "Remove W Chen as a winner"
    drop.click()
    _wait(d, lambda x: not x.find_elements("css selector", "#winner-tabs button[data-draft]"))
    assert group_codes(d) == [["hand", "1m2m3m7s8s9s1z1z1z2z2z9p9p9p"]]
    click(d, "#score-btn")
    visible(d, "#step-result")
    assert len(d.find_elements("css selector", "#result .result-one")) == 1
    click(d, "#confirm-btn")
    visible(d, "#screen-table #seat-0")
    entry = ledger_of(live_server, token)["entries"][-1]
    assert entry["corrected"] and [w["winner"] for w in entry["winners"]] == ["S"]
    assert entry["payments"] == alone["changes"]["entries"][-1]["payments"]
    assert not js_errors(d), js_errors(d)


def test_a_sheet_on_a_stale_view_records_nothing_and_says_what_changed(live_server, browser):
    """A kong sheet opened before another device recorded a draw, and an undo asked before another
    device recorded a kong: both are refused, the table says what changed, nothing is recorded."""
    d = browser
    set_viewport(d, 390, 844, mobile=True)
    token = post_table(live_server, "ningxia")
    open_table(d, live_server, token, "zh")
    click(d, "#act-kong")
    click(d, "[data-name=kong-declarer] button[data-seat=S]")
    click(d, "[data-name=kong-from] button[data-seat=W]")
    post(live_server, token, "draws", {})  # the other device
    click(d, "#kong-record")
    hidden(d, "#sheet")
    notice = visible(d, "#table-notice").text
    assert NOTICE["zh"] in notice and DRAW_LINE["zh"] in notice, notice
    assert [e["kind"] for e in ledger_of(live_server, token)["entries"]] == ["hand"]
    _wait(d, lambda x: "第 2 局" in x.find_element("id", "t-sub").text)
    click(d, "#table-notice button")
    hidden(d, "#table-notice")

    click(d, "#act-undo")
    visible(d, "#sheet-yes")
    post(live_server, token, "kongs", {"type": "kong", "declarer": "N", "from": "E"})
    click(d, "#sheet-yes")
    hidden(d, "#sheet")
    notice = visible(d, "#table-notice").text
    assert "已记录 — 第 2 局:" in notice, notice
    assert [e["kind"] for e in ledger_of(live_server, token)["entries"]] == ["hand", "kong"]
    shot(d, "stale_sheet_zh_390", full=False)
    errors = js_errors(d)
    assert len(errors) == 2 and all("status of 409" in e["message"] for e in errors), errors
