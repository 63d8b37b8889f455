"""The lobby's background follows are supervised: when the store cuts them, /readyz says so, and once
the store answers again they resume where they were, so another replica's tables appear here.

The stack's lobby is the other replica; this one runs beside it on the same store (real NATS), through
a shim that can cut its follows (`tests.support.faults.CuttableStore`).
"""
import asyncio

import httpx
import pytest
from redis.asyncio import Redis

from lobby.app import create_app
from lobby.bootstrap import LobbyRuntime
from starbase_core.store_jetstream import JetStreamEventStore
from tests.support.faults import CuttableStore
from tests.support.stack import ApiPlayer

pytestmark = pytest.mark.integration


async def until(condition, timeout: float = 15.0) -> None:
    async def poll():
        while not await condition():
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), timeout)


async def test_a_cut_follow_makes_the_lobby_not_ready_and_resumes_where_it_was(stack, http):
    settings = stack.settings
    store = CuttableStore(await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                                            subject_prefix=settings.event_subject_prefix))
    here = LobbyRuntime(settings, store=store, adjudicator=stack.runtime.adjudicator,
                        redis=Redis.from_url(settings.redis_url, decode_responses=True))
    app = create_app(settings, here)
    await here.start()
    here_http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://lobby")
    try:
        async def ready() -> bool:
            return (await here_http.get("/readyz")).status_code == 200

        async def not_ready() -> bool:
            return not await ready()

        await until(ready)
        ann = await ApiPlayer.register(http, "ann")                 # on the other replica
        first = await ann.ok(ann.post("/tables", {"game": "moon21", "seats": 3}))
        await until(lambda: _listed(here_http, first["table_id"]))

        store.cut()
        during = await ann.ok(ann.post("/tables", {"game": "moon21", "seats": 2}))   # the follows meet the cut
        await until(not_ready)
        assert not here.supervisor.healthy() and not here.feed.supervisor.healthy()
        assert not await _listed(here_http, during["table_id"])

        store.restore()
        await until(ready)
        await until(lambda: _listed(here_http, during["table_id"]))
        listed = (await here_http.get("/tables", params={"limit": 100})).json()["items"]
        assert [t["table_id"] for t in listed].count(first["table_id"]) == 1   # resumed, not replayed twice
        assert here.supervisor.tasks["project table.>"].restarts >= 1
    finally:
        await here_http.aclose()
        await here.stop()
        await here.redis.aclose()
        await store.inner.close()


async def _listed(http: httpx.AsyncClient, table_id: str) -> bool:
    reply = await http.get("/tables", params={"limit": 100})
    return table_id in [t["table_id"] for t in reply.json()["items"]]
