"""The OpenAPI document: every route, and schemas that are the request and response models."""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.api.models import (
    ErrorBody,
    HandPreview,
    Health,
    LedgerPoll,
    Notation,
    Recognition,
    Recorded,
    ScoreAnswer,
    TableExport,
    TableView,
    Tiles,
    Variants,
    Waits,
)
from companion.api.openapi import REF, REQUEST_MODELS

from .helpers import WIN_S, answer, err, new_table


def test_openapi_documents_every_api_route(app: Flask, client: FlaskClient) -> None:
    doc = answer(client.get("/api/openapi.json"))
    assert doc["openapi"].startswith("3.")
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        assert path in doc["paths"], path
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert method.lower() in doc["paths"][path], (path, method)


def test_request_schemas_are_the_models_that_validate_the_bodies(client: FlaskClient) -> None:
    doc = answer(client.get("/api/openapi.json"))
    schemas = doc["components"]["schemas"]
    for model in REQUEST_MODELS:
        own = model.model_json_schema(ref_template=REF)
        for name, nested in own.pop("$defs", {}).items():
            assert schemas[name] == nested, name
        assert schemas[model.__name__] == own, model.__name__
    named = {model.__name__ for model in REQUEST_MODELS}
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None or path in ("/api/score", "/api/waits"):  # the engine's contract
                continue
            refs = [s["$ref"] for s in body["schema"].get("oneOf", [body["schema"]])]
            assert {r.rsplit("/", 1)[1] for r in refs} <= named, (path, method, refs)


@pytest.mark.parametrize(
    "path", ["/api/notation", "/api/tables", "/claims", "/kongs", "/draws", "/hands/score", "/hands", "/undo"]
)
def test_every_request_model_refuses_unknown_fields(client: FlaskClient, path: str) -> None:
    if not path.startswith("/api/"):
        path = f"/api/tables/{new_table(client)['table']['token']}{path}"
    resp = client.post(path, json={"surprise": 1})
    assert resp.status_code == 400 and err(resp)["field"] == "surprise" and err(resp)["code"] == "bad_input"


def test_answers_match_the_response_models(client: FlaskClient) -> None:
    """Real answers validate against the documented response models (unknown fields refused where
    the shape is the companion's own)."""
    Health.model_validate(answer(client.get("/api/health")))
    Variants.model_validate(answer(client.get("/api/variants")))
    Tiles.model_validate(answer(client.get("/api/tiles")))
    Notation.model_validate(answer(client.post("/api/notation", json={"tiles": "123m"})))
    ErrorBody.model_validate(answer(client.post("/api/notation", json={"tiles": "9z"})))
    contract_hand = {"variant": "ningxia", "winner": "S", "hand": {"concealed": "123m456p789s1122z"}}
    Waits.model_validate(answer(client.post("/api/waits", json=contract_hand)))
    won = ScoreAnswer.model_validate(answer(client.post("/api/score", json={"variant": "ningxia", **WIN_S})))
    assert sum(won.payments.values()) == 0
    view = new_table(client, start_points=10)
    TableView.model_validate(view)
    t = view["table"]["token"]
    TableView.model_validate(answer(client.get(f"/api/tables/{view['table']['watch_token']}")))
    Recognition.model_validate(
        client.post(f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(b"jpeg"), "h.jpg")}).json
    )
    Recorded.model_validate(
        client.post(f"/api/tables/{t}/kongs", json={"type": "kong", "declarer": "S", "from": "W"}).json
    )
    HandPreview.model_validate(answer(client.post(f"/api/tables/{t}/hands/score", json={"winners": [WIN_S]})))
    recorded = Recorded.model_validate(answer(client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S]})))
    assert recorded.event.kind == "hand" and recorded.changes.entries[-1]["id"] == recorded.event.id
    LedgerPoll.model_validate(answer(client.get(f"/api/tables/{t}/ledger")))
    LedgerPoll.model_validate(answer(client.get(f"/api/tables/{t}/ledger?since={recorded.changes.version}")))
    TableExport.model_validate(answer(client.get(f"/api/tables/{t}/export.json")))
    ErrorBody.model_validate(answer(client.post(f"/api/tables/{t}/undo", json={"event_id": 999})))
