"""The scratchpad of one decision: a private copy of the state, the events emitted so far, the rng.

    tx.emit(event)              append the event and evolve the private copy by it, so every later check
                                of the same decision sees its consequences
    refuse(code, message)       raise RuleViolation: always raises, so `refuse(...)` and
                                `raise refuse(...)` mean the same (code moved between engines keeps its
                                meaning); typed NoReturn, so checkers know the code after it is dead
    tx.rng                      the decision's source of chance (FairRng); every draw goes into an event

The caller's state is never touched: a refused decision leaves nothing behind, and an accepted one
returns `tx.events` for the platform to store and to evolve its own state with.

`DeferredTx` is the same scratchpad with the copy put off: `tx.state` is the caller's own state (to
read, never to change) until an event is emitted, and the private copy is made and evolved only when
`tx.state` is read after that. A decision that emits without reading again (a real-time move of a few
microseconds) then costs no copy at all. An engine opts in with `Engine.deferred_copy`.
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


class DeferredTx(Tx[S]):
    """A `Tx` that copies the state only when it is read after an event was emitted (module doc)."""

    _own: S | None = None      # the private copy, once one was needed
    _applied = 0               # how many of `events` the private copy has been evolved by

    def __init__(self, state: S, evolve: Callable[[S, Any], S], copy: Callable[[S], S],
                 rng: Rng | None = None):
        # Only what every decision needs is set here (the two above are class defaults until a read
        # after an emit): a real-time move pays for nothing else.
        self.events = []
        self._evolve, self._copy, self._rng, self._given = evolve, copy, rng, state

    @property
    def state(self) -> S:  # type: ignore[override]  # read-only: handlers emit, never assign
        if self._applied < len(self.events):
            own = self._copy(self._given) if self._own is None else self._own
            for event in self.events[self._applied:]:
                own = self._evolve(own, event)
            self._own, self._applied = own, len(self.events)
        return self._given if self._own is None else self._own

    def emit(self, event: Event) -> None:
        self.events.append(event)
