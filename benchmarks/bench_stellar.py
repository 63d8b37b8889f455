"""Stellar Ventures: how fast a finished game replays (fold of its events) and how fast bots play one.

Prints figures only; never judges them. Finishes in well under a minute.
"""
from __future__ import annotations

import time

from starbase_rules.contract import fold
from starbase_rules.playout import playout
from stellar.game import GAME

PLAYERS = ["ann", "bob", "cy", "dee"]


def _best_of(repeats: int, work) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def _time_decide(seed: int) -> tuple[float, float, int]:
    """Time spent in decide and in legal_actions (the actor's) over the bots' commands of one game."""
    import random

    from starbase_rules.fair import FairRng
    rng, bots = FairRng(b"bench"), random.Random(seed)
    state = fold(GAME, GAME.setup(PLAYERS, {}, rng))
    spent, legal, count = 0.0, 0.0, 0
    while GAME.outcome(state) is None:
        actor = GAME.to_act(state)[0]
        started = time.perf_counter()
        GAME.legal_actions(state, actor)
        legal += time.perf_counter() - started
        command = GAME.bot_command(state, actor, bots)
        started = time.perf_counter()
        new = GAME.decide(state, command, actor, rng)
        spent += time.perf_counter() - started
        count += 1
        for event in new:
            state = GAME.evolve(state, event)
    return spent, legal, count


def main() -> None:
    started = time.perf_counter()
    game = playout(GAME, PLAYERS, seed=7, check=False)
    play_seconds = time.perf_counter() - started
    events = game.events
    stored = [e.model_dump() for e in events]
    print(f"finished 4-player game: {len(events)} events from {game.commands} commands")
    print(f"bot play (decide + evolve, no checks): {play_seconds * 1000:.0f} ms "
          f"= {game.commands / play_seconds:.0f} commands/s")
    kinds = [e.type for e in events]
    print(f"late game reached by the bots: {kinds.count('AgreementSigned')} signing(s), "
          f"{kinds.count('HostileTakeover')} takeover(s), {kinds.count('ShipOrdered')} ships ordered, "
          f"{kinds.count('ShipsScrapped')} scrapping event(s)")

    replay = _best_of(10, lambda: fold(GAME, events))
    print(f"replay (fold of typed events): {replay * 1000:.1f} ms = {len(events) / replay:,.0f} events/s")

    parse_replay = _best_of(5, lambda: fold(GAME, [GAME.parse_event(d) for d in stored]))
    print(f"replay from stored JSON-like dicts (parse + fold): {parse_replay * 1000:.1f} ms "
          f"= {len(events) / parse_replay:,.0f} events/s")

    decide_seconds, legal_seconds, decided = _time_decide(seed=9)
    print(f"decide alone (copy state, check, emit; bots' choices not timed): "
          f"{decide_seconds / decided * 1e6:.0f} µs per command over {decided} commands")
    print(f"legal_actions of the player to act: {legal_seconds / decided * 1e6:.0f} µs per call")

    state = fold(GAME, events)
    view = _best_of(20, lambda: GAME.view(state, "ann"))
    print(f"view of the final state: {view * 1e6:.0f} µs")

    started = time.perf_counter()
    checked = playout(GAME, PLAYERS, seed=8, check=True)
    print(f"checked playout (invariants after every event + refold): {time.perf_counter() - started:.2f} s "
          f"for {len(checked.events)} events")


if __name__ == "__main__":
    main()
