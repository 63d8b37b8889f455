"""A person alone at a Trucker table with a bot seat, through the lobby (issue 17, item 4).

Given the local stack (lobby over HTTP, adjudicator, real NATS and Redis) and the Trucker service on the
same store, vault and Redis, when a person creates a two-seat Trucker table with a `normal` bot in the
other seat, starts it and builds on the table's `realtime_url`, then the bot seat's ship is built by the
service meanwhile (its moves under the seat's pseudonymous id, `played_by` `bot:normal`), the bot takes
its order tile, and the person's own finish ends building.
"""
from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

from starbase_core.gamestream import game_stream
from trucker_rules import messages as m
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING

from tests.support.stack import ApiPlayer, local_stack
from tests.trucker_service.helpers import FoldedStream
from tests.trucker_service.live import Client, beside_the_lobby
from tests.trucker_service.test_bot_seats import BOTS_STUCK_SECONDS, RACED

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture
async def stack(nats_url, redis_url, namespace):
    async with local_stack(nats_url, redis_url, namespace, scoring=False) as running:
        yield running


@pytest.fixture
async def trucker(stack, nats_url, redis_url, namespace):
    async with beside_the_lobby(stack, nats_url, redis_url, namespace, trucker_bot_move_seconds=0.02) as base:
        yield base


async def test_a_person_alone_with_a_bot_seat_at_a_trucker_table_races_a_bot_that_builds(stack, trucker):
    async with httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
        ann = await ApiPlayer.register(http, "ann")
        table = await ann.ok(ann.post("/tables", {"game": "trucker", "seats": 2,
                                                  "bots": [{"seat": 1, "level": "normal"}]}))
        bot = table["seats"][1]["player_id"]
        await ann.ok(ann.post(f"/tables/{table['table_id']}/ready"))
        game_id = (await ann.ok(ann.post(f"/tables/{table['table_id']}/start")))["game_id"]
        shown = await ann.ok(ann.get(f"/tables/{game_id}"))
        assert shown["seats"][1]["bot"] == "normal"
        socket = await ann.connect(shown["realtime_url"], max_size=2**22)
        client = Client(socket, json.loads(await socket.recv()))   # ann arrives: building starts

        stream, rnd = FoldedStream(stack.store, game_id), random.Random(3)
        loop = asyncio.get_running_loop()
        since = loop.time()
        while True:
            state = (await stream.catch_up()).state
            if state.phase != BUILDING or state.round != 1:
                break
            assert loop.time() - since < BOTS_STUCK_SECONDS, "the bot seat did not build its ship"
            building = state.seats[ann.player_id].order_tile is None
            command = GAME.bot_command(state, ann.player_id, rnd) if building else None
            if command is None or (isinstance(command, m.Finish) and state.seats[bot].order_tile is None):
                await asyncio.sleep(0.02)      # ann waits: the bot finishes first
                continue
            since = loop.time()
            answer = await client.send_command(command.model_dump(mode="json"))
            assert answer["kind"] == "ack" or answer["error"]["code"] in RACED, (command, answer)

        stored = await stack.store.read(game_stream(game_id))
        bot_moves = [e for e in stored if e.actor == bot and "command" in e.meta]
        assert any(e.type == "ComponentPlaced" for e in bot_moves)
        assert bot_moves[-1].type == "ShipFinished"
        assert all(e.meta.get("played_by") == "bot:normal" for e in bot_moves)
        assert any(e["type"] == "ComponentPlaced" for e in client.events if e["actor"] == bot)   # ann saw it grow
        ended = next(e for e in stored if e.type == "BuildingEnded")
        assert stored[ended.seq - 2].actor == ann.player_id                   # ann's finish was the last
        await client.close()
