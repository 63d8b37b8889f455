"""Whole games played by bots through an engine alone: for `starbase play`, tests and benchmarks.

`playout` checks the engine's invariants after every event and, at the end, that folding the events
from nothing gives the same state, so every random playout is also a replay test.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from starbase_rules.contract import Event, Game, Outcome, RuleViolation, fold
from starbase_rules.fair import FairRng


class PlayoutError(AssertionError):
    pass


@dataclass
class Playout:
    events: list[Event] = field(default_factory=list)
    state: Any = None
    outcome: Outcome | None = None
    commands: int = 0


def playout(game: Game, players: list[str], seed: int, options: dict | None = None,
            check: bool = True, max_commands: int = 100_000) -> Playout:
    rng = FairRng(f"playout-{game.name}-{seed}".encode())
    bots = random.Random(seed)
    result = Playout()
    result.events = list(game.setup(players, options or {}, rng))
    result.state = _apply(game, game.initial_state(), result.events, check)
    while (outcome := game.outcome(result.state)) is None:
        if result.commands >= max_commands:
            raise PlayoutError(f"{game.name}: no end after {max_commands} commands")
        actors = game.to_act(result.state)
        if not actors:
            raise PlayoutError(f"{game.name}: nobody may act but the game is not over")
        actor = actors[bots.randrange(len(actors))]
        command = game.bot_command(result.state, actor, bots)
        if command is None:
            raise PlayoutError(f"{game.name}: the bot for {actor} found no move")
        try:
            new_events = game.decide(result.state, command, actor, rng)
        except RuleViolation as refusal:
            raise PlayoutError(f"{game.name}: the bot's own move was refused: {refusal} ({command!r})") from refusal
        result.state = _apply(game, result.state, new_events, check)
        result.events.extend(new_events)
        result.commands += 1
    result.outcome = outcome
    if check:
        rebuilt = fold(game, [game.parse_event(e.model_dump()) for e in result.events])
        if rebuilt != result.state:
            raise PlayoutError(f"{game.name}: rebuilding from the events gave another state")
    return result


def _apply(game: Game, state: Any, events: list[Event], check: bool) -> Any:
    for event in events:
        state = game.evolve(state, event)
        if check and (broken := game.invariants(state)):
            raise PlayoutError(f"{game.name}: after {event.type}: {'; '.join(broken)}")
    return state
