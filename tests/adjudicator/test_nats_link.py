"""Submit over NATS (ADJUDICATOR_LINK=nats), on the real store (JetStream), real adjudicators behind their
NATS door and gRPC server: the same answers and refusals as gRPC's Submit, placement of each game on one
replica by the replicas' hellos, replicas that leave or die, the caller check, a transient failure retried,
a stuck replica's deadline, and the fall back to gRPC where no adjudicator listens on NATS.
"""
from __future__ import annotations

import asyncio
from collections import Counter

import grpc
import nats
import nats.errors
import pytest

from adjudicator.client import SHARDS, AdjudicatorClient, shard_of
from adjudicator.nats_door import SubmitDoor
from adjudicator.nats_link import FORGET_AFTER, Placement
from adjudicator.server import AdjudicatorServicer
from adjudicator.service import Adjudicator
from adjudicator.wire import CALL, CALL_STATUS, call_subject, pb, rpc, submit_subject
from starbase_core.callers import caller_line, parse_callers
from starbase_core.provision import new_secret
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.store import StoreError
from starbase_rules.contract import RuleViolation
from tests.adjudicator.test_client_stream import (CountingAppends, Recorder, StuckAppends, answered_as_stored,
                                                  play_three)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]

PLAYERS = ["ann", "bob"]


class FailsOnce:
    """The store, except that the first call of `method` fails as a lost JetStream would (transient)."""

    def __init__(self, store, method: str = "append", why: str = "JetStream did not answer"):
        self._store, self.method, self.why, self.failed = store, method, why, False

    def __getattr__(self, name):
        found = getattr(self._store, name)
        if name != self.method or self.failed:
            return found

        async def fails_once(*args, **kwargs):
            if not self.failed:
                self.failed = True
                raise StoreError(self.why)
            return await found(*args, **kwargs)
        return fails_once


@pytest.fixture
async def replicas(jetstream_store, nats_url, namespace):
    """start(store=…, callers=…) → a replica: an adjudicator behind a NATS door on a connection of its own
    and a gRPC server (recording the methods called); `subject` is the doors' subject."""
    started: list = []
    subject = f"adj{namespace}"

    async def start(*, store=None, callers=None, door: bool = True):
        vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
        adjudicator = Adjudicator(store or jetstream_store, vault)
        connection = await nats.connect(nats_url)
        recorder = Recorder()
        server = grpc.aio.server(interceptors=[recorder])
        rpc.add_AdjudicatorServicer_to_server(AdjudicatorServicer(adjudicator), server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        replica = (await SubmitDoor(adjudicator, connection, subject, callers=callers).start()) if door else None
        started.append((replica, server, connection))
        return replica, f"127.0.0.1:{port}", recorder, connection

    start.subject = subject
    yield start
    for replica, server, connection in started:
        if replica is not None and not connection.is_closed:
            await replica.stop(1)
        await server.stop(0)
        if not connection.is_closed:
            await connection.close()
    await jetstream_store._js.delete_key_value(f"seeds_{namespace}")


@pytest.fixture
async def caller_connection(nats_url):
    connections = []

    async def connect():
        connections.append(await nats.connect(nats_url))
        return connections[-1]

    yield connect
    for connection in connections:
        await connection.close()


def test_placement_moves_only_a_leaving_replicas_shards_and_forgets_a_silent_one():
    placement = Placement(SHARDS)
    for replica in ("r1", "r2", "r3"):
        placement.heard(replica, 0.0)
    three = [placement.owner(shard, 1.0) for shard in range(SHARDS)]
    assert set(three) == {"r1", "r2", "r3"}
    placement.gone("r3")
    two = [placement.owner(shard, 1.0) for shard in range(SHARDS)]
    assert [after for before, after in zip(three, two) if before != "r3"] == [b for b in three if b != "r3"]
    assert set(two) == {"r1", "r2"}
    placement.heard("r1", FORGET_AFTER)                # r2 says nothing more: forgotten, r1 takes every shard
    assert {placement.owner(shard, FORGET_AFTER + 0.1) for shard in range(SHARDS)} == {"r1"}
    assert placement.owner(0, 3 * FORGET_AFTER) is None


async def heard(client: AdjudicatorClient, replicas: int) -> None:
    """Until the client has heard `replicas` replicas say hello (a bound, not a timing)."""
    await client._nats._listen()
    for _ in range(400):
        owners = {client._nats.placement.owner(shard, asyncio.get_running_loop().time()) for shard in range(32)}
        if len(owners - {None}) == replicas:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"heard {owners}, not {replicas} replicas")


