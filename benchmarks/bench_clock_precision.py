"""Clock precision with time banks: how late after `due_at` a time-out lands, with many running clocks.

    python benchmarks/bench_clock_precision.py [games]

`games` testjack tables (default 1000, at most 2000) with a Fischer bank each (2 to 5 s, spread so
the time-outs spread too) on an in-memory store and a real in-memory adjudicator; one clock (tick
0.05 s) follows them all; nobody acts. For each game's first time-out: its envelope's server time
minus the `due_at` the fold gives for that decision. Bounded: 60 s of waiting at most.
"""
from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.service import Adjudicator  # noqa: E402
from clock.service import DecisionClock  # noqa: E402
from clock.tracker import Tracker  # noqa: E402
from starbase_core.decisions import parse_time  # noqa: E402
from starbase_core.logging import configure_logging  # noqa: E402
from starbase_core.seeds import MemorySeedVault  # noqa: E402
from starbase_core.store_memory import MemoryEventStore  # noqa: E402

BUDGET, TICK = 60.0, 0.05


def register_testjack() -> None:
    from tests.support import testjack   # the platform's test game: two players, a default of Stand
    testjack.register()


async def first_timeout_lateness(store: MemoryEventStore, game_id: str) -> float | None:
    envelopes = await store.read(f"game.{game_id}")
    tracker = Tracker(0.0)
    for envelope in envelopes:
        if (envelope.command_id or "").startswith("clock:"):
            game = tracker.clocks[game_id]
            owed = game.owed[envelope.actor]
            return (parse_time(envelope.time) - game.due_at(owed)).total_seconds()
        tracker.observe(envelope)
    return None


async def run(games: int) -> None:
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    clock = DecisionClock(store, adjudicator.submit, Tracker(0.0), tick_seconds=TICK)
    running = asyncio.create_task(clock.run())
    started = time.perf_counter()
    for index in range(games):
        bank = 2.0 + (index % 100) * 0.03
        await adjudicator.create_game(f"p{index}", "testjack", ["ann", "bob"], {"bank_seconds": bank})
    created = time.perf_counter() - started
    lateness: list[float] = []
    while time.perf_counter() - started < BUDGET:
        await asyncio.sleep(1.0)
        found = [await first_timeout_lateness(store, f"p{index}") for index in range(games)]
        lateness = [late for late in found if late is not None]
        if len(lateness) == games:
            break
    running.cancel()
    await asyncio.gather(running, return_exceptions=True)
    lateness.sort()
    print(f"{games} games with a time bank, one clock (tick {TICK} s), created in {created:.1f} s:")
    if not lateness:
        print("  no time-out landed within the budget")
        return
    p99 = lateness[min(len(lateness) - 1, int(len(lateness) * 0.99))]
    print(f"  {len(lateness)} first time-outs; late after due_at: p50 {statistics.median(lateness) * 1e3:.0f} ms, "
          f"p99 {p99 * 1e3:.0f} ms, max {lateness[-1] * 1e3:.0f} ms, min {lateness[0] * 1e3:.0f} ms")


def main() -> None:
    games = min(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, 2000)
    configure_logging("bench_clock_precision", "warning", json=False)
    register_testjack()
    asyncio.run(run(games))


if __name__ == "__main__":
    main()
