"""Default answers when a flight decision's clock runs out: spend nothing, take nothing, defend with a
battery (the fullest) when one can save a component, keep the part with the most humans."""
from __future__ import annotations

from trucker_rules import flight_messages as f
from trucker_rules.state import TruckerState


def default_command(state: TruckerState, player: str):
    ask = state.step.get("ask") if state.step else None
    if ask is None or ask["player"] != player:
        return None
    kind = ask["kind"]
    if kind == "aliens":
        return f.ChooseAliens(aliens=[])
    if kind == "engines":
        return f.PowerEngines(count=0)
    if kind == "cannons":
        return f.FireCannons(squares=[])
    if kind == "planet":
        return f.ChoosePlanet(planet=None)
    if kind == "offer":
        return f.AnswerOffer(accept=False)
    ship = state.seats[player].ship
    if kind == "defend":                 # the fullest battery pays
        from trucker_rules.shipvalues import battery_squares
        return f.Defend(use=True, batteries=battery_squares(ship, 1))
    if kind == "cargo":
        from trucker_rules.shipvalues import arrange_cargo
        return f.ArrangeCargo(cargo=sorted(arrange_cargo(ship, ask["options"]["goods"]).items()))
    if kind == "goods_loss":             # the first holds (by square) give up their goods
        from trucker_rules.shipvalues import goods_to_lose
        return f.ChooseGoodsLoss(losses=goods_to_lose(ship, len(ask["options"]["goods"]))[0])
    if kind == "crew":
        from trucker_rules.shipvalues import crew_to_lose
        return f.ChooseCrewLoss(losses=crew_to_lose(ship, ask["options"]["count"]))
    best = max(ask["options"]["parts"],
               key=lambda part: (sum(ship.humans.get(tuple(sq), 0) for sq in part), len(part)))
    return f.KeepPart(square=tuple(best[0]))
