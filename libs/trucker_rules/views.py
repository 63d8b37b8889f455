"""What each viewer may see: a pure projection of the state. Events are redacted by the base, from their
declared `secret_fields`.

Hidden: which tile the next face-down grab takes (decided only at the grab; only the pile's size is
public), the adventure piles (a player sees the one pile they hold while building; its cards, drawn at
its first look, are in `PileTaken.cards`, declared secret but to that player) and the flight deck still
to come (drawn card by card when revealed)."""
from __future__ import annotations

from trucker_rules import building, deck
from trucker_rules.state import TruckerState

def ship_view(ship) -> dict:
    return {
        "board": ship.board,
        "tiles": [{"square": list(sq), "component": p.component, "rotation": p.rotation}
                  for sq, p in sorted(ship.tiles.items())],
        "newest": list(ship.newest) if ship.newest else None,
        "reserve": list(ship.reserve),
        "humans": {f"{c},{r}": n for (c, r), n in sorted(ship.humans.items())},
        "aliens": {f"{c},{r}": a for (c, r), a in sorted(ship.aliens.items())},
        "batteries": {f"{c},{r}": n for (c, r), n in sorted(ship.batteries.items())},
        "goods": {f"{c},{r}": g for (c, r), g in sorted(ship.goods.items())},
        "lost": len(ship.lost),
        "exposed_connectors": building.exposed_connectors(ship),
    }


def view(state: TruckerState, viewer: str | None) -> dict:
    players = {}
    for name in state.players:
        p = state.seats[name]
        players[name] = {
            "cabin": p.cabin, "credits": p.credits, "hand": p.hand, "order_tile": p.order_tile,
            "looking_at": p.looking_at, "position": p.position, "gave_up": p.gave_up, "flaws": list(p.flaws),
            "ship": ship_view(p.ship) if p.ship else None,
        }
    me = state.seats.get(viewer) if viewer else None
    return {
        "game": "trucker", "round": state.round, "phase": state.phase, "players": players,
        "face_down_count": len(state.face_down), "face_up": list(state.face_up),
        "timer": {"started": state.building_started, "space": state.timer_space, "runs_out_at": state.runs_out_at},
        "order_tiles_free": list(state.order_tiles_free),
        # sorted: a pile held has no order (the flight deck is shuffled), so none is shown
        "pile": sorted(state.piles[me.looking_at - 1]) if me and me.looking_at else None,
        "deck_count": deck.cards_left(state), "card": state.card,
        "step": {k: v for k, v in state.step.items() if not k.startswith("_")},
    }
