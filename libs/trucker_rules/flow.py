"""What happens by itself between player decisions (inspection closing, launch, revealing and resolving
cards, Journey's End, the next round), who owes a decision now, and the flight decisions themselves."""
from __future__ import annotations

from starbase_rules.contract import Event
from starbase_rules.scratch import Tx, refuse

from trucker_rules import card_effects, catalog, deck, scoring, track
from trucker_rules import flight_checks as checks
from trucker_rules import flight_messages as f
from trucker_rules import shipvalues as sv
from trucker_rules.cards import Emit, Script
from trucker_rules.rules import RULES
from trucker_rules.state import BUILDING, FLIGHT, LAUNCH, OVER, REPAIR, TruckerState


def new_step(order: list[str] | None = None) -> dict:
    return {"order": list(order or []), "done": [], "answers": {}, "values": {}, "ask": None}


def follow_up(tx: Tx[TruckerState]) -> None:
    """Emit everything automatic after a decision, until someone owes a decision or the game is over."""
    while events := advance(tx.state, tx.rng):
        for event in events:
            tx.emit(event)


def advance(state: TruckerState, rng) -> list[Event]:
    if state.phase in (OVER, BUILDING) or (state.step and state.step.get("ask")):
        return []
    if state.phase == REPAIR:
        return [] if any(p.flaws for p in state.seats.values()) else [f.InspectionClosed()]
    if state.phase == LAUNCH:
        return _launch(state, rng)
    if state.card is None:
        if not deck.cards_left(state) or not track.flying(state):
            return scoring.journeys_end(state, rng)
        return [f.CardRevealed(card=deck.draw_next_card(state, rng), flight_order=track.flying(state))]
    try:
        card_effects.RESOLVERS[catalog.cards()[state.card]["type"]](Script(state, rng))
    except Emit as emitted:
        return emitted.events
    return _end_of_card(state)


def _launch(state: TruckerState, rng) -> list[Event]:
    by_tile = sorted(state.players, key=lambda n: state.seats[n].order_tile)
    answers = state.step["answers"]
    for name in by_tile:                         # aliens are chosen in flight order
        key = f"aliens/{name}"
        if key in answers:
            continue
        options = sv.alien_options(state.seats[name].ship)
        if not options:
            return [f.DecisionTaken(player=name, key=key, value=[])]
        return [f.DecisionRequested(player=name, kind="aliens", key=key,
                                    options={"cabins": [[list(sq), colours] for sq, colours in sorted(options.items())]})]
    events: list[Event] = []
    starts = catalog.start_positions(state.round)
    for name in by_tile:
        ship = state.seats[name].ship
        aliens = [(tuple(sq), colour) for sq, colour in answers[f"aliens/{name}"]]
        alien_squares = {sq for sq, _ in aliens}
        humans = [(sq, 2) for sq, p in sorted(ship.tiles.items()) if p.tile.is_cabin and sq not in alien_squares]
        batteries = [(sq, p.tile.capacity) for sq, p in sorted(ship.tiles.items()) if p.tile.kind == "battery"]
        events.append(f.ShipLaunched(player=name, position=starts[state.seats[name].order_tile - 1],
                                     humans=humans, aliens=aliens, batteries=batteries))
    return events + [f.FlightDeckShuffled()]


def _end_of_card(state: TruckerState) -> list[Event]:
    events: list[Event] = []
    lapped = set(track.lapped(state)) if state.options.get("lapped_ship_gives_up", True) else set()
    for name in track.flying(state):
        seat = state.seats[name]
        if seat.giving_up:
            events.append(f.ShipGaveUp(player=name, reason="chose_to"))
        elif seat.ship.human_crew() == 0:
            events.append(f.ShipGaveUp(player=name, reason="no_humans"))
        elif name in lapped:
            events.append(f.ShipGaveUp(player=name, reason="lapped"))
    return events + [f.CardResolved(card=state.card)]


# ---------------------------------------------------------------- flight decisions (decide handlers)
_KINDS = {f.ChooseAliens: "aliens", f.PowerEngines: "engines", f.FireCannons: "cannons",
          f.ChoosePlanet: "planet", f.AnswerOffer: "offer", f.Defend: "defend", f.KeepPart: "keep_part",
          f.ChooseCrewLoss: "crew", f.ChooseGoodsLoss: "goods_loss", f.ArrangeCargo: "cargo"}


@RULES.decides(f.GiveUp)
def _give_up(tx: Tx[TruckerState], command: f.GiveUp, actor: str) -> None:
    state = tx.state
    if state.phase != FLIGHT or actor not in track.flying(state):
        refuse("NOT_FLYING", "only a ship in flight can give up")
    if not state.options.get("voluntary_give_up", True):
        refuse("GIVING_UP_NOT_ALLOWED", "this table does not allow giving up")
    if state.seats[actor].giving_up:
        refuse("ALREADY_GIVING_UP", "you have already given up; it counts once this card is resolved")
    tx.emit(f.GiveUpAnnounced(player=actor))


def _answer(tx: Tx[TruckerState], command, actor: str) -> None:
    """The answer to the decision `actor` owes (DecisionRequested), recorded as DecisionTaken."""
    state = tx.state
    ask = state.step.get("ask") if state.step else None
    if ask is None or state.phase not in (LAUNCH, FLIGHT):
        refuse("NO_DECISION_OWED", "nobody owes a decision now")
    if ask["player"] != actor:
        refuse("NOT_YOUR_DECISION", f"{ask['player']} is to decide ({ask['kind']})")
    if _KINDS[type(command)] != ask["kind"]:
        refuse("WRONG_DECISION", f"a {ask['kind']} decision is owed, not {command.type}")
    value = checks.checked_value(state, command, actor, ask["options"])
    batteries = checks.checked_batteries(state.seats[actor].ship, command)
    tx.emit(f.DecisionTaken(player=actor, key=ask["key"], value=value))
    if batteries:   # the owner's own choice of battery components, kept under a key of its own
        tx.emit(f.DecisionTaken(player=actor, key=ask["key"] + "/batteries", value=batteries))


