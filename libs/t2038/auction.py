"""The initial auction of companies 0-11 (5.1): buy the lowest available, bid on later ones, pending bids
sold or auctioned as each becomes available, and all-pass resolution (5.13)."""
from __future__ import annotations

from kit18xx.auction import leader_of, leading_commitment, resolution_order
from kit18xx.shares import clockwise_from
from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038.payments import pay
from t2038.state import INDEPENDENTS, State, i, p
from t2038.tables import entities, market_data

RAISE = 5


def printed_bid(company: int) -> int:
    data = entities()
    if company in INDEPENDENTS:
        return data["independents"][company]["bid"]
    return data["privates"][company]["bid"]


def available_company(state: State) -> int | None:
    unsold = [n for n in range(12) if state.company_owner.get(n) == ""]
    return min(unsold) if unsold else None


def high_bid(state: State, company: int) -> tuple[str, int]:
    return leader_of(state.bids.get(company, {}))


def allocated(state: State, player: str, except_company: int | None = None) -> int:
    """Money tied up in the player's leading pending bids (5.12)."""
    total = leading_commitment(state.bids, player, except_items=(except_company, state.auction_company))
    if state.auction_leader == player and state.auction_company != except_company:
        total += state.auction_high
    return total


def free_cash(state: State, player: str, except_company: int | None = None) -> int:
    return state.cash(p(player)) - allocated(state, player, except_company)


def tsi_par(state: State) -> int:
    if state.options.short:
        return entities()["tsi"]["short_par"]
    return state.options.weaker_tsi or entities()["tsi"]["full_par"]


def sell_company(tx: Tx, company: int, player: str, price: int) -> None:
    s = tx.state
    tx.emit(ev.CompanyAcquired(company=company, owner=p(player), price=price))
    if company in INDEPENDENTS:
        treasury = 100 + max(0, price - 100) // 2
        pay(tx, p(player), i(company), min(treasury, price), why="independent capital")
        pay(tx, p(player), "bank", price - min(treasury, price), why=f"company {company}")
    else:
        pay(tx, p(player), "bank", price, why=f"company {company}")
    tsi_pct = entities()["privates"].get(company, {}).get("tsi_pct", 0)
    if tsi_pct == 10:
        tx.emit(ev.SharesMoved(corp="TSI", source="ipo", destination=p(player), units=1))
        if "TSI" in s.launched:              # 10 sold first through all-pass resolution (5.13)
            from t2038.stock import check_activation
            check_activation(tx, "TSI")
    elif tsi_pct == 20:
        par = tsi_par(s)
        row, column = market_data()["tsi_start"][par]
        tx.emit(ev.SharesMoved(corp="TSI", source="ipo", destination=p(player), units=2))
        tx.emit(ev.CorporationLaunched(corp="TSI", player=player, par=par))
        tx.emit(ev.StockPriceMoved(corp="TSI", row=row, column=column, why="launch"))
        from t2038.stock import check_activation
        check_activation(tx, "TSI")


def buy(tx: Tx, player: str, price: int | None) -> None:
    s = tx.state
    company = available_company(s)
    if company is None:
        refuse("NOTHING_FOR_SALE", "every company has been sold")
    price = printed_bid(company) if price is None else price
    if price < printed_bid(company):
        refuse("BID_TOO_LOW", f"company {company} costs at least ${printed_bid(company)}")
    if free_cash(s, player) < price:
        refuse("INSUFFICIENT_FUNDS", f"{player} has ${free_cash(s, player)} not tied up in bids; needs ${price}")
    sell_company(tx, company, player, price)
    tx.emit(ev.AuctionFlowSet(resume_after=player))
    resolve_pending(tx)


def bid(tx: Tx, player: str, company: int, amount: int) -> None:
    s = tx.state
    current = available_company(s)
    if current is None or not (current < company <= 11) or s.company_owner.get(company) != "":
        refuse("NOT_BIDDABLE", f"bids go on unsold companies after the available one ({current})")
    _, high = high_bid(s, company)
    least = max(printed_bid(company), high + RAISE if high else 0)
    if amount < least:
        refuse("BID_TOO_LOW", f"a bid on company {company} must be at least ${least}")
    if free_cash(s, player, except_company=company) < amount:
        refuse("INSUFFICIENT_FUNDS", f"{player} cannot support a ${amount} bid")
    tx.emit(ev.BidPlaced(player=player, company=company, amount=amount))
    tx.emit(ev.StockTurnEnded(player=player, passed=False, purchase=False, next_player=left_of(s, player)))


def raise_bid(tx: Tx, player: str, amount: int) -> None:
    s = tx.state
    if amount < s.auction_high + RAISE:
        refuse("BID_TOO_LOW", f"raise to at least ${s.auction_high + RAISE}")
    if free_cash(s, player, except_company=s.auction_company) < amount:
        refuse("INSUFFICIENT_FUNDS", f"{player} cannot support a ${amount} bid")
    tx.emit(ev.AuctionBidRaised(player=player, amount=amount))


def drop_out(tx: Tx, player: str) -> None:
    s = tx.state
    tx.emit(ev.AuctionDropped(player=player))
    if len(s.auction_bidders) == 1:
        sell_company(tx, s.auction_company, s.auction_leader, s.auction_high)
        resolve_pending(tx)


def resolve_pending(tx: Tx) -> None:
    """Sell each newly available company with pending bids: to a lone bidder, or open an auction."""
    s = tx.state
    while True:
        company = available_company(s)
        if s.resolving_all_pass:
            with_bids = [n for n in range(12) if s.company_owner.get(n) == "" and s.bids.get(n)]
            company = min(with_bids) if with_bids else None
        if company is None or not s.bids.get(company):
            break
        bids = s.bids[company]
        if len(bids) == 1:
            (player, amount), = bids.items()
            sell_company(tx, company, player, amount)
            continue
        leader, high = high_bid(s, company)
        order = resolution_order(s.players, bids, leader)
        tx.emit(ev.AuctionOpened(company=company, bidders=order, high=high, leader=leader))
        return
    if s.resolving_all_pass:
        tx.emit(ev.AuctionFlowSet())
        from t2038.flow import end_stock_round
        end_stock_round(tx)
    elif s.resume_after:
        buyer = s.resume_after
        tx.emit(ev.AuctionFlowSet())
        tx.emit(ev.StockTurnEnded(player=buyer, passed=False, next_player=left_of(s, buyer)))


def left_of(state: State, player: str) -> str:
    return clockwise_from(state.players, player)[0]
