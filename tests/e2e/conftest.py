"""End-to-end fixtures: the companion served by waitress on 127.0.0.1 in a thread, and headless
Debian Chromium driven by Selenium. Skipped, with the reason, when Chromium or Selenium is absent.

The photo fixture ``data/hand_photo.jpg`` is a synthetic table photo (``vision.scenes``) whose
ground truth is ``data/hand_photo.json``. The server here reads it with a stand-in recogniser that
returns that ground truth with one tile misread (low confidence), so the browser test can fix it
and stay fast on two cores; ``tests/test_companion_api.py`` runs the real ``vision.recognize``.
A second server (``cluttered_server``) reads every photo as that hand on a cluttered table: a
discard pile, another player's meld, stray backs and two face-up tiles near the hand. Both judge
which groups are the hand with the real ``vision.hand``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SHOTS = ROOT / "test-output" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--force-device-scale-factor=1",
    "--lang=en-US",
]

#: which tile the stand-in recogniser misreads, and as what
MISREAD_INDEX = 4
MISREAD_AS = "6p"


def _skip_reason() -> str | None:
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        return (
            "Debian chromium / chromium-driver not installed at /usr/bin/chromium and /usr/bin/chromedriver "
            "(`python3 run.py test` installs them as root; or: apt-get install chromium chromium-driver)"
        )
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[e2e]')"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _skip_reason()
    for item in items:
        if "/e2e/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


class _Reading:
    def __init__(self, d: dict) -> None:
        self._d = d

    def to_dict(self) -> dict:
        return self._d


def _judged(tiles: list[dict], groups: list[dict]) -> list[dict]:
    """The groups with the real recogniser's verdict: the hand or not, and why."""
    from vision.hand import judge

    verdicts = judge([t["code"] for t in tiles], [t["quad"] for t in tiles], groups)
    return [{**g, **v.to_dict()} for g, v in zip(groups, verdicts)]


def _tile(code: str, x: float, y: float, w: float, h: float) -> dict:
    return {
        "code": code,
        "quad": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
        "confidence": 0.95,
        "alternatives": [[code, 0.95], ["1s", 0.03], ["7z", 0.02]],
        "rotated": False,
    }


def cluttered_reading(near: int = 2) -> dict:
    """The fixture hand (no misread) among other tiles, rows and groups as ``vision.grouping``
    arranges them: a discard pile of two rows of smaller tiles, another player's meld far up, two
    stray backs, and ``near`` face-up tiles just below the hand (two: the page asks which is the
    indicator; one: the page takes it)."""
    from vision import grouping

    truth = json.loads((DATA / "hand_photo.json").read_text())
    tiles = [_tile(t["code"], 0, 0, 0, 0) | {"quad": t["quad"], "rotated": bool(t["rotated"])} for t in truth["tiles"]]
    discards = (("1p", "2p", "3p", "4p", "5p", "6p"), ("7m", "8m", "9m", "1s", "2s", "3s"))
    tiles += [_tile(c, 400 + 43 * i, 120 + 60 * r, 40, 56) for r, row in enumerate(discards) for i, c in enumerate(row)]
    tiles += [_tile("7s", 950 + 32 * i, 40, 30, 42) for i in range(3)]
    tiles += [_tile("back", 1080 + 59 * i, 150, 56, 78) for i in range(2)]
    tiles += [_tile("3s", 280, 470, 56, 78), _tile("6z", 900, 470, 56, 78)][:near]
    order, rows, groups = grouping.arrange([t["quad"] for t in tiles])
    tiles = [dict(tiles[i], row=rows[i], group=groups[i]) for i in order]
    gs: dict[int, dict] = {}
    for i, t in enumerate(tiles):
        g = gs.setdefault(t["group"], {"index": t["group"], "row": t["row"], "tiles": [], "codes": ""})
        g["tiles"].append(i)
        g["codes"] += t["code"]
    return {
        "tiles": tiles,
        "groups": _judged(tiles, [gs[k] for k in sorted(gs)]),
        "width": truth["width"],
        "height": truth["height"],
        "timings_ms": {"total": 1.0},
        "reason": None,
    }


