"""A bounded, seeded schemathesis run against the app's own OpenAPI document (``/api/openapi.json``):
every operation gets :data:`EXAMPLES` generated requests (valid ones and invalid ones), against a real table for those under
``/api/tables/{token}`` (a random token for some, which must answer 404), and every answer must be
no server error and conform to the document: documented status code, content type, headers and body
schema. The rate limits are lifted for the run (their 429s are tested in ``test_security``)."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion.api.openapi import openapi_document
from companion.api.ratelimit import LIMITER_KEY
from companion.app import create_app

from .helpers import PLAYERS, FakeReading

EXAMPLES = 40
#: what must hold for every answer; not ``positive_data_acceptance``: the document's schemas are
#: looser than the rules (a tile string, a seat that must differ from another), so a request the
#: schema allows may rightly answer 400 naming the field
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    allow_header_conformance,
]


@pytest.fixture(scope="module")
def app_and_token(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    app = create_app(Path(tmp_path_factory.mktemp("schemathesis")) / "data", recognizer=lambda data: FakeReading())
    limiter = app.extensions[LIMITER_KEY]
    limiter.public_buckets.burst = limiter.guess_buckets.burst = 10**9
    resp = app.test_client().post("/api/tables", json={"variant": "ningxia", "players": PLAYERS, "first_dealer": 0})
    return app, resp.json["table"]["token"]


@pytest.fixture(scope="module")
def api_schema(app_and_token: tuple[Any, str]) -> Any:
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app_and_token[0])


OPERATIONS = [(path, method) for path, item in openapi_document()["paths"].items() for method in item]


@pytest.mark.parametrize(("path", "method"), OPERATIONS)
def test_api_conforms_to_its_document(api_schema: Any, app_and_token: tuple[Any, str], path: str, method: str) -> None:
    operation = api_schema[path][method]

    modes = [operation.as_strategy(generation_mode=mode) for mode in GenerationMode]

    @given(case=st.one_of(modes))
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers_as_documented(case: Any) -> None:
        params = case.path_parameters
        if params and "token" in params and zlib.crc32(str(params["token"]).encode()) % 4:
            params["token"] = app_and_token[1]  # three in four on the real table, the rest on a random token
        case.call_and_validate(checks=CHECKS)

    answers_as_documented()
