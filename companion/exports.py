"""The ledger as a spreadsheet: one CSV row per effective event, with changes and running balances,
in English or Chinese (``lang``: the headers, the event names and the readable detail: "Hao:
concealed kong", "Ann won 5 on self-draw"); and the exports' file names (the table and its date).

Text cells that a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return: a player named ``=HYPERLINK(…)``) are written with a leading ``'``,
which spreadsheets show as text; numbers are written as they are.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from .ledger import Replay
from .settings import describe as describe_settings
from .store import Table

LANGS = ("en", "zh")

#: the column headers; {p} is a player's name
HEADERS = {
    "en": ["seq", "time", "hand", "round_wind", "dealer", "event", "detail", "{p} change", "{p} balance"],
    "zh": ["序号", "时间(UTC)", "局", "圈风", "庄家", "事件", "说明", "{p} 变动", "{p} 余额"],
}

#: event names, winds, kong and meld kinds, and the detail's sentences in each language
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "start": "start",
        "win": "win",
        "draw": "draw",
        "kong": "kong",
        "claim": "claim",
        "settings": "settings",
        "corrected": " (corrected)",
        "E": "E",
        "S": "S",
        "W": "W",
        "N": "N",
        "kind_kong": "kong",
        "kind_concealed_kong": "concealed kong",
        "kind_added_kong": "added kong",
        "kind_pung": "pung",
        "won_self": "{who} won {value} on self-draw",
        "won_discard": "{who} won {value} on {from}'s discard",
        "refused": "{who} not paid ({reason})",
        "kong_by": "{who}: {kind}",
        "kong_from": "{who}: {kind} from {from}",
        "claimed": "{who} claimed a {kind} from {from}",
        "drawn": "drawn hand",
        "last_drawer": "{who} drew the last tile",
    },
    "zh": {
        "start": "开始",
        "win": "和牌",
        "draw": "流局",
        "kong": "杠",
        "claim": "碰",
        "settings": "设置",
        "corrected": "(已更正)",
        "E": "东",
        "S": "南",
        "W": "西",
        "N": "北",
        "kind_kong": "明杠",
        "kind_concealed_kong": "暗杠",
        "kind_added_kong": "加杠",
        "kind_pung": "碰",
        "won_self": "{who} 自摸和牌,得 {value}",
        "won_discard": "{who} 和 {from} 的牌,得 {value}",
        "refused": "{who} 不计分({reason})",
        "kong_by": "{who}:{kind}",
        "kong_from": "{who}:{kind}(来自 {from})",
        "claimed": "{who} {kind}了 {from} 的牌",
        "drawn": "流局",
        "last_drawer": "{who} 摸了最后一张",
    },
}


def ledger_csv(table: Table, ledger: Replay, lang: str = "en") -> str:
    """The CSV text (with a byte-order mark, so spreadsheets read it as UTF-8): a start row, then
    each effective event with the hand, round wind, dealer, what happened in words, each player's
    change and balance; headers and words in ``lang`` ("en" or "zh"; anything else is English)."""
    lang = lang if lang in LANGS else "en"
    words, head = WORDS[lang], HEADERS[lang]
    buf = io.StringIO()
    writer = _SafeWriter(buf)
    players = table.players
    writer.writerow(head[:7] + [head[7].format(p=p) for p in players] + [head[8].format(p=p) for p in players])
    writer.writerow([0, table.created_at, "", "", "", words["start"], "", 0, 0, 0, 0, *[table.start_points] * 4])
    for e in ledger.entries:
        st = e.get("state") or {}
        dealer = players[st["dealer"]] if "dealer" in st else ""
        wind = words.get(st.get("round_wind", ""), "")
        writer.writerow(
            [e["seq"], e["created_at"], e.get("hand_no", ""), wind, dealer, _event_name(e, words)]
            + [_event_detail(e, players, words, lang, table.variant), *e.get("payments", [0] * 4), *e["balances"]]
        )
    return "\ufeff" + buf.getvalue()


def _stem(table: Table) -> str:
    """The table's name (else its rule set) as a file name: characters a file system refuses become ``-``."""
    return re.sub(r"[\s/\\:*?\"<>|]+", "-", (table.name or table.variant).strip()).strip("-.")[:60] or "mahjong"


def export_filename(table: Table, ext: str) -> str:
    """The export's file name: the table's name (else its rule set) and the evening's date,
    e.g. ``Friday-club-2026-11-24.csv``."""
    return f"{_stem(table)}-{table.created_at[:10]}.{ext}"


def content_disposition(table: Table, ext: str) -> str:
    """A download header naming the file :func:`export_filename`: an ASCII ``filename`` for old
    clients and the UTF-8 ``filename*`` (RFC 6266) that keeps a Chinese table name."""
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", _stem(table)).strip("-") or "mahjong"
    fallback = f"{plain}-{table.created_at[:10]}.{ext}"
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(export_filename(table, ext))}"


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """``value`` as a CSV cell that no spreadsheet runs: text starting like a formula gets a ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _SafeWriter:
    """A :func:`csv.writer` whose rows pass through :func:`cell`."""

    def __init__(self, buf: io.StringIO) -> None:
        self._writer = csv.writer(buf)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([cell(v) for v in row])


def _event_name(e: Mapping[str, Any], words: Mapping[str, str]) -> str:
    if e["kind"] == "hand":
        name = words["draw"] if e.get("outcome") == "draw" else words["win"]
        return name + (words["corrected"] if e.get("corrected") else "")
    return words.get(str(e["kind"]), str(e["kind"]))


def _winner_detail(who: str, result: Mapping[str, Any], win: Mapping[str, Any], words: Mapping[str, str], name) -> str:
    """A winner, the value paid and how ("Ann won 5 on self-draw"), or why the rules refused the
    winner (one of several scored independently, Yuxi)."""
    if result.get("ok", True) is False:
        return words["refused"].format(who=who, reason=result["error"]["code"])
    value = result.get("value", "")
    if win.get("by") == "discard":
        return words["won_discard"].format(who=who, value=value, **{"from": name(win.get("from"))})
    return words["won_self"].format(who=who, value=value)


def _event_detail(e: Mapping[str, Any], players: list[str], words: Mapping[str, str], lang: str, variant: str) -> str:
    """What happened in words: who won, how much, how; who declared a kong of which kind or
    claimed, from whom (players' names); a settings change (in ``lang``, ``variant``'s house rules)."""
    seats = (e.get("state") or {}).get("seats", {})

    def who(w: str | None) -> str:
        return players[seats[w]] if w in seats else (w or "")

    if e["kind"] == "hand" and e.get("outcome") == "win":
        wins = {w.get("winner"): w.get("win") or {} for w in e.get("winners") or []}
        return "; ".join(
            _winner_detail(who(r["winner"]), r, wins.get(r["winner"], {}), words, who) for r in e["result"]["results"]
        )
    if e["kind"] == "hand":
        drawer = e.get("last_drawer")
        return words["last_drawer"].format(who=who(drawer)) if drawer else words["drawn"]
    if e["kind"] == "settings":
        return describe_settings(e, players, lang, variant)
    if e["kind"] in ("kong", "claim"):
        kind = words.get(f"kind_{e.get('type') or e.get('meld')}", str(e.get("type") or e.get("meld")))
        person = who(e.get("declarer") or e.get("claimer"))
        if e["kind"] == "claim":
            return words["claimed"].format(who=person, kind=kind, **{"from": who(e.get("from"))})
        if e.get("from"):
            return words["kong_from"].format(who=person, kind=kind, **{"from": who(e.get("from"))})
        return words["kong_by"].format(who=person, kind=kind)
    return ""
