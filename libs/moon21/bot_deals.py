"""21Moon's deals as its bots judge them (6.1 privates, 11.6 transports), with the 18xx kit's judgement
(`kit18xx.deal_safety`, the same as 2038's bots).

What the seller gives up: the face value of a private, the bank price of a transport of that type. A
transport sale that leaves the selling corporation without any is refused unless its treasury, once
paid, can buy the top transport of the bank: a corporation with a route and no transport must buy one,
with its president's cash if need be (11.6), which is how a hostile buyer would drive a bot bankrupt.
"""
from __future__ import annotations

from kit18xx.deal_safety import DealTerms, fair_for_seller, fair_offer, still_runs
from moon21.operating import bank_price
from moon21.rules import rules
from moon21.state import C, P, State


def terms_of(s: State, deal: dict) -> DealTerms:
    """The terms of a pending deal (`s.op.deal`)."""
    if deal["kind"] == "private":
        return DealTerms("private", P(deal["seller"]), rules().privates[deal["private"]].value, deal["price"])
    return DealTerms("transport", C(deal["from_corp"]), rules().transport_cost[deal["transport"]], deal["price"])


def leaves_it_running(s: State, deal: dict) -> bool:
    if deal["kind"] != "transport":
        return True
    seller = s.corps[deal["from_corp"]]
    fleet_after = seller.transport_count() - 1
    return still_runs(fleet_after, s.cash(C(deal["from_corp"])) + deal["price"], bank_price(s))


def acceptable(s: State, deal: dict) -> bool:
    """Whether a bot may accept the pending deal: paid at least the list value, and still running."""
    return fair_for_seller(terms_of(s, deal), leaves_it_running(s, deal))


def private_offer(private: str) -> int | None:
    """What a bot's corporation offers for another player's private: its face value at most."""
    spec = rules().privates[private]
    return fair_offer(spec.value, spec.sale_min, spec.sale_max)


def transport_offer(s: State, transport: int, cash: int) -> int | None:
    """What a bot's corporation offers for another corporation's transport: its bank price at most (and
    less than the bank's own top transport, else buying from the bank is the better deal)."""
    value = min(rules().transport_cost[transport], bank_price(s) - 1)
    return fair_offer(value, 1, cash)
