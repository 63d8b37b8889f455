"""The adjudicator as it runs: `python -m adjudicator` processes behind gRPC, on a real NATS server."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import httpx
import pytest

from adjudicator.client import AdjudicatorClient
from starbase_core.envelope import verify_chain
from starbase_core.servers import free_port
from starbase_rules.contract import RuleViolation
from tests.support.adjudicator_child import CRASH_EXIT_CODE

pytestmark = pytest.mark.integration

CHILD = Path(__file__).resolve().parents[1] / "support" / "adjudicator_child.py"
PLAYERS = ["ann", "bob"]


class Child:
    def __init__(self, env: dict, port: int | None = None):
        self.port, self.health_port, self.metrics_port = port or free_port(), free_port(), free_port()
        self.process = subprocess.Popen(
            [sys.executable, str(CHILD)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, **env, "ADJUDICATOR_PORT": str(self.port), "ADJUDICATOR_HOST": "127.0.0.1",
                 "ADJUDICATOR_HEALTH_PORT": str(self.health_port), "LOG_LEVEL": "warning",
                 # An open test NATS and no callers file: development mode (tests/security covers auth).
                 "METRICS_PORT": str(self.metrics_port), "INSECURE_DEV_MODE": "true"},
        )
        self.target = f"127.0.0.1:{self.port}"

    def wait_ready(self, deadline: float = 30.0) -> None:
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            assert self.process.poll() is None, f"adjudicator exited with {self.process.returncode}"
            try:
                if httpx.get(f"http://127.0.0.1:{self.health_port}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the adjudicator did not become ready")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def child_env(nats_url, jetstream_store, namespace):
    return {"NATS_URL": nats_url, "EVENT_STREAM": jetstream_store.name,
            "EVENT_SUBJECT_PREFIX": jetstream_store.prefix, "SEED_BUCKET": f"seeds_{namespace}"}


@pytest.fixture
def spawn(child_env):
    children = []

    def start(port: int | None = None, **extra) -> Child:
        child = Child({**child_env, **extra}, port)
        children.append(child)
        child.wait_ready()
        return child

    yield start
    for child in children:
        child.stop()


async def test_commands_views_and_refusals_over_grpc(spawn, game_id):
    child = spawn()
    async with AdjudicatorClient(child.target) as client:
        created = await client.create_game(game_id, "testjack", PLAYERS, {})
        assert created[0].type == "GameCreated"
        assert await client.legal_actions(game_id, "ann") == [{"type": "Draw"}, {"type": "Stand"},
                                                               {"type": "Think"}]
        assert await client.legal_actions(game_id, "bob") == []
        drawn = await client.submit(game_id, "ann", {"type": "Draw"}, "c1")
        assert drawn[0].seq == created[-1].seq + 1 and drawn[0].type == "CardDrawn"
        with pytest.raises(RuleViolation) as refused:
            await client.submit(game_id, "bob", {"type": "Draw"}, "c2")
        assert refused.value.code == "NOT_YOUR_TURN"
        # A command decided on an older position is refused; at the current one it is decided.
        with pytest.raises(RuleViolation) as refused:
            await client.submit(game_id, "ann", {"type": "Think"}, "c3", expected_seq=created[-1].seq)
        assert refused.value.code == "STALE_POSITION"
        thought = await client.submit(game_id, "ann", {"type": "Think"}, "c3", expected_seq=drawn[-1].seq)
        assert thought[0].seq == drawn[-1].seq + 1
        view = await client.view(game_id, "ann")
        assert view["seq"] == thought[-1].seq and len(view["view"]["my_hand"]) == 2
        assert (await client.view(game_id))["view"]["my_hand"] is None
        with pytest.raises(RuleViolation) as refused:
            await client.view("nosuch", "ann")
        assert refused.value.code == "GAME_NOT_FOUND"
    metrics = httpx.get(f"http://127.0.0.1:{child.metrics_port}/metrics").text
    assert 'adjudicator_commands_total{result="accepted"}' in metrics
    assert httpx.get(f"http://127.0.0.1:{child.health_port}/healthz").status_code == 200


async def test_a_killed_adjudicator_loses_no_accepted_move_and_the_retry_gets_the_same_events(
        spawn, jetstream_store, game_id):
    doomed = spawn(STARBASE_TEST_CRASH_ON="the-move")
    survivor = spawn()
    async with AdjudicatorClient(doomed.target, retries=0) as first, \
            AdjudicatorClient(survivor.target) as second:
        await first.create_game(game_id, "testjack", PLAYERS, {})
        with pytest.raises(grpc.aio.AioRpcError):
            await first.submit(game_id, "ann", {"type": "Draw"}, "the-move")
        assert doomed.process.wait(10) == CRASH_EXIT_CODE
        retried = await second.submit(game_id, "ann", {"type": "Draw"}, "the-move")
    stream = await jetstream_store.read(f"game.{game_id}")
    assert [e for e in stream if e.command_id == "the-move"] == retried
    assert stream[-len(retried):] == retried


@pytest.mark.timeout(120)
async def test_a_replica_killed_mid_stream_each_outstanding_command_is_resent_and_stored_once(
        spawn, jetstream_store, new_name):
    # The survivor's port is in the client's targets from the start, but nobody listens there yet: the
    # client's streams all open on the doomed replica (the ring has no other replica ready).
    doomed, survivor_port = spawn(STARBASE_TEST_CRASH_ON="the-move"), free_port()
    games = [new_name("g") for _ in range(6)]
    async with AdjudicatorClient(f"{doomed.target},127.0.0.1:{survivor_port}") as client:
        for game in games:
            await client.create_game(game, "testjack", PLAYERS, {})
            await client.submit(game, "ann", {"type": "Think"}, f"{game}-warm")
        survivor = spawn(port=survivor_port)
        # A burst on the open streams; the doomed replica dies right after appending "the-move", with
        # the burst's other commands answered, stored but unanswered, or not yet decided.
        commands = [(game, f"{game}-{n}", {"type": "Think"}) for game in games[1:] for n in range(8)]
        commands.insert(len(commands) // 2, (games[0], "the-move", {"type": "Draw"}))
        answers = await asyncio.gather(*(client.submit(game, "ann", command, command_id)
                                         for game, command_id, command in commands))
    assert doomed.process.wait(10) == CRASH_EXIT_CODE
    for (game, command_id, _), answered in zip(commands, answers):
        stream = await jetstream_store.read(f"game.{game}")
        assert [e for e in stream if e.command_id == command_id] == answered      # once, as its caller was told
    for game in games:
        stream = await jetstream_store.read(f"game.{game}")
        verify_chain(stream, stream=f"game.{game}")
        sent = {f"{game}-warm"} | {command_id for g, command_id, _ in commands if g == game}
        assert {e.command_id for e in stream} - {f"create-{game}", None} == sent        # nothing else
    drawn = [e for e in await jetstream_store.read(f"game.{games[0]}") if e.command_id == "the-move"]
    assert [e.type for e in drawn] == ["CardDrawn"]
    # "the-move" was stored by the doomed replica and never answered: resent, the survivor found it stored.
    metrics = httpx.get(f"http://127.0.0.1:{survivor.metrics_port}/metrics").text
    assert re.search(r'adjudicator_commands_total\{result="retried"\} [1-9]', metrics), metrics


async def test_sigterm_stops_the_adjudicator_cleanly(spawn):
    child = spawn()
    child.process.send_signal(signal.SIGTERM)
    assert child.process.wait(30) == 0


async def test_submits_reply_says_who_owes_after_its_events_as_to_act_would_there(spawn, game_id):
    child = spawn()
    async with AdjudicatorClient(child.target) as client:
        await client.create_game(game_id, "testjack", PLAYERS, {})
        drawn, turn = await client.submit_with_turn(game_id, "ann", {"type": "Draw"}, "t1")
        assert turn == {"seq": drawn[-1].seq, "to_act": ["ann"], "ended": False}
        assert await client.to_act(game_id) == {"game_id": game_id, **turn}
        stood, turn = await client.submit_with_turn(game_id, "ann", {"type": "Stand"}, "t2")
        assert turn == {"seq": stood[-1].seq, "to_act": ["bob"], "ended": False}
        # A retry's events are older than the game: no turn (the lobby asks ToAct if it needs one).
        again, turn = await client.submit_with_turn(game_id, "ann", {"type": "Draw"}, "t1")
        assert again == drawn and turn is None
        last, turn = await client.submit_with_turn(game_id, "bob", {"type": "Stand"}, "t3")
        assert last[-1].type == "GameEnded" and turn == {"seq": last[-1].seq, "to_act": [], "ended": True}
        assert (await client.to_act(game_id))["ended"]
