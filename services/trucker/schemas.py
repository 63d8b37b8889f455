"""The WebSocket wire format, protocol version 1 (docs/asyncapi.yaml): what a client may send, and what
the service answers. Every message either way is one JSON object `{"v": 1, "kind": ...}`, as on the
lobby's sockets.

Client → service: a move, `id` chosen by the client (a resend reuses it, and the move is then applied at
most once). A move is one of the rules engine's building commands, exactly as `legal_actions` lists them
(`GET /games/<id>/actions` in the lobby, or the engine itself):

    {"v": 1, "kind": "move", "id": "7", "command": {"type": "GrabFaceDown"}}
    {"v": 1, "kind": "move", "id": "8", "command": {"type": "GrabFaceUp", "component": "cab-03"}}
    {"v": 1, "kind": "move", "id": "9", "command": {"type": "PlaceComponent", "square": [7, 6], "rotation": 1}}
    {"v": 1, "kind": "move", "id": "10", "command": {"type": "TurnTimer"}}    # `at`: the service's clock

or the same moves in short form, `op` and the command's own fields in place of `command`:

    {"v": 1, "kind": "move", "id": "7", "op": "grab_face_down"}
    {"v": 1, "kind": "move", "id": "9", "op": "place", "square": [7, 6], "rotation": 1}
    ... take_reserved, move_newest, return, reserve, look_at_pile, put_back_pile, turn_timer, finish (OPS)

and the platform's resignation, like a move (its own id, answered ack or error; a resend is acked again):

    {"v": 1, "kind": "move", "id": "11", "command": {"type": "Resign"}}     # or "op": "resign"

Service → client:

    {"v": 1, "kind": "welcome", "stream": "game.<id>", "you": "ann" | null, "seq": 41, "view": {...}}
                                          # `you`: the seat this socket acts for (a substitute's: the
                                          # seat they hold), `view` that seat's; null: a spectator
    {"v": 1, "kind": "event", "event": {"stream", "seq", "type", "actor", "data", "time"}}
    {"v": 1, "kind": "ack", "id": "7", "first_seq": 42, "seq": 42, "events": [...], "retried": false,
     "pile": [...]?}                      # durable in the stream; `pile` only to its holder
    {"v": 1, "kind": "error", "id": "7" | null, "error": {"code": "HAND_FULL", "message": "..."}}
                                          # RATE_LIMITED also says `retry_after` (seconds: `flood.py`)

A message of an earlier shape (no `v`, e.g. `{"id", "command"}` or `{"type": ...}`) or of another version
is refused with UNSUPPORTED_VERSION and the socket closed with 4400: such a client cannot read the
answers either, so it is told once and clearly rather than left waiting.
"""
from __future__ import annotations

import json
import re
from pydantic import ValidationError

from starbase_core.platform_commands import Resign
from starbase_rules.contract import Command
from trucker_rules import messages as m
from trucker_rules.flight_messages import FLIGHT_COMMANDS

from trucker.warehouse import Refused

# The engine's commands by type (the service itself takes only its building moves: `tables.py`), and
# the platform's Resign: a player gives their seat up at any moment, building included (`resignation.py`).
_COMMANDS = {c.model_fields["type"].default: c for c in (*m.BUILDING_COMMANDS, *FLIGHT_COMMANDS, Resign)}

# The short form: op → the engine's command type (the other fields are the command's own).
OPS = {"grab_face_down": "GrabFaceDown", "grab_face_up": "GrabFaceUp", "take_reserved": "TakeReserved",
       "place": "PlaceComponent", "move_newest": "MoveNewest", "return": "ReturnComponent",
       "reserve": "ReserveComponent", "look_at_pile": "LookAtPile", "put_back_pile": "PutBackPile",
       "turn_timer": "TurnTimer", "finish": "Finish", "resign": "Resign"}
# Commands whose time the service stamps with its own clock: a client may leave `at` out.
STAMPED = frozenset({"TurnTimer", "StartBuilding", "CallTimeUp"})
CLIENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
COMPONENT_ID = re.compile(r"^[a-z0-9-]{1,32}$")
MAX_COORDINATE = 20
VERSION = 1
UPGRADE = ("this socket speaks protocol version 1: send {\"v\": 1, \"kind\": \"move\", \"id\": ..., "
           "\"command\": {\"type\": ...}} (docs/asyncapi.yaml)")


