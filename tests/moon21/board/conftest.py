"""Shared scenery for the board tests: a fixed mineral draw and small board builders."""
from __future__ import annotations

import pytest

from moon21.board import apply_lay, new_board
from moon21.board.lays import keeps_roads
from moon21.board.synthetic import lay_path

MINERALS = {
    "B4": "Source-X", "J10": "Source-X", "H2": "Source-X",
    "D10": "Helium-3", "I7": "Helium-3", "K5": "Helium-3", "A7": "Helium-3",
    "A9": "Regolith", "B12": "Regolith", "E5": "Regolith", "H10": "Regolith",
    "E15": "Armalcolite", "G13": "Armalcolite", "K13": "Armalcolite", "L10": "Armalcolite",
    "F2": "Lithium", "J2": "Lithium",
}

# A road from the Power Plant (west) through SWP's base, the Space Port and J10 to the
# Tourism Colony (east): B4 takes the off-board road on its edge 2, L12 leaves by edge 0.
WEST_EAST = ["B4", "B6", "C7", "D8", "E9", "F10", "G9", "H8", "I9", "J10", "K11", "L12"]


@pytest.fixture
def board():
    return new_board(dict(MINERALS))


@pytest.fixture
def line(board):
    lay_path(board, WEST_EAST, start_edge=2, end_edge=0)
    return board


@pytest.fixture
def terminal_line(board):
    """The Terminal F8 joined through VH's base G7 and ITC's base I5 (upgraded to two slots)
    to the Research Station."""
    lay_path(board, ["F8", "G7", "H6", "I5", "J4", "K3"], end_edge=3)
    # ITC's base fills I5's only slot: a two-slot green tile lets other corporations through
    upgrade = next((t, r) for t in ("441M", "442M", "443M", "444M") for r in range(6)
                   if keeps_roads(board.tile_at("I5"), (t, r)) is not None)
    apply_lay(board, "I5", *upgrade)
    return board
