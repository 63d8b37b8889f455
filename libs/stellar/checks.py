"""Invariants checked after every event in tests and playouts."""
from __future__ import annotations

from stellar.board import alpha
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
        if corp.president and corp.holders.get(corp.president, 0) < max(corp.holders.values()):
            problems.append(f"{corp.id}: the president does not hold the most shares")
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
    board = alpha()
    for hex_key, there in s.outposts.items():
        if len(set(there)) != len(there):
            problems.append(f"{hex_key}: a corporation has two outposts")
        kind = board.hexes[hex_key].kind
        cloaked = any("cloaking_devices" in s.corps[c].powers for c in there)
        if kind in ("neutral_planet",) and len(there) > 2 or kind == "deep_space" and len(there) > 2 and not cloaked:
            problems.append(f"{hex_key}: more than 2 outposts")
        if kind == "mega_earth" and len(there) > board.mega_capacity:
            problems.append("Mega-Earth over capacity")
    return problems
