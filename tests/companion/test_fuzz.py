"""Fuzzed bodies for every JSON endpoint: the documented request bodies with fields replaced by
arbitrary JSON (deep, huge numbers, odd Unicode, NaN) or arbitrary JSON outright. Every answer is
documented for its operation, is strict JSON (no NaN), and none is a 500; the table stays readable."""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from functools import cache
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.app import create_app

from .helpers import FakeReading, new_table
from .test_openapi import GOOD_BODIES

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["E", "s", "1m", "123m456p789s11222z", "①", "\x00", "ningxia", "yuxi", "draw", "kong"])
)
JSON = st.recursive(
    LEAVES,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3),
    max_leaves=12,
)
OPERATIONS = sorted(GOOD_BODIES)
EXAMPLES = int(os.environ.get("MJC_FUZZ_EXAMPLES", "400"))
"""Fuzzed requests per run (``MJC_FUZZ_EXAMPLES=20000`` for a long run)."""
_addresses = itertools.count()


@cache
def fuzz_client() -> tuple[FlaskClient, str, dict[str, Any]]:
    """One app for every example (hypothesis runs many): its client, a table's token, the document."""
    app = create_app(tempfile.mkdtemp(prefix="mjc-fuzz-"), recognizer=lambda data: FakeReading())
    client = app.test_client()
    token = new_table(client)["table"]["token"]
    return client, token, client.get("/api/openapi.json").json


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, Any]:
    path, _ = draw(st.sampled_from(OPERATIONS))
    good = GOOD_BODIES[(path, "post")]
    if draw(st.booleans()) or not isinstance(good, dict):
        return path, draw(JSON)
    body = dict(good)
    for key in list(body):
        if draw(st.integers(0, 2)) == 0:
            body[key] = draw(JSON)
    if draw(st.integers(0, 4)) == 0:
        body[draw(st.text(max_size=6))] = draw(JSON)
    return path, body


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies())
def test_fuzzed_bodies_never_answer_500_or_invalid_json(case: tuple[str, Any]) -> None:
    client, token, doc = fuzz_client()
    path, body = case
    url = path.replace("{token}", token).replace("{event_id}", "1")
    text = json.dumps(body)  # NaN and Infinity as Python writes them
    resp = client.post(
        url, data=text, content_type="application/json", environ_base={"REMOTE_ADDR": f"10.9.{next(_addresses)}.1"}
    )
    assert resp.status_code != 500, resp.data[:300]
    assert str(resp.status_code) in doc["paths"][path]["post"]["responses"], (path, resp.status_code)
    json.loads(resp.data, parse_constant=_no_constant)
    ledger = client.get(f"/api/tables/{token}/export.json")
    assert ledger.status_code == 200
    json.loads(ledger.data, parse_constant=_no_constant)


def _no_constant(name: str) -> None:
    raise AssertionError(f"the answer holds {name}")
