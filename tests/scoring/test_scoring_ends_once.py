"""Scoring asks the platform's one question, "does this envelope end the game?" (`gamestream.ends_game`):
an engine event that happens to be called GameEnded, even one carrying standings and a seed, is not the
end, so a game whose engine has such an event is scored once."""
import pytest
from redis.asyncio import Redis

from starbase_core.envelope import NewEvent
from starbase_core.gamestream import game_created, game_ended
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import Outcome, Standing

from scoring.consumer import ScoringConsumer
from scoring.ledger import Ledger

pytestmark = pytest.mark.integration


@pytest.fixture
async def ledger(redis_url, namespace):
    redis = Redis.from_url(redis_url, decode_responses=True)
    yield Ledger(redis, f"scoring{namespace}")
    await redis.aclose()


async def test_an_engine_event_called_game_ended_is_not_scored_the_platforms_is_once(ledger):
    store = MemoryEventStore()
    standings = [{"player": "ann", "rank": 1, "score": 9.0}, {"player": "bob", "rank": 2, "score": 4.0}]
    await store.append("game.g1", [
        game_created("testjack", ["ann", "bob"], {}, "c" * 64, 0),
        # An engine's own event of that name, shaped like the platform's: no `meta.platform`.
        NewEvent(type="GameEnded", data={"type": "GameEnded", "v": 1, "standings": standings, "seed": "00"}),
    ], expected_seq=0)
    outcome = Outcome(standings=[Standing(**s) for s in standings], reason="done")
    await store.append("game.g1", [game_ended(outcome, b"seed", 0)], expected_seq=2)
    engines, platforms = await store.read("game.g1", 2)

    consumer = ScoringConsumer(store, ledger)
    assert await consumer.handle(engines) is False
    assert await consumer.handle(platforms) is True
    assert await ledger.redis.smembers(ledger.key("done")) == {"game.g1#3"}
    assert [h["game_id"] for h in await ledger.history("ann")] == ["g1"]
