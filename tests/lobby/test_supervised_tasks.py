"""The lobby's background follows are supervised: when the store cuts them, /readyz says so, and once
the store answers again they resume where they were, so another replica's tables appear here."""
import asyncio

import httpx
import pytest
from redis.asyncio import Redis

from lobby.app import create_app
from lobby.bootstrap import LobbyRuntime
from lobby.config import LobbySettings
from starbase_core.servers import free_port
from starbase_core.store_memory import MemoryEventStore
from tests.support.faults import CuttableStore
from tests.support.stack import ApiPlayer

pytestmark = pytest.mark.integration


async def until(condition, timeout: float = 10.0) -> None:
    async def poll():
        while not await condition():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(poll(), timeout)


async def lobby(settings: LobbySettings, store, redis_url: str):
    runtime = LobbyRuntime(settings, store=store, redis=Redis.from_url(redis_url, decode_responses=True),
                           adjudicator=object())      # no game is started here
    app = create_app(settings, runtime)
    await runtime.start()
    return runtime, httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://lobby")


async def test_a_cut_follow_makes_the_lobby_not_ready_and_resumes_where_it_was(redis_url):
    memory = MemoryEventStore()
    here_store = CuttableStore(memory)
    settings = LobbySettings(redis_url=redis_url, lobby_secret="s", adjudicator_target=f"127.0.0.1:{free_port()}")
    here, here_http = await lobby(settings, here_store, redis_url)
    there, there_http = await lobby(settings, memory, redis_url)      # another replica, on the same store
    try:
        async def ready() -> bool:
            return (await here_http.get("/readyz")).status_code == 200

        async def not_ready() -> bool:
            return not await ready()

        await until(ready)
        ann = await ApiPlayer.register(there_http, "ann")
        first = await ann.ok(ann.post("/tables", {"game": "moon21", "seats": 3}))
        await until(lambda: _listed(here_http, first["table_id"]))

        here_store.cut()
        await ApiPlayer.register(there_http, "bob")                   # wakes the player follows: they fail
        during = await ann.ok(ann.post("/tables", {"game": "moon21", "seats": 2}))   # and the table follows
        await until(not_ready)
        assert not here.supervisor.healthy() and not here.feed.supervisor.healthy()
        assert not await _listed(here_http, during["table_id"])

        here_store.restore()
        await until(ready)
        await until(lambda: _listed(here_http, during["table_id"]))
        listed = (await here_http.get("/tables", params={"limit": 100})).json()["items"]
        assert [t["table_id"] for t in listed].count(first["table_id"]) == 1   # resumed, not replayed twice
        assert here.supervisor.tasks["project table.>"].restarts >= 1
    finally:
        for runtime, http in ((here, here_http), (there, there_http)):
            await http.aclose()
            await runtime.stop()
            await runtime.redis.aclose()


async def _listed(http: httpx.AsyncClient, table_id: str) -> bool:
    reply = await http.get("/tables", params={"limit": 100})
    return table_id in [t["table_id"] for t in reply.json()["items"]]
