"""Each player's view as this replica last knew it, so that most moves need no read before their script.

A move is decided by the rules engine on the player's view (`projection.View`) and applied by the
script only if the player's seat version, the warehouse load and the shared facts it used still hold.
Reading the view first would cost a Redis round trip per move; instead this replica remembers the view
it last read for a player and follows its own applied moves with the engine's evolve (`projection.follow`).
A player's seat changes only by that player's moves, so the memory is right unless the player also
played through another replica (or the warehouse was reloaded): then the script refuses the move
(a guard), the view is forgotten, read afresh, and the move decided again. A refusal by the rules is
only ever given on a fresh read.
"""
from __future__ import annotations

from trucker.projection import View

MAX_VIEWS = 50_000     # beyond this many players remembered, start again (cheap, and only a cache)


class KnownSeats:
    def __init__(self) -> None:
        self._views: dict[tuple[str, str], View] = {}

    def get(self, game: str, player: str) -> View | None:
        return self._views.get((game, player))

    def remember(self, game: str, player: str, view: View) -> None:
        if len(self._views) >= MAX_VIEWS:
            self._views.clear()
        self._views[(game, player)] = view

    def forget(self, game: str, player: str) -> None:
        self._views.pop((game, player), None)
