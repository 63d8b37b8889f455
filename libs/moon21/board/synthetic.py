"""Synthetic boards for benchmarks and tests (not used by the rules themselves).

`crowded_board` fills the map the way a long game ends: every hex that can take a tile gets the
most connected tile the supply still has, of the latest colour, in a rotation that keeps road on
the map and out of the Rift; then depot tokens are sprinkled over open slots. Deterministic for a
given seed (it uses its own `random.Random(seed)`, never the global one)."""
from __future__ import annotations

import random

from moon21.board.geometry import (
    CLOSED, HEXES, MINERALS, RIFT, SPACE_PORT, TILES, distinct_rotations, hex_distance, neighbour,
    road_edges, rotated_paths, tile_kind_for_hex,
)
from moon21.board.state import CORPORATIONS, Board, new_board


def random_minerals(seed: int) -> dict[str, str]:
    hexes = sorted(h for h, d in HEXES.items() if d["kind"] == "mineral")
    cubes = [m for m, d in MINERALS.items() for _ in range(d["quantity"])]
    random.Random(seed).shuffle(cubes)
    return dict(zip(hexes, cubes))


def _fits(board: Board, hex_id: str, edge: int) -> int:
    """How well a road end at this edge joins the map: +2 meets road, +1 open hex, -2 dead end."""
    nb = neighbour(hex_id, edge)
    if nb is None:
        return 2   # an off-board entry
    if nb == SPACE_PORT:
        return 2
    if nb not in board.tiles:
        return 1 if tile_kind_for_hex(nb) is not None else -2
    return 2 if (edge + 3) % 6 in road_edges(*board.tile_at(nb)) else -2


def crowded_board(seed: int = 0, *, tokens_per_corp: int = 3, colours=("gray", "brown", "green", "yellow")) -> Board:
    rnd = random.Random(seed)
    board = new_board(random_minerals(seed))
    hexes = sorted(h for h in HEXES if tile_kind_for_hex(h) is not None)
    rnd.shuffle(hexes)
    hexes.sort(key=lambda h: hex_distance(h, SPACE_PORT))
    for hex_id in hexes:
        kind = tile_kind_for_hex(hex_id)
        options = []
        for tile, d in TILES.items():
            if d.kind != kind or d.colour not in colours or board.supply[tile] <= 0:
                continue
            for r in distinct_rotations(tile):
                edges = road_edges(tile, r)
                if edges & CLOSED[hex_id] or any((hex_id, e) in RIFT for e in edges):
                    continue
                fit = sum(_fits(board, hex_id, e) for e in edges)
                options.append((fit, len(d.paths), -colours.index(d.colour), rnd.random(), tile, r))
        if options:
            *_, tile, r = max(options)
            board.tiles[hex_id] = [tile, r]
            board.supply[tile] -= 1
            if hex_id in board.tokens:   # a local base: its token sits in the tile's depot 0
                board.tokens[hex_id] = [board.tokens[hex_id][0]] + [[] for _ in TILES[tile].slots[1:]]
    for corp in CORPORATIONS:
        open_slots = [(h, j) for h, (tile, _) in board.tiles.items() for j, cap in enumerate(TILES[tile].slots)
                      if len(board.occupants(h, j)) < cap and not board.corp_in_hex(corp, h)]
        for h, j in rnd.sample(sorted(open_slots), min(tokens_per_corp, len(open_slots))):
            if len(board.occupants(h, j)) < TILES[board.tiles[h][0]].slots[j] and not board.corp_in_hex(corp, h):
                board.tokens.setdefault(h, [[] for _ in TILES[board.tiles[h][0]].slots])[j].append(corp)
    return board


def tile_for(hex_id: str, edge_pairs: list[tuple[int, int]], supply: dict[str, int] | None = None):
    """A (tile, rotation) of the kind the hex takes whose road joins each pair of edges (through
    one depot on depot tiles), preferring the earliest colour. None if the manifest has none."""
    kind = tile_kind_for_hex(hex_id)
    for tile, d in sorted(TILES.items(), key=lambda kv: (kv[1].colour_rank, len(kv[1].paths), kv[0])):
        if d.kind != kind or (supply is not None and supply.get(tile, 0) <= 0):
            continue
        for r in range(6):
            if road_edges(tile, r) & CLOSED[hex_id]:
                continue
            paths = {frozenset(p) for p in rotated_paths(tile, r)}
            if all(_joined(paths, a, b) for a, b in edge_pairs):
                return tile, r
    return None


def _joined(paths: set, a: int, b: int) -> bool:
    if frozenset((a, b)) in paths:
        return True
    return any(frozenset((a, -1 - j)) in paths and frozenset((b, -1 - j)) in paths for j in range(3))


def edge_towards(a: str, b: str) -> int:
    return next(e for e in range(6) if neighbour(a, e) == b)


def lay_path(board: Board, hexes: list[str], *, start_edge: int | None = None, end_edge: int | None = None) -> None:
    """Lay road along a chain of neighbouring hexes (test scenery; uses the supply, no rules).

    `start_edge`/`end_edge` add road out of the first/last hex (e.g. into an off-board area).
    Hexes already holding a tile, and the Space Port, are left as they are."""
    from moon21.board.lays import apply_lay
    for i, hex_id in enumerate(hexes):
        if hex_id in board.tiles or hex_id == SPACE_PORT:
            continue
        ends = []
        ends.append(edge_towards(hex_id, hexes[i - 1]) if i > 0 else start_edge)
        ends.append(edge_towards(hex_id, hexes[i + 1]) if i + 1 < len(hexes) else end_edge)
        pair = [tuple(e for e in ends if e is not None)]
        if len(pair[0]) == 1:   # a dead end in a depot hex: just the one stub
            pair = [(pair[0][0], pair[0][0])]
        choice = tile_for(hex_id, pair, board.supply)
        if choice is None:
            raise ValueError(f"no tile joins {pair} in {hex_id}")
        apply_lay(board, hex_id, *choice)
