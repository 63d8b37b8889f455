"""Questions about a state: mining capacity, status, dividends, where an outpost may go and what it costs.

Nothing here changes the state. Mining capacity is always computed from the board, so a planet whose
value changes (Mega-Earth, Develop Planets) changes every corporation's capacity at once.
"""
from __future__ import annotations

import math

from stellar.board import MEGA_EARTH, alpha
from stellar.facts import tables
from stellar.state import Corp, State

ALIEN_BUILDERS = ("alien_explorers", "secret_agents", "tax_agents")


def planet_value(state: State, hex_key: str) -> int:
    spot = alpha().hexes[hex_key]
    if spot.kind == "mega_earth":
        return mega_earth_value(state)
    if spot.kind in ("home_planet", "neutral_planet"):
        return spot.value * (2 if hex_key in state.developed else 1)
    return 0


def mega_earth_value(state: State) -> int:
    """Ruling G-ME-2: by default the value follows the number of outposts present (they slide down when
    one leaves). The literal reading, option `mega_earth_value="lowest_empty_box"`: outposts keep their
    boxes, and the value is the number printed under the lowest empty box (the top number when full)."""
    board = alpha()
    present = state.outposts.get(MEGA_EARTH, [])
    if not present:
        return 0
    if state.options.mega_earth_value != "lowest_empty_box":
        return board.mega_values.get(len(present), 0)
    taken = set(state.mega_boxes.values())
    empty = [box for box in range(board.mega_capacity) if box not in taken]
    return board.mega_box_numbers[empty[0]] if empty else board.mega_top_number


def mining_capacity(state: State, corp_id: str) -> int:
    corp = state.corps[corp_id]
    total = sum(planet_value(state, h) for h, there in state.outposts.items() if corp_id in there)
    if "ore_refinement" in corp.powers:
        total += tables().power("ore_refinement", "mining_capacity_bonus")
    return total + corp.agents_bonus


def mc_row(value: int) -> int:
    return min(13, math.ceil(value / 3)) if value > 0 else 0


def status(corp: Corp) -> str:
    """Private, minor or major by the shares issued (Stalled IPO: major later)."""
    status_at = tables().status_at
    if "stalled_ipo" in corp.powers:
        status_at = {**status_at, "major": tables().power("stalled_ipo", "major_at_shares")}
    return next(name for name in reversed(status_at) if corp.issued >= status_at[name])


def dividend_per_share(state: State, corp_id: str, mc_from: str | None = None,
                       cargo_from: str | None = None) -> tuple[int, int]:
    """(row, credits per share); `mc_from`/`cargo_from` copy another corporation's token (Pirates/Smuggling)."""
    corp = state.corps[corp_id]
    mc = mining_capacity(state, mc_from or corp_id)
    cargo = state.corps[cargo_from or corp_id].cargo
    row = min(mc_row(mc), cargo)
    column = list(tables().status_at).index(status(corp))
    if row == 0 and not state.options.row_zero_pays:
        return row, 0
    return row, tables().dividends[row][column]


def is_alien_planet(state: State, hex_key: str) -> bool:
    return alpha().hexes[hex_key].kind == "alien_planet" or hex_key in state.converted_nebulae


def alien_planets_of(state: State, corp_id: str) -> int:
    return sum(1 for h, there in state.outposts.items() if corp_id in there and is_alien_planet(state, h))


def on_board(state: State, corp_id: str) -> list[str]:
    return [h for h, there in state.outposts.items() if corp_id in there]


