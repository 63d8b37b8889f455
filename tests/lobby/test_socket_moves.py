"""Moves over a game's socket (services/lobby/socket_moves.py, docs/asyncapi.yaml): the same command
as `POST /games/{id}/commands`, answered `ack` or `error` by id on the player's own socket; every
refusal changes nothing and leaves the socket open, except on a socket that cannot move."""
import asyncio
import json

import grpc
import httpx
import pytest
import websockets

from lobby.socket_moves import _refusal
from starbase_core.store import StoreError
from tests.support import sockets
from tests.support.stack import ApiPlayer, local_stack, seat_and_start
from tests.web.asyncapi_doc import valid

pytestmark = pytest.mark.integration
WAIT = 30.0     # a bound on a hang (a loaded machine is slow), never a timing assertion


async def stored(stack, game_id: str) -> list:
    return await stack.store.read(f"game.{game_id}")


async def test_a_move_is_acked_with_its_events_as_stored_and_pushed_and_a_resend_is_applied_once(
        stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    async with await ann.connect(f"{stack.ws}/games/{game_id}/ws") as socket, \
            await bob.connect(f"{stack.ws}/games/{game_id}/ws") as watching:
        seq = (await sockets.welcome(socket))["seq"]
        await sockets.welcome(watching)
        pushed: list[dict] = []
        acked = await sockets.move(socket, "draw-1", {"type": "Draw"}, passed=pushed)

        assert acked["kind"] == "ack", acked
        in_store = [e for e in await stored(stack, game_id) if e.command_id == f"{ann.player_id}:draw-1"]
        assert [e["seq"] for e in acked["events"]] == [e.seq for e in in_store] and in_store[0].seq == seq + 1
        assert (acked["first_seq"], acked["seq"]) == (in_store[0].seq, in_store[-1].seq)
        valid(acked)
        # A reply the follow got ahead of is answered from the live copy (the same run), not decoded again.
        runtime = stack.runtime
        assert runtime.adjudicator.held == runtime.feed.held
        assert runtime.feed.held(f"game.{game_id}", in_store[0].seq, len(in_store)) == in_store
        assert acked["events"][0]["type"] == "CardDrawn" and acked["events"][0]["data"]["card"] == in_store[0].data["card"]
        # The ack is what ann's own pushes say (her card shown); bob's socket sees it hidden.
        live = [sockets.event_of(m) for m in pushed if m["kind"] == "event" and m["event"]["seq"] > seq]
        live += await sockets.events(socket, len(in_store) - len(live))
        assert live == acked["events"]
        seen_by_bob = [e for e in await sockets.events(watching, seq + len(in_store)) if e["seq"] > seq]
        assert seen_by_bob[0]["seq"] == in_store[0].seq and "card" not in (seen_by_bob[0]["data"] or {})

        again = await sockets.move(socket, "draw-1", {"type": "Draw"})
        assert again == acked
        as_posted = await ann.ok(ann.post(f"/games/{game_id}/commands",
                                          {"command": {"type": "Draw"}, "command_id": "draw-1"}))
        # POST answers with the very events the socket acks (`played_by` included: EventOut has it).
        assert as_posted == {"command_id": "draw-1", "events": acked["events"]}
        assert len(await stored(stack, game_id)) == in_store[-1].seq


async def test_refusals_name_the_move_and_its_status_change_nothing_and_keep_the_socket(stack, register):
    ann, bob, cy = await register("ann"), await register("bob"), await register("cy")
    game_id = await seat_and_start([ann, bob], "testjack")
    before = len(await stored(stack, game_id))
    async with await ann.connect(f"{stack.ws}/games/{game_id}/ws") as socket, \
            await bob.connect(f"{stack.ws}/games/{game_id}/ws") as bobs, \
            await cy.connect(f"{stack.ws}/games/{game_id}/ws") as spectator:
        for each in (socket, bobs, spectator):
            await sockets.welcome(each)
        cases = [
            (bobs, {"id": "b1", "command": {"type": "Draw"}}, 422, "NOT_YOUR_TURN"),
            (socket, {"id": "a1", "command": {"type": "Fly"}}, 422, "MALFORMED_COMMAND"),
            (socket, {"id": "a2", "command": {"type": "Draw"}, "seat": 1}, 403, "NOT_YOUR_SEAT"),
            (socket, {"id": "a3", "command": {"type": "Draw"}, "colour": "red"}, 422, "VALIDATION_FAILED"),
            (socket, {"id": "a4", "command": "Draw"}, 422, "VALIDATION_FAILED"),
            (socket, {"id": "a5", "command": {"type": "Draw"}, "command_id": "x"}, 400, "MALFORMED_MESSAGE"),
            (socket, {"id": "a6", "kind": "chat", "text": "hi"}, 400, "UNKNOWN_KIND"),
            (spectator, {"id": "c1", "command": {"type": "Draw"}}, 403, "NOT_SEATED"),
        ]
        for where, fields, status, code in cases:
            await where.send(json.dumps({"v": 1, "kind": "move", **fields}))
            refused = await sockets.answer(where, fields["id"])
            assert (refused["kind"], refused["status"], refused["error"]["code"]) == ("error", status, code), fields
            valid(refused)
        for raw, code in (("not json", "MALFORMED_MESSAGE"), ("[1, 2]", "MALFORMED_MESSAGE"),
                          ('{"v": 1, "kind": "move", "id": "no spaces", "command": {}}', "MALFORMED_MESSAGE"),
                          ('{"v": 1, "kind": "move", "command": {"type": "Draw"}}', "MALFORMED_MESSAGE")):
            await socket.send(raw)
            refused = await sockets.answer(socket, None)
            assert (refused["status"], refused["error"]["code"]) == (400, code), raw
        assert len(await stored(stack, game_id)) == before
        # Still open, and still moving.
        assert (await sockets.move(socket, "a7", {"type": "Stand"}))["kind"] == "ack"
        assert (await sockets.move(bobs, "b2", {"type": "Stand"}))["kind"] == "ack"


async def test_a_socket_that_cannot_move_answers_once_and_closes(stack, register):
    ann = await register("ann")
    game_id = await seat_and_start([ann], "testjack")
    before = len(await stored(stack, game_id))
    move = json.dumps({"v": 1, "kind": "move", "id": "m1", "command": {"type": "Draw"}})
    cases = [
        (websockets.connect(f"{stack.ws}/games/{game_id}/ws"), move, "NOT_AUTHENTICATED", 4401),
        (ann.connect(f"{stack.ws}/games/{game_id}/ws"), json.dumps({"v": 2, "kind": "move", "id": "m1"}),
         "UNSUPPORTED_VERSION", 4400),
        (ann.connect(f"{stack.ws}/games/{game_id}/ws"), json.dumps({"kind": "move", "id": "m1"}),
         "UNSUPPORTED_VERSION", 4400),
    ]
    for opening, raw, code, close in cases:
        async with await opening as socket:
            await sockets.welcome(socket)
            await socket.send(raw)
            refused = await sockets.answer(socket, "m1")
            assert refused["error"]["code"] == code
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), WAIT)
            assert closed.value.rcvd.code == close
    assert len(await stored(stack, game_id)) == before


