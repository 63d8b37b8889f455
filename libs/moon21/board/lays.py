"""Tile lays (rules 11.2, 11.2.1, 11.2.2), the Terminal tile (P5) and the Old Landing Site (P1)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from starbase_rules import RuleViolation

from moon21.board.geometry import (
    CLOSED, HEXES, MAP, PHASE_COLOURS, RIFT, SPACE_PORT, TERMINAL_HEX, TERMINAL_TILE, TILES, distinct_rotations,
    hex_distance, neighbour, road_edges, rotated_paths, tile_kind_for_hex,
)
from moon21.board.graph import Reach
from moon21.board.reach import reach, reaches
from moon21.board.state import Board, local_base_hex

TERRAIN_COST = MAP["terrain_cost"]
OLS_MIN_DISTANCE: int = MAP["ols_min_distance"]


def upgrades_of(tile: str) -> tuple[str, ...]:
    """Tiles that may replace `tile` (rule 11.2.2 as ruled in docs/moon21_board.md)."""
    return TILES[tile].upgrades


def keeps_roads(old: tuple[str, int], new: tuple[str, int]) -> dict[int, int] | None:
    """If the new tile keeps every road of the old one, how the old depots map onto the new ones.

    Every old edge-to-edge road must be a road of the new tile; every old depot's roads must all
    run into one depot of the new tile, a different one for each old depot (so tokens keep
    their place). Returns None when some road would be lost."""
    mapping = _keeps_roads(old[0], old[1], new[0], new[1])
    return None if mapping is None else dict(mapping)


@lru_cache(maxsize=None)
def _keeps_roads(old_tile: str, old_rotation: int, new_tile: str, new_rotation: int) -> tuple | None:
    # Pure in the two (tile, rotation) pairs, and asked for every upgrade option: computed once each.
    old_paths, new_paths = rotated_paths(old_tile, old_rotation), rotated_paths(new_tile, new_rotation)
    new_plain = {frozenset(p) for p in new_paths if p[0] >= 0 and p[1] >= 0}
    if any(frozenset(p) not in new_plain for p in old_paths if p[0] >= 0 and p[1] >= 0):
        return None
    old_depots, new_depots = _depot_edges(old_paths), _depot_edges(new_paths)
    olds = sorted(old_depots)
    for chosen in permutations(sorted(new_depots), len(olds)):
        if all(old_depots[i] <= new_depots[j] for i, j in zip(olds, chosen)):
            return tuple(zip(olds, chosen))
    return None


def _depot_edges(paths) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for a, b in paths:
        for edge, end in ((a, b), (b, a)):
            if end < 0 and edge >= 0:
                out.setdefault(-1 - end, set()).add(edge)
    return out


@dataclass
class _Context:
    corp: str
    base: str
    phase: str
    space_bridge: bool
    tunnel: bool
    terminal_open: bool
    reach_mode: str
    # everything the base reaches, for `lay_options` (which asks of every hex near it); None for
    # `check_lay`, which asks of one hex and searches for just that (`reach.reaches`)
    reach: Reach | None
    mineral_cost: int = 0
    tunnel_mountain_cost: int = TERRAIN_COST["tunnel_mountain"]
    _entered: dict[str, set[int]] | None = None

    def reaches(self, board: Board, hex_id: str, edges: frozenset[int] | set[int], depot_in_hex: bool = False) -> bool:
        """Does a route from the base enter the hex at one of `edges` (or, with `depot_in_hex`, reach
        one of its depots)?"""
        if self.reach is None:
            return reaches(board, self.corp, self.base, entered=[(hex_id, e) for e in edges],
                           depots=(lambda key: _node_hex(key) == hex_id) if depot_in_hex else None,
                           mode=self.reach_mode)
        if self._entered is None:       # indexed once: lay_options asks for every tile and rotation
            self._entered = {}
            for h, e in self.reach.entered:
                self._entered.setdefault(h, set()).add(e)
        return bool(self._entered.get(hex_id, set()) & edges) or \
            (depot_in_hex and any(_node_hex(n) == hex_id for n in self.reach.depots))


def _context(board, corp, base, phase, space_bridge, tunnel, terminal_open, reach_mode="route", *,
             listing: bool = True, **costs) -> _Context:
    if base not in ("LB", "SP"):
        raise RuleViolation("UNKNOWN_BASE", f"base must be LB or SP, not {base!r}")
    if phase not in PHASE_COLOURS:
        raise RuleViolation("UNKNOWN_PHASE", f"no phase {phase!r}")
    return _Context(corp, base, phase, space_bridge, tunnel, terminal_open, reach_mode,
                    reach(board, corp, base, mode=reach_mode) if listing else None, **costs)


def _check(board: Board, ctx: _Context, hex_id: str, tile: str, rotation: int) -> int:
    if hex_id not in HEXES:
        raise RuleViolation("UNKNOWN_HEX", f"{hex_id} is not a hex of the board")
    if tile not in TILES:
        raise RuleViolation("UNKNOWN_TILE", f"there is no tile {tile!r}")
    if not isinstance(rotation, int) or not 0 <= rotation < 6:
        raise RuleViolation("ILLEGAL_ROTATION", f"rotation must be 0..5, not {rotation!r}")
    kind = tile_kind_for_hex(hex_id)
    if kind is None:
        raise RuleViolation("ILLEGAL_HEX", "no tile may be placed on the Space Port")
    current = board.tile_at(hex_id)
    _check_tile(board, ctx, hex_id, kind, current, tile)
    _check_rotation(hex_id, tile, rotation, current, ctx.space_bridge)
    _check_route(board, ctx, hex_id, tile, rotation, current)
    return _terrain_cost(ctx, hex_id, current)


def _check_tile(board: Board, ctx: _Context, hex_id: str, kind: str, current: tuple[str, int] | None,
                tile: str) -> None:
    """The checks of a lay that do not depend on the rotation (`lay_options` asks them once per tile)."""
    if (tile == TERMINAL_TILE) != (hex_id == TERMINAL_HEX):
        raise RuleViolation("ILLEGAL_TILE", "the Terminal tile X29 goes on F8 and nothing else does")
    if hex_id == TERMINAL_HEX and not ctx.terminal_open:
        raise RuleViolation("TERMINAL_RESERVED", "while P5 is open only its power may place the Terminal")
    new = TILES[tile]
    if current is None:
        if new.kind != kind or (new.colour != "yellow" and kind != "terminal"):
            raise RuleViolation("ILLEGAL_TILE", f"{hex_id} takes a yellow {kind.replace('_', ' ')} tile, not {tile}")
    elif tile not in upgrades_of(current[0]):
        raise RuleViolation("ILLEGAL_TILE", f"{tile} is not an upgrade of {current[0]} (rule 11.2.2)")
    if new.kind != "terminal" and new.colour not in PHASE_COLOURS[ctx.phase]:
        raise RuleViolation("ILLEGAL_TILE", f"{new.colour} tiles are not available in phase {ctx.phase}")
    if board.supply.get(tile, 0) <= 0:
        raise RuleViolation("TILE_NOT_AVAILABLE", f"no copy of tile {tile} is left in the supply")


def _terrain_cost(ctx: _Context, hex_id: str, current: tuple[str, int] | None) -> int:
    if current is not None:
        return 0
    terrain = HEXES[hex_id]["kind"]
    if terrain == "mountain":
        return ctx.tunnel_mountain_cost if ctx.tunnel else TERRAIN_COST["mountain"]
    if terrain == "mineral":
        return ctx.mineral_cost
    return TERRAIN_COST["hill"] if terrain == "hill" else 0


def _check_rotation(hex_id, tile, rotation, current, space_bridge) -> None:
    problem = _rotation_problem(hex_id, tile, rotation, current, space_bridge)
    if problem is not None:
        raise RuleViolation("ILLEGAL_ROTATION", problem)


@lru_cache(maxsize=65536)     # bounded: a long-running adjudicator meets ever more combinations
def _rotation_problem(hex_id: str, tile: str, rotation: int, current: tuple[str, int] | None,
                      space_bridge: bool) -> str | None:
    """Why the tile at this rotation cannot go on the hex over `current`, or None. Pure in its
    arguments (the map's edges, the Rift, the tiles' roads), and asked for every candidate
    `lay_options` lists (a third of them fail here): worked out once per combination."""
    edges = road_edges(tile, rotation)
    off = edges & CLOSED[hex_id]
    if off:
        return f"{tile} at rotation {rotation} runs road off the map at edge {min(off)}"
    old_edges = road_edges(*current) if current else frozenset()
    into_rift = [e for e in edges - old_edges if (hex_id, e) in RIFT]
    if into_rift and not space_bridge:
        return f"{tile} at rotation {rotation} runs road into the Rift (needs P3)"
    if current is not None and keeps_roads(current, (tile, rotation)) is None:
        return f"{tile} at rotation {rotation} does not keep every road of {current[0]}"
    return None


def _check_route(board, ctx, hex_id, tile, rotation, current) -> None:
    if current is None:
        if ctx.base == "LB" and hex_id == local_base_hex(ctx.corp):
            return   # no track in the local base hex yet: any suitable depot tile (11.2.1)
        if ctx.reaches(board, hex_id, road_edges(tile, rotation)):
            return
        raise RuleViolation("NO_ROUTE", f"the {ctx.base} base has no route to extend into {hex_id}")
    if TILES[current[0]].kind == "plain":
        old = {frozenset(p) for p in rotated_paths(*current)}
        added = [p for p in rotated_paths(tile, rotation) if frozenset(p) not in old]
        if ctx.reaches(board, hex_id, {end for p in added for end in p}):
            return
        raise RuleViolation("NO_ROUTE", f"the {ctx.base} base has no route to the new road on {hex_id}")
    # 11.2.2: a depot tile needs only "a route to the tile": to a depot in the hex, or to an edge of the
    # hex where the tile keeps or adds road (the same edges a plain upgrade may be reached at)
    if ctx.reaches(board, hex_id, road_edges(*current) | road_edges(tile, rotation), depot_in_hex=True):
        return
    raise RuleViolation("NO_ROUTE", f"the {ctx.base} base has no route to {hex_id}")


def _node_hex(stop: str) -> str:
    """The hex of a reached stop ("G13-1" -> "G13"; area names pass through unchanged)."""
    return stop.split("-")[0]


def check_lay(board: Board, corp: str, base: str, hex_id: str, tile: str, rotation: int, *,
              phase: str, space_bridge: bool = False, tunnel: bool = False,
              terminal_open: bool = False, reach_mode: str = "route", **costs) -> int:
    """Is this a legal tile action for the base? Returns the terrain cost; raises RuleViolation.

    `space_bridge`: the corporation owns P3; `tunnel`: it owns P6 (mountains cost
    `tunnel_mountain_cost`, 10 by default); `terminal_open`: P5 has closed, so X29 is an ordinary
    tile action (rule 11.2.1); `mineral_cost`: the cost of a first tile in a mineral hex (0 by
    default); `reach_mode`: "route" (exact routes) or "network" (see `reach.reach`)."""
    ctx = _context(board, corp, base, phase, space_bridge, tunnel, terminal_open, reach_mode, listing=False,
                   **costs)
    return _check(board, ctx, hex_id, tile, rotation)


def lay_options(board: Board, corp: str, base: str, *, phase: str, space_bridge: bool = False,
                tunnel: bool = False, terminal_open: bool = False, reach_mode: str = "route",
                **costs) -> list[dict]:
    """Every legal tile action of the base: [{"hex", "tile", "rotation", "cost"}] (one entry per
    distinct resulting road, so rotations that give the same tile appear once)."""
    ctx = _context(board, corp, base, phase, space_bridge, tunnel, terminal_open, reach_mode, listing=True,
                   **costs)
    touched = {h for h, _ in ctx.reach.entered} | {_node_hex(n) for n in ctx.reach.depots}
    if base == "LB":
        touched.add(local_base_hex(corp))
    out = []
    for hex_id in sorted(touched & set(HEXES)):
        current = board.tile_at(hex_id)
        kind = tile_kind_for_hex(hex_id)
        if kind is None:
            continue
        if current is None:
            candidates = _first_tiles(kind)
        else:
            candidates = upgrades_of(current[0])
        # `_check`'s checks split by what they depend on: the hex's once, the tile's once per tile,
        # the rotation's per rotation (the same checks, in the same order, so the same answers)
        cost = _terrain_cost(ctx, hex_id, current)
        for tile in candidates:
            try:
                _check_tile(board, ctx, hex_id, kind, current, tile)
            except RuleViolation:
                continue
            for rotation in distinct_rotations(tile):
                if _rotation_problem(hex_id, tile, rotation, current, ctx.space_bridge) is not None:
                    continue
                try:
                    _check_route(board, ctx, hex_id, tile, rotation, current)
                except RuleViolation:
                    continue
                out.append({"hex": hex_id, "tile": tile, "rotation": rotation, "cost": cost})
    return out


@lru_cache(maxsize=None)
def _first_tiles(kind: str) -> tuple[str, ...]:
    """The tiles an empty hex of this kind may take (before the supply and the phase are asked)."""
    return tuple(t for t, d in TILES.items() if d.kind == kind and (d.colour == "yellow" or kind == "terminal"))


def rift_crossings(board: Board) -> set[tuple[str, int]]:
    """Rift edges with road on both sides (each crossing named from both hexes)."""
    out = set()
    for hex_id, edge, nb in _RIFT_SIDES:
        if hex_id in board.tiles and nb in board.tiles and edge in road_edges(*board.tile_at(hex_id)) \
                and (edge + 3) % 6 in road_edges(*board.tile_at(nb)):
            out.add((hex_id, edge))
    return out


# Each Rift edge with the hex across it (asked twice per tile laid: computed once).
_RIFT_SIDES = tuple((hex_id, edge, neighbour(hex_id, edge)) for hex_id, edge in sorted(RIFT))


def rift_crossed(board: Board) -> bool:
    """Does any road cross the Rift (the Space Bridge bonus condition)?"""
    return bool(rift_crossings(board))


def apply_lay(board: Board, hex_id: str, tile: str, rotation: int) -> dict:
    """Put the tile on the map (the old one returns to the supply; tokens keep their depots).

    Returns {"replaced": old tile or None, "rift_bridge_built": this lay made the first road
    across a Rift edge that had none}. Check the lay first; this only refuses impossible shapes."""
    before = rift_crossings(board)
    current = board.tile_at(hex_id)
    if board.supply.get(tile, 0) <= 0:
        raise RuleViolation("TILE_NOT_AVAILABLE", f"no copy of tile {tile} is left in the supply")
    if current is not None:
        mapping = keeps_roads(current, (tile, rotation))
        if mapping is None:
            raise RuleViolation("ILLEGAL_ROTATION", f"{tile} at rotation {rotation} loses road of {current[0]}")
        board.supply[current[0]] += 1
    else:
        mapping = {0: 0}
    board.supply[tile] -= 1
    board.tiles[hex_id] = [tile, rotation]
    if hex_id in board.tokens:
        old = board.tokens[hex_id]
        moved = [[] for _ in TILES[tile].slots]
        for i, slots in enumerate(old):
            moved[mapping[i]] = list(slots)
        board.tokens[hex_id] = moved
    return {"replaced": current[0] if current else None,
            "rift_bridge_built": bool(rift_crossings(board) - before) and not before}


# -- the Passenger Terminal (P5) ------------------------------------------------------------

def terminal_options(board: Board) -> list[dict]:
    """X29 on F8 through P5's power: any rotation, no route needed (rule 6.1.5)."""
    if TERMINAL_HEX in board.tiles or board.supply.get(TERMINAL_TILE, 0) <= 0:
        return []
    return [{"hex": TERMINAL_HEX, "tile": TERMINAL_TILE, "rotation": r, "cost": 0}
            for r in distinct_rotations(TERMINAL_TILE)
            if not road_edges(TERMINAL_TILE, r) & CLOSED[TERMINAL_HEX]]


