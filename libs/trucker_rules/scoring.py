"""Journey's End: arrival rewards, best-looking ship, goods sold, lost components; then the next round
or the end of the game."""
from __future__ import annotations

from starbase_rules.contract import Event

from trucker_rules import build_phase, building, catalog, track
from trucker_rules import flight_messages as f
from trucker_rules.state import TruckerState


def journeys_end(state: TruckerState, rng) -> list[Event]:
    table = catalog.scoring()
    round_no = state.round
    events: list[Event] = [f.JourneyEnded(round=round_no)]
    finishers = track.flying(state)
    for place, name in enumerate(finishers):
        events.append(f.CreditsPaid(player=name, amount=table["arrival_rewards"][round_no][place], reason="arrival"))
    if finishers:
        exposed = {n: building.exposed_connectors(state.seats[n].ship) for n in finishers}
        best = min(exposed.values())
        for name in finishers:
            if exposed[name] == best:
                events.append(f.CreditsPaid(player=name, amount=table["best_looking_ship"][round_no],
                                            reason="best_looking_ship"))
    for name in state.players:
        seat = state.seats[name]
        value = sum(table["goods_values"][g] for g in seat.ship.goods_list())
        if seat.gave_up:
            value = value // 2 if state.options.get("half_value_rounding", "down") == "down" else (value + 1) // 2
        if value:
            events.append(f.CreditsPaid(player=name, amount=value, reason="goods"))
        if seat.ship.lost:
            events.append(f.CreditsPaid(player=name, amount=-table["lost_component_penalty"] * len(seat.ship.lost),
                                        reason="lost_components"))
    if round_no < table["rounds"]:
        return events + build_phase.round_setup_events(state, round_no + 1, rng)
    credits = {n: state.seats[n].credits for n in state.players}
    for e in events:
        if isinstance(e, f.CreditsPaid):
            credits[e.player] += e.amount
    return events + [f.CreditsTallied(credits=credits)]
