"""What happens by itself between player decisions (inspection closing, launch, revealing and resolving
cards, Journey's End, the next round), who owes a decision now, and the flight decisions themselves."""
from __future__ import annotations

from starbase_rules.contract import Event, RuleViolation

from trucker_rules import card_effects, catalog, deck, scoring, track
from trucker_rules import flight_checks as checks
from trucker_rules import flight_messages as f
from trucker_rules import shipvalues as sv
from trucker_rules.cards import Emit, Script
from trucker_rules.state import BUILDING, FLIGHT, LAUNCH, OVER, REPAIR, TruckerState


def new_step(order: list[str] | None = None) -> dict:
    return {"order": list(order or []), "done": [], "answers": {}, "values": {}, "ask": None}


def follow_up(state: TruckerState, rng, evolve) -> list[Event]:
    """Everything automatic after a decision, until someone owes a decision or the game is over.
    `state` is a scratch copy that this function advances."""
    produced: list[Event] = []
    while events := advance(state, rng):
        for event in events:
            state = evolve(state, event)
        produced += events
    return produced


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


# ------------------------------------------------------------------------------- flight decisions
_KINDS = {f.ChooseAliens: "aliens", f.PowerEngines: "engines", f.FireCannons: "cannons",
          f.ChoosePlanet: "planet", f.AnswerOffer: "offer", f.Defend: "defend", f.KeepPart: "keep_part",
          f.ChooseCrewLoss: "crew", f.ChooseGoodsLoss: "goods_loss", f.ArrangeCargo: "cargo"}


def decide_flight(state: TruckerState, command, actor, rng) -> list[Event]:
    if isinstance(command, f.GiveUp):
        seat = state.seats.get(actor)
        if state.phase != FLIGHT or seat is None or actor not in track.flying(state):
            raise RuleViolation("NOT_FLYING", "only a ship in flight can give up")
        if not state.options.get("voluntary_give_up", True):
            raise RuleViolation("GIVING_UP_NOT_ALLOWED", "this table does not allow giving up")
        if seat.giving_up:
            raise RuleViolation("ALREADY_GIVING_UP", "you have already given up; it counts once this card is resolved")
        return [f.GiveUpAnnounced(player=actor)]
    ask = state.step.get("ask") if state.step else None
    if ask is None or state.phase not in (LAUNCH, FLIGHT):
        raise RuleViolation("NO_DECISION_OWED", "nobody owes a decision now")
    if ask["player"] != actor:
        raise RuleViolation("NOT_YOUR_DECISION", f"{ask['player']} is to decide ({ask['kind']})")
    if _KINDS[type(command)] != ask["kind"]:
        raise RuleViolation("WRONG_DECISION", f"a {ask['kind']} decision is owed, not {command.type}")
    value = checks.checked_value(state, command, actor, ask["options"])
    taken = [f.DecisionTaken(player=actor, key=ask["key"], value=value)]
    batteries = checks.checked_batteries(state.seats[actor].ship, command)
    if batteries:   # the owner's own choice of battery components, kept under a key of its own
        taken.append(f.DecisionTaken(player=actor, key=ask["key"] + "/batteries", value=batteries))
    return taken


def to_act(state: TruckerState) -> list[str]:
    if state.phase == BUILDING:
        return [n for n in state.players if state.seats[n].order_tile is None]
    if state.phase == REPAIR:
        return [n for n in state.players if state.seats[n].flaws]
    ask = state.step.get("ask") if state.step else None
    return [ask["player"]] if ask else []


# ------------------------------------------------------------------------------------------- evolve
def evolve_flight(state: TruckerState, event: Event) -> TruckerState:
    _EVOLVERS[type(event)](state, event)
    return state


def _inspection_closed(state, e):
    state.phase, state.step = LAUNCH, new_step()


def _requested(state, e: f.DecisionRequested):
    state.step["ask"] = {"player": e.player, "kind": e.kind, "key": e.key, "options": e.options}


def _taken(state, e: f.DecisionTaken):
    state.step["answers"][e.key] = e.value
    state.step["ask"] = None


def _progressed(state, e: f.Progressed):
    state.step["done"].append(e.marker)
    if e.value is not None:
        state.step["values"][e.marker] = e.value


def _rolled(state, e: f.DiceRolled):
    state.step["answers"][e.key] = list(e.dice)


def _launched(state, e: f.ShipLaunched):
    seat = state.seats[e.player]
    seat.position = e.position
    seat.ship.humans = {tuple(sq): n for sq, n in e.humans}
    seat.ship.aliens = {tuple(sq): c for sq, c in e.aliens}
    seat.ship.batteries = {tuple(sq): n for sq, n in e.batteries}
    seat.ship.goods = {}


def _deck_shuffled(state, e: f.FlightDeckShuffled):
    state.deck = sorted(c for pile in state.piles for c in pile)
    state.deck_unseen = deck.unseen_slots_at_launch(state)
    state.phase, state.step = FLIGHT, {}


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


def _resolved(state, e: f.CardResolved):
    state.card, state.step = None, {}


def _spent(state, e: f.BatteriesSpent):
    for square in e.squares:
        state.seats[e.player].ship.batteries[tuple(square)] -= 1


def _moved(state, e: f.ShipMoved):
    state.seats[e.player].position = e.position


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


def _cargo(state, e: f.CargoSet):
    state.seats[e.player].ship.goods = {tuple(sq): list(g) for sq, g in e.cargo}


def _paid(state, e: f.CreditsPaid):
    state.seats[e.player].credits += e.amount
    state.bank -= e.amount


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


def _destroyed(state, e: f.ComponentDestroyed):
    _remove(state.seats[e.player].ship, e.square)


def _part_kept(state, e: f.PartKept):
    for square in e.lost:
        _remove(state.seats[e.player].ship, square)


def _announced(state, e: f.GiveUpAnnounced):
    state.seats[e.player].giving_up = True


def _gave_up(state, e: f.ShipGaveUp):
    seat = state.seats[e.player]
    seat.gave_up, seat.giving_up = True, False


def _journey_ended(state, e: f.JourneyEnded):
    state.finished_rounds = e.round


def _credits_tallied(state, e: f.CreditsTallied):
    state.phase = OVER


_EVOLVERS = {
    f.InspectionClosed: _inspection_closed, f.DecisionRequested: _requested, f.DecisionTaken: _taken,
    f.Progressed: _progressed, f.DiceRolled: _rolled, f.ShipLaunched: _launched,
    f.FlightDeckShuffled: _deck_shuffled, f.CardRevealed: _revealed, f.CardResolved: _resolved,
    f.BatteriesSpent: _spent, f.ShipMoved: _moved, f.CrewLost: _crew_lost, f.CargoSet: _cargo,
    f.CreditsPaid: _paid, f.HazardMet: _nothing, f.ComponentDestroyed: _destroyed, f.PartKept: _part_kept,
    f.GiveUpAnnounced: _announced, f.ShipGaveUp: _gave_up, f.JourneyEnded: _journey_ended,
    f.CreditsTallied: _credits_tallied,
}
