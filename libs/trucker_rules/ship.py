"""The Ship model: the tiles on a player's ship board, the reserve spots, and what the ship carries.

A ship is plain data; the rules about it are pure functions in `building.py` (placement, inspection,
exposed connectors, parts) and `shipvalues.py` (crew, engines, firepower for the flight).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from trucker_rules.catalog import Component, Square, component, ship_board, starting_square


@dataclass
class Placed:
    component: str
    rotation: int = 0          # quarter turns clockwise from the layout in components.yaml

    @property
    def tile(self) -> Component:
        return component(self.component)


@dataclass
class Ship:
    board: str                                         # I, II, III or IIIa
    tiles: dict[Square, Placed] = field(default_factory=dict)
    reserve: list[str] = field(default_factory=list)   # set-aside components (at most 2)
    newest: Square | None = None                       # the one placed component still movable
    # What the ship carries once launched. Keys are squares of the component holding it.
    humans: dict[Square, int] = field(default_factory=dict)
    aliens: dict[Square, str] = field(default_factory=dict)      # "purple" | "brown"
    batteries: dict[Square, int] = field(default_factory=dict)
    goods: dict[Square, list[str]] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)      # components lost this round (cost 1 credit each)

    @classmethod
    def new(cls, board: str, starting_cabin: str) -> "Ship":
        return cls(board=board, tiles={starting_square(): Placed(starting_cabin, 0)})

    @property
    def squares(self) -> frozenset[Square]:
        return ship_board(self.board).squares

    def tile_at(self, square: Square) -> Component | None:
        placed = self.tiles.get(square)
        return placed.tile if placed else None

    def built_count(self) -> int:
        """Components attached besides the starting cabin."""
        return sum(1 for p in self.tiles.values() if p.tile.kind != "starting_cabin")

    def component_ids(self) -> list[str]:
        return [p.component for p in self.tiles.values()]

    def crew(self) -> int:
        return sum(self.humans.values()) + len(self.aliens)

    def human_crew(self) -> int:
        return sum(self.humans.values())

    def battery_count(self) -> int:
        return sum(self.batteries.values())

    def goods_list(self) -> list[str]:
        return [g for cargo in self.goods.values() for g in cargo]

    def copy(self) -> "Ship":
        return Ship(self.board, {sq: Placed(p.component, p.rotation) for sq, p in self.tiles.items()},
                    list(self.reserve), self.newest, dict(self.humans), dict(self.aliens),
                    dict(self.batteries), {sq: list(g) for sq, g in self.goods.items()}, list(self.lost))
