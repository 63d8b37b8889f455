"""Game name → engine. Imported lazily so a service loads only the engines it serves."""
from __future__ import annotations

import importlib

from starbase_rules.contract import Game, RuleViolation

ENGINES = {
    "moon21": "moon21.game:GAME",
    "t2038": "t2038.game:GAME",
    "stellar": "stellar.game:GAME",
    "trucker": "trucker_rules.game:GAME",
}


def get_game(name: str) -> Game:
    try:
        module_name, attribute = ENGINES[name].split(":")
    except KeyError:
        raise RuleViolation("UNKNOWN_GAME", f"no game called {name!r}; known: {sorted(ENGINES)}") from None
    return getattr(importlib.import_module(module_name), attribute)
