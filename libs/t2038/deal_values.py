"""What a pending deal is worth to the seller, in the game's own numbers, so a bot never sells at a loss.

The judgement is the 18xx kit's (`kit18xx.deal_safety`, shared with 21Moon's bots); this module reads
2038's terms. A deal (7.3 ships, 7.4 privates, 7.45 Independents' claims) always asks the *seller* for
consent: the bank list price of the ship, the printed face value of the private, or what a new claim
costs the Independent is what the seller gives up; the agreed price (fixed at the chart's $60 for a
claim) is what it takes. A sale that empties a company's fleet is also refused unless the treasury can then buy the bank's cheapest ship,
because a corporation without a ship must buy one with its President's cash (7.3, 7.38) -- the way to
bankruptcy a hostile buyer would use.
"""
from __future__ import annotations

from kit18xx.deal_safety import DealTerms, fair_for_seller as fair, still_runs
from t2038 import ships
from t2038.auction import printed_bid
from t2038.purchases import cheapest_offer, claim_prices
from t2038.state import State
from t2038.tables import entities


def terms_of(state: State, when: dict) -> DealTerms:
    """Read the pending deal's terms (the `when` of a ["deal", …] decision) from the state."""
    kind = when["deal"]
    if kind == "ship":
        ship = state.ships[when["ship"]]
        return DealTerms(kind, ship.owner, ships.price(ship.phase, ship.kind), when["price"])
    if kind == "claim":
        seller = state.claims[f"{when['hex']}/{when['mine']}"]
        return DealTerms(kind, seller, min(claim_prices(seller)), entities()["costs"]["independent_claim_sale"])
    company = when["company"]
    return DealTerms(kind, state.company_owner[company], printed_bid(company), when["price"])


def leaves_it_able_to_run(state: State, when: dict) -> bool:
    """False when selling this ship would leave its company without a ship and unable to buy the bank's
    cheapest one from its own treasury (and the price it is paid)."""
    if when["deal"] != "ship":
        return True
    ship_id = when["ship"]
    owner = state.ships[ship_id].owner
    offer = cheapest_offer(state)
    return still_runs(sum(1 for other in state.ships_of(owner) if other != ship_id),
                      state.cash(owner) + when["price"], None if offer is None else offer[2])


def fair_for_seller(state: State, when: dict) -> bool:
    """A deal the seller may accept: it is paid at least what it gives up and can still run afterwards."""
    return fair(terms_of(state, when), leaves_it_able_to_run(state, when))


def offer_value(state: State, command) -> int | None:
    """The list value of what a buying command (BuyShipFrom, BuyPrivate) would acquire, else None."""
    kind = getattr(command, "type", "")
    if kind == "BuyShipFrom" and command.ship in state.ships:
        ship = state.ships[command.ship]
        return ships.price(ship.phase, ship.kind) if ship.kind in ships.kinds(ship.phase) else None
    if kind == "BuyPrivate":
        return printed_bid(command.company)
    return None
