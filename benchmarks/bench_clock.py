"""Decision clock figures (in memory, no network): what following games and timing them costs.

    python benchmarks/bench_clock.py

- folding: a 21Moon bot game played to the end, folded by the clock's tracker (which asks the engine
  `to_act` after every envelope) beside a plain replay of the same stream;
- timing: many unfinished tables at once, all due: the cost of one `due(now)` scan, and the defaults
  applied per second through a real in-memory adjudicator.
Bounded: every phase has a count and a time budget; the whole run takes well under a minute.
"""
from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.service import Adjudicator  # noqa: E402
from clock.decision import parse_time  # noqa: E402
from clock.service import DecisionClock  # noqa: E402
from clock.tracker import Tracker  # noqa: E402
from starbase_core.gamestream import replay  # noqa: E402
from starbase_core.logging import configure_logging  # noqa: E402
from starbase_core.seeds import MemorySeedVault  # noqa: E402
from starbase_core.store_memory import MemoryEventStore  # noqa: E402
from starbase_rules.registry import get_game  # noqa: E402

GAME, PLAYERS, TABLES, BUDGET = "moon21", ["ann", "bob", "cyd"], 300, 20.0


async def fold_rate(adjudicator: Adjudicator, store: MemoryEventStore) -> None:
    await adjudicator.create_game("played", GAME, PLAYERS, {"decision_seconds": 60})
    bots, started = random.Random(7), time.perf_counter()
    while (record := await adjudicator.record("played")).ended is None and time.perf_counter() - started < BUDGET:
        actor = record.engine.to_act(record.state)[0]
        command = record.engine.bot_command(record.state, actor, bots)
        await adjudicator.submit("played", actor, command.model_dump(mode="json"), uuid.uuid4().hex)
    envelopes = await store.read("game.played")
    tracked, plain = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        tracker = Tracker(0.0)
        for envelope in envelopes:
            tracker.observe(envelope)
        t1 = time.perf_counter()
        replay("played", envelopes, get_game)
        t2 = time.perf_counter()
        tracked.append(t1 - t0)
        plain.append(t2 - t1)
    clocked, replayed = statistics.median(tracked), statistics.median(plain)
    print(f"folding a whole {GAME} game ({len(envelopes)} envelopes, medians of 5):")
    print(f"  clock tracker {len(envelopes) / clocked:9.0f} envelopes/s ({clocked * 1e3:.1f} ms)")
    print(f"  plain replay  {len(envelopes) / replayed:9.0f} envelopes/s ({replayed * 1e3:.1f} ms); "
          f"ratio {clocked / replayed:.2f}")


async def timing_rate(adjudicator: Adjudicator, store: MemoryEventStore) -> None:
    started = time.perf_counter()
    created = 0
    while created < TABLES and time.perf_counter() - started < BUDGET:
        await adjudicator.create_game(f"t{created}", GAME, PLAYERS, {"decision_seconds": 60})
        created += 1
    clock = DecisionClock(store, adjudicator.submit, Tracker(0.0))
    last = None
    for index in range(created):
        for envelope in await store.read(f"game.t{index}"):
            clock.tracker.observe(envelope)
            last = envelope
    now = parse_time(last.time) + timedelta(seconds=61)
    t0 = time.perf_counter()
    due = clock.tracker.due(now)
    scan = time.perf_counter() - t0
    clock.now = lambda: now
    t0 = time.perf_counter()
    applied = await clock.tick()
    took = time.perf_counter() - t0
    print(f"{created} unfinished {GAME} tables, every first player absent:")
    print(f"  due(now) scan: {scan * 1e3:.1f} ms for {len(due)} due decisions "
          f"({scan / max(created, 1) * 1e6:.0f} µs per table)")
    print(f"  {applied} defaults applied through an in-memory adjudicator in {took:.2f} s "
          f"({applied / took:.0f} defaults/s)")


async def run() -> None:
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await fold_rate(adjudicator, store)
    await timing_rate(adjudicator, store)


def main() -> None:
    configure_logging("bench_clock", "warning", json=False)   # not a line per game and per default
    asyncio.run(run())


if __name__ == "__main__":
    main()
