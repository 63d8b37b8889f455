"""Whether a bot may consent to a sale another player proposes: the shared judgement of the 18xx bots.

An 18xx deal (a train, ship or transport bought from another company, a private bought from a player)
needs the seller's consent. A bot consents only when it is paid at least what it gives up by the game's
own list numbers (the bank price of the train, the face value of the private), and when the sale does
not leave its company without a train it cannot replace from its own treasury: a company that must own
a train and has none buys one with its president's money, the road to bankruptcy a hostile buyer would
take. Each game reads the terms from its own state (`t2038.deal_values`, `moon21.bot_deals`).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DealTerms:
    kind: str          # the game's word for what changes hands: "ship", "transport", "private", "claim"
    seller: str        # the holder giving the thing up ("c:RU", "p:ann", …)
    value: int         # what the seller gives up, by the game's list numbers
    price: int         # what the buyer pays


def still_runs(fleet_after: int, cash_after: int, replacement: int | None) -> bool:
    """The selling company keeps a train, or can buy the bank's cheapest (`replacement`, None: none on
    sale) from its treasury once paid."""
    return fleet_after > 0 or (replacement is not None and cash_after >= replacement)


def fair_for_seller(terms: DealTerms, runs_after: bool) -> bool:
    """A deal a bot may accept: paid at least the list value, and its company still runs afterwards."""
    return terms.price >= terms.value and runs_after


def fair_offer(value: int, low: int, high: int) -> int | None:
    """The price a bot offers for what is worth `value` when the rules allow `low`..`high`: the list value
    (never more), or the lowest allowed price when that is below it; None when even that is too dear."""
    if low > value:
        return None
    return max(low, min(value, high))
