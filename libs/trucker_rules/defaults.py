"""The default action for every decision a player owes, taken when their clock runs out (no stall)."""
from __future__ import annotations

from starbase_rules.contract import Command

from trucker_rules import building
from trucker_rules import messages as m
from trucker_rules.state import BUILDING, REPAIR, TruckerState


def default_command(state: TruckerState, player: str) -> Command | None:
    me = state.seats.get(player)
    if me is None:
        return None
    if state.phase == BUILDING:
        if not state.building_started:
            return m.StartBuilding(at=0.0)
        if me.looking_at is not None:
            return m.PutBackPile()
        if me.order_tile is not None:
            return None
        if me.hand is not None:
            return m.ReserveComponent() if me.from_reserve else m.ReturnComponent()
        return m.Finish()
    if state.phase == REPAIR:
        if not me.flaws:
            return None
        remove, keep = building.auto_repair(me.ship)
        return m.RepairShip(remove=remove, keep=keep)
    from trucker_rules import flight_defaults
    return flight_defaults.default_command(state, player)
