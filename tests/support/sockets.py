"""Reading the lobby's sockets in tests, as docs/asyncapi.yaml (protocol version 1) defines them.

Every message is `{"v": 1, "kind": ...}`; a socket that opened says `welcome` first; events are nested
under `event`, chat under `chat`; a refusal is an `error` (with `id: null`) then a close. These helpers
check the envelope of each message so that every test reading a socket also checks the protocol.
"""
from __future__ import annotations

import asyncio
import json

VERSION = 1


def parse(raw: str | bytes) -> dict:
    message = json.loads(raw)
    assert message.get("v") == VERSION, f"not a protocol {VERSION} message: {message}"
    assert isinstance(message.get("kind"), str), message
    return message


async def receive(socket, timeout: float = 10) -> dict:
    """The next message, whatever its kind."""
    return parse(await asyncio.wait_for(socket.recv(), timeout))


async def welcome(socket, timeout: float = 10) -> dict:
    """The first message of an accepted socket: its welcome (an error here fails with the refusal)."""
    message = await receive(socket, timeout)
    assert message["kind"] == "welcome", f"expected a welcome, got {message}"
    assert set(message) == {"v", "kind", "stream", "you", "seq"}, message
    return message


async def refusal(socket, timeout: float = 10) -> dict:
    """The error a refused socket sends before it closes: `{"code", "message"}`."""
    message = await receive(socket, timeout)
    assert message["kind"] == "error" and message["id"] is None, f"expected an error, got {message}"
    assert set(message) == {"v", "kind", "id", "error"} and set(message["error"]) == {"code", "message"}, message
    return message["error"]


def event_of(message: dict) -> dict:
    """The event of an `event` message (the stream's envelope, redacted for the viewer)."""
    assert message["kind"] == "event" and set(message) == {"v", "kind", "event"}, message
    return message["event"]


async def events(socket, count: int, timeout: float = 10) -> list[dict]:
    """The next `count` events (a welcome on the way is skipped; any other kind fails)."""
    found: list[dict] = []
    while len(found) < count:
        message = await receive(socket, timeout)
        if message["kind"] != "welcome":
            found.append(event_of(message))
    return found


async def items(socket, count: int, timeout: float = 10) -> list[dict]:
    """The next `count` events and chat messages, in arrival order, unwrapped (a chat gets `kind: chat`)."""
    found: list[dict] = []
    while len(found) < count:
        message = await receive(socket, timeout)
        if message["kind"] == "event":
            found.append(event_of(message))
        elif message["kind"] == "chat":
            found.append({"kind": "chat", **message["chat"]})
        else:
            assert message["kind"] == "welcome", message
    return found


async def move(socket, move_id: str, command: dict, timeout: float = 10, passed: list | None = None,
               **fields) -> dict:
    """Send a move over a game socket and return its answer (`ack` or `error` with this id), passing over
    the events and other messages that come before it (into `passed`, if given)."""
    await socket.send(json.dumps({"v": VERSION, "kind": "move", "id": move_id, "command": command, **fields}))
    return await answer(socket, move_id, timeout, passed)


async def answer(socket, move_id: str | None, timeout: float = 10, passed: list | None = None) -> dict:
    """The `ack` or `error` naming `move_id` (checked for its shape), passing over anything else (into
    `passed`, if given)."""
    while True:
        message = await receive(socket, timeout)
        if message["kind"] in ("ack", "error") and message["id"] == move_id:
            if message["kind"] == "ack":
                assert set(message) == {"v", "kind", "id", "first_seq", "seq", "events"}, message
            else:
                assert set(message) - {"retry_after"} == {"v", "kind", "id", "status", "error"}, message
                assert set(message["error"]) == {"code", "message"} and message["error"]["message"], message
            return message
        if passed is not None:
            passed.append(message)
