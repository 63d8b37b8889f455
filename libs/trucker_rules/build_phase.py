"""Round setup and the real-time building phase: the decide handlers (refuse, or emit the events).

Their effect on the state is in `build_evolve.py`. Every refusal is a RuleViolation with a stable code.
Each handler reads `tx.state` to check, then emits: on the `DeferredTx` of `rules.decide_alone` (the
real-time service's moves) that costs no copy of the state.
"""
from __future__ import annotations

from starbase_rules.contract import Event
from starbase_rules.scratch import Tx, refuse

from trucker_rules import building, catalog, deck
from trucker_rules import messages as m
from trucker_rules.rules import RULES, decide_alone
from trucker_rules.ship import Ship
from trucker_rules.state import BUILDING, REPAIR, TruckerState

# The real-time service's name for a building move decided alone (kept for its imports).
decide_building = decide_alone


# -------------------------------------------------------------------------------------- round setup
def round_setup_events(state: TruckerState, round_no: int, rng) -> list[Event]:
    """Every tile back in the face-down pile (no order: each grab draws); the round's adventure piles laid
    out (no cards yet: each is drawn when it becomes known, see `deck.py`)."""
    ship_class = state.options.get("round3_board", "III") if round_no == 3 else catalog.ship_class_for_round(round_no)
    return [m.RoundStarted(round=round_no, ship_class=ship_class,
                           order_tiles=list(range(1, len(state.players) + 1))),
            m.FlightDeckDealt(round=round_no, piles=catalog.deck_recipe(round_no)["piles"])]


# ------------------------------------------------------------------------------- the face-down pile
def draw_face_down(face_down: list[str], rng) -> str:
    """The tile a face-down grab takes: drawn now, uniformly, over the remaining tiles in sorted order.
    Drawing one tile per grab from what is left is a lazy Fisher-Yates shuffle (the same distribution as
    shuffling the pile once), but no order exists before each grab, so none can leak."""
    remaining = sorted(face_down)
    return remaining[rng.randbelow(len(remaining))]


def face_down_sequence(face_down: list[str], rng) -> list[tuple[str, int]]:
    """Every face-down grab still to come, in order, each with the rng counter after it (`rng.used`).

    Valid until the next other draw while building: besides the grabs only the first look at an
    adventure pile draws (its cards), and the move that ends building (no grab follows it); the pile
    only shrinks by these grabs (returned tiles go face up). So a caller that must decide grabs outside
    `decide` (the real-time service) can compute them up front from (seed, counter), again after a
    pile's first look, and keep them private; the audit re-derives each grab the same way."""
    remaining, sequence = sorted(face_down), []
    while remaining:   # the same draw as draw_face_down, on a list that stays sorted as it shrinks
        tile = remaining.pop(rng.randbelow(len(remaining)))
        sequence.append((tile, rng.used))
    return sequence


# ------------------------------------------------------------------------------------------- decide
def _builder(state: TruckerState, actor: str):
    if state.phase != BUILDING:
        refuse("NOT_BUILDING", "ships can only be built during the building phase")
    if not state.building_started:
        refuse("BUILDING_NOT_STARTED", "building has not started yet")
    player = state.seats[actor]
    if player.order_tile is not None:
        refuse("ALREADY_FINISHED", "you have finished your ship and may add nothing more")
    return player


def _free_hand(player) -> None:
    if player.hand is not None:
        refuse("HAND_FULL", f"you are holding {player.hand}: place, return or reserve it first")
    if player.looking_at is not None:
        refuse("LOOKING_AT_PILE", "put the adventure pile back first")


@RULES.decides(m.StartBuilding)
def _start(tx: Tx[TruckerState], command: m.StartBuilding, actor) -> None:
    state = tx.state
    if state.phase != BUILDING:
        refuse("NOT_BUILDING", "there is no building phase to start")
    if state.building_started:
        refuse("ALREADY_STARTED", "building has already started")
    tx.emit(m.BuildingStarted(at=command.at, timer_space=catalog.hourglass_start_space(state.round),
                              runs_out_at=command.at + _seconds(state)))


def _seconds(state) -> float:
    return float(state.options.get("hourglass_seconds", catalog.hourglass_seconds()))


@RULES.decides(m.GrabFaceDown)
def _grab_face_down(tx: Tx[TruckerState], command, actor) -> None:
    state = tx.state
    _free_hand(_builder(state, actor))
    if not state.face_down:
        refuse("WAREHOUSE_EMPTY", "no face-down component is left")
    tx.emit(m.ComponentGrabbed(player=actor, component=draw_face_down(state.face_down, tx.rng), source="face_down"))


