"""The clock's time-outs, observed: how late each default is applied (a histogram on the clock's metrics
port) and each default as one trace through the adjudicator to the stored event."""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from adjudicator.client import AdjudicatorClient
from adjudicator.service import Adjudicator
from clock import observe
from clock.__main__ import ClockSettings, serve
from clock.decision import parse_time
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.gamestream import ends_game, game_stream
from starbase_core.health import serve_metrics
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import RuleViolation

from tests.observability.helpers import in_trace, scrape, trace_of, until

LIMIT = 30.0


async def test_lateness_is_the_time_from_the_due_time_to_the_applied_default():
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("g1", "testjack", ["ann", "bob"], {"decision_seconds": LIMIT})
    stream = await store.read("game.g1")
    since = parse_time(stream[-1].time)                   # ann owes her decision since the seating
    now = since + timedelta(seconds=LIMIT + 7.5)
    clock = DecisionClock(store, adjudicator.submit, Tracker(0.0), now=lambda: now)
    for envelope in stream:
        clock.tracker.observe(envelope)
    due = clock.tracker.due(now)
    assert [d.player for d in due] == ["ann"]
    assert observe.due_time(clock.tracker, due[0]) == since + timedelta(seconds=LIMIT)
    count, total = _histogram(observe.LATENESS)
    assert await clock.tick() == 1
    assert _histogram(observe.LATENESS) == (count + 1, pytest.approx(total + 7.5))
    # Once ann's default is folded she owes nothing: a default chosen for that decision has no due time.
    assert observe.due_time(clock.tracker, due[0]) is None


def _histogram(histogram) -> tuple[float, float]:
    samples = {s.name: s.value for metric in histogram.collect() for s in metric.samples}
    return samples["clock_lateness_seconds_count"], samples["clock_lateness_seconds_sum"]


@pytest.mark.integration
@pytest.mark.timeout(180)
async def test_each_time_out_is_one_trace_and_its_lateness_is_on_the_metrics_port(
        nats_url, jetstream_store, adjudicator_target, new_name, spans):
    metrics = serve_metrics("127.0.0.1", 0)
    before = await scrape(metrics.server_port)
    settings = ClockSettings(nats_url=nats_url, event_stream=jetstream_store.name,
                             event_subject_prefix=jetstream_store.prefix, adjudicator_target=adjudicator_target,
                             clock_tick_seconds=0.1, clock_health_port=0, clock_health_host="127.0.0.1",
                             log_level="warning", log_json=False, metrics_port=0)
    stop = asyncio.Event()
    service = asyncio.create_task(serve(settings, stop))       # the clock's own entry point
    game = new_name("g")
    try:
        async with AdjudicatorClient(adjudicator_target) as lobby:
            await lobby.create_game(game, "testjack", ["ann", "bob"], {"decision_seconds": 0.3})

        async def ended():
            envelopes = await jetstream_store.read(game_stream(game))
            return envelopes if envelopes and ends_game(envelopes[-1]) else None

        envelopes = await until(ended, "the game ended by time-outs")
        after = await scrape(metrics.server_port)
    finally:
        stop.set()
        await asyncio.wait_for(service, 30)
        metrics.shutdown()

    defaults = [e for e in envelopes if (e.command_id or "").startswith("clock:") and "command" in e.meta]
    assert [e.actor for e in defaults] == ["ann", "bob"]
    # On the metrics port: one lateness per default applied, none below zero.
    counted = "clock_lateness_seconds_count"
    assert after[counted] - before.get(counted, 0) == len(defaults)
    assert after["clock_lateness_seconds_sum"] >= before.get("clock_lateness_seconds_sum", 0)
    assert after['clock_lateness_seconds_bucket{le=+Inf}'] == after[counted]

    for default in defaults:
        # The default's first event keeps the ids of the adjudicator's server span, in the clock's trace.
        traced = in_trace(spans, default.meta["trace_id"])
        timeout = [s for s in traced if s.name == "clock.timeout"]
        client = [s for s in traced if "Adjudicator/Submit" in s.name and s.kind.name == "CLIENT"]
        server = [s for s in traced if "Adjudicator/Submit" in s.name and s.kind.name == "SERVER"]
        append = [s for s in traced if s.name == "store.append"]
        assert len(timeout) == len(client) == len(server) == len(append) == 1, [s.name for s in traced]
        assert timeout[0].parent is None and timeout[0].attributes["starbase.player"] == default.actor
        assert timeout[0].attributes["starbase.command_id"] == default.command_id
        assert client[0].parent.span_id == timeout[0].context.span_id
        assert server[0].parent.span_id == client[0].context.span_id
        assert append[0].parent.span_id == server[0].context.span_id
        assert default.meta["span_id"] == format(server[0].context.span_id, "016x")
        assert trace_of(timeout[0]) == default.meta["trace_id"]


async def test_a_refused_default_records_no_lateness():
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("g1", "testjack", ["ann", "bob"], {"decision_seconds": LIMIT})
    stream = await store.read("game.g1")
    now = parse_time(stream[-1].time) + timedelta(seconds=LIMIT + 1)

    async def refusing(*_args, **_kwargs):
        raise RuleViolation("NOT_NOW", "not now")

    clock = DecisionClock(store, refusing, Tracker(0.0), now=lambda: now)
    for envelope in stream:
        clock.tracker.observe(envelope)
    before = _histogram(observe.LATENESS)
    assert await clock.tick() == 0
    assert _histogram(observe.LATENESS) == before
