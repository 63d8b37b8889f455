"""The Trucker socket speaks protocol version 1 (docs/asyncapi.yaml), the lobby's: every message it sends
matches the document; a client resumes with `?after=` and misses nothing; a message of the earlier shape
or another version gets a clear error and a close; a bad `after` is refused before anything else."""
from __future__ import annotations

import json

import websockets

from starbase_core.gamestream import game_stream
from tests.trucker_service.helpers import new_game
from tests.trucker_service.live import Client
from tests.web.asyncapi_doc import payload, valid

import jsonschema


async def _raw(base: str, game: str, query: str) -> websockets.ClientConnection:
    return await websockets.connect(f"{base}/tables/{game}/ws{query}", max_size=2**22)


async def test_every_message_the_service_sends_matches_the_document(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann, watcher = await Client.connect(live, game, "ann"), await Client.connect(live, game)
    grabbed = await ann.send_command({"type": "GrabFaceDown"})
    again = await ann.send("grab_face_down")                     # refused: the hand is full
    await ann.send("return")
    missing = await Client.connect(live, "nosuchgame1", "ann")
    last = await jetstream_store.last_seq(game_stream(game))
    await watcher.wait_for_seq(last), await ann.wait_for_seq(last)
    kinds = set()
    for message in ann.received + watcher.received + missing.received:
        kinds.add(valid(message)["kind"])
    assert kinds == {"welcome", "event", "ack", "error"}
    assert grabbed["kind"] == "ack" and again["error"]["code"] == "HAND_FULL"
    assert ann.welcome["stream"] == f"game.{game}" and ann.welcome["you"] == "ann" and watcher.welcome["you"] is None
    assert {e["stream"] for e in watcher.events} == {f"game.{game}"} and all(e["time"] for e in watcher.events)
    assert missing.welcome == {"v": 1, "kind": "error", "id": None,
                               "error": {"code": "NOT_A_TRUCKER_GAME", "message": missing.welcome["error"]["message"]}}
    for move in ({"v": 1, "kind": "move", "id": "1", "command": {"type": "GrabFaceDown"}},
                 {"v": 1, "kind": "move", "id": "2", "op": "place", "square": [7, 6], "rotation": 1}):
        jsonschema.validate(move, payload("Move"))
    for old in ({"id": "1", "command": {"type": "GrabFaceDown"}}, {"id": "1", "op": "grab_face_down"}):
        assert not jsonschema.Draft202012Validator(payload("Move")).is_valid(old)
    for client in (ann, watcher, missing):
        await client.close()


async def test_a_client_resumes_after_a_seq_and_misses_nothing(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    ann = await Client.connect(live, game, "ann")
    first = await ann.send("grab_face_down")
    await ann.send("return")
    resumed_from = first["seq"] - 1          # as if the socket dropped before the grab's event arrived
    bob = await Client.connect(live, game, "bob", query=f"&after={resumed_from}")
    fresh = await Client.connect(live, game, "bob")                 # no `after`: the welcome's view is all
    assert bob.welcome["seq"] == fresh.welcome["seq"] >= first["seq"] + 1
    await bob.wait_for_event(bob.welcome["seq"])
    live_move = await ann.send("grab_face_down")                    # then live events follow
    await bob.wait_for_seq(live_move["seq"]), await fresh.wait_for_seq(live_move["seq"])
    assert [e["seq"] for e in bob.events] == list(range(resumed_from + 1, live_move["seq"] + 1))
    assert bob.events[0]["type"] == "ComponentGrabbed" and bob.events[0]["data"]["player"] == "ann"
    assert [e["seq"] for e in fresh.events] == list(range(fresh.welcome["seq"] + 1, live_move["seq"] + 1))
    spectator = await Client.connect(live, game, query="?after=0")  # from the start, each event once, in order
    await spectator.wait_for_event(live_move["seq"])
    assert [e["seq"] for e in spectator.events] == list(range(1, live_move["seq"] + 1))
    for client in (ann, bob, fresh, spectator):
        await client.close()


async def test_a_bad_after_is_refused_and_the_socket_closed(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    for bad in ("x", "-1", "²", "9" * 17, str(2**53)):
        socket = await _raw(live, game, f"?player=ann&after={bad}")
        refusal = json.loads(await socket.recv())
        assert (refusal["kind"], refusal["id"], refusal["error"]["code"]) == ("error", None, "BAD_AFTER"), bad
        await socket.wait_closed()
        assert socket.close_code == 4400


async def test_a_client_of_the_earlier_shape_or_another_version_is_told_and_closed(live, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    for message in ({"id": "7", "command": {"type": "GrabFaceDown"}}, {"id": "7", "op": "grab_face_down"},
                    {"type": "move", "id": "7", "command": {"type": "GrabFaceDown"}},
                    {"v": 2, "kind": "move", "id": "7", "command": {"type": "GrabFaceDown"}}):
        socket = await _raw(live, game, "?player=ann")
        assert json.loads(await socket.recv())["kind"] == "welcome"
        await socket.send(json.dumps(message))
        answer = json.loads(await socket.recv())
        while answer["kind"] == "event":
            answer = json.loads(await socket.recv())
        assert (answer["kind"], answer["id"], answer["error"]["code"]) == ("error", "7", "UNSUPPORTED_VERSION")
        assert "version 1" in answer["error"]["message"]
        await socket.wait_closed()
        assert socket.close_code == 4400, message
    ann = await Client.connect(live, game, "ann")
    wrong_kind = await ann.send_raw(json.dumps({"v": 1, "kind": "chat", "id": "8", "text": "hello"}))
    assert (wrong_kind["kind"], wrong_kind["error"]["code"]) == ("error", "UNKNOWN_KIND")
    assert (await ann.send("grab_face_down"))["kind"] == "ack"    # that one was refused, the socket goes on
    grabs = [e for e in await jetstream_store.read(game_stream(game)) if e.type == "ComponentGrabbed"]
    assert len(grabs) == 1                                          # the refused moves changed nothing
    await ann.close()
