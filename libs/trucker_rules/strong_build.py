"""How the `strong` Trucker bot builds: every tile it sees is valued for the ship it would join.

A ship loses its components to meteors and cannon fire (a credit each) and its humans to slavers, and a
ship left without humans or engines gives up and earns nothing at the journey's end. So the value of a
tile is what it adds against those dangers — firepower facing front (pirates and slavers are beaten,
not suffered), cabins, engines, batteries, shields over uncovered sides, then holds — less what its
place costs: connectors left exposed (small meteors and stardust hit them), joints to the ship (a
tile held by one joint takes everything behind it when it is shot off) and the room left to grow (a
ship closed early by its own smooth sides flies with two or three cabins, and slavers, an epidemic or
a break leave it without humans). A purple life support beside a cabin is worth an alien's firepower.

It grabs face-down tiles, places those worth their place and returns the rest, which lie face up where
it takes them back later (the face-up tiles are public: it looks over all of them, not only two). It
finishes when nothing it can see is worth a place and its grabs are spent. Only what the seat may know
is read: the tile in hand, its own ship, the face-up tiles and the face-down count.
"""
from __future__ import annotations

from trucker_rules import building, catalog
from trucker_rules import messages as m
from trucker_rules.catalog import BOTTOM, DIRECTIONS, LEFT, RIGHT, SMOOTH, TOP, neighbour, opposite
from trucker_rules.ship import Ship
from trucker_rules.state import TruckerState

# Grabs from the face-down pile before the bot settles for what lies face up (each round's pile is 140).
GRABS = 100
# A tile in hand is placed when its place is worth at least this much, a face-up tile grabbed likewise;
# once the grabs are spent anything worth a place (SWEEP) is taken from the face-up tiles.
PLACE, TAKE, SWEEP = 2.0, 3.0, 1.0
# What a cabin (two humans: slavers take up to five) and a point of firepower are worth.
CABIN, FIREPOWER = 10.0, 5.0
# Firepower worth having: the strongest enemy of round III has 10 (pirates), slavers 8.
FIREPOWER_GOAL = 10.0
# What each joint beyond the first is worth: a tile held by one joint takes everything behind it when
# it is shot off.
JOINT = 0.7
# The cost of a connector left toward an empty square of the board (against 1 toward the edge).
OPEN = -0.3
# The cost of a square left unusable behind an exhaust or before a barrel.
DEAD_SQUARE = 2.0
# What an uncovered side is worth covering with a shield (meteors and light fire come from every side,
# most often from the front).
SHIELD_SIDE = {TOP: 4.0, LEFT: 3.0, RIGHT: 3.0, BOTTOM: 2.0}
# What a placement costs by the open places it leaves the ship to grow into (empty squares of the board
# a connector points at, not behind an exhaust or before a barrel): a ship whose outside is all smooth
# sides takes no more tiles, however many squares of its board are still empty.
CLOSING = {0: 12.0, 1: 4.0, 2: 1.5}
# What a purple alien's life support is worth beside a cabin that can house it (firepower +2, the
# flight takes it when the ship keeps enough humans), and a cabin beside such a life support.
ALIEN, ALIEN_CABIN = 7.0, 2.0
# Empty squares of the board at which closing the ship no longer costs the full price.
ROOM = 8


def build_command(state: TruckerState, player: str) -> m.Command:
    from trucker_rules.bots import opening_move      # bots.py hands the strong level to this module

    opening = opening_move(state, player)
    if opening is not None:
        return opening
    me = state.seats[player]
    ship = me.ship
    grabs_left = len(state.face_down) > 0 and _grabs(state) < GRABS
    if me.hand is not None:
        spot = best_spot(ship, me.hand)
        if spot is not None and (spot[2] >= (PLACE if grabs_left else SWEEP) or me.from_reserve):
            return m.PlaceComponent(square=spot[0], rotation=spot[1])
        return m.ReserveComponent() if me.from_reserve else m.ReturnComponent()
    for component_id in ship.reserve:
        if best_spot(ship, component_id) is not None:
            return m.TakeReserved(component=component_id)
    best_id, best_score = None, None
    seen = set()
    for component_id in state.face_up:
        signature = _signature(component_id)
        if signature in seen:
            continue
        seen.add(signature)
        spot = best_spot(ship, component_id)
        if spot is not None and (best_score is None or spot[2] > best_score):
            best_id, best_score = component_id, spot[2]
    if best_id is not None and best_score is not None and best_score >= (TAKE if grabs_left else SWEEP):
        return m.GrabFaceUp(component=best_id)
    if grabs_left:
        return m.GrabFaceDown()
    return m.Finish()


def _grabs(state: TruckerState) -> int:
    return len(catalog.warehouse_ids()) - len(state.face_down)


