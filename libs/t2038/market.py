"""2038's stock chart on the kit's market (`kit18xx.market`): the grid from `data/market.yaml`, and the
moves of 5 and 7.2 expressed as kit steps (a blocked right goes up, a blocked left goes down, a blocked
vertical move stays). Full payout = two right steps: from the last box but one that is "right, then up",
i.e. up one and right one, as 7.2 says."""
from __future__ import annotations

from functools import cache

from kit18xx.market import MarketGrid, MarketState
from t2038.tables import market_data

MOVES = {"right2": ("right", "right"), "right1": ("right",), "left1": ("left",), "down1": ("down",),
         "up1": ("up",)}


@cache
def grid() -> MarketGrid:
    return MarketGrid(rows=tuple(tuple(row) for row in market_data()["rows"]),
                      edge_rules=(("left", "down"), ("right", "up")))


def price(market: MarketState, corp: str) -> int:
    return market.price(grid(), corp)


def target(market: MarketState, corp: str, move: str) -> tuple[int, int]:
    """Where a move takes a corporation's token (nothing is moved)."""
    row, column = market.positions[corp]
    for direction in MOVES[move]:
        row, column = grid().step(row, column, direction)
    return row, column


def order(market: MarketState, corps) -> list[str]:
    """Operating order: highest price first; in one box the token on top first (6)."""
    return market.price_order(grid(), corps)


def place(market: MarketState, corp: str, row: int, column: int) -> None:
    """A token entering a box goes underneath; a token that did not move keeps its place (5)."""
    if market.positions.get(corp) != (row, column):
        market.place(corp, row, column)