def photo_reading() -> dict:
    """The fixture photo's ground truth as a recognition, with one tile misread."""
    truth = json.loads((DATA / "hand_photo.json").read_text())
    tiles = []
    for t in truth["tiles"]:
        tiles.append(
            {
                "code": t["code"],
                "quad": t["quad"],
                "confidence": 0.97,
                "sure": True,
                "alternatives": [[t["code"], 0.97], ["1s", 0.02], ["7z", 0.01]],
                "rotated": bool(t["rotated"]),
                "row": t["row"],
                "group": t["group"],
            }
        )
    right = tiles[MISREAD_INDEX]["code"]
    tiles[MISREAD_INDEX].update(
        code=MISREAD_AS, confidence=0.46, sure=False, alternatives=[[MISREAD_AS, 0.46], [right, 0.41], ["3p", 0.06]]
    )
    groups: dict[int, dict] = {}
    for i, t in enumerate(tiles):
        g = groups.setdefault(t["group"], {"index": t["group"], "row": t["row"], "tiles": [], "codes": ""})
        g["tiles"].append(i)
        g["codes"] += t["code"]
    return {
        "tiles": tiles,
        "groups": _judged(tiles, [groups[k] for k in sorted(groups)]),
        "width": truth["width"],
        "height": truth["height"],
        "timings_ms": {"total": 1.0},
        "reason": None,
    }


@pytest.fixture(scope="session")
def live_server():
    """The companion reading every photo as the fixture photo's ground truth with one tile misread."""
    yield from _serve("mjc-e2e-", lambda data: _Reading(photo_reading()))


@pytest.fixture(scope="session")
def cluttered_server():
    """The companion reading every photo as the cluttered table (:func:`cluttered_reading`)."""
    yield from _serve("mjc-e2e-clutter-", lambda data: _Reading(cluttered_reading()))


def _chromium():
    """Headless Chromium with its own profile, driven by Selenium (quit it, then remove the profile)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="mjc-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument("--window-size=1024,768")
    opts.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    driver.set_page_load_timeout(20)
    SHOTS.mkdir(parents=True, exist_ok=True)
    return driver, profile


@pytest.fixture(scope="session")
def browser():
    driver, profile = _chromium()
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture()
def second_browser():
    """Another tablet at the same table: a second Chromium of its own (two devices, two sessions)."""
    driver, profile = _chromium()
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def set_viewport(driver, width: int, height: int, mobile: bool) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )


def shot(driver, name: str, full: bool = True) -> Path:
    """Save a screenshot under test-output/screenshots (the whole page when ``full``)."""
    path = SHOTS / f"{name}.png"
    if full:
        metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        vp = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        height = min(int(size["height"]), 4000)
        shot_data = driver.execute_cdp_cmd(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": vp[0], "height": max(height, vp[1]), "scale": 1},
            },
        )
        import base64

        path.write_bytes(base64.b64decode(shot_data["data"]))
    else:
        driver.save_screenshot(str(path))
    return path


def _serve(prefix: str, recognizer):
    """The companion on a free port in a thread, its address yielded (``recognizer`` None: the real
    ``vision.recognize``); stopped and its data folder removed afterwards."""
    from waitress import create_server

    from companion.app import create_app

    data_dir = tempfile.mkdtemp(prefix=prefix)
    app = create_app(data_dir) if recognizer is None else create_app(data_dir, recognizer=recognizer)
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def real_server():
    """The companion with the real recogniser (``vision.recognize``): no stand-in reading."""
    yield from _serve("mjc-e2e-real-", None)


#: what the scripted server's recogniser does on its next calls: "fail" (503 busy), "slow" (answers
#: the fixture reading after SLOW_S seconds), "empty" (a photo with no tiles read, and why),
#: "clutter1" (the cluttered table with one indicator candidate); with none left it answers the
#: fixture reading at once
SCRIPT: list[str] = []
SLOW_S = 2.5


@pytest.fixture(scope="session")
def scripted_server():
    """A server whose readings fail or come late as :data:`SCRIPT` says (then the fixture reading)."""
    import time

    from companion.errors import ApiError

    def recognizer(data):
        step = SCRIPT.pop(0) if SCRIPT else ""
        if step == "fail":
            raise ApiError(503, "busy", "the recogniser is busy; try again in a moment", "photo")
        if step == "slow":
            time.sleep(SLOW_S)
        if step == "empty":
            empty = {"tiles": [], "groups": [], "width": 1200, "height": 900, "timings_ms": {"total": 1.0}}
            return _Reading(empty | {"reason": "no tiles found: the photo is too dark or blurred"})
        if step == "clutter1":
            return _Reading(cluttered_reading(near=1))
        return _Reading(photo_reading())

    yield from _serve("mjc-e2e-scripted-", recognizer)
