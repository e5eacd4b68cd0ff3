"""The exports as a table reads them: files named after the table and its date, the CSV's detail in
words ("Dora: concealed kong", "Bob won 6 on self-draw"), headers and words in Chinese on ``?lang=zh``."""

from __future__ import annotations

import csv
import io
from urllib.parse import unquote

import pytest

from .helpers import WIN_S, new_table


def _rows(client, url):
    resp = client.get(url)
    assert resp.status_code == 200
    return resp, list(csv.reader(io.StringIO(resp.data.decode("utf-8-sig"))))


def _evening(client, **extra):
    t = new_table(client, **extra)["table"]["token"]
    client.post(f"/api/tables/{t}/kongs", json={"type": "concealed_kong", "declarer": "N"})
    client.post(f"/api/tables/{t}/kongs", json={"type": "kong", "declarer": "S", "from": "W"})
    client.post(f"/api/tables/{t}/claims", json={"claimer": "E", "from": "W"})
    client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]})
    return t


@pytest.mark.parametrize(
    ("lang", "head", "details"),
    [
        (
            "en",
            ["seq", "time", "hand", "round_wind", "dealer", "event", "detail", "Alice change"],
            ["Dora: concealed kong", "Bob: kong from Chen", "Alice claimed a pung from Chen", "Bob won 6 on self-draw"],
        ),
        (
            "zh",
            ["序号", "时间(UTC)", "局", "圈风", "庄家", "事件", "说明", "Alice 变动"],
            ["Dora:暗杠", "Bob:明杠(来自 Chen)", "Alice 碰了 Chen 的牌", "Bob 自摸和牌,得 6"],
        ),
    ],
)
def test_the_csv_reads_in_words_in_either_language(client, lang, head, details):
    t = _evening(client)
    _, rows = _rows(client, f"/api/tables/{t}/export.csv?lang={lang}")
    assert rows[0][:8] == head
    assert [r[6] for r in rows[2:]] == details
    assert rows[2][3] == ("E" if lang == "en" else "东")


def test_an_unknown_language_exports_in_english(client):
    t = _evening(client)
    _, rows = _rows(client, f"/api/tables/{t}/export.csv?lang=xx")
    assert rows[0][0] == "seq"


@pytest.mark.parametrize(
    ("name", "stem", "ascii_stem"),
    [("Friday club", "Friday-club", "Friday-club"), ("周五/牌局", "周五-牌局", "mahjong"), ("", "ningxia", "ningxia")],
)
def test_the_exports_are_named_after_the_table_and_its_date(client, name, stem, ascii_stem):
    view = new_table(client, name=name)
    t, date = view["table"]["token"], view["table"]["created_at"][:10]
    for ext in ("csv", "json"):
        header = client.get(f"/api/tables/{t}/export.{ext}").headers["Content-Disposition"]
        assert f'filename="{ascii_stem}-{date}.{ext}"' in header
        assert unquote(header.split("filename*=UTF-8''", 1)[1]) == f"{stem}-{date}.{ext}"