def _signature(component_id: str):
    tile = catalog.component(component_id)
    return tile.kind, tile.sides, tile.capacity, tile.exhaust, tile.barrel, tile.covers


def best_spot(ship: Ship, component_id: str) -> tuple[tuple[int, int], int, float] | None:
    """The legal (square, rotation) where the tile is worth most, with that worth; None if none is
    legal. Candidates are scored with the joints alone, and the best is checked with the rulebook's
    own placement check (facing rules included) before it is offered."""
    tile = catalog.component(component_id)
    counts = _counts(ship)
    engines = counts.get("engine", 0) + counts.get("double_engine", 0)
    if engines == 0 and not tile.is_engine:
        return None                      # an engine first, while the rear of the ship is still open
    candidates = []
    empty = {neighbour(sq, d) for sq in ship.tiles for d in DIRECTIONS} - set(ship.tiles)
    growth = _growth(ship)
    room = min(1.0, (len(ship.squares) - len(ship.tiles) - 1) / ROOM)
    for square in sorted(empty & ship.squares):
        for rotation in range(4):
            joints = _joints(ship, tile, square, rotation)
            if joints is None or not _faces_clear(ship, tile, square, rotation):
                continue
            worth = _worth(ship, counts, tile, square, rotation, engines) + JOINT * (joints - 1) \
                - _exposed_change(ship, tile, square, rotation) \
                - room * CLOSING.get(len(_growth_after(ship, growth, tile, square, rotation)), 0.0)
            candidates.append((worth, square, rotation))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    for worth, square, rotation in candidates[:4]:
        try:
            building.check_placement(ship, component_id, square, rotation, strict=True)
        except Exception:    # noqa: BLE001 - a rule the quick scan does not model: try the next one
            continue
        return square, rotation, worth
    return None


def _growth(ship: Ship) -> set:
    """The empty squares of the board the ship can still grow into: a placed connector points at them
    and no exhaust or barrel does."""
    open_, blocked = set(), set()
    for square, placed in ship.tiles.items():
        tile = placed.tile
        for d in DIRECTIONS:
            beyond = neighbour(square, d)
            if beyond in ship.tiles or beyond not in ship.squares:
                continue
            if tile.side(d, placed.rotation) != SMOOTH:
                open_.add(beyond)
            if (tile.is_engine and tile.exhaust_facing(placed.rotation) == d) or \
                    (tile.is_cannon and tile.barrel_facing(placed.rotation) == d):
                blocked.add(beyond)
    return open_ - blocked


def _growth_after(ship: Ship, growth: set, tile, square, rotation) -> set:
    after = set(growth)
    after.discard(square)
    for d in DIRECTIONS:
        beyond = neighbour(square, d)
        if beyond in ship.tiles or beyond not in ship.squares:
            continue
        if (tile.is_engine and tile.exhaust_facing(rotation) == d) or \
                (tile.is_cannon and tile.barrel_facing(rotation) == d):
            after.discard(beyond)
        elif tile.side(d, rotation) != SMOOTH:
            after.add(beyond)
    return after


def _counts(ship: Ship) -> dict[str, int]:
    counts: dict[str, int] = {}
    for placed in ship.tiles.values():
        counts[placed.tile.kind] = counts.get(placed.tile.kind, 0) + 1
    return counts


def _joints(ship: Ship, tile, square, rotation) -> int | None:
    """Real joints the tile would make there, or None where a joint would be illegal or none is real."""
    real = 0
    for d in DIRECTIONS:
        other = ship.tiles.get(neighbour(square, d))
        if other is None:
            continue
        kind = building.joint(tile.side(d, rotation), other.tile.side(opposite(d), other.rotation))
        if kind == "illegal":
            return None
        real += kind == "real"
    return real or None


def _faces_clear(ship: Ship, tile, square, rotation) -> bool:
    """Engines exhaust to the rear onto nothing, barrels fire onto nothing, and the square is not
    behind a placed engine or before a placed barrel."""
    if tile.is_engine and (tile.exhaust_facing(rotation) != BOTTOM or neighbour(square, BOTTOM) in ship.tiles):
        return False
    if tile.is_cannon and neighbour(square, tile.barrel_facing(rotation)) in ship.tiles:
        return False
    for d in DIRECTIONS:
        other = ship.tiles.get(neighbour(square, d))
        if other is None:
            continue
        if other.tile.is_engine and other.tile.exhaust_facing(other.rotation) == opposite(d):
            return False
        if other.tile.is_cannon and other.tile.barrel_facing(other.rotation) == opposite(d):
            return False
    return True


