"""The fixed geometry of the 21Moon board and its tiles, loaded once from the package's data files.

Convention (the public 18xx.games one, so recorded games import unchanged): flat-topped hexes,
column letters A..M, doubled row numbers, edges 0..5 clockwise from the bottom side; a tile laid
with rotation r moves a road end printed at edge e to edge (e + r) mod 6.

A tile's road is a tuple of *paths*. A path joins two ends; an end is an edge (0..5) or a depot,
written as a negative number (-1 is depot 0, -2 is depot 1) so that rotation leaves it alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

COLUMNS = "ABCDEFGHIJKLM"
# edge -> (column step, row step)
EDGE_STEPS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))


def _load(name: str) -> dict:
    return yaml.safe_load(resources.files("moon21").joinpath("data", name).read_text("utf-8"))


MAP = _load("map.yaml")
TILE_DATA = _load("tiles.yaml")
# The tile colours each phase allows (entities.yaml's phase chart, which `rules()` reads whole).
PHASE_COLOURS: dict[str, tuple[str, ...]] = {phase["name"]: tuple(phase["colors"])
                                             for phase in _load("entities.yaml")["phases"]}

HEXES: dict[str, dict] = MAP["hexes"]
SPACE_PORT: str = MAP["space_port"]["hex"]
TERMINAL_HEX: str = MAP["terminal"]["hex"]
TERMINAL_TILE: str = MAP["terminal"]["tile"]
TERMINAL_BONUS: int = MAP["terminal"]["bonus"]      # with an eastern area, the Terminal is not counted
AREAS: dict[str, dict] = MAP["offboard"]["areas"]
EAST_AREAS = tuple(a for a, d in AREAS.items() if d["side"] == "east")
WEST_AREAS = tuple(a for a, d in AREAS.items() if d["side"] == "west")
OFFBOARD_VALUE: int = MAP["offboard"]["value"]
EAST_WEST_BONUS: int = MAP["offboard"]["bonus"]
BONUS_TOKENS: int = MAP["offboard"]["bonus_tokens"]     # East-West bonus tokens per off-board area
MINERALS: dict[str, dict] = MAP["minerals"]


def mineral_cubes() -> list[str]:
    """Every mineral cube in the box, in the chart's order (the setup shuffles them onto the mineral hexes)."""
    return [name for name, mineral in MINERALS.items() for _ in range(mineral["quantity"])]


COLOURS: list[str] = TILE_DATA["colours"]


def split(hex_id: str) -> tuple[int, int]:
    return COLUMNS.index(hex_id[0]), int(hex_id[1:])


def name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row}"


@lru_cache(maxsize=None)
def neighbour(hex_id: str, edge: int) -> str | None:
    """The board hex across `edge`, or None (off the grid or an off-board area hex). Pure in a fixed
    map and asked ~100 times per network compiled or lay listed: computed once per (hex, edge)."""
    col, row = split(hex_id)
    dc, dr = EDGE_STEPS[edge]
    if not 0 <= col + dc < len(COLUMNS):
        return None
    other = name(col + dc, row + dr)
    return other if other in HEXES else None


def hex_distance(a: str, b: str) -> int:
    (x1, y1), (x2, y2) = split(a), split(b)
    dx, dy = abs(x1 - x2), abs(y1 - y2)
    return dx + max(0, (dy - dx) // 2)


# (hex, edge) -> area name, for edges with printed road into an off-board area
AREA_ENTRIES: dict[tuple[str, int], str] = {
    (h, e): area for area, d in AREAS.items() for h, e in d["entries"]
}

RIFT: frozenset[tuple[str, int]] = frozenset(
    pair
    for h, e in MAP["rift"]
    for pair in ((h, e), (neighbour(h, e), (e + 3) % 6))
)


def _closed_edges(hex_id: str) -> frozenset[int]:
    """Edges a road may never leave by: no board hex there and no road into an off-board area."""
    return frozenset(
        e for e in range(6) if neighbour(hex_id, e) is None and (hex_id, e) not in AREA_ENTRIES
    )


CLOSED: dict[str, frozenset[int]] = {h: _closed_edges(h) for h in HEXES}


# a mineral hex's tiles by its printed depots: one dot, or the double-dot hexes (rule 11.2.1); any other
# count in map.yaml is a mistake and fails here (KeyError) instead of passing as double-dot
MINERAL_TILE_KIND = {1: "depot", 2: "double_depot"}


def tile_kind_for_hex(hex_id: str) -> str | None:
    """Which kind of tile a hex takes (rule 11.2.1), None where no tile may ever be laid."""
    kind = HEXES[hex_id]["kind"]
    if kind in ("plain", "hill", "mountain"):
        return "plain"
    if kind == "local_base":
        return "depot"
    if kind == "mineral":
        return MINERAL_TILE_KIND[HEXES[hex_id]["depots"]]
    if kind == "terminal_site":
        return "terminal"
    return None


@dataclass(frozen=True)
class TileDef:
    id: str
    colour: str
    count: int
    kind: str
    paths: tuple[tuple[int, int], ...]        # at rotation 0
    slots: tuple[int, ...]                    # slots per depot
    upgrades: tuple[str, ...]
    value_by_phase: dict | None = None

    @property
    def colour_rank(self) -> int:
        return COLOURS.index(self.colour)


def _tile_def(tile_id: str, d: dict) -> TileDef:
    paths: list[tuple[int, int]] = [tuple(r) for r in d.get("roads", [])]
    for j, depot in enumerate(d.get("depots", [])):
        paths.extend((e, -1 - j) for e in depot["edges"])
    return TileDef(
        id=tile_id, colour=d["colour"], count=d["count"], kind=d["kind"], paths=tuple(paths),
        slots=tuple(dep["slots"] for dep in d.get("depots", [])),
        upgrades=tuple(str(u) for u in d["upgrades"]),
        value_by_phase=d.get("value_by_phase"),
    )


TILES: dict[str, TileDef] = {str(k): _tile_def(str(k), v) for k, v in TILE_DATA["tiles"].items()}


def rotate_end(end: int, rotation: int) -> int:
    return (end + rotation) % 6 if end >= 0 else end


@lru_cache(maxsize=None)
@lru_cache(maxsize=None)
def rotated_paths(tile_id: str, rotation: int) -> tuple[tuple[int, int], ...]:
    return tuple(
        (rotate_end(a, rotation), rotate_end(b, rotation)) for a, b in TILES[tile_id].paths
    )


@lru_cache(maxsize=None)
def road_edges(tile_id: str, rotation: int) -> frozenset[int]:
    return frozenset(end for path in rotated_paths(tile_id, rotation) for end in path if end >= 0)


@lru_cache(maxsize=None)
def distinct_rotations(tile_id: str) -> tuple[int, ...]:
    """Rotations that give different roads (X29 at 0 and 2 is the same tile, for example)."""
    seen, out = set(), []
    for r in range(6):
        key = frozenset(frozenset(p) for p in rotated_paths(tile_id, r))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return tuple(out)
