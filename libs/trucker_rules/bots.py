"""Bots that build sound ships (legal joints, engines to the rear, clear barrels) and fly them.

Simple and greedy on purpose: they are for tests, load runs and `starbase play`, not for winning."""
from __future__ import annotations

import random

from starbase_rules.contract import Command, RuleViolation

from trucker_rules import building, catalog
from trucker_rules import messages as m
from trucker_rules.catalog import BOTTOM, DIRECTIONS, TOP, neighbour
from trucker_rules.ship import Placed
from trucker_rules.state import BUILDING, REPAIR, TruckerState

# How much a bot wants one more of each kind, given how many it already has.
_WANT = {"engine": 4, "double_engine": 1, "cannon": 4, "double_cannon": 1, "cabin": 4, "battery": 2,
         "shield": 2, "cargo_hold": 2, "special_cargo_hold": 1, "life_support_purple": 1,
         "life_support_brown": 1, "structural": 1}
# The strong bot builds by valuing each tile for its ship: `strong_build`.


def bot_command(state: TruckerState, player: str, rnd: random.Random, level: str = "normal") -> Command | None:
    if state.phase == BUILDING:
        return build_command(state, player, rnd, level)
    if state.phase == REPAIR:
        remove, keep = building.auto_repair(state.seats[player].ship)
        return m.RepairShip(remove=remove, keep=keep)
    from trucker_rules import flight_bots
    return flight_bots.flight_command(state, player, rnd, level)


def seat_state(state: TruckerState, player: str) -> TruckerState:
    """What a seat's bot may know (`views.view`): which tiles lie face down, the adventure piles' cards
    (but the pile it holds) and the seen cards still to come are replaced by "?" (their counts stay)."""
    own = state.seats[player].looking_at if player in state.seats else 0
    hidden = state.clone()
    hidden.face_down = ["?"] * len(state.face_down)
    hidden.piles = [list(pile) if number == own else ["?"] * len(pile)
                    for number, pile in enumerate(state.piles, start=1)]
    hidden.deck = ["?"] * len(state.deck)
    return hidden


def _counts(ship) -> dict[str, int]:
    counts: dict[str, int] = {}
    for placed in ship.tiles.values():
        counts[placed.tile.kind] = counts.get(placed.tile.kind, 0) + 1
    return counts


def _wanted(ship, component_id: str, level: str = "normal") -> bool:
    tile = catalog.component(component_id)
    counts = _counts(ship)
    if counts.get("engine", 0) + counts.get("double_engine", 0) == 0:
        return tile.is_engine          # an engine first, while the rear of the ship is still open
    return counts.get(tile.kind, 0) < _WANT.get(tile.kind, 0)


def best_placement(ship, component_id: str, strict: bool = True) -> tuple[tuple[int, int], int] | None:
    """The legal square and rotation leaving the fewest exposed connectors (cannons facing front first)."""
    tile = catalog.component(component_id)
    rotations = (0,) if tile.is_engine else (0, 1, 3, 2) if tile.is_cannon else (0, 1, 2, 3)
    # Keep the rear edge free for engines until the ship has some.
    engines = sum(1 for p in ship.tiles.values() if p.tile.is_engine)
    rear_edge = {sq for sq in ship.squares if neighbour(sq, BOTTOM) not in ship.squares}
    empty = {neighbour(sq, d) for sq in ship.tiles for d in DIRECTIONS} - set(ship.tiles)
    best, best_score = None, None
    for square in sorted(empty & ship.squares):
        for rotation in rotations:
            try:
                building.check_placement(ship, component_id, square, rotation, strict=strict)
            except RuleViolation:
                continue
            if _blocks_a_future_engine(ship, square):
                continue
            ship.tiles[square] = Placed(component_id, rotation)
            score = building.exposed_connectors(ship) + (2 if tile.is_cannon and rotation != 0 else 0)
            if square in rear_edge and not tile.is_engine and engines < 2:
                score += 4
            del ship.tiles[square]
            if best_score is None or score < best_score:
                best, best_score = (square, rotation), score
    return best


def _blocks_a_future_engine(ship, square) -> bool:
    # Keep the square below an engine free: inspection flags anything behind an exhaust.
    above = neighbour(square, TOP)
    placed = ship.tiles.get(above)
    return placed is not None and placed.tile.is_engine


def opening_move(state: TruckerState, player: str) -> Command | None:
    """What any level does first: start the sand if nobody has, put back a pile it is looking at."""
    if not state.building_started:
        return m.StartBuilding(at=0.0)
    if state.seats[player].looking_at is not None:
        return m.PutBackPile()
    return None


def build_command(state: TruckerState, player: str, rnd: random.Random, level: str = "normal") -> Command:
    if level == "strong":
        from trucker_rules import strong_build
        return strong_build.build_command(state, player)
    opening = opening_move(state, player)
    if opening is not None:
        return opening
    me = state.seats[player]
    ship = me.ship
    if me.hand is not None:
        wanted = _wanted(ship, me.hand, level) or me.from_reserve or (ship.built_count() > 2 and rnd.random() < 0.15)
        spot = best_placement(ship, me.hand) if wanted else None
        if spot is not None:
            return m.PlaceComponent(square=spot[0], rotation=spot[1])
        if me.from_reserve:
            return m.ReserveComponent()
        from trucker_rules.build_phase import reserve_slots
        if wanted and len(ship.reserve) < reserve_slots(state) and rnd.random() < 0.3:
            return m.ReserveComponent()
        return m.ReturnComponent()
    for component_id in ship.reserve:
        if best_placement(ship, component_id) is not None:
            return m.TakeReserved(component=component_id)
    counts = _counts(ship)
    sound = counts.get("engine", 0) + counts.get("double_engine", 0) > 0    # the starting cabin brings crew
    grabs = _grabs(state)
    big_enough = ship.built_count() + 1 >= int(len(ship.squares) * 0.8)
    if sound and (big_enough or grabs > 100):
        return m.Finish()
    if not sound:
        for component_id in state.face_up:
            if catalog.component(component_id).is_engine and best_placement(ship, component_id) is not None:
                return m.GrabFaceUp(component=component_id)
    if not state.face_down:
        return m.Finish()
    if ship.built_count() > 0 and rnd.random() < 0.03:
        free = [n for n in (1, 2, 3) if all(p.looking_at != n for p in state.seats.values())]
        if free:
            return m.LookAtPile(pile=rnd.choice(free))
    wanted = [c for c in state.face_up if _wanted(ship, c, level)]
    for component_id in rnd.sample(wanted, min(2, len(wanted))):
        if best_placement(ship, component_id) is not None:
            return m.GrabFaceUp(component=component_id)
    return m.GrabFaceDown()


def _grabs(state: TruckerState) -> int:
    return len(catalog.warehouse_ids()) - len(state.face_down)
