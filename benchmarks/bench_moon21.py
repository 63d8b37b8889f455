"""21Moon benchmarks: replay speed of a finished 5-player game and best-run search on its late board.

Prints figures only; never fails on a timing. Run: `python benchmarks/bench_moon21.py`.
"""
from __future__ import annotations

import copy
from collections import Counter
import random
import time

from moon21 import board as bd
from moon21.game import GAME
from starbase_rules.contract import fold
from starbase_rules.fair import FairRng
from starbase_rules.playout import playout

PLAYERS = ["ann", "bob", "cy", "dan", "eve"]


def _heaviest_state(events):
    """Replay and keep the state where a corporation about to operate has the biggest transports (most
    stops to search), on the fullest map (the bots play to phase 10 with brown and gray tiles in most 5-player games)."""
    state, best, best_key = GAME.initial_state(), None, (0, 0)
    for event in events:
        state = GAME.evolve(state, event)
        if event.type == "OperatingTurnStarted":
            transports = state.corps[event.corp].transports
            key = (sum(transports["LB"]) + sum(transports["SP"]), len(state.board.tiles))   # stops to search
            if key[0] and key > best_key:
                best_key, best = key, (copy.deepcopy(state), event.corp)
    return best, best_key


def _decide_time(seed: int, legal_every: int = 4) -> tuple[float, float, int]:
    """Average `decide` time over the commands the bots play in the game of `seed` (same draws), and
    average `legal_actions` time on every `legal_every`-th position of that game (for its actor)."""
    rng = FairRng(f"playout-moon21-{seed}".encode())
    bots = random.Random(seed)
    state = fold(GAME, GAME.setup(PLAYERS, {}, rng))
    spent, commands, legal_spent, legal_calls = 0.0, 0, 0.0, 0
    while GAME.outcome(state) is None:
        actors = GAME.to_act(state)
        actor = actors[bots.randrange(len(actors))]
        if commands % legal_every == 0:
            t0 = time.perf_counter()
            GAME.legal_actions(state, actor)
            legal_spent += time.perf_counter() - t0
            legal_calls += 1
        command = GAME.bot_command(state, actor, bots)
        t0 = time.perf_counter()
        events = GAME.decide(state, command, actor, rng)
        spent += time.perf_counter() - t0
        commands += 1
        state = fold(GAME, events, state)
    return spent / commands, legal_spent / legal_calls, legal_calls


def main() -> None:
    started = time.perf_counter()
    game = playout(GAME, PLAYERS, seed=4, check=False)
    play_time = time.perf_counter() - started
    stored = [e.model_dump() for e in game.events]
    print(f"moon21 bot game (5 players): {game.commands} commands, {len(stored)} events, "
          f"played in {play_time:.2f} s ({game.outcome.reason})")

    rounds, replay_times = 5, []
    for _ in range(rounds):
        t0 = time.perf_counter()
        state = fold(GAME, [GAME.parse_event(d) for d in stored])
        replay_times.append(time.perf_counter() - t0)
    assert state == game.state
    best = min(replay_times)
    print(f"replay (parse + fold): {best * 1000:.1f} ms per whole game, {len(stored) / best:,.0f} events/s")
    t0 = time.perf_counter()
    fold(GAME, game.events)
    fold_only = time.perf_counter() - t0
    print(f"replay (fold only):    {fold_only * 1000:.1f} ms per whole game, {len(stored) / fold_only:,.0f} events/s")

    decide_s, legal_s, legal_calls = _decide_time(seed=4)
    print(f"decide: {decide_s * 1000:.3f} ms per command on average (the bots' commands of that game)")
    print(f"legal_actions: {legal_s * 1000:.2f} ms per call on average ({legal_calls} positions of that game)")

    heaviest, key = _heaviest_state(game.events)
    for seed in range(5, 16):          # more games, to meet a heavier late-game board
        if time.perf_counter() - started > 40:
            break
        other = playout(GAME, PLAYERS, seed=seed, check=False)
        candidate, candidate_key = _heaviest_state(other.events)
        if candidate is not None and candidate_key > key:
            heaviest, key = candidate, candidate_key
    if heaviest is None:
        print("route search: no corporation with transports in this game")
        return
    state, corp = heaviest
    c = state.corps[corp]
    transports = {b: list(c.transports[b]) for b in ("LB", "SP")}
    timings = []
    for i in range(5):
        if i == 0:
            for cache in (bd.graph._CACHE, bd.stops._CACHE, bd.search._CACHE, bd.search._PLANS):
                cache.clear()
        t0 = time.perf_counter()
        result = bd.best_turn_runs(state.board, corp, transports, sp_value=state.space_port_value, phase=state.phase)
        timings.append(time.perf_counter() - t0)
    colours = Counter(state.board.colour_at(h) for h in state.board.tiles)
    print(f"heaviest board met: {key[1]} tiles ({', '.join(f'{n} {c}' for c, n in colours.most_common())}), "
          f"phase {state.phase}, {corp} with transports {transports}")
    print(f"route search there: best ₡{result['revenue']} in {min(timings) * 1000:.1f} ms "
          f"(first call, nothing cached: {timings[0] * 1000:.1f} ms)")
    # the same board as if every corporation held four big transports (the worst a late game can ask)
    big = {"LB": [10, 6], "SP": [10, 5]}
    cold = []
    for other in bd.CORPORATIONS:
        for cache in (bd.graph._CACHE, bd.stops._CACHE, bd.search._CACHE, bd.search._PLANS):
            cache.clear()
        t0 = time.perf_counter()
        bd.best_turn_runs(state.board, other, big, sp_value=state.space_port_value, phase=state.phase)
        cold.append(time.perf_counter() - t0)
    print(f"route search there with {big} for each corporation, nothing cached: "
          f"max {max(cold) * 1000:.1f} ms, total {sum(cold) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
