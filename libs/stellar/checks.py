"""Invariants checked after every event in tests and playouts.

Money: every credit is in one ledger holder and the total never changes. Pieces: every share, outpost,
ship, cube, vote, agreement tile, shipyard tile and power is in exactly one place. Plus the placement
limits of the map and the presidency rule.
"""
from __future__ import annotations

from stellar.board import MEGA_EARTH, alpha
from stellar.facts import tables
from stellar.state import State


def broken_invariants(s: State) -> list[str]:
    if not s.players:
        return []
    t = tables()
    problems = []
    if s.ledger.total() != t.bank_float:
        problems.append(f"money not conserved: {s.ledger.total()} != {t.bank_float}")
    if s.ledger.negative_holders():
        problems.append(f"negative cash: {s.ledger.negative_holders()}")
    placed_cubes = 0
    for corp in s.corps.values():
        spec = t.corps[corp.id]
        if corp.charter < 0 or corp.charter + sum(corp.holders.values()) + corp.aliens != spec.shares:
            problems.append(f"{corp.id}: shares do not add up to {spec.shares}")
        on_board = sum(1 for there in s.outposts.values() if corp.id in there)
        if corp.supply < 0 or corp.supply + on_board + corp.boxed + corp.loans != spec.outposts:
            problems.append(f"{corp.id}: outposts do not add up to {spec.outposts}")
        if not 0 <= corp.cargo <= t.cargo_max:
            problems.append(f"{corp.id}: CARGO {corp.cargo} out of 0..{t.cargo_max}")
        if len(corp.powers) > 2:
            problems.append(f"{corp.id}: more than two active powers {corp.powers}")
        if len(corp.ordered) + len(corp.delivered) > t.ship_columns:
            problems.append(f"{corp.id}: more ships than columns")
        most = max(corp.holders.values(), default=0)
        if corp.president and (most == 0 or corp.holders.get(corp.president, 0) < most):
            problems.append(f"{corp.id}: the president does not hold the most shares")
        if corp.president is None and most > 0:
            problems.append(f"{corp.id}: shareholders but no president")
        if corp.aliens != (1 if corp.signed else 0) or (corp.taken_over and not corp.signed):
            problems.append(f"{corp.id}: alien shares {corp.aliens} do not match its signing")
        placed_cubes += corp.boost_cubes + (1 if corp.wormhole_cube else 0)
    cubes = s.cube_supply + sum(i.cubes for i in s.investors.values()) + placed_cubes + len(s.developed)
    if cubes != t.cube_supply or s.cube_supply < 0:
        problems.append(f"alien technology cubes: {cubes} != {t.cube_supply}")
    votes = sum(i.votes for i in s.investors.values()) + s.votes_gone
    if s.inv is not None:
        votes += sum(sum(v.values()) for v in s.inv.votes.values())
    if votes != t.starting_votes * len(s.players):
        problems.append(f"boardroom votes: {votes} != {t.starting_votes * len(s.players)}")
    for section in t.shipyard:
        if section.ships is None:
            continue
        level = section.level
        held = sum(c.ordered.count(level) + c.delivered.count(level) + (c.spare_ship == level) for c in s.corps.values())
        if s.shipyard[level] + held + s.ships_out[level] != section.ships:
            problems.append(f"level-{level} ships do not add up to {section.ships}")
    problems += _tiles_and_powers(s)
    problems += _board(s)
    return problems


def _tiles_and_powers(s: State) -> list[str]:
    t = tables()
    problems = []
    dealt = len(t.agreement_tiles) - (1 if s.options.first_play else 0)
    if len(s.alien_tiles) + len(s.boxed_tiles) + s.agreement_tiles_gone != dealt:
        problems.append(f"agreement tiles do not add up to {dealt}")
    for section in t.shipyard:
        if section.tile_slot and section.level not in s.shipyard_tiles and section.level not in s.opened_sections:
            problems.append(f"level-{section.level} shipyard tile is neither face down nor revealed")
    held = [p for c in s.corps.values() for p in c.powers if p in t.neutral_powers]   # starting powers repeat
    placed = held + s.powers_row + s.powers_pile
    if len(placed) != len(set(placed)):
        problems.append(f"a power is in two places: {sorted(placed)}")
    return problems


def _board(s: State) -> list[str]:
    problems = []
    board = alpha()
    if set(s.mega_boxes) != set(s.outposts.get(MEGA_EARTH, [])) or \
            len(set(s.mega_boxes.values())) != len(s.mega_boxes) or \
            any(not 0 <= box < board.mega_capacity for box in s.mega_boxes.values()):
        problems.append(f"Mega-Earth boxes {s.mega_boxes} do not match its outposts")
    for hex_key, there in s.outposts.items():
        spot = board.hexes[hex_key]
        if spot.kind == "home_planet" and any(c != spot.home_of for c in there):
            problems.append(f"{hex_key}: another corporation on {spot.home_of}'s home planet")
        if len(set(there)) != len(there):
            problems.append(f"{hex_key}: a corporation has two outposts")
        kind = board.hexes[hex_key].kind
        cloaked = any("cloaking_devices" in s.corps[c].powers for c in there)
        if kind in ("neutral_planet",) and len(there) > 2 or kind == "deep_space" and len(there) > 2 and not cloaked:
            problems.append(f"{hex_key}: more than 2 outposts")
        if kind == "mega_earth" and len(there) > board.mega_capacity:
            problems.append("Mega-Earth over capacity")
    return problems
