"""Starting a table is two writes: GameStarted on the table, then the game. A lobby that dies between
them, or loses the adjudicator there (issue 14.2), leaves a playing table whose game is missing; the
next reader of the game, or the start retried, creates it (creation is idempotent), with the players
GameStarted fixed, and once."""
import grpc
import httpx
import pytest
from redis.asyncio import Redis

from adjudicator.service import Adjudicator
from lobby.app import create_app
from lobby.bootstrap import LobbyRuntime
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from tests.support.stack import ApiPlayer, stack_settings

pytestmark = pytest.mark.integration


def lost_on_the_way() -> grpc.aio.AioRpcError:
    """What the lobby gets when the adjudicator cannot be reached; its request stops there, as a lobby
    that died would (a crash proper leaves the same stores behind, and logs a slow traceback)."""
    return grpc.aio.AioRpcError(grpc.StatusCode.UNAVAILABLE, grpc.aio.Metadata(), grpc.aio.Metadata(),
                                "connection lost")


class DiesBeforeCreating:
    """The real adjudicator, reached in-process; while `dying`, CreateGame never arrives."""

    def __init__(self, adjudicator: Adjudicator):
        self.adjudicator, self.dying, self.creates = adjudicator, True, 0

    def __getattr__(self, name):
        return getattr(self.adjudicator, name)

    async def create_game(self, *args, **kwargs):
        if self.dying:
            self.dying = False
            raise lost_on_the_way()
        self.creates += 1
        return await self.adjudicator.create_game(*args, **kwargs)


@pytest.fixture
async def lobby(nats_url, redis_url, namespace):
    store = MemoryEventStore()
    adjudicator = DiesBeforeCreating(Adjudicator(store, MemorySeedVault()))
    # The game and table streams live in memory; accounts and personal data still need NATS.
    settings = stack_settings(nats_url, redis_url, namespace)
    runtime = LobbyRuntime(settings, store=store, redis=Redis.from_url(redis_url, decode_responses=True),
                           adjudicator=adjudicator)
    app = create_app(settings, runtime)
    await runtime.start()
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://lobby") as http:
            yield http, store, adjudicator
    finally:
        await runtime.stop()
        await runtime.redis.aclose()


async def crashed_start(http, store):
    """Two players at a table whose start died between its two writes: (players, table id)."""
    ann, bob = await ApiPlayer.register(http, "ann"), await ApiPlayer.register(http, "bob")
    table_id = (await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2})))["table_id"]
    await bob.ok(bob.post(f"/tables/{table_id}/join"))
    for player in (ann, bob):
        await player.ok(player.post(f"/tables/{table_id}/ready"))
    died = await ann.post(f"/tables/{table_id}/start")
    assert died.status_code == 503
    assert [e.type for e in await store.read(f"table.{table_id}")][-1] == "GameStarted"
    assert await store.last_seq(f"game.{table_id}") == 0          # the window: playing, and no game
    return (ann, bob), table_id


async def test_the_first_reader_of_a_started_table_without_its_game_creates_it(lobby):
    http, store, adjudicator = lobby
    (ann, bob), table_id = await crashed_start(http, store)

    view = await bob.ok(bob.get(f"/games/{table_id}/view"))

    assert view["players"] == [ann.player_id, bob.player_id]
    created = await store.read(f"game.{table_id}")
    assert created[0].type == "GameCreated" and created[0].data["players"] == view["players"]
    # Everyone after the first reader finds the game: it is created once.
    await ann.ok(ann.get(f"/games/{table_id}/view"))
    moved = await ann.ok(ann.post(f"/games/{table_id}/commands", {"command": {"type": "Think"}}))
    assert [e["type"] for e in moved["events"]] == ["CommandHadNoEffect"]
    assert [e.type for e in await store.read(f"game.{table_id}")].count("GameCreated") == 1
    assert adjudicator.creates == 1


async def test_a_start_retried_after_the_crash_completes_it_once(lobby):
    http, store, adjudicator = lobby
    (ann, bob), table_id = await crashed_start(http, store)

    started = await bob.ok(bob.post(f"/tables/{table_id}/start"))

    assert started["status"] == "playing" and started["game_id"] == table_id
    assert [e.type for e in await store.read(f"table.{table_id}")].count("GameStarted") == 1
    game = await store.read(f"game.{table_id}")
    assert game[0].data["players"] == [ann.player_id, bob.player_id]
    await ann.ok(ann.post(f"/tables/{table_id}/start"))             # and again: nothing more happens
    assert await store.read(f"game.{table_id}") == game
