"""Generic 18xx helpers 2038 needs that `kit18xx` does not offer in this form (see NEEDS_FROM_KIT.md).

Money (`kit18xx.bank.Ledger`, with `may_owe` for the broken bank), the market grid and stacks
(`kit18xx.market`) and the presidency rule (`kit18xx.shares.successor_by_holdings`) come from the kit.
What is left here is written game-neutrally, to move into the kit unchanged.
"""
from __future__ import annotations

from kit18xx.shares import clockwise_from, successor_by_holdings

__all__ = ["clockwise_from", "president_after_sale", "president_after_purchase", "certificates"]


def president_after_sale(holdings: dict[str, int], president: str, seating: list[str]) -> str | None:
    """The new president after `president` sold down to `holdings[president]` units, or None when the
    seller keeps the certificate. Only a holder of at least the certificate's 2 units can take it; equal
    holdings go to the first clockwise from the seller (the kit's rule)."""
    successor = successor_by_holdings(holdings, seating, president, minimum=2)
    return None if successor in (None, president) else successor


def president_after_purchase(holdings: dict[str, int], president: str | None, buyer: str) -> bool:
    """True when the buyer now holds strictly more than the president and takes the certificate."""
    if president is None:
        return False
    return buyer != president and holdings.get(buyer, 0) > holdings.get(president, 0)


def certificates(units: int, is_president: bool) -> int:
    """Certificates held for `units` ten-percent units; the 20 % President's certificate counts once."""
    return units - 1 if is_president and units >= 2 else units
