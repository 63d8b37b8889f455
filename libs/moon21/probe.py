"""A decision probed without a copy of the state: it runs on the caller's state and stops at its first
event (`FirstEvent`), before anything would change. (`moon21.scratch.probe` is another thing: a
whole throwaway `Tx`, on a copy, for "would this be accepted, and what would follow?".)

`legal_actions` puts dozens of candidates to `decide` per position, and most are refused by a check
that reads the state before emitting anything; copying the whole state for each (what `Tx` does) was a
quarter of its cost. Deciders never change `tx.state` except through `emit` (the engine base's
contract: the state changes only by events), which is what makes a probe safe; the tests compare the
probed answers with full decisions over bot playouts and check the probed state is left as it was.
"""
from __future__ import annotations

from typing import NoReturn

from starbase_rules.scratch import Tx

from moon21 import commands as K
from moon21 import events as E
from moon21.state import State


class FirstEvent(BaseException):
    """The probed decision got as far as its first event. A BaseException, so no decider's
    `except Exception` can swallow it and carry on as if nothing had been emitted."""

    def __init__(self, event):
        super().__init__(type(event).__name__)
        self.event = event


class Probe(Tx[State]):
    def __init__(self, state: State):   # no copy: nothing runs past the first event
        self.state = state
        self.events = []
        self._rng = None

    def emit(self, event) -> NoReturn:
        raise FirstEvent(event)


def settled_by_first_event(command, event) -> bool:
    """Whether reaching this first event means the command is accepted, with no refusal possible after
    it. The tile lay, the bulk of `legal_actions`' candidates: `operating.lay_tile` makes every check
    before its `TileLaid` and only emits after it (a `LayTile` reaching `TileLaid` went through it).
    The run, the bots' dearest move (its runs checked and priced twice otherwise):
    `earnings.submit_runs` checks everything before `pay`, whose first event is a `StepFinished` (into
    the run step) or a `TransportsRun`, and `pay` (with `trading.move_price`) only emits. A pass in an
    operating turn: no decider but `operating.finish_step` emits a `StepFinished` or `OperatingTurnEnded`
    (the flow's own are played after the decision, never probed), and it emits one and returns."""
    if isinstance(command, K.LayTile):
        return isinstance(event, E.TileLaid)
    if isinstance(command, K.RunTransports):
        return isinstance(event, E.TransportsRun) or (isinstance(event, E.StepFinished) and event.next_step == "run")
    if isinstance(command, K.Pass):
        return isinstance(event, (E.StepFinished, E.OperatingTurnEnded))
    return False
