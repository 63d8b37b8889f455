"""Trucker rules engine (pure: no I/O, clock or global random).

Building API for the real-time service (`services/trucker`):

    from trucker_rules import building, catalog, messages
    from trucker_rules.ship import Ship, Placed

    catalog.components() -> {id: Component}      # 140 warehouse tiles + 4 starting cabins (2007)
    catalog.warehouse_ids()                      # the 140 ids of the face-down pile
    catalog.ship_board("I"|"II"|"III"|"IIIa")    # ShipBoard(squares={(col,row)}, ...)
    Ship.new(board, starting_cabin_id)           # cabin on (7, 7)
    building.check_placement(ship, component_id, (col, row), rotation, strict=False)
        raises RuleViolation: BAD_ROTATION SQUARE_NOT_ON_BOARD SQUARE_TAKEN NOT_ADJACENT ILLEGAL_JOINT
        NO_REAL_JOINT (+ ENGINE_NOT_FACING_REAR EXHAUST_BLOCKED BARREL_BLOCKED when strict)
    building.inspect(ship) -> [Flaw(code, square, message)]
    building.check_repair(ship, remove, keep) / building.auto_repair(ship)
    building.exposed_connectors(ship)

Squares are (column, row) with the numbers printed on the board (2d6 totals); rotation is quarter
turns clockwise; directions 0 front, 1 right, 2 rear, 3 left.

Launch, flight and Journey's End: `flight_messages.py` (decisions announced by DecisionRequested,
answered by ChooseAliens, PowerEngines, FireCannons, ChoosePlanet, AnswerOffer, Defend, KeepPart,
ChooseCrewLoss, ChooseGoodsLoss, ArrangeCargo; GiveUp any time). Rulings: RULINGS.md; overview: docs/trucker.md.

The whole game is the decider `trucker_rules.game:GAME`, an `Engine` of the engine base (handlers
registered in `rules.RULES`; `rules.decide_alone` decides one command without what follows it, for the
real-time service, which imports it as `build_phase.decide_building`). Building commands
(`messages.py`): StartBuilding{at}, GrabFaceDown, GrabFaceUp{component}, TakeReserved{component},
PlaceComponent{square, rotation}, MoveNewest{square, rotation}, ReturnComponent, ReserveComponent,
LookAtPile{pile}, PutBackPile, TurnTimer{at}, CallTimeUp{at}, Finish{order_tile?}, RepairShip{remove, keep}.
If building ends outside `GAME.decide` (the service's own timer), use
`trucker_rules.game.end_of_building(state, reason, rng)`: the end-of-building events *and* what follows
by itself (inspection closed, launch, the first cards...), else the game waits for nobody; or call
`trucker_rules.game.automatic_events(state, rng)` after appending `build_phase.end_of_building_events`.
The face-down pile has no order: `GrabFaceDown` draws `rng.randbelow(len(face_down))` over the sorted
remaining tiles at grab time (`build_phase.draw_face_down`), and ComponentGrabbed records the tile. During
building only these grabs and a pile's first look draw, so `build_phase.face_down_sequence` gives every
grab until the next first look in advance from (seed, counter) for a caller that must decide grabs
elsewhere (the real-time service); `GAME.view` shows only the pile's size. Adventure cards are drawn the
same way, when they become known (`deck.py`): a pile's at its first look, the rest as the flight reveals them.
"""
