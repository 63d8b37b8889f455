"""Crashes, a lost Redis and several replicas: real NATS (JetStream) and Redis."""
from __future__ import annotations

import asyncio

import pytest
import websockets
from redis.asyncio import Redis

from starbase_core.gamestream import game_stream
from starbase_core.servers import RedisServer, free_port

from starbase_core.store_memory import MemoryEventStore
from trucker.relay import Relay
from trucker.schemas import public_event
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse, Refused

from tests.trucker_service.helpers import (
    move,
    assert_reruns_through_the_rules, check_invariants, folded, legal_spot, new_game, next_face_down,
)
from tests.trucker_service.live import ChildService, Client, in_process, settings_for

pytestmark = pytest.mark.integration


class Bot:
    """A player building as fast as it can over one socket, remembering every acknowledged move."""

    def __init__(self, base: str, game: str, player: str):
        self.base, self.game, self.player = base, game, player
        self.acked: dict[str, dict] = {}          # client id → ack
        self.unanswered: list[tuple[str, str, dict]] = []
        self.counter = 0
        self.client: Client | None = None

    async def connect(self, base: str | None = None) -> None:
        self.base = base or self.base
        self.client = await Client.connect(self.base, self.game, self.player)

    async def send(self, op: str, **fields) -> dict | None:
        self.counter += 1
        message_id = f"{self.player}-{self.counter}"
        self.unanswered.append((message_id, op, fields))
        try:
            answer = await self.client.send(op, message_id, **fields)
        except (websockets.ConnectionClosed, asyncio.TimeoutError, ConnectionError):
            return None
        self.unanswered.remove((message_id, op, fields))
        if answer["kind"] == "ack":
            self.acked[message_id] = answer
        return answer

    async def resend_unanswered(self) -> list[dict]:
        """After a crash: the same moves, same ids. Each is applied at most once."""
        answers = []
        for message_id, op, fields in list(self.unanswered):
            answer = await self.client.send(op, message_id, **fields)
            self.unanswered.remove((message_id, op, fields))
            if answer["kind"] == "ack":
                self.acked[message_id] = answer
            answers.append(answer)
        return answers

    async def build(self, moves: int, ship_of) -> None:
        for _ in range(moves):
            grabbed = await self.send("grab_face_down")
            if grabbed is None:
                return
            if grabbed["kind"] != "ack":
                if grabbed["error"]["code"] == "HAND_FULL" and await self.send("return") is None:
                    return
                continue
            spot = legal_spot(await ship_of(self.player), grabbed["events"][0]["data"]["component"])
            answer = await (self.send("place", square=list(spot[:2]), rotation=spot[2]) if spot else self.send("return"))
            if answer is None:
                return


def ship_reader(store, game):
    async def ship_of(player: str):
        return (await folded(store, game)).state.seats[player].ship
    return ship_of


async def assert_acked_moves_stored_once(store, game: str, bots: list[Bot]) -> None:
    """Each player's moves in the stream (the envelopes that start a command, by that player) are its
    acknowledged ones, in order, plus at most its moves still unanswered (stored, but the answer was
    lost with the service): none lost, none applied twice."""
    envelopes = await store.read(game_stream(game))
    by_seq = {e.seq: e for e in envelopes}
    for bot in bots:
        applied = [e.seq for e in envelopes if e.actor == bot.player and "command" in e.meta]
        acked = sorted(ack["first_seq"] for ack in bot.acked.values())
        assert set(acked) <= set(applied), f"{bot.player}: acknowledged {acked} but the stream has {applied}"
        assert len(applied) - len(acked) <= len(bot.unanswered), f"{bot.player}: {applied} vs {acked}"
        for ack in bot.acked.values():
            if ack["events"]:
                assert by_seq[ack["first_seq"]].type == ack["events"][0]["type"]
        # Every stored move carries its client id, and no id was applied twice.
        requests = [e.meta.get("request_id") for e in envelopes if e.actor == bot.player and "command" in e.meta]
        assert None not in requests and len(requests) == len(set(requests)), f"{bot.player}: {requests}"


