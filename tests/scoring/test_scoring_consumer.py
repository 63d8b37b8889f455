"""Scoring is idempotent on (stream, seq) and rebuilding from all events gives the same boards."""
import asyncio

import pytest
from redis.asyncio import Redis

from starbase_core.envelope import NewEvent
from starbase_core.gamestream import game_created, game_ended
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import Outcome, Standing

from scoring.consumer import ScoringConsumer
from scoring.durable import DurableScoring
from scoring.ledger import Ledger

pytestmark = pytest.mark.integration

GAMES = [  # (game id, engine, [(player, rank)])
    ("g1", "moon21", [("ann", 1), ("bob", 2), ("cy", 3)]),
    ("g2", "moon21", [("bob", 1), ("cy", 2), ("ann", 2)]),
    ("g3", "testjack", [("cy", 1), ("ann", 2)]),
    ("g4", "moon21", [("ann", 1), ("cy", 2), ("dan", 3)]),
]


async def play_into(store: MemoryEventStore) -> None:
    for game_id, engine, ranks in GAMES:
        players = [p for p, _ in ranks]
        await store.append(f"game.{game_id}", [game_created(engine, players, {}, "c" * 64, 0),
                                               NewEvent(type="SomethingHappened", data={"x": 1})], expected_seq=0)
        outcome = Outcome(standings=[Standing(player=p, rank=r, score=10 - r) for p, r in ranks])
        await store.append(f"game.{game_id}", [game_ended(outcome, b"seed", 0)], expected_seq=2)
        await store.append(f"table.{game_id}", [NewEvent(type="GameFinished", data={})], expected_seq=0)


async def snapshot(ledger: Ledger) -> dict:
    """Every key scoring wrote, with its content."""
    found = {}
    async for key in ledger.redis.scan_iter(match=f"{{{ledger.prefix}}}:*"):
        kind = await ledger.redis.type(key)
        found[key] = {
            "zset": lambda: ledger.redis.zrange(key, 0, -1, withscores=True),
            "hash": lambda: ledger.redis.hgetall(key),
            "list": lambda: ledger.redis.lrange(key, 0, -1),
            "set": lambda: ledger.redis.smembers(key),
            "string": lambda: ledger.redis.get(key),
        }[kind]()
        found[key] = await found[key]
    return found


async def run_until_scored(consumer: ScoringConsumer, count: int) -> None:
    task = asyncio.create_task(consumer.run())
    try:
        while len(await consumer.ledger.redis.smembers(consumer.ledger.key("done"))) < count:
            assert not task.done(), task
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.fixture
async def ledger(redis_url, namespace):
    redis = Redis.from_url(redis_url, decode_responses=True)
    yield Ledger(redis, f"scoring{namespace}")
    await redis.aclose()


async def test_boards_rank_players_by_conservative_rating_per_game_and_overall(ledger):
    store = MemoryEventStore()
    await play_into(store)
    await run_until_scored(ScoringConsumer(store, ledger), len(GAMES))

    overall = await ledger.leaderboard("all")
    moon = await ledger.leaderboard("moon21")
    assert [row["rank"] for row in overall] == [1, 2, 3, 4]
    assert {row["player"] for row in overall} == {"ann", "bob", "cy", "dan"}
    assert [row["ordinal"] for row in overall] == sorted((row["ordinal"] for row in overall), reverse=True)
    assert overall[-1]["player"] == "dan"          # one game, last place: the lowest conservative rating
    assert {r["player"]: r["games"] for r in moon} == {"ann": 3, "bob": 2, "cy": 3, "dan": 1}
    assert all(abs(r["ordinal"] - (r["mu"] - 3 * r["sigma"])) < 1e-9 for r in overall)
    assert await ledger.boards() == ["moon21", "testjack"]
    history = await ledger.history("cy")
    assert [h["game_id"] for h in history] == ["g1", "g2", "g3", "g4"]
    assert history[2]["rank"] == 1 and history[2]["rating_after"]["mu"] > history[2]["rating_before"]["mu"]
    assert (await ledger.result("g3"))["standings"][0] == {"player": "cy", "rank": 1, "score": 9.0}


