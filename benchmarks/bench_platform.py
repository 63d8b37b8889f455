"""Platform figures: raw JetStream appends beside the event store's, and the adjudicator's replay rate.

    python benchmarks/bench_platform.py          # starts its own nats-server (fsync always) on loopback

- raw JetStream: `js.publish` of one envelope-sized message, one at a time (each waits for its ack, as
  a command does), then the same with 16 writers in parallel;
- the store: `append` of one event with a command id (index entry + expected-sequence publish + index
  confirm) and without one, sequential and 16 streams in parallel; the ratios store / raw;
- replay: a whole bot game of 21Moon (testjack if 21Moon is missing) played through the adjudicator,
  then rebuilt from the store by fresh replicas: events per second, split into reading and folding.
Each phase stops after its count or its time budget, whichever comes first; the whole run is ~1 minute.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.service import Adjudicator  # noqa: E402
from starbase_core.envelope import GENESIS_HASH, NewEvent, seal  # noqa: E402
from starbase_core.gamestream import replay  # noqa: E402
from starbase_core.seeds import MemorySeedVault  # noqa: E402
from starbase_core.servers import NatsServer  # noqa: E402
from starbase_core.store_jetstream import JetStreamEventStore  # noqa: E402
from starbase_rules.registry import get_game  # noqa: E402

APPENDS, BUDGET, WRITERS, ROUNDS = 1500, 6.0, 16, 3


EVENT = [NewEvent(type="SharesBought", actor="ann", meta={"draw_end": 12},
                  data={"player": "ann", "company": "ACME", "count": 2, "price": 67, "from": "bank"})]


def payload() -> bytes:
    """The very bytes the store publishes for EVENT, so raw and store move the same payload."""
    sealed = seal("game.bench", EVENT, last_seq=41, last_hash=GENESIS_HASH, command_id=uuid.uuid4().hex)
    return json.dumps([e.model_dump() for e in sealed], separators=(",", ":")).encode()


async def timed(label: str, operation, count: int = APPENDS, budget: float = BUDGET) -> float:
    """Run `operation(i)` one after another; print and return operations per second."""
    latencies, started = [], time.perf_counter()
    for i in range(count):
        t0 = time.perf_counter()
        await operation(i)
        latencies.append(time.perf_counter() - t0)
        if time.perf_counter() - started > budget:
            break
    elapsed = time.perf_counter() - started
    rate = len(latencies) / elapsed
    quantiles = statistics.quantiles(latencies, n=100)
    print(f"  {label:<44} {rate:8.0f} /s   p50 {quantiles[49] * 1e3:6.2f} ms   "
          f"p99 {quantiles[98] * 1e3:6.2f} ms   ({len(latencies)} in {elapsed:.1f} s)")
    return rate


async def parallel(label: str, operation, writers: int = WRITERS, budget: float = BUDGET) -> float:
    """`writers` tasks, each running `operation(writer, i)` in a loop until the budget is spent."""
    done, stop_at = [0], time.perf_counter() + budget

    async def writer(w: int) -> None:
        i = 0
        while time.perf_counter() < stop_at and i < APPENDS // writers * 2:
            await operation(w, i)
            i += 1
            done[0] += 1

    started = time.perf_counter()
    await asyncio.gather(*(writer(w) for w in range(writers)))
    rate = done[0] / (time.perf_counter() - started)
    print(f"  {label:<44} {rate:8.0f} /s   ({done[0]} appends, {writers} writers)")
    return rate


async def append_rates(store: JetStreamEventStore) -> None:
    """Raw and store appends in alternating rounds, so a busy neighbour on the machine weighs on both;
    the ratio is taken from the medians of the rounds."""
    js, body = store._js, payload()
    event = EVENT
    seqs = {"one": 0, "two": 0}

    async def store_append(stream: str, with_id: bool) -> None:
        seq = seqs[stream]
        await store.append(f"game.{stream}", event, expected_seq=seq,
                           command_id=f"c{seq}" if with_id else None)
        seqs[stream] = seq + 1

    rates: dict[str, list[float]] = {"raw": [], "id": [], "no id": []}
    for round_ in range(ROUNDS):
        print(f"appends, round {round_ + 1} (one event each, fsync before ack):")
        rates["raw"].append(await timed("raw JetStream publish",
                                        lambda i: js.publish(f"{store.prefix}.raw.one", body), APPENDS // ROUNDS))
        rates["id"].append(await timed("store.append with a command id",
                                       lambda i: store_append("one", True), APPENDS // ROUNDS))
        rates["no id"].append(await timed("store.append without a command id",
                                          lambda i: store_append("two", False), APPENDS // ROUNDS))
    raw = statistics.median(rates["raw"])
    print(f"  medians: raw {raw:.0f}/s, store {statistics.median(rates['id']):.0f}/s with a command id, "
          f"{statistics.median(rates['no id']):.0f}/s without")
    print(f"  ratio store/raw: {statistics.median(rates['id']) / raw:.2f} with a command id, "
          f"{statistics.median(rates['no id']) / raw:.2f} without")
    raw_parallel = await parallel("raw JetStream publish, parallel",
                                  lambda w, i: js.publish(f"{store.prefix}.raw.w{w}", body))
    store_parallel = await parallel(
        "store.append with a command id, parallel",
        lambda w, i: store.append(f"game.p{w}", event, expected_seq=i, command_id=f"p{w}-{i}"))
    print(f"  ratio store/raw in parallel: {store_parallel / raw_parallel:.2f}")


async def replay_rate(store: JetStreamEventStore) -> None:
    try:
        game = get_game("moon21").name
    except Exception:  # 21Moon not installed: fall back to the test engine
        from tests.support import testjack
        testjack.register()
        game = "testjack"
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("replayed", game, ["ann", "bob", "cyd"], {})
    bots, started, commands = random.Random(5), time.perf_counter(), 0
    while (record := await adjudicator.record("replayed")).ended is None and time.perf_counter() - started < 30:
        actor = record.engine.to_act(record.state)[0]
        command = record.engine.bot_command(record.state, actor, bots)
        await adjudicator.submit("replayed", actor, command.model_dump(mode="json"), uuid.uuid4().hex)
        commands += 1
    played = time.perf_counter() - started
    print(f"replay ({game}; {commands} commands played through the adjudicator in {played:.1f} s, "
          f"{commands / played:.0f} commands/s):")
    reads, folds, rounds, deadline = [], [], 0, time.perf_counter() + 8
    while rounds < 20 and time.perf_counter() < deadline:
        t0 = time.perf_counter()
        envelopes = await store.read("game.replayed")
        t1 = time.perf_counter()
        replay("replayed", envelopes, get_game)
        t2 = time.perf_counter()
        reads.append(t1 - t0)
        folds.append(t2 - t1)
        rounds += 1
    count = len(envelopes)
    read, fold = statistics.median(reads), statistics.median(folds)
    print(f"  {count} events rebuilt {rounds} times (medians): read {read * 1e3:.1f} ms, "
          f"fold {fold * 1e3:.1f} ms, total {(read + fold) * 1e3:.1f} ms")
    print(f"  replay rate: {count / (read + fold):8.0f} events/s from the store "
          f"({count / read:.0f}/s reading, {count / fold:.0f}/s folding)")
    fresh = Adjudicator(store, MemorySeedVault())
    t0 = time.perf_counter()
    await fresh.view("replayed", None)
    print(f"  a fresh replica's first view (rebuild + view): {(time.perf_counter() - t0) * 1e3:.1f} ms")


async def run(url: str) -> None:
    namespace = f"bench{uuid.uuid4().hex[:8]}"
    store = await JetStreamEventStore.connect(url, name=namespace.upper(), subject_prefix=namespace)
    try:
        await append_rates(store)
        await replay_rate(store)
    finally:
        for stream in (store.name, f"KV_{store.name}_commands"):
            await store._js.delete_stream(stream)
        await store.close()


def main() -> None:
    if url := os.environ.get("NATS_URL"):
        print(f"NATS at {url}")
        asyncio.run(run(url))
        return
    with NatsServer() as server:
        print(f"nats-server {server.url}, JetStream file store, sync_interval always (loopback)")
        asyncio.run(run(server.url))


if __name__ == "__main__":
    main()
