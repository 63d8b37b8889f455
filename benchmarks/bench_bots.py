"""The bot worker's decision cost: what choosing one move costs it (`Tracker.move_for`: the seat's view,
its legal actions, the level's policy), per engine, p50/p99/max.

    python benchmarks/bench_bots.py

Engine-only games as in tests/bots/test_bots_in_every_game.py: seat p0 is the worker's bot, the others the
engines' own bots. Bounded: at most DECISIONS timed decisions and BUDGET seconds per engine.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "libs"), str(ROOT / "services")]

from bots.tracker import Tracker  # noqa: E402
from starbase_core.gamestream import GameRecord  # noqa: E402
from starbase_core.seats import SeatControl  # noqa: E402
from starbase_rules.contract import RuleViolation  # noqa: E402
from starbase_rules.fair import FairRng  # noqa: E402
from starbase_rules.registry import get_game  # noqa: E402

GAMES = [("moon21", 2, {}), ("t2038", 3, {}), ("stellar", 3, {}), ("trucker", 2, {})]
DECISIONS, BUDGET = 300, 20.0


def measure(name: str, seats: int, options: dict) -> list[float]:
    engine = get_game(name)
    players = [f"p{n}" for n in range(seats)]
    timings: list[float] = []
    started, game = time.monotonic(), 0
    while len(timings) < DECISIONS and time.monotonic() - started < BUDGET:
        record = GameRecord(game_id=f"{name}{game}", engine=engine, players=players, options={}, commitment="c",
                            state=engine.initial_state(), seats=SeatControl.opening(players, {"p0": "normal"}))
        rng, others = FairRng(f"bench-{name}-{game}".encode()), random.Random(game)
        for event in engine.setup(players, options, rng):
            record.state = engine.evolve(record.state, event)
        seq = 0
        while engine.outcome(record.state) is None and len(timings) < DECISIONS \
                and time.monotonic() - started < BUDGET:
            seq += 1
            record.last_seq = seq
            actor = others.choice(engine.to_act(record.state))
            realtime = getattr(engine, "realtime_service", lambda _: None)(record.state)
            if actor == "p0" and realtime is None:
                before = time.perf_counter()
                move = Tracker.move_for(record, "p0")
                timings.append(time.perf_counter() - before)
                command = engine.parse_command(move.command)
            else:
                command = engine.bot_command(record.state, actor, others)
            try:
                events = engine.decide(record.state, command, actor, rng)
            except RuleViolation:       # an engine's own bot refused (an engine bug): next game
                break
            for event in events:
                record.state = engine.evolve(record.state, event)
        game += 1
    return timings


def main() -> None:
    print(f"{'engine':10} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, seats, options in GAMES:
        timings = sorted(measure(name, seats, options))
        p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
        print(f"{name:10} {len(timings):9} {statistics.median(timings) * 1e3:8.1f} {p99 * 1e3:8.1f} "
              f"{timings[-1] * 1e3:8.1f}")


if __name__ == "__main__":
    main()
