"""Invariants checked after every event in tests and playouts: returns the broken ones (empty when fine)."""
from __future__ import annotations

from collections import Counter

from trucker_rules import catalog
from trucker_rules.state import SETUP, TruckerState


def broken(state: TruckerState) -> list[str]:
    if state.phase == SETUP or state.round == 0:
        return _credits(state)
    return _components(state) + _order_tiles(state) + _piles(state) + _credits(state) + _crew(state)


def _components(state: TruckerState) -> list[str]:
    places: Counter = Counter()
    places.update(state.face_down)
    places.update(state.face_up)
    for player in state.seats.values():
        if player.hand is not None:
            places[player.hand] += 1
        if player.ship is not None:
            places.update(player.ship.component_ids())
            places.update(player.ship.reserve)
            places.update(player.ship.lost)
    problems = [f"{cid} is in {n} places" for cid, n in places.items() if n > 1]
    expected = set(catalog.warehouse_ids()) | {p.cabin for p in state.seats.values()}
    missing = expected - set(places)
    if missing:
        problems.append(f"{len(missing)} components are nowhere, e.g. {sorted(missing)[0]}")
    extra = set(places) - expected
    if extra:
        problems.append(f"unknown components in play: {sorted(extra)}")
    for player in state.seats.values():
        if player.ship is not None and len(player.ship.reserve) > 2:
            problems.append(f"{player.name} has {len(player.ship.reserve)} components in reserve")
        if player.ship is not None and player.ship.newest is not None and player.ship.newest not in player.ship.tiles:
            problems.append(f"{player.name}'s newest component is not on the ship")
    return problems


def _order_tiles(state: TruckerState) -> list[str]:
    held = [p.order_tile for p in state.seats.values() if p.order_tile is not None]
    problems = []
    if len(held) != len(set(held)):
        problems.append(f"an order tile is held twice: {sorted(held)}")
    if sorted(held + state.order_tiles_free) != list(range(1, len(state.players) + 1)):
        problems.append(f"order tiles held {sorted(held)} and free {state.order_tiles_free} do not make 1..N")
    return problems


def _piles(state: TruckerState) -> list[str]:
    held = [p.looking_at for p in state.seats.values() if p.looking_at is not None]
    problems = []
    if len(held) != len(set(held)):
        problems.append("two players hold the same adventure pile")
    for player in state.seats.values():
        if player.looking_at is not None and player.hand is not None:
            problems.append(f"{player.name} holds a pile and a component at once")
    seen = [c for pile in state.piles for c in pile]
    if len(state.round_cards) != len(set(state.round_cards)) or len(seen) != len(set(seen)):
        problems.append("an adventure card was drawn twice this round")
    if not set(seen) <= set(state.round_cards) or not set(state.deck) <= set(state.round_cards):
        problems.append("a card in a pile or the deck was never drawn")
    if any(n <= 0 for n in state.deck_unseen.values()):
        problems.append(f"the deck counts unseen cards wrongly: {state.deck_unseen}")
    return problems


def _credits(state: TruckerState) -> list[str]:
    total = state.bank + sum(p.credits for p in state.seats.values())
    return [] if total == 0 else [f"credits are not conserved: bank {state.bank} + players = {total}"]


def _crew(state: TruckerState) -> list[str]:
    problems = []
    for player in state.seats.values():
        ship = player.ship
        if ship is None:
            continue
        for square, n in ship.humans.items():
            tile = ship.tile_at(square)
            if tile is None or not tile.is_cabin or n < 0 or n > 2 or square in ship.aliens:
                problems.append(f"{player.name} has {n} humans at {square} where no cabin can take them")
        for square in ship.aliens:
            tile = ship.tile_at(square)
            if tile is None or tile.kind != "cabin":
                problems.append(f"{player.name} has an alien at {square} outside a cabin")
        for colour in ("purple", "brown"):
            if list(ship.aliens.values()).count(colour) > 1:
                problems.append(f"{player.name} carries two {colour} aliens")
        for square, n in ship.batteries.items():
            tile = ship.tile_at(square)
            if tile is None or tile.kind != "battery" or not 0 <= n <= tile.capacity:
                problems.append(f"{player.name} has {n} batteries at {square}")
        for square, goods in ship.goods.items():
            tile = ship.tile_at(square)
            if tile is None or tile.kind not in ("cargo_hold", "special_cargo_hold") or len(goods) > tile.capacity:
                problems.append(f"{player.name} has goods {goods} at {square} that cannot hold them")
            elif tile.kind == "cargo_hold" and "red" in goods:
                problems.append(f"{player.name} has a red good outside a red container at {square}")
    return problems
