"""Flying one spaceship route hex by hex (7.1): start at an own base, enter adjacent hexes (1 MP, +1 MP to
explore and draw a tile, $10 survey payment), refuel at own stations, pick up ore, end at a base or a
transshipment point to earn."""
from __future__ import annotations

from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038 import hexmap, tiles
from t2038.payments import pay
from t2038.state import State
from t2038.tables import entities
from t2038.values import route_value

TORCH, ICE_FINDER, DRILL_HOUND, LUCKY = "i:5", "i:2", "i:3", "i:6"
SURVEY_PAYMENT: int = entities()["costs"]["survey_payment"]   # the Survey Board (bank) pays per hex explored
REFUEL_GAIN: int = entities()["costs"]["refuel_gain"]         # movement a station adds (7.11), capped at the start
DRAW_UNTIL = {ICE_FINDER: "I", DRILL_HOUND: "R"}     # draw a second tile when the first lacks this ore


def operator_bases(state: State, operator: str) -> list[str]:
    if operator == "probe":
        return ["K9"]
    symbol = operator[2:]
    if operator.startswith("i:"):
        return [entities()["independents"][int(symbol)]["home"]]
    return [hex_ for hex_, owner in state.bases.items() if owner == symbol]


def flying_for(state: State, operator: str) -> str:
    """The ship owner whose fleet this operator flies (the Probe step flies TSI's Probe)."""
    return "c:TSI" if operator == "probe" else operator


def movement_of(state: State, pilot: str, ship_id: str) -> int:
    return state.ships[ship_id].movement + (1 if pilot == TORCH else 0)


def pilots_of(state: State, operator: str) -> list[str]:
    """Pilots a corporation may assign (Independents it absorbed), until Phase V removes them."""
    return [f"i:{n}" for n, owner in state.company_owner.items() if owner == f"pilot:{operator[2:]}"]


def is_unexplored(state: State, hex_: str) -> bool:
    return hex_ in hexmap.unexplored_at_start() and hex_ not in state.tiles


def survey_payee(state: State, operator: str) -> str:
    return state.company_owner[10] if operator == "probe" else operator


def start_route(tx: Tx, operator: str, ship_id: str, base: str, pilot: int | None = None) -> None:
    s = tx.state
    if s.flight is not None:
        refuse("ROUTE_IN_PROGRESS", f"{s.flight.ship} is still flying; end its route first")
    ship = s.ships.get(ship_id)
    if ship is None or ship.owner != flying_for(s, operator):
        refuse("NOT_YOUR_SHIP", f"{ship_id} does not belong to {operator}")
    if ship_id in s.flown:
        refuse("SHIP_ALREADY_FLEW", f"{ship_id} has already run its route this operating round")
    if base not in operator_bases(s, operator):
        refuse("NOT_YOUR_BASE", f"a route must start at one of {operator}'s bases, not {base}")
    flier = operator if operator.startswith("i:") else ""
    if pilot is not None:
        if f"i:{pilot}" not in pilots_of(s, operator):
            refuse("NOT_YOUR_PILOT", f"{operator} has no pilot {pilot}")
        if f"i:{pilot}" in s.pilots_used:
            refuse("PILOT_ALREADY_FLEW", f"pilot {pilot} has flown a ship this operating round")
        flier = f"i:{pilot}"
    tx.emit(ev.RouteStarted(ship=ship_id, hex=base, movement=movement_of(s, flier, ship_id),
                            holds=ship.holds, pilot=flier, pilot_is_owner=flier == operator))


def move(tx: Tx, operator: str, hex_: str, explore: bool) -> None:
    s = tx.state
    f = s.flight
    if f is None:
        refuse("NO_ROUTE", "start a route before moving")
    if f.choice:
        refuse("TILE_CHOICE_PENDING", "choose which drawn tile to place first")
    if not hexmap.adjacent(f.hex, hex_):
        refuse("NOT_ADJACENT", f"{hex_} is not next to {f.hex}")
    if explore and not is_unexplored(s, hex_):
        refuse("ALREADY_EXPLORED", f"{hex_} cannot be explored: it is not an unexplored hex")
    if explore and not s.pool:
        refuse("NO_TILES_LEFT", "every asteroid tile has been placed")
    cost = 2 if explore else 1
    if f.movement < cost:
        refuse("NO_MOVEMENT_LEFT", f"entering{' and exploring' if explore else ''} {hex_} needs {cost} MP; "
                                   f"{f.movement} left")
    refuel = 0
    if s.stations.get(hex_) == operator[2:] and hex_ not in f.refuelled and operator.startswith("c:"):
        refuel = max(0, min(REFUEL_GAIN, f.start_movement - (f.movement - cost)))
    tx.emit(ev.ShipMoved(hex=hex_, cost=cost, refuel=refuel))
    if explore:
        _explore(tx, operator, hex_)


