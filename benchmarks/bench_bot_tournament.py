"""Bot tournament (issue 17): per engine and player count, each bot level's win rate against random seats
and against the level below, with 95 % intervals, mean scores, and the level's move time p50/p99.

    python benchmarks/bench_bot_tournament.py [games per pairing]
    python benchmarks/bench_bot_tournament.py 300 --engine moon21:3 --pairing strong:normal --first-seed 1000

One seat plays the level, the others random legal moves (`starbase_rules.arena.random_seat`) or the
level below; seats rotate with the seed. Bounded: GAMES per pairing, a command cap per game and a time
budget per pairing (`--budget`, seconds; a pairing cut short says how many games it played). An engine
without its own levels plays its one bot at every level, so only `normal` is listed for it. `--engine`
(name or name:players) and `--pairing` (level:other) pick rows, for runs long enough for the issue's 95 %
intervals. Prints figures; never fails on them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "libs")]

from starbase_rules.arena import level_seat, play_match, random_seat, rotated, wilson  # noqa: E402
from starbase_rules.registry import get_game  # noqa: E402

MAX_COMMANDS = 6000
ENGINES = [("moon21", 3, {}), ("moon21", 2, {}), ("t2038", 3, {"variant": "short"}),
           ("t2038", 2, {"variant": "short", "two_player": True}), ("stellar", 3, {}), ("trucker", 3, {}), ("trucker", 2, {})]
BELOW = {"strong": "normal", "normal": "easy"}


def timed(policy, timings: list[float]):
    def play(state, player, rnd):
        before = time.perf_counter()
        command = policy(state, player, rnd)
        timings.append(time.perf_counter() - before)
        return command
    return play


def pairing(game, seats: int, options: dict, level: str, other: str, seeds: range, deadline: float):
    timings: list[float] = []
    wins = played = 0
    scores: list[float] = []
    for seed in seeds:
        if time.monotonic() > deadline:
            break
        names = rotated(["bot"] + [f"o{n}" for n in range(1, seats)], seed)
        against = random_seat(game) if other == "random" else level_seat(game, other)
        policies = {n: timed(level_seat(game, level), timings) if n == "bot" else against for n in names}
        outcome = play_match(game, policies, seed, options, MAX_COMMANDS)
        if outcome is None:
            continue
        played += 1
        firsts = [s.player for s in outcome.standings if s.rank == 1]
        wins += firsts == ["bot"]
        scores += [s.score for s in outcome.standings if s.player == "bot"]
    return wins, played, scores, timings


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=12, help="games per pairing")
    parser.add_argument("--engine", action="append", default=[], help="name or name:players (repeatable)")
    parser.add_argument("--pairing", action="append", default=[], help="level:other, e.g. strong:random")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=25.0, help="seconds per pairing (a game under way ends)")
    return parser.parse_args()


def _picked(name: str, seats: int, wanted: list[str]) -> bool:
    return not wanted or name in wanted or f"{name}:{seats}" in wanted


def main() -> None:
    args = _arguments()
    seeds = range(args.first_seed, args.first_seed + args.games)
    print(f"{'engine':8} {'n':>2} {'level':7} {'vs':7} {'won':>7} {'rate':>5} {'95% interval':>13} "
          f"{'mean score':>10} {'p50 ms':>7} {'p99 ms':>7}")
    for name, seats, options in ENGINES:
        if not _picked(name, seats, args.engine):
            continue
        game = get_game(name)
        levels = [lv for lv in ("easy", "normal", "strong") if lv in getattr(game, "bot_levels", ())] or ["normal"]
        pairs = [(lv, "random") for lv in levels] + [(lv, BELOW[lv]) for lv in levels if BELOW.get(lv) in levels]
        for level, other in pairs:
            if args.pairing and f"{level}:{other}" not in args.pairing:
                continue
            deadline = time.monotonic() + args.budget
            wins, played, scores, timings = pairing(game, seats, options, level, other, seeds, deadline)
            low, high = wilson(wins, played)
            timings.sort()
            p50 = statistics.median(timings) * 1e3 if timings else 0.0
            p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1e3 if timings else 0.0
            mean = statistics.mean(scores) if scores else 0.0
            print(f"{name:8} {seats:2} {level:7} {other:7} {wins:3}/{played:<3} {wins / max(played, 1):5.2f} "
                  f"{low:6.2f}-{high:4.2f} {mean:10.0f} {p50:7.1f} {p99:7.1f}", flush=True)


if __name__ == "__main__":
    main()
