"""The bot worker's consumer lag on a metrics port: real NATS (JetStream), the adjudicator in this
process. The worker's first batch holds on a bot's move while more appends wait on the server: the
gauge shows them; once the move goes through and the worker catches up, it shows 0."""
from __future__ import annotations

import asyncio

import pytest

from adjudicator.service import Adjudicator
from bots.worker import BATCH, BotWorker
from starbase_core.health import serve_metrics
from starbase_core.seeds import MemorySeedVault
from starbase_core.supervise import Supervisor
from tests.support import tally

from tests.observability.helpers import scrape, until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]
tally.register()
LAG = 'starbase_consumer_lag_messages{consumer=bots}'
BEHIND = 7


async def test_the_bot_worker_shows_how_far_behind_the_store_it_is(jetstream_store, namespace):
    adjudicator = Adjudicator(jetstream_store, MemorySeedVault())
    gate, holding = asyncio.Event(), asyncio.Event()

    async def submit(*args, **kwargs):
        holding.set()
        await gate.wait()
        return await adjudicator.submit(*args, **kwargs)

    # First the game whose bot moves first (its move holds the worker's first batch), then enough other
    # appends that some stay on the server behind that batch.
    await adjudicator.create_game("botfirst", "tally", ["bot1", "ann"], {"bots": {"bot1": "normal"}})
    for n in range(BATCH - 1 + BEHIND):
        await adjudicator.create_game(f"people{n}", "tally", ["ann", "bob"], {})
    worker = BotWorker(jetstream_store, submit, durable=f"bots{namespace}")
    metrics = serve_metrics("127.0.0.1", 0)
    supervisor = Supervisor("bots")
    supervisor.start("play", worker.run)
    try:
        await asyncio.wait_for(holding.wait(), 30)
        held = await scrape(metrics.server_port)
        gate.set()

        async def caught_up():
            return (await scrape(metrics.server_port)).get(LAG) == 0 and worker.handled >= BATCH + BEHIND
        await until(caught_up, "the worker caught up")
    finally:
        gate.set()
        await supervisor.stop()
        metrics.shutdown()
    # What the server still held behind the batch in hand (BEHIND when the fetch took a whole batch).
    assert BEHIND <= held[LAG] < BATCH + BEHIND
    stream = await jetstream_store.read("game.botfirst")
    assert any(e.actor == "bot1" and e.meta.get("played_by") == "bot:normal" for e in stream)
