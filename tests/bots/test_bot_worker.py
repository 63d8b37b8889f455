"""The bot worker on real NATS and a real adjudicator: it plays bot seats and forced moves, once across
replicas, and its bots choose from the seat's own view only."""
from __future__ import annotations

import asyncio
import itertools
import random

import pytest

from adjudicator.client import AdjudicatorClient
from adjudicator.server import start_grpc_server
from adjudicator.service import Adjudicator
from bots.tracker import Tracker
from starbase_core.audit import PASS, audit_game
from starbase_core.envelope import Envelope
from starbase_core.gamestream import ends_game, replay
from starbase_core.seeds import MemorySeedVault
from starbase_rules.registry import get_game
from tests.support import tally
from tests.support.botworker import bot_worker, eventually

tally.register()
ids = itertools.count()


@pytest.fixture
async def grpc_adjudicator(jetstream_store):
    server, port = await start_grpc_server(Adjudicator(jetstream_store, MemorySeedVault()), 0, "127.0.0.1")
    client = AdjudicatorClient(f"127.0.0.1:{port}")
    try:
        yield client, f"127.0.0.1:{port}"
    finally:
        await server.stop(1)
        await client.close()


def worker_of(nats_url, store, target, durable="bots"):
    return bot_worker(nats_url, store.name, store.prefix, target, durable=durable)


async def play_person_until_the_end(client, store, game_id: str, person: str) -> list[Envelope]:
    """The person plays their turns (a few points, then ends the turn) until the game ends."""
    rnd = random.Random(7)

    async def ended() -> list[Envelope] | None:
        stream = await store.read(f"game.{game_id}")
        if ends_game(stream[-1]):
            return stream
        record = replay(game_id, stream, get_game)
        if person in record.engine.to_act(record.state) and person not in record.state.folded:
            command = {"type": "Add", "points": rnd.randint(1, 2)} if rnd.random() < 0.5 else {"type": "EndTurn"}
            await client.submit(game_id, person, command, f"p{next(ids)}", expected_seq=stream[-1].seq)
        return None

    return await eventually(ended, timeout=60)


async def test_a_two_player_game_with_one_bot_seat_is_played_to_its_end(nats_url, jetstream_store,
                                                                        grpc_adjudicator):
    client, target = grpc_adjudicator
    await client.create_game("duo", "tally", ["ann", "bot1"], {"bots": {"bot1": "normal"}, "rounds": 4})
    async with worker_of(nats_url, jetstream_store, target):
        stream = await play_person_until_the_end(client, jetstream_store, "duo", "ann")

    by_bot = [e for e in stream if e.meta.get("command") and e.actor == "bot1"]
    assert by_bot and all(e.meta["played_by"] == "bot:normal" for e in by_bot)
    assert all(e.meta.get("played_by") is None for e in stream if e.meta.get("command") and e.actor == "ann")
    assert {s["player"] for s in stream[-1].data["standings"]} == {"ann", "bot1"}
    assert audit_game("duo", stream, get_game).verdict == PASS


async def test_two_replicas_play_each_bot_move_once(nats_url, jetstream_store, grpc_adjudicator):
    client, target = grpc_adjudicator
    await client.create_game("pair", "tally", ["ann", "b1", "b2"], {"bots": {"b1": "easy", "b2": "strong"}})
    async with worker_of(nats_url, jetstream_store, target), worker_of(nats_url, jetstream_store, target):
        stream = await play_person_until_the_end(client, jetstream_store, "pair", "ann")

    bot_commands = [e.command_id for e in stream
                    if e.meta.get("command") and str(e.meta.get("played_by", "")).startswith("bot:")]
    assert bot_commands and len(bot_commands) == len(set(bot_commands))
    # every turn of a bot ends once: rounds (3) x seats (3) turns in all, nothing applied twice
    assert sum(1 for e in stream if e.type == "TurnEnded") == 9
    assert audit_game("pair", stream, get_game).verdict == PASS


