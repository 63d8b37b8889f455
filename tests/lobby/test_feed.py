"""The live feed over the in-memory store: backlog then live, in order, once, gaps filled, laggards cut."""
import asyncio

import pytest

from lobby import feed as feed_module
from lobby.feed import Feed, SlowConsumer
from starbase_core.envelope import NewEvent
from starbase_core.store_memory import MemoryEventStore


async def append(store, stream: str, count: int) -> list:
    stored = []
    for _ in range(count):
        stored += await store.append(stream, [NewEvent(type="Ticked")], expected_seq=await store.last_seq(stream))
    return stored


async def take(events, count: int) -> list[int]:
    return [(await asyncio.wait_for(anext(events), 5)).seq for _ in range(count)]


@pytest.fixture
async def running():
    store = MemoryEventStore()
    await append(store, "game.other", 2)
    feed = Feed(store)
    await feed.start()
    yield store, feed
    await feed.stop()


async def test_a_subscriber_gets_what_it_missed_then_live_events_in_order(running):
    store, feed = running
    await append(store, "game.g", 3)
    events = feed.events("game.g", after=1)
    assert await take(events, 2) == [2, 3]
    await append(store, "game.g", 2)
    await append(store, "game.other", 1)          # another stream's events are not ours
    assert await take(events, 2) == [4, 5]
    await events.aclose()


async def test_an_envelope_seen_twice_is_sent_once_and_a_gap_is_filled_from_the_store(running):
    store, feed = running
    events = feed.events("game.g", after=0)
    first = asyncio.create_task(take(events, 1))
    await asyncio.sleep(0)
    stored = await append(store, "game.g", 1)
    assert await first == [1]
    # The follower hands over seq 1 again, then seq 3 without seq 2 (as after a follower restart).
    more = await store.append("game.g", [NewEvent(type="A"), NewEvent(type="B")], expected_seq=1)
    feed._dispatch(stored[0])
    feed._dispatch(more[1])
    assert await take(events, 2) == [2, 3]
    await events.aclose()


async def test_a_subscriber_that_falls_too_far_behind_is_cut_off(running, monkeypatch):
    store, feed = running
    monkeypatch.setattr(feed_module, "QUEUE_LIMIT", 2)
    events = feed.events("game.g", after=0)
    first = asyncio.create_task(take(events, 1))
    await asyncio.sleep(0)
    await append(store, "game.g", 1)
    await first
    for envelope in await append(store, "game.g", 4):    # nobody reads: the queue overflows
        feed._dispatch(envelope)
    with pytest.raises(SlowConsumer):
        await take(events, 10)
