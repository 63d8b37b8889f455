"""The scratchpad of one decision: a private copy of the state, the events emitted so far, the rng.

    tx.emit(event)              append the event and evolve the private copy by it, so every later check
                                of the same decision sees its consequences
    refuse(code, message)       raise RuleViolation: always raises, so `refuse(...)` and
                                `raise refuse(...)` mean the same (code moved between engines keeps its
                                meaning); typed NoReturn, so checkers know the code after it is dead
    tx.rng                      the decision's source of chance (FairRng); every draw goes into an event

The caller's state is never touched: a refused decision leaves nothing behind, and an accepted one
returns `tx.events` for the platform to store and to evolve its own state with.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, NoReturn, TypeVar

from starbase_rules.contract import Event, Rng, RuleViolation

S = TypeVar("S")


def refuse(code: str, message: str) -> NoReturn:
    """Refuse the command: `code` is stable (NOT_YOUR_TURN, …), `message` says why in the game's words."""
    raise RuleViolation(code, message)


class Tx(Generic[S]):
    def __init__(self, state: S, evolve: Callable[[S, Any], S], copy: Callable[[S], S],
                 rng: Rng | None = None):
        self.state: S = copy(state)
        self.events: list[Event] = []
        self._evolve = evolve
        self._rng = rng

    @property
    def rng(self) -> Any:
        if self._rng is None:
            raise RuntimeError("this decision was made without a source of chance (rng=None)")
        return self._rng

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = self._evolve(self.state, event)

    def refuse(self, code: str, message: str) -> NoReturn:
        refuse(code, message)
