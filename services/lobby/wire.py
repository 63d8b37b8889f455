"""The socket protocol's messages (version 1, docs/asyncapi.yaml) as the text that goes on the wire.

`text` encodes compactly with UTF-8 kept (as Starlette's `send_json` did), with orjson: a tenth of the
standard library's CPU per push, which every move pays several times (docs/lobby-capacity.md). An
event's push is built around the event's own JSON (`event_text`), so the move's ack can carry the very
text its socket is pushed (`event_json`): one redaction and one encoding per event and view, shared.
"""
from __future__ import annotations

from starbase_core.compact_json import compact

VERSION = 1
_EVENT_HEAD = '{"v":1,"kind":"event","event":'


def message(kind: str, **fields) -> dict:
    """One server message of protocol version 1."""
    return {"v": VERSION, "kind": kind, **fields}


text = compact          # a message's text: compact JSON, UTF-8 kept


def event_text(event: dict) -> str:
    """`{"v": 1, "kind": "event", "event": {...}}`: one event as a viewer receives it."""
    return f"{_EVENT_HEAD}{text(event)}}}"


def event_json(pushed: str) -> str:
    """The event's own JSON inside its push (`event_text`'s)."""
    return pushed[len(_EVENT_HEAD):-1]


def ack_text(move_id: str, first_seq: int, seq: int, events: list[str]) -> str:
    """`text(message("ack", id=..., first_seq=..., seq=..., events=[...]))` from the events' own JSON."""
    return f'{{"v":1,"kind":"ack","id":{text(move_id)},"first_seq":{first_seq},"seq":{seq},"events":[{",".join(events)}]}}'
