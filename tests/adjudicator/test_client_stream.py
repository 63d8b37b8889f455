"""AdjudicatorClient.submit over SubmitStream, on the real store (JetStream) and a real gRPC adjudicator:
the same answers and refusals as unary Submit, the per-request deadline, the caller check, and the
fallback to Submit against an adjudicator without SubmitStream.

The servers here record which methods were called (a recording interceptor), so each test also shows
which path the commands took; one hides SubmitStream, as an adjudicator older than it answers.
"""
from __future__ import annotations

import asyncio
from collections import Counter

import grpc
import pytest

from adjudicator.client import AdjudicatorClient
from adjudicator.server import AdjudicatorServicer, start_grpc_server
from adjudicator.service import Adjudicator
from adjudicator.wire import rpc
from starbase_core.callers import caller_line, parse_callers
from starbase_core.envelope import verify_chain
from starbase_core.provision import new_secret
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.servers import free_port
from starbase_core.store import StoreError
from starbase_rules.contract import RuleViolation

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]

PLAYERS = ["ann", "bob"]


class Recorder(grpc.aio.ServerInterceptor):
    """Counts the methods called; the `hidden` ones are answered UNIMPLEMENTED, as by a server without them."""

    def __init__(self, hidden: tuple[str, ...] = ()):
        self.called: Counter = Counter()
        self.hidden = hidden

    async def intercept_service(self, continuation, handler_call_details):
        method = handler_call_details.method.rsplit("/", 1)[-1]
        self.called[method] += 1
        return None if method in self.hidden else await continuation(handler_call_details)


class StuckAppends:
    """The store, except that appends never finish (a replica hung on its store)."""

    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, *args, **kwargs):
        await asyncio.Event().wait()


class BuggyGame:
    """The store, except that appending to one game raises an unexpected error (a bug), and the other
    games' appends wait until it has (so that their commands are still waiting on the stream then)."""

    def __init__(self, store, bad_stream: str):
        self._store, self._bad = store, bad_stream
        self.failed = asyncio.Event()

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, stream, *args, **kwargs):
        if stream == self._bad:
            self.failed.set()
            raise RuntimeError("a bug in deciding this command")
        await asyncio.wait_for(self.failed.wait(), 10)
        await asyncio.sleep(0.05)
        return await self._store.append(stream, *args, **kwargs)


@pytest.fixture
async def serve(jetstream_store, namespace):
    servers = []

    async def start(*, hidden: tuple[str, ...] = (), store=None, port: int = 0) -> tuple[str, Recorder]:
        vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
        recorder = Recorder(hidden)
        server = grpc.aio.server(interceptors=[recorder])
        rpc.add_AdjudicatorServicer_to_server(AdjudicatorServicer(Adjudicator(store or jetstream_store, vault)), server)
        port = server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        servers.append(server)
        return f"127.0.0.1:{port}", recorder

    yield start
    for server in servers:
        await server.stop(0)
    await jetstream_store._js.delete_key_value(f"seeds_{namespace}")


KINDS = ("Draw", "Think", "Stand")


async def play_three(client: AdjudicatorClient, games: list[str]) -> dict[str, list]:
    """Every game's Draw, Think and Stand at once, each game's in order (then bob owes): their answers."""
    async def play(game: str) -> list:
        return [await client.submit_with_turn(game, "ann", {"type": kind}, f"{game}-{kind}") for kind in KINDS]
    return dict(zip(games, await asyncio.gather(*(play(game) for game in games))))


async def answered_as_stored(played: dict[str, list], store, client: AdjudicatorClient,
                             unary: AdjudicatorClient) -> None:
    """Each answer is its command's events as stored, once, with who owes after them; the same command
    ids again, on `client` and on unary Submit, are answered with the very same events and store nothing."""
    for game, answers in played.items():
        stream = await store.read(f"game.{game}")
        verify_chain(stream, stream=f"game.{game}")
        for kind, (envelopes, turn) in zip(KINDS, answers):
            command_id = f"{game}-{kind}"
            assert envelopes == [e for e in stream if e.command_id == command_id]       # stored once, as told
            assert turn == {"seq": envelopes[-1].seq, "to_act": ["bob"] if kind == "Stand" else ["ann"],
                            "ended": False}
            assert await unary.submit(game, "ann", {"type": kind}, command_id) == envelopes
            assert await client.submit(game, "ann", {"type": kind}, command_id) == envelopes
        assert len(await store.read(f"game.{game}")) == len(stream)          # nothing new


