"""Ship values the adventure cards test: crew, engine strength, firepower; lines of fire, shields and
cannons; which crew, goods and batteries go first. Pure functions of a Ship."""
from __future__ import annotations

from trucker_rules import building, catalog
from trucker_rules.catalog import BOTTOM, DIRECTIONS, LEFT, RIGHT, TOP, Square, neighbour, opposite
from trucker_rules.ship import Ship

FROM = {"front": TOP, "right": RIGHT, "rear": BOTTOM, "left": LEFT}


def goods_value(good: str) -> int:
    """A good's sale value at Journey's End (`scoring.yaml`); "the most valuable first" goes by it too."""
    return catalog.scoring()["goods_values"][good]


def single_engines(ship: Ship) -> int:
    return sum(1 for p in ship.tiles.values() if p.tile.kind == "engine")


def double_engines(ship: Ship) -> int:
    return sum(1 for p in ship.tiles.values() if p.tile.kind == "double_engine")


def engine_strength(ship: Ship, powered: int) -> int:
    strength = single_engines(ship) + 2 * powered
    if strength > 0 and "brown" in ship.aliens.values():
        strength += 2
    return strength


def double_cannons(ship: Ship) -> list[Square]:
    return sorted(sq for sq, p in ship.tiles.items() if p.tile.kind == "double_cannon")


def firepower(ship: Ship, powered: list[Square]) -> float:
    total = 0.0
    for square, placed in ship.tiles.items():
        tile = placed.tile
        if not tile.is_cannon:
            continue
        front = tile.barrel_facing(placed.rotation) == TOP
        if tile.kind == "cannon":
            total += 1 if front else 0.5
        elif square in powered:
            total += 2 if front else 1
    if total > 0 and "purple" in ship.aliens.values():
        total += 2
    return total


def battery_squares(ship: Ship, count: int) -> list[Square]:
    """Where `count` tokens are taken from: the fullest battery first (then by square)."""
    left = dict(ship.batteries)
    taken = []
    for _ in range(count):
        square = max(sorted(left), key=lambda sq: left[sq])
        taken.append(square)
        left[square] -= 1
    return taken


def alien_options(ship: Ship) -> dict[Square, list[str]]:
    """Cabins (not the starting cabin) joined connector-to-connector to life support, and its colours."""
    options = {}
    for square, placed in ship.tiles.items():
        if placed.tile.kind != "cabin":
            continue
        colours = []
        for d in DIRECTIONS:
            other = neighbour(square, d)
            if other in ship.tiles and _joined(ship, square, other, d):
                kind = ship.tiles[other].tile.kind
                if kind.startswith("life_support_"):
                    colours.append(kind.removeprefix("life_support_"))
        if colours:
            options[square] = sorted(set(colours))
    return options


def _joined(ship: Ship, a: Square, b: Square, d: int) -> bool:
    pa, pb = ship.tiles[a], ship.tiles[b]
    return building.joint(pa.tile.side(d, pa.rotation), pb.tile.side(opposite(d), pb.rotation)) == "real"


def crew_to_lose(ship: Ship, count: int) -> list[tuple[Square, str]]:
    """The default choice of crew to give up: humans from the fullest cabins first, aliens last."""
    humans = dict(ship.humans)
    losses = []
    for _ in range(count):
        candidates = [sq for sq in sorted(humans) if humans[sq] > 0]
        if candidates:
            square = max(candidates, key=lambda sq: humans[sq])
            humans[square] -= 1
            losses.append((square, "human"))
            continue
        aliens = [(sq, c) for sq, c in sorted(ship.aliens.items()) if (sq, c) not in losses]
        if not aliens:
            break
        losses.append(aliens[0])
    return losses


def cargo_capacity(ship: Ship) -> list[tuple[Square, int, bool]]:
    """(square, capacity, takes red) for every hold, red containers first."""
    holds = [(sq, p.tile.capacity, p.tile.kind == "special_cargo_hold") for sq, p in ship.tiles.items()
             if p.tile.kind in ("cargo_hold", "special_cargo_hold")]
    return sorted(holds, key=lambda h: (not h[2], h[0]))


