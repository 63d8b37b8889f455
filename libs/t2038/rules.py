"""The registry of 2038's handlers (the engine base's `Rules`): each event's evolve handler registers here
(`evolve.py`), each command's decide handler too (`plays.py`); `game.py` imports both modules."""
from __future__ import annotations

from typing import Any

from starbase_rules.copying import copy_state
from starbase_rules.handlers import Rules
from starbase_rules.scratch import Tx

RULES = Rules()


def scratch(state: Any, rng: Any = None) -> Tx:
    """A scratchpad over a copy of `state`, for a trial run of a rule (what would this sale raise?)."""
    return Tx(state, RULES.evolve, copy_state, rng)
