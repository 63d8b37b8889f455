"""A generic client plays Trucker through the services by picking uniformly among `legal_actions`.

Given a game created by the adjudicator (seed in the shared vault) and the real-time service, when a
client that knows nothing of Trucker plays it for a bounded time — each move one of the engine's
`legal_actions` for some player, chosen at random, sent as the engine's command over the player's
WebSocket while a round is building and to the adjudicator otherwise — then:
- the service acknowledges every listed building move (the only refusals: the hourglass listed at the
  moment its sand runs out, refused while the service's clock is short of it, and TIME_UP once the sand
  has run out on START);
- after every building move the warehouse equals the fold of the stream and every invariant holds;
- every command in the stream re-runs through the rules engine to the same events (the audit's check),
  and a finished game passes `starbase audit`.
"""
from __future__ import annotations

import random
import time
import uuid

import pytest
from redis.asyncio import Redis

from adjudicator.service import Adjudicator
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import ends_game
from starbase_rules.registry import get_game
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING

from trucker.relay import Relay
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse

from tests.trucker_service.helpers import FoldedStream, assert_reruns_through_the_rules, check_invariants
from tests.trucker_service.live import Client

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

PLAY_SECONDS = 30


async def test_random_legal_moves_through_the_services_are_all_accepted_and_keep_every_invariant(
        live, jetstream_store, vault, redis_url):
    redis = Redis.from_url(redis_url, decode_responses=True)
    warehouse = RedisWarehouse(redis)
    checker = TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store), vault)
    adjudicator = Adjudicator(jetstream_store, vault)
    rnd, deadline = random.Random(23), time.monotonic() + PLAY_SECONDS
    sent, acked, finished = 0, set(), 0
    for count in (2, 3, 4) * 10:
        if time.monotonic() >= deadline:
            break
        moves, chosen, over = await _play(live, adjudicator, checker, vault, count, rnd, deadline)
        sent, acked, finished = sent + moves, acked | chosen, finished + over
    assert finished >= 1 and sent > 50
    assert {"GrabFaceDown", "PlaceComponent", "ReturnComponent", "Finish", "LookAtPile"} <= acked
    await redis.aclose()


async def _play(live, adjudicator, checker, vault, count: int, rnd: random.Random, deadline: float):
    """One game played by the generic client until it ends or the time is up: (moves sent, kinds of
    building moves acknowledged, whether it ended)."""
    players = ["ann", "bob", "cy", "dee"][:count]
    game = f"r{uuid.uuid4().hex[:10]}"
    store = checker.store
    await adjudicator.create_game(game, "trucker", players, {"hourglass_seconds": 2})
    sockets = {p: await Client.connect(live, game, p) for p in players}   # a player arriving opens round 1
    stream, sent, acked = FoldedStream(store, game), 0, set()
    while time.monotonic() < deadline:
        state = (await stream.catch_up()).state
        if stream.envelopes and ends_game(stream.envelopes[-1]):
            break
        offered = {p: GAME.legal_actions(state, p) for p in players}
        owing = [p for p in GAME.to_act(state) if offered[p]]
        movers = owing if owing and rnd.random() > 0.05 else [p for p in players if offered[p]]
        assert movers, f"nobody may act in {state.phase} and the game is not over"
        player = rnd.choice(movers)
        action = rnd.choice(offered[player])
        sent += 1
        if state.phase == BUILDING:
            answer = await sockets[player].send_command(action)
            if answer["kind"] == "ack":
                acked.add(action["type"])
                await check_invariants(checker, game)
            else:   # listed at the moment its sand runs out; the service's clock may not be there yet
                timer_early = action["type"] == "TurnTimer" and answer["error"]["code"] == "SAND_STILL_RUNNING"
                assert timer_early or answer["error"]["code"] == "TIME_UP", (action, answer)
        else:
            await adjudicator.submit(game, player, action, f"random-{sent}")   # raises if refused
    await stream.catch_up()
    envelopes = stream.envelopes
    over = ends_game(envelopes[-1])
    if over:
        assert audit_game(game, envelopes, get_game).verdict == PASS
    else:
        assert_reruns_through_the_rules(envelopes, await vault.get(game))
    for client in sockets.values():
        await client.close()
    return sent, acked, over
