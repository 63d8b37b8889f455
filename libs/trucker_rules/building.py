"""Pure building rules: placement, the inspection at the end of building, repair, exposed connectors.

Public API (used by the real-time service `services/trucker` and by `trucker_rules.game`):

    check_placement(ship, component_id, square, rotation, strict=False)   # raises RuleViolation
    joint(side_a, side_b) -> "none" | "real" | "illegal"
    inspect(ship) -> list[Flaw]                  # empty when the ship is legal
    parts(ship) -> list[frozenset[Square]]       # pieces held together by legal joints
    check_repair(ship, remove, keep) -> set[Square]   # the squares lost; raises RuleViolation
    auto_repair(ship) -> (remove, keep)          # the default repair when the owner does not choose
    exposed_connectors(ship) -> int

Refusal codes of `check_placement`: BAD_ROTATION, SQUARE_NOT_ON_BOARD, SQUARE_TAKEN, NOT_ADJACENT,
ILLEGAL_JOINT, NO_REAL_JOINT, and with `strict` (table option `refuse_flawed_placements`) also
ENGINE_NOT_FACING_REAR, EXHAUST_BLOCKED, BARREL_BLOCKED.
Flaw codes of `inspect`: ILLEGAL_JOINT, ENGINE_NOT_FACING_REAR, EXHAUST_BLOCKED, BARREL_BLOCKED, CUT_OFF.
"""
from __future__ import annotations

from dataclasses import dataclass

from starbase_rules.contract import RuleViolation

from trucker_rules.catalog import (
    BOTTOM, DIRECTIONS, SMOOTH, UNIVERSAL, Square, component, neighbour, opposite, starting_square,
)
from trucker_rules.ship import Placed, Ship


def joint(a: str, b: str) -> str:
    """How two touching sides meet: "none" (smooth to smooth), "real" (a legal connection) or "illegal"."""
    if a == SMOOTH and b == SMOOTH:
        return "none"
    if a == SMOOTH or b == SMOOTH:
        return "illegal"
    if a == b or UNIVERSAL in (a, b):
        return "real"
    return "illegal"   # single against double


def _side(ship: Ship, square: Square, direction: int) -> str:
    placed = ship.tiles[square]
    return placed.tile.side(direction, placed.rotation)


def check_placement(ship: Ship, component_id: str, square: Square, rotation: int,
                    strict: bool = False) -> None:
    """Refuse placing `component_id` turned `rotation` on `square` unless the rulebook allows it.

    Every touching side must join legally and at least one must be a real joint; the ship is
    assumed not to contain `square` already (moving the newest component: remove it first)."""
    tile = component(component_id)
    if rotation not in (0, 1, 2, 3):
        raise RuleViolation("BAD_ROTATION", f"rotation must be 0-3 quarter turns, not {rotation}")
    if square not in ship.squares:
        raise RuleViolation("SQUARE_NOT_ON_BOARD", f"{square} is not a square of a Class {ship.board} ship")
    if square in ship.tiles:
        raise RuleViolation("SQUARE_TAKEN", f"{square} already holds {ship.tiles[square].component}")
    touching = [d for d in DIRECTIONS if neighbour(square, d) in ship.tiles]
    if not touching:
        raise RuleViolation("NOT_ADJACENT", f"{square} is not next to a component of the ship")
    real = False
    for d in touching:
        mine, theirs = tile.side(d, rotation), _side(ship, neighbour(square, d), opposite(d))
        kind = joint(mine, theirs)
        if kind == "illegal":
            raise RuleViolation("ILLEGAL_JOINT", f"{component_id}'s {mine} side cannot join the {theirs} side "
                                                 f"of {ship.tiles[neighbour(square, d)].component}")
        real = real or kind == "real"
    if not real:
        raise RuleViolation("NO_REAL_JOINT", f"{component_id} at {square} touches the ship only smooth to smooth")
    if strict:
        trial = Ship(ship.board, dict(ship.tiles))
        trial.tiles[square] = Placed(component_id, rotation)
        for flaw in _facing_flaws(trial):
            if square in (flaw.square, flaw.other):
                raise RuleViolation(flaw.code, flaw.message)


@dataclass(frozen=True)
class Flaw:
    code: str
    square: Square
    message: str
    other: Square | None = None      # the second square involved (a joint, a blocking component)


def _facing_flaws(ship: Ship) -> list[Flaw]:
    flaws = []
    for square, placed in ship.tiles.items():
        tile = placed.tile
        if tile.is_engine:
            facing = tile.exhaust_facing(placed.rotation)
            if facing != BOTTOM:
                flaws.append(Flaw("ENGINE_NOT_FACING_REAR", square, f"the engine at {square} does not exhaust to the rear"))
            behind = neighbour(square, facing)
            if behind in ship.tiles:
                flaws.append(Flaw("EXHAUST_BLOCKED", square, f"the engine at {square} exhausts onto {behind}", behind))
        if tile.is_cannon:
            ahead = neighbour(square, tile.barrel_facing(placed.rotation))
            if ahead in ship.tiles:
                flaws.append(Flaw("BARREL_BLOCKED", square, f"the cannon at {square} fires into {ahead}", ahead))
    return flaws