@RULES.decides(m.GrabFaceUp)
def _grab_face_up(tx: Tx[TruckerState], command: m.GrabFaceUp, actor) -> None:
    state = tx.state
    _free_hand(_builder(state, actor))
    if command.component not in state.face_up:
        refuse("NOT_FACE_UP", f"{command.component} is not lying face up in the warehouse")
    tx.emit(m.ComponentGrabbed(player=actor, component=command.component, source="face_up"))


@RULES.decides(m.TakeReserved)
def _take_reserved(tx: Tx[TruckerState], command: m.TakeReserved, actor) -> None:
    player = _builder(tx.state, actor)
    _free_hand(player)
    if command.component not in player.ship.reserve:
        refuse("NOT_IN_RESERVE", f"{command.component} is not in your reserve")
    tx.emit(m.ComponentGrabbed(player=actor, component=command.component, source="reserve"))


def _strict(state) -> bool:
    return bool(state.options.get("refuse_flawed_placements", False))


@RULES.decides(m.PlaceComponent)
def _place(tx: Tx[TruckerState], command: m.PlaceComponent, actor) -> None:
    state = tx.state
    player = _builder(state, actor)
    if player.hand is None:
        refuse("NOTHING_IN_HAND", "you hold no component to place")
    square = tuple(command.square)
    building.check_placement(player.ship, player.hand, square, command.rotation, _strict(state))
    tx.emit(m.ComponentPlaced(player=actor, component=player.hand, square=square, rotation=command.rotation))


@RULES.decides(m.MoveNewest)
def _move_newest(tx: Tx[TruckerState], command: m.MoveNewest, actor) -> None:
    state = tx.state
    ship = _builder(state, actor).ship
    if ship.newest is None:
        refuse("NO_NEWEST_COMPONENT", "no placed component may still be moved")
    newest = ship.tiles[ship.newest]
    without = Ship(ship.board, {sq: p for sq, p in ship.tiles.items() if sq != ship.newest})
    building.check_placement(without, newest.component, tuple(command.square), command.rotation, _strict(state))
    tx.emit(m.NewestMoved(player=actor, component=newest.component, square=tuple(command.square),
                          rotation=command.rotation))


@RULES.decides(m.ReturnComponent)
def _return(tx: Tx[TruckerState], command, actor) -> None:
    player = _builder(tx.state, actor)
    if player.from_reserve and (player.hand is not None or player.ship.newest is not None):
        refuse("RESERVED_STAYS", "a set-aside component may never go back to the warehouse")
    if player.hand is not None:
        tx.emit(m.ComponentReturned(player=actor, component=player.hand, source="hand"))
    elif player.ship.newest is not None:
        tx.emit(m.ComponentReturned(player=actor, component=player.ship.tiles[player.ship.newest].component,
                                    source="ship"))
    else:
        refuse("NOTHING_TO_RETURN", "you hold nothing and your newest component is already fixed")


@RULES.decides(m.ReserveComponent)
def _reserve(tx: Tx[TruckerState], command, actor) -> None:
    state = tx.state
    player = _builder(state, actor)
    if player.hand is None:
        refuse("NOTHING_IN_HAND", "you hold no component to set aside")
    if reserve_slots(state) == 0:
        refuse("NO_RESERVE_THIS_ROUND", "there are no reserve spots in this round")
    if len(player.ship.reserve) >= reserve_slots(state):
        refuse("RESERVE_FULL", "both reserve spots are taken")
    tx.emit(m.ComponentReserved(player=actor, component=player.hand))


def reserve_slots(state: TruckerState) -> int:
    if state.round == 1 and not state.options.get("reserve_in_round_1", True):
        return 0
    return catalog.ship_board(state.seats[state.players[0]].ship.board).reserve_slots


@RULES.decides(m.LookAtPile)
def _look(tx: Tx[TruckerState], command: m.LookAtPile, actor) -> None:
    state = tx.state
    if state.phase != BUILDING or not state.building_started:
        refuse("NOT_BUILDING", "the piles can be looked at only while building")
    player = state.seats[actor]
    if command.pile == 4:
        refuse("PILE_SECRET", "pile 4 stays secret until the flight")
    if player.ship.built_count() == 0:
        refuse("NOTHING_BUILT", "attach a component to your ship before looking at a pile")
    if player.looking_at is not None:
        refuse("ALREADY_LOOKING", f"you are already holding pile {player.looking_at}")
    if player.hand is not None:
        refuse("HAND_FULL", "you cannot look at a pile while holding a component")
    if any(p.looking_at == command.pile for p in state.seats.values()):
        refuse("PILE_IN_USE", f"someone else is looking at pile {command.pile}")
    # A pile nobody has looked at this round has no cards yet: they are drawn now, for this player's eyes.
    cards = None if state.piles[command.pile - 1] else deck.draw_pile(state, tx.rng)
    tx.emit(m.PileTaken(player=actor, pile=command.pile, cards=cards))


