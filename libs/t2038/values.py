"""What delivered ore is worth: mine values plus the operator's, pilot's and ending base's ore bonuses,
or a transshipment point's value for an empty hold. Used by routes, bots and the Exploration Data check."""
from __future__ import annotations

from t2038 import hexmap
from t2038.state import Options
from t2038.tables import entities


def operator_bonus(operator: str) -> dict[str, int]:
    """Per-ore delivery bonus of an Independent ("i:2") or a corporation ("c:LE")."""
    if operator.startswith("i:"):
        return dict(entities()["independents"][int(operator[2:])]["bonus"])
    if operator.startswith("c:"):
        return dict(entities()["corporations"][operator[2:]]["bonus"])
    return {}


def base_bonus(hex_: str, options: Options) -> dict[str, int]:
    if options.base_bonuses is not None:
        return dict(options.base_bonuses.get(hex_, {}))
    bonus = hexmap.base_ore_bonus(hex_)
    if hex_ == "J2":                                 # VP's Rare bonus: at least 20 derived, value a table option
        bonus = {"R": options.vp_rare_bonus}
    return bonus


def transshipment_value(hex_: str, phase: int, options: Options) -> int:
    low, high = hexmap.transshipment_points()[hex_]["low"], hexmap.transshipment_points()[hex_]["high"]
    if options.transshipment_values is not None and hex_ in options.transshipment_values:
        low, high = options.transshipment_values[hex_]
    return high if phase >= options.transshipment_high_from_phase else low


def route_value(cargo: list[tuple[str, int]], holds: int, end_hex: str, *, operator: str, is_base: bool,
                is_transshipment: bool, phase: int, options: Options, pilot: str = "") -> int:
    """Value of a route ending at `end_hex` with `cargo` [(ore, mine value)]; 0 when it ends in space."""
    if not (is_base or is_transshipment):
        return 0
    mine = operator_bonus(operator)
    if pilot and pilot != operator:                  # a pilot's bonus adds to its corporation's (7.1)
        for ore, extra in operator_bonus(pilot).items():
            mine[ore] = mine.get(ore, 0) + extra
    at_base = base_bonus(end_hex, options) if is_base else {}
    total = sum(value + mine.get(ore, 0) + at_base.get(ore, 0) for ore, value in cargo)
    if is_transshipment and len(cargo) < holds:
        total += transshipment_value(end_hex, phase, options)
    return total
