"""What each viewer may see: face-down tiles, the face-down power pile and boxed tiles stay hidden
(their events declare the same fields secret, so `redact` hides exactly what the view hides)."""
from __future__ import annotations

from dataclasses import asdict

from stellar import queries as q
from stellar.state import TAX_BOX, State, frozen, liquid, treasury


def view(s: State, viewer: str | None) -> dict:
    corps = {}
    for corp_id, corp in s.corps.items():
        data = asdict(corp)
        data.update(treasury=s.ledger.balance(treasury(corp_id)), mining_capacity=q.mining_capacity(s, corp_id),
                    status=q.status(corp), issued=corp.issued)
        corps[corp_id] = data
    return {
        "viewer": viewer, "era": s.era, "round": s.round, "director": s.director, "players": list(s.players),
        "options": asdict(s.options),
        "investors": {p: {**asdict(s.investors[p]), "liquid": s.ledger.balance(liquid(p)),
                          "frozen": s.ledger.balance(frozen(p))} for p in s.players},
        "corporations": corps, "turn_order": list(s.turn_order), "outposts": {h: list(c) for h, c in s.outposts.items()},
        "developed": list(s.developed), "face_down_alien_tiles": sorted(s.alien_tiles),
        "converted_nebulae": list(s.converted_nebulae), "boxed_tiles": len(s.boxed_tiles),
        "shipyard": dict(s.shipyard), "face_down_shipyard_tiles": sorted(s.shipyard_tiles),
        "alien_mining_capacity": s.alien_mc, "technology_supply": s.cube_supply,
        "tax_box": s.ledger.balance(TAX_BOX), "mega_earth_boxes": dict(s.mega_boxes),
        "powers_row": list(s.powers_row), "powers_pile": len(s.powers_pile),
        "auction": asdict(s.auction) if s.auction else None, "pending": [asdict(p) for p in s.pending],
        "build": asdict(s.build) if s.build else None, "corp_turn": asdict(s.corp_turn) if s.corp_turn else None,
        "investor_step": asdict(s.inv) if s.inv else None,
        "scores": dict(s.final_scores), "share_values": dict(s.share_values),
    }
