"""The WebSocket wire format: what a client may send, and what the service answers.

Client → service, one JSON object per message, `id` chosen by the client (a retry reuses it, and the
move is then applied at most once):

    {"id": "7", "op": "grab_face_down"}
    {"id": "8", "op": "grab_face_up", "component": "cab-03"}
    {"id": "9", "op": "take_reserved", "component": "eng-02"}
    {"id": "10", "op": "place", "square": [7, 6], "rotation": 1}
    {"id": "11", "op": "move_newest", "square": [6, 7], "rotation": 0}     # move and/or turn
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
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from trucker.tables import Move
from trucker.warehouse import Refused

ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
ComponentId = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9-]+$")]
Coordinate = Annotated[int, Field(ge=0, le=20)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: ClientId


class GrabFaceDown(_Message):
    op: Literal["grab_face_down"]


class GrabFaceUp(_Message):
    op: Literal["grab_face_up"]
    component: ComponentId


class TakeReserved(_Message):
    op: Literal["take_reserved"]
    component: ComponentId


class Place(_Message):
    op: Literal["place", "move_newest"]
    square: tuple[Coordinate, Coordinate]
    rotation: int = Field(0, ge=0, le=3)


class Plain(_Message):
    op: Literal["return", "reserve", "put_back_pile", "turn_timer"]


class LookAtPile(_Message):
    op: Literal["look_at_pile"]
    pile: int = Field(ge=1, le=4)


class Finish(_Message):
    op: Literal["finish"]
    order_tile: int | None = Field(None, ge=1, le=4)


ClientMessage = Annotated[Union[GrabFaceDown, GrabFaceUp, TakeReserved, Place, Plain, LookAtPile, Finish],
                          Field(discriminator="op")]
_PARSER = TypeAdapter(ClientMessage)

_OPERATIONS = {"return": "return_tile", "reserve": "reserve", "put_back_pile": "return_pile",
               "turn_timer": "turn_timer", "grab_face_down": "grab_face_down"}


def parse(raw: str | bytes, max_bytes: int) -> tuple[str, Move]:
    """A client message as (its id, the move); raises Refused with a stable code."""
    if len(raw) > max_bytes:
        raise Refused("MESSAGE_TOO_LARGE", f"messages are at most {max_bytes} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("MALFORMED_MESSAGE", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise Refused("MALFORMED_MESSAGE", "a message is one JSON object")
    if "op" in data and data["op"] not in _KNOWN_OPS:
        raise Refused("UNKNOWN_OPERATION", f"no operation {str(data['op'])[:40]!r}; known: {sorted(_KNOWN_OPS)}")
    try:
        message = _PARSER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise Refused("MALFORMED_MESSAGE", f"{where}: {first['msg']}") from None
    return message.id, to_move(message)


_KNOWN_OPS = {"grab_face_down", "grab_face_up", "take_reserved", "place", "move_newest", "return",
              "reserve", "look_at_pile", "put_back_pile", "turn_timer", "finish"}


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


def to_move(message) -> Move:
    if isinstance(message, GrabFaceUp):
        return Move("grab_face_up", (message.component,))
    if isinstance(message, TakeReserved):
        return Move("grab_reserved", (message.component,))
    if isinstance(message, Place):
        return Move(message.op, (message.square[0], message.square[1], message.rotation))
    if isinstance(message, LookAtPile):
        return Move("look_at_pile", (message.pile,))
    if isinstance(message, Finish):
        return Move("finish", ("" if message.order_tile is None else message.order_tile,))
    return Move(_OPERATIONS[message.op])


def public_event(event: dict) -> dict:
    """What every viewer may see of one of the service's events (they are all public once applied)."""
    return {"seq": event["seq"], "type": event["type"], "actor": event.get("actor"),
            "data": {k: v for k, v in event["data"].items() if k not in ("type", "v")}}
