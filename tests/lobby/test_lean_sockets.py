"""Sockets served at the door: no task of their own once caught up, one chat subscription per table, one
heartbeat for every quota slot; and HTTP on the same paths still meets FastAPI."""
import asyncio
import time

import pytest
import websockets
from redis.asyncio import Redis

from lobby.guard.sockets import SocketQuota
from lobby.sockets import Heartbeats
from tests.support import sockets
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration


async def test_an_idle_caught_up_socket_holds_only_the_servers_own_task(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    last = await stack.store.last_seq(f"game.{game_id}")
    url = f"{stack.ws}/games/{game_id}/ws"
    await asyncio.sleep(0.2)
    before = asyncio.all_tasks()
    crowd = [await websockets.connect(url, ping_interval=None) for _ in range(10)]
    try:
        for socket in crowd:
            await sockets.welcome(socket)
            assert [e["seq"] for e in await sockets.events(socket, last)] == list(range(1, last + 1))
        await asyncio.sleep(0.2)
        # Ten anonymous spectators caught up: the server's own task for each (waiting in `receive`),
        # and nothing else (no task serving the feed, none reading the client).
        added = asyncio.all_tasks() - before
        assert len(added) == 10 and all("run_asgi" in repr(task.get_coro()) for task in added)
        mover = ann if (await ann.ok(ann.get(f"/games/{game_id}/actions"))) else bob
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
        for socket in crowd:                                    # written by the feed, no task woken
            assert [e["seq"] for e in await sockets.events(socket, 1)] == [last + 1]
    finally:
        for socket in crowd:
            await socket.close()


async def test_a_tables_sockets_share_one_chat_subscription_and_each_gets_every_message(stack, register):
    ann, bob = await register("ann"), await register("bob")
    table_id = (await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2})))["table_id"]
    url = f"{stack.ws}/tables/{table_id}/ws"
    await bob.ok(bob.post(f"/tables/{table_id}/join"))

    async def chats(socket, count: int) -> list[str]:
        said = []
        while len(said) < count:
            message = await sockets.receive(socket)
            if message["kind"] == "chat":
                said.append(message["chat"]["text"])
        return said

    async with await ann.connect(url) as first, await bob.connect(url) as second:
        await sockets.welcome(first)
        await sockets.welcome(second)
        await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "one"}))
        assert await chats(first, 1) == ["one"] and await chats(second, 1) == ["one"]
        await first.close()
        await asyncio.sleep(0.2)
        await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "two"}))
        assert await chats(second, 1) == ["two"]                # the table's other socket keeps it
    await asyncio.sleep(0.2)
    async with await bob.connect(url) as again:                 # everyone left, then someone came back
        await sockets.welcome(again)
        await bob.ok(bob.post(f"/tables/{table_id}/chat", {"text": "three"}))
        assert await chats(again, 1) == ["three"]


async def test_http_on_a_socket_path_still_gets_the_apis_own_answer(stack, http):
    reply = await http.get("/games/nosuch/ws")
    assert reply.status_code == 404 and reply.json()["error"]["code"] == "NOT_FOUND"


async def test_one_heartbeat_refreshes_every_open_slot_and_never_brings_back_a_released_one(redis_url, namespace):
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        quota = SocketQuota(redis, f"beat{namespace}", per_player=5, per_address=5)
        kept, released = await quota.admit("ann", "10.0.0.1"), await quota.admit("bob", "10.0.0.2")
        for slot in (kept, released):
            for key in slot.keys:
                await redis.zadd(key, {slot.member: 1.0})       # as if not refreshed for a long time
        await released.release()
        began = time.time()
        await Heartbeats.refresh([kept, released])
        for key in kept.keys:
            assert await redis.zscore(key, kept.member) >= began
        for key in released.keys:
            assert await redis.zscore(key, released.member) is None
        beats = Heartbeats()
        beats.add(kept)
        beats.discard(kept)                                     # the last slot gone: no timer left running
        assert beats._timer is None
    finally:
        await redis.aclose()


async def test_on_a_server_without_direct_writes_a_socket_is_served_the_asgi_way(stack, register, monkeypatch):
    from starbase_core import outlet as outlet_module

    monkeypatch.setattr(outlet_module.Outlet, "of", classmethod(lambda cls, send: cls(send)))   # no protocol
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    last = await stack.store.last_seq(f"game.{game_id}")
    async with await ann.connect(f"{stack.ws}/games/{game_id}/ws?after=1") as socket:
        assert (await sockets.welcome(socket))["you"] == ann.player_id
        assert [e["seq"] for e in await sockets.events(socket, last - 1)] == list(range(2, last + 1))
        mover = ann if (await ann.ok(ann.get(f"/games/{game_id}/actions"))) else bob
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
        assert [e["seq"] for e in await sockets.events(socket, 1)] == [last + 1]