def _exposed_change(ship: Ship, tile, square, rotation) -> float:
    """What the exposed connectors cost after the placement: one toward the edge of the board stays
    exposed for the whole flight; one toward an empty square of the board is where the ship grows
    (a ship with none left can take no more tiles), so it costs little."""
    change = 0.0
    for d in DIRECTIONS:
        beyond = neighbour(square, d)
        other = ship.tiles.get(beyond)
        if other is None:
            if tile.side(d, rotation) != SMOOTH:
                change += 1.0 if beyond not in ship.squares else OPEN
        elif other.tile.side(opposite(d), other.rotation) != SMOOTH:
            change -= OPEN
    return change


def _worth(ship: Ship, counts: dict[str, int], tile, square, rotation, engines: int) -> float:
    kind = tile.kind
    worth = _kind_worth(ship, counts, tile, rotation)
    rear_edge = neighbour(square, BOTTOM) not in ship.squares
    if rear_edge and not tile.is_engine and engines < 3:
        worth -= 3.0                     # the rear edge is where engines go
    if kind != "engine" and kind != "double_engine" and _under_free_rear(ship, square) and engines < 3:
        worth -= 1.0
    # An exhaust or a barrel over a square of the board leaves that square empty for good (and the
    # ship can grow no further that way).
    if tile.is_engine and neighbour(square, BOTTOM) in ship.squares:
        worth -= DEAD_SQUARE
    if tile.is_cannon and neighbour(square, tile.barrel_facing(rotation)) in ship.squares:
        worth -= DEAD_SQUARE / 2
    if counts.get("life_support_purple", 0) == 0:
        if kind == "life_support_purple":
            worth += ALIEN if _joined_to(ship, tile, square, rotation, "cabin") else 0.0
    elif kind == "cabin" and _joined_to(ship, tile, square, rotation, "life_support_purple") \
            and not _alien_cabin(ship):
        worth += ALIEN_CABIN
    return worth


def _joined_to(ship: Ship, tile, square, rotation, kind: str) -> bool:
    """Whether the tile there would be joined connector to connector to a placed tile of `kind`."""
    for d in DIRECTIONS:
        other = ship.tiles.get(neighbour(square, d))
        if other is not None and other.tile.kind == kind and building.joint(
                tile.side(d, rotation), other.tile.side(opposite(d), other.rotation)) == "real":
            return True
    return False


def _alien_cabin(ship: Ship) -> bool:
    """Whether some cabin (not the starting one) is joined to a purple life support already."""
    return any(p.tile.kind == "cabin" and _joined_to(ship, p.tile, sq, p.rotation, "life_support_purple")
               for sq, p in ship.tiles.items())


def _under_free_rear(ship: Ship, square) -> bool:
    below = neighbour(square, BOTTOM)
    return below in ship.squares and below not in ship.tiles and neighbour(below, BOTTOM) not in ship.squares


def _kind_worth(ship: Ship, counts: dict[str, int], tile, rotation) -> float:
    kind, has = tile.kind, counts.get(tile.kind, 0)
    if kind in ("cannon", "double_cannon"):
        front = tile.barrel_facing(rotation) == TOP
        gain = (1.0 if front else 0.5) * (2 if kind == "double_cannon" else 1)
        batteries = counts.get("battery", 0)
        if kind == "double_cannon" and batteries == 0:
            gain *= 0.5                  # a double cannon fires only on a battery
        rate = FIREPOWER if _max_firepower(ship) < FIREPOWER_GOAL else 0.5
        return gain * rate + (0.5 if not front else 0.0)     # side barrels shoot large meteors too
    if kind == "cabin":
        return CABIN if has < 5 else 4.0 if has < 7 else 1.0
    if kind == "engine":
        return 9.0 if has < 2 else 4.0 if has < 3 else 0.5
    if kind == "double_engine":
        return 4.0 if has < 1 else 0.5
    if kind == "battery":
        return 6.0 if has < 2 else 4.0 if has < 4 else 1.0
    if kind == "shield":
        covered = {d for p in ship.tiles.values() if p.tile.kind == "shield" for d in p.tile.shield_covers(p.rotation)}
        new = tile.shield_covers(rotation) - covered
        return sum(SHIELD_SIDE[d] for d in new) * (1.0 if counts.get("battery", 0) else 0.6) or 0.5
    if kind == "cargo_hold":
        return 3.0 if has < 2 else 0.5
    if kind == "special_cargo_hold":
        return 4.0 if has < 1 else 0.5
    return 0.5                           # structural, life support (the strong bot takes no aliens)


def _max_firepower(ship: Ship) -> float:
    total = 0.0
    for placed in ship.tiles.values():
        tile = placed.tile
        if tile.is_cannon:
            front = tile.barrel_facing(placed.rotation) == TOP
            total += (1.0 if front else 0.5) * (2 if tile.kind == "double_cannon" else 1)
    return total
