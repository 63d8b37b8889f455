"""Scoring survives its dependencies: Redis restarting, Redis forgetting everything, a killed process.

`python -m scoring`'s own `serve` runs here on real NATS and a Redis of the test's own (so the test
can stop, restart and wipe it); the games are appended straight to the store.
"""
import asyncio

import httpx
import pytest
from redis.asyncio import Redis

from starbase_core.envelope import NewEvent
from starbase_core.gamestream import game_created, game_ended
from starbase_core.servers import RedisServer, free_port
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.contract import Outcome, Standing

from scoring.__main__ import serve
from scoring.config import ScoringSettings
from scoring.consumer import ScoringConsumer
from scoring.durable import DurableScoring
from scoring.ledger import Ledger

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


async def end_game(store, game_id: str, ranks: list[tuple[str, int]]) -> None:
    players = [p for p, _ in ranks]
    await store.append(f"game.{game_id}", [game_created("moon21", players, {}, "c" * 64, 0)], expected_seq=0)
    outcome = Outcome(standings=[Standing(player=p, rank=r, score=10 - r) for p, r in ranks])
    await store.append(f"game.{game_id}", [game_ended(outcome, b"seed", 0)], expected_seq=1)


async def until(condition, timeout: float, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.05)


class Scoring:
    """The scoring service (`serve`) in this loop, with its health port and its ledger."""

    def __init__(self, nats_url: str, redis_url: str, namespace: str):
        self.settings = ScoringSettings(
            nats_url=nats_url, redis_url=redis_url, event_stream=f"SR{namespace}", event_subject_prefix=namespace,
            scoring_prefix=f"sc{namespace}", scoring_durable="sc", scoring_health_host="127.0.0.1",
            scoring_health_port=free_port(), log_json=False, log_level="warning")
        self.redis = Redis.from_url(redis_url, decode_responses=True)
        self.ledger = Ledger(self.redis, self.settings.scoring_prefix)
        self.stop = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def __aenter__(self):
        self.task = asyncio.create_task(serve(self.settings, self.stop))
        return self

    async def __aexit__(self, *exc_info):
        self.stop.set()
        await self.task
        await self.redis.aclose()

    async def scored(self) -> set[str]:
        return {member.split("#")[0].split(".", 1)[1] for member in await self.redis.smembers(self.ledger.key("done"))}

    async def ready(self) -> bool:
        async with httpx.AsyncClient() as client:
            try:
                reply = await client.get(f"http://127.0.0.1:{self.settings.scoring_health_port}/readyz")
            except httpx.HTTPError:
                return False
        return reply.status_code == 200


@pytest.fixture
async def store(nats_url, namespace):
    store = await JetStreamEventStore.connect(nats_url, name=f"SR{namespace}", subject_prefix=namespace)
    yield store
    await store._nc.jetstream().delete_stream(store.name)
    await store.close()


async def test_scoring_goes_on_by_itself_after_redis_was_down_and_says_not_ready_meanwhile(
        nats_url, namespace, store, tmp_path):
    redis_server = RedisServer(workdir=tmp_path / "redis", persist=True).start()
    try:
        async with Scoring(nats_url, redis_server.url, namespace) as scoring:
            await end_game(store, "g1", [("ann", 1), ("bob", 2)])
            await until(lambda: _has(scoring, {"g1"}), 30, "g1 scored")
            await until(scoring.ready, 10, "ready")

            redis_server.stop()                     # Redis goes away while a game ends
            await end_game(store, "g2", [("bob", 1), ("ann", 2)])
            await until(lambda: _not(scoring.ready), 15, "not ready while Redis is down")
            await asyncio.sleep(1.0)                # the consumer meets the dead Redis meanwhile
            redis_server.start()                    # back, with its append-only file

            await until(lambda: _has(scoring, {"g1", "g2"}), 30, "g2 scored after Redis came back")
            await until(scoring.ready, 15, "ready again")
            await end_game(store, "g3", [("ann", 1), ("bob", 2)])
            await until(lambda: _has(scoring, {"g1", "g2", "g3"}), 30, "g3 scored")
            assert [h["game_id"] for h in await scoring.ledger.history("ann")] == ["g1", "g2", "g3"]
    finally:
        redis_server.stop()