async def test_concurrent_submits_over_the_stream_answer_exactly_as_unary_submit(serve, jetstream_store, new_name):
    target, recorder = await serve()
    games = [new_name("g") for _ in range(4)]
    async with AdjudicatorClient(target) as streamed, AdjudicatorClient(target, streams=0) as unary:
        for game in games:
            await streamed.create_game(game, "testjack", PLAYERS, {})
        played = await play_three(streamed, games)
        assert recorder.called["Submit"] == 0 and recorder.called["SubmitStream"] >= 1
        await answered_as_stored(played, jetstream_store, streamed, unary)
    assert recorder.called["Submit"] == len(games) * len(KINDS)                 # only the unary client's


class CountingAppends:
    """The store, counting the appends made through it (one replica's commands), by stream."""

    def __init__(self, store):
        self._store, self.by_stream = store, Counter()

    @property
    def appends(self) -> int:
        return sum(self.by_stream.values())

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, stream, *args, **kwargs):
        self.by_stream[stream] += 1
        return await self._store.append(stream, *args, **kwargs)


async def test_each_game_stays_on_one_replica_and_the_games_spread_over_every_replica(serve, jetstream_store,
                                                                                     new_name):
    # Affinity: a game's commands all go to one adjudicator (its cache stays warm), whichever client
    # sends them and however often the streams are replaced; the games share the replicas out.
    counted = [CountingAppends(jetstream_store), CountingAppends(jetstream_store)]
    targets = ",".join([(await serve(store=store))[0] for store in counted])
    games = [new_name("g") for _ in range(24)]       # all on one replica: a chance of 2 in 2**24
    async with AdjudicatorClient(targets, stream_seconds=0.05) as streamed, \
            AdjudicatorClient(targets, streams=0) as unary:
        for game in games:
            await streamed.create_game(game, "testjack", PLAYERS, {})
        for number in range(10):
            await asyncio.gather(*(client.submit(game, "ann", {"type": "Think"}, f"{game}-{number}-{way}")
                                   for game in games for way, client in enumerate((streamed, unary))))
            await asyncio.sleep(0.02)       # past the streams' age: each is replaced
    for store in counted:
        assert len(store.by_stream) >= 1        # every replica has games
    for game in games:
        appended = [store.by_stream[f"game.{game}"] for store in counted]
        assert sorted(appended) == [0, 21], appended       # created, then 2 x 10 commands, on one replica
        stream = await jetstream_store.read(f"game.{game}")
        verify_chain(stream, stream=f"game.{game}")
        commands = Counter(e.command_id for e in stream if not e.command_id.startswith("create-"))
        assert set(commands.values()) == {1}                            # each command once (a Think: one event)


async def test_streams_move_onto_a_replica_that_comes_back(serve, jetstream_store, new_name):
    # The second replica's address is known from the start but nobody answers there: every stream opens
    # on the first. Once it is up, streams replaced after their age open on it too.
    first, returning = CountingAppends(jetstream_store), CountingAppends(jetstream_store)
    target, _ = await serve(store=first)
    later_port = free_port()
    games = [new_name("g") for _ in range(24)]       # none hashed to the second: a chance of 1 in 2**24
    async with AdjudicatorClient(f"{target},127.0.0.1:{later_port}", stream_seconds=0.05) as client:
        for game in games:
            await client.create_game(game, "testjack", PLAYERS, {})

        sent = []

        async def burst(number: int) -> None:
            sent.append(number)
            await asyncio.gather(*(client.submit(game, "ann", {"type": "Think"}, f"{game}-{number}")
                                   for game in games))

        for number in range(20):
            await burst(number)
            await asyncio.sleep(0.01)
        assert returning.appends == 0 and first.appends >= 80
        await serve(store=returning, port=later_port)
        for number in range(20, 1000):  # a bound, not a timing: gRPC reconnects with its own backoff
            await burst(number)
            if returning.appends:
                break
            await asyncio.sleep(0.01)
    assert returning.appends > 0
    for game in games:
        stream = await jetstream_store.read(f"game.{game}")
        verify_chain(stream, stream=f"game.{game}")
        assert Counter(e.command_id for e in stream if not e.command_id.startswith("create-")) == \
            Counter(f"{game}-{number}" for number in sent)                      # each once, none lost


