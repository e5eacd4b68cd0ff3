"""Every error code the server can send has a message in English and in Chinese on the page
(``ERRORS`` in ``web/i18n.js``), and every house rule of every rule set has players' words in both
languages (:mod:`companion.house_rules`), its choices included.

The codes are collected from the source the way they are written: ``code = "…"`` (engine and
request errors), ``ApiError(status, "…"`` and ``code="…"`` (the companion's own), the vision
errors' table and the HTTP / storage code maps in ``companion/api/errors.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.house_rules import HOUSE_RULES, labelled
from engine.contract import describe_variants

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"""\bcode\s*=\s*"([a-z_]+)"|ApiError\(\s*[0-9a-z_]+\s*,\s*"([a-z_]+)\"""")
MAPPED = re.compile(r'"([a-z_]+)"')


def server_codes() -> set[str]:
    """Every error code written in engine/, vision/ and companion/."""
    codes: set[str] = set()
    for folder in ("engine", "vision", "companion"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            codes |= {a or b for a, b in CODE.findall(text)}
    errors = (ROOT / "companion" / "api" / "errors.py").read_text(encoding="utf-8")
    for line in errors.splitlines():
        if "HTTP_CODES" in line or "codes" in line:
            codes |= {c for c in MAPPED.findall(line) if c not in ("error",)}
    from vision.errors import ERROR_CODES

    return codes | set(ERROR_CODES)


def page_messages() -> dict[str, tuple[str, str]]:
    """The ERRORS table of web/i18n.js: code -> (English, Chinese)."""
    text = (ROOT / "web" / "i18n.js").read_text(encoding="utf-8")
    block = text.split("export const ERRORS = {", 1)[1].split("\n};", 1)[0]
    return {m[0]: (m[1], m[2]) for m in re.findall(r'^\s*([a-z_]+): \["([^"]*)", "([^"]*)"\],?$', block, re.M)}


def test_the_collector_finds_the_codes_of_each_source():
    codes = server_codes()
    # an engine error, a rule set's refusal, a companion ApiError, a `bad(code=…)`, an HTTP and a storage code, a vision code
    assert {
        "bad_notation",
        "not_a_win",
        "no_such_table",
        "bad_json",
        "method_not_allowed",
        "disk_full",
        "truncated",
    } <= codes
    assert "" not in codes


def test_every_server_error_code_has_an_english_and_a_chinese_message():
    messages = page_messages()
    missing = sorted(c for c in server_codes() if c not in messages)
    assert not missing, f"add these codes to ERRORS in web/i18n.js: {missing}"
    for code, (en, zh) in messages.items():
        assert en.strip() and zh.strip(), code
        assert re.search(r"[\u4e00-\u9fff]", zh), (code, zh)


@pytest.mark.parametrize("variant", describe_variants(), ids=lambda v: v["name"])
def test_every_house_rule_is_worded_for_players_in_both_languages(variant):
    described = labelled(variant)
    assert set(HOUSE_RULES[variant["name"]]) == {o["name"] for o in variant["options"]}
    for option in described["options"]:
        for key in ("label", "label_zh", "help", "help_zh"):
            assert option[key].strip(), (option["name"], key)
            assert "_" not in option[key] and "{" not in option[key], (option["name"], key, option[key])
        values = option.get("choices") or ([True, False] if isinstance(option["default"], bool) else [])
        assert [c["value"] for c in option["choice_labels"]] == values, option["name"]
        for c in option["choice_labels"]:
            assert c["label"] and re.search(r"[\u4e00-\u9fff]", c["label_zh"]), (option["name"], c)
