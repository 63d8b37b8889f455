"""Facts of the board and the stock market pinned through the engine, entry by entry, so that a changed
entry of `market.yaml`, `tiles.yaml` or `map.yaml` fails here (a data mutation sweep found them unpinned).

- The stock market grid (rule 5; the rulebook text prints only the red par boxes 60/70/80/90 and the
  Closed box bottom-left, the other prices are the reference's grid, gap A5): every box reached by the
  engine's own price moves from the 90 par box, its price checked on the way.
- The tiles (the manifest, rule 11.2): each tile's roads as the route network has them once it is laid,
  the token slots of each of its depots, and the Terminal's value in each phase.
- The map (rules 4, 6.2, 11): which tiles each hex takes, the edges where road may leave the board (into
  the off-board areas only), the Space Port's road from all six sides, and the single
  slot of a local base before a tile is laid there.
"""
import pytest

from moon21.board import apply_lay, check_token, new_board, place_token, stop_value
from moon21.board.geometry import CLOSED, HEXES, TILES, tile_kind_for_hex
from moon21.board.graph import compile_network
from moon21.board.reach import reach
from moon21.board.state import CORPORATIONS
from moon21.game import GAME
from moon21.trading import move_price
from starbase_rules import RuleViolation

from .conftest import default_minerals

# The share prices, row 0 at the top, column 0 at the left; None where the market has no box
# (reference market.yaml: the public 18xx.games grid, which agrees with the par boxes and the Closed box
# the rulebook names, gap A5).
MARKET = [
    [None, None, None, None, None, None, None, None, None, None, None, None, None, None, 330, 360, 395, 430],
    [None, None, 100, 110, 120, 130, 140, 150, 160, 175, 195, 215, 240, 265, 295, 325, 360, 395],
    [70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 175, 190, 215, 235, 260, 285, 315, 345],
    [60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 175, 190, 200, 220, 250, 275, 300],
    [50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 175, 190, None, None, None, None],
    [40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, None, None, None, None, None, None],
    [0, 40, 50, 60, 70, 80, 90, 100, 110, 120, None, None, None, None, None, None, None, None],
]
# bottom left (rule 5): reaching it closes the corporation (test_market.py), whose token then leaves the
# market, so the box's printed 0 is never a price anyone pays
CLOSED_BOX = (6, 0)
BOXES = [(r, c) for r, row in enumerate(MARKET) for c, price in enumerate(row)
         if price is not None and (r, c) != CLOSED_BOX]


def _move(t, corp, direction, steps=1):
    em = GAME.tx(t.state)
    move_price(em, corp, direction, steps)
    t.given(*em.events)


@pytest.mark.parametrize("row, col", BOXES)
def test_every_box_of_the_market_has_its_price(table, row, col):
    """From the 90 par box (row 2, column 2) along row 2, which spans the market, then up or down the
    column; each row's boxes reach as far as the rows between, so no move is blocked on the way."""
    t = table().stock_round().start("ann", "VH", 90)
    assert t.state.market.positions["VH"] == (2, 2) and t.price("VH") == 90
    across = "right" if col > 2 else "left"
    for _ in range(abs(col - 2)):
        _move(t, "VH", across)
        assert t.price("VH") == MARKET[2][t.state.market.positions["VH"][1]]
    updown = "up" if row < 2 else "down"
    for _ in range(abs(row - 2)):
        _move(t, "VH", updown)
    assert t.state.market.positions["VH"] == (row, col)
    assert t.price("VH") == MARKET[row][col]


