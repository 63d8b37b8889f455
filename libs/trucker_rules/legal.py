"""`legal_actions`: the full commands a player may send now, each one accepted by `decide` in that state.

Every entry parses with `GAME.parse_command` and names every field, so a random or generic client can
play by picking from the list.

Building is real time. The list is what the player could do on the real-time service (which accepts
exactly these command shapes), as the engine sees the state:
- every (square, rotation) where the component in hand may be placed, or the newest one moved (turning
  it where it lies included), the grabs (face down, each face-up tile, each reserved one), reserve,
  return, each adventure pile one may pick up or the one to put back, and finishing with each free
  order tile;
- `TurnTimer{at}` names the moment the sand runs out (`at = runs_out_at`), the earliest the engine
  accepts it; the service stamps its own clock instead and refuses it while the sand still runs;
- `StartBuilding{at: 0}` only before the round's building has started (the service starts building
  itself when a player arrives, so a player connected to it never sees that state);
- `CallTimeUp` is never listed: the table's clock (the service) ends building, not a player.

Repair and the flight decisions are in `legal_flight.py`.
"""
from __future__ import annotations

from starbase_rules.contract import Command, RuleViolation

from trucker_rules import building
from trucker_rules import messages as m
from trucker_rules.build_phase import reserve_slots
from trucker_rules.catalog import DIRECTIONS, neighbour
from trucker_rules.legal_flight import flight_actions, repairs
from trucker_rules.ship import Ship
from trucker_rules.state import BUILDING, OVER, REPAIR, Player, TruckerState

LOOKABLE_PILES = (1, 2, 3)        # pile 4 stays secret until the flight


def legal_actions(state: TruckerState, player: str) -> list[dict]:
    seat = state.seats.get(player)
    if seat is None or state.phase == OVER:
        return []
    if state.phase == BUILDING:
        commands = building_actions(state, seat)
    elif state.phase == REPAIR:
        commands = repairs(seat) if seat.flaws else []
    else:
        commands = flight_actions(state, player)
    return [command.model_dump(mode="json") for command in commands]


def building_actions(state: TruckerState, seat: Player) -> list[Command]:
    if not state.building_started:
        return [m.StartBuilding(at=0.0)]
    ship = seat.ship
    building_ship = seat.order_tile is None
    commands: list[Command] = []
    if seat.looking_at is not None:
        commands.append(m.PutBackPile())
    elif seat.hand is not None:
        commands += [m.PlaceComponent(square=sq, rotation=r)
                     for sq, r in placements(ship, seat.hand, _strict(state))]
        if len(ship.reserve) < reserve_slots(state):
            commands.append(m.ReserveComponent())
        if not seat.from_reserve:
            commands.append(m.ReturnComponent())
    else:
        if building_ship:
            commands += _grabs(state, seat)
            if ship.newest is not None:
                newest = ship.tiles[ship.newest]
                rest = Ship(ship.board, {sq: p for sq, p in ship.tiles.items() if sq != ship.newest})
                commands += [m.MoveNewest(square=sq, rotation=r)
                             for sq, r in placements(rest, newest.component, _strict(state))]
                if not seat.from_reserve:
                    commands.append(m.ReturnComponent())
            commands += [m.Finish(order_tile=tile) for tile in sorted(state.order_tiles_free)]
        if ship.built_count() > 0:       # a finished player may still look at the piles
            held = {p.looking_at for p in state.seats.values()}
            commands += [m.LookAtPile(pile=pile) for pile in LOOKABLE_PILES if pile not in held]
    if _hourglass_may_turn(state, seat):
        commands.append(m.TurnTimer(at=state.runs_out_at))
    return commands


def _grabs(state: TruckerState, seat: Player) -> list[Command]:
    commands: list[Command] = [m.GrabFaceDown()] if state.face_down else []
    commands += [m.GrabFaceUp(component=tile) for tile in sorted(set(state.face_up))]
    commands += [m.TakeReserved(component=tile) for tile in sorted(set(seat.ship.reserve))]
    return commands


def _hourglass_may_turn(state: TruckerState, seat: Player) -> bool:
    """Whether the hourglass may be turned once its sand has run out: not on START, and onto START only
    by a player holding an order tile."""
    if state.timer_space == 0 or state.runs_out_at is None:
        return False
    return state.timer_space > 1 or seat.order_tile is not None


def _strict(state: TruckerState) -> bool:
    return bool(state.options.get("refuse_flawed_placements", False))


def placements(ship: Ship, component: str, strict: bool) -> list[tuple[tuple[int, int], int]]:
    """Every (square, rotation) where the rules accept `component` on `ship`, squares in order."""
    beside = {neighbour(sq, d) for sq in ship.tiles for d in DIRECTIONS} - set(ship.tiles)
    found = []
    for square in sorted(beside & ship.squares):
        for rotation in range(4):
            try:
                building.check_placement(ship, component, square, rotation, strict)
            except RuleViolation:
                continue
            found.append((square, rotation))
    return found
