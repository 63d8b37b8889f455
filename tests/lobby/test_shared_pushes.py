"""Pushes encoded once per view and shared: every socket still gets exactly its own view, in order, once.

Two seats with two sockets each, a signed-in spectator and an anonymous one watch a Testjack game (whose
dealt and drawn cards are hidden from everyone but their holder). The lobby encodes each event once per
distinct view (ann's, bob's, every spectator's) however many sockets share it, and a crowd that
reconnects is served from the stream's live copy, not from the store.
"""
import asyncio
import json
from collections import Counter

import pytest
import websockets

from lobby import games as games_module
from starbase_core.gamestream import is_platform
from tests.support import sockets
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration
HIDDEN_CARDS = ("CardDealt", "CardDrawn")


async def read_until(socket, until_type: str, into: list) -> None:
    async for raw in socket:
        into.append(raw)
        event = sockets.event_of(sockets.parse(raw))
        if event["type"] == until_type:
            return


async def play_to_the_end(ann, bob, game_id: str, moves: int = 100) -> None:
    for turn in range(moves):
        to_act = (await ann.ok(ann.get(f"/games/{game_id}/view")))["view"]["to_act"]
        if to_act is None:
            return
        mover = ann if to_act == ann.player_id else bob
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Draw" if turn % 3 else "Stand"}}))


class CountingReads:
    """The feed's store, counting the reads the feed makes (the rest of the lobby has its own handle)."""

    def __init__(self, store):
        self.store, self.reads = store, 0

    async def read(self, stream, from_seq=1):
        self.reads += 1
        return await self.store.read(stream, from_seq)

    def __getattr__(self, name):
        return getattr(self.store, name)


async def test_each_view_is_encoded_once_and_each_socket_gets_only_its_own(stack, register, monkeypatch):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack")
    await eve.ok(eve.post(f"/tables/{game_id}/spectate"))
    encoded: Counter = Counter()
    real = games_module.event_text

    def counting(event: dict) -> str:
        encoded[event["seq"]] += 1
        return real(event)

    monkeypatch.setattr(games_module, "event_text", counting)
    url = f"{stack.ws}/games/{game_id}/ws"
    opened = {"ann1": await ann.connect(url), "ann2": await ann.connect(url), "bob1": await bob.connect(url),
              "bob2": await bob.connect(url), "eve": await eve.connect(url), "anonymous": await websockets.connect(url)}
    viewer = {"ann1": ann.player_id, "ann2": ann.player_id, "bob1": bob.player_id, "bob2": bob.player_id,
              "eve": None, "anonymous": None}
    try:
        for name, socket in opened.items():
            assert (await sockets.welcome(socket))["you"] == viewer[name]
        received = {name: [] for name in opened}
        readers = [asyncio.create_task(read_until(socket, "GameEnded", received[name]))
                   for name, socket in opened.items()]
        await play_to_the_end(ann, bob, game_id)
        await asyncio.wait_for(asyncio.gather(*readers), 60)
        # Caught up, every socket is written to straight from the feed, grouped by its view.
        channel = stack.runtime.feed._channels[f"game.{game_id}"]
        for _ in range(200):
            if sum(len(sinks) for sinks in channel.audience.values()) == len(opened):
                break
            await asyncio.sleep(0.05)
        assert {view: len(sinks) for view, sinks in channel.audience.items()} == \
               {ann.player_id: 2, bob.player_id: 2, None: 2}
    finally:
        for socket in opened.values():
            await socket.close()

    stored = await stack.store.read(f"game.{game_id}")
    for name, raws in received.items():
        events = [sockets.event_of(sockets.parse(raw)) for raw in raws]
        assert [e["seq"] for e in events] == list(range(1, len(stored) + 1)), name
        for event in events:
            if event["type"] in HIDDEN_CARDS:          # a card shows to its holder only, never to a spectator
                assert ("card" in event["data"]) == (event["data"]["player"] == viewer[name]), (name, event)
    # Sockets that share a view got the very same bytes; different views differ where a card was dealt.
    assert received["ann1"] == received["ann2"] and received["bob1"] == received["bob2"]
    assert received["eve"] == received["anonymous"]
    assert received["ann1"] != received["bob1"] != received["eve"]
    assert not any(json.loads(raw)["event"]["type"] in HIDDEN_CARDS and "card" in raw
                   for raw in received["eve"])
    # Six sockets, three views: each of Testjack's events was redacted and encoded three times, not six;
    # the platform's envelopes (the same for every viewer) once. (Testjack is not on the engine base, so
    # the lobby does not take its events for alike: `same_for_every_viewer`.)
    assert encoded == {e.seq: 1 if is_platform(e) else 3 for e in stored}
    assert set(encoded.values()) == {1, 3}                  # both kinds were played


