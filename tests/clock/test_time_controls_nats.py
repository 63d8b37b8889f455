"""Time banks as the clock runs them: real NATS, an adjudicator behind gRPC, clock replicas.

The banks are a fold of the stream's server times, so every assertion is checked against the stream
itself (never against a stopwatch): a default lands no earlier than the `due_at` the fold gives, an
overdrawn bank holds exactly its increment after the default, and a restarted clock has the same banks."""
from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

import pytest

from adjudicator.client import AdjudicatorClient
from clock.__main__ import ClockSettings, serve
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.decisions import parse_time
from starbase_core.gamestream import ends_game
from starbase_core.store_jetstream import JetStreamEventStore
from tests.clock.test_clock_nats import WAIT_SECONDS, adjudicator_target, until_ended  # noqa: F401 (fixture)

pytestmark = pytest.mark.integration


def fold_until(envelopes, last_seq: int) -> Tracker:
    tracker = Tracker(0.0)
    for envelope in envelopes:
        if envelope.seq <= last_seq:
            tracker.observe(envelope)
    return tracker


async def caught_up(clock: DecisionClock, store, stream: str, game_id: str) -> None:
    async def poll():
        while True:
            last = await store.last_seq(stream)
            game = clock.tracker.clocks.get(game_id)
            if game is not None and game.record.last_seq == last:
                return
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), WAIT_SECONDS)


async def test_banks_run_down_across_decisions_and_a_spent_bank_times_out_to_the_default(
        nats_url, jetstream_store, adjudicator_target, new_name):  # noqa: F811
    game_id = new_name("g")
    stream = f"game.{game_id}"
    options = {"bank_seconds": 0.4, "increment_seconds": 0.25}
    settings = ClockSettings(nats_url=nats_url, event_stream=jetstream_store.name,
                             event_subject_prefix=jetstream_store.prefix, adjudicator_target=adjudicator_target,
                             clock_tick_seconds=0.05, clock_health_port=0, clock_health_host="127.0.0.1",
                             log_level="warning", log_json=False)
    async with AdjudicatorClient(adjudicator_target) as client:
        await client.create_game(game_id, "testjack", ["ann", "bob"], options)
        await client.submit(game_id, "ann", {"type": "Draw"}, "ann-draw")   # before any clock runs
        stop = asyncio.Event()
        service = asyncio.create_task(serve(settings, stop))
        try:
            envelopes = await until_ended(jetstream_store, stream)
        finally:
            stop.set()
            await asyncio.wait_for(service, WAIT_SECONDS)

    defaults = [e for e in envelopes if (e.command_id or "").startswith("clock:") and not ends_game(e)]
    assert [(e.type, e.actor) for e in defaults] == [("Stood", "ann"), ("Stood", "bob")]   # the policy: default_move
    draw = next(e for e in envelopes if e.command_id == "ann-draw")
    setup_end = draw.seq - 1
    # ann's first decision was paid from her bank, with the increment added after it.
    took = (parse_time(draw.time) - parse_time(envelopes[setup_end - 1].time)).total_seconds()
    after_draw = fold_until(envelopes, draw.seq).clocks[game_id]
    assert after_draw.banks["ann"] == pytest.approx(max(0.0, 0.4 - took) + 0.25)
    for default in defaults:
        before = fold_until(envelopes, default.seq - 1).clocks[game_id]
        owed = before.owed[default.actor]
        due = before.due_at(owed)
        assert due == owed.since + timedelta(seconds=before.banks[default.actor])   # the bank was the limit
        assert parse_time(default.time) >= due                                       # never early
        assert default.command_id == f"clock:{owed.since_seq}:{default.actor}"
        after = fold_until(envelopes, default.seq)
        if default.actor == "ann":          # the game goes on: her overdrawn bank holds the increment only
            assert after.clocks[game_id].banks["ann"] == 0.25
    assert sum(map(ends_game, envelopes)) == 1


async def test_a_restarted_clock_has_the_same_banks_and_two_replicas_time_out_once(
        nats_url, jetstream_store, adjudicator_target, new_name):  # noqa: F811
    """The clocks' `now` is set by the test: only when the default is due is it due, whatever the load."""
    game_id = new_name("g")
    stream = f"game.{game_id}"
    moment = {"now": None}
    stores = []

    async def a_clock(client) -> tuple[DecisionClock, asyncio.Task]:
        store = await JetStreamEventStore.connect(nats_url, name=jetstream_store.name,
                                                  subject_prefix=jetstream_store.prefix)
        stores.append(store)
        clock = DecisionClock(store, client.submit, Tracker(0.0), tick_seconds=0.05, now=lambda: moment["now"])
        return clock, asyncio.create_task(clock.run())

    async with AdjudicatorClient(adjudicator_target) as client:
        await client.create_game(game_id, "testjack", ["ann", "bob"], {"bank_seconds": 600, "increment_seconds": 30})
        setup = await jetstream_store.read(stream)
        moment["now"] = parse_time(setup[-1].time)            # the clocks' time stands still meanwhile
        first, running = await a_clock(client)
        await client.submit(game_id, "ann", {"type": "Draw"}, "ann-draw")
        await caught_up(first, jetstream_store, stream, game_id)
        banks = dict(first.tracker.clocks[game_id].banks)
        owed = first.tracker.clocks[game_id].owed["ann"]
        due = first.tracker.clocks[game_id].due_at(owed)
        assert 600 < banks["ann"] <= 630 and banks["bob"] == 600        # ran down a little, +30
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)

        # Two clocks start afresh (a restart, and a second replica): the same banks, from the stream.
        replicas = [await a_clock(client) for _ in range(2)]
        try:
            for clock, _ in replicas:
                await caught_up(clock, jetstream_store, stream, game_id)
                assert clock.tracker.clocks[game_id].banks == banks
                assert clock.tracker.clocks[game_id].due_at(clock.tracker.clocks[game_id].owed["ann"]) == due
            moment["now"] = due - timedelta(milliseconds=1)
            assert [await clock.tick() for clock, _ in replicas] == [0, 0]
            moment["now"] = due
            await asyncio.gather(*(clock.tick() for clock, _ in replicas))

            async def ann_defaulted():
                while True:
                    found = [e for e in await jetstream_store.read(stream) if e.command_id == f"clock:{owed.since_seq}:ann"]
                    if found:
                        return found
                    await asyncio.sleep(0.05)
            applied = await asyncio.wait_for(ann_defaulted(), WAIT_SECONDS)
            await asyncio.sleep(0.3)                               # both replicas tick again meanwhile
        finally:
            for _, task in replicas:
                task.cancel()
            await asyncio.gather(*(task for _, task in replicas), return_exceptions=True)
            for store in stores:
                await store.close()
    envelopes = await jetstream_store.read(stream)
    by_clock = [e for e in envelopes if (e.command_id or "").startswith("clock:") and not ends_game(e)]
    assert [(e.type, e.actor) for e in applied] == [("Stood", "ann")]
    assert set(Counter(e.command_id for e in by_clock).values()) == {1}
