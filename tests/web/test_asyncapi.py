"""docs/asyncapi.yaml, the socket protocol document: well formed, every message in version 1's shape,
its examples valid against their own schemas, every message the lobby's real sockets send valid against
the document, and the client's protocol reader tested on that shape (services/web/tests/protocol.test.mjs,
run by test_client_source.py)."""
from __future__ import annotations

import jsonschema
import pytest
import websockets

from tests.support import sockets
from tests.support.stack import seat_and_start
from tests.web.asyncapi_doc import DOC, payload, resolved, valid


def test_the_document_names_every_socket_and_message():
    assert DOC["asyncapi"].startswith("3.")
    assert {c["address"] for c in DOC["channels"].values()} == {
        "/games/{game_id}/ws", "/tables/{table_id}/ws", "/tables/{game_id}/ws"}
    assert set(DOC["components"]["messages"]) == {"Welcome", "Event", "Chat", "Ack", "Error", "Move", "YourTurn",
                                                  "Presence", "Clock"}
    for name, channel in DOC["channels"].items():
        for message in channel["messages"].values():
            assert message["$ref"].startswith("#/components/messages/"), name


def test_every_message_is_versioned_and_says_its_kind():
    for name, message in DOC["components"]["messages"].items():
        body = message["payload"]
        assert {"v", "kind"} <= set(body["required"]), name
        assert body["properties"]["v"] == {"const": 1}
        assert body["properties"]["kind"]["const"] == message["name"]


def test_examples_and_the_earlier_shapes_against_the_schemas():
    for name, message in DOC["components"]["messages"].items():
        schema = resolved(message["payload"])
        for example in message.get("examples", []):
            jsonschema.validate(example["payload"], schema)
    earlier_lobby_event = {"kind": "event", "stream": "game.g", "seq": 1, "type": "X", "data": {}, "actor": None,
                           "time": "2026-01-01T00:00:00Z"}
    assert not jsonschema.Draft202012Validator(payload("Event")).is_valid(earlier_lobby_event)
    jsonschema.validate({"v": 1, "kind": "error", "id": None, "error": {"code": "BAD_AFTER", "message": "…"}},
                        payload("Error"))
    assert not jsonschema.Draft202012Validator(payload("Error")).is_valid(
        {"type": "refused", "id": "7", "code": "HAND_FULL", "message": "…"})                # Trucker's today


@pytest.mark.integration
async def test_every_message_the_lobby_sends_matches_the_document(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    last = await stack.store.last_seq(f"game.{game_id}")
    table_last = await stack.store.last_seq(f"table.{game_id}")
    seen: dict[str, list[dict]] = {"welcome": [], "event": [], "chat": [], "error": []}
    async with await bob.connect(f"{stack.ws}/tables/{game_id}/ws") as table_socket, \
            await ann.connect(f"{stack.ws}/games/{game_id}/ws?after=0") as game_socket:
        await bob.ok(bob.post(f"/tables/{game_id}/chat", {"text": "good luck"}))
        for socket, count in ((table_socket, 1 + table_last + 1), (game_socket, 1 + last)):
            for _ in range(count):
                message = valid(await sockets.receive(socket))
                seen[message["kind"]].append(message)
    async with websockets.connect(f"{stack.ws}/games/{game_id}/ws?after=x") as refused:
        seen["error"].append(valid(await sockets.receive(refused)))
    assert [w["stream"] for w in seen["welcome"]] == [f"table.{game_id}", f"game.{game_id}"]
    assert seen["chat"][0]["chat"]["text"] == "good luck" and seen["chat"][0]["chat"]["name"] == "bob"
    assert {e["event"]["stream"] for e in seen["event"]} == {f"table.{game_id}", f"game.{game_id}"}
    assert seen["error"][0]["error"]["code"] == "BAD_AFTER"
