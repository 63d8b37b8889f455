"""Share trading used by stock rounds, corporate rounds and emergencies: selling (with the president's
certificate rule 9.4), buying, presidency settling, floating and receivership exits."""
from __future__ import annotations

from kit18xx.limits import certificate_count
from kit18xx.shares import IPO, POOL, clockwise_from, presidency_successor
from moon21 import events as E
from moon21.emit import Emitter, refuse
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


def settle_presidency(em: Emitter, corp: str) -> None:
    """Rule 9.4: the presidency moves only to someone holding strictly more (ties clockwise)."""
    s = em.state
    holder = s.shares.president_of(corp)
    if not holder.startswith("p:"):
        return
    outgoing = name_of(holder)
    successor = presidency_successor(s.shares, corp, s.players, holder_of(s), outgoing)
    if successor and successor != outgoing:
        em(E.PresidencyChanged(corp=corp, outgoing=holder, incoming=P(successor),
                               handed=s.shares.ordinary_certs(corp, P(successor))[:2]))


def leave_receivership(em: Emitter, corp: str, player: str) -> None:
    """A player reaching 20 % of a corporation in receivership swaps two shares for the president's cert."""
    s = em.state
    if s.corps[corp].receivership and s.shares.held_percent(corp, P(player)) >= 20:
        em(E.PresidencyChanged(corp=corp, outgoing=POOL, incoming=P(player),
                               handed=s.shares.ordinary_certs(corp, P(player))[:2]))


def check_float(em: Emitter, corp: str) -> None:
    s = em.state
    if not s.corps[corp].floated and s.shares.held_percent(corp, IPO) <= 100 - rules()["float_percent"]:
        em(E.CorporationFloated(corp=corp))


def sell(em: Emitter, seller: str, corp: str, count: int, drop: bool, keep_presidency: str | None = None) -> None:
    """Sell `count` shares of `corp` from `seller` (holder id) to the pool; validates the general rules."""
    s = em.state
    c = s.corps.get(corp)
    if c is None or not c.started or c.closed:
        raise refuse("NOT_STARTED", f"{corp} has no shares in play")
    if count < 1:
        raise refuse("INVALID_COUNT", "sell at least one share")
    held = s.shares.held_percent(corp, seller)
    if held < 10 * count:
        raise refuse("NOT_ENOUGH_SHARES", f"{seller} holds {held}% of {corp}, cannot sell {count} shares")
    if s.shares.held_percent(corp, POOL) + 10 * count > pool_cap(s):
        raise refuse("POOL_FULL", f"the bank pool may hold at most {pool_cap(s)}% of {corp}")
    president = s.shares.president_of(corp)
    if president == seller and held - 10 * count < 20:
        if keep_presidency == corp:
            raise refuse("PRESIDENCY_PROTECTED", f"selling cannot change {corp}'s presidency while it raises money")
        outgoing = name_of(seller)
        others = clockwise_from(s.players, outgoing)
        best = max((s.shares.held_percent(corp, P(p)) for p in others), default=0)
        if best < 20:
            raise refuse("CANNOT_SELL_PRESIDENCY",
                         f"nobody else holds two shares of {corp}, so the president's certificate cannot go")
        successor = next(p for p in others if s.shares.held_percent(corp, P(p)) == best)
        em(E.PresidencyChanged(corp=corp, outgoing=seller, incoming=P(successor),
                               handed=s.shares.ordinary_certs(corp, P(successor))[:2]))
    certs = [x for x in em.state.shares.ordinary_certs(corp, seller)][-count:]
    em(E.SharesSold(seller=seller, certs=certs, price=s.price(corp)))
    if keep_presidency is not None:
        _refuse_if_presidency_changes(em, corp, keep_presidency)
    settle_presidency(em, corp)
    if drop and em.state.corps[corp].operated:
        move_price(em, corp, "down", reason="sale")


def _refuse_if_presidency_changes(em: Emitter, corp: str, protected: str) -> None:
    if corp != protected:
        return
    s = em.state
    holder = s.shares.president_of(corp)
    successor = presidency_successor(s.shares, corp, s.players, holder_of(s), name_of(holder))
    if successor != name_of(holder):
        raise refuse("PRESIDENCY_PROTECTED", f"selling cannot change {corp}'s presidency while it raises money")


def _close_if_in_closed_box(em: Emitter, corp: str) -> None:
    s = em.state
    if corp in s.market.positions and s.grid.is_closed(*s.market.positions[corp]):
        em(E.CorporationClosed(corp=corp, reason="share price reached the Closed box"))


def sale_possible(s: State, seller: str, corp: str, keep: str | None = None) -> bool:
    """Would selling one share of `corp` by `seller` be accepted now?"""
    probe = Emitter(s)
    try:
        sell(probe, seller, corp, 1, drop=True, keep_presidency=keep)
    except RuleViolation:
        return False
    return True


def take_cert(em: Emitter, buyer: str, corp: str, source: str) -> str:
    """The certificate a buy from `source` would take (lowest ordinary one there)."""
    s = em.state
    certs = s.shares.ordinary_certs(corp, IPO if source == "ipo" else POOL)
    if not certs:
        raise refuse("NO_SHARE_AVAILABLE", f"no {corp} share in the {'IPO' if source == 'ipo' else 'bank pool'}")
    return certs[0]


def buy(em: Emitter, buyer: str, corp: str, source: str) -> None:
    s = em.state
    c = s.corps.get(corp)
    if c is None or c.closed:
        raise refuse("UNKNOWN_CORPORATION", f"no corporation {corp}")
    if not c.started:
        raise refuse("NOT_STARTED", f"{corp} must first be started by buying its president's certificate")
    cert = take_cert(em, buyer, corp, source)
    price = s.price(corp)
    if s.cash(buyer) < price:
        raise refuse("INSUFFICIENT_FUNDS", f"a {corp} share costs ₡{price}; you have ₡{s.cash(buyer)}")
    em(E.ShareBought(buyer=buyer, cert=cert, source=IPO if source == "ipo" else POOL, price=price))
    check_float(em, corp)
    if buyer.startswith("p:"):
        leave_receivership(em, corp, name_of(buyer))
        settle_presidency(em, corp)



def move_price(em: Emitter, corp: str, direction: str, steps: int = 1, reason: str = "") -> None:
    """Move a share price; a token reaching the Closed box closes the corporation at once (rule 5)."""
    em(E.PriceMoved(corp=corp, direction=direction, steps=steps, reason=reason))
    _close_if_in_closed_box(em, corp)
