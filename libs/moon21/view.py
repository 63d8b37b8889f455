"""What players see: 21Moon has no hidden information, so everyone sees the whole table."""
from __future__ import annotations

from moon21 import board as bd
from moon21.decide import to_act
from moon21.state import State


def view(s: State) -> dict:
    if not s.players:
        return {"round": "SETUP"}
    return {
        "round": {"kind": s.kind, "set": s.set_no, "or": s.or_no},
        "to_act": to_act(s),
        "players": [{"name": p, "cash": s.cash(f"p:{p}"), "bankrupt": p in s.bankrupt,
                     "certificates": s.shares.certs_held(f"p:{p}"), "privates": s.privates_of(f"p:{p}")}
                    for p in s.players],
        "priority": s.priority,
        "bank": s.cash("bank"),
        "held_back": s.held_back,
        "phase": s.phase,
        "space_port_value": s.space_port_value,
        "transport_stack": list(s.stack),
        "corporations": {
            corp: {"started": c.started, "floated": c.floated, "closed": c.closed, "receivership": c.receivership,
                   "cash": s.cash(f"c:{corp}"), "president": s.president(corp) if c.started and not c.closed else None,
                   "price": s.price(corp) if corp in s.market.positions else None,
                   "market": list(s.market.positions.get(corp, ())), "transports": dict(c.transports),
                   "depots_left": list(c.depots_left), "bonus_tokens": list(c.bonus_tokens),
                   "certificates": s.shares.certs_held(f"c:{corp}"), "holdings": s.shares.holdings(corp)}
            for corp, c in s.corps.items()},
        "privates": dict(s.private_owner),
        "auction": None if s.auction is None else {
            "line": list(s.auction.line), "price": dict(s.auction.price), "bids": s.auction.bids,
            "resolving": s.auction.resolving},
        "operating": None if s.op is None else {"corp": s.op.corp, "step": s.op.step, "raising": s.op.raising,
                                                "tile_bases": list(s.op.tile_bases), "deal": s.op.deal,
                                                "un_contract_choice": s.op.pending_un},
        "board": bd.view(s.board, phase=s.phase, sp_value=s.space_port_value),
        "ended": s.ended,
        "standings": s.final,
    }