async def test_submits_over_nats_answer_exactly_as_grpc_submit(replicas, caller_connection, jetstream_store,
                                                               new_name):
    _, target, recorder, _ = await replicas()
    games = [new_name("g") for _ in range(4)]
    connection = await caller_connection()
    async with AdjudicatorClient(target, nats=(connection, replicas.subject)) as linked, \
            AdjudicatorClient(target, streams=0) as unary:
        for game in games:
            await linked.create_game(game, "testjack", PLAYERS, {})

        played = await play_three(linked, games)
        assert recorder.called["Submit"] == recorder.called["SubmitStream"] == 0     # all over NATS
        await answered_as_stored(played, jetstream_store, linked, unary)
        for game in games:
            length = len(await jetstream_store.read(f"game.{game}"))
            # A refusal is the rules' own, and appends nothing.
            with pytest.raises(RuleViolation) as refused:
                await linked.submit(game, "ann", {"type": "Draw"}, f"{game}-out-of-turn")
            assert refused.value.code == "NOT_YOUR_TURN"
            assert len(await jetstream_store.read(f"game.{game}")) == length              # nothing new


async def test_each_game_stays_on_one_replica_from_every_caller_and_the_games_spread(replicas, caller_connection,
                                                                                    jetstream_store, new_name):
    counted = [CountingAppends(jetstream_store), CountingAppends(jetstream_store)]
    target = [(await replicas(store=store))[1] for store in counted][0]
    games = [new_name("g") for _ in range(24)]       # all on one replica: a chance of 2 in 2**24
    callers = [AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject)) for _ in range(2)]
    for client in callers:
        await heard(client, 2)
    for game in games:
        await callers[0].create_game(game, "testjack", PLAYERS, {})     # (gRPC: counted where it is served)
    created = [store.appends for store in counted]
    for number in range(10):
        await asyncio.gather(*(client.submit(game, "ann", {"type": "Think"}, f"{game}-{number}-{way}")
                               for game in games for way, client in enumerate(callers)))
    for client in callers:
        await client.close()
    for store, before in zip(counted, created):
        assert store.appends - before > 0                               # every replica has games
    for game in games:
        appended = sorted(store.by_stream[f"game.{game}"] for store in counted)
        assert appended[-1] >= 20 and appended[0] <= 1, appended        # 2 x 10 commands on one replica
        stream = await jetstream_store.read(f"game.{game}")
        commands = Counter(e.command_id for e in stream if not e.command_id.startswith("create-"))
        assert set(commands.values()) == {1} and len(commands) == 20         # each command once (a Think: one event)


async def test_a_replica_that_leaves_or_dies_loses_no_command(replicas, caller_connection, jetstream_store, new_name):
    leaving, dying, staying = (CountingAppends(jetstream_store) for _ in range(3))
    started = [await replicas(store=store) for store in (leaving, dying, staying)]
    target = started[2][1]
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject), retries=2) as client:
        await heard(client, 3)
        games = games_on_each(client, {replica.replica for replica, *_ in started}, new_name)
        for game in games:
            await client.create_game(game, "testjack", PLAYERS, {})

        async def burst(number: int) -> None:
            await asyncio.gather(*(client.submit(game, "ann", {"type": "Think"}, f"{game}-{number}")
                                   for game in games))

        await burst(0)
        # Each replica decided exactly its placed games' commands (the creations went over gRPC to the third).
        assert (leaving.appends, dying.appends, staying.appends) == (4, 4, 4 + len(games))
        await started[0][0].stop(1)                     # leaves: says goodbye first
        await started[1][3].close()                     # dies: no goodbye, its subscriptions vanish
        before = (leaving.appends, dying.appends)
        for number in range(1, 4):
            await burst(number)
        assert (leaving.appends, dying.appends) == before       # nothing more went to either
    for game in games:
        commands = Counter(e.command_id for e in await jetstream_store.read(f"game.{game}"))
        assert all(commands[f"{game}-{number}"] == 1 for number in range(4))


