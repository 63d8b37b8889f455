"""Corporate rounds (rule 10): each started corporation in descending price order sells and/or issues,
then buys one certificate; at the end prices move up (sold out) or down (shares in the pool)."""
from __future__ import annotations

from kit18xx.shares import IPO, POOL
from moon21 import commands as K
from moon21 import events as E
from starbase_rules.scratch import Tx, refuse
from moon21.state import C, State
from moon21.trading import buy, check_float, move_price, pool_cap, sell


def corporate_actor(s) -> str | None:
    corp = s.cr.current
    return s.president(corp) if corp else None


def decide_cr(tx: Tx[State], cmd, actor: str) -> None:
    s = tx.state
    corp = s.cr.current
    if corp is None or actor != s.president(corp):
        refuse("NOT_YOUR_TURN", f"it is {corporate_actor(s)}'s corporate turn")
    if isinstance(cmd, K.SellShares):
        sell(tx, C(corp), cmd.corp, cmd.count, drop=cmd.corp not in s.cr.sold_corps)
    elif isinstance(cmd, K.IssueShares):
        issue(tx, corp, cmd.count)
    elif isinstance(cmd, K.BuyShare):
        _corporate_buy(tx, corp, cmd)
        tx.emit(E.CorporateTurnEnded(corp=corp))
    elif isinstance(cmd, K.Pass):
        tx.emit(E.CorporateTurnEnded(corp=corp))
    else:
        refuse("WRONG_ROUND", f"{cmd.type} is not a corporate round action")


def issue_limit(s, corp: str) -> int:
    """Rule 10.1.2: pool at most 50 %, and no more than the shares held by players and other corporations."""
    holdings = s.shares.holdings(corp)
    held_outside = sum(p for h, p in holdings.items() if h.startswith("p:") or (h.startswith("c:") and h != C(corp)))
    pool = holdings.get(POOL, 0)
    room = min(pool_cap(s) - pool, held_outside - pool) // 10
    return max(0, min(room, len(s.shares.ordinary_certs(corp, IPO))))


def issue(tx: Tx[State], corp: str, count: int) -> None:
    s = tx.state
    if count < 1 or count > issue_limit(s, corp):
        refuse("ISSUE_LIMIT", f"{corp} may issue between 1 and {issue_limit(s, corp)} shares now")
    floated, already = s.corps[corp].floated, s.cr.issued
    certs = s.shares.ordinary_certs(corp, IPO)[:count]
    tx.emit(E.SharesIssued(corp=corp, certs=certs, price=s.price(corp)))
    if floated and not already:
        move_price(tx, corp, "down", reason="issue")
    check_float(tx, corp)


def _corporate_buy(tx: Tx[State], corp: str, cmd: K.BuyShare) -> None:
    s = tx.state
    if cmd.corp == corp and cmd.source == "ipo":
        refuse("OWN_IPO", "a corporation may not buy from its own IPO")
    if cmd.corp == corp and s.cr.issued:
        refuse("ISSUED_THIS_ROUND", "a corporation that issued may not buy its own shares this round")
    if cmd.corp in s.cr.sold_corps:
        refuse("SOLD_THIS_ROUND", f"{corp} sold {cmd.corp} this turn")
    buy(tx, C(corp), cmd.corp, cmd.source)


def end_of_corporate_round(tx: Tx[State]) -> None:
    s = tx.state
    for corp in s.market.price_order(s.grid, s.live_corps()):
        if tx.state.corps[corp].closed:
            continue
        holdings = s.shares.holdings(corp)
        if holdings.get(IPO, 0) == 0 and holdings.get(POOL, 0) == 0:
            move_price(tx, corp, "up", reason="sold out")
        elif holdings.get(POOL, 0) > 0 and s.corps[corp].operated:
            move_price(tx, corp, "down", reason="shares in the bank pool")
