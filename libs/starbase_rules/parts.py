"""The contract, split: a small core every engine has, and optional parts with defaults in `Engine`.

    Core           setup, decide, evolve, view, outcome (+ name, player range, parsing, initial state)
    LegalActions   legal_actions                     default []
    Turns          to_act                            default: players with a legal, non-free action
    Bots           bot_command, default_command      default: a random legal action; the first legal
                                                     action of `info.timeout_preference`, else the bot's
    Redaction      redact                            default: the event with its `secret_fields` blanked
    Realtime       realtime_service                  default: `info.realtime` of the round marker, else None
    Invariants     invariants                        default []

`contract.Game` is what the platform calls today on every engine, ported or not (all of the above but
Realtime, which it reads with getattr until every engine is on the base). An engine built on
`engine.Engine` satisfies every part, so callers may call any of them directly.
"""
from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from starbase_rules.contract import Command, Event, Outcome, Rng


@runtime_checkable
class Core(Protocol):
    name: str
    min_players: int
    max_players: int

    def initial_state(self) -> Any: ...
    def setup(self, players: list[str], options: dict, rng: Rng) -> list[Event]: ...
    def parse_command(self, data: dict) -> Command: ...
    def parse_event(self, data: dict) -> Event: ...
    def decide(self, state: Any, command: Command, actor: str | None, rng: Rng) -> list[Event]: ...
    def evolve(self, state: Any, event: Event) -> Any: ...
    def view(self, state: Any, viewer: str | None) -> dict: ...
    def outcome(self, state: Any) -> Outcome | None: ...


@runtime_checkable
class LegalActions(Protocol):
    def legal_actions(self, state: Any, player: str) -> list[dict]: ...


@runtime_checkable
class Turns(Protocol):
    def to_act(self, state: Any) -> list[str]: ...


@runtime_checkable
class Bots(Protocol):
    def bot_command(self, state: Any, player: str, rnd: random.Random) -> Command | None: ...
    def default_command(self, state: Any, player: str) -> Command | None: ...


@runtime_checkable
class Redaction(Protocol):
    def redact(self, event: Event, viewer: str | None) -> dict | None: ...


@runtime_checkable
class Realtime(Protocol):
    def realtime_service(self, state: Any) -> str | None: ...


@runtime_checkable
class Invariants(Protocol):
    def invariants(self, state: Any) -> list[str]: ...