def games_on_each(client: AdjudicatorClient, replicas: set[str], new_name, each: int = 4) -> list[str]:
    """Games whose shards the client places on each of `replicas`, `each` apiece."""
    placed: dict[str, list[str]] = {replica: [] for replica in replicas}
    while any(len(games) < each for games in placed.values()):
        game = new_name("g")
        owner = client._nats.placement.owner(shard_of(game, SHARDS), asyncio.get_running_loop().time())
        if owner in placed and len(placed[owner]) < each:
            placed[owner].append(game)
    return [game for games in placed.values() for game in games]


async def with_callers(replicas, caller_connection, new_name):
    """A replica with a callers file (the lobby may call anything, scoring only GetView) and a game the
    lobby created: (lobby's secret, scoring's, target, recorder, a caller connection, the game)."""
    lobby, scoring = new_secret(), new_secret()
    callers = parse_callers("\n".join([caller_line("lobby", lobby), caller_line("scoring", scoring, ("GetView",))]))
    _, target, recorder, _ = await replicas(callers=callers)
    game = new_name("g")
    connection = await caller_connection()
    async with AdjudicatorClient(target, token=lobby, nats=(connection, replicas.subject)) as allowed:
        await allowed.create_game(game, "testjack", PLAYERS, {})
    return lobby, scoring, target, recorder, connection, game


async def test_the_caller_check_refuses_before_anything_is_decided(replicas, caller_connection, jetstream_store,
                                                                   new_name):
    lobby, scoring, target, _, connection, game = await with_callers(replicas, caller_connection, new_name)
    async with AdjudicatorClient(target, token=lobby, nats=(connection, replicas.subject)) as allowed:
        await allowed.submit(game, "ann", {"type": "Think"}, "allowed")
    length = len(await jetstream_store.read(f"game.{game}"))
    for token, code in ((None, grpc.StatusCode.UNAUTHENTICATED), (new_secret(), grpc.StatusCode.UNAUTHENTICATED),
                        (scoring, grpc.StatusCode.PERMISSION_DENIED)):
        async with AdjudicatorClient(target, token=token, nats=(connection, replicas.subject), retries=0) as client:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await client.submit(game, "ann", {"type": "Think"}, f"refused-{code.name}")
            assert refused.value.code() == code
    assert len(await jetstream_store.read(f"game.{game}")) == length            # nothing decided


async def test_a_store_failure_is_retried_with_the_same_command_id(replicas, caller_connection, jetstream_store,
                                                                   new_name):
    game = new_name("g")
    failing = FailsOnce(jetstream_store)
    _, target, _, _ = await replicas(store=failing)
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject),
                                 retry_delay=0.01) as client:
        await client.create_game(game, "testjack", PLAYERS, {})     # gRPC, on the same replica: the failure
        events = await client.submit(game, "ann", {"type": "Think"}, "after-a-failure")
    assert failing.failed
    assert [e for e in await jetstream_store.read(f"game.{game}") if e.command_id == "after-a-failure"] == events


async def test_a_stuck_replica_leaves_its_caller_a_deadline(replicas, caller_connection, jetstream_store, new_name,
                                                            namespace):
    game = new_name("g")
    vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
    await Adjudicator(jetstream_store, vault).create_game(game, "testjack", PLAYERS, {})
    _, target, _, _ = await replicas(store=StuckAppends(jetstream_store))
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject),
                                 timeout=0.3, retries=0) as client:
        with pytest.raises(grpc.aio.AioRpcError) as late:
            await client.submit(game, "ann", {"type": "Think"}, "never-answered")
    assert late.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


