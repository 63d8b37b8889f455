"""The 106 asteroid tiles: ids 0..105 in manifest order, their mines, and drawing from the pool.

A mine is (ore, unclaimed value, claimed value). Tile ids make each physical tile traceable: it is in the
face-down pool, on one hex, or (Lucky's or a redraw's rejected tile) back in the pool.
"""
from __future__ import annotations

from functools import cache
from typing import NamedTuple

from t2038.tables import tile_data


class Mine(NamedTuple):
    ore: str          # "N", "I" or "R"
    unclaimed: int
    claimed: int


@cache
def tile_kinds() -> tuple[str, ...]:
    """Kind of each tile id, e.g. ("N10", "N10", …, "I40+R30")."""
    kinds: list[str] = []
    for kind, count in tile_data()["kinds"].items():
        kinds.extend([kind] * count)
    return tuple(kinds)


@cache
def mines_of_kind(kind: str) -> tuple[Mine, ...]:
    claimed = tile_data()["claimed_value"]
    return tuple(Mine(part[0], int(part[1:]), claimed[part]) for part in kind.split("+"))


def mines(tile_id: int) -> tuple[Mine, ...]:
    return mines_of_kind(tile_kinds()[tile_id])


def full_pool() -> list[int]:
    return list(range(len(tile_kinds())))


def has_ore(tile_id: int, ore: str) -> bool:
    return any(mine.ore == ore for mine in mines(tile_id))


def draw(pool: list[int], rng, excluded: tuple[int, ...] = ()) -> int:
    """One tile id drawn uniformly from the face-down pool (minus tiles already in hand this draw)."""
    candidates = [tile for tile in pool if tile not in excluded]
    return candidates[rng.randbelow(len(candidates))]
