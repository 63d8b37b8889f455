"""Bot seats' levels reach the engine's level bot through the worker, on real NATS and a real adjudicator:
a 21Moon table with a `strong` and an `easy` bot seat, its person played by the engine's normal bot."""
from __future__ import annotations

import itertools
import random

from adjudicator.client import AdjudicatorClient
from adjudicator.server import start_grpc_server
from adjudicator.service import Adjudicator
from starbase_core.gamestream import ends_game, replay
from starbase_core.seeds import MemorySeedVault
from starbase_rules.registry import get_game
from tests.support.botworker import bot_worker, eventually

ids = itertools.count()
BOT_MOVES = 12        # each bot seat's moves checked (the game's start: enough to tell the levels' bots apart)


async def test_each_bot_seat_plays_its_own_level(nats_url, jetstream_store):
    server, port = await start_grpc_server(Adjudicator(jetstream_store, MemorySeedVault()), 0, "127.0.0.1")
    client = AdjudicatorClient(f"127.0.0.1:{port}")
    engine = get_game("moon21")
    rnd = random.Random(5)
    try:
        await client.create_game("lv", "moon21", ["ann", "hi", "lo"], {"bots": {"hi": "strong", "lo": "easy"}})
        async with bot_worker(nats_url, jetstream_store.name, jetstream_store.prefix, f"127.0.0.1:{port}"):
            async def enough():
                stream = await jetstream_store.read("game.lv")
                by = {seat: sum(1 for e in stream if e.meta.get("command") and e.actor == seat) for seat in ("hi", "lo")}
                if min(by.values()) >= BOT_MOVES or ends_game(stream[-1]):
                    return stream
                record = replay("lv", stream, get_game)
                if "ann" in engine.to_act(record.state):
                    command = engine.bot_command(record.state, "ann", rnd)
                    try:
                        await client.submit("lv", "ann", command.model_dump(mode="json"), f"a{next(ids)}",
                                            expected_seq=stream[-1].seq)
                    except Exception:       # the worker moved first (a stale position): look again
                        pass
                return None
            stream = await eventually(enough, timeout=180)
    finally:
        await server.stop(0)
        await client.close()

    checked = {"hi": 0, "lo": 0}
    before = replay("lv", stream[:1], get_game)          # folded on, one envelope at a time
    for envelope in stream[1:]:
        played_by = envelope.meta.get("played_by")
        if envelope.meta.get("command") and envelope.actor in checked and played_by != "platform":
            level = {"hi": "strong", "lo": "easy"}[envelope.actor]
            assert played_by == f"bot:{level}"
            assert envelope.command_id == f"bot:{before.last_seq}:{envelope.actor}"
            seat_rnd = random.Random(f"lv:{before.last_seq}:{envelope.actor}:0")
            expected = engine.level_command(engine.seat_state(before.state, envelope.actor), envelope.actor,
                                            seat_rnd, level)
            assert envelope.meta["command"] == expected.model_dump(mode="json")
            checked[envelope.actor] += 1
            if min(checked.values()) >= BOT_MOVES:
                break
        before.apply([envelope])
    assert min(checked.values()) >= BOT_MOVES or ends_game(stream[-1]), checked


async def test_a_game_of_people_is_not_followed_until_a_resignation_seats_a_bot(nats_url, jetstream_store):
    """21Moon plays its forced passes itself: a table of people owes the worker nothing, so it keeps no
    fold of it; once a player resigns, the worker reads the game and its bot plays the seat."""
    server, port = await start_grpc_server(Adjudicator(jetstream_store, MemorySeedVault()), 0, "127.0.0.1")
    client = AdjudicatorClient(f"127.0.0.1:{port}")
    engine = get_game("moon21")
    try:
        await client.create_game("ppl", "moon21", ["ann", "bob", "cy"], {})
        async with bot_worker(nats_url, jetstream_store.name, jetstream_store.prefix,
                              f"127.0.0.1:{port}") as worker:
            async def ignored():
                return "ppl" in worker.tracker.ignored
            await eventually(ignored, timeout=60)
            assert "ppl" not in worker.tracker.records

            stream = await jetstream_store.read("game.ppl")
            seat = engine.to_act(replay("ppl", stream, get_game).state)[0]
            await client.submit("ppl", seat, {"type": "Resign"}, "r1")

            async def bot_moved():
                moved = [e for e in await jetstream_store.read("game.ppl")
                         if e.meta.get("command") and e.actor == seat and e.meta.get("played_by") == "bot:normal"]
                return moved
            assert await eventually(bot_moved, timeout=60)
            assert "ppl" in worker.tracker.records and "ppl" not in worker.tracker.ignored
    finally:
        await server.stop(0)
        await client.close()