async def test_scoring_rebuilds_by_itself_when_redis_comes_back_empty(nats_url, namespace, store, tmp_path):
    redis_server = RedisServer(workdir=tmp_path / "redis", persist=False).start()
    try:
        async with Scoring(nats_url, redis_server.url, namespace) as scoring:
            for index in range(3):
                await end_game(store, f"g{index}", [("ann", 1 + index % 2), ("bob", 2 - index % 2), ("cy", 3)])
            await until(lambda: _has(scoring, {"g0", "g1", "g2"}), 30, "three games scored")
            board_before = await scoring.ledger.leaderboard()

            redis_server.stop()
            redis_server.start()                    # no file: it comes back with nothing

            await until(lambda: _has(scoring, {"g0", "g1", "g2"}), 30, "rebuilt without anyone asking")
            assert await scoring.ledger.leaderboard() == board_before      # same order, same ratings
            await end_game(store, "g3", [("cy", 1), ("ann", 2)])
            await until(lambda: _has(scoring, {"g0", "g1", "g2", "g3"}), 30, "a new game scored after")
            for player, games in (("ann", ["g0", "g1", "g2", "g3"]), ("cy", ["g0", "g1", "g2", "g3"])):
                assert [h["game_id"] for h in await scoring.ledger.history(player)] == games   # each once
    finally:
        redis_server.stop()


async def test_a_batch_fetched_by_a_killed_scoring_process_is_scored_within_seconds(
        nats_url, redis_url, namespace, store):
    ledger = Ledger(Redis.from_url(redis_url, decode_responses=True), f"sc{namespace}")
    first = DurableScoring(store, ScoringConsumer(store, ledger), "sc")
    task = asyncio.create_task(first.run())        # makes the durable consumer, then finds nothing to do
    await until(lambda: _consumer_exists(store), 10, "the consumer exists")
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)

    await end_game(store, "g1", [("ann", 1), ("bob", 2)])
    # A scoring process fetches the batch and is SIGKILLed before acknowledging it.
    doomed = await JetStreamEventStore.connect(nats_url, name=store.name, subject_prefix=namespace, ensure=False)
    subscription = await doomed._nc.jetstream().pull_subscribe_bind(durable="sc", stream=store.name)
    assert len(await subscription.fetch(10, timeout=5)) == 2
    await doomed._nc.close()

    second = DurableScoring(store, ScoringConsumer(store, ledger), "sc")
    task = asyncio.create_task(second.run())
    try:
        # Before: the server held the batch for its 60 s ack wait. Now it comes back within seconds.
        await until(lambda: _scored(ledger, "g1"), 20, "the killed process's batch scored")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await ledger.redis.aclose()


async def _has(scoring: Scoring, games: set[str]) -> bool:
    try:
        return games <= await scoring.scored()
    except Exception:       # Redis is down in the middle of these tests
        return False


async def _not(check) -> bool:
    return not await check()


async def _consumer_exists(store) -> bool:
    try:
        await store._nc.jetstream().consumer_info(store.name, "sc")
        return True
    except Exception:
        return False


async def _scored(ledger: Ledger, game_id: str) -> bool:
    return await ledger.result(game_id) is not None


async def test_the_lag_gauge_counts_down_what_scoring_has_not_yet_fetched_and_reads_zero_once_idle(
        redis_url, namespace, store, monkeypatch):
    from scoring import durable

    for n in range(30):                                  # 60 store messages waiting before scoring starts
        await end_game(store, f"lag{n}", [("ann", 1), ("bob", 2)])
    monkeypatch.setattr(durable, "BATCH", 10)
    monkeypatch.setattr(durable, "FETCH_TIMEOUT", 0.5)
    ledger = Ledger(Redis.from_url(redis_url, decode_responses=True), f"sc{namespace}")
    scoring = DurableScoring(store, ScoringConsumer(store, ledger), "sc")
    seen: list[float] = []
    handle = scoring._handle_batch

    async def noting_the_lag(messages):                  # the gauge as each batch starts
        seen.append(durable.LAG._value.get())
        await handle(messages)

    scoring._handle_batch = noting_the_lag
    task = asyncio.create_task(scoring.run())
    try:
        await until(lambda: _scored(ledger, "lag29"), 30, "every game scored")
        await until(lambda: _zero(durable.LAG), 10, "the lag back to zero once idle")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await ledger.redis.aclose()
    assert seen[0] == 60 - 10                            # the first batch of 10 left 50 behind
    assert seen == sorted(seen, reverse=True) and seen[-1] == 0


async def _zero(gauge) -> bool:
    return gauge._value.get() == 0
