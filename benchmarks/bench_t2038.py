"""2038 benchmarks: replay speed of a finished game, and how long a bot takes to fly a route late in a game.

Prints figures only; never fails on a timing.
"""
from __future__ import annotations

import random
import time

from starbase_rules.contract import fold
from starbase_rules.copying import copy_state
from starbase_rules.fair import FairRng
from starbase_rules.playout import playout
from t2038 import commands as cmd
from t2038.game import GAME

PLAYERS = ["ann", "bob", "cy", "dee"]


def replay_speed(events: list, rounds: int = 5) -> float:
    started = time.perf_counter()
    for _ in range(rounds):
        fold(GAME, events)
    return len(events) * rounds / (time.perf_counter() - started)


def late_operator_states(events: list, count: int = 8) -> list:
    """States just as each of the last `count` corporations with ships began operating (late boards)."""
    starts = [n for n, e in enumerate(events) if e.type == "OperatorStarted" and e.operator.startswith("c:")]
    found = []
    for index in reversed(starts):
        state = fold(GAME, events[: index + 1])
        if state.ships_of(state.operator):
            found.append(state)
        if len(found) == count:
            break
    return found


def route_choice_times(state, seed: int = 1) -> list[float]:
    """Seconds the bot spends choosing every step of each route of the operating corporation."""
    rng, bots = FairRng(b"bench-t2038"), random.Random(seed)
    player = GAME.to_act(state)[0]
    times = []
    while state.step == "routes":
        started = time.perf_counter()
        command = GAME.bot_command(state, player, bots)
        spent = time.perf_counter() - started
        if isinstance(command, cmd.DeclareEarnings):
            break
        if isinstance(command, cmd.StartRoute):
            times.append(0.0)
        times[-1] += spent
        for event in GAME.decide(state, command, player, rng):
            state = GAME.evolve(state, event)
    return times


def legal_action_times(state, seed: int = 2) -> tuple[list[float], list[int]]:
    """Seconds `legal_actions` takes (and how many commands it offers) at every step of one
    corporation's turn, routes and purchases, while a bot plays the turn out."""
    rng, bots = FairRng(b"bench-t2038-legal"), random.Random(seed)
    player = GAME.to_act(state)[0]
    operator, times, sizes = state.operator, [], []
    while state.operator == operator and player in GAME.to_act(state) and len(times) < 60:
        started = time.perf_counter()
        offered = GAME.legal_actions(state, player)
        times.append(time.perf_counter() - started)
        sizes.append(len(offered))
        for event in GAME.decide(state, GAME.bot_command(state, player, bots), player, rng):
            state = GAME.evolve(state, event)
    return times, sizes


def main() -> None:
    started = time.perf_counter()
    game = playout(GAME, PLAYERS, seed=7, check=False)
    print(f"t2038: bot game (4 players, seed 7): {len(game.events)} events, {game.commands} commands "
          f"in {time.perf_counter() - started:.2f} s")
    print(f"t2038: replay speed: {replay_speed(game.events):,.0f} events/s "
          f"({len(game.events)} events per game)")
    boards = late_operator_states(game.events)
    late = boards[0]
    explored = len(late.tiles)
    times = [t for board in boards for t in route_choice_times(copy_state(board))]   # evolve works in place
    if times:
        print(f"t2038: bot route choice on a late board ({explored} hexes explored, "
              f"{len(late.claims)} claims, phase {late.phase}): {len(times)} routes, "
              f"mean {1000 * sum(times) / len(times):.1f} ms, max {1000 * max(times):.1f} ms per route")
    measured = [legal_action_times(copy_state(board)) for board in boards[:4]]
    times = [t for spent, _ in measured for t in spent]
    sizes = [n for _, offered in measured for n in offered]
    if times:
        print(f"t2038: legal_actions on late boards: {len(times)} calls, mean {1000 * sum(times) / len(times):.1f} ms, "
              f"max {1000 * max(times):.1f} ms, {sum(sizes) / len(sizes):.0f} commands offered on average")


if __name__ == "__main__":
    main()
