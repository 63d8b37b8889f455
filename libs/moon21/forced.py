"""Forced passes: positions where a player or corporation could only pass, which the engine plays itself
(`flow.advance`), as 18xx.games does, so no player is asked for one and no decision clock waits on one.

- a stock turn with nothing to sell, buy, start, swap or take for free (the turn is passed);
- a corporate turn with nothing to issue, sell or buy (the turn ends);
- an operating turn's buy step with nothing it can buy: no transport it can afford or take, no private
  it can afford, and no duty to buy (the turn ends).

Each "could it do anything else" is asked of the same handlers `decide` uses (on a private copy, without
the automatic steps), with cheap filters first, so this agrees with `decide` by construction. (A run
step whose runs can earn nothing is not forced: a transport may still be moved to the other base.)
"""
from __future__ import annotations

from kit18xx.shares import IPO, POOL, corp_of
from moon21 import commands as K
from moon21.corporate import decide_cr, issue_limit
from moon21.deals import _check_private, _check_transport
from moon21.scratch import probe
from moon21.operating import bank_price, buy_transport, must_buy, open_bases
from moon21.rules import rules
from moon21.state import C, P, State
from moon21.stock import decide_sr, tunnel_taker
from moon21.trading import cert_limit, player_cert_count
from starbase_rules.contract import RuleViolation


def _ok(check, *args) -> bool:
    try:
        check(*args)
    except RuleViolation:
        return False
    return True


def _accepted(handler, s: State, *args) -> bool:
    """Would this `decide` handler accept the command (tried on a private copy of the state)?"""
    return _ok(handler, probe(s), *args)


def _available(s: State, corp: str) -> list[tuple[str, int]]:
    """(source, price) of the certificates of `corp` a buyer could take now."""
    if corp not in s.market.positions:
        return []
    price = s.price(corp)
    return [(src, price) for src, holder in (("ipo", IPO), ("pool", POOL))
            if s.shares.ordinary_certs(corp, holder)]


def stock_turn_has_choice(s: State, player: str) -> bool:
    return any(_accepted(decide_sr, s, cmd, player) for cmd in _stock_candidates(s, player))


def _stock_candidates(s: State, player: str):
    """Commands worth trying, likeliest first; those failing a necessary condition are left out."""
    cash = s.cash(P(player))
    room = player_cert_count(s, player) < cert_limit(s)
    if room:
        yield from (K.BuyShare(corp=x, source=src) for x in s.live_corps()
                    for src, price in _available(s, x) if price <= cash)
        if cash >= 2 * min(rules()["par_prices"]):
            yield from (K.StartCorporation(corp=x, par=min(rules()["par_prices"]))
                        for x, c in s.corps.items() if not c.started and not c.closed)
    yield from (K.SellShares(corp=x) for x in sorted({corp_of(c) for c in s.shares.certs_held(P(player))}))
    if tunnel_taker(s, player):
        yield from (K.TakeTunnelShare(corp=x) for x in s.live_corps() if s.shares.ordinary_certs(x, POOL))
    yield from _swaps(s, player)


def _swaps(s: State, player: str) -> list:
    give = [c for c in s.shares.certs_held(P(player)) if not c.endswith("_0") and c not in s.swapped]
    if not give:
        return []
    out = []
    for corp in s.live_corps():
        if s.president(corp) == player:
            takes = [c for c in s.shares.certs_held(C(corp)) if c not in s.swapped]
            # one take per corporation held is enough: the rules treat certificates of a corporation alike
            for take in {corp_of(c): c for c in takes}.values():
                out.append(K.SwapCertificate(corp=corp, take=take, give=give[0]))
    return out


def corporate_turn_has_choice(s: State, corp: str) -> bool:
    if issue_limit(s, corp) > 0:
        return True
    president = s.president(corp)
    cash = s.cash(C(corp))
    sells = [K.SellShares(corp=x, seller="corporation")
             for x in sorted({corp_of(c) for c in s.shares.certs_held(C(corp))})]
    buys = [K.BuyShare(corp=x, source=src) for x in s.live_corps() for src, price in _available(s, x)
            if price <= cash]
    return any(_accepted(decide_cr, s, cmd, president) for cmd in sells + buys)


def buy_step_has_choice(s: State, corp: str) -> bool:
    """Could the corporation buy anything, or must it (then it is not a pass either)?"""
    if must_buy(s, corp) or s.op.raising:
        return True
    cash = s.cash(C(corp))
    bases = open_bases(s, corp)
    if bases and cash >= bank_price(s) and _accepted(buy_transport, s, corp, K.BuyTransport(base=bases[0])):
        return True
    if bases and cash >= 1:
        for other in s.live_corps():
            for base in ("LB", "SP"):
                for t in sorted(set(s.corps[other].transports[base])):
                    cmd = K.BuyTransport(base=bases[0], from_corp=other, from_base=base, transport=t, price=1)
                    if other != corp and _ok(_check_transport, s, corp, cmd):
                        return True
    for player in s.active_players():
        for private in s.privates_of(P(player)):
            price = rules().privates[private].sale_min
            if _ok(_check_private, s, corp, private, price):
                return True
    return False