async def test_without_any_door_the_client_falls_back_to_grpc_submit(replicas, caller_connection, jetstream_store,
                                                                     new_name):
    _, target, recorder, _ = await replicas(door=False)
    game = new_name("g")
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject)) as client:
        await client.create_game(game, "testjack", PLAYERS, {})
        events = await client.submit(game, "ann", {"type": "Think"}, "over-grpc")
        assert await client.submit(game, "ann", {"type": "Think"}, "over-grpc-2")
    assert recorder.called["Submit"] == 2
    assert [e for e in await jetstream_store.read(f"game.{game}") if e.command_id == "over-grpc"] == events


async def test_a_request_that_is_no_submit_request_is_refused_and_the_door_goes_on(replicas, caller_connection,
                                                                                  new_name):
    await replicas()
    connection = await caller_connection()
    reply = await connection.request(submit_subject(replicas.subject, "any"), b"\xff\xff not protobuf", timeout=5)
    answer = pb.EventsReply.FromString(reply.data)
    assert answer.WhichOneof("result") == "failure" and answer.failure.code == "INVALID_ARGUMENT"
    await connection.publish(f"{replicas.subject}.hello", b"not json")      # a hello nobody understands
    game = new_name("g")
    async with AdjudicatorClient("127.0.0.1:1", nats=(connection, replicas.subject)) as client:
        with pytest.raises(RuleViolation) as refused:       # the door still answers (here: no such game)
            await client.submit(game, "ann", {"type": "Think"}, "x")
    assert refused.value.code == "GAME_NOT_FOUND"


async def test_commands_waiting_on_a_replica_that_dies_are_sent_again_at_once(replicas, caller_connection,
                                                                             jetstream_store, new_name, namespace):
    # The doomed replica hangs on its store, so its commands wait; then it dies without a goodbye. The
    # next command for one of its games meets "no responders": the caller places its games elsewhere and
    # sends what was waiting on it again, long before that request's own timeout.
    doomed = (await replicas(store=StuckAppends(jetstream_store)))[0]
    staying, target, _, _ = await replicas()
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject), timeout=60,
                                 retries=2, retry_delay=0.01) as client:
        await heard(client, 2)
        waiting_game, next_game = games_on_each(client, {doomed.replica}, new_name, each=2)
        for game in (waiting_game, next_game):
            await client.create_game(game, "testjack", PLAYERS, {})     # over gRPC, on the live replica
        waiting = asyncio.ensure_future(client.submit(waiting_game, "ann", {"type": "Think"}, "was-waiting"))
        await asyncio.sleep(0.2)
        assert not waiting.done()                                       # stuck on the doomed replica
        await doomed._nc.close()                                        # it dies: no goodbye
        await until_nobody_listens(await caller_connection(), submit_subject(replicas.subject, doomed.replica))
        await client.submit(next_game, "ann", {"type": "Think"}, "found-it-gone")
        events = await asyncio.wait_for(waiting, 20)                    # a third of its own timeout
    assert [e for e in await jetstream_store.read(f"game.{waiting_game}") if e.command_id == "was-waiting"] == events


async def until_nobody_listens(connection, subject: str) -> None:
    """Until NATS itself says nobody listens on `subject` (it drops a closed connection's interest a moment
    after the close: a request in between would be lost, as one sent to a replica as it dies)."""
    for _ in range(200):
        try:
            await connection.request(subject, b"", timeout=0.05)
        except nats.errors.NoRespondersError:
            return
        except nats.errors.TimeoutError:
            pass
    raise AssertionError(f"something still listens on {subject}")


