"""Screenshots of every screen of the page at 1024x768 (tablet) and 390x844 (phone), in English and
Chinese, for a person to look at; and the JavaScript errors seen on the way (none expected).

    .venv/bin/python -m tests.e2e.sweep_screens [OUT]     (default /tmp/r3-shots)

Screens: home, the table (seats with a long name, chart, ledger), a kong / claim / draw / undo
sheet, the win screen at each step (photo, a cluttered photo's review with the indicator
question, the fix-tile sheet, the picker, the result), a correction, the settings sheet and the
ledger after settings changes, the watch link, an unknown table, the home page's Nanning payout
table, a correction of two winners. It serves the companion itself (the cluttered stand-in reading of ``conftest``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.builders import TWO_WINNERS_ON_EAST

from . import conftest
from .conftest import DATA, set_viewport
from .test_companion_e2e import _wait, click, create_table, hidden, open_home, visible

SIZES = {"tablet": (1024, 768, False), "phone": (390, 844, True)}
NAMES = {"en": ["Alexandra Konstantinopoulou", "Bob", "Chen", "Dora"], "zh": ["欧阳娜娜娜娜娜娜", "乙", "丙", "丁"]}


def _browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(conftest.CHROMIUM)
    for flag in conftest.FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='mjc-sweep-')}")
    opts.add_argument("--window-size=1024,768")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(conftest.CHROMEDRIVER)), options=opts)


class Sweep:
    """One browser walking the screens; every shot named ``<size>_<lang>_<nn>_<screen>.png``."""

    def __init__(self, driver, out: Path) -> None:
        self.d, self.out, self.n, self.errors = driver, out, 0, []

    def shot(self, prefix: str, name: str, full: bool = True) -> None:
        self.n += 1
        conftest.SHOTS = self.out
        path = conftest.shot(self.d, f"{prefix}_{self.n:02d}_{name}", full=full)
        print(path)
        self.collect()

    def collect(self) -> None:
        for e in self.d.get_log("browser"):
            if e.get("level") == "SEVERE" and e.get("source") != "network":
                self.errors.append(e)

    def sheet(self, prefix: str, button: str, name: str) -> None:
        click(self.d, button)
        visible(self.d, "#sheet")
        self.shot(prefix, name, full=False)
        click(self.d, "#sheet-close")
        hidden(self.d, "#sheet")

    def evening(self, base: str, prefix: str, lang: str) -> str:
        d = self.d
        open_home(d, base, lang)
        for i, name in enumerate(NAMES[lang]):
            d.find_element("id", f"f-player-{i}").send_keys(name)
        self.shot(prefix, "home")
        token = create_table(d, NAMES[lang], variant="ningbo")
        click(d, "#act-kong")
        click(d, "[data-name=kong-declarer] button[data-seat=S]")
        click(d, "[data-name=kong-from] button[data-seat=W]")
        click(d, "#kong-record")
        hidden(d, "#sheet")
        for button, name in (("#act-kong", "kong_sheet"), ("#act-claim", "claim_sheet"), ("#act-draw", "draw_sheet")):
            self.sheet(prefix, button, name)
        click(d, "#act-win")
        visible(d, "#step-capture")
        self.shot(prefix, "win_photo_step", full=False)
        d.find_element("id", "photo-input").send_keys(str(DATA / "hand_photo.jpg"))
        visible(d, "#ask-indicator")
        self.shot(prefix, "win_review_cluttered")
        click(d, "#groups .group[data-group='7'] button.this-indicator")
        click(d, "#groups .group[data-group='0'] button.tile-btn[data-tile]")
        visible(d, "#sheet .picker")
        self.shot(prefix, "fix_tile_sheet", full=False)
        click(d, "#sheet-close")
        click(d, "#picker-add")
        visible(d, "#sheet .picker")
        self.shot(prefix, "picker_sheet", full=False)
        click(d, "#sheet-close")
        click(d, "#q-winner button[data-seat=S]")
        click(d, "#q-from button[data-seat=self]")
        self.shot(prefix, "win_ask_step", full=False)
        click(d, "#score-btn")
        visible(d, "#step-result svg.arrows")
        self.shot(prefix, "win_result")
        click(d, "#confirm-btn")
        visible(d, "#screen-table #seat-0")
        self.shot(prefix, "table")
        self.sheet(prefix, "#act-undo", "undo_sheet")
        click(d, "#ledger li.entry button[data-correct]")
        visible(d, "#step-ask")
        self.shot(prefix, "correction")
        click(d, "#win-cancel")
        self.settings(prefix, lang)
        return token

    def settings(self, prefix: str, lang: str) -> None:
        """The settings sheet after a rename, an exchange of two names and a house-rule change; the
        table's ledger saying so."""
        d = self.d
        click(d, "#act-settings")
        for i, name in ((1, NAMES[lang][2]), (2, NAMES[lang][1])):
            box = visible(d, f"#set-name-{i}")
            box.clear()
            box.send_keys(name)
        entries = len(d.find_elements("css selector", "#ledger li.entry"))
        click(d, "#set-names")
        _wait(d, lambda x: len(x.find_elements("css selector", "#ledger li.entry")) > entries)
        box = visible(d, "#set-opt-minimum_tai")
        box.clear()
        box.send_keys("3")
        click(d, "#set-rules")
        visible(d, "#set-options")
        self.shot(prefix, "settings_sheet")
        click(d, "#sheet-close")
        hidden(d, "#sheet")
        self.shot(prefix, "table_after_settings", full=False)

    def extras(self, base: str, prefix: str, lang: str) -> None:
        """Home with the tables on this device (the evening's, its names as renamed) and Nanning's
        payout table on the form; a correction
        of a hand with two winners (a tab each, with its ×)."""
        import json
        import urllib.request

        from selenium.webdriver.support.ui import Select

        d = self.d
        d.get(f"{base}/")  # the evening's table, its names as renamed
        visible(d, "#recent-box")
        self.shot(prefix, "home_recent_tables")
        open_home(d, base, lang)
        Select(d.find_element("id", "f-variant")).select_by_value("nanning")
        d.execute_script("document.getElementById('f-options-box').open = true")
        visible(d, "#opt-values")
        self.shot(prefix, "home_nanning_payout_table")
        body = {"variant": "ningxia", "players": NAMES[lang]}
        req = urllib.request.Request(
            f"{base}/api/tables", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        token = json.loads(urllib.request.urlopen(req).read())["table"]["token"]
        winners = [dict(w) for w in TWO_WINNERS_ON_EAST]
        req = urllib.request.Request(
            f"{base}/api/tables/{token}/hands",
            data=json.dumps({"winners": winners}).encode(),
            headers={"Content-Type": "application/json"},
        )
        urllib.request.urlopen(req).read()
        d.get(f"{base}/t/{token}")
        click(d, "#ledger li.entry button[data-correct]")
        visible(d, "#winner-tabs button[data-drop]")
        self.shot(prefix, "correction_two_winners", full=False)
        click(d, "#win-cancel")

    def run(self, bases: dict[str, str]) -> None:
        for size, (w, h, mobile) in SIZES.items():
            for lang in ("en", "zh"):
                prefix = f"{size}_{lang}"
                set_viewport(self.d, w, h, mobile)
                token = self.evening(bases["cluttered"], prefix, lang)
                import json
                import urllib.request

                view = json.loads(urllib.request.urlopen(f"{bases['cluttered']}/api/tables/{token}").read())
                self.d.get(f"{bases['cluttered']}/w/{view['table']['watch_token']}")
                visible(self.d, "#readonly-banner")
                self.shot(prefix, "watch_link")
                self.d.get(f"{bases['cluttered']}/t/no-such-table")
                visible(self.d, "#screen-error")
                self.shot(prefix, "not_found", full=False)
                self.extras(bases["cluttered"], prefix, lang)


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "/tmp/r3-shots")
    out.mkdir(parents=True, exist_ok=True)
    serving = conftest._serve("mjc-sweep-", lambda data: conftest._Reading(conftest.cluttered_reading()))
    base = next(serving)
    driver = _browser()
    try:
        sweep = Sweep(driver, out)
        sweep.run({"cluttered": base})
    finally:
        driver.quit()
        serving.close()  # the server stops and its data folder is removed
    print(f"{sweep.n} screenshots in {out}; JavaScript errors: {len(sweep.errors)}")
    for e in sweep.errors:
        print("  ", e)
    return 1 if sweep.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