# -- the tiles (tiles.yaml) ------------------------------------------------------------------------
# Each tile's road at rotation 0 (edges 0..5 clockwise from the bottom side) as the manifest draws it
# (reference tiles.yaml, transcribed from the printed tile graphics; rule 11.2): "a-b" is a road from
# edge a to edge b; "[n]a,b,.." is a depot with n token slots and a road from each listed edge into it.
TILE_ROADS = {
    "7": "0-1", "8": "0-2", "9": "0-3",
    "5M": "[1]0,1", "6M": "[1]0,2", "57M": "[1]0,3",
    "X1": "[1]0 [1]1", "X2": "[1]0 [1]2", "X3": "[1]0 [1]3",
    "19": "0-3 2-4", "20": "0-3 1-4", "23": "0-3 0-4", "24": "0-3 0-2", "25": "0-2 0-4",
    "26": "0-3 0-5", "27": "0-3 0-1", "28": "0-4 0-5", "29": "0-2 0-1", "30": "0-4 0-1",
    "31": "0-2 0-5", "624": "0-1 1-2",
    "441M": "[2]0,1,3", "442M": "[2]0,3,5", "443M": "[2]0,2,4", "444M": "[2]0,1,2",
    "X4": "[1]0,1 [1]2,5", "X5": "[1]0,2 [1]1,3", "X6": "[1]1,5 [1]2,4", "X7": "[1]0,1 [1]2,3",
    "39": "0-2 0-1 1-2", "40": "0-2 2-4 0-4", "41": "0-3 0-1 1-3", "42": "0-3 3-5 0-5",
    "X8": "0-3 0-2 1-3", "X9": "0-3 1-4 3-4", "X10": "0-3 1-4 0-4", "X11": "1-4 1-3 0-4",
    "X12": "0-3 1-3 0-4",
    "448M": "[2]0,1,2,3", "449M": "[2]0,1,3,4", "X13": "[3]0,1,3,4", "X14": "[2]0,1,2",
    "X15": "[3]0,1,2", "X16": "[3]0,1,2,4", "X17": "[3]0,1,2,3",
    "X18": "[1]0,1,2 [1]1,2,3", "X19": "[2]1,3 [1]0,4", "X20": "[2]0,1 [2]2,3", "X21": "[1]0,1 [2]2,5",
    "X22": "[3]0,1,2", "X23": "[3]0,1,2,4", "X24": "[3]0,1,2,3", "X25": "[3]0,1,3,4",
    "X26": "[3]0,1,2,3,4", "X27": "[2]0,2,3 [2]0,4,5", "X28": "[2]0,1,5 [2]2,3,4",
    "X29": "[3]0,2,4",
}
# a hex for each kind of tile, with a board hex beyond every edge
HEX_FOR = {"plain": "D8", "depot": "D10", "double_depot": "E5", "terminal": "F8"}


def _expected(spec):
    roads, slots = set(), []
    for part in spec.split():
        if part.startswith("["):
            n, edges = part[1:].split("]")
            roads |= {frozenset((e, f"d{len(slots)}")) for e in edges.split(",")}
            slots.append(int(n))
        else:
            roads.add(frozenset(part.split("-")))
    return roads, slots


@pytest.mark.parametrize("tile", sorted(TILE_ROADS))
def test_every_tile_has_its_printed_roads_and_depot_slots(tile):
    """The roads a laid tile puts into the route network, and how many depot tokens each depot takes
    (11.3: a token needs an open slot) before the next corporation is refused."""
    roads, slots = _expected(TILE_ROADS[tile])
    hex_id = HEX_FOR[TILES[tile].kind]
    board = new_board(default_minerals())
    apply_lay(board, hex_id, tile, 0)
    net = compile_network(board)
    laid = {frozenset(name.split(":")[1].split("-"))        # "D10:0-d0": edge 0 into depot 0
            for name in net.seg_names if name.startswith(f"{hex_id}:")}
    assert laid == roads
    corps = iter(CORPORATIONS)
    for depot, capacity in enumerate(slots):
        for _ in range(capacity):
            place_token(board, next(corps), hex_id, depot, need_route=False)
        with pytest.raises(RuleViolation) as refused:
            check_token(board, next(corps), hex_id, depot, need_route=False)
        assert refused.value.code == "NO_OPEN_SLOT"


def test_the_manifest_is_the_whole_tile_set():
    assert set(TILE_ROADS) == set(TILES)