async def test_a_crowd_reconnecting_resumes_from_the_live_copy_without_a_gap(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    url = f"{stack.ws}/games/{game_id}/ws"
    async with await ann.connect(url) as first:
        await sockets.welcome(first)
        to_act = (await ann.ok(ann.get(f"/games/{game_id}/view")))["view"]["to_act"]
        mover = ann if to_act == ann.player_id else bob
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
        last_seen = await stack.store.last_seq(f"game.{game_id}")
        await sockets.events(first, last_seen)
    # Gone, and the game moved on meanwhile; then ten sockets come back at once from where they were.
    await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}}))
    feed = stack.runtime.feed
    counting = CountingReads(feed.store)
    feed.store = counting
    try:
        crowd = [await websockets.connect(f"{url}?after={last_seen}") for _ in range(8)] + \
                [await ann.connect(f"{url}?after={last_seen}") for _ in range(2)]
        try:
            now = await stack.store.last_seq(f"game.{game_id}")
            for socket in crowd:
                await sockets.welcome(socket)
                assert [e["seq"] for e in await sockets.events(socket, now - last_seen)] == \
                       list(range(last_seen + 1, now + 1))
            await play_to_the_end(ann, bob, game_id)
            end = await stack.store.last_seq(f"game.{game_id}")
            for socket in crowd:
                assert [e["seq"] for e in await sockets.events(socket, end - now, timeout=30)] == \
                       list(range(now + 1, end + 1))
        finally:
            for socket in crowd:
                await socket.close()
    finally:
        feed.store = counting.store
    assert counting.reads == 0          # the stream's recent events were in memory: no store read at all


async def test_a_move_on_a_socket_is_acked_with_the_text_its_sockets_are_pushed_made_once(stack, register,
                                                                                          monkeypatch):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack")
    await eve.ok(eve.post(f"/tables/{game_id}/spectate"))
    redacted: Counter = Counter()
    real = games_module.wire_event

    def counting(engine, envelope, viewer):
        redacted[envelope.seq] += 1
        return real(engine, envelope, viewer)

    monkeypatch.setattr(games_module, "wire_event", counting)
    url = f"{stack.ws}/games/{game_id}/ws"
    seats = {ann.player_id: await ann.connect(url), bob.player_id: await bob.connect(url)}
    watching = await eve.connect(url)
    pushed: dict = {player: {} for player in seats}         # seq -> event, as each seat's socket got it
    try:
        start = 0
        for socket in [*seats.values(), watching]:
            start = (await sockets.welcome(socket))["seq"]
        acks = []
        for turn in range(6):
            to_act = (await ann.ok(ann.get(f"/games/{game_id}/view")))["view"]["to_act"]
            if to_act is None:
                break
            passed: list = []
            acks.append((to_act, await sockets.move(seats[to_act], f"m{turn}",
                                                    {"type": "Draw" if turn % 3 else "Stand"}, passed=passed)))
            pushed[to_act].update((e["seq"], e) for e in map(sockets.event_of, passed))
        last = await stack.store.last_seq(f"game.{game_id}")
        for player, socket in seats.items():
            while max(pushed[player], default=start) < last:
                event = sockets.event_of(await sockets.receive(socket))
                pushed[player][event["seq"]] = event
    finally:
        for socket in [*seats.values(), watching]:
            await socket.close()
    assert len(acks) >= 2 and all(ack["kind"] == "ack" for _, ack in acks)
    for player, ack in acks:                        # the ack's events are the mover's own pushes
        assert ack["events"] == [pushed[player][e["seq"]] for e in ack["events"]]
    moved = {e["seq"] for _, ack in acks for e in ack["events"]}
    # Each event of a move redacted once per view (ann, bob, eve), its ack carrying the mover's: not 4
    # (a platform envelope, the game's end say, once for all).
    platform = {e.seq for e in await stack.store.read(f"game.{game_id}") if is_platform(e)}
    assert {seq: redacted[seq] for seq in moved} == {seq: 1 if seq in platform else 3 for seq in moved}
    assert moved - platform
