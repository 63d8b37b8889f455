"""The socket protocol's messages (version 1, docs/asyncapi.yaml) as the text that goes on the wire.

`text` encodes exactly as Starlette's `send_json` did (compact separators, UTF-8 kept), so a push that
is encoded once and shared by many sockets reads byte for byte as one encoded per socket.
"""
from __future__ import annotations

import json

VERSION = 1


def message(kind: str, **fields) -> dict:
    """One server message of protocol version 1."""
    return {"v": VERSION, "kind": kind, **fields}


def text(payload: dict) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def event_text(event: dict) -> str:
    """`{"v": 1, "kind": "event", "event": {...}}`: one event as a viewer receives it."""
    return text(message("event", event=event))
