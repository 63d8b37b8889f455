"""The rated policy: unrated tables, bot seats and abandoned games (docs/seats.md), on real Redis."""
import pytest
from redis.asyncio import Redis

from starbase_core.gamestream import game_created, game_ended
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import Outcome, Standing

from scoring.consumer import ScoringConsumer
from scoring.ledger import Ledger
from scoring.ratings import Rating

pytestmark = pytest.mark.integration


@pytest.fixture
async def scored(redis_url, namespace):
    """score(game_id, [(player, rank)], options, resigned) → the ledger after that game."""
    redis = Redis.from_url(redis_url, decode_responses=True)
    store = MemoryEventStore()
    ledger = Ledger(redis, f"scoring{namespace}")
    consumer = ScoringConsumer(store, ledger)

    async def score(game_id, ranks, options=None, resigned=None):
        players = [p for p, _ in ranks]
        await store.append(f"game.{game_id}", [game_created("moon21", players, options or {}, "c" * 64, 0)],
                           expected_seq=0)
        outcome = Outcome(standings=[Standing(player=p, rank=r, score=0) for p, r in ranks])
        [ended] = await store.append(f"game.{game_id}", [game_ended(outcome, b"seed", 0, resigned)], expected_seq=1)
        assert await consumer.handle(ended)
        return ledger

    yield score
    await redis.aclose()


async def board_of(ledger) -> dict[str, float]:
    return {row["player"]: row["mu"] for row in await ledger.leaderboard("all")}


async def test_an_unrated_table_changes_no_rating_but_is_recorded(scored):
    ledger = await scored("u", [("ann", 1), ("bob", 2)], {"rated": False})
    assert await board_of(ledger) == {}
    assert (await ledger.result("u"))["standings"][0]["player"] == "ann"
    assert (await ledger.history("ann"))[0]["rating_after"] is None


async def test_bot_seats_are_never_rated_and_the_people_are(scored):
    ledger = await scored("b", [("ann", 1), ("bot-b-1", 2), ("bob", 3)], {"bots": {"bot-b-1": "normal"}})
    board = await board_of(ledger)
    assert set(board) == {"ann", "bob"} and board["ann"] > board["bob"]
    assert await ledger.history("bot-b-1") == []


async def test_one_person_against_bots_changes_no_rating(scored):
    ledger = await scored("solo", [("ann", 1), ("bot-s-1", 2)], {"bots": {"bot-s-1": "strong"}})
    assert await board_of(ledger) == {"ann": Rating.initial().mu}      # counted as played, not moved


async def test_an_abandoned_game_counts_only_the_quitters_loss(scored):
    # ann gave her seat up; the bot that took it over then won: still her loss, and nobody else's change
    ledger = await scored("a", [("ann", 1), ("bob", 2), ("cyd", 3)], resigned=["ann"])
    board = await board_of(ledger)
    assert set(board) == {"ann"} and board["ann"] < Rating.initial().mu
    assert (await ledger.history("bob"))[0]["rating_after"] is None


async def test_a_two_player_resignation_lowers_the_resigner_only(scored):
    ledger = await scored("r", [("bob", 1), ("ann", 2)], resigned=["ann"])
    assert set(await board_of(ledger)) == {"ann"}
