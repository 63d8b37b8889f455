"""How building events change the state (round setup, the warehouse, hands, ships, order tiles,
inspection and repair). Never fails on a stored event and never draws chance."""
from __future__ import annotations

from starbase_rules.contract import Event

from trucker_rules import catalog
from trucker_rules import messages as m
from trucker_rules.rules import RULES
from trucker_rules.ship import Placed, Ship
from trucker_rules.state import BUILDING, REPAIR, Player, TruckerState


def evolve_building(state: TruckerState, event: Event) -> TruckerState:
    """Evolve by one building event in place (the real-time service's projection of the warehouse)."""
    RULES.evolvers[event.type](state, event)
    return state


@RULES.evolves(m.GameStarted)
def _game_started(state, e: m.GameStarted):
    state.players, state.options = list(e.players), dict(e.options)
    state.seats = {name: Player(name=name, cabin=e.colors[name]) for name in e.players}


@RULES.evolves(m.RoundStarted)
def _round_started(state, e: m.RoundStarted):
    state.round, state.phase = e.round, BUILDING
    state.building_started, state.runs_out_at, state.timer_space = False, None, 0
    # Every tile goes back into the face-down pile, kept in canonical (sorted) order: the pile has no
    # order until a grab draws from it (build_phase.draw_face_down), so the stream never holds one.
    state.face_down, state.face_up = sorted(catalog.warehouse_ids()), []
    state.order_tiles_free = list(e.order_tiles)
    state.card, state.step, state.deck, state.deck_unseen = None, {}, [], {}
    for player in state.seats.values():
        player.ship = Ship.new(e.ship_class, player.cabin)
        player.hand, player.from_reserve, player.order_tile, player.looking_at = None, False, None, None
        player.position, player.gave_up, player.flaws = None, False, []


@RULES.evolves(m.FlightDeckDealt)
def _dealt(state, e: m.FlightDeckDealt):
    state.piles, state.round_cards = [[] for _ in range(e.piles)], []


@RULES.evolves(m.BuildingStarted)
def _started(state, e: m.BuildingStarted):
    state.building_started, state.timer_space, state.runs_out_at = True, e.timer_space, e.runs_out_at


@RULES.evolves(m.ComponentGrabbed)
def _grabbed(state, e: m.ComponentGrabbed):
    player = state.seats[e.player]
    if e.source == "face_down":
        state.face_down.remove(e.component)
    elif e.source == "face_up":
        state.face_up.remove(e.component)
    else:
        player.ship.reserve.remove(e.component)
    player.hand, player.from_reserve = e.component, e.source == "reserve"
    player.ship.newest = None          # grabbing fixes the newest component in place


@RULES.evolves(m.ComponentPlaced)
def _placed(state, e: m.ComponentPlaced):
    player = state.seats[e.player]
    square = tuple(e.square)
    player.ship.tiles[square] = Placed(e.component, e.rotation)
    player.ship.newest, player.hand = square, None


@RULES.evolves(m.NewestMoved)
def _moved(state, e: m.NewestMoved):
    ship = state.seats[e.player].ship
    del ship.tiles[ship.newest]
    square = tuple(e.square)
    ship.tiles[square] = Placed(e.component, e.rotation)
    ship.newest = square


@RULES.evolves(m.ComponentReturned)
def _returned(state, e: m.ComponentReturned):
    player = state.seats[e.player]
    if e.source == "hand":
        player.hand = None
    else:
        del player.ship.tiles[player.ship.newest]
        player.ship.newest = None
    player.from_reserve = False
    state.face_up.append(e.component)


@RULES.evolves(m.ComponentReserved)
def _reserved(state, e: m.ComponentReserved):
    player = state.seats[e.player]
    player.hand, player.from_reserve = None, False
    player.ship.reserve.append(e.component)


@RULES.evolves(m.PileTaken)
def _pile_taken(state, e: m.PileTaken):
    state.seats[e.player].looking_at = e.pile
    if e.cards:   # the pile's first look: its cards are known from now on
        state.piles[e.pile - 1] = list(e.cards)
        state.used_cards += e.cards
        state.round_cards += e.cards


@RULES.evolves(m.PileReturned)
def _pile_returned(state, e: m.PileReturned):
    state.seats[e.player].looking_at = None


@RULES.evolves(m.TimerTurned)
def _timer_turned(state, e: m.TimerTurned):
    state.timer_space, state.runs_out_at = e.timer_space, e.runs_out_at


@RULES.evolves(m.ShipFinished)
def _finished(state, e: m.ShipFinished):
    player = state.seats[e.player]
    player.order_tile = e.order_tile
    player.ship.newest = None
    state.order_tiles_free.remove(e.order_tile)


@RULES.evolves(m.BuildingEnded)
def _ended(state, e: m.BuildingEnded):
    state.phase = REPAIR
    for player in state.seats.values():
        player.ship.newest = None


@RULES.evolves(m.ReserveLost)
def _reserve_lost(state, e: m.ReserveLost):
    ship = state.seats[e.player].ship
    for cid in e.components:
        ship.reserve.remove(cid)
        ship.lost.append(cid)


@RULES.evolves(m.ShipInspected)
def _inspected(state, e: m.ShipInspected):
    state.seats[e.player].flaws = [f.code for f in e.flaws]


@RULES.evolves(m.ShipRepaired)
def _repaired(state, e: m.ShipRepaired):
    player = state.seats[e.player]
    # The lenient variant for first games puts removed components back instead of charging them.
    removed_to = state.face_up if state.options.get("lenient_inspection") else player.ship.lost
    for square in e.removed:
        removed_to.append(player.ship.tiles.pop(tuple(square)).component)
    player.flaws = []
