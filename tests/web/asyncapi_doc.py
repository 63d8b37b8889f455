"""docs/asyncapi.yaml, read once, and a real socket message checked against the schema of its kind."""
from __future__ import annotations

from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = yaml.safe_load((ROOT / "docs" / "asyncapi.yaml").read_text())
SCHEMA_OF_KIND = {"welcome": "Welcome", "event": "Event", "chat": "Chat", "ack": "Ack", "error": "Error",
                  "move": "Move", "your_turn": "YourTurn", "presence": "Presence",
                  "clock": "Clock"}


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


def payload(name: str) -> dict:
    return resolved(DOC["components"]["messages"][name]["payload"])


def valid(message: dict) -> dict:
    """`message` checked against the document's schema for its kind (raises if it does not match)."""
    jsonschema.validate(message, payload(SCHEMA_OF_KIND[message["kind"]]), format_checker=jsonschema.FormatChecker())
    return message