# -- the Old Landing Site (P1) --------------------------------------------------------------

def ols_options(board: Board, min_distance: int = OLS_MIN_DISTANCE) -> list[dict]:
    """Yellow depot tiles for the OLS token: an empty mineral hex at least `min_distance` hexes from
    the Space Port (card text: three; 6.1.1: any mineral hex, 0), any rotation that keeps the road on
    the map and out of the Rift; [{"hex", "tile", "rotation", "depot"}]."""
    out = []
    for hex_id in sorted(h for h, d in HEXES.items() if d["kind"] == "mineral"):
        if hex_id in board.tiles or hex_distance(hex_id, SPACE_PORT) < min_distance:
            continue
        kind = tile_kind_for_hex(hex_id)
        for tile, d in TILES.items():
            if d.kind != kind or d.colour != "yellow" or board.supply.get(tile, 0) <= 0:
                continue
            for rotation in distinct_rotations(tile):
                edges = road_edges(tile, rotation)
                if edges & CLOSED[hex_id] or any((hex_id, e) in RIFT for e in edges):
                    continue
                out.extend({"hex": hex_id, "tile": tile, "rotation": rotation, "depot": j}
                           for j in range(len(d.slots)))
    return out


def check_ols(board: Board, hex_id: str, tile: str, rotation: int, depot: int,
              min_distance: int = OLS_MIN_DISTANCE) -> None:
    if {"hex": hex_id, "tile": tile, "rotation": rotation, "depot": depot} in ols_options(board, min_distance):
        return
    if hex_id not in HEXES:
        raise RuleViolation("UNKNOWN_HEX", f"{hex_id} is not a hex of the board")
    if HEXES[hex_id]["kind"] != "mineral" or hex_id in board.tiles \
            or hex_distance(hex_id, SPACE_PORT) < min_distance:
        where = f" at least {min_distance} hexes from the Space Port" if min_distance else ""
        raise RuleViolation("ILLEGAL_HEX", f"the OLS goes on an empty mineral hex{where}")
    if tile not in TILES or TILES[tile].kind != tile_kind_for_hex(hex_id) or TILES[tile].colour != "yellow":
        raise RuleViolation("ILLEGAL_TILE", f"{tile} is not a yellow depot tile for {hex_id}")
    if board.supply.get(tile, 0) <= 0:
        raise RuleViolation("TILE_NOT_AVAILABLE", f"no copy of tile {tile} is left in the supply")
    if not isinstance(depot, int) or not 0 <= depot < len(TILES[tile].slots):
        raise RuleViolation("NO_SUCH_DEPOT", f"{tile} has no depot {depot}")
    raise RuleViolation("ILLEGAL_ROTATION", f"{tile} at rotation {rotation} leaves the map or enters the Rift")


def place_ols(board: Board, hex_id: str, tile: str, rotation: int, depot: int,
              min_distance: int = OLS_MIN_DISTANCE) -> None:
    """Lay the OLS tile (free) and put the black OLS token in the chosen depot."""
    check_ols(board, hex_id, tile, rotation, depot, min_distance)
    apply_lay(board, hex_id, tile, rotation)
    slots = [[] for _ in TILES[tile].slots]
    slots[depot].append("OLS")
    board.tokens[hex_id] = slots


def convert_ols(board: Board, corp: str) -> str:
    """A corporation bought P1: the black token becomes its extra depot. Returns the hex."""
    for hex_id, depots in board.tokens.items():
        for slots in depots:
            if "OLS" in slots:
                if board.corp_in_hex(corp, hex_id):
                    raise RuleViolation("TOKEN_IN_HEX", f"{corp} already has a token in {hex_id}")
                slots[slots.index("OLS")] = f"OLS:{corp}"
                return hex_id
    raise RuleViolation("NO_OLS_TOKEN", "the Old Landing Site token is not on the map")