async def test_a_refused_command_surfaces_as_from_unary_and_changes_nothing(serve, jetstream_store, game_id):
    target, recorder = await serve()
    async with AdjudicatorClient(target) as streamed, AdjudicatorClient(target, streams=0) as unary:
        await streamed.create_game(game_id, "testjack", PLAYERS, {})
        before = await jetstream_store.read(f"game.{game_id}")
        refusals = []
        for client in (streamed, unary):
            for actor, command in (("bob", {"type": "Draw"}), ("stranger", {"type": "Draw"}),
                                   ("ann", {"type": "Fly"}), ("ann", {"type": "Think"})):
                with pytest.raises(RuleViolation) as refused:
                    expected = 1 if command == {"type": "Think"} else None     # a stale position
                    await client.submit(game_id, actor, command, f"refused-{len(refusals)}", expected_seq=expected)
                refusals.append((refused.value.code, refused.value.message))
        assert refusals[:4] == refusals[4:]
        assert [code for code, _ in refusals[:4]] == ["NOT_YOUR_TURN", "NOT_A_PLAYER", "MALFORMED_COMMAND",
                                                       "STALE_POSITION"]
        assert await jetstream_store.read(f"game.{game_id}") == before
    assert recorder.called["Submit"] == 4


async def test_a_stuck_adjudicator_fails_each_submit_by_its_deadline_as_unary_does(serve, jetstream_store, game_id):
    target, _ = await serve()
    stuck, recorder = await serve(store=StuckAppends(jetstream_store))
    async with AdjudicatorClient(target) as client:
        await client.create_game(game_id, "testjack", PLAYERS, {})
    for streams in (6, 0):
        async with AdjudicatorClient(stuck, timeout=0.5, retries=1, retry_delay=0.05, streams=streams) as client:
            waits = [client.submit(game_id, "ann", {"type": "Think"}, f"stuck-{streams}-{n}") for n in range(3)]
            failed = await asyncio.wait_for(asyncio.gather(*waits, return_exceptions=True), 20)
        assert [type(e) for e in failed] == [grpc.aio.AioRpcError] * 3
        assert {e.code() for e in failed} == {grpc.StatusCode.DEADLINE_EXCEEDED}
    assert recorder.called["Submit"] == 3 * 2 and recorder.called["SubmitStream"] >= 1     # 2 attempts each


async def test_without_submit_stream_the_client_uses_unary_submit(serve, jetstream_store, game_id):
    target, recorder = await serve(hidden=("SubmitStream",))
    async with AdjudicatorClient(target) as client:
        await client.create_game(game_id, "testjack", PLAYERS, {})
        drawn, turn = await client.submit_with_turn(game_id, "ann", {"type": "Draw"}, "d1")
        with pytest.raises(RuleViolation) as refused:
            await client.submit(game_id, "bob", {"type": "Draw"}, "d2")
        thought = await asyncio.gather(*(client.submit(game_id, "ann", {"type": "Think"}, f"t{n}") for n in range(5)))
    assert refused.value.code == "NOT_YOUR_TURN"
    stream = await jetstream_store.read(f"game.{game_id}")
    assert drawn == [e for e in stream if e.command_id == "d1"] and turn["seq"] == drawn[-1].seq
    assert [e for t in thought for e in t] == [e for e in stream if (e.command_id or "").startswith("t")]
    # Asked for the stream once, then unary Submit for every command (a stream opened meanwhile as well).
    assert recorder.called["Submit"] == 7 and 1 <= recorder.called["SubmitStream"] <= 6


