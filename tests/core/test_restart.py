"""An acknowledged append survives a NATS restart, and the store reconnects by itself."""
from __future__ import annotations

import asyncio

import pytest

from starbase_core.envelope import NewEvent
from starbase_core.servers import NatsServer
from starbase_core.store_jetstream import JetStreamEventStore

pytestmark = pytest.mark.integration


async def test_appended_events_survive_a_server_restart_and_the_store_reconnects(tmp_path):
    server = NatsServer(workdir=tmp_path).start()
    port, monitor = server.port, server.monitor_port
    store = await JetStreamEventStore.connect(server.url)
    try:
        stored = await store.append("game.g1", [NewEvent(type="A")], expected_seq=0, command_id="c1")
        server.stop()
        server = NatsServer(port=port, workdir=tmp_path, monitor_port=monitor).start()
        while not store._nc.is_connected:   # the client reconnects by itself (pytest's timeout bounds it)
            await asyncio.sleep(0.05)
        for _ in range(50):                  # and JetStream recovers its streams
            try:
                read = await store.read("game.g1")
                break
            except Exception:
                await asyncio.sleep(0.1)
        assert read == stored
        assert await store.append("game.g1", [NewEvent(type="A")], expected_seq=0, command_id="c1") == stored
        more = await store.append("game.g1", [NewEvent(type="B")], expected_seq=1)
        assert more[0].prev_hash == stored[0].hash
    finally:
        await store.close()
        server.stop()