def _joint_flaws(ship: Ship) -> list[Flaw]:
    flaws = []
    for square in ship.tiles:
        for d in (1, 2):   # right and bottom: each touching pair once
            other = neighbour(square, d)
            if other in ship.tiles and joint(_side(ship, square, d), _side(ship, other, opposite(d))) == "illegal":
                flaws.append(Flaw("ILLEGAL_JOINT", square, f"{square} and {other} are joined illegally", other))
    return flaws


def parts(ship: Ship) -> list[frozenset[Square]]:
    """The pieces of the ship: squares held together by real, legal joints. Largest first."""
    seen: set[Square] = set()
    result = []
    for start in ship.tiles:
        if start in seen:
            continue
        piece, frontier = {start}, [start]
        while frontier:
            square = frontier.pop()
            for d in DIRECTIONS:
                other = neighbour(square, d)
                if other in ship.tiles and other not in piece and \
                        joint(_side(ship, square, d), _side(ship, other, opposite(d))) == "real":
                    piece.add(other)
                    frontier.append(other)
        seen |= piece
        result.append(frozenset(piece))
    return sorted(result, key=lambda p: (-len(p), min(p)))


def _main_part(ship: Ship, pieces: list[frozenset[Square]]) -> frozenset[Square]:
    for piece in pieces:
        if starting_square() in piece:
            return piece
    for piece in pieces:
        if any(ship.tiles[sq].tile.kind == "starting_cabin" for sq in piece):
            return piece
    return pieces[0]


def inspect(ship: Ship) -> list[Flaw]:
    """Everything that makes the ship illegal at the end of building."""
    flaws = _joint_flaws(ship) + _facing_flaws(ship)
    pieces = parts(ship)
    if len(pieces) > 1:
        main = _main_part(ship, pieces)
        flaws += [Flaw("CUT_OFF", sq, f"{sq} is not joined to the rest of the ship")
                  for piece in pieces if piece != main for sq in sorted(piece)]
    return flaws


def check_repair(ship: Ship, remove: list[Square], keep: Square | None) -> set[Square]:
    """The squares a repair loses: `remove`, then every part but the one holding `keep`.

    Raises REPAIR_SQUARE_EMPTY, PART_NOT_CHOSEN, KEEP_NOT_ON_SHIP or STILL_FLAWED."""
    trial = ship.copy()
    for square in remove:
        if square not in trial.tiles:
            raise RuleViolation("REPAIR_SQUARE_EMPTY", f"there is no component at {square} to remove")
        del trial.tiles[square]
    lost = set(remove)
    if not trial.tiles:
        return lost
    pieces = parts(trial)
    if len(pieces) > 1:
        if keep is None:
            raise RuleViolation("PART_NOT_CHOSEN", f"the ship is in {len(pieces)} parts: choose the one to keep")
        chosen = [p for p in pieces if keep in p]
        if not chosen:
            raise RuleViolation("KEEP_NOT_ON_SHIP", f"there is no component at {keep}")
        for piece in pieces:
            if piece is not chosen[0]:
                lost |= piece
                for square in piece:
                    del trial.tiles[square]
    if flaws := inspect(trial):
        raise RuleViolation("STILL_FLAWED", f"the ship is still illegal: {flaws[0].message}")
    return lost


def auto_repair(ship: Ship) -> tuple[list[Square], Square | None]:
    """The default repair: drop badly facing or blocked engines and cannons, for each illegal joint one of
    the two components (never the starting cabin), then keep the part with the starting cabin (else the
    largest)."""
    trial = ship.copy()
    removed: list[Square] = []
    while True:
        flaws = [f for f in _joint_flaws(trial) + _facing_flaws(trial)]
        if not flaws:
            break
        flaw = flaws[0]
        victim = flaw.square
        if flaw.code == "ILLEGAL_JOINT" and trial.tiles[victim].tile.kind == "starting_cabin":
            victim = flaw.other
        removed.append(victim)
        del trial.tiles[victim]
    keep = None
    if trial.tiles:
        pieces = parts(trial)
        if len(pieces) > 1:
            keep = min(_main_part(trial, pieces))
    return removed, keep


def exposed_connectors(ship: Ship) -> int:
    """Connectors on sides with no component beside them (inside holes included)."""
    count = 0
    for square, placed in ship.tiles.items():
        for d in DIRECTIONS:
            if placed.tile.side(d, placed.rotation) != SMOOTH and neighbour(square, d) not in ship.tiles:
                count += 1
    return count


def exposed_sides(ship: Ship) -> list[tuple[Square, int]]:
    return [(sq, d) for sq, p in ship.tiles.items() for d in DIRECTIONS
            if p.tile.side(d, p.rotation) != SMOOTH and neighbour(sq, d) not in ship.tiles]