# The Terminal X29's value per phase (the manifest prints 30 / 20 / 10 in the phase colours: ASSUMED
# 30 in phases 2-4, 20 in 5-6, 10 in 10; docs/moon21_board.md, ruling 7, gap A10).
TERMINAL_VALUE = {"2": 30, "3": 30, "4": 30, "5": 20, "6": 20, "10": 10}


@pytest.mark.parametrize("phase", sorted(TERMINAL_VALUE))
def test_the_terminal_is_worth_its_charts_value_in_each_phase(phase):
    board = new_board(default_minerals())
    apply_lay(board, "F8", "X29", 0)
    assert stop_value(board, "F8-0", phase=phase, sp_value=20) == TERMINAL_VALUE[phase]


# -- the map (map.yaml) ----------------------------------------------------------------------------
# The board hexes' edges that face no board hex and carry no printed road into an off-board area:
# no road may be run off the map there (rule 11.2.1). Every other hex has all six edges open.
# (reference map.yaml, `closed` of each hex, from the board graphic.)
CLOSED_EDGES = {
    "A7": {1, 2}, "A9": {0, 1, 2}, "B10": {1}, "B12": {0, 1, 2}, "C3": {2, 3}, "D2": {2, 3}, "D14": {0},
    "E1": {2, 3, 4}, "E15": {0, 1, 5}, "F2": {3}, "F14": {0}, "G1": {2, 3, 4}, "G15": {0, 1, 5},
    "H2": {3, 4}, "H12": {5}, "H14": {0, 4, 5}, "I3": {3}, "I11": {0}, "J2": {2, 3, 4}, "J12": {0, 1},
    "K5": {4, 5}, "K7": {4, 5}, "K9": {4}, "K13": {0, 1}, "L10": {3, 4, 5},
}


def test_road_may_leave_the_board_only_into_an_off_board_area():
    """The edges the lay check refuses road at (`ILLEGAL_ROTATION`), hex by hex."""
    assert {h: set(edges) for h, edges in CLOSED.items() if edges} == CLOSED_EDGES


def test_the_space_ports_printed_road_leaves_by_all_six_sides():
    """A Space Port base reaches every neighbouring hex at the shared edge on an empty board (its road
    is pre-printed from each side into its one depot: rulebook 4, reference map.yaml)."""
    entered = reach(new_board(default_minerals()), "VH", "SP").entered
    assert entered == {("E11", 3), ("D10", 4), ("D8", 5), ("E7", 0), ("F8", 1), ("F10", 2)}


def test_a_local_base_hex_has_one_slot_before_any_tile():
    """The printed slot holds the base token: no other corporation's token fits until a tile with more
    slots is laid (rule 11.3; reference map.yaml local bases, one slot)."""
    board = new_board(default_minerals())
    with pytest.raises(RuleViolation) as refused:
        check_token(board, "SWP", "G7", 0, need_route=False)
    assert refused.value.code == "NO_OPEN_SLOT"


# Which tiles each board hex takes (rule 11.2.1: plain road on plain, hill and mountain hexes; one-depot
# tiles on local bases and single-dot mineral hexes; double-dot tiles on the two double-dot mineral
# hexes; X29 on the Terminal site; nothing on the Space Port). Reference map.yaml, board graphic.
HEX_TILE_KIND = {
    "depot": "A7 A9 B4 B12 C7 D2 D10 D12 E15 F2 G7 H2 H10 I5 I7 I11 J2 J10 K5 K9 K13 L10",
    "plain": "B6 B8 B10 C3 C5 C9 C11 C13 D4 D6 D8 D14 E1 E3 E7 E11 E13 F4 F6 F10 F12 F14 G1 G3 G5 G9 G11 "
             "G15 H4 H6 H8 H12 H14 I3 I9 J4 J6 J8 J12 K3 K7 K11 L12",
    "double_depot": "E5 G13", "terminal": "F8", None: "E9",
}


@pytest.mark.parametrize("kind", list(HEX_TILE_KIND))
def test_each_hex_takes_the_tiles_of_its_kind(kind):
    assert {h for h in HEXES if tile_kind_for_hex(h) == kind} == set(HEX_TILE_KIND[kind].split())