async def test_the_caller_secret_goes_with_the_stream_and_the_guard_checks_it(jetstream_store, namespace, game_id):
    lobby, viewer = new_secret(), new_secret()
    callers = parse_callers(caller_line("lobby", lobby, ("CreateGame", "Submit")) + "\n"
                            + caller_line("spectator", viewer, ("GetView",)) + "\n")
    vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
    server, port = await start_grpc_server(Adjudicator(jetstream_store, vault), 0, "127.0.0.1", callers=callers)
    target = f"127.0.0.1:{port}"
    try:
        async with AdjudicatorClient(target, token=lobby) as client:
            await client.create_game(game_id, "testjack", PLAYERS, {})
            assert (await client.submit(game_id, "ann", {"type": "Think"}, "allowed"))[0].command_id == "allowed"
        for token, code in ((viewer, grpc.StatusCode.PERMISSION_DENIED),
                            (new_secret(), grpc.StatusCode.UNAUTHENTICATED), (None, grpc.StatusCode.UNAUTHENTICATED)):
            async with AdjudicatorClient(target, token=token) as client:
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await asyncio.wait_for(client.submit(game_id, "ann", {"type": "Think"}, "refused"), 20)
            assert refused.value.code() == code
        assert "refused" not in {e.command_id for e in await jetstream_store.read(f"game.{game_id}")}
    finally:
        await server.stop(0)
        await jetstream_store._js.delete_key_value(f"seeds_{namespace}")


async def test_an_unexpected_error_fails_its_own_command_only_not_the_others_on_the_stream(serve, jetstream_store,
                                                                                       new_name):
    good, bad = new_name("g"), new_name("g")
    target, _ = await serve()
    async with AdjudicatorClient(target) as client:
        for game in (good, bad):
            await client.create_game(game, "testjack", PLAYERS, {})
    buggy = BuggyGame(jetstream_store, f"game.{bad}")
    target, recorder = await serve(store=buggy)
    async with AdjudicatorClient(target, streams=1) as client:      # both commands on one stream
        waiting = asyncio.ensure_future(client.submit(good, "ann", {"type": "Think"}, "good-1"))
        await asyncio.sleep(0.1)
        with pytest.raises(grpc.aio.AioRpcError) as failed:
            await client.submit(bad, "ann", {"type": "Think"}, "bad-1")
        assert failed.value.code() == grpc.StatusCode.UNKNOWN and "a bug" in failed.value.details()
        stored = await asyncio.wait_for(waiting, 20)
    assert [e.command_id for e in stored] == ["good-1"]
    assert (await jetstream_store.read(f"game.{good}"))[-1].command_id == "good-1"
    assert recorder.called["SubmitStream"] == 1 and recorder.called["Submit"] == 0


class StoreDownAtTimes:
    """The store, except that every `every`-th append fails as a store outage does (StoreError), `times`
    times in all; half of those after the events were stored (the reply is lost, the events are not)."""

    def __init__(self, store, *, every: int, times: int):
        self._store, self._every, self.left = store, every, times
        self._appends = 0

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, *args, **kwargs):
        self._appends += 1
        if self.left and self._appends % self._every == 0:
            self.left -= 1
            if self.left % 2:
                await self._store.append(*args, **kwargs)
            raise StoreError("the store is down")
        return await self._store.append(*args, **kwargs)


async def test_streams_ended_by_store_outages_with_requests_in_flight_lose_no_command(serve, jetstream_store,
                                                                                      new_name):
    # Each outage ends its stream while the client is still writing requests on it; gRPC's client then
    # often reports INTERNAL "Internal error from Core" instead of the server's UNAVAILABLE. Every
    # command must still be answered (resent with its id), and stored once.
    target, _ = await serve()
    games = [new_name("g") for _ in range(12)]
    async with AdjudicatorClient(target) as client:
        for game in games:
            await client.create_game(game, "testjack", PLAYERS, {})
    flaky = StoreDownAtTimes(jetstream_store, every=5, times=8)
    target, recorder = await serve(store=flaky)
    commands = [(game, f"{game}-{n}") for n in range(5) for game in games]
    async with AdjudicatorClient(target, streams=2, retry_delay=0.01) as client:
        answers = await asyncio.gather(*(client.submit(game, "ann", {"type": "Think"}, command_id)
                                         for game, command_id in commands))
    assert flaky.left == 0 and recorder.called["SubmitStream"] > 2      # the outages ended streams
    for game in games:
        stream = await jetstream_store.read(f"game.{game}")
        verify_chain(stream, stream=f"game.{game}")
        for (g, command_id), answered in zip(commands, answers):
            if g == game:
                assert answered == [e for e in stream if e.command_id == command_id] != []   # once, as told
