"""Stock rounds (5.2-5.5): sales before one purchase, launches, presidency, limits and activation."""
from __future__ import annotations

from kit18xx.unit_shares import certificates_for_units, president_after_sale, takes_presidency
from starbase_rules.contract import RuleViolation
from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038 import market
from t2038.payments import pay
from t2038.rules import scratch
from t2038.state import INDEPENDENTS, PRIVATES, State, c, p
from t2038.tables import entities, market_data

MAX_UNITS = 6        # 60 % (5.31)
MARKET_MAX = 5       # 50 % (5.24)
PUBLIC_PARS: tuple[int, ...] = tuple(sorted(market_data()["public_par"]))   # 67, 77, 88, 100 (5.4)


def player_units(state: State, corp: str) -> dict[str, int]:
    return {h[2:]: n for h, n in state.shares.get(corp, {}).items() if h.startswith("p:")}


def certificate_count(state: State, player: str) -> int:
    companies = sum(1 for n, owner in state.company_owner.items() if owner == p(player))
    shares = sum(certificates_for_units(state.units(corp, p(player)), state.president.get(corp) == player)
                 for corp in state.shares)
    return companies + shares


def certificate_limit(state: State) -> int:
    if state.options.certificate_limit is not None:
        return state.options.certificate_limit
    table = entities()["certificate_limits"]["short" if state.options.short else "full"]
    return table[len(state.players)]


def available_to_launch(state: State) -> list[str]:
    corp_data = entities()["corporations"]
    launched = set(state.launched)
    groups = ["A", "B"] + ([] if state.options.short else ["C"])
    for group in groups:
        members = [corp for corp, data in corp_data.items() if data["group"] == group and corp in state.shares]
        waiting = [corp for corp in members if corp not in launched]
        if waiting:
            return waiting
    return []


def check_activation(tx: Tx, corp: str) -> None:
    s = tx.state
    # 5.36: active once 50 % has been bought, whoever holds it now (a share the President sold to the
    # market was bought all the same), i.e. at most half is left in the Public share box.
    if corp in s.active or s.units(corp, "ipo") > 5:
        return
    tx.emit(ev.CorporationActivated(corp=corp))
    pay(tx, "bank", c(corp), 10 * s.par[corp], why="starting capital")


def sell(tx: Tx, player: str, corp: str, count: int, emergency_for: str = "") -> None:
    s = tx.state
    if corp not in s.launched:
        refuse("NOT_LAUNCHED", f"{corp} has not been launched")
    if count < 1:
        refuse("BAD_COUNT", "sell at least one share")
    held = s.units(corp, p(player))
    if held < count:
        refuse("NOT_ENOUGH_SHARES", f"{player} holds {held} units of {corp}")
    if corp not in s.operated and s.president.get(corp) != player:
        refuse("NOT_YET_OPERATED", f"only {corp}'s President may sell it before it has operated (5.21)")
    if s.units(corp, "market") + count > MARKET_MAX:
        refuse("MARKET_FULL", f"no more than 50% of {corp} may be in the Stock Market (5.24)")
    holdings = player_units(s, corp)
    holdings[player] -= count
    new_president = s.president[corp]
    if s.president[corp] == player:
        successor = president_after_sale(holdings, player, s.players)
        if successor is None and holdings[player] < 2:
            refuse("PRESIDENT_CERTIFICATE", f"the President's certificate of {corp} cannot enter the market")
        if successor is not None and emergency_for == corp:
            refuse("WOULD_LOSE_PRESIDENCY", f"this sale would hand {corp}'s Presidency away during its "
                                            "mandatory ship purchase (7.38)")
        new_president = successor or player
    if new_president != s.president[corp]:
        tx.emit(ev.PresidentChanged(corp=corp, player=new_president))    # the certificate swap (5.23)
    tx.emit(ev.SharesMoved(corp=corp, source=p(player), destination="market", units=count))
    pay(tx, "bank", p(player), count * market.price(s.market, corp), why=f"sold {corp}")
    if corp not in s.sold_this_turn:
        row, column = market.target(s.market, corp, "down1")
        tx.emit(ev.StockPriceMoved(corp=corp, row=row, column=column, why="sale"))


def buy(tx: Tx, player: str, corp: str, source: str) -> None:
    s = tx.state
    if corp not in s.launched:
        refuse("NOT_LAUNCHED", f"{corp}'s President's certificate must be bought first")
    if f"{player}/{corp}" in s.sold_this_round:
        refuse("SOLD_THIS_ROUND", f"{player} sold {corp} this round and may not buy it back (5.33)")
    if s.units(corp, source) < 1:
        refuse("NO_SHARE_THERE", f"no {corp} share in the {source}")
    if s.units(corp, p(player)) + 1 > MAX_UNITS:
        refuse("HOLDING_LIMIT", f"no player may hold more than 60% of {corp} (5.31)")
    if certificate_count(s, player) + 1 > certificate_limit(s):
        refuse("CERTIFICATE_LIMIT", f"{player} is at the certificate limit of {certificate_limit(s)} (5.34)")
    price = market.price(s.market, corp) if source == "market" else s.par[corp]
    if source == "growth" and s.options.stock_repurchases:      # optional rule: the higher of par and price
        price = max(price, market.price(s.market, corp))
    if s.cash(p(player)) < price:
        refuse("INSUFFICIENT_FUNDS", f"a {corp} share costs ${price}; {player} has ${s.cash(p(player))}")
    tx.emit(ev.SharesMoved(corp=corp, source=source, destination=p(player), units=1))
    # Growth-box shares (Growth corporations, the League) pay their par into the treasury (5.3).
    pay(tx, p(player), c(corp) if source == "growth" else "bank", price, why=f"bought {corp}")
    if takes_presidency(player_units(s, corp), s.president[corp], player):
        tx.emit(ev.PresidentChanged(corp=corp, player=player))
    check_activation(tx, corp)


