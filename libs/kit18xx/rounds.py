"""Rounds and steps, on the 18xx model: a round is a list of steps; each step declares the commands it
accepts (which is also the kinds of its legal moves), whether it blocks, and when it is skipped.

    OPERATING = Round("operating", (
        Step("tiles", accepts=("LayTile", "LayTerminal"), blocks=False),
        Step("token", accepts=("PlaceDepot",), blocks=False),
        Step("run", accepts=("RunTransports",)),
        Step("buy", accepts=("BuyTransport",), skipped=lambda state: state.no_transport_for_sale),
    ))

- A step that does not block lets its player act in the steps after it at once: a command of a later
  step reached through non-blocking steps only is allowed now (in 21Moon, running early skips laying
  tiles and placing a depot). A blocking step must be done first. `allows(step, kind)` answers this;
  a command no step accepts belongs to the whole round (a pass, an owed decision) and is allowed in
  every step.
- `skipped(state)`: the step has nothing to do in this state; `next_step(step, state)` goes past it.
- `after`, `before`, `is_last`, `first` answer the order questions rules ask.

`Rounds` holds a game's rounds and who plays each command in each step, for a game that routes its
commands through its steps (2038): `rounds.step(round, step, refusal)` declares a step and how it
refuses what it does not take, `@rounds.accepts(round, step, *command_types)` registers a handler (and
the step accepts those types), `rounds.play((round, step), tx, command, actor)` plays a command or
refuses it, `rounds.round(name)` is the declared `Round`. The kit never reads a game's state: the game
says which step it is in.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from starbase_rules.contract import Command
from starbase_rules.scratch import refuse

Handler = Callable[[Any, Any, str], None]          # (tx, command, actor) -> None; refuses by raising
Message = Callable[[Any, Any], str]                # (state, command) -> why the step refuses it
Where = tuple[str, str]                            # (round, step)


@dataclass(frozen=True)
class Step:
    name: str
    accepts: tuple[str, ...] = ()                  # command types played in this step
    blocks: bool = True                            # False: later steps' commands may be sent now
    skipped: Callable[[Any], bool] | None = None   # state -> nothing to do here: the round goes past


@dataclass(frozen=True)
class Round:
    name: str
    steps: tuple[Step, ...]
    # Worked out once from `steps` (rules ask `allows` on every command and every legal-move listing).
    _accepted: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _bound: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = self.names
        if not names or len(set(names)) != len(names):
            raise ValueError(f"a round needs distinct steps, not {names!r}")
        accepted = {step.name: tuple(kind for reached in self.reachable(step.name) for kind in reached.accepts)
                    for step in self.steps}
        object.__setattr__(self, "_accepted", accepted)
        object.__setattr__(self, "_bound", frozenset(kind for step in self.steps for kind in step.accepts))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(step.name for step in self.steps)

    @property
    def first(self) -> str:
        return self.steps[0].name

    def index(self, step: str) -> int:
        for at, declared in enumerate(self.steps):
            if declared.name == step:
                return at
        raise ValueError(f"{step!r} is not a step of the {self.name} round {self.names!r}")

    def step(self, name: str) -> Step:
        return self.steps[self.index(name)]

    def after(self, step: str) -> str | None:
        """The step that follows `step`, or None when `step` is the last (finishing it ends the round's turn)."""
        at = self.index(step) + 1
        return self.steps[at].name if at < len(self.steps) else None

    def next_step(self, step: str, state: Any) -> str | None:
        """The first step after `step` that this state does not skip (None: the turn is over)."""
        following = self.after(step)
        while following is not None and (skip := self.step(following).skipped) is not None and skip(state):
            following = self.after(following)
        return following

    def before(self, step: str, other: str) -> bool:
        """Is `step` earlier in the round than `other`?"""
        return self.index(step) < self.index(other)

    def is_last(self, step: str) -> bool:
        return self.index(step) == len(self.steps) - 1

    def reachable(self, step: str) -> tuple[Step, ...]:
        """`step` and the steps whose commands may be sent from it (through non-blocking steps)."""
        at = self.index(step)
        end = at
        while not self.steps[end].blocks and end + 1 < len(self.steps):
            end += 1
        return self.steps[at:end + 1]

    def accepted(self, step: str) -> tuple[str, ...]:
        """The command types of the steps a player at `step` may act in (the kinds of its legal moves)."""
        if step not in self._accepted:
            self.index(step)                  # an unknown step is an error naming it
        return self._accepted[step]

    def allows(self, step: str, command_type: str) -> bool:
        """May `command_type` be sent during `step`? (A command no step accepts: in every step.)"""
        return command_type in self.accepted(step) or command_type not in self._bound


class Rounds:
    """A game's rounds and the handler of each command in each step (see the module's doc)."""

    def __init__(self) -> None:
        self._rounds: dict[str, Round] = {}
        self._handlers: dict[Where, dict[str, Handler]] = {}
        self._refusals: dict[Where, tuple[str, Message]] = {}

    def step(self, round_: str, step: str, refusal: tuple[str, Message], *, blocks: bool = True,
             skipped: Callable[[Any], bool] | None = None) -> None:
        """Declare a step (after the round's others) and how it refuses a command it does not accept."""
        where = (round_, step)
        if where in self._refusals:
            raise ValueError(f"step {where} is declared twice")
        steps = self._rounds[round_].steps if round_ in self._rounds else ()
        self._rounds[round_] = Round(round_, (*steps, Step(step, blocks=blocks, skipped=skipped)))
        self._refusals[where], self._handlers[where] = refusal, {}

    def accepts(self, round_: str, step: str, *command_types: type[Command]) -> Callable[[Handler], Handler]:
        """Register the decorated function as the player of these command types in this step."""
        where = (round_, step)
        if where not in self._handlers:
            raise ValueError(f"declare step {where} before what it accepts")

        def register(function: Handler) -> Handler:
            for command_type in command_types:
                kind = command_type.model_fields["type"].default
                if kind in self._handlers[where]:
                    raise ValueError(f"step {where} already accepts {kind}")
                self._handlers[where][kind] = function
                declared = self._rounds[round_]
                at = declared.index(step)
                grown = replace(declared.steps[at], accepts=(*declared.steps[at].accepts, kind))
                self._rounds[round_] = replace(declared, steps=(*declared.steps[:at], grown, *declared.steps[at + 1:]))
            return function
        return register

    def round(self, name: str) -> Round:
        return self._rounds[name]

    def accepted(self, where: Where) -> tuple[str, ...]:
        """The command types a player at this step may send (none for an undeclared step)."""
        round_, step = where
        return self._rounds[round_].accepted(step) if where in self._refusals else ()

    def steps(self) -> tuple[Where, ...]:
        return tuple(self._refusals)

    def play(self, where: Where, tx: Any, command: Any, actor: str) -> None:
        """Play `command` with the handler of the step it belongs to (this one or a later one reached
        through non-blocking steps), or refuse it with this step's refusal."""
        if where not in self._refusals:
            refuse("NOT_NOW", f"nothing can be played now ({where[0]} round, step {where[1] or 'none'})")
        for reached in self._rounds[where[0]].reachable(where[1]):
            handler = self._handlers[(where[0], reached.name)].get(command.type)
            if handler is not None:
                handler(tx, command, actor)
                return
        code, message = self._refusals[where]
        refuse(code, message(tx.state, command))
