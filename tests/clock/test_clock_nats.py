"""The clock as it runs: real NATS, an adjudicator behind gRPC, and two clock instances at once (one of
them the `python -m clock` entry point, in-process) timing a table where nobody acts."""
from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from adjudicator.client import AdjudicatorClient
from adjudicator.service import Adjudicator
from clock.__main__ import ClockSettings, serve
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.gamestream import ends_game, replay
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.registry import get_game
from tests.support.stack import serve_adjudicator

pytestmark = pytest.mark.integration

PLAYERS = ["ann", "bob", "cyd"]
WAIT_SECONDS = 15.0   # a bound on a hang, not a timing assertion


@pytest.fixture
async def adjudicator_target(jetstream_store, namespace):
    vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
    port, stop = await serve_adjudicator(Adjudicator(jetstream_store, vault), jetstream_store)   # gRPC and NATS
    yield f"127.0.0.1:{port}"
    await stop(1)
    await jetstream_store._js.delete_key_value(f"seeds_{namespace}")


async def until_ended(store, stream):
    async def poll():
        while True:
            envelopes = await store.read(stream)
            if envelopes and ends_game(envelopes[-1]):
                return envelopes
            await asyncio.sleep(0.1)
    return await asyncio.wait_for(poll(), WAIT_SECONDS)


async def test_absent_players_get_their_defaults_once_each_and_the_game_ends(
        nats_url, jetstream_store, adjudicator_target, new_name):
    game_id = new_name("g")
    stream = f"game.{game_id}"
    settings = ClockSettings(nats_url=nats_url, event_stream=jetstream_store.name,
                             event_subject_prefix=jetstream_store.prefix, adjudicator_target=adjudicator_target,
                             clock_tick_seconds=0.1, clock_health_port=0, clock_health_host="127.0.0.1",
                             log_level="warning", log_json=False)
    stop = asyncio.Event()
    service = asyncio.create_task(serve(settings, stop))
    second_store = await JetStreamEventStore.connect(nats_url, name=jetstream_store.name,
                                                     subject_prefix=jetstream_store.prefix)
    async with AdjudicatorClient(adjudicator_target) as client:
        second = DecisionClock(second_store, client.submit, Tracker(0.0), tick_seconds=0.1)
        running = asyncio.create_task(second.run())
        try:
            await client.create_game(game_id, "testjack", PLAYERS, {"decision_seconds": 0.5})
            envelopes = await until_ended(jetstream_store, stream)
        finally:
            running.cancel()
            stop.set()
            await asyncio.gather(running, return_exceptions=True)
            await asyncio.wait_for(service, WAIT_SECONDS)   # a clean stop: no exception, no hang
            await second_store.close()

    by_clock = [e for e in envelopes if (e.command_id or "").startswith("clock:")]
    # Each absent player stood by default, in turn, under a command id naming their decision, as themselves.
    stood = [e for e in by_clock if e.type == "Stood"]
    assert [e.actor for e in stood] == [e.data["player"] for e in stood] == PLAYERS
    assert [e.command_id.split(":")[2] for e in stood] == PLAYERS
    assert all(e.meta["command"] == {"type": "Stand", "v": 1} for e in stood)
    # Two clocks ran all along, yet every default landed once.
    assert set(Counter((e.command_id, e.type) for e in by_clock).values()) == {1}
    assert len({e.command_id for e in by_clock}) == len(PLAYERS)
    # And the stream is a whole game the rules accept, ended once.
    record = replay(game_id, envelopes, get_game)
    assert record.ended is not None and sum(map(ends_game, envelopes)) == 1
    assert record.ended["standings"]
