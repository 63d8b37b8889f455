"""What the conformance suite plays and looks at: one bounded bot game per engine and player count,
and the states it samples from it. Also the list of known failures of engines not yet on the base.

A trace is a whole bot game (a cap on its commands keeps it bounded), recorded as its events and the
command boundaries. The states checked are refolded from the events at a stride (at most
`SAMPLED_STATES` per game, always including the setup and the end), so every engine gets the same
number of looks whatever its game length, and the suite's time stays bounded.
"""
from __future__ import annotations

import copy
import functools
import importlib
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng
from starbase_rules.registry import ENGINES
from tests.engines import tiny_game

# The engines shipped in libs/ (test games that other suites register are left out) and the example.
SUITE = {**{name: path for name, path in ENGINES.items() if not path.startswith("tests.")},
         "tiny": tiny_game.ENGINE_PATH}
NAMES = sorted(SUITE)
PLAYER_NAMES = ["ann", "bob", "cy", "dee", "eve", "fay"]
SAMPLED_STATES = 24         # states checked per game (evenly spread over it)
SAMPLED_ACTIONS = 6         # legal actions tried per player and state (evenly spread over the list)
MAX_COMMANDS = 6000         # a game the bots cannot finish in this many commands is a failure

# Checks an engine not yet on the base fails today. The porter of that engine removes its lines: the
# marks are strict, so a check that starts passing fails the suite until its line goes.
NOT_YET: dict[tuple[str, str], str] = {}

# Tables that need an option to seat some player count (2038's two-player game is a variant).
TABLE_OPTIONS = {("t2038", 2): {"two_player": True}}


def engine(name: str) -> Any:
    module_name, attribute = SUITE[name].split(":")
    return getattr(importlib.import_module(module_name), attribute)


def info_of(name: str) -> Any:
    return getattr(engine(name), "info", None)


def marked(name: str, check: str) -> Any:
    reason = NOT_YET.get((name, check))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, marks=marks, id=name)


def engines_for(check: str) -> list:
    return [marked(name, check) for name in NAMES]


def counts(name: str) -> range:
    """Every player count the engine takes (imported when a test runs, never while collecting: a test
    package named like an engine, such as tests/t2038, must not find the engine in its place)."""
    game = engine(name)
    return range(game.min_players, game.max_players + 1)


def seated(name: str) -> list[str]:
    """The fewest players the game seats with its default options."""
    game = engine(name)
    count = next(n for n in range(game.min_players, game.max_players + 1) if (name, n) not in TABLE_OPTIONS)
    return PLAYER_NAMES[:count]


def parsed(game: Any, action: dict) -> Any:
    """The listed action as a command, or None when it does not parse (a failure of its own check)."""
    try:
        return game.parse_command(action)
    except RuleViolation:
        return None


def free_actions(name: str) -> tuple[str, ...]:
    info = info_of(name)
    return tuple(info.free_actions) if info is not None else ()


@dataclass
class Sample:
    index: int                       # commands played before this state
    state: Any
    legal: dict[str, list[dict]] = field(default_factory=dict)      # player -> legal actions
    to_act: list[str] = field(default_factory=list)


@dataclass
class Trace:
    name: str
    players: list[str]
    events: list = field(default_factory=list)
    boundaries: list[int] = field(default_factory=list)     # len(events) after the setup and each command
    commands: list[tuple[str, Any]] = field(default_factory=list)     # (actor, command) as played
    final: Any = None
    finished: bool = False
    samples: list[Sample] = field(default_factory=list)

    @property
    def game(self) -> Any:
        return engine(self.name)


@functools.lru_cache(maxsize=None)
def trace(name: str, count: int) -> Trace:
    """The bots' game of `name` for `count` players (deterministic), with its sampled states."""
    game = engine(name)
    players = PLAYER_NAMES[:count]
    rng, bots = FairRng(f"conformance-{name}-{count}".encode()), random.Random(count)
    result = Trace(name, players)
    result.events = list(game.setup(players, TABLE_OPTIONS.get((name, count), {}), rng))
    result.boundaries = [len(result.events)]
    state = _fold(game, game.initial_state(), result.events)
    while game.outcome(state) is None and len(result.commands) < MAX_COMMANDS:
        actors = game.to_act(state)
        if not actors:
            raise AssertionError(f"{name}: nobody may act but the game is not over")
        actor = actors[bots.randrange(len(actors))]
        command = game.bot_command(state, actor, bots)
        if command is None:
            raise AssertionError(f"{name}: {actor} is to act but the bot found no move")
        try:
            new = game.decide(state, command, actor, rng)
        except RuleViolation as refused:
            raise AssertionError(f"{name}: the bot's own {command!r} for {actor} was refused: {refused}") from None
        result.commands.append((actor, command))
        result.events += new
        result.boundaries.append(len(result.events))
        state = _fold(game, state, new)
    result.final, result.finished = state, game.outcome(state) is not None
    result.samples = _samples(game, result)
    return result


def _fold(game: Any, state: Any, events: list) -> Any:
    for event in events:
        state = game.evolve(state, event)
    return state


def _samples(game: Any, played: Trace) -> list[Sample]:
    """States refolded from the stored (dumped and parsed) events at evenly spread command boundaries."""
    last = len(played.boundaries) - 1
    wanted = sorted({round(i * last / (SAMPLED_STATES - 1)) for i in range(SAMPLED_STATES)})
    samples, state, folded = [], game.initial_state(), 0
    for index in wanted:
        upto = played.boundaries[index]
        state = _fold(game, state, [game.parse_event(e.model_dump()) for e in played.events[folded:upto]])
        folded = upto
        snapshot = copy.deepcopy(state)
        legal = {p: game.legal_actions(snapshot, p) for p in played.players}
        samples.append(Sample(index, snapshot, legal, list(game.to_act(snapshot))))
    return samples


def spread(items: list, count: int) -> list:
    """At most `count` items, evenly spread over the list, the first and the last included."""
    if len(items) <= count:
        return list(items)
    if count == 1:
        return [items[0]]
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


def refusal(call, *args) -> RuleViolation | None:
    try:
        call(*args)
    except RuleViolation as refused:
        return refused
    return None