async def test_a_table_socket_takes_no_moves(stack, register):
    ann = await register("ann")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    async with await ann.connect(f"{stack.ws}/tables/{table['table_id']}/ws") as socket:
        await sockets.welcome(socket)
        await socket.send(json.dumps({"v": 1, "kind": "move", "id": "m1", "command": {"type": "Draw"}}))
        refused = await sockets.answer(socket, "m1")
        assert (refused["status"], refused["error"]["code"]) == (400, "MOVES_ON_GAME_SOCKETS")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), WAIT)
        assert closed.value.rcvd.code == 4400


async def test_every_message_counts_against_the_players_command_limit_shared_with_post(
        nats_url, redis_url, namespace):
    async with local_stack(nats_url, redis_url, namespace, scoring=False,
                           settings=dict(lobby_limit_commands="3/minute")) as stack, \
            httpx.AsyncClient(base_url=stack.http, timeout=WAIT) as http:
        ann = await ApiPlayer.register(http, "ann")
        game_id = await seat_and_start([ann], "testjack")
        before = len(await stored(stack, game_id))
        async with await ann.connect(f"{stack.ws}/games/{game_id}/ws") as socket:
            await sockets.welcome(socket)
            await socket.send("not even json")                      # counted too
            assert (await sockets.answer(socket, None))["error"]["code"] == "MALFORMED_MESSAGE"
            assert (await sockets.move(socket, "t1", {"type": "Think"}))["kind"] == "ack"
            await ann.ok(ann.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
            limited = await sockets.move(socket, "t2", {"type": "Think"})
            assert (limited["status"], limited["error"]["code"]) == (429, "RATE_LIMITED")
            assert limited["retry_after"] >= 1
            valid(limited)
            assert (await ann.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}})).status_code == 429
            stream = await stored(stack, game_id)
            assert len(stream) == before + 2 and not [e for e in stream if e.command_id == f"{ann.player_id}:t2"]


def test_failures_behind_a_move_are_answered_as_post_answers_them():
    down = grpc.aio.AioRpcError(grpc.StatusCode.UNAVAILABLE, grpc.aio.Metadata(), grpc.aio.Metadata(), "gone")
    assert (_refusal(down, "g").status, _refusal(down, "g").code) == (503, "ADJUDICATOR_UNAVAILABLE")
    assert (_refusal(StoreError("x"), "g").status, _refusal(StoreError("x"), "g").code) == (503, "STORE_UNAVAILABLE")
    assert (_refusal(KeyError("x"), "g").status, _refusal(KeyError("x"), "g").code) == (500, "INTERNAL")


async def test_an_exempt_address_moves_past_the_limit_as_its_posts_do(nats_url, redis_url, namespace):
    """The limits' exemption is by address (LOBBY_LIMITS_EXEMPT): a socket's moves carry the socket's."""
    async with local_stack(nats_url, redis_url, namespace, scoring=False,
                           settings=dict(lobby_limit_commands="1/minute", lobby_limits_exempt="127.0.0.1/32")) as stack, \
            httpx.AsyncClient(base_url=stack.http, timeout=WAIT) as http:
        ann = await ApiPlayer.register(http, "ann")
        game_id = await seat_and_start([ann], "testjack")
        async with await ann.connect(f"{stack.ws}/games/{game_id}/ws") as socket:
            await sockets.welcome(socket)
            answers = [await sockets.move(socket, f"t{n}", {"type": "Think"}) for n in range(3)]
        assert [a["kind"] for a in answers] == ["ack", "ack", "ack"], answers
