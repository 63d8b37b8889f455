"""`your_turn` pushed to the socket of the seat that owes a decision, and to nobody else; presence shared
by two lobby replicas, pushed on table sockets; sockets of a dead replica fade."""
import asyncio
import time

import httpx
import pytest

from lobby.loop.presence import STALE
from tests.support.loop import Inbox, eventually
from tests.support.stack import another_lobby, seat_and_start

pytestmark = pytest.mark.integration


async def inbox(player, url: str) -> Inbox:
    inbox = Inbox(await player.connect(url))
    await eventually(lambda: _ready(inbox), "the socket to push the game's first events")
    return inbox


async def _ready(inbox: Inbox):
    return inbox.last_event_seq() > 0


async def test_your_turn_reaches_the_seat_that_owes_and_nobody_else(stack, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack")
    await eve.ok(eve.post(f"/tables/{game_id}/spectate"))
    url = f"{stack.ws}/games/{game_id}/ws"
    sockets = {"ann": await inbox(ann, f"{url}?notify=true"), "bob": await inbox(bob, f"{url}?notify=true"),
               "eve": await inbox(eve, f"{url}?notify=true"), "ann-plain": await inbox(ann, url)}
    try:
        # ann owes the first decision: her socket that asked is told at once, with the seq it is owed since.
        first, = await eventually(lambda: _kind(sockets["ann"], "your_turn"), "ann's your_turn")
        setup = await stack.store.read(f"game.{game_id}")
        assert first == {"v": 1, "kind": "your_turn", "game_id": game_id, "seq": setup[-1].seq,
                         "since": setup[-1].time, "due_at": None}

        stood = await ann.ok(ann.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}}))
        stood_seq = stood["events"][-1]["seq"]
        told, = await eventually(lambda: _kind(sockets["bob"], "your_turn"), "bob's your_turn")
        assert told["seq"] == stood_seq and told["game_id"] == game_id

        # Everyone has the events up to the move; a wrong push would have come with bob's.
        for inbox_ in sockets.values():
            await eventually(lambda i=inbox_: _at_least(i, stood_seq), "the move on every socket")
        await asyncio.sleep(0.5)
        assert len(sockets["ann"].kind("your_turn")) == 1
        assert len(sockets["bob"].kind("your_turn")) == 1
        assert sockets["eve"].kind("your_turn") == [] and sockets["ann-plain"].kind("your_turn") == []
        assert {m["kind"] for m in sockets["ann-plain"].messages} == {"welcome", "event"}   # no opt-in: its welcome, then events
    finally:
        for inbox_ in sockets.values():
            await inbox_.close()


async def _kind(inbox: Inbox, kind: str):
    return inbox.kind(kind) or None


async def _at_least(inbox: Inbox, seq: int):
    return inbox.last_event_seq() >= seq


async def test_presence_is_shared_by_two_replicas_and_pushed_on_table_sockets(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    async with another_lobby(stack) as other, httpx.AsyncClient(base_url=f"http://{other}", timeout=20) as http_b:
        ann_b, bob_b = ann.on(http_b), bob.on(http_b)

        async def online_on_b():
            return (await ann_b.ok(ann_b.get(f"/tables/{game_id}")))["online"]

        assert await online_on_b() == []
        watching = Inbox(await bob_b.connect(f"ws://{other}/tables/{game_id}/ws?notify=true"))   # on B
        try:
            await eventually(lambda: _presence(watching, [bob.player_id]), "bob's own socket to count")
            playing = await ann.connect(f"{stack.ws}/games/{game_id}/ws")                        # on A
            await eventually(lambda: _equals(online_on_b, [ann.player_id, bob.player_id]), "B to see ann")
            await eventually(lambda: _presence(watching, [ann.player_id, bob.player_id]), "a push on B")
            await playing.close()
            await eventually(lambda: _equals(online_on_b, [bob.player_id]), "B to see ann leave")
            await eventually(lambda: _presence(watching, [bob.player_id], after=2), "the push of her leaving")
        finally:
            await watching.close()
        await eventually(lambda: _equals(online_on_b, []), "bob to leave too")


async def _presence(inbox: Inbox, online: list[str], after: int = 0):
    pushed = inbox.kind("presence")
    return len(pushed) > after and pushed[-1]["online"] == online


async def _equals(read, expected):
    return await read() == expected


async def test_a_dead_replicas_sockets_fade_and_spectators_are_not_listed(stack, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack")
    presence = stack.runtime.loop.presence
    key = presence.key(game_id)
    # A socket of ann's on a replica that died long ago, and a fresh one of eve's (a spectator).
    await stack.runtime.redis.zadd(key, {f"{ann.player_id}|gone": time.time() - STALE - 1,
                                         f"{eve.player_id}|live": time.time()})
    assert (await eve.ok(eve.get(f"/tables/{game_id}")))["online"] == []
    await stack.runtime.redis.zadd(key, {f"{bob.player_id}|live": time.time()})
    assert (await eve.ok(eve.get(f"/tables/{game_id}")))["online"] == [bob.player_id]