async def test_sigkill_in_a_busy_round_loses_no_acknowledged_move_and_applies_none_twice(
        nats_url, redis_url, namespace, jetstream_store, vault):
    settings = settings_for(nats_url, redis_url, namespace)
    players = ["ann", "bob", "cy", "dee"]
    game = await new_game(jetstream_store, players, vault=vault)
    child = await ChildService(settings).start()
    try:
        bots = [Bot(child.url, game, p) for p in players]
        for bot in bots:
            await bot.connect()
        ship_of = ship_reader(jetstream_store, game)
        building = [asyncio.create_task(bot.build(200, ship_of)) for bot in bots]
        while sum(len(b.acked) for b in bots) < 24:
            await asyncio.sleep(0.01)
        child.kill()                                  # mid-round, moves in flight
        await asyncio.gather(*building)
        acked_before = sum(len(b.acked) for b in bots)
        await assert_acked_moves_stored_once(jetstream_store, game, bots)

        child = await ChildService(settings).start()  # the round goes on
        for bot in bots:
            await bot.connect(child.url)
            resent = await bot.resend_unanswered()     # a move applied before the kill is not applied again
            assert all(answer["kind"] in ("ack", "error") for answer in resent)
        await assert_acked_moves_stored_once(jetstream_store, game, bots)
        await asyncio.gather(*(bot.build(3, ship_of) for bot in bots))
        assert sum(len(b.acked) for b in bots) > acked_before
        await assert_acked_moves_stored_once(jetstream_store, game, bots)
        assert_reruns_through_the_rules(await jetstream_store.read(game_stream(game)), await vault.get(game))
        for bot in bots:
            await bot.client.close()
    finally:
        child.stop()
    redis = Redis.from_url(redis_url, decode_responses=True)
    warehouse = RedisWarehouse(redis)
    await check_invariants(TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store)), game)
    await redis.aclose()


async def test_redis_emptied_mid_round_is_rebuilt_from_the_event_store(nats_url, namespace, jetstream_store, vault):
    with RedisServer() as own_redis:
        settings = settings_for(nats_url, own_redis.url, namespace)
        players = ["ann", "bob"]
        game = await new_game(jetstream_store, players, vault=vault)
        async with in_process(settings) as base:
            bots = [Bot(base, game, p) for p in players]
            for bot in bots:
                await bot.connect()
            ship_of = ship_reader(jetstream_store, game)
            await asyncio.gather(*(bot.build(4, ship_of) for bot in bots))
            await bots[0].send("grab_face_down")      # ann holds a component when Redis is lost
            redis = Redis.from_url(own_redis.url, decode_responses=True)
            future = (await RedisWarehouse(redis).snapshot(game, secret=True))["facedown"]
            assert future[0] == await next_face_down(jetstream_store, vault, game)
            await redis.flushall()
            expected_next = future[0]
            answer = await bots[1].send("grab_face_down")
            assert answer["kind"] == "ack"
            assert answer["events"][0]["data"]["component"] == expected_next
            assert (await bots[0].send("grab_face_down"))["error"]["code"] == "HAND_FULL"   # the hand survived
            assert (await bots[0].send("return"))["kind"] == "ack"
            rebuilt = (await RedisWarehouse(redis).snapshot(game, secret=True))["facedown"]
            assert rebuilt == future[1:]                       # the same future order after the rebuild
            await asyncio.gather(*(bot.build(3, ship_of) for bot in bots))
            warehouse = RedisWarehouse(redis)
            await check_invariants(TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store)), game)
            await assert_acked_moves_stored_once(jetstream_store, game, bots)
            assert_reruns_through_the_rules(await jetstream_store.read(game_stream(game)), await vault.get(game))
            for bot in bots:
                await bot.client.close()
            await redis.aclose()


