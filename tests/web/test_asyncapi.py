"""docs/asyncapi.yaml, the socket protocol document: well formed, every message in version 1's shape,
its examples valid against their own schemas, and the client's protocol reader tested on that shape
(services/web/tests/protocol.test.mjs, run by test_client_source.py)."""
from __future__ import annotations

from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = yaml.safe_load((ROOT / "docs" / "asyncapi.yaml").read_text())


def resolved(node):
    """The schema with `#/components/...` references replaced by what they point at."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = DOC
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            return resolved(target)
        return {key: resolved(value) for key, value in node.items()}
    if isinstance(node, list):
        return [resolved(item) for item in node]
    return node


def test_the_document_names_every_socket_and_message():
    assert DOC["asyncapi"].startswith("3.")
    assert {c["address"] for c in DOC["channels"].values()} == {
        "/games/{game_id}/ws", "/tables/{table_id}/ws", "/tables/{game_id}/ws"}
    assert set(DOC["components"]["messages"]) == {"Welcome", "Event", "Ack", "Error", "Move"}
    for name, channel in DOC["channels"].items():
        for message in channel["messages"].values():
            assert message["$ref"].startswith("#/components/messages/"), name


def test_every_message_is_versioned_and_says_its_kind():
    for name, message in DOC["components"]["messages"].items():
        payload = message["payload"]
        assert {"v", "kind"} <= set(payload["required"]), name
        assert payload["properties"]["v"] == {"const": 1}
        assert payload["properties"]["kind"]["const"] == message["name"]


def test_examples_and_todays_shapes_against_the_schemas():
    for name, message in DOC["components"]["messages"].items():
        schema = resolved(message["payload"])
        for example in message.get("examples", []):
            jsonschema.validate(example["payload"], schema)
    event = resolved(DOC["components"]["messages"]["Event"]["payload"])
    todays_lobby_event = {"kind": "event", "stream": "game.g", "seq": 1, "type": "X", "data": {}, "actor": None,
                          "time": "2026-01-01T00:00:00Z"}
    assert not jsonschema.Draft202012Validator(event).is_valid(todays_lobby_event)   # the change the lobby owes
    error = resolved(DOC["components"]["messages"]["Error"]["payload"])
    jsonschema.validate({"v": 1, "kind": "error", "id": None, "error": {"code": "BAD_AFTER", "message": "…"}}, error)
    assert not jsonschema.Draft202012Validator(error).is_valid(
        {"type": "refused", "id": "7", "code": "HAND_FULL", "message": "…"})                # Trucker's today