def _explore(tx: Tx, operator: str, hex_: str) -> None:
    s = tx.state
    first = tiles.draw(s.pool, tx.rng)
    pay(tx, "bank", survey_payee(s, operator), SURVEY_PAYMENT, why="survey")
    pilot = s.flight.pilot
    wanted = DRAW_UNTIL.get(pilot)
    if pilot == LUCKY and len(s.pool) > 1:
        second = tiles.draw(s.pool, tx.rng, excluded=(first,))
        tx.emit(ev.TilesOffered(hex=hex_, tiles=[first, second]))
        return
    if wanted and not tiles.has_ore(first, wanted) and len(s.pool) > 1:
        second = tiles.draw(s.pool, tx.rng, excluded=(first,))
        tx.emit(ev.HexExplored(hex=hex_, tile=second, rejected=[first]))
        return
    tx.emit(ev.HexExplored(hex=hex_, tile=first))


def choose_tile(tx: Tx, tile: int) -> None:
    f = tx.state.flight
    if f is None or not f.choice:
        refuse("NO_TILE_CHOICE", "there is no pair of drawn tiles to choose from")
    if tile not in f.choice:
        refuse("NOT_OFFERED", f"tile {tile} is not one of {f.choice}")
    other = [t for t in f.choice if t != tile]
    tx.emit(ev.HexExplored(hex=f.choice_hex, tile=tile, rejected=other))


def pick_up(tx: Tx, operator: str, mine: int) -> None:
    s = tx.state
    f = s.flight
    if f is None:
        refuse("NO_ROUTE", "start a route before picking up ore")
    if f.choice:
        refuse("TILE_CHOICE_PENDING", "choose which drawn tile to place first")
    if f.hex not in s.tiles or f.hex in s.flipped:
        refuse("NO_MINE_HERE", f"{f.hex} holds no asteroid mine")
    mines = tiles.mines(s.tiles[f.hex])
    if not 0 <= mine < len(mines):
        refuse("NO_SUCH_MINE", f"{f.hex} has {len(mines)} mine(s)")
    if len(f.cargo) >= f.holds:
        refuse("HOLDS_FULL", f"{f.ship} has no empty cargo hold")
    key = f"{f.hex}/{mine}"
    if key in s.used_mines:
        refuse("MINE_USED", f"mine {key} has already been used this operating round")
    owner = s.claims.get(key)
    if owner is not None and owner != flying_for(s, operator):
        refuse("MINE_CLAIMED", f"mine {key} is claimed by {owner}")
    value = mines[mine].claimed if owner else mines[mine].unclaimed
    tx.emit(ev.OrePickedUp(hex=f.hex, mine=mine, ore=mines[mine].ore, value=value))


def delivery(state: State, operator: str) -> tuple[int, bool]:
    f = state.flight
    is_base = f.hex in state.bases
    is_point = f.hex in hexmap.transshipment_points() and f.hex not in state.bases
    value = route_value([(ore, value) for _, _, value, ore in f.cargo], f.holds, f.hex, operator=operator,
                        is_base=is_base, is_transshipment=is_point, phase=state.phase, options=state.options,
                        pilot=f.pilot)
    return value, is_base or is_point


def end_route(tx: Tx, operator: str) -> None:
    s = tx.state
    if s.flight is None:
        refuse("NO_ROUTE", "no route is being flown")
    if s.flight.choice:
        refuse("TILE_CHOICE_PENDING", "choose which drawn tile to place first")
    value, delivered = delivery(s, operator)
    tx.emit(ev.RouteEnded(ship=s.flight.ship, value=value, delivered=delivered))
