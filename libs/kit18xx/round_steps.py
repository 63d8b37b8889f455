"""Rounds made of steps, each step declaring the commands it accepts and the function that plays each.

An 18xx game is a sequence of rounds (stock, operating, …), and a round is a sequence of steps (in an
operating round: fly or run routes, declare earnings, buy; in a stock round with an auction: bid while
companies are for sale, trade shares afterwards). Instead of `if round == "stock": … match command:`,
a game declares its steps once:

    STEPS = RoundSteps()
    STEPS.step("stock", "shares", refusal=("NOT_NOW", lambda state, command: f"{command.type} ..."))

    @STEPS.accepts("stock", "shares", BuyShare, LaunchCorporation)
    def buy_or_launch(tx, command, actor): ...

and plays a command with `STEPS.play((round, step), tx, command, actor)`: the step's handler for the
command's type, or the step's refusal (a stable code and a message in the game's words). What a step
accepts is also the answer to "which kinds of command are legal now" (`accepted`). The game says which
step it is in (`(round, step)` read from its state); the kit never reads a game's state.
"""
from __future__ import annotations

from typing import Any, Callable

from starbase_rules.contract import Command
from starbase_rules.scratch import refuse

Handler = Callable[[Any, Any, str], None]          # (tx, command, actor) -> None; refuses by raising
Message = Callable[[Any, Any], str]                # (state, command) -> why the step refuses it
Where = tuple[str, str]                            # (round, step)


class RoundSteps:
    def __init__(self) -> None:
        self._handlers: dict[Where, dict[str, Handler]] = {}
        self._refusals: dict[Where, tuple[str, Message]] = {}

    def step(self, round_: str, step: str, refusal: tuple[str, Message]) -> None:
        """Declare a step and how it refuses a command it does not accept."""
        where = (round_, step)
        if where in self._refusals:
            raise ValueError(f"step {where} is declared twice")
        self._refusals[where] = refusal
        self._handlers[where] = {}

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
            return function
        return register

    def accepted(self, where: Where) -> tuple[str, ...]:
        """The command types the step accepts (none for an undeclared step)."""
        return tuple(self._handlers.get(where, {}))

    def steps(self) -> tuple[Where, ...]:
        return tuple(self._refusals)

    def play(self, where: Where, tx: Any, command: Any, actor: str) -> None:
        handlers = self._handlers.get(where)
        if handlers is None:
            refuse("NOT_NOW", f"nothing can be played now ({where[0]} round, step {where[1] or 'none'})")
        handler = handlers.get(command.type)
        if handler is None:
            code, message = self._refusals[where]
            refuse(code, message(tx.state, command))
        handler(tx, command, actor)
