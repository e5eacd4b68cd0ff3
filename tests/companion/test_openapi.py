"""The OpenAPI document: every route, and schemas that are the request and response models."""

from __future__ import annotations

import re


def test_openapi_documents_every_api_route(app, client):
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        assert path in doc["paths"], path
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in doc["paths"][path], (path, method)
