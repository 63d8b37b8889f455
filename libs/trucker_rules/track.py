"""The flight board: a loop of 40 spaces. Positions are counted from the start with laps included, so a
ship a full lap behind the leader is `track_spaces` or more behind."""
from __future__ import annotations

from trucker_rules import catalog
from trucker_rules.state import TruckerState


def flying(state: TruckerState) -> list[str]:
    """Ships still in the flight, in flight order (the leader first)."""
    ships = [n for n in state.players if state.seats[n].position is not None and not state.seats[n].gave_up]
    return sorted(ships, key=lambda n: -state.seats[n].position)


def move(state: TruckerState, player: str, days: int) -> int:
    """Where `player` ends after gaining (days > 0) or losing flight days: occupied spaces are jumped
    over and not counted."""
    spaces = catalog.track_spaces()
    occupied = {state.seats[n].position % spaces for n in flying(state) if n != player}
    position = state.seats[player].position
    step = 1 if days > 0 else -1
    for _ in range(abs(days)):
        position += step
        while position % spaces in occupied:
            position += step
    return position


def lapped(state: TruckerState) -> list[str]:
    order = flying(state)
    if not order:
        return []
    lead = state.seats[order[0]].position
    return [n for n in order[1:] if lead - state.seats[n].position >= catalog.track_spaces()]
