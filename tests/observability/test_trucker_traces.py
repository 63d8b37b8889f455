"""Trucker moves as traces: real NATS (JetStream) and Redis, two replicas of the service in this process,
spans kept in memory. A move sent on a socket is one trace: the `trucker.move` span, the relay's
`store.append` under it, the move's first stored event keeping the span's ids, and a `push` span on every
replica with sockets at the table, joined through the `traceparent` header of the relay's NATS message."""
from __future__ import annotations

import asyncio

import pytest

from starbase_core import tracing
from starbase_core.gamestream import game_stream
from starbase_core.servers import free_port

from tests.observability.helpers import in_trace, trace_of, until
from tests.trucker_service.helpers import new_game
from tests.trucker_service.live import Client, in_process, settings_for

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


async def test_a_move_is_one_trace_from_the_socket_to_the_append_and_the_push_on_every_replica(
        nats_url, redis_url, namespace, jetstream_store, vault, spans):
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    first = settings_for(nats_url, redis_url, namespace)
    second = settings_for(nats_url, redis_url, namespace, trucker_port=free_port())
    async with in_process(first) as one, in_process(second) as other:
        ann, bob = await Client.connect(one, game, "ann"), await Client.connect(other, game, "bob")
        spans.clear()
        ack = await ann.send("grab_face_down", "traced-1")
        assert ack["kind"] == "ack", ack
        await bob.wait_for_seq(ack["seq"])
        moves = [s for s in spans.get_finished_spans() if s.name == "trucker.move"]
        assert len(moves) == 1
        move = moves[0]
        # Both replicas had a socket at the table: each pushed the events under the move's trace.
        pushes = await until(lambda: len(found := [s for s in in_trace(spans, trace_of(move))
                                                   if s.name == "push"]) == 2 and found, "two push spans")
        stored = (await jetstream_store.read(game_stream(game), from_seq=ack["first_seq"]))[0]
        await ann.close(), await bob.close()

    assert move.kind.name == "SERVER" and move.parent is None           # a trace of its own
    assert move.attributes["starbase.op"] == "GrabFaceDown"
    assert move.attributes["starbase.move_id"] == "ann:traced-1"
    appends = [s for s in in_trace(spans, trace_of(move)) if s.name == "store.append"]
    assert len(appends) == 1 and appends[0].parent.span_id == move.context.span_id
    assert appends[0].attributes["starbase.first_seq"] == ack["first_seq"]
    # The stored event keeps the move's ids: whoever reads the stream joins the trace.
    assert stored.meta["trace_id"] == trace_of(move)
    assert stored.meta["span_id"] == format(move.context.span_id, "016x")
    assert all(push.parent.span_id == move.context.span_id for push in pushes)
    assert all(push.attributes["starbase.seq"] >= ack["seq"] for push in pushes)


async def test_concurrent_moves_each_keep_their_own_trace_in_the_stream_whoever_appends_them(
        nats_url, redis_url, namespace, jetstream_store, vault, spans):
    players = ["ann", "bob", "cyd", "dan"]
    game = await new_game(jetstream_store, players, vault=vault)
    async with in_process(settings_for(nats_url, redis_url, namespace)) as base:
        clients = [await Client.connect(base, game, player) for player in players]
        spans.clear()
        acks = await asyncio.gather(*(client.send("grab_face_down", f"{player}-move")
                                      for client, player in zip(clients, players)))
        stored = await jetstream_store.read(game_stream(game))
        for client in clients:
            await client.close()
    assert all(ack["kind"] == "ack" for ack in acks), acks
    moves = {s.attributes["starbase.move_id"]: s for s in spans.get_finished_spans() if s.name == "trucker.move"}
    appends = [s for s in spans.get_finished_spans() if s.name == "store.append"]
    by_seq = {e.seq: e for e in stored}
    for player, ack in zip(players, acks):
        move = moves[f"{player}:{player}-move"]
        first = by_seq[ack["first_seq"]]
        assert first.meta["request_id"] == f"{player}:{player}-move"
        assert (first.meta["trace_id"], first.meta["span_id"]) == \
            (trace_of(move), format(move.context.span_id, "016x"))
        # The append that wrote it is in the move's trace, or links to it (another move's append).
        assert any(a.parent is not None and a.parent.span_id == move.context.span_id
                   or move.context.span_id in [link.context.span_id for link in a.links] for a in appends)
    # Each stored event carries the ids of one move only: no trace is shared between moves.
    traced = [e for e in stored if "trace_id" in e.meta]
    assert len({e.meta["trace_id"] for e in traced}) == len(traced) == len(players)


async def test_with_tracing_off_the_moves_store_no_trace_ids(nats_url, redis_url, namespace, jetstream_store, vault):
    tracing.uninstall()
    game = await new_game(jetstream_store, ["ann", "bob"], vault=vault)
    async with in_process(settings_for(nats_url, redis_url, namespace)) as base:
        ann = await Client.connect(base, game, "ann")
        ack = await ann.send("grab_face_down")
        await ann.close()
    assert ack["kind"] == "ack"
    stored = await jetstream_store.read(game_stream(game))
    assert not [e for e in stored if "trace_id" in e.meta or "span_id" in e.meta]
