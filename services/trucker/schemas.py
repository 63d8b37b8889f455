"""The WebSocket wire format: what a client may send, and what the service answers.

Client → service, one JSON object per message, `id` chosen by the client (a retry reuses it, and the
move is then applied at most once). A move is one of the rules engine's building commands, exactly as
`legal_actions` lists them (`GET /games/<id>/actions` in the lobby, or the engine itself):

    {"id": "7", "command": {"type": "GrabFaceDown"}}
    {"id": "8", "command": {"type": "GrabFaceUp", "component": "cab-03"}}
    {"id": "9", "command": {"type": "PlaceComponent", "square": [7, 6], "rotation": 1}}
    {"id": "10", "command": {"type": "TurnTimer", "at": 1712.5}}    # `at` is the service's clock, not yours

or the same moves in short form:

    {"id": "7", "op": "grab_face_down"}
    {"id": "8", "op": "grab_face_up", "component": "cab-03"}
    {"id": "9", "op": "take_reserved", "component": "eng-02"}
    {"id": "10", "op": "place", "square": [7, 6], "rotation": 1}
    {"id": "11", "op": "move_newest", "square": [6, 7], "rotation": 0}    # move and/or turn
    {"id": "12", "op": "return"}          # the component in hand, else the newest placed one
    {"id": "13", "op": "reserve"}
    {"id": "14", "op": "look_at_pile", "pile": 2}
    {"id": "15", "op": "put_back_pile"}
    {"id": "16", "op": "turn_timer"}
    {"id": "17", "op": "finish"}          # or {"op": "finish", "order_tile": 3}

Service → client:

    {"type": "welcome", "you": "ann" | null, "seq": 41, "view": {...}}     # null: a spectator
    {"type": "ack", "id": "7", "first_seq": 42, "seq": 42, "events": [...], "retried": false,
     "pile": [...]?}                      # durable in the stream; `pile` only to its holder
    {"type": "refused", "id": "7", "code": "HAND_FULL", "message": "..."}  # nothing changed
    {"type": "event", "event": {"seq": 42, "type": "ComponentGrabbed", "actor": "ann", "data": {...}}}
"""
from __future__ import annotations

import json
import re
from pydantic import ValidationError

from starbase_rules.contract import Command
from trucker_rules import messages as m
from trucker_rules.flight_messages import FLIGHT_COMMANDS

from trucker.warehouse import Refused

# The engine's commands by type (the service itself takes only its building moves: `tables.py`).
_COMMANDS = {c.model_fields["type"].default: c for c in m.BUILDING_COMMANDS + FLIGHT_COMMANDS}

# The short form: op → the engine's command type (the other fields are the command's own).
OPS = {"grab_face_down": "GrabFaceDown", "grab_face_up": "GrabFaceUp", "take_reserved": "TakeReserved",
       "place": "PlaceComponent", "move_newest": "MoveNewest", "return": "ReturnComponent",
       "reserve": "ReserveComponent", "look_at_pile": "LookAtPile", "put_back_pile": "PutBackPile",
       "turn_timer": "TurnTimer", "finish": "Finish"}
# Commands whose time the service stamps with its own clock: a client may leave `at` out.
STAMPED = frozenset({"TurnTimer", "StartBuilding", "CallTimeUp"})
CLIENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
COMPONENT_ID = re.compile(r"^[a-z0-9-]{1,32}$")
MAX_COORDINATE = 20


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
    client_id = data.pop("id", None)
    if not isinstance(client_id, str) or not CLIENT_ID.match(client_id):
        raise Refused("MALFORMED_MESSAGE", "id: 1 to 64 letters, digits or _.:-")
    return client_id, _command(_command_data(data))


def _command_data(data: dict) -> dict:
    if "command" in data:
        command = data.pop("command")
        if data or not isinstance(command, dict):
            raise Refused("MALFORMED_MESSAGE", "a move is {\"id\": ..., \"command\": {\"type\": ...}}")
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


def public_event(event: dict) -> dict:
    """What every viewer may see of one of the service's events (they are all public once applied)."""
    return {"seq": event["seq"], "type": event["type"], "actor": event.get("actor"),
            "data": {k: v for k, v in event["data"].items() if k not in ("type", "v")}}
