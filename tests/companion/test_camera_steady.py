"""The live camera's auto-capture rule (``web/camera-steady.js``), table-driven, run by Node on the
page's own module: steady when the last three readings found the same tiles (a multiset, backs
aside, at least eight) and the picture barely moved between them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or shutil.which("nodejs")

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (apt-get install nodejs)")

HAND = "1m 1z 1z 2m 3m 4p 5p 5z 5z 5z 6p 7s 8s 9s"
OTHER = "1m 1z 1z 2m 3m 4p 5p 5z 5z 5z 6p 7s 8s 8s"


def entry(key: str = HAND, motion: float = 0.0) -> dict:
    return {"key": key, "count": len(key.split()) if key else 0, "motion": motion}


STEADY_CASES = [
    ("no reading yet", [], False),
    ("two readings are too few", [entry(motion=1), entry()], False),
    ("three alike and still", [entry(motion=1), entry(), entry()], True),
    ("the first motion is before the window", [entry(motion=0.9), entry(motion=0.01), entry(motion=0.03)], True),
    ("one reading differs", [entry(motion=1), entry(OTHER), entry()], False),
    ("the last reading differs", [entry(), entry(), entry(OTHER)], False),
    ("the picture moved", [entry(motion=1), entry(motion=0.2), entry()], False),
    ("motion just at the limit", [entry(), entry(motion=0.04), entry(motion=0.04)], True),
    ("motion just over the limit", [entry(), entry(motion=0.0401), entry()], False),
    ("steady at last after a change", [entry(OTHER), entry(motion=1), entry(), entry()], True),
    ("too few tiles", [entry("1m 2m 3m")] * 3, False),
    ("nothing seen", [entry("")] * 3, False),
    ("eight tiles are enough", [entry("1m 2m 3m 4m 5m 6m 7m 8m")] * 3, True),
]

KEY_CASES = [
    ("order does not matter", ["2m", "1m", "7z"], "1m 2m 7z", 3),
    ("backs are left out", ["back", "5p", "back"], "5p", 1),
    ("copies count", ["5z", "5z", "5z"], "5z 5z 5z", 3),
    ("no tiles", [], "", 0),
]

MOTION_CASES = [
    ("no earlier frame", None, [0.5, 0.5], 1.0),
    ("the same frame", [0.2, 0.8], [0.2, 0.8], 0.0),
    ("half changed fully", [0.0, 0.0], [1.0, 0.0], 0.5),
    ("sizes differ", [0.0], [0.0, 0.0], 1.0),
]


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    """Every case run through the module in one Node process."""
    folder = tmp_path_factory.mktemp("steady")
    shutil.copy(ROOT / "web" / "camera-steady.js", folder / "camera-steady.mjs")
    cases = {
        "steady": [h for _, h, _ in STEADY_CASES],
        "keys": [[{"code": c} for c in codes] for _, codes, _, _ in KEY_CASES],
        "motion": [[a, b] for _, a, b, _ in MOTION_CASES],
    }
    script = folder / "run.mjs"
    script.write_text(
        'import { isSteady, readingKey, frameMotion } from "./camera-steady.mjs";\n'
        f"const cases = {json.dumps(cases)};\n"
        "console.log(JSON.stringify({steady: cases.steady.map((h) => isSteady(h)),"
        " keys: cases.keys.map((tiles) => readingKey({tiles})),"
        " motion: cases.motion.map(([a, b]) => frameMotion(a, b))}));\n"
    )
    out = subprocess.run([str(NODE), str(script)], capture_output=True, text=True, timeout=60, check=True)
    answer: dict = json.loads(out.stdout)
    return answer


@pytest.mark.parametrize(("i", "case"), list(enumerate(STEADY_CASES)), ids=[c[0] for c in STEADY_CASES])
def test_steady_rule(results, i, case):
    assert results["steady"][i] is case[2]


@pytest.mark.parametrize(("i", "case"), list(enumerate(KEY_CASES)), ids=[c[0] for c in KEY_CASES])
def test_reading_key(results, i, case):
    assert results["keys"][i] == {"key": case[2], "count": case[3]}


@pytest.mark.parametrize(("i", "case"), list(enumerate(MOTION_CASES)), ids=[c[0] for c in MOTION_CASES])
def test_frame_motion(results, i, case):
    assert results["motion"][i] == pytest.approx(case[3])
