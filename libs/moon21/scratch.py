"""A scratchpad over a 21Moon state outside a command's own decision: the probes that ask "would this be
accepted now?" (a forced pass, a sale the rules allow) run a decide handler on it and throw it away."""
from __future__ import annotations

from moon21.evolve import RULES                  # importing `moon21.evolve` registers the evolve handlers
from moon21.state import State
from starbase_rules.copying import copy_state
from starbase_rules.scratch import Tx


def probe(state: State) -> Tx[State]:
    """A scratchpad over a private copy of `state`, evolved by 21Moon's handlers (as `GAME.tx` is)."""
    return Tx(state, RULES.evolve, copy_state)