def placement_refusal(state: State, corp_id: str, hex_key: str) -> tuple[str, str] | None:
    """Why `corp_id` may not put an outpost on `hex_key` (the outpost restrictions), or None."""
    board = alpha()
    spot = board.hexes.get(hex_key)
    if spot is None:
        return "UNKNOWN_HEX", f"there is no hex {hex_key!r} on the Alpha map"
    corp = state.corps[corp_id]
    there = state.outposts.get(hex_key, [])
    if corp.supply <= 0:
        return "NO_OUTPOSTS_LEFT", f"{corp_id} has no unbuilt outposts"
    if corp_id in there:
        return "OUTPOST_ALREADY_THERE", f"{corp_id} already has an outpost on {hex_key}"
    kind = spot.kind
    if kind == "home_planet" and spot.home_of != corp_id:
        return "HOME_PLANET_RESERVED", f"{hex_key} is a home planet of {spot.home_of}"
    if kind == "sun_anomaly" and "icarus_experiment" not in corp.powers:
        return "ANOMALY", f"{hex_key} is a Sun anomaly (Icarus Experiment needed)"
    icarus_nebula = state.options.icarus_includes_nebulae and "icarus_experiment" in corp.powers
    if kind == "nebular_anomaly" and hex_key not in state.converted_nebulae \
            and "nebular_explorers" not in corp.powers and not icarus_nebula:
        return "ANOMALY", f"{hex_key} is a Nebular anomaly (Nebular Explorers needed)"
    if is_alien_planet(state, hex_key) and not any(p in corp.powers for p in ALIEN_BUILDERS):
        return "ALIEN_PLANET_FORBIDDEN", f"{corp_id} has no power to build on alien planets"
    cloaked = kind == "deep_space" and "cloaking_devices" in corp.powers
    if kind in ("deep_space", "neutral_planet") and len(there) >= 2 and not cloaked:
        return "HEX_FULL", f"{hex_key} already holds 2 outposts"
    if kind == "mega_earth" and len(there) >= board.mega_capacity:
        return "HEX_FULL", "Mega-Earth has no empty box"
    return None


def penalty_for(state: State, corp_id: str, hex_key: str, mode: str) -> int:
    if mode == "jerry_rig":
        return 0
    if alpha().hexes[hex_key].kind == "deep_space" and "cloaking_devices" in state.corps[corp_id].powers:
        return 0
    return sum(1 for c in state.outposts.get(hex_key, []) if c != corp_id)


def is_adjacent_to_network(state: State, corp_id: str, hex_key: str) -> bool:
    return any(corp_id in state.outposts.get(n, []) for n in alpha().neighbours[hex_key])


def wormhole_cost(state: State, corp_id: str, hex_key: str) -> int | None:
    """Cost of Create Wormhole to `hex_key` before the placement penalty, or None without a network."""
    mine = on_board(state, corp_id)
    if not mine:
        return None
    distance = min(alpha().distance(h, hex_key) for h in mine)
    skipped = max(0, distance - 1) if state.options.wormhole_skip_is_distance_minus_one else distance
    t = tables()
    cost = skipped * t.wormhole_per_hex + t.wormhole_flat
    if "quantum_propulsion" in state.corps[corp_id].powers:
        cost = max(0, cost - t.power("quantum_propulsion", "create_wormhole_discount"))
    return cost


def build_cost(build, extra_penalty: int = 0, extra_outposts: int = 0) -> int:
    count = len(build.placed) + extra_outposts
    if build.mode == "jerry_rig" or count == 0:
        return 0
    if build.mode == "wormhole":
        return build.wormhole_cost + build.penalties + extra_penalty
    return tables().outpost_cost[count] + build.penalties + extra_penalty


def signing_eligible(state: State, corp_id: str, hex_key: str) -> bool:
    corp = state.corps[corp_id]
    return (hex_key in state.alien_tiles and is_alien_planet(state, hex_key)
            and "alien_explorers" in corp.powers and not corp.signed and corp.charter > 0
            and alien_planets_of(state, corp_id) >= state.options.signing_min_alien_planets)


def lowest_section(state: State) -> int:
    return next(level for level, left in sorted(state.shipyard.items()) if left != 0)


def share_value(state: State, corp_id: str) -> int:
    corp = state.corps[corp_id]
    if corp.issued == 0:
        return 0
    base = math.ceil((mining_capacity(state, corp_id) + corp.cargo) / corp.issued)
    bonus = tables().track_section(corp.agreement_planets)[2] if corp.signed else 0
    return max(state.options.share_value_floor, base + bonus - tables().loan_penalty * corp.loans)
