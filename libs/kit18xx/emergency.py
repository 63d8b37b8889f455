"""Emergency money raising: a corporation (or its president) sells shares only while short.

`max_sellable(cash, need, price, held)` is the most shares of one company that may be sold in one go
without selling past the point where the need is met (a sale is allowed only while the money is short).
`may_sell(cash, need, price, count)` checks a proposed sale. `raisable` sums what selling every
sellable share could bring, so a game can tell an unavoidable bankruptcy early.
"""
from __future__ import annotations


def max_sellable(cash: int, need: int, price: int, held: int) -> int:
    if cash >= need or price <= 0:
        return 0
    short = need - cash
    return min(held, -(-short // price))      # ceil(short / price)


def may_sell(cash: int, need: int, price: int, count: int) -> bool:
    """Selling `count` shares is allowed when the money is still short after `count - 1` of them."""
    return count >= 1 and cash + (count - 1) * price < need


def raisable(prices_and_counts: list[tuple[int, int]]) -> int:
    return sum(price * count for price, count in prices_and_counts)