async def test_a_full_replica_answers_busy_and_roll_calls_cannot_flood_the_hellos(replicas, caller_connection,
                                                                                jetstream_store, new_name,
                                                                                namespace, monkeypatch):
    monkeypatch.setattr("adjudicator.nats_door.MAX_IN_FLIGHT", 1)
    game = new_name("g")
    vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
    await Adjudicator(jetstream_store, vault).create_game(game, "testjack", PLAYERS, {})
    await replicas(store=StuckAppends(jetstream_store))
    connection = await caller_connection()
    request = pb.SubmitRequest(game_id=game, actor="ann", command_json='{"type": "Think"}', command_id="stuck")
    subject = submit_subject(replicas.subject, "any")
    stuck = asyncio.ensure_future(connection.request(subject, request.SerializeToString(), timeout=30))
    await asyncio.sleep(0.2)
    request.command_id = "one-too-many"
    answer = pb.EventsReply.FromString((await connection.request(subject, request.SerializeToString(), timeout=5)).data)
    assert (answer.failure.code, answer.failure.details) == ("UNAVAILABLE", "the adjudicator is busy; try again")
    stuck.cancel()

    hellos = []

    async def heard_hello(message) -> None:
        hellos.append(message.data)

    listener = await caller_connection()
    await listener.subscribe(f"{replicas.subject}.hello", cb=heard_hello)
    await listener.flush()
    for _ in range(50):
        await connection.publish(f"{replicas.subject}.roll", b"")
    await connection.flush()
    await asyncio.sleep(0.05)
    assert 1 <= len(hellos) <= 2             # one for the burst (two if the burst straddles a periodic hello)


class CountingReads(CountingAppends):
    """The store, counting also the reads of each stream made through it (a replica's catching up)."""

    def __init__(self, store):
        super().__init__(store)
        self.reads: Counter = Counter()

    async def read(self, stream, *args, **kwargs):
        self.reads[stream] += 1
        return await self._store.read(stream, *args, **kwargs)

    async def last_seq(self, stream):
        self.reads[stream] += 1
        return await self._store.last_seq(stream)


async def test_reads_about_a_game_go_where_its_commands_go_and_answer_as_grpc(replicas, caller_connection,
                                                                              jetstream_store, new_name):
    """ToAct, LegalActions and GetView by NATS meet the replica whose cache the game's commands keep: the
    other one never reads the game (on gRPC the ring picked either, and the other read back every envelope
    the first had appended since it last looked)."""
    counted = [CountingReads(jetstream_store), CountingReads(jetstream_store)]
    started = [await replicas(store=store) for store in counted]
    games = [new_name("g") for _ in range(12)]
    connection = await caller_connection()
    async with AdjudicatorClient(started[0][1], nats=(connection, replicas.subject)) as linked:
        await heard(linked, 2)
        for game in games:
            await linked.create_game(game, "testjack", PLAYERS, {})
        for number in range(3):
            await asyncio.gather(*(linked.submit(game, "ann", {"type": "Think"}, f"{game}-{number}") for game in games))
        owners = {game: next(store for store in counted if store.by_stream[f"game.{game}"] >= 3) for game in games}
        assert {id(owner) for owner in owners.values()} == {id(store) for store in counted}   # both have games
        for store in counted:
            store.reads.clear()
        answers = {game: (await linked.to_act(game), await linked.legal_actions(game, "ann"),
                          await linked.view(game, "ann"), await linked.view(game)) for game in games}
        for _, _, recorder, _ in started:
            assert recorder.called["ToAct"] == recorder.called["LegalActions"] == recorder.called["GetView"] == 0
        for game in games:
            others = [store for store in counted if store is not owners[game]]
            assert all(store.reads[f"game.{game}"] == 0 for store in others), game
        with pytest.raises(RuleViolation) as refused:
            await linked.to_act(new_name("nothing"))
        assert refused.value.code == "GAME_NOT_FOUND"
    for _, target, _, _ in started:
        async with AdjudicatorClient(target) as by_grpc:
            for game, (to_act, legal, seen, public) in answers.items():
                assert to_act == await by_grpc.to_act(game)
                assert to_act["seq"] == await jetstream_store.last_seq(f"game.{game}")
                assert legal == await by_grpc.legal_actions(game, "ann") and legal
                assert (seen, public) == (await by_grpc.view(game, "ann"), await by_grpc.view(game))