for _kind in _KINDS:
    RULES.decides(_kind)(_answer)


def to_act(state: TruckerState) -> list[str]:
    if state.phase == BUILDING:     # still building, or holding a pile the others may want
        return [n for n in state.players if state.seats[n].order_tile is None or state.seats[n].looking_at]
    if state.phase == REPAIR:
        return [n for n in state.players if state.seats[n].flaws]
    ask = state.step.get("ask") if state.step else None
    return [ask["player"]] if ask else []


# ------------------------------------------------------------------------------------------- evolve
@RULES.evolves(f.InspectionClosed)
def _inspection_closed(state, e):
    state.phase, state.step = LAUNCH, new_step()


@RULES.evolves(f.DecisionRequested)
def _requested(state, e: f.DecisionRequested):
    state.step["ask"] = {"player": e.player, "kind": e.kind, "key": e.key, "options": e.options}


@RULES.evolves(f.DecisionTaken)
def _taken(state, e: f.DecisionTaken):
    state.step["answers"][e.key] = e.value
    state.step["ask"] = None


@RULES.evolves(f.Progressed)
def _progressed(state, e: f.Progressed):
    state.step["done"].append(e.marker)
    if e.value is not None:
        state.step["values"][e.marker] = e.value


@RULES.evolves(f.DiceRolled)
def _rolled(state, e: f.DiceRolled):
    state.step["answers"][e.key] = list(e.dice)


@RULES.evolves(f.ShipLaunched)
def _launched(state, e: f.ShipLaunched):
    seat = state.seats[e.player]
    seat.position = e.position
    seat.ship.humans = {tuple(sq): n for sq, n in e.humans}
    seat.ship.aliens = {tuple(sq): c for sq, c in e.aliens}
    seat.ship.batteries = {tuple(sq): n for sq, n in e.batteries}
    seat.ship.goods = {}


@RULES.evolves(f.FlightDeckShuffled)
def _deck_shuffled(state, e: f.FlightDeckShuffled):
    state.deck = sorted(c for pile in state.piles for c in pile)
    state.deck_unseen = deck.unseen_slots_at_launch(state)
    state.phase, state.step = FLIGHT, {}


@RULES.evolves(f.CardRevealed)
def _revealed(state, e: f.CardRevealed):
    if e.card in state.deck:
        state.deck.remove(e.card)
    else:   # an unseen card of the deck: known from now on
        level = catalog.cards()[e.card]["level"]
        state.deck_unseen[level] -= 1
        if not state.deck_unseen[level]:
            del state.deck_unseen[level]
        state.used_cards.append(e.card)
        state.round_cards.append(e.card)
    state.card, state.step = e.card, new_step(e.flight_order)


@RULES.evolves(f.CardResolved)
def _resolved(state, e: f.CardResolved):
    state.card, state.step = None, {}


@RULES.evolves(f.BatteriesSpent)
def _spent(state, e: f.BatteriesSpent):
    for square in e.squares:
        state.seats[e.player].ship.batteries[tuple(square)] -= 1


@RULES.evolves(f.ShipMoved)
def _moved(state, e: f.ShipMoved):
    state.seats[e.player].position = e.position


@RULES.evolves(f.CrewLost)
def _crew_lost(state, e: f.CrewLost):
    ship = state.seats[e.player].ship
    for square, what in e.losses:
        square = tuple(square)
        if what == "human":
            ship.humans[square] -= 1
            if ship.humans[square] == 0:
                del ship.humans[square]
        else:
            del ship.aliens[square]


@RULES.evolves(f.CargoSet)
def _cargo(state, e: f.CargoSet):
    state.seats[e.player].ship.goods = {tuple(sq): list(g) for sq, g in e.cargo}


@RULES.evolves(f.CreditsPaid)
def _paid(state, e: f.CreditsPaid):
    state.seats[e.player].credits += e.amount
    state.bank -= e.amount


@RULES.evolves(f.HazardMet)
def _nothing(state, e):
    pass


def _remove(ship, square) -> None:
    square = tuple(square)
    ship.lost.append(ship.tiles.pop(square).component)
    for holder in (ship.humans, ship.aliens, ship.batteries, ship.goods):
        holder.pop(square, None)
    # An alien whose cabin is no longer joined to life support of its colour leaves the ship.
    supported = sv.alien_options(ship)
    for cabin, colour in list(ship.aliens.items()):
        if colour not in supported.get(cabin, []):
            del ship.aliens[cabin]


@RULES.evolves(f.ComponentDestroyed)
def _destroyed(state, e: f.ComponentDestroyed):
    _remove(state.seats[e.player].ship, e.square)


@RULES.evolves(f.PartKept)
def _part_kept(state, e: f.PartKept):
    for square in e.lost:
        _remove(state.seats[e.player].ship, square)


@RULES.evolves(f.GiveUpAnnounced)
def _announced(state, e: f.GiveUpAnnounced):
    state.seats[e.player].giving_up = True


@RULES.evolves(f.ShipGaveUp)
def _gave_up(state, e: f.ShipGaveUp):
    seat = state.seats[e.player]
    seat.gave_up, seat.giving_up = True, False


@RULES.evolves(f.JourneyEnded)
def _journey_ended(state, e: f.JourneyEnded):
    state.finished_rounds = e.round


@RULES.evolves(f.CreditsTallied)
def _credits_tallied(state, e: f.CreditsTallied):
    state.phase = OVER
