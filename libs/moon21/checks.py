"""Invariants of a 21Moon state (checked after every event in tests and playouts)."""
from __future__ import annotations

from kit18xx.shares import IPO, POOL, REMOVED, corp_of, is_president_cert
from moon21 import board as bd
from moon21.rules import rules
from moon21.state import State


def invariants(s: State) -> list[str]:
    if s.kind == "SETUP" and not s.players:
        return []
    broken: list[str] = []
    r = rules()
    if s.ledger.total() != r["bank_cash"]:
        broken.append(f"money not conserved: {s.ledger.total()} != {r['bank_cash']}")
    broken += [f"negative cash: {h}" for h in s.ledger.negative_holders()]
    holders = {IPO, POOL, REMOVED} | {f"p:{p}" for p in s.players} | {f"c:{c}" for c in s.corps}
    for cert, holder in s.shares.location.items():
        if holder not in holders:
            broken.append(f"{cert} lies with unknown holder {holder}")
        if is_president_cert(cert) and holder.startswith("c:"):
            broken.append(f"{cert} (a president's certificate) held by a corporation")
    for corp, c in s.corps.items():
        total = sum(s.shares.percent[x] for x in s.shares.location if corp_of(x) == corp)
        if total != 100:
            broken.append(f"{corp} shares sum to {total}%")
        removed = s.shares.held_percent(corp, REMOVED)
        if removed not in ((100,) if c.closed else (0,)):
            broken.append(f"{corp}: {removed}% removed but closed={c.closed}")
        if c.started and not c.closed and corp not in s.market.positions:
            broken.append(f"{corp} started but has no market token")
        if not c.closed and c.started:
            placed = bd.tokens_on_board(s.board, corp)
            if placed + len(c.depots_left) != len(r.corps[corp].depot_costs):
                broken.append(f"{corp}: {placed} depots on the map + {len(c.depots_left)} on the charter")
        for base in ("LB", "SP"):
            if len(c.transports[base]) > r["transports_per_base"]:
                broken.append(f"{corp} {base} holds {len(c.transports[base])} transports")
    for t, supplied in s.supplied.items():
        held = sum(c.transports[b].count(t) for c in s.corps.values() for b in ("LB", "SP"))
        if s.stack.count(t) + held + s.scrapped.get(t, 0) != supplied:
            broken.append(f"transport type {t}: stack {s.stack.count(t)} + held {held} + scrapped "
                          f"{s.scrapped.get(t, 0)} != {supplied}")
    for area, left in s.bonus_left.items():
        taken = sum(area in c.bonus_tokens for c in s.corps.values())
        if left < 0 or left + taken != bd.BONUS_TOKENS:
            broken.append(f"bonus tokens of {area}: {left} left + {taken} taken")
    for private, owner in s.private_owner.items():
        if owner not in holders | {"closed", "auction"}:
            broken.append(f"{private} owned by unknown {owner}")
    broken += bd.invariants(s.board) if s.board is not None else []
    return broken
