"""Trucker rules engine: how fast a whole three-round game replays (fold of its events), how fast bots
play one through `decide`, and the cost of the hot building moves. Prints figures; judges nothing."""
from __future__ import annotations

import statistics
import time

from starbase_rules import FairRng, fold
from starbase_rules.playout import playout
from trucker_rules import messages as m
from trucker_rules.game import GAME

BUDGET_SECONDS = 20.0


def _games(players: int, count: int):
    return [playout(GAME, [f"bot{i}" for i in range(players)], seed, check=False) for seed in range(count)]


def bench_replay(games) -> None:
    events = [[GAME.parse_event(e.model_dump()) for e in g.events] for g in games]
    total_events = sum(len(e) for e in events)
    rounds, started = 0, time.perf_counter()
    while time.perf_counter() - started < BUDGET_SECONDS / 4:
        for stream in events:
            fold(GAME, stream)
        rounds += 1
    elapsed = time.perf_counter() - started
    print(f"replay: {rounds * len(events) / elapsed:,.0f} whole games/s "
          f"({rounds * total_events / elapsed:,.0f} events/s; {total_events / len(events):,.0f} events per game)")


def bench_playout(players: int) -> None:
    started, games, commands = time.perf_counter(), 0, 0
    while time.perf_counter() - started < BUDGET_SECONDS / 4 or games == 0:
        result = playout(GAME, [f"bot{i}" for i in range(players)], 100 + games, check=False)
        games, commands = games + 1, commands + result.commands
    elapsed = time.perf_counter() - started
    print(f"bot playout, {players} players: {games / elapsed:.2f} games/s, {commands / elapsed:,.0f} commands/s "
          f"(bots' own thinking included)")


def bench_building_moves() -> None:
    rng = FairRng(b"bench")
    state = fold(GAME, GAME.setup(["a", "b", "c", "d"], {}, rng))
    state = fold(GAME, GAME.decide(state, m.StartBuilding(at=0.0), "a", rng), state)
    timings = []
    for _ in range(60):
        began = time.perf_counter()
        grabbed = GAME.decide(state, m.GrabFaceDown(), "a", rng)
        state = fold(GAME, grabbed, state)
        returned = GAME.decide(state, m.ReturnComponent(), "a", rng)
        state = fold(GAME, returned, state)
        timings.append((time.perf_counter() - began) / 2)
    print(f"building move (decide + evolve): median {statistics.median(timings) * 1e6:.0f} µs")


def bench_legal_actions(game) -> None:
    """`legal_actions` (candidates kept by the engine's deciders) over the states of a bot game."""
    states, state = [], GAME.initial_state()
    for index, event in enumerate(game.events):
        state = GAME.evolve(state, event)
        if index % 7 == 0 and GAME.to_act(state):
            states.append((state.clone(), GAME.to_act(state)[0]))
    building = [(s, p) for s, p in states if s.phase == "building"]
    for name, sample in (("building", building), ("after building", [x for x in states if x not in building])):
        began, offered = time.perf_counter(), 0
        for st, player in sample:
            offered += len(GAME.legal_actions(st, player))
        elapsed = time.perf_counter() - began
        print(f"legal_actions, {name}: {1e3 * elapsed / max(1, len(sample)):.2f} ms per call "
              f"({offered / max(1, len(sample)):.0f} actions listed on average, {len(sample)} states)")


def main() -> None:
    games = _games(4, 4)
    bench_replay(games)
    bench_playout(2)
    bench_playout(4)
    bench_building_moves()
    bench_legal_actions(games[0])


if __name__ == "__main__":
    main()
