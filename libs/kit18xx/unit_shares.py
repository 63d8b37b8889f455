"""Presidency and certificate counts for games that keep shares as units per holder.

Some titles (2038, and any engine that stores "holder -> number of 10 % units" instead of certificate
ids) still follow the usual 18xx presidency rule, with one extra condition: the President's certificate
is worth `president_units` units, so nobody holding fewer can take it over, and a President who sells
below that with nobody able to take the certificate keeps it. These questions answer the rule on plain
numbers; `shares.successor_by_holdings` supplies the clockwise tie-break.
"""
from __future__ import annotations

from kit18xx.shares import successor_by_holdings


def president_after_sale(holdings: dict[str, int], president: str, seats: list[str],
                         president_units: int = 2) -> str | None:
    """The new President after `president` sold down to `holdings[president]` units, or None when the
    seller keeps the certificate (nobody holds more, or nobody else holds `president_units`)."""
    successor = successor_by_holdings(holdings, seats, president, minimum=president_units)
    return None if successor in (None, president) else successor


def takes_presidency(holdings: dict[str, int], president: str | None, buyer: str) -> bool:
    """After a purchase: the buyer takes the certificate only by holding strictly more than the President
    (equal holdings never change the presidency)."""
    if president is None or buyer == president:
        return False
    return holdings.get(buyer, 0) > holdings.get(president, 0)


def certificates_for_units(units: int, is_president: bool, president_units: int = 2) -> int:
    """Certificates a holder has for `units`: the President's certificate counts once for its units."""
    if is_president and units >= president_units:
        return units - president_units + 1
    return units
