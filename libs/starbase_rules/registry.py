"""Game name → engine. Imported lazily so a service loads only the engines it serves."""
from __future__ import annotations

import importlib

from starbase_rules.contract import Game, RuleViolation
from starbase_rules.info import GameInfo

ENGINES = {
    "moon21": "moon21.game:GAME",
    "t2038": "t2038.game:GAME",
    "stellar": "stellar.game:GAME",
    "trucker": "trucker_rules.game:GAME",
}
_LOADED: dict[str, Game] = {}       # by engine path: asked for on every command, the import machinery once


def get_game(name: str) -> Game:
    path = ENGINES.get(name)
    if path is None:
        raise RuleViolation("UNKNOWN_GAME", f"no game called {name!r}; known: {sorted(ENGINES)}")
    loaded = _LOADED.get(path)
    if loaded is None:
        module_name, attribute = path.split(":")
        loaded = _LOADED[path] = getattr(importlib.import_module(module_name), attribute)
    return loaded


def game_info(name: str) -> GameInfo | None:
    """A game's declaration (player range, options for a table form, realtime rounds), or None for an
    engine not yet on the engine base. Raises UNKNOWN_GAME like `get_game`."""
    info = getattr(get_game(name), "info", None)
    return info if isinstance(info, GameInfo) else None
