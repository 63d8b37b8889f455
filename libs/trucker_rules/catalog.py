"""The printed facts: component tiles, ship boards, the flight board, cards and scoring.

Loaded once from the package's own YAML files (`data/`). Directions are numbered clockwise from the
front of the ship: 0 top (front), 1 right, 2 bottom (rear), 3 left. A square is (column, row) using the
numbers printed on the ship board, so a 2d6 total names a column or a row directly.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

TOP, RIGHT, BOTTOM, LEFT = 0, 1, 2, 3
DIRECTIONS = (TOP, RIGHT, BOTTOM, LEFT)
DIRECTION_NAMES = ("front", "right", "rear", "left")
_SIDE_NAMES = {"top": TOP, "right": RIGHT, "bottom": BOTTOM, "left": LEFT}
# One step across each side: (d_column, d_row). Row numbers grow toward the rear.
STEP = {TOP: (0, -1), RIGHT: (1, 0), BOTTOM: (0, 1), LEFT: (-1, 0)}

SMOOTH, SINGLE, DOUBLE, UNIVERSAL = "smooth", "single", "double", "universal"

Square = tuple[int, int]


def neighbour(square: Square, direction: int) -> Square:
    d_col, d_row = STEP[direction]
    return square[0] + d_col, square[1] + d_row


def opposite(direction: int) -> int:
    return (direction + 2) % 4


@dataclass(frozen=True)
class Component:
    id: str
    kind: str                      # cabin, engine, double_engine, cannon, ... (components.yaml `type`)
    sides: tuple[str, str, str, str]   # connectors at rotation 0: top, right, bottom, left
    capacity: int = 0
    color: str | None = None       # starting cabins only
    exhaust: int | None = None     # direction of the nozzle at rotation 0
    barrel: int | None = None      # direction of the barrel at rotation 0
    covers: tuple[int, ...] = ()   # shield directions at rotation 0

    def side(self, direction: int, rotation: int) -> str:
        """The connector facing `direction` once the tile is turned `rotation` quarter turns clockwise."""
        return self.sides[(direction - rotation) % 4]

    def exhaust_facing(self, rotation: int) -> int | None:
        return None if self.exhaust is None else (self.exhaust + rotation) % 4

    def barrel_facing(self, rotation: int) -> int | None:
        return None if self.barrel is None else (self.barrel + rotation) % 4

    def shield_covers(self, rotation: int) -> frozenset[int]:
        return frozenset((d + rotation) % 4 for d in self.covers)

    @property
    def is_engine(self) -> bool:
        return self.kind in ("engine", "double_engine")

    @property
    def is_cannon(self) -> bool:
        return self.kind in ("cannon", "double_cannon")

    @property
    def is_cabin(self) -> bool:
        return self.kind in ("cabin", "starting_cabin")


@dataclass(frozen=True)
class ShipBoard:
    name: str                       # I, II, III, IIIa
    squares: frozenset[Square]
    missing_columns: frozenset[int]  # 2d6 totals that name no column of this board: they miss
    missing_rows: frozenset[int]
    reserve_slots: int


def _load(name: str) -> dict:
    # Read beside this file, not through importlib.resources: when a test directory of the same name
    # is on sys.path, `trucker_rules` can be imported as a namespace package.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((Path(__file__).parent / "data" / name).read_text(), Loader=loader)


@lru_cache(maxsize=None)
def components() -> dict[str, Component]:
    result = {}
    for tile in _load("components.yaml")["tiles"]:
        result[tile["id"]] = Component(
            id=tile["id"], kind=tile["type"], sides=tuple(tile["sides"]),
            capacity=tile.get("capacity", 0), color=tile.get("color"),
            exhaust=_SIDE_NAMES[tile["exhaust"]] if "exhaust" in tile else None,
            barrel=_SIDE_NAMES[tile["barrel"]] if "barrel" in tile else None,
            covers=tuple(_SIDE_NAMES[s] for s in tile.get("covers", ())),
        )
    return result


def component(component_id: str) -> Component:
    try:
        return components()[component_id]
    except KeyError:
        from starbase_rules.contract import RuleViolation
        raise RuleViolation("UNKNOWN_COMPONENT", f"there is no component {component_id!r}") from None


@lru_cache(maxsize=None)
def warehouse_ids() -> tuple[str, ...]:
    """The 140 tiles that go into the face-down pile every round (not the starting cabins)."""
    return tuple(c.id for c in components().values() if c.kind != "starting_cabin")


STARTING_CABINS = ("start-blue", "start-green", "start-red", "start-yellow")


@lru_cache(maxsize=None)
def _boards_data() -> dict:
    return _load("boards.yaml")


@lru_cache(maxsize=None)
def ship_board(name: str) -> ShipBoard:
    data = _boards_data()["ship_boards"][name]
    squares = frozenset((col, row) for row, cols in data["buildable"].items() for col in cols)
    # A total of 2d6 that is not a printed column (row) of the board misses: that is exactly a line
    # holding none of its squares, so the squares are the one source of both.
    totals = range(2, 13)
    return ShipBoard(name, squares, frozenset(t for t in totals if all(col != t for col, _ in squares)),
                     frozenset(t for t in totals if all(row != t for _, row in squares)), data["reserve_slots"])


def starting_square() -> Square:
    col, row = _boards_data()["starting_cabin_square"]
    return col, row


def ship_class_for_round(round_no: int) -> str:
    return _boards_data()["ship_class_by_round"][round_no]


def track_spaces() -> int:
    return _boards_data()["flight_board"]["track_spaces"]


def start_positions(round_no: int) -> list[int]:
    return list(_boards_data()["flight_board"]["start_positions"][round_no])


def hourglass_start_space(round_no: int) -> int:
    return _boards_data()["hourglass"]["start_space_by_round"][round_no]


def hourglass_seconds() -> int:
    return _boards_data()["hourglass"]["seconds"]


@lru_cache(maxsize=None)
def cards() -> dict[str, dict]:
    return {card["id"]: card for card in _load("cards.yaml")["cards"]}


def deck_recipe(round_no: int) -> dict:
    return _load_cards_recipe()[round_no]


@lru_cache(maxsize=None)
def _load_cards_recipe() -> dict:
    return _load("cards.yaml")["deck_per_round"]


@lru_cache(maxsize=None)
def scoring() -> dict:
    return _load("scoring.yaml")
