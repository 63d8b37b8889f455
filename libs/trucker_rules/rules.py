"""The registry of Trucker's handlers (`@RULES.decides(...)`, `@RULES.evolves(...)`; `game.py` imports
every module that registers), and one command decided alone.

`decide_alone` is a command's own decision, without what follows by itself: the real-time service
decides building moves with it on its view of the warehouse, and `legal_actions` tries candidates with
it. It runs the registered handler on a `DeferredTx`, so a move that only checks and emits copies
nothing (a building move costs microseconds).
"""
from __future__ import annotations

from starbase_rules.contract import Command, Event
from starbase_rules.copying import copy_state
from starbase_rules.handlers import Rules
from starbase_rules.scratch import DeferredTx, refuse

RULES = Rules()


def decide_alone(state, command: Command, actor: str | None, rng=None) -> list[Event]:
    """The events of `command` on `state` (raises RuleViolation); `actor` None is the table's clock."""
    if actor is not None and actor not in state.seats:
        refuse("NOT_A_PLAYER", f"{actor!r} is not a player of this game")
    tx = DeferredTx(state, _evolve, copy_state, rng)
    RULES.decider(command)(tx, command, actor)
    return tx.events


_evolve = RULES.evolve