async def test_a_move_stored_but_not_acknowledged_when_redis_is_lost_is_answered_not_applied_again(vault):
    """Given a grab whose event reached the stream but whose ack never left (the service stopped between
    the two), when Redis is emptied and the client resends the move with the same id, then the rebuilt
    warehouse answers it with the stored events and applies nothing: the grab is in the stream once."""
    store = MemoryEventStore()
    with RedisServer() as own_redis:
        redis = Redis.from_url(own_redis.url, decode_responses=True)
        warehouse = RedisWarehouse(redis)
        relay = Relay(warehouse, store)
        service = TableService(warehouse, store, relay, vault)
        game = await new_game(store, ["ann", "bob"], vault=vault)
        await service.open_table(game)
        grab = await service.apply(game, "ann", move("grab_face_down"), "ann:17")   # in the outbox: not acked
        await relay.flush(game)                                                  # durable in the stream
        grabbed = grab.events[0]["data"]["component"]
        await redis.flushall()

        again = await service.play(game, "ann", move("grab_face_down"), "ann:17")

        assert again.retried and (again.first_seq, again.last_seq) == (grab.first_seq, grab.last_seq)
        stream = game_stream(game)
        assert [public_event(stream, e) for e in again.events] == [public_event(stream, e) for e in grab.events]
        envelopes = await store.read(game_stream(game))
        grabs = [e for e in envelopes if e.type == "ComponentGrabbed"]
        assert [(e.actor, e.data["component"], e.meta.get("request_id")) for e in grabs] == \
               [("ann", grabbed, "ann:17")]
        assert (await folded(store, game)).state.seats["ann"].hand == grabbed
        with pytest.raises(Refused) as refused:                    # the hand is full: it was applied once
            await service.play(game, "ann", move("grab_face_down"), "ann:18")
        assert refused.value.code == "HAND_FULL"
        assert service.rebuilds == 1
        await check_invariants(service, game)
        assert_reruns_through_the_rules(await store.read(game_stream(game)), await vault.get(game))
        await redis.aclose()


async def test_two_replicas_serve_one_table(nats_url, redis_url, namespace, jetstream_store, vault):
    one = settings_for(nats_url, redis_url, namespace)
    two = one.model_copy(update={"trucker_port": free_port()})
    players = ["ann", "bob", "cy", "dee"]
    game = await new_game(jetstream_store, players, vault=vault)
    async with in_process(one) as first, in_process(two) as second:
        ann, bob = await Client.connect(first, game, "ann"), await Client.connect(second, game, "bob")
        watchers = [await Client.connect(first, game), await Client.connect(second, game)]
        tile = (await ann.send("grab_face_down"))["events"][0]["data"]["component"]
        await ann.send("return")
        racers = [await Client.connect((first, second)[i % 2], game, players[i % 4]) for i in range(26)]
        answers = await asyncio.gather(*(c.send("grab_face_up", component=tile) for c in racers))
        assert len([a for a in answers if a["kind"] == "ack"]) == 1
        await bob.send("grab_face_down")
        last = await jetstream_store.last_seq(game_stream(game))
        for client in [ann, bob, *watchers]:
            await client.wait_for_seq(last)
            seqs = [e["seq"] for e in client.events]
            assert seqs == list(range(client.welcome["seq"] + 1, last + 1))
        for client in [ann, bob, *watchers, *racers]:
            await client.close()
    assert_reruns_through_the_rules(await jetstream_store.read(game_stream(game)), await vault.get(game))
    redis = Redis.from_url(redis_url, decode_responses=True)
    warehouse = RedisWarehouse(redis)
    await check_invariants(TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store)), game)
    await redis.aclose()


async def test_sigterm_moves_every_pending_event_into_the_store_before_exiting(
        nats_url, redis_url, namespace, jetstream_store, vault):
    settings = settings_for(nats_url, redis_url, namespace)
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    child = await ChildService(settings).start()
    try:
        ann = await Client.connect(child.url, game, "ann")      # the replica now serves this table
        redis = Redis.from_url(redis_url, decode_responses=True)
        warehouse = RedisWarehouse(redis)
        pending = await TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store), vault).apply(
            game, "bob", move("grab_face_down"), None)                                  # outbox only
        await redis.aclose()
        assert await jetstream_store.last_seq(game_stream(game)) < pending.last_seq
        child.stop()                                             # SIGTERM: graceful
        await ann.close()
    finally:
        child.stop()
    stored = await jetstream_store.read(game_stream(game), from_seq=pending.first_seq)
    assert [(e.type, e.actor) for e in stored] == [("ComponentGrabbed", "bob")]
