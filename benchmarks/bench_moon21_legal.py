"""21Moon `legal_actions` (what `GET /actions`, every client and the bots ask), side by side with the
straightforward computation it replaced, on the positions of bot games (prints figures, never fails).

Per position, interleaved so both meet the same machine load, each from cold board caches (a service
process meets most positions for the first time):
- before: every candidate put to the decision on its own copy of the state (the engine base's `Tx`);
- now, first ask: the same candidates probed without a copy (`moon21.probe`), tile lays settled at
  their first event;
- now, asked again: the answer kept for that position.
Three bot games (seeds 4, 5, 6), every 2nd position; min / median / max over the games of each mean.
Bounded: stops after 90 s.
"""
from __future__ import annotations

import copy
import random
import statistics
import time

from moon21 import board as bd
from moon21 import legal
from moon21.game import GAME
from starbase_rules.contract import fold
from starbase_rules.fair import FairRng

PLAYERS = ["ann", "bob", "cy", "dan", "eve"]
SEEDS = (4, 5, 6)
LIMIT_SECONDS = 90


def _clear_board_caches() -> None:
    for cache in (bd.graph._CACHE, bd.stops._CACHE, bd.search._CACHE, bd.search._PLANS, bd.reach._CACHE):
        cache.clear()


def _copying_accepts(state, command, actor, rng=None) -> None:
    """The check as it was: precheck, then the decider on a copy of the whole state."""
    GAME.precheck(state, command, actor)
    GAME.rules.decider(command)(GAME.tx(state), command, actor)


def _positions(seed: int, every: int = 2):
    rng, bots = FairRng(f"playout-moon21-{seed}".encode()), random.Random(seed)
    state = fold(GAME, GAME.setup(PLAYERS, {}, rng))
    index = 0
    while GAME.outcome(state) is None:
        actors = GAME.to_act(state)
        actor = actors[bots.randrange(len(actors))]
        if index % every == 0:
            yield copy.deepcopy(state), actor
        command = GAME.bot_command(state, actor, bots)
        state = fold(GAME, GAME.decide(state, command, actor, rng), state)
        index += 1


def _timed(call) -> tuple[float, object]:
    t0 = time.perf_counter()
    result = call()
    return time.perf_counter() - t0, result


def main() -> None:
    started = time.perf_counter()
    means: dict[str, list[float]] = {"before": [], "first": [], "again": []}
    worst: dict[str, float] = {"before": 0.0, "first": 0.0, "again": 0.0}
    for seed in SEEDS:
        if time.perf_counter() - started > LIMIT_SECONDS:
            break
        spent: dict[str, list[float]] = {"before": [], "first": [], "again": []}
        for state, actor in _positions(seed):
            _clear_board_caches()
            before, old = _timed(lambda: legal.computed_legal_actions(state, actor, _copying_accepts))
            _clear_board_caches()
            legal._ANSWERS.clear()
            first, new = _timed(lambda: GAME.legal_actions(state, actor))
            again, kept = _timed(lambda: GAME.legal_actions(state, actor))
            assert old == new == kept, "the fast path must give the old answers"
            for name, value in (("before", before), ("first", first), ("again", again)):
                spent[name].append(value)
                worst[name] = max(worst[name], value)
        for name, values in spent.items():
            means[name].append(statistics.mean(values))
        print(f"seed {seed}: {len(spent['before'])} positions; mean ms before {1000 * means['before'][-1]:.2f}, "
              f"now first ask {1000 * means['first'][-1]:.2f}, asked again {1000 * means['again'][-1]:.3f}", flush=True)
    for name, label in (("before", "before (copy per candidate)"), ("first", "now, first ask"),
                        ("again", "now, asked again")):
        m = means[name]
        print(f"legal_actions {label}: mean ms per call min/median/max over games "
              f"{1000 * min(m):.2f}/{1000 * statistics.median(m):.2f}/{1000 * max(m):.2f}; "
              f"slowest call {1000 * worst[name]:.1f} ms")
    ratios = [b / f for b, f in zip(means["before"], means["first"])]
    print(f"legal_actions speed-up, first ask / before: min/median/max {min(ratios):.2f}/"
          f"{statistics.median(ratios):.2f}/{max(ratios):.2f}x (cold board caches both)")


if __name__ == "__main__":
    main()