async def test_a_person_who_folded_gets_the_forced_pass_played_by_the_platform(nats_url, jetstream_store,
                                                                              grpc_adjudicator):
    client, target = grpc_adjudicator
    await client.create_game("fold", "tally", ["ann", "bob"], {"rounds": 2})
    async with worker_of(nats_url, jetstream_store, target):
        await client.submit("fold", "ann", {"type": "Fold"}, "f1")
        await client.submit("fold", "bob", {"type": "EndTurn"}, "f2")   # ann's turn: a forced Pass

        async def passed():
            stream = await jetstream_store.read("game.fold")
            return [e for e in stream if e.meta.get("command") == {"type": "Pass"}]

        forced = await eventually(passed)
    assert forced[0].actor == "ann" and forced[0].meta["played_by"] == "platform"
    assert forced[0].command_id.startswith("forced:")


async def test_the_worker_comes_back_after_the_adjudicator_was_away(nats_url, jetstream_store):
    """Its moves fail while no adjudicator answers; supervised, it retries and plays once one does."""
    adjudicator = Adjudicator(jetstream_store, MemorySeedVault())
    server, port = await start_grpc_server(adjudicator, 0, "127.0.0.1")
    client = AdjudicatorClient(f"127.0.0.1:{port}")
    await client.create_game("gap", "tally", ["ann", "bob"], {"bots": {"bob": "normal"}, "rounds": 1})
    await client.submit("gap", "ann", {"type": "EndTurn"}, "a1")       # bob's (the bot's) turn now
    await server.stop(0)
    async with bot_worker(nats_url, jetstream_store.name, jetstream_store.prefix, f"127.0.0.1:{port}",
                          timeout=1.0, retries=1) as worker:
        await eventually(lambda: _failed(worker))   # its move found no adjudicator: it failed and waits
        server, port = await start_grpc_server(adjudicator, port, "127.0.0.1")

        async def over():
            stream = await jetstream_store.read("game.gap")
            return ends_game(stream[-1])

        assert await eventually(over, timeout=60)
    await server.stop(0)
    await client.close()


async def _failed(worker) -> bool:
    return worker.failures > 0


def test_a_bot_chooses_the_same_whatever_the_others_hide():
    """Two games that differ only in bob's face-down card: the bot in ann's seat plays the same."""
    engine = get_game("tally")
    tracker = Tracker()
    moves = []
    for bob_card in (1, 9):
        stream = [
            Envelope.model_construct(stream="game.v", seq=1, type="GameCreated", actor=None, meta={"platform": True,
                                     "draw_end": 0}, data={"game": "tally", "players": ["ann", "bob"],
                                     "options": {"bots": {"ann": "normal"}}, "commitment": "c"},
                                     time="t", prev_hash="0", hash="1"),
        ]
        record = replay("v", stream, get_game)
        for event in engine.setup(["ann", "bob"], {}, _Cards([5, bob_card])):
            record.state = engine.evolve(record.state, event)
        tracker.records["v"] = record
        moves.append(tracker.moves("v"))
    assert moves[0] and moves[0] == moves[1]
    assert moves[0][0].played_by == "bot:normal" and moves[0][0].player == "ann"


class _Cards:
    """A fake draw source dealing the given cards in order (the setup's only draws)."""
    def __init__(self, cards):
        self.cards = iter(cards)

    def randint(self, low, high):
        return next(self.cards)


async def test_a_bot_move_the_engine_refuses_is_left_out_and_the_bot_chooses_again(nats_url, jetstream_store,
                                                                                 grpc_adjudicator):
    client, target = grpc_adjudicator
    await client.create_game("liar", "lying_tally", ["ann", "bot1"], {"bots": {"bot1": "normal"}, "rounds": 3})
    async with worker_of(nats_url, jetstream_store, target):
        stream = await play_person_until_the_end(client, jetstream_store, "liar", "ann")
    by_bot = [e for e in stream if e.meta.get("command") and e.actor == "bot1"]
    assert by_bot and all(e.meta["command"] != {"type": "Add", "points": 3} for e in by_bot)
    # the bot chose the refused move at some decision, and its next choice there was applied
    assert any(e.command_id.startswith("bot:1:") for e in by_bot), [e.command_id for e in by_bot]
    assert audit_game("liar", stream, get_game).verdict == PASS
