"""The web client's typed API module against the lobby's OpenAPI document: every route it calls exists
with that method, and every field it sends or reads is in the document's schema for that route.
(`services/web/src/api/routes.json` is the client's list; `http.ts` can call nothing else.)"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lobby.app import create_app
from lobby.config import LobbySettings

ROOT = Path(__file__).resolve().parents[2]
ROUTES = json.loads((ROOT / "services/web/src/api/routes.json").read_text())
SOURCES = ROOT / "services/web/src"


@pytest.fixture(scope="module")
def document() -> dict:
    return create_app(LobbySettings()).openapi()


def deref(document: dict, schema: dict) -> dict:
    """Follow `$ref`s and single-branch `anyOf`/`allOf` (how FastAPI writes Optional models)."""
    while True:
        if "$ref" in schema:
            node = document
            for part in schema["$ref"].lstrip("#/").split("/"):
                node = node[part]
            schema = node
        elif "allOf" in schema and len(schema["allOf"]) == 1:
            schema = schema["allOf"][0]
        elif "anyOf" in schema:
            branches = [s for s in schema["anyOf"] if s.get("type") != "null"]
            if len(branches) != 1:
                return schema
            schema = branches[0]
        else:
            return schema


def has_field(document: dict, schema: dict, dotted: str) -> bool:
    """`a[].b`: field b of the items of array a; `[].b`: field b of the items of the top-level array."""
    node = deref(document, schema)
    for part in re.findall(r"\[\]|[^.\[\]]+", dotted):
        if part == "[]":
            if node.get("type") != "array":
                return False
            node = deref(document, node.get("items", {}))
        else:
            properties = node.get("properties", {})
            if part not in properties:
                return False
            node = deref(document, properties[part])
    return True


def operation(document: dict, route: dict) -> dict | None:
    return document["paths"].get(route["path"], {}).get(route["method"].lower())


CALLED = {name: route for name, route in ROUTES.items() if not name.startswith("_")}


@pytest.mark.parametrize("name", sorted(CALLED))
def test_every_route_the_client_calls_exists(document, name):
    route = CALLED[name]
    if route["path"] == "/openapi.json":
        assert route["method"] == "GET"
        return
    assert operation(document, route) is not None, f"{route['method']} {route['path']} is not in the API"


@pytest.mark.parametrize("name", sorted(CALLED))
def test_every_field_the_client_sends_or_reads_is_documented(document, name):
    route = CALLED[name]
    found = operation(document, route)
    if found is None:
        return                          # only /openapi.json, checked above
    parameters = {p["name"]: p["in"] for p in found.get("parameters", [])}
    for key in route.get("query", []):
        assert parameters.get(key) == "query", f"{name}: no query parameter {key!r}"
    for key in re.findall(r"\{(\w+)\}", route["path"]):
        assert parameters.get(key) == "path", f"{name}: no path parameter {key!r}"
    if route.get("body"):
        schema = found["requestBody"]["content"]["application/json"]["schema"]
        for key in route["body"]:
            assert has_field(document, schema, key), f"{name}: the request body has no field {key!r}"
    if route.get("reads"):
        ok = next(code for code in found["responses"] if code.startswith("2"))
        schema = found["responses"][ok]["content"]["application/json"]["schema"]
        for key in route["reads"]:
            assert has_field(document, schema, key), f"{name}: the reply has no field {key!r}"


def test_the_contract_check_notices_a_route_or_field_that_is_not_there(document):
    assert operation(document, {"method": "GET", "path": "/tables/{table_id}/nothing"}) is None
    table = operation(document, CALLED["getTable"])["responses"]["200"]["content"]["application/json"]["schema"]
    assert has_field(document, table, "seats[].ready")
    assert not has_field(document, table, "seats[].colour")
    assert not has_field(document, table, "status[].x")


def test_the_client_speaks_http_and_websocket_only_through_its_api_module():
    offenders = []
    for path in SOURCES.rglob("*.ts*"):
        if path.parent.name == "api":
            continue
        text = path.read_text()
        if re.search(r"\bfetch\(|new WebSocket\(|XMLHttpRequest", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_query_parameters_used_only_when_declared_are_not_in_the_document_yet_or_are_queries(document):
    """`whenDeclared`: parameters the client sends only once the document lists them (the review
    slider's `at`); when the document does list one, it must be a query parameter."""
    for name, route in CALLED.items():
        for key in route.get("whenDeclared", []):
            found = operation(document, route)
            declared = {p["name"]: p["in"] for p in found.get("parameters", [])}
            assert declared.get(key, "query") == "query", name
