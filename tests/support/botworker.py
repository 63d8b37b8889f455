"""A bot worker (`services/bots`) in the test's event loop, on a real store and a real adjudicator."""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator

from adjudicator.client import AdjudicatorClient
from bots.worker import BotWorker
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.supervise import Supervisor


@asynccontextmanager
async def bot_worker(nats_url: str, stream: str, prefix: str, adjudicator_target: str,
                     durable: str = "bots", **client_options) -> AsyncIterator[BotWorker]:
    """Run one replica of the worker (supervised, as `python -m bots` runs it) until the block ends."""
    store = await JetStreamEventStore.connect(nats_url, name=stream, subject_prefix=prefix)
    client = AdjudicatorClient(adjudicator_target, **client_options)
    worker = BotWorker(store, client.submit, durable=durable)
    supervisor = Supervisor("bots", first_delay=0.05, max_delay=0.5)
    supervisor.start("play", worker.run)
    try:
        yield worker
    finally:
        await supervisor.stop()
        await client.close()
        await store.close()


async def eventually(check, timeout: float = 20.0, every: float = 0.05):
    """Wait until `await check()` is truthy; its value. Fails the test after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"still not so after {timeout} s: {check.__name__}")
        await asyncio.sleep(every)
