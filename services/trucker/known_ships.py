"""What this replica last knew of each player's ship, so that a placement needs no read before its script.

A placement is checked in Python (the pure rules) against the player's ship, then applied by `place.lua`
only if the ship's version, the component in hand and the warehouse epoch are still those the check
used. Reading the ship first costs a Redis round trip per placement; instead this replica remembers
the ship it last read and updates it from its own applied moves:

- a grab it applied puts the grabbed component in the hand (a grab never changes the squares);
- a placement it applied adds exactly that square and bumps the version, as the script did;
- anything else it applied for that player (return, reserve, move, finish, a retry) forgets the ship.

Stale knowledge is harmless: the script refuses the placement (`STALE_SHIP`) and the service reads the
ship afresh and checks again; a refusal by the rules is only ever given on a fresh read.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_SHIPS = 50_000     # beyond this many players remembered, start again (cheap, and only a cache)


@dataclass
class KnownShip:
    epoch: str                      # the warehouse load it was read from (a rebuild starts a new one)
    version: int
    board: str
    strict: bool
    hand: str | None
    squares: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)


class KnownShips:
    def __init__(self) -> None:
        self._ships: dict[tuple[str, str], KnownShip] = {}

    def get(self, game: str, player: str) -> KnownShip | None:
        return self._ships.get((game, player))

    def remember(self, game: str, player: str, ship: KnownShip) -> None:
        if len(self._ships) >= MAX_SHIPS:
            self._ships.clear()
        self._ships[(game, player)] = ship

    def forget(self, game: str, player: str) -> None:
        self._ships.pop((game, player), None)

    def applied(self, game: str, player: str, operation: str, events: tuple[dict, ...]) -> None:
        """Follow a move this replica applied for `player` (its events as the script returned them)."""
        known = self._ships.get((game, player))
        if known is None:
            return
        first = events[0] if events else None
        if first is None or first.get("epoch") != known.epoch:
            self.forget(game, player)
        elif operation in ("grab_face_down", "grab_face_up", "grab_reserved"):
            known.hand = first["data"]["component"]
        elif operation == "place":
            data = first["data"]
            known.squares[(data["square"][0], data["square"][1])] = (data["component"], data["rotation"])
            known.version += 1
            known.hand = None
        else:
            self.forget(game, player)