async def test_an_event_seen_twice_is_scored_once(ledger):
    store = MemoryEventStore()
    await play_into(store)
    consumer = ScoringConsumer(store, ledger)
    await run_until_scored(consumer, len(GAMES))
    before = await snapshot(ledger)
    ended = (await store.read("game.g2"))[-1]
    assert await consumer.handle(ended) is False
    assert await snapshot(ledger) == before


async def test_rebuilding_from_all_events_gives_the_same_boards_histories_and_results(ledger):
    store = MemoryEventStore()
    await play_into(store)
    await run_until_scored(ScoringConsumer(store, ledger), len(GAMES))
    first = await snapshot(ledger)

    await ledger.reset()
    assert await snapshot(ledger) == {}
    await run_until_scored(ScoringConsumer(store, ledger), len(GAMES))
    assert await snapshot(ledger) == first


async def test_a_restarted_consumer_resumes_after_its_saved_position(ledger):
    store = MemoryEventStore()
    await play_into(store)
    await run_until_scored(ScoringConsumer(store, ledger), len(GAMES))
    saved = await ledger.position()
    assert saved > 0
    restarted = ScoringConsumer(store, ledger)
    task = asyncio.create_task(restarted.run())
    await asyncio.sleep(0)      # let it read its position
    while restarted.position < saved:
        await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert restarted.position == saved


async def run_durable_until_scored(durable: DurableScoring, count: int) -> None:
    task = asyncio.create_task(durable.run())
    try:
        while len(await durable.consumer.ledger.redis.smembers(durable.consumer.ledger.key("done"))) < count:
            assert not task.done(), task
            await asyncio.sleep(0.02)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_the_durable_jetstream_consumer_resumes_without_double_counting_and_rebuilds_the_same(
        nats_url, ledger, namespace):
    store = await JetStreamEventStore.connect(nats_url, name=f"SC{namespace}", subject_prefix=namespace)
    try:
        await play_into(store)
        await run_durable_until_scored(DurableScoring(store, ScoringConsumer(store, ledger), "sc"), len(GAMES))
        first = await snapshot(ledger)

        # The server kept the durable consumer's place: a restarted pod has nothing left to (re)score.
        info = await store._nc.jetstream().consumer_info(store.name, "sc")
        assert (info.num_pending, info.num_ack_pending, info.num_redelivered) == (0, 0, 0)

        # A rebuild drops the boards and the consumer's place, and replays every game to the same boards.
        rebuilt = DurableScoring(store, ScoringConsumer(store, ledger), "sc")
        await ledger.reset()
        await rebuilt.reset()
        await run_durable_until_scored(rebuilt, len(GAMES))
        assert await snapshot(ledger) == first
    finally:
        await store.close()


async def test_a_game_of_guests_only_is_recorded_and_scoring_goes_on(redis_url, namespace):
    """Nobody is rated when every seat is a guest; the next game must still be scored (an empty rating
    write used to fail in Redis and stop the consumer)."""
    store = MemoryEventStore()
    guests = {"guests": ["gx", "gy"]}
    await store.append("game.gg", [game_created("moon21", ["gx", "gy"], guests, "c" * 64, 0)], expected_seq=0)
    await store.append("game.gg", [game_ended(Outcome(standings=[Standing(player="gx", rank=1, score=2),
                                                                 Standing(player="gy", rank=2, score=1)]),
                                              b"seed", 0)], expected_seq=1)
    await play_into(store)
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        consumer = ScoringConsumer(store, Ledger(redis, f"scoring{namespace}"))
        await asyncio.wait_for(run_until_scored(consumer, 1 + len(GAMES)), 30)
        board = await consumer.ledger.leaderboard("all")
        assert {row["player"] for row in board} == {"ann", "bob", "cy", "dan"}
        assert await consumer.ledger.result("gg") is not None
    finally:
        await redis.aclose()
