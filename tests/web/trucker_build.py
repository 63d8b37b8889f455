"""Building a Trucker ship to order over the Trucker service's socket (protocol v1), for browser tests
that need a given ship before the flight: components are grabbed face down (or taken back face up) until
one of the wanted kind fits where wanted; the others are given back face up."""
from __future__ import annotations

from typing import Callable

from starbase_core.gamestream import game_stream
from starbase_rules.contract import RuleViolation
from trucker_rules import shipvalues
from trucker_rules.building import check_placement
from trucker_rules.catalog import DIRECTIONS, neighbour
from trucker_rules.ship import Placed, Ship

from trucker.state_doc import Folded
from tests.trucker_service.live import Client

Spot = tuple[tuple[int, int], int]


async def ship_of(store, game_id: str, player: str) -> Ship:
    return Folded(await store.read(game_stream(game_id))).state.seats[player].ship


def spots(ship: Ship, component: str, wanted: Callable[[Ship], bool]) -> list[Spot]:
    """Where `component` may go on `ship` (square, rotation) so that the ship then is as `wanted`."""
    found = []
    for square in sorted(ship.squares - set(ship.tiles)):
        for rotation in range(4):
            try:
                check_placement(ship, component, square, rotation)
            except RuleViolation:
                continue
            trial = ship.copy()
            trial.tiles[square] = Placed(component, rotation)
            if wanted(trial):
                found.append((square, rotation))
    return found


def open_sides(ship: Ship, square: tuple[int, int]) -> int:
    """Free buildable squares next to `square` (room for what comes next)."""
    c, r = square
    return sum((c + dc, r + dr) in ship.squares and (c + dc, r + dr) not in ship.tiles
               for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)))


async def place_one(client: Client, store, game_id: str, player: str, kind: Callable[[str], bool],
                    wanted: Callable[[Ship], bool], face_up: set[str], most: int = 160) -> str:
    """Grab until a component of `kind` fits so the ship is as `wanted`; place it (at the spot with the
    most room around it) and return it. Misfits go back face up (and are tried again from there first)."""
    for component in sorted(c for c in face_up if kind(c)):
        if await _try(client, store, game_id, player, component, wanted, face_up, f"grab_face_up:{component}"):
            return component
    for _ in range(most):
        answer = await client.send("grab_face_down")
        if answer["kind"] != "ack":
            raise AssertionError(f"grabbing face down: {answer}")
        component = answer["events"][0]["data"]["component"]
        if kind(component) and await _place(client, store, game_id, player, component, wanted):
            return component
        await _give_back(client, component, face_up)
    raise AssertionError("no component of the wanted kind fitted")


async def _try(client, store, game_id, player, component, wanted, face_up, how) -> bool:
    answer = await client.send("grab_face_up", component=component)
    if answer["kind"] != "ack":
        face_up.discard(component)
        return False
    face_up.discard(component)
    if await _place(client, store, game_id, player, component, wanted):
        return True
    await _give_back(client, component, face_up)
    return False


async def _place(client, store, game_id, player, component, wanted) -> bool:
    ship = await ship_of(store, game_id, player)
    found = spots(ship, component, wanted)
    if not found:
        return False
    square, rotation = max(found, key=lambda spot: open_sides(ship, spot[0]))
    placed = await client.send("place", square=list(square), rotation=rotation)
    assert placed["kind"] == "ack", placed
    return True


async def _give_back(client, component, face_up) -> None:
    answer = await client.send("return")
    assert answer["kind"] == "ack", answer
    face_up.add(component)


def kind_is(*kinds: str) -> Callable[[str], bool]:
    return lambda component: Placed(component).tile.kind in kinds


def hosts_an_alien(ship: Ship) -> bool:
    return bool(shipvalues.alien_options(ship))


def life_support_with_room(ship: Ship) -> bool:
    """Some life support of the ship offers a connector to a free buildable square: a cabin can join it."""
    for square, placed in ship.tiles.items():
        if not placed.tile.kind.startswith("life_support_"):
            continue
        for direction in DIRECTIONS:
            other = neighbour(square, direction)
            if (other in ship.squares and other not in ship.tiles
                    and placed.tile.side(direction, placed.rotation) != "smooth"):
                return True
    return False