async def test_a_read_is_refused_by_the_caller_check_and_a_call_the_door_does_not_know_is_unimplemented(
        replicas, caller_connection, new_name):
    lobby, scoring, target, recorder, connection, game = await with_callers(replicas, caller_connection, new_name)
    async with AdjudicatorClient(target, token=lobby, nats=(connection, replicas.subject)) as allowed:
        assert (await allowed.to_act(game))["game_id"] == game
    async with AdjudicatorClient(target, token=scoring, nats=(connection, replicas.subject), retries=0) as client:
        assert await client.view(game)                      # GetView is the scoring caller's
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await client.to_act(game)
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert recorder.called["ToAct"] == recorder.called["GetView"] == 0          # all asked at the NATS door
    for headers in ({CALL: "Submit"}, {CALL: "ViewAt"}, {}):
        reply = await connection.request(call_subject(replicas.subject, "any"), b"", headers=headers, timeout=5)
        assert reply.headers[CALL_STATUS] == "UNIMPLEMENTED" and reply.data == b""
    reply = await connection.request(call_subject(replicas.subject, "any"), b"\xff\xff not protobuf",
                                     headers={CALL: "ToAct", "Authorization": f"Bearer {lobby}"}, timeout=5)
    assert reply.headers[CALL_STATUS] == "INVALID_ARGUMENT"


async def test_against_adjudicators_without_the_read_door_reads_go_by_grpc(replicas, caller_connection, new_name):
    _, target, recorder, _ = await replicas(door=False)
    game = new_name("g")
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject)) as client:
        await client.create_game(game, "testjack", PLAYERS, {})
        assert (await client.to_act(game))["game_id"] == game
        assert await client.legal_actions(game, "ann")
    assert recorder.called["ToAct"] == recorder.called["LegalActions"] == 1


async def test_a_replica_older_than_the_read_door_keeps_its_games_commands(replicas, caller_connection, new_name):
    """Nobody answers a read on an older replica's call subject: the read goes by gRPC, and the replica
    stays placed for commands (it is there, only older)."""
    door, target, recorder, _ = await replicas()
    calls = [subscription for subscription in door._subscriptions if ".call." in subscription.subject]
    assert len(calls) == 2
    for subscription in calls:                          # as a door from before the reads came to it
        await subscription.unsubscribe()
    await door._nc.flush()
    game = new_name("g")
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject)) as client:
        await heard(client, 1)
        await client.create_game(game, "testjack", PLAYERS, {})
        assert (await client.to_act(game))["game_id"] == game
        assert recorder.called["ToAct"] == 1
        now = asyncio.get_running_loop().time()
        assert {client._nats.placement.owner(shard, now) for shard in range(32)} == {door.replica}
        await client.submit(game, "ann", {"type": "Think"}, "still-placed")
    assert recorder.called["Submit"] == recorder.called["SubmitStream"] == 0


async def test_a_store_failure_during_a_read_is_unavailable_and_retried(replicas, caller_connection,
                                                                        jetstream_store, new_name, namespace):
    game = new_name("g")
    vault = await JetStreamSeedVault(jetstream_store._nc, f"seeds_{namespace}").ensure()
    await Adjudicator(jetstream_store, vault).create_game(game, "testjack", PLAYERS, {})
    failing = FailsOnce(jetstream_store, "read", "JetStream did not answer\nand said why on a second line")
    _, target, recorder, _ = await replicas(store=failing)        # it has never loaded the game: it reads
    async with AdjudicatorClient(target, nats=(await caller_connection(), replicas.subject),
                                 retry_delay=0.01) as client:
        assert (await client.to_act(game))["seq"] == await jetstream_store.last_seq(f"game.{game}")
    assert failing.failed and recorder.called["ToAct"] == 0