def launch(tx: Tx, player: str, corp: str, par: int) -> None:
    s = tx.state
    if corp not in available_to_launch(s):
        refuse("NOT_AVAILABLE", f"{corp} cannot be launched now; available: {available_to_launch(s)}")
    if par not in PUBLIC_PARS:
        refuse("BAD_PAR", f"a Public Corporation's par is one of {PUBLIC_PARS}")
    if certificate_count(s, player) + 1 > certificate_limit(s):
        refuse("CERTIFICATE_LIMIT", f"{player} is at the certificate limit of {certificate_limit(s)}")
    if s.cash(p(player)) < 2 * par:
        refuse("INSUFFICIENT_FUNDS", f"the President's certificate costs ${2 * par}")
    row, column = market_data()["public_par"][par]
    tx.emit(ev.SharesMoved(corp=corp, source="ipo", destination=p(player), units=2))
    tx.emit(ev.CorporationLaunched(corp=corp, player=player, par=par))
    pay(tx, p(player), "bank", 2 * par, why=f"launched {corp}")
    tx.emit(ev.StockPriceMoved(corp=corp, row=row, column=column, why="launch"))


def all_shares_held_rise(tx: Tx) -> None:
    s = tx.state
    for corp in market.order(s.market, list(s.launched)):
        if sum(player_units(s, corp).values()) == 10:
            row, column = market.target(s.market, corp, "up1")
            tx.emit(ev.StockPriceMoved(corp=corp, row=row, column=column, why="all shares held"))


def worth(state: State, player: str) -> int:
    """Final worth (9): cash + shares at market price + privates at bid before Phase V."""
    from t2038.auction import printed_bid
    total = state.cash(p(player))
    for corp in state.launched:
        total += state.units(corp, p(player)) * market.price(state.market, corp)
    if state.phase < 5:
        total += sum(printed_bid(n) for n in PRIVATES if state.company_owner.get(n) == p(player))
    return total


def owns_independent(state: State, player: str) -> list[int]:
    return [n for n in INDEPENDENTS if state.company_owner.get(n) == p(player)]


def repurchase(tx: Tx, operator: str) -> None:
    """Optional Stock Repurchases (7.4): the operating corporation buys its own share from the market at the
    current price, with its own money, into its Growth box."""
    s = tx.state
    if not s.options.stock_repurchases:
        refuse("OPTION_OFF", "stock repurchases are an optional rule not used at this table")
    if not operator.startswith("c:"):
        refuse("CORPORATIONS_ONLY", "only a corporation buys back its shares")
    corp = operator[2:]
    if s.units(corp, "market") < 1:
        refuse("NO_SHARE_THERE", f"no {corp} share in the Stock Market")
    price = market.price(s.market, corp)
    if s.cash(operator) < price:
        refuse("INSUFFICIENT_FUNDS", f"{operator} has ${s.cash(operator)}; a share costs ${price}")
    tx.emit(ev.SharesMoved(corp=corp, source="market", destination="growth", units=1))
    pay(tx, operator, "bank", price, why="repurchase")


def excess(state: State, player: str) -> tuple[int, int]:
    """How far the player is over the limits (5.31, 5.35): certificates above the certificate limit, and
    units held above 60 % summed over the corporations."""
    over_limit = max(0, certificate_count(state, player) - certificate_limit(state))
    over_60 = sum(max(0, state.units(corp, p(player)) - MAX_UNITS) for corp in state.launched)
    return over_limit, over_60


def required_sales(state: State, player: str) -> list[tuple[str, int]]:
    """The sales that comply (5.31, 5.35): per corporation, the fewest units whose sale lowers the excess.
    A sale that leaves it unchanged -- the President's certificate swapped for two shares (5.23) keeps the
    certificate count -- is not required, so a player whose only possible sales are such is not held."""
    before = excess(state, player)
    if before == (0, 0):
        return []
    needed = []
    for corp in state.launched:
        for count in range(1, state.units(corp, p(player)) + 1):
            trial = scratch(state)
            try:
                sell(trial, player, corp, count)
            except RuleViolation:
                continue
            after = excess(trial.state, player)
            if after[0] <= before[0] and after[1] <= before[1] and after != before:
                needed.append((corp, count))
                break
    return needed


def must_still_sell(state: State, player: str) -> list[str]:
    """The corporations in which a sale lowering the excess is possible now (a player is never stuck)."""
    return [corp for corp, _ in required_sales(state, player)]
