"""A replica's own events reach its own connections without their NATS echo.

The service's NATS connection takes no echo of its own publishes (`runtime.Runtime.start`): what its
relay stored is handed to its connections from the envelopes in hand. When the table is being filled
at that moment (a join catching up, a gap read from the store), they are handed over once the fill is
done: with the echo gone nothing else would bring them.
"""
from __future__ import annotations

import asyncio
import uuid

from starbase_core.bus import connect_nats
from starbase_core.envelope import NewEvent
from starbase_core.store_memory import MemoryEventStore

from trucker.fanout import TableHub


def _grab(player: str, component: str) -> NewEvent:
    return NewEvent(type="ComponentGrabbed", actor=player,
                    data={"type": "ComponentGrabbed", "v": 1, "player": player, "component": component,
                          "source": "face_up"})


async def _delivered(listener, count: int) -> list[str]:
    items = []
    while len(items) < count:
        items.append(await asyncio.wait_for(listener.queue.get(), 10))
    return items


async def test_events_stored_while_the_table_is_being_filled_reach_it_once_it_is_done(nats_url):
    nc = await connect_nats(nats_url, name="trucker-test", no_echo=True)
    store = MemoryEventStore()
    game = f"g{uuid.uuid4().hex[:10]}"
    stream = f"game.{game}"
    hub = TableHub(nc, store, prefix=f"t{uuid.uuid4().hex[:6]}")
    try:
        await store.append(stream, [_grab("ann", "cab-01")], expected_seq=0)
        listener = await hub.join(game, None, after=1)
        first = await store.append(stream, [_grab("bob", "cab-02")], expected_seq=1)
        await hub.publish(game, first)                   # the table is free: delivered at once
        table = hub._tables[game]
        async with table.lock:                           # a fill in progress (a join, a gap)
            second = await store.append(stream, [_grab("ann", "cab-03"), _grab("bob", "cab-04")],
                                        expected_seq=2)
            await asyncio.wait_for(hub.publish(game, second), 5)   # the relay is not held up
            assert listener.queue.qsize() == 1
        shown = await _delivered(listener, 3)
        assert [f'"seq":{n},' in item for n, item in zip((2, 3, 4), shown)] == [True] * 3
        await asyncio.sleep(0.2)
        assert listener.queue.empty()                    # each once: no echo, nothing twice
        await hub.leave(game, listener)
    finally:
        await nc.close()
