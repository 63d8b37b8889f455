"""Engine-only games between seat policies, for bot strength tests and the bot tournament bench.

    outcome = play_match(game, {"a": level_seat(game, "strong"), "b": random_seat(game)}, seed=3)

A seat policy is `f(state, player, rnd) -> Command`: `random_seat` picks uniformly among the seat's legal
actions (the yardstick of issue 17), `level_seat` plays an engine's level bot (`bot_levels`,
`level_command`) on the seat's own state (`seat_state`: what the seat may not know replaced), or the
engine's own bot when it has no levels. Games are seeded (the same seed plays the same game) and bounded
by a command count; a game that reaches it returns None.
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable

from starbase_rules.contract import Command, Game, Outcome, RuleViolation
from starbase_rules.fair import FairRng

SeatPolicy = Callable[[Any, str, random.Random], Command]


def random_seat(game: Game, tries: int = 8) -> SeatPolicy:
    """Uniform among the legal actions; an entry the engine will not take as listed (a shape with
    parameters left out) is drawn again, up to `tries` draws, then the engine's own bot plays."""
    def choose(state: Any, player: str, rnd: random.Random) -> Command:
        actions = game.legal_actions(state, player)
        for _ in range(tries if actions else 0):
            try:
                command = game.parse_command(rnd.choice(actions))
                game.decide(state, command, player, FairRng(b"arena-trial"))
            except (RuleViolation, ValueError, TypeError):
                continue
            return command
        fallback = game.bot_command(state, player, rnd)
        if fallback is None:
            raise AssertionError(f"{game.name}: no move for {player}")
        return fallback
    return choose


def level_seat(game: Game, level: str) -> SeatPolicy:
    levels = getattr(game, "bot_levels", ())

    def choose(state: Any, player: str, rnd: random.Random) -> Command:
        if level in levels:
            own = game.seat_state(state, player)          # type: ignore[attr-defined]
            command = game.level_command(own, player, rnd, level)      # type: ignore[attr-defined]
        else:
            command = game.bot_command(state, player, rnd)
        if command is None:
            raise AssertionError(f"{game.name}: the {level} bot found no move for {player}")
        return command
    return choose


def play_match(game: Game, seats: dict[str, SeatPolicy], seed: int, options: dict | None = None,
               max_commands: int = 20_000) -> Outcome | None:
    """One game, seats in the given order (the engine may shuffle them); its outcome, or None if capped."""
    rng = FairRng(f"arena-{game.name}-{seed}".encode())
    rnd = random.Random(seed)
    state = game.initial_state()
    for event in game.setup(list(seats), options or {}, rng):
        state = game.evolve(state, event)
    for _ in range(max_commands):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome
        actor = rnd.choice(game.to_act(state))
        command = seats[actor](state, actor, rnd)
        for event in game.decide(state, command, actor, rng):
            state = game.evolve(state, event)
    return None


def state_after(game: Game, players: list[str], options: dict, commands: int, seed: int) -> Any:
    """The state after `commands` moves of the engine's own bot (the first seat to act each time):
    a position from the middle of a real game, for tests that compare choices on it."""
    rng, rnd = FairRng(f"levels-{seed}".encode()), random.Random(seed)
    state = game.initial_state()
    for event in game.setup(players, options, rng):
        state = game.evolve(state, event)
    for _ in range(commands):
        actor = game.to_act(state)[0]
        command = game.bot_command(state, actor, rnd)
        if command is None:
            raise ValueError(f"{actor} is to act but the engine's bot has no move")
        for event in game.decide(state, command, actor, rng):
            state = game.evolve(state, event)
    return state


def rotated(names: list[str], seed: int) -> list[str]:
    """Seat order rotated by the seed, so a series of games gives every seat every position."""
    k = seed % len(names)
    return names[k:] + names[:k]


def winner(outcome: Outcome | None) -> str | None:
    """The sole rank-1 player (None: a shared first place, or no end)."""
    if outcome is None:
        return None
    firsts = [s.player for s in outcome.standings if s.rank == 1]
    return firsts[0] if len(firsts) == 1 else None


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half
