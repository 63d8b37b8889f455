"""`legal_actions`: the full commands a player may send now, each one accepted by `decide` in that state.

Every entry parses with `GAME.parse_command` and names every field, so a random or generic client can
play by picking from the list. The rules are not repeated here: this module only proposes candidates
(every command with every value worth trying) and keeps those the engine's own deciders accept
(`rules.decide_alone`: the command's own events, without what follows a move by itself).

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
- `CallTimeUp` is never proposed: the table's clock (the service) ends building, not a player.

Repair and the flight decisions: `legal_flight.py`.
"""
from __future__ import annotations

from starbase_rules.contract import Command

from trucker_rules import messages as m
from trucker_rules.catalog import DIRECTIONS, neighbour
from trucker_rules.legal_flight import flight_actions, keep_accepted, repairs
from trucker_rules.rules import decide_alone
from trucker_rules.ship import Ship
from trucker_rules.state import BUILDING, OVER, REPAIR, Player, TruckerState

ADVENTURE_PILES = (1, 2, 3, 4)     # the engine says which may be picked up now (pile 4 stays secret)


class NoChance:
    """The rng of a trial decision: a draw (a face-down grab, a pile's first cards) takes the first
    candidate; whether the move is legal never depends on what is drawn."""
    used = 0

    def randbelow(self, n: int) -> int:
        return 0


def legal_actions(state: TruckerState, player: str) -> list[dict]:
    seat = state.seats.get(player)
    if seat is None or state.phase == OVER:
        return []
    if state.phase == BUILDING:
        commands = building_actions(state, seat)
    elif state.phase == REPAIR:
        commands = repairs(state, player)
    else:
        commands = flight_actions(state, player)
    return [command.model_dump(mode="json") for command in commands]


def building_actions(state: TruckerState, seat: Player) -> list[Command]:
    return keep_accepted(_building_candidates(state, seat),
                         lambda c: decide_alone(state, c, seat.name, NoChance()))


def _building_candidates(state: TruckerState, seat: Player) -> list[Command]:
    if not state.building_started:
        return [m.StartBuilding(at=0.0)]
    ship = seat.ship
    candidates: list[Command] = [m.GrabFaceDown()]
    candidates += [m.GrabFaceUp(component=tile) for tile in sorted(set(state.face_up))]
    candidates += [m.TakeReserved(component=tile) for tile in sorted(set(ship.reserve))]
    if seat.hand is not None:
        candidates += [m.PlaceComponent(square=sq, rotation=r) for sq, r in spots(ship)]
    if ship.newest is not None:
        rest = Ship(ship.board, {sq: p for sq, p in ship.tiles.items() if sq != ship.newest})
        candidates += [m.MoveNewest(square=sq, rotation=r) for sq, r in spots(rest)]
    candidates += [m.ReturnComponent(), m.ReserveComponent(), m.PutBackPile()]
    candidates += [m.LookAtPile(pile=pile) for pile in ADVENTURE_PILES]
    candidates += [m.Finish(order_tile=tile) for tile in sorted(state.order_tiles_free)]
    candidates.append(m.TurnTimer(at=state.runs_out_at))
    return candidates


def spots(ship: Ship) -> list[tuple[tuple[int, int], int]]:
    """Every (square, rotation) that could take a component: board squares beside the ship."""
    beside = {neighbour(sq, d) for sq in ship.tiles for d in DIRECTIONS} - set(ship.tiles)
    return [(square, rotation) for square in sorted(beside & ship.squares) for rotation in range(4)]
