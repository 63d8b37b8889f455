"""The board: 118 pointy-top hexes labelled `<row letter><column>` (double-width: row index + column odd).

Only facts of the board live here: which hexes exist, which are printed bases or transshipment points,
their neighbours and distances. What lies on a hex during play is in the game state.
"""
from __future__ import annotations

from functools import cache

from t2038.tables import map_data

ROWS: str = map_data()["rows"]                 # "ABCDEFGHIJKLMNO"
COLUMNS: int = map_data()["columns"]           # 18
_OFFSETS = ((0, 2), (0, -2), (-1, 1), (-1, -1), (1, 1), (1, -1))


def parse(label: str) -> tuple[int, int]:
    return ROWS.index(label[0]), int(label[1:])


def label(row: int, column: int) -> str:
    return f"{ROWS[row]}{column}"


@cache
def board_hexes() -> frozenset[str]:
    data = map_data()
    return frozenset(data["unexplored"]) | frozenset(data["printed_bases"]) | frozenset(data["transshipment"])


@cache
def printed_bases() -> dict[str, str]:
    """Hex → symbol of the company or corporation whose printed base it is."""
    return dict(map_data()["printed_bases"])


@cache
def transshipment_points() -> dict[str, dict]:
    return {hex_: dict(values) for hex_, values in map_data()["transshipment"].items()}


@cache
def base_ore_bonus(hex_: str) -> dict[str, int]:
    return dict(map_data()["base_ore_bonus"].get(hex_, {}))


@cache
def unexplored_at_start() -> frozenset[str]:
    return frozenset(map_data()["unexplored"])


@cache
def neighbours(hex_: str) -> tuple[str, ...]:
    row, column = parse(hex_)
    found = []
    for d_row, d_column in _OFFSETS:
        r, c = row + d_row, column + d_column
        if 0 <= r < len(ROWS) and 1 <= c <= COLUMNS and label(r, c) in board_hexes():
            found.append(label(r, c))
    return tuple(found)


def distance(a: str, b: str) -> int:
    (r1, c1), (r2, c2) = parse(a), parse(b)
    d_row, d_column = abs(r1 - r2), abs(c1 - c2)
    return d_row + max(0, (d_column - d_row) // 2)


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a)
