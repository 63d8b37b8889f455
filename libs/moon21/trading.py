"""Share trading used by stock rounds, corporate rounds and emergencies: selling (with the president's
certificate rule 9.4), buying, presidency settling, floating and receivership exits."""
from __future__ import annotations

from kit18xx.limits import certificate_count
from kit18xx.shares import IPO, POOL, clockwise_from, presidency_successor
from moon21 import events as E
from moon21.scratch import probe
from starbase_rules.scratch import Tx, refuse
from moon21.rules import rules
from moon21.state import P, State, name_of
from starbase_rules.contract import RuleViolation


def holder_of(state: State) -> dict[str, str]:
    return {p: P(p) for p in state.players}


def pool_cap(state: State) -> int:
    if len(state.players) == 2:
        return state.option("pool_cap_2p")
    return rules()["pool_cap_percent"]


def cert_limit(state: State) -> int:
    if len(state.players) == 2:
        return state.option("certificate_limit_2p")
    return rules()["certificate_limit"][len(state.players)]


def holding_cap(state: State) -> int:
    return rules()["holding_cap_percent"][len(state.players)]


def player_cert_count(state: State, player: str) -> int:
    return certificate_count(state.shares, P(player), privates=len(state.privates_of(P(player))))


def settle_presidency(tx: Tx[State], corp: str) -> None:
    """Rule 9.4: the presidency moves only to someone holding strictly more (ties clockwise)."""
    s = tx.state
    holder = s.shares.president_of(corp)
    if not holder.startswith("p:"):
        return
    outgoing = name_of(holder)
    successor = presidency_successor(s.shares, corp, s.players, holder_of(s), outgoing)
    if successor and successor != outgoing:
        tx.emit(E.PresidencyChanged(corp=corp, outgoing=holder, incoming=P(successor),
                                    handed=s.shares.ordinary_certs(corp, P(successor))[:2]))


def leave_receivership(tx: Tx[State], corp: str, player: str) -> None:
    """A player reaching 20 % of a corporation in receivership swaps two shares for the president's cert."""
    s = tx.state
    if s.corps[corp].receivership and s.shares.held_percent(corp, P(player)) >= 20:
        tx.emit(E.PresidencyChanged(corp=corp, outgoing=POOL, incoming=P(player),
                                    handed=s.shares.ordinary_certs(corp, P(player))[:2]))


def check_float(tx: Tx[State], corp: str) -> None:
    s = tx.state
    if not s.corps[corp].floated and s.shares.held_percent(corp, IPO) <= 100 - rules()["float_percent"]:
        tx.emit(E.CorporationFloated(corp=corp))


def sell(tx: Tx[State], seller: str, corp: str, count: int, drop: bool, keep_presidency: str | None = None) -> None:
    """Sell `count` shares of `corp` from `seller` (holder id) to the pool; validates the general rules."""
    s = tx.state
    c = s.corps.get(corp)
    if c is None or not c.started or c.closed:
        refuse("NOT_STARTED", f"{corp} has no shares in play")
    if count < 1:
        refuse("INVALID_COUNT", "sell at least one share")
    held = s.shares.held_percent(corp, seller)
    if held < 10 * count:
        refuse("NOT_ENOUGH_SHARES", f"{seller} holds {held}% of {corp}, cannot sell {count} shares")
    if s.shares.held_percent(corp, POOL) + 10 * count > pool_cap(s):
        refuse("POOL_FULL", f"the bank pool may hold at most {pool_cap(s)}% of {corp}")
    president = s.shares.president_of(corp)
    if president == seller and held - 10 * count < 20:
        if keep_presidency == corp:
            refuse("PRESIDENCY_PROTECTED", f"selling cannot change {corp}'s presidency while it raises money")
        outgoing = name_of(seller)
        others = clockwise_from(s.players, outgoing)
        best = max((s.shares.held_percent(corp, P(p)) for p in others), default=0)
        if best < 20:
            refuse("CANNOT_SELL_PRESIDENCY",
                   f"nobody else holds two shares of {corp}, so the president's certificate cannot go")
        successor = next(p for p in others if s.shares.held_percent(corp, P(p)) == best)
        tx.emit(E.PresidencyChanged(corp=corp, outgoing=seller, incoming=P(successor),
                                    handed=s.shares.ordinary_certs(corp, P(successor))[:2]))
    certs = [x for x in tx.state.shares.ordinary_certs(corp, seller)][-count:]
    tx.emit(E.SharesSold(seller=seller, certs=certs, price=s.price(corp)))
    if keep_presidency is not None:
        _refuse_if_presidency_changes(tx, corp, keep_presidency)
    settle_presidency(tx, corp)
    if drop and tx.state.corps[corp].operated:
        move_price(tx, corp, "down", reason="sale")


def _refuse_if_presidency_changes(tx: Tx[State], corp: str, protected: str) -> None:
    if corp != protected:
        return
    s = tx.state
    holder = s.shares.president_of(corp)
    successor = presidency_successor(s.shares, corp, s.players, holder_of(s), name_of(holder))
    if successor != name_of(holder):
        refuse("PRESIDENCY_PROTECTED", f"selling cannot change {corp}'s presidency while it raises money")


def _close_if_in_closed_box(tx: Tx[State], corp: str) -> None:
    s = tx.state
    if corp in s.market.positions and s.grid.is_closed(*s.market.positions[corp]):
        tx.emit(E.CorporationClosed(corp=corp, reason="share price reached the Closed box"))


def sale_possible(s: State, seller: str, corp: str, keep: str | None = None) -> bool:
    """Would selling one share of `corp` by `seller` be accepted now?"""
    try:
        sell(probe(s), seller, corp, 1, drop=True, keep_presidency=keep)
    except RuleViolation:
        return False
    return True


def take_cert(tx: Tx[State], buyer: str, corp: str, source: str) -> str:
    """The certificate a buy from `source` would take (lowest ordinary one there)."""
    s = tx.state
    certs = s.shares.ordinary_certs(corp, IPO if source == "ipo" else POOL)
    if not certs:
        refuse("NO_SHARE_AVAILABLE", f"no {corp} share in the {'IPO' if source == 'ipo' else 'bank pool'}")
    return certs[0]


def buy(tx: Tx[State], buyer: str, corp: str, source: str) -> None:
    s = tx.state
    c = s.corps.get(corp)
    if c is None or c.closed:
        refuse("UNKNOWN_CORPORATION", f"no corporation {corp}")
    if not c.started:
        refuse("NOT_STARTED", f"{corp} must first be started by buying its president's certificate")
    cert = take_cert(tx, buyer, corp, source)
    price = s.price(corp)
    if s.cash(buyer) < price:
        refuse("INSUFFICIENT_FUNDS", f"a {corp} share costs ₡{price}; you have ₡{s.cash(buyer)}")
    tx.emit(E.ShareBought(buyer=buyer, cert=cert, source=IPO if source == "ipo" else POOL, price=price))
    check_float(tx, corp)
    if buyer.startswith("p:"):
        leave_receivership(tx, corp, name_of(buyer))
        settle_presidency(tx, corp)



def move_price(tx: Tx[State], corp: str, direction: str, steps: int = 1, reason: str = "") -> None:
    """Move a share price; a token reaching the Closed box closes the corporation at once (rule 5)."""
    tx.emit(E.PriceMoved(corp=corp, direction=direction, steps=steps, reason=reason))
    _close_if_in_closed_box(tx, corp)
