"""Spaceship cards: the fleet, their stats, what the bank sells now, phases, obsolescence and limits."""
from __future__ import annotations

from t2038.state import Options, Ship, State
from t2038.tables import entities

PROBE = "P"


def new_fleet(options: Options) -> dict[str, Ship]:
    table = entities()["ships"]
    fleet = {PROBE: Ship(phase=0, kind="probe", owner="c:TSI", movement=entities()["probe"]["movement"],
                         holds=entities()["probe"]["holds"], new=False)}
    for phase, row in table.items():
        count = row["count"]
        if options.short and "short_count" in row:
            count = row["short_count"]
        if options.cutthroat and "cutthroat_count" in row:
            count = row["cutthroat_count"]
        for n in range(1, count + 1):
            fleet[f"{phase}.{n:02d}"] = Ship(phase=int(phase))
    return fleet


def stats(phase: int, kind: str) -> tuple[int, int]:
    if phase == 0:
        return entities()["probe"]["movement"], entities()["probe"]["holds"]
    movement, holds, _ = entities()["ships"][phase][kind]
    return movement, holds


def price(phase: int, kind: str) -> int:
    return entities()["ships"][phase][kind][2]


def kinds(phase: int) -> tuple[str, ...]:
    return ("freighter",) if phase == 6 else ("scout", "tug")


def obsolete_at(phase: int) -> int | None:
    if phase == 0:
        return 2
    return entities()["ships"][phase].get("obsolete")


def is_obsolete(phase: int, current: int) -> bool:
    limit = obsolete_at(phase)
    return limit is not None and current >= limit


def bank_card(state: State, phase: int) -> str | None:
    """The card the bank sells for `phase` now, or None when that phase is not on sale (7.32, 7.36)."""
    in_bank = [sid for sid, ship in state.ships.items() if ship.owner == "bank"]
    returned = [sid for sid in in_bank if not state.ships[sid].new and state.ships[sid].phase == phase]
    if returned:
        return returned[0]
    new = [sid for sid in in_bank if state.ships[sid].new]
    if not new:
        return None
    lowest = min(state.ships[sid].phase for sid in new)
    if phase == lowest or (phase == 6 and state.phase >= 5):
        candidates = [sid for sid in new if state.ships[sid].phase == phase]
        return candidates[0] if candidates else None
    return None


def for_sale(state: State) -> list[tuple[int, str, int]]:
    """(phase, kind, price) the bank offers now, cheapest first."""
    offers = []
    for phase in range(1, 7):
        if bank_card(state, phase) is not None:
            offers.extend((phase, kind, price(phase, kind)) for kind in kinds(phase))
    return sorted(offers, key=lambda offer: (offer[2], offer[0]))


def limit(state: State, holder: str) -> int:
    if state.options.ship_limits is not None:
        return int(state.options.ship_limits[str(state.phase)])
    table = entities()["ship_limits"]
    if holder == "c:AL":
        return table["league"].get(state.phase, table["standard"][state.phase])
    return table["standard"][state.phase]


def fleet_size(state: State, holder: str) -> int:
    return len(state.ships_of(holder))


def over_limit(state: State, holder: str) -> bool:
    return fleet_size(state, holder) > limit(state, holder)