@RULES.decides(m.PutBackPile)
def _put_back(tx: Tx[TruckerState], command, actor) -> None:
    player = tx.state.seats.get(actor)
    if player is None or player.looking_at is None:
        refuse("NOT_LOOKING", "you are not holding an adventure pile")
    tx.emit(m.PileReturned(player=actor, pile=player.looking_at))


@RULES.decides(m.TurnTimer)
def _turn_timer(tx: Tx[TruckerState], command: m.TurnTimer, actor) -> None:
    state = tx.state
    if state.phase != BUILDING or not state.building_started:
        refuse("NOT_BUILDING", "the hourglass runs only while building")
    if command.at < state.runs_out_at:
        refuse("SAND_STILL_RUNNING", f"the sand runs out at {state.runs_out_at}")
    if state.timer_space == 0:
        refuse("TIMER_ON_START", "the hourglass is on START: when it runs out building ends")
    if state.timer_space == 1 and (actor not in state.seats or state.seats[actor].order_tile is None):
        refuse("NOT_FINISHED", "only a player holding an order tile may move the hourglass onto START")
    tx.emit(m.TimerTurned(player=actor, at=command.at, timer_space=state.timer_space - 1,
                          runs_out_at=command.at + _seconds(state)))


@RULES.decides(m.CallTimeUp)
def _time_up(tx: Tx[TruckerState], command: m.CallTimeUp, actor) -> None:
    state = tx.state
    if state.phase != BUILDING or not state.building_started:
        refuse("NOT_BUILDING", "building is not running")
    if state.timer_space != 0:
        refuse("TIMER_NOT_ON_START", "building ends only when the sand runs out on START")
    if command.at < state.runs_out_at:
        refuse("SAND_STILL_RUNNING", f"the sand runs out at {state.runs_out_at}")
    for event in end_of_building_events(state, "time_up"):
        tx.emit(event)


@RULES.decides(m.Finish)
def _finish(tx: Tx[TruckerState], command: m.Finish, actor) -> None:
    state = tx.state
    _free_hand(_builder(state, actor))
    free = state.order_tiles_free
    tile = command.order_tile if command.order_tile is not None else (min(free) if free else None)
    if tile not in range(1, len(state.players) + 1):
        refuse("NO_SUCH_ORDER_TILE", f"order tiles run from 1 to {len(state.players)}")
    if tile not in free:
        refuse("ORDER_TILE_TAKEN", f"order tile {tile} is already taken")
    tx.emit(m.ShipFinished(player=actor, order_tile=tile))
    if all(p.order_tile is not None for p in state.seats.values() if p.name != actor):
        for event in end_of_building_events(tx.state, "all_finished"):
            tx.emit(event)


def end_of_building_events(state: TruckerState, reason: str) -> list[Event]:
    """Building stops: hands emptied, piles put back, order tiles handed out, reserves lost, ships inspected."""
    events: list[Event] = [m.BuildingEnded(reason=reason)]
    free = sorted(state.order_tiles_free)
    for name in state.players:
        player = state.seats[name]
        if player.looking_at is not None:
            events.append(m.PileReturned(player=name, pile=player.looking_at))
        if player.hand is not None:
            # A hand that came from the reserve goes back to the reserve; any other back face up.
            events.append(m.ComponentReserved(player=name, component=player.hand) if player.from_reserve
                          else m.ComponentReturned(player=name, component=player.hand, source="hand"))
        if player.order_tile is None:
            events.append(m.ShipFinished(player=name, order_tile=free.pop(0)))
    for name in state.players:
        player = state.seats[name]
        reserve = list(player.ship.reserve)
        if player.hand is not None and player.from_reserve:
            reserve.append(player.hand)
        if reserve:
            events.append(m.ReserveLost(player=name, components=reserve))
    for name in state.players:
        ship = state.seats[name].ship
        flaws = building.inspect(ship)
        events.append(m.ShipInspected(player=name, flaws=[m.FlawNote(code=f.code, square=f.square) for f in flaws],
                                      exposed_connectors=building.exposed_connectors(ship)))
    return events


@RULES.decides(m.RepairShip)
def _repair(tx: Tx[TruckerState], command: m.RepairShip, actor) -> None:
    state = tx.state
    if state.phase != REPAIR:
        refuse("NOT_REPAIRING", "ships are repaired only after the inspection")
    player = state.seats.get(actor)
    if player is None or not player.flaws:
        refuse("NO_REPAIR_OWED", "your ship passed the inspection")
    remove = [tuple(sq) for sq in command.remove]
    lost = building.check_repair(player.ship, remove, tuple(command.keep) if command.keep else None)
    tx.emit(m.ShipRepaired(player=actor, removed=sorted(lost)))
