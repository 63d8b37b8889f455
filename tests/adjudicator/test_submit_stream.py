"""SubmitStream: many Submits over one gRPC stream, each answered exactly as Submit answers it.

On the real store (JetStream): the replies carry their requests' `call`; refusals, retries and turns are
Submit's; a store failure ends the stream with UNAVAILABLE and the command resent (same id) on a new
stream is stored once; the caller check treats the stream as Submit and refuses it before anything runs.
"""
from __future__ import annotations

import asyncio
import json

import grpc
import pytest

from adjudicator.server import start_grpc_server
from adjudicator.service import Adjudicator
from adjudicator.wire import pb, rpc
from starbase_core.callers import caller_line, parse_callers
from starbase_core.envelope import Envelope, verify_chain
from starbase_core.provision import new_secret
from starbase_core.seeds import JetStreamSeedVault, MemorySeedVault
from starbase_core.store import StoreError
from starbase_core.store_memory import MemoryEventStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


def think(game_id: str, command_id: str, call: int, actor: str = "p", command: str = '{"type": "Think"}'):
    return pb.SubmitRequest(game_id=game_id, actor=actor, command_json=command, command_id=command_id, call=call)


async def exchange(target: str, requests: list, metadata=None) -> dict[int, "pb.EventsReply"]:
    """Send every request on one stream (all at once), then read every reply: {call: reply}."""
    async with grpc.aio.insecure_channel(target) as channel:
        call = rpc.AdjudicatorStub(channel).SubmitStream(metadata=metadata)
        for request in requests:
            await call.write(request)
        await call.done_writing()
        replies = {}
        async for reply in call:
            assert reply.call not in replies
            replies[reply.call] = reply
        return replies


def envelopes(reply) -> list[Envelope]:
    assert reply.WhichOneof("result") == "events", reply
    return [Envelope.model_validate_json(text) for text in reply.events.envelope_json]


class FailingAfterStoring:
    """The store, except that the next `fail` appends are stored and then reported failed (a reply lost)."""

    def __init__(self, store, fail: int):
        self._store, self.fail = store, fail

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, *args, **kwargs):
        stored = await self._store.append(*args, **kwargs)
        if self.fail > 0:
            self.fail -= 1
            raise StoreError("the ack was lost")
        return stored


@pytest.fixture
async def serve(jetstream_store, namespace):
    servers = []

    async def start(store=None) -> tuple[Adjudicator, str]:
        vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
        adjudicator = Adjudicator(store or jetstream_store, vault)
        server, port = await start_grpc_server(adjudicator, 0, "127.0.0.1")
        servers.append(server)
        return adjudicator, f"127.0.0.1:{port}"

    yield start
    for server in servers:
        await server.stop(0)


async def test_each_request_is_answered_as_submit_would_with_its_call(serve, jetstream_store, new_name):
    adjudicator, target = await serve()
    games = [new_name("g") for _ in range(3)]
    for game in games:
        await adjudicator.create_game(game, "testjack", ["p"], {})
    requests = [think(game, f"{game}-{n}", call=10 * i + n) for i, game in enumerate(games) for n in range(4)]
    requests += [think(games[0], f"{games[0]}-0", call=100),                     # a retry of a stored id
                 think(games[1], "stranger-1", call=101, actor="stranger"),     # a refusal
                 think(games[2], "bad-json", call=102, command="{not json"),
                 think(games[2], "", call=103)]
    replies = await exchange(target, requests)

    assert set(replies) == {r.call for r in requests}
    for i, game in enumerate(games):
        stream = await jetstream_store.read(f"game.{game}")
        verify_chain(stream, stream=f"game.{game}")
        stored = {e.command_id: e for e in stream if e.command_id and e.command_id.startswith(game)}
        assert sorted(stored) == [f"{game}-{n}" for n in range(4)]          # each command once
        for n in range(4):
            answered = envelopes(replies[10 * i + n])
            assert answered == [stored[f"{game}-{n}"]]
            turn = replies[10 * i + n].turn
            assert (turn.seq, list(turn.to_act), turn.ended) == (answered[-1].seq, ["p"], False)
    assert envelopes(replies[100]) == envelopes(replies[0]) and not replies[100].HasField("turn")
    assert replies[101].violation.code == "NOT_A_PLAYER"
    assert replies[102].violation.code == "MALFORMED_JSON"
    assert replies[103].violation.code == "MISSING_COMMAND_ID"
    for game in games:
        assert not {"stranger-1", "bad-json"} & {e.command_id for e in await jetstream_store.read(f"game.{game}")}


async def test_a_store_failure_ends_the_stream_and_the_command_resent_is_stored_once(
        serve, jetstream_store, game_id):
    shim = FailingAfterStoring(jetstream_store, fail=0)
    adjudicator, target = await serve(shim)
    await adjudicator.create_game(game_id, "testjack", ["p"], {})
    shim.fail = 1
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        await exchange(target, [think(game_id, "lost-ack", call=1)])
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE

    again = await exchange(target, [think(game_id, "lost-ack", call=2), think(game_id, "next", call=3)])
    stream = await jetstream_store.read(f"game.{game_id}")
    assert [e.command_id for e in stream].count("lost-ack") == 1
    assert envelopes(again[2]) == [e for e in stream if e.command_id == "lost-ack"]
    assert envelopes(again[3]) == [stream[-1]] and stream[-1].command_id == "next"
    verify_chain(stream, stream=f"game.{game_id}")


async def test_the_caller_check_treats_the_stream_as_submit_and_refuses_before_anything_runs():
    submitter, viewer = new_secret(), new_secret()
    callers = parse_callers(caller_line("clock", submitter, ("Submit",)) + "\n"
                            + caller_line("spectator", viewer, ("GetView",)) + "\n")
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("g1", "testjack", ["p"], {})
    server, port = await start_grpc_server(adjudicator, 0, "127.0.0.1", callers=callers)
    target = f"127.0.0.1:{port}"
    try:
        for metadata, code in ((None, grpc.StatusCode.UNAUTHENTICATED),
                               ((("authorization", f"Bearer {new_secret()}"),), grpc.StatusCode.UNAUTHENTICATED),
                               ((("authorization", f"Bearer {viewer}"),), grpc.StatusCode.PERMISSION_DENIED)):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await asyncio.wait_for(exchange(target, [think("g1", "refused", call=1)], metadata), 10)
            assert refused.value.code() == code
        assert [e.command_id for e in await store.read("game.g1")].count("refused") == 0

        replies = await exchange(target, [think("g1", "allowed", call=7)],
                                 (("authorization", f"Bearer {submitter}"),))
        assert envelopes(replies[7])[0].command_id == "allowed"
        assert json.loads(envelopes(replies[7])[0].model_dump_json())["type"] == "CommandHadNoEffect"
    finally:
        await server.stop(0)
