"""What a rules engine is: a decider over pydantic commands and events.

    events = game.setup(players, options, rng)              # chance recorded in the events
    state  = fold(game, events)                              # state is only ever rebuilt from events
    new    = game.decide(state, command, actor, rng)         # raises RuleViolation, mutates nothing
    state  = fold(game, new, state)

`evolve` may mutate and return the state it is given: whoever holds a state owns it, and `decide`
never mutates. Replays therefore cost one `evolve` per event and no copies.
"""
from __future__ import annotations

import random
from typing import Any, ClassVar, Iterable, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError


class RuleViolation(Exception):
    """A refused command. `code` is stable (NOT_YOUR_TURN, INSUFFICIENT_FUNDS, …); `message` is for people."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Command(BaseModel):
    """An imperative (`BuyShare`). Subclasses declare `type: Literal["BuyShare"] = "BuyShare"`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str


class Event(BaseModel):
    """A fact in the past tense (`ShareBought`). `v` is the schema version, for upcasting on read: a
    subclass whose shape changed declares `v: int = 2` and registers an upcaster (`handlers.Rules`).
    `secret_fields` names the fields some viewers may not see (`starbase_rules.redaction`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    secret_fields: ClassVar[dict[str, str]] = {}
    type: str
    v: int = 1


class Standing(BaseModel):
    player: str
    rank: int            # 1 is best; equal ranks are ties
    score: float         # the game's own measure (wealth, credits, …)


class Outcome(BaseModel):
    standings: list[Standing]
    reason: str = ""

    @classmethod
    def ranked(cls, scores: dict[str, float], key: dict[str, Any] | None = None, reason: str = "") -> "Outcome":
        """Standings with competition ranks: 1 + the number of players strictly better. `key` (default:
        the score) orders players where a game breaks ties by something other than the score."""
        key = key or scores
        better = {p: sum(1 for q in scores if key[q] > key[p]) for p in scores}
        order = sorted(scores, key=lambda p: better[p])          # stable: seat order among equals
        return cls(standings=[Standing(player=p, rank=better[p] + 1, score=scores[p]) for p in order],
                   reason=reason)


@runtime_checkable
class Rng(Protocol):
    used: int

    def randbelow(self, n: int) -> int: ...
    def shuffle(self, items: list) -> list: ...


@runtime_checkable
class Game(Protocol):
    name: str            # "moon21", "t2038", "stellar", "trucker"
    min_players: int
    max_players: int

    def initial_state(self) -> Any: ...
    def setup(self, players: list[str], options: dict, rng: Rng) -> list[Event]: ...
    def parse_command(self, data: dict) -> Command: ...        # RuleViolation("MALFORMED_COMMAND", …)
    def parse_event(self, data: dict) -> Event: ...
    def decide(self, state: Any, command: Command, actor: str | None, rng: Rng) -> list[Event]: ...
    def evolve(self, state: Any, event: Event) -> Any: ...
    def view(self, state: Any, viewer: str | None) -> dict: ...          # None: a spectator
    def redact(self, event: Event, viewer: str | None) -> dict | None: ...  # what a viewer sees of an event
    def legal_actions(self, state: Any, player: str) -> list[dict]: ...
    def outcome(self, state: Any) -> Outcome | None: ...
    def to_act(self, state: Any) -> list[str]: ...          # players who owe a decision now
    def invariants(self, state: Any) -> list[str]: ...      # broken invariants, empty when all hold
    def bot_command(self, state: Any, player: str, rnd: "random.Random") -> Command | None: ...
    def default_command(self, state: Any, player: str) -> Command | None: ...  # when a clock runs out


def fold(game: Game, events: Iterable[Event], state: Any = None) -> Any:
    if state is None:
        state = game.initial_state()
    for event in events:
        state = game.evolve(state, event)
    return state


def parse_command(commands: TypeAdapter, data: Any) -> Command:
    """Validate a command dict against an engine's union of commands; bad input is a rule violation
    whose message names what is wrong in the command's own terms."""
    try:
        command: Command = commands.validate_python(data)
        return command
    except ValidationError as problem:
        raise RuleViolation("MALFORMED_COMMAND", _describe(problem, data)) from None


def _describe(problem: ValidationError, data: Any) -> str:
    if not isinstance(data, dict):
        return "a command is an object with a 'type' and its fields"
    kind = data.get("type")
    errors = problem.errors()
    if errors[0]["type"] in ("union_tag_not_found", "union_tag_invalid", "literal_error") and \
            errors[0]["loc"] in ((), ("type",)):
        return f"there is no command {kind!r} in this game" if kind is not None else "a command needs a 'type'"
    # A union's errors are located under the tag ("Bid", "amount"): drop the tag, name the field.
    fields = [".".join(str(part) for part in e["loc"] if part != kind) or "command" for e in errors[:3]]
    return f"{kind}: " + "; ".join(f"{field}: {e['msg']}" for field, e in zip(fields, errors))
