"""Facts of the board and the stock market pinned through the engine, entry by entry, so that a changed
entry of `market.yaml`, `tiles.yaml` or `map.yaml` fails here (a data mutation sweep found them unpinned).

- The stock market grid (rule 5; the rulebook text prints only the red par boxes 60/70/80/90 and the
  Closed box bottom-left, the other prices are the reference's grid, gap A5): every box reached by the
  engine's own price moves from the 90 par box, its price checked on the way.
"""
import pytest

from moon21.game import GAME
from moon21.trading import move_price

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

