"""The Trucker relay's figures on a metrics port: its backlog (moves waiting for the stream and the age
of the oldest) while the stream does not take appends, and every figure on the port of `python -m
trucker` running as a child process."""
from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from starbase_core.health import serve_metrics
from starbase_core.seeds import MemorySeedVault
from starbase_core.servers import free_port
from starbase_core.store_memory import MemoryEventStore

from trucker.relay import Relay
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse

from tests.observability.helpers import scrape, until
from tests.trucker_service.helpers import move, new_game
from tests.trucker_service.live import ChildService, Client, settings_for

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


class GatedStore:
    """An event store whose appends wait while the gate is shut (a stream that does not answer)."""

    def __init__(self, inner):
        self.inner, self.open = inner, asyncio.Event()
        self.open.set()

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def append(self, *args, **kwargs):
        await self.open.wait()
        return await self.inner.append(*args, **kwargs)


async def test_the_relay_backlog_shows_moves_waiting_for_the_stream_and_clears_when_it_answers(redis_url):
    redis = Redis.from_url(redis_url, decode_responses=True)
    store = GatedStore(MemoryEventStore())
    warehouse = RedisWarehouse(redis)
    service = TableService(warehouse, store, Relay(warehouse, store), MemorySeedVault())
    metrics = serve_metrics("127.0.0.1", 0)
    try:
        game = await new_game(store, ["ann", "bob"], vault=service.vault)
        await service.play(game, "ann", move("grab_face_down"), "ann:1")     # opens the table
        idle = await scrape(metrics.server_port)
        assert idle["trucker_relay_waiting_moves"] == 0 and idle["trucker_relay_oldest_wait_seconds"] == 0

        store.open.clear()
        waiting = asyncio.create_task(service.play(game, "bob", move("grab_face_down"), "bob:1"))
        backlog = await until(_scraped_when(metrics.server_port, lambda s: s["trucker_relay_waiting_moves"] == 1
                                            and s["trucker_relay_oldest_wait_seconds"] > 0),
                              "one move waiting for the stream, for some time")
        assert not waiting.done()
        appended = backlog['trucker_relay_appends_total{result=appended}']

        store.open.set()
        await asyncio.wait_for(waiting, 30)
        after = await scrape(metrics.server_port)
    finally:
        metrics.shutdown()
        await redis.aclose()
    assert after["trucker_relay_waiting_moves"] == 0 and after["trucker_relay_oldest_wait_seconds"] == 0
    assert after['trucker_relay_appends_total{result=appended}'] == appended + 1
    assert after["trucker_relay_wait_seconds_count"] > backlog["trucker_relay_wait_seconds_count"]


def _scraped_when(port: int, condition):
    async def check():
        samples = await scrape(port)
        return samples if condition(samples) else None
    return check


async def test_the_service_exposes_its_relay_figures_on_its_metrics_port(
        nats_url, redis_url, namespace, jetstream_store, vault):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    settings = settings_for(nats_url, redis_url, namespace, metrics_port=free_port())
    child = await ChildService(settings).start()
    try:
        before = await scrape(settings.metrics_port)
        ann, bob = await Client.connect(child.url, game, "ann"), await Client.connect(child.url, game, "bob")
        acks = [await ann.send("grab_face_down"), await bob.send("grab_face_down")]
        assert [ack["kind"] for ack in acks] == ["ack", "ack"], acks
        after = await scrape(settings.metrics_port)
        await ann.close(), await bob.close()
    finally:
        child.stop()
    assert before.get("trucker_relay_wait_seconds_count", 0) == 0
    assert after['trucker_moves_total{op=GrabFaceDown,outcome=acked}'] == 2
    # Both moves (and the start of building) waited for the relay, which appended at least once.
    assert after["trucker_relay_wait_seconds_count"] >= 3
    assert after['trucker_relay_appends_total{result=appended}'] >= 1
    assert after["trucker_relay_batch_events_count"] == after['trucker_relay_appends_total{result=appended}']
    assert after["trucker_relay_waiting_moves"] == 0 and after["trucker_relay_oldest_wait_seconds"] == 0
