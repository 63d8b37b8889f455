"""Emergency money raising (11.7), player bankruptcy (11.8.1) and corporation removal (12)."""
from __future__ import annotations

from kit18xx.bankruptcy import successor_after_bankruptcy
from kit18xx.emergency import may_sell
from kit18xx.shares import corp_of
from moon21 import commands as K
from moon21 import events as E
from moon21.scratch import probe
from starbase_rules.scratch import Tx, refuse
from moon21.state import C, P, State
from moon21.trading import holder_of, sale_possible, sell
from starbase_rules.contract import RuleViolation


def treasury_sellable(s: State, corp: str) -> list[str]:
    """Corporations whose shares the raising corporation can still sell from its treasury."""
    if s.cash(C(corp)) >= s.op.raising or s.corps[corp].receivership:
        return []
    held = sorted({corp_of(c) for c in s.shares.certs_held(C(corp))})
    return [x for x in held if not s.corps[x].closed and sale_possible(s, C(corp), x, None)]


def president_sellable(s: State, corp: str) -> list[str]:
    president = s.president(corp)
    if president is None or s.cash(C(corp)) + s.cash(P(president)) >= s.op.raising:
        return []
    held = sorted({corp_of(c) for c in s.shares.certs_held(P(president))})
    return [x for x in held if not s.corps[x].closed and sale_possible(s, P(president), x, corp)]


def emergency_sell(tx: Tx[State], corp: str, actor: str, cmd: K.SellShares) -> None:
    s = tx.state
    need = s.op.raising
    if not need:
        refuse("WRONG_STEP", "shares are sold in operating rounds only to raise money for a transport")
    if cmd.corp not in s.corps or not s.corps[cmd.corp].started or s.corps[cmd.corp].closed:
        refuse("NOT_STARTED", f"{cmd.corp} has no shares in play")
    price = s.price(cmd.corp)
    if cmd.seller == "corporation":
        if not may_sell(s.cash(C(corp)), need, price, cmd.count):
            refuse("SELLING_TOO_MUCH", f"{corp} must stop selling once it has ₡{need}")
        sell(tx, C(corp), cmd.corp, cmd.count, drop=True)
    else:
        if treasury_sellable(s, corp):
            refuse("SELL_TREASURY_FIRST", "the corporation sells its treasury stock first")
        if not may_sell(s.cash(C(corp)) + s.cash(P(actor)), need, price, cmd.count):
            refuse("SELLING_TOO_MUCH", f"stop selling once you can make up ₡{need}")
        sell(tx, P(actor), cmd.corp, cmd.count, drop=True, keep_presidency=corp)


def declare_bankruptcy(tx: Tx[State], corp: str, actor: str) -> None:
    """11.7/11.8.1. Table option `bankruptcy`: "after_selling" (the president must first sell every
    share the rules let them sell) or "when_short" (18xx.games: as soon as cash plus what the
    sellable shares fetch cannot pay; the bank then sells those shares for them)."""
    s = tx.state
    need = s.op.raising
    have = s.cash(C(corp)) + s.cash(P(actor))
    short = s.option("bankruptcy") == "when_short"
    if short:
        can_pay = have + sum(n * s.price(x) for x, n in _president_sales(s, corp, actor)) >= need
    else:
        can_pay = have >= need or bool(president_sellable(s, corp))
    if not need or can_pay or treasury_sellable(s, corp):
        refuse("NOT_BANKRUPT", "you can still raise the money for a transport")
    if short:
        for x, count in _president_sales(s, corp, actor):
            sell(tx, P(actor), x, count, drop=True, keep_presidency=corp)
    tx.emit(E.CorporationClosed(corp=corp, reason="bankrupt: could not buy a transport"))
    bankrupt_player(tx, actor)


def _president_sales(s: State, corp: str, president: str) -> list[tuple[str, int]]:
    """The most of each corporation's shares the president could sell now, as (corporation, count)."""
    out = []
    for x in sorted({corp_of(c) for c in s.shares.certs_held(P(president))}):   # a closed one's are removed
        count = next((n for n in range(s.shares.held_percent(x, P(president)) // 10, 0, -1)
                      if _sale_accepted(s, P(president), x, n, corp)), 0)
        if count:
            out.append((x, count))
    return out


def _sale_accepted(s: State, seller: str, corp: str, count: int, protected: str) -> bool:
    try:
        sell(probe(s), seller, corp, count, drop=True, keep_presidency=protected)
    except RuleViolation:
        return False
    return True


def bankrupt_player(tx: Tx[State], player: str) -> None:
    s = tx.state
    successors: dict[str, str | None] = {}
    for corp in s.live_corps():
        if s.shares.president_of(corp) == P(player):
            successors[corp] = successor_after_bankruptcy(s.shares, corp, s.players, holder_of(s), player)
    tx.emit(E.PlayerBankrupt(player=player, successors=successors))
