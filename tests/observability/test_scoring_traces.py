"""Scoring a game joins the trace of the command that ended it: scoring's own `serve` (a durable
JetStream consumer) on real NATS and Redis, the adjudicator in this process, spans kept in memory."""
from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from adjudicator.service import Adjudicator
from starbase_core import tracing
from starbase_core.seeds import MemorySeedVault

from scoring.__main__ import serve
from scoring.config import ScoringSettings
from scoring.ledger import Ledger

from tests.observability.helpers import in_trace, until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


async def test_a_game_is_scored_in_the_trace_of_the_command_that_ended_it(
        nats_url, redis_url, namespace, jetstream_store, new_name, spans):
    adjudicator = Adjudicator(jetstream_store, MemorySeedVault())
    game = new_name("g")
    await adjudicator.create_game(game, "testjack", ["ann", "bob"], {})
    with tracing.tracer().start_as_current_span("ann stands"):
        await adjudicator.submit(game, "ann", {"type": "Stand"}, "c1")
    with tracing.tracer().start_as_current_span("bob stands") as last:
        ending = await adjudicator.submit(game, "bob", {"type": "Stand"}, "c2")
    assert ending[-1].type == "GameEnded" and len(ending) > 1       # not the command's first event

    settings = ScoringSettings(nats_url=nats_url, redis_url=redis_url, event_stream=jetstream_store.name,
                               event_subject_prefix=jetstream_store.prefix, scoring_prefix=f"sc{namespace}",
                               scoring_durable=f"sc{namespace}", scoring_health_host="127.0.0.1",
                               scoring_health_port=0, log_json=False, log_level="warning")
    redis = Redis.from_url(redis_url, decode_responses=True)
    stop = asyncio.Event()
    service = asyncio.create_task(serve(settings, stop))
    try:
        async def scored():
            return await redis.smembers(Ledger(redis, settings.scoring_prefix).key("done"))
        await until(scored, "the game was scored")
        await until(lambda: [s for s in spans.get_finished_spans() if s.name == "scoring.record"],
                    "the scoring span ended")
    finally:
        stop.set()
        await asyncio.wait_for(service, 30)
        await redis.aclose()

    trace_id = format(last.get_span_context().trace_id, "032x")
    recorded = [s for s in in_trace(spans, trace_id) if s.name == "scoring.record"]
    assert len(recorded) == 1
    assert recorded[0].parent.span_id == last.get_span_context().span_id
    assert recorded[0].attributes["starbase.game"] == game
    assert recorded[0].attributes["starbase.seq"] == ending[-1].seq
