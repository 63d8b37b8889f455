"""Earnings, dividends and stock moves (7.2); the mandatory ship's emergency money and bankruptcy (7.38)."""
from __future__ import annotations

from kit18xx.emergency import may_sell
from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038 import market
from t2038.payments import pay
from t2038.purchases import cheapest_offer, needs_mandatory_ship
from t2038.rules import scratch
from t2038.state import State, p
from t2038.stock import sell

CORP_CHOICES = ("retain", "half", "full")
INDEPENDENT_CHOICES = ("retain", "split")


def declare(tx: Tx, operator: str, choice: str) -> None:
    s = tx.state
    if s.flight is not None:
        refuse("ROUTE_IN_PROGRESS", "end the route in progress first")
    earnings = s.earnings
    if operator.startswith("i:"):
        if choice not in INDEPENDENT_CHOICES:
            refuse("BAD_CHOICE", "an Independent splits its earnings or retains them (7.2)")
        to_owner = earnings - earnings // 2 if choice == "split" else 0   # the treasury gets the smaller half
        tx.emit(ev.EarningsDeclared(operator=operator, choice=choice, earnings=earnings,
                                    retained=earnings - to_owner, per_share=0))
        pay(tx, "bank", operator, earnings - to_owner, why="earnings")
        pay(tx, "bank", s.company_owner[int(operator[2:])], to_owner, why="earnings")
        return
    if choice not in CORP_CHOICES:
        refuse("BAD_CHOICE", "a corporation retains, pays half or pays in full (7.2)")
    corp = operator[2:]
    # The President's choice is recorded as made; with zero earnings nothing is paid whatever the choice,
    # and the price moves left one box (7.21), as for a retention.
    retained = {"retain": earnings, "half": (earnings // 2) // 10 * 10, "full": 0}[choice]
    per_share = (earnings - retained) // 10
    tx.emit(ev.EarningsDeclared(operator=operator, choice=choice, earnings=earnings, retained=retained,
                                per_share=per_share))
    pay(tx, "bank", operator, retained, why="retained earnings")
    if per_share:
        for holder, units in sorted(s.shares[corp].items()):
            if holder.startswith("p:"):
                pay(tx, "bank", holder, units * per_share, why=f"dividend {corp}")
            elif holder in ("growth", "trade_in") or (holder == "market" and not s.options.stock_repurchases):
                pay(tx, "bank", operator, units * per_share, why=f"dividend on {holder} shares")
    move = "left1" if earnings == 0 else {"retain": "left1", "half": "right1", "full": "right2"}[choice]
    row, column = market.target(s.market, corp, move)
    tx.emit(ev.StockPriceMoved(corp=corp, row=row, column=column, why=choice if earnings else "zero earnings"))


def shortfall(state: State, operator: str) -> int:
    """Cash still missing for a corporation's mandatory cheapest ship (treasury + President's cash)."""
    offer = cheapest_offer(state)
    if not needs_mandatory_ship(state, operator) or offer is None:
        return 0
    president = p(state.president[operator[2:]])
    return max(0, offer[2] - state.cash(operator) - state.cash(president))


def emergency_sell(tx: Tx, operator: str, player: str, corp: str, count: int) -> None:
    s = tx.state
    if shortfall(s, operator) <= 0:
        refuse("NO_EMERGENCY", "no mandatory ship needs the President's money now")
    # 7.38: sales stop once the money is there; the kit's rule: the last share sold must still be needed.
    if not may_sell(0, shortfall(s, operator), market.price(s.market, corp), count):
        refuse("RAISED_ENOUGH", "sell no more than needed to pay for the ship (7.38)")
    sell(tx, player, corp, count, emergency_for=operator[2:])


def sellable(state: State, player: str, operating_corp: str) -> list[str]:
    """Corporations the President could still sell a share of during an emergency."""
    found = []
    for corp in state.launched:
        probe = scratch(state)
        try:
            sell(probe, player, corp, 1, emergency_for=operating_corp)
        except Exception:
            continue
        found.append(corp)
    return found


def bankrupt(tx: Tx, operator: str, player: str) -> None:
    s = tx.state
    if shortfall(s, operator) <= 0 or sellable(s, player, operator[2:]):
        refuse("NOT_BANKRUPT", "the ship can still be paid for: sell shares first")
    tx.emit(ev.GameFinished(reason=f"{player} went bankrupt", bankrupt=player))
