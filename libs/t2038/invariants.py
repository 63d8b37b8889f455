"""What must hold after every event (ARCHITECTURE §2): money conserved, no negative cash, every
corporation's shares sum to 100 %, every tile and ship card in exactly one place."""
from __future__ import annotations

from kit18xx.bank import BANK
from t2038 import tiles
from t2038.state import State
from t2038.tables import entities


def broken_invariants(state: State) -> list[str]:
    if not state.players:
        return []
    broken: list[str] = []
    money = state.options.money_total or entities()["money"]["short" if state.options.short else "full"]
    if state.ledger.total() != money:
        broken.append(f"money is {state.ledger.total()}, not {money}")
    for holder in state.ledger.negative_holders():
        if not (holder == BANK and state.bank_broken):
            broken.append(f"{holder} has negative cash")
    for corp, book in state.shares.items():
        if sum(book.values()) != 10 or any(units < 0 for units in book.values()):
            broken.append(f"{corp} shares are {book}")
        if corp in state.launched:
            president = state.president[corp]
            if book.get(f"p:{president}", 0) < 2:
                broken.append(f"{corp}'s President {president} does not hold the certificate")
        if book.get("market", 0) > 5:
            broken.append(f"{corp} has more than 50% in the market")
    placed = list(state.tiles.values())
    if sorted(placed + state.pool) != list(range(len(tiles.tile_kinds()))):
        broken.append("a tile is missing or in two places")
    for sid, ship in state.ships.items():
        if not (ship.owner in ("bank", "gone") or ship.owner.startswith(("c:", "i:"))):
            broken.append(f"ship {sid} is held by {ship.owner}")
    for key, holder in state.claims.items():
        hex_ = key.split("/")[0]
        if hex_ not in state.tiles or hex_ in state.flipped:
            broken.append(f"claim {key} is not on a mine")
    return broken