class UnsupportedVersion(Refused):
    """A message of another protocol version, or of the shape before version 1: the socket closes."""

    def __init__(self) -> None:
        super().__init__("UNSUPPORTED_VERSION", UPGRADE)


def message(kind: str, **fields) -> dict:
    """One service message of protocol version 1."""
    return {"v": VERSION, "kind": kind, **fields}


def error(client_id: str | None, code: str, text: str, retry_after: float | None = None) -> dict:
    """A refusal, in the HTTP API's error shape: of a move (its id), or of the connection (None);
    `retry_after`: seconds until a message refused RATE_LIMITED may be sent again."""
    extra = {"retry_after": round(retry_after, 3)} if retry_after is not None else {}
    return message("error", id=client_id, error={"code": code, "message": text}, **extra)


def parse(raw: str | bytes, max_bytes: int) -> tuple[str, Command]:
    """A client message as (its id, the engine's command); raises Refused with a stable code."""
    if len(raw) > max_bytes:
        raise Refused("MESSAGE_TOO_LARGE", f"messages are at most {max_bytes} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("MALFORMED_MESSAGE", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise Refused("MALFORMED_MESSAGE", "a message is one JSON object")
    if data.pop("v", None) != VERSION:
        raise UnsupportedVersion()
    kind = data.pop("kind", None)
    if kind != "move":
        raise Refused("UNKNOWN_KIND", f"a client sends only moves (kind \"move\"), not {str(kind)[:40]!r}")
    client_id = data.pop("id", None)
    if not isinstance(client_id, str) or not CLIENT_ID.match(client_id):
        raise Refused("MALFORMED_MESSAGE", "id: 1 to 64 letters, digits or _.:-")
    return client_id, _command(_command_data(data))


def _command_data(data: dict) -> dict:
    if "command" in data:
        command = data.pop("command")
        if data or not isinstance(command, dict):
            raise Refused("MALFORMED_MESSAGE", "a move is {\"v\": 1, \"kind\": \"move\", \"id\": ..., "
                                               "\"command\": {\"type\": ...}}")
        if command.get("type") not in _COMMANDS:
            raise Refused("UNKNOWN_OPERATION", f"no command {str(command.get('type'))[:40]!r}")
        return dict(command)
    op = data.pop("op", None)
    if op not in OPS:
        raise Refused("UNKNOWN_OPERATION", f"no operation {str(op)[:40]!r}; known: {sorted(OPS)}")
    return {"type": OPS[op], **data}


def _command(data: dict) -> Command:
    if data["type"] in STAMPED:
        data.setdefault("at", 0.0)
    try:
        command = _COMMANDS[data["type"]].model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "command"
        raise Refused("MALFORMED_MESSAGE", f"{where}: {first['msg']}") from None
    fields = command.__dict__           # (getattr on a pydantic model without the field is slow)
    component = fields.get("component")
    if component is not None and not COMPONENT_ID.match(component):
        raise Refused("MALFORMED_MESSAGE", "component: a component id (lowercase letters, digits, -)")
    square = fields.get("square")
    if square is not None and not all(0 <= n <= MAX_COORDINATE for n in square):
        raise Refused("MALFORMED_MESSAGE", f"square: columns and rows run from 0 to {MAX_COORDINATE}")
    return command


def peek_id(raw: str | bytes, max_bytes: int) -> str | None:
    """The client's id of a message, if it has a usable one, so even a refusal of it can name it."""
    if len(raw) > max_bytes:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    candidate = data.get("id") if isinstance(data, dict) else None
    return candidate if isinstance(candidate, str) and 0 < len(candidate) <= 64 else None


def public_event(stream: str, event: dict) -> dict:
    """What every viewer may see of one of the service's events (they are all public once applied), in
    an ack. Its `time` is the stream's when known (a resent move's events are read back from the stream);
    a fresh move's events are acknowledged as soon as they are durable, without reading them back, and
    their `time` then comes with their `event` messages."""
    shown = {"stream": stream, "seq": event["seq"], "type": event["type"], "actor": event.get("actor"),
             "data": {k: v for k, v in event["data"].items() if k not in ("type", "v")}}
    if event.get("time"):
        shown["time"] = event["time"]
    return shown
