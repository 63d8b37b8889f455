"""An adjudicator that does not answer is a 503 with a stable code; the same call later completes."""
import httpx
import pytest
from redis.asyncio import Redis

from adjudicator.client import AdjudicatorClient
from adjudicator.server import start_grpc_server
from adjudicator.service import Adjudicator
from lobby.app import create_app
from lobby.bootstrap import LobbyRuntime
from tests.support.stack import ApiPlayer, stack_settings
from starbase_core.seeds import MemorySeedVault
from starbase_core.servers import free_port
from starbase_core.store_memory import MemoryEventStore

pytestmark = pytest.mark.integration


async def test_a_start_during_an_adjudicator_outage_is_a_503_and_a_retry_afterwards_starts_the_game(
        nats_url, redis_url, namespace):
    store, port = MemoryEventStore(), free_port()
    settings = stack_settings(nats_url, redis_url, namespace, adjudicator_target=f"127.0.0.1:{port}")
    runtime = LobbyRuntime(settings, store=store, redis=Redis.from_url(redis_url, decode_responses=True),
                           adjudicator=AdjudicatorClient(settings.adjudicator_target, timeout=0.5, retries=0))
    app = create_app(settings, runtime)
    await runtime.start()
    server = None
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://lobby") as http:
            ann = await ApiPlayer.register(http, "ann")
            table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 1}))
            await ann.ok(ann.post(f"/tables/{table['table_id']}/ready"))

            down = await ann.post(f"/tables/{table['table_id']}/start")
            assert (down.status_code, down.json()["error"]["code"]) == (503, "ADJUDICATOR_UNAVAILABLE")
            assert await store.last_seq(f"game.{table['table_id']}") == 0

            server, _ = await start_grpc_server(Adjudicator(store, MemorySeedVault()), port, "127.0.0.1")
            # A fresh channel, so the test does not wait on gRPC's reconnect backoff of the old one.
            await runtime.adjudicator.close()
            runtime.adjudicator = runtime.tables.adjudicator = runtime.games.adjudicator = \
                AdjudicatorClient(settings.adjudicator_target)
            started = await ann.ok(ann.post(f"/tables/{table['table_id']}/start"))
            view = await ann.ok(ann.get(f"/games/{started['game_id']}/view"))
            assert view["players"] == [ann.player_id]
            assert [e.type for e in await store.read(f"table.{table['table_id']}")].count("GameStarted") == 1
    finally:
        if server is not None:
            await server.stop(0)
        await runtime.stop()
        await runtime.adjudicator.close()
        await runtime.redis.aclose()
