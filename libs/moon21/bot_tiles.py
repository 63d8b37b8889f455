"""How the built-in bots judge a tile action: cheap geometry, no route search.

A lay scores for road that joins something (a neighbour's road, an off-board area, the Space Port),
for upgrades (minerals gain value, brown and gray tiles carry more road), for the first road across
the Rift (P3 pays ₡60), and loses for terrain costs and road ending at a dead end. The bots take one
of the best few, so games grow long connected networks that late transports and East-West runs use.
"""
from __future__ import annotations

import random

from moon21.board.geometry import AREA_ENTRIES, CLOSED, SPACE_PORT, TILES, neighbour, road_edges, tile_kind_for_hex
from moon21.board.lays import rift_crossed
from moon21.board.state import Board

COLOUR_GAIN = {"yellow": 0, "green": 3, "brown": 4, "gray": 5}


def _edge_score(board: Board, hex_id: str, edge: int) -> int:
    if (hex_id, edge) in AREA_ENTRIES:
        return 4                                   # an off-board area: East-West runs end here
    other = neighbour(hex_id, edge)
    if other is None or edge in CLOSED[hex_id]:
        return -3
    if other == SPACE_PORT:
        return 3
    if other in board.tiles:
        return 3 if (edge + 3) % 6 in road_edges(*board.tile_at(other)) else -2
    return 1 if tile_kind_for_hex(other) is not None else -3


def lay_score(board: Board, option: dict, *, bridge_pays: bool) -> float:
    hex_id, tile, rotation = option["hex"], option["tile"], option["rotation"]
    current = board.tile_at(hex_id)
    old_edges = road_edges(*current) if current else frozenset()
    score = sum(_edge_score(board, hex_id, e) for e in road_edges(tile, rotation) - old_edges)
    new = TILES[tile]
    if current is not None:
        score += COLOUR_GAIN.get(new.colour, 0) + (3 if new.kind != "plain" else 0)
    else:
        score += 2 + (3 if new.kind != "plain" else 0)   # new ground; a new depot is a stop and a slot
    if bridge_pays and not rift_crossed(board):
        trial = board.copy()
        trial.tiles[hex_id] = [tile, rotation]
        if rift_crossed(trial):
            score += 8
    return score - option.get("cost", 0) / 10


def choose_lay(board: Board, options: list[dict], rnd: random.Random, *, bridge_pays: bool) -> dict | None:
    """One of the three best-scoring options (ties and near ties broken at random)."""
    if not options:
        return None
    scored = sorted(options, key=lambda o: (lay_score(board, o, bridge_pays=bridge_pays), rnd.random()),
                    reverse=True)
    return rnd.choice(scored[:3])
