"""Deciding by emitting: `decide` works on a private copy of the state, applying each event it emits,
so later checks in the same command see earlier consequences and `decide` never mutates its input.

The copy is `clone_state` (a hand-made deep copy without `copy.deepcopy`'s memo machinery): `legal_actions`
decides once per candidate command, so this copy is the main cost of both."""
from __future__ import annotations

from moon21.clone import clone_state
from moon21.evolve import evolve
from moon21.state import State
from starbase_rules.contract import RuleViolation


class Emitter:
    def __init__(self, state: State):
        self.state = clone_state(state)
        self.events: list = []

    def __call__(self, event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)
