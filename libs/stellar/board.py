"""The Alpha map as logical hexes: Mega-Earth's three printed hexes are one hex ("mega_earth").

Hex keys are "q,r" strings so states stay JSON-friendly. Adjacency is edge-sharing on the axial grid;
Mega-Earth's neighbours are the union of its three hexes' neighbours (ruling G-BLD-8). Distances are
measured on the grid, through holes and terrain (G-BLD-6).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from stellar.facts import _load, hex_key

MEGA_EARTH = "mega_earth"


@dataclass(frozen=True)
class Hex:
    key: str
    kind: str                 # home_planet, neutral_planet, alien_planet, mega_earth, deep_space, sun_anomaly, nebular_anomaly
    value: int = 0            # printed tab value (home and neutral planets)
    home_of: str | None = None
    cells: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Board:
    hexes: dict[str, Hex]
    neighbours: dict[str, frozenset[str]]
    mega_capacity: int
    mega_values: dict[int, int]          # value by the number of outposts present (ruling G-ME-2)
    mega_box_numbers: tuple[int, ...]    # printed under each box, bottom to top (literal reading of G-ME-2)
    mega_top_number: int

    def distance(self, a: str, b: str) -> int:
        return min(_axial_distance(x, y) for x in self.hexes[a].cells for y in self.hexes[b].cells)

    def of_kind(self, kind: str) -> list[str]:
        return [k for k, h in self.hexes.items() if h.kind == kind]


def _axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dq + dr) + abs(dr)) // 2


@lru_cache(maxsize=1)
def alpha() -> Board:
    raw = _load("alpha_map.yaml")
    directions = [tuple(d) for d in raw["neighbors"]]
    mega_cells = {tuple(c) for c in raw["mega_earth"]["hexes"]}
    cell_to_key: dict[tuple[int, int], str] = {}
    hexes: dict[str, Hex] = {}
    for row in raw["hexes"]:
        q, r, kind = row[0], row[1], row[2]
        if (q, r) in mega_cells:
            cell_to_key[(q, r)] = MEGA_EARTH
            continue
        key = hex_key(q, r)
        value = row[3] if len(row) > 3 else 0
        home_of = row[4] if len(row) > 4 else None
        hexes[key] = Hex(key, kind, value, home_of, ((q, r),))
        cell_to_key[(q, r)] = key
    hexes[MEGA_EARTH] = Hex(MEGA_EARTH, "mega_earth", 0, None, tuple(sorted(mega_cells)))
    neighbours: dict[str, set[str]] = {k: set() for k in hexes}
    for cell, key in cell_to_key.items():
        for dq, dr in directions:
            other = cell_to_key.get((cell[0] + dq, cell[1] + dr))
            if other is not None and other != key:
                neighbours[key].add(other)
    mega = raw["mega_earth"]
    return Board(hexes, {k: frozenset(v) for k, v in neighbours.items()}, mega["capacity"],
                 {int(k): v for k, v in mega["value_by_outposts"].items()},
                 tuple(mega["box_numbers"]), mega["top_number"])