def arrange_cargo(ship: Ship, goods: list[str]) -> dict[Square, list[str]]:
    """The most valuable arrangement of `goods` (what is on board plus what is gained); the rest is
    thrown away. Red goods only in red containers."""
    ordered = sorted(goods, key=lambda g: -goods_value(g))
    holds = cargo_capacity(ship)
    cargo: dict[Square, list[str]] = {sq: [] for sq, _, _ in holds}
    for good in ordered:
        fits = [(sq, cap) for sq, cap, red in holds if len(cargo[sq]) < cap and (red or good != "red")]
        if good != "red":   # keep red containers free for red goods where possible
            fits.sort(key=lambda f: ship.tiles[f[0]].tile.kind == "special_cargo_hold")
        if fits:
            cargo[fits[0][0]].append(good)
    return {sq: g for sq, g in cargo.items() if g}


def goods_to_lose(ship: Ship, count: int) -> tuple[list[tuple[Square, str]], int]:
    """The default loss of `count` goods: the most valuable first, from the first hold (by square)
    among equal values; returns the (hold, colour) lost and how many goods were missing (those are
    paid in batteries instead)."""
    cargo = {sq: list(g) for sq, g in ship.goods.items()}
    losses = []
    for _ in range(count):
        held = [(goods_value(g), sq, g) for sq, goods in sorted(cargo.items()) for g in goods]
        if not held:
            break
        _value, square, good = max(held, key=lambda h: h[0])
        cargo[square].remove(good)
        losses.append((square, good))
    return losses, count - len(losses)


def goods_loss_has_choice(ship: Ship, colours: list[str]) -> bool:
    """Whether the owner can choose which holds lose these colours: some colour is lost only in part
    and sits in more than one hold."""
    for colour in set(colours):
        holds = [sq for sq, goods in ship.goods.items() if colour in goods]
        held = sum(goods.count(colour) for goods in ship.goods.values())
        if colours.count(colour) < held and len(holds) > 1:
            return True
    return False


def cargo_without(ship: Ship, losses: list[tuple[Square, str]]) -> dict[Square, list[str]]:
    cargo = {sq: list(g) for sq, g in ship.goods.items()}
    for square, good in losses:
        cargo[tuple(square)].remove(good)
    return {sq: g for sq, g in cargo.items() if g}


def first_in_line(ship: Ship, direction: int, number: int) -> Square | None:
    """The first component met by something coming from `direction` along column/row `number`."""
    if direction in (TOP, BOTTOM):
        line = [sq for sq in ship.tiles if sq[0] == number]
        key = (lambda sq: sq[1]) if direction == TOP else (lambda sq: -sq[1])
    else:
        line = [sq for sq in ship.tiles if sq[1] == number]
        key = (lambda sq: sq[0]) if direction == LEFT else (lambda sq: -sq[0])
    return min(line, key=key) if line else None


def shield_covers(ship: Ship, direction: int) -> bool:
    return any(p.tile.kind == "shield" and direction in p.tile.shield_covers(p.rotation) for p in ship.tiles.values())


def cannons_against(ship: Ship, direction: int, number: int) -> list[Square]:
    """Cannons that can shoot a large meteor coming from `direction` on line `number`."""
    if direction == TOP:
        lines = {number}
    else:
        lines = {number - 1, number, number + 1}
    found = []
    for square, placed in ship.tiles.items():
        if not placed.tile.is_cannon or placed.tile.barrel_facing(placed.rotation) != direction:
            continue
        coordinate = square[0] if direction in (TOP, BOTTOM) else square[1]
        if coordinate in lines:
            found.append(square)
    return sorted(found, key=lambda sq: (ship.tiles[sq].tile.kind != "cannon", sq))


def occupied_cabins(ship: Ship) -> list[Square]:
    return sorted(sq for sq in ship.tiles if ship.tiles[sq].tile.is_cabin
                  and (ship.humans.get(sq, 0) > 0 or sq in ship.aliens))
