"""The sockets' messages in one shape, whichever protocol the server speaks (no I/O here).

The servers speak the versioned protocol (`docs/asyncapi.yaml`); the older shapes are still read, so
the load tool can measure a server of an earlier release:

- the lobby's game and table sockets: before version 1 `{"kind": "event", "seq", "type", "data", …}` (the event's
  fields at the top), `{"kind": "error", "error": {code, message}}`; version 1 `{"v": 1, "kind":
  "welcome", …}`, `{"v": 1, "kind": "event", "event": {…}}`, `{"v": 1, "kind": "error", "id": null,
  "error": {…}}`, `{"v": 1, "kind": "chat", "chat": {…}}`;
- the Trucker service's socket: before version 1 `{"type": "welcome" | "event" | "ack" | "refused", …}` with a
  refusal's `code` at the top; version 1 the same `kind`s as the lobby plus `ack`, a refusal being an
  `error` with the move's `id`.

`read` turns any of them into a `Message`; `move` writes a Trucker move in the shape the service
spoke in its welcome (an older service refuses the version-1 fields, a version-1 one expects them).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

WELCOME, EVENT, ACK, ERROR, CHAT, OTHER = "welcome", "event", "ack", "error", "chat", "other"
_LEGACY_TYPES = {"welcome": WELCOME, "event": EVENT, "ack": ACK, "refused": ERROR}


@dataclass(frozen=True)
class Message:
    kind: str                          # WELCOME, EVENT, ACK, ERROR, CHAT or OTHER
    versioned: bool                    # sent in protocol version 1
    event: dict | None = None          # EVENT: the stream event (seq, type, data, actor, time, platform)
    id: str | None = None              # ACK and ERROR of a Trucker move: the move's id
    code: str = ""                     # ERROR: the refusal's code
    body: dict = field(default_factory=dict)    # the message as sent

    @property
    def seq(self) -> int | None:
        return self.event.get("seq") if self.event else None


class NotAMessage(ValueError):
    """Not JSON, or not an object: a server speaking neither protocol."""


def read(raw: str | bytes) -> Message:
    try:
        body = json.loads(raw)
    except ValueError as problem:
        raise NotAMessage(f"not JSON: {problem}") from None
    if not isinstance(body, dict):
        raise NotAMessage(f"not a JSON object: {type(body).__name__}")
    if "kind" in body:
        return _kinded(body)
    return _legacy_trucker(body)


def _kinded(body: dict) -> Message:
    """The lobby's messages (both versions) and every version-1 message."""
    versioned = body.get("v") == 1
    kind = body["kind"]
    if kind == EVENT:
        event = body.get("event") if versioned or isinstance(body.get("event"), dict) else \
            {k: v for k, v in body.items() if k != "kind"}
        return Message(EVENT, versioned, event=event, body=body)
    if kind == ERROR:
        error = body.get("error") or {}
        return Message(ERROR, versioned, id=body.get("id"), code=str(error.get("code", "?")), body=body)
    if kind == ACK:
        return Message(ACK, versioned, id=body.get("id"), body=body)
    if kind in (WELCOME, CHAT):
        return Message(kind, versioned, body=body)
    return Message(OTHER, versioned, body=body)


def _legacy_trucker(body: dict) -> Message:
    kind = _LEGACY_TYPES.get(body.get("type", ""), OTHER)
    if kind == EVENT:
        return Message(EVENT, False, event=body.get("event"), body=body)
    if kind == ERROR:
        return Message(ERROR, False, id=body.get("id"), code=str(body.get("code", "?")), body=body)
    return Message(kind, False, id=body.get("id"), body=body)


def ack_seqs(message: Message) -> tuple[int, ...]:
    """The seqs an ack names (its move's events, first to last)."""
    first, last = message.body.get("first_seq"), message.body.get("seq")
    if not isinstance(first, int) or not isinstance(last, int) or last < first:
        return ()
    return tuple(range(first, last + 1))


def move(move_id: str, command: dict, versioned: bool) -> str:
    """A Trucker move: the engine's command under the client's id."""
    if versioned:
        return json.dumps({"v": 1, "kind": "move", "id": move_id, "command": command})
    return json.dumps({"id": move_id, "command": command})


def ends_game(event: dict) -> bool:
    """The platform's GameEnded (an engine may have an event of that name too)."""
    if event.get("type") != "GameEnded":
        return False
    if "platform" in event:
        return bool(event["platform"])
    return {"standings", "seed"} <= set(event.get("data") or {})      # a server that does not say
