"""Commands sent on SubmitStream, or as NATS requests, are traced one by one: each command's spans (the
client's, the adjudicator's, the append) sit in its own caller's trace, though many commands share one
stream. Real NATS (JetStream), the adjudicator behind gRPC and its NATS door in this process, spans kept
in memory."""
from __future__ import annotations

import asyncio

import grpc
import pytest

from adjudicator.client import AdjudicatorClient
from adjudicator.wire import pb, rpc
from starbase_core import tracing
from tests.observability.helpers import in_trace, trace_of, until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]

PLAYERS = ["ann", "bob"]
TRACE, SPAN = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"


def one(traced: list, name_part: str, kind: str):
    found = [span for span in traced if name_part in span.name and span.kind.name == kind]
    assert len(found) == 1, [(span.name, span.kind.name) for span in traced]
    return found[0]


async def commands_in_traces(client: AdjudicatorClient, games: list[str]) -> list:
    """A new game each, then a command each at once, each in a trace of its own: (its caller's span, events)."""
    for game in games:
        await client.create_game(game, "testjack", PLAYERS, {})

    async def command(game: str):
        with tracing.new_trace("caller", **{"starbase.game": game}) as caller:
            return caller, await client.submit(game, "ann", {"type": "Think"}, f"{game}-think")

    return await asyncio.gather(*(command(game) for game in games))


async def test_each_command_on_a_shared_stream_is_traced_under_its_own_caller(adjudicator_target, spans, new_name):
    games = [new_name("g") for _ in range(4)]
    async with AdjudicatorClient(adjudicator_target, streams=1) as client:        # every command on the one stream
        answered = await commands_in_traces(client, games)

    callers = {trace_of(caller) for caller, _ in answered}
    assert len(callers) == len(games)
    for caller, envelopes in answered:
        traced = in_trace(spans, trace_of(caller))
        client, server = one(traced, "Adjudicator/Submit", "CLIENT"), one(traced, "Adjudicator/Submit", "SERVER")
        append = one(traced, "store.append", "INTERNAL")
        assert client.parent.span_id == caller.context.span_id
        assert server.parent.span_id == client.context.span_id          # carried by the request's traceparent
        assert append.parent.span_id == server.context.span_id
        assert server.attributes["starbase.submit_stream"] is True       # it did go over the stream
        assert envelopes[0].meta["trace_id"] == trace_of(caller)
        assert envelopes[0].meta["span_id"] == format(server.context.span_id, "016x")
        assert not [span.name for span in traced if "SubmitStream" in span.name]   # the stream is nobody's
    # The stream's own spans (the gRPC interceptors', ended with the stream) are a trace apart.
    streams = await until(lambda: [span for span in spans.get_finished_spans() if "SubmitStream" in span.name],
                          "the stream's spans ended")
    assert not {trace_of(span) for span in streams} & callers


async def test_each_command_over_nats_is_traced_under_its_own_caller(adjudicator_target, jetstream_store, spans,
                                                                    new_name):
    games = [new_name("g") for _ in range(3)]      # (the fixture's adjudicator serves NATS too)
    async with AdjudicatorClient(adjudicator_target,
                                 nats=(jetstream_store._nc, f"{jetstream_store.prefix}-adjudicator")) as client:
        answered = await commands_in_traces(client, games)
    for caller, envelopes in answered:
        traced = in_trace(spans, trace_of(caller))
        client, server = one(traced, "Adjudicator/Submit", "CLIENT"), one(traced, "Adjudicator/Submit", "SERVER")
        assert client.parent.span_id == caller.context.span_id
        assert server.parent.span_id == client.context.span_id          # carried by the request's traceparent
        assert one(traced, "store.append", "INTERNAL").parent.span_id == server.context.span_id
        assert envelopes[0].meta["trace_id"] == trace_of(caller)


async def test_the_server_starts_a_commands_span_under_its_traceparent_or_a_trace_of_its_own(
        adjudicator_target, spans, new_name):
    game = new_name("g")
    async with AdjudicatorClient(adjudicator_target) as client:
        await client.create_game(game, "testjack", PLAYERS, {})
    async with grpc.aio.insecure_channel(adjudicator_target) as channel:
        call = rpc.AdjudicatorStub(channel).SubmitStream()
        for number, traceparent in ((1, f"00-{TRACE}-{SPAN}-01"), (2, "")):
            await call.write(pb.SubmitRequest(game_id=game, actor="ann", command_json='{"type": "Think"}',
                                              command_id=f"raw-{number}", call=number, traceparent=traceparent))
            assert (await call.read()).call == number
        await call.done_writing()

    commands = [span for span in spans.get_finished_spans() if span.name.endswith("Adjudicator/Submit")]
    given, untraced = _by_trace(commands, TRACE)
    assert given.kind.name == "SERVER" and given.parent.span_id == int(SPAN, 16)
    assert untraced.kind.name == "SERVER" and untraced.parent is None          # a trace of its own


def _by_trace(commands: list, trace_id: str):
    given = [span for span in commands if trace_of(span) == trace_id]
    others = [span for span in commands if trace_of(span) != trace_id]
    assert len(given) == 1 and len(others) == 1, [(trace_of(s), s.name) for s in commands]
    return given[0], others[0]
