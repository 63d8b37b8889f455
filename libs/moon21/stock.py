"""Stock rounds (rule 9): sell any number, then buy, start or swap once; Tunnel Company's free share."""
from __future__ import annotations

from kit18xx.shares import POOL, corp_of, is_president_cert
from moon21 import commands as K
from moon21 import events as E
from starbase_rules.scratch import Tx, refuse
from moon21.rules import rules
from moon21.state import C, P, State
from moon21.trading import (
    buy, cert_limit, check_float, holding_cap, leave_receivership, player_cert_count, sale_possible, sell,
    settle_presidency,
)


def decide_sr(tx: Tx[State], cmd, actor: str) -> None:
    s = tx.state
    if actor != s.sr.current:
        refuse("NOT_YOUR_TURN", f"it is {s.sr.current}'s stock turn")
    if isinstance(cmd, K.SellShares):
        if cmd.seller != "player":
            refuse("WRONG_ROUND", "corporations sell in corporate rounds")
        drop = cmd.corp not in s.sr_turn_sold
        sell(tx, P(actor), cmd.corp, cmd.count, drop=drop)
    elif isinstance(cmd, K.BuyShare):
        _check_may_buy(tx, actor, cmd.corp)
        buy(tx, P(actor), cmd.corp, cmd.source)
        _end_turn(tx, actor, passed=False)
    elif isinstance(cmd, K.StartCorporation):
        _start(tx, actor, cmd)
        _end_turn(tx, actor, passed=False)
    elif isinstance(cmd, K.SwapCertificate):
        _swap(tx, actor, cmd)
        _end_turn(tx, actor, passed=False)
    elif isinstance(cmd, K.TakeTunnelShare):
        take_tunnel_share(tx, actor, cmd.corp)
    elif isinstance(cmd, K.Pass):
        if player_cert_count(s, actor) > cert_limit(s) and any(
                sale_possible(s, P(actor), c) for c in {corp_of(x) for x in s.shares.certs_held(P(actor))}):
            refuse("OVER_CERTIFICATE_LIMIT", f"sell down to the certificate limit of {cert_limit(s)} first")
        # taking P6's free share is an action too: the player is guaranteed another turn (9)
        _end_turn(tx, actor, passed=not s.sr_turn_sold and not s.sr_turn_took_share)
    else:
        refuse("WRONG_ROUND", f"{cmd.type} is not a stock round action")


def _end_turn(tx: Tx[State], actor: str, passed: bool) -> None:
    tx.emit(E.StockTurnEnded(player=actor, passed=passed))


def _check_may_buy(tx: Tx[State], actor: str, corp: str) -> None:
    s = tx.state
    if corp not in s.corps:
        refuse("UNKNOWN_CORPORATION", f"no corporation {corp}")
    if corp in s.sr_sold.get(actor, []):
        refuse("SOLD_THIS_ROUND", f"you sold {corp} earlier in this stock round")
    if player_cert_count(s, actor) >= cert_limit(s):
        refuse("CERTIFICATE_LIMIT", f"you are at the certificate limit of {cert_limit(s)}")
    if s.shares.held_percent(corp, P(actor)) >= holding_cap(s):
        refuse("HOLDING_LIMIT", f"you already hold {holding_cap(s)}% or more of {corp}")


def _start(tx: Tx[State], actor: str, cmd: K.StartCorporation) -> None:
    s = tx.state
    corp = s.corps.get(cmd.corp)
    if corp is None:
        refuse("UNKNOWN_CORPORATION", f"no corporation {cmd.corp}")
    if corp.started or corp.closed:
        refuse("ALREADY_STARTED", f"{cmd.corp} has already been started")
    if cmd.corp == s.held_back and s.set_no < rules()["held_back_available_from_sr"]:
        refuse("HELD_BACK", f"{cmd.corp} may not be started before stock round 3")
    if cmd.par not in rules()["par_prices"]:
        refuse("ILLEGAL_PAR", f"par must be one of {rules()['par_prices']}")
    if player_cert_count(s, actor) >= cert_limit(s):
        refuse("CERTIFICATE_LIMIT", f"you are at the certificate limit of {cert_limit(s)}")
    if s.cash(P(actor)) < 2 * cmd.par:
        refuse("INSUFFICIENT_FUNDS", f"the president's certificate costs ₡{2 * cmd.par}")
    tx.emit(E.CorporationStarted(player=actor, corp=cmd.corp, par=cmd.par))


def _swap(tx: Tx[State], actor: str, cmd: K.SwapCertificate) -> None:
    s = tx.state
    if cmd.corp not in s.corps or s.president(cmd.corp) != actor:
        refuse("NOT_PRESIDENT", f"you must preside {cmd.corp} to swap with its treasury")
    if s.shares.location.get(cmd.take) != C(cmd.corp):
        refuse("NOT_IN_TREASURY", f"{cmd.take} is not in {cmd.corp}'s treasury")
    if s.shares.location.get(cmd.give) != P(actor):
        refuse("NOT_YOURS", f"you do not hold {cmd.give}")
    if is_president_cert(cmd.give):
        refuse("PRESIDENTS_CERTIFICATE", "a corporation may not be given a president's certificate")
    if cmd.take in s.swapped or cmd.give in s.swapped:
        refuse("ALREADY_SWAPPED", "a certificate may take part in one swap per stock round")
    if corp_of(cmd.take) in s.sr_sold.get(actor, []):
        # a swap is the turn's buy action (9.2): no share of a corporation sold earlier this round
        refuse("SOLD_THIS_ROUND", f"you sold {corp_of(cmd.take)} earlier in this stock round")
    tx.emit(E.CertificatesSwapped(player=actor, corp=cmd.corp, taken=cmd.take, given=cmd.give))
    for corp in {corp_of(cmd.take), corp_of(cmd.give)}:
        leave_receivership(tx, corp, actor)
        settle_presidency(tx, corp)


def tunnel_taker(s, actor: str) -> str | None:
    """Who would receive the P6 share: the owning player, or a corporation the actor presides."""
    owner = s.private_owner.get("P6", "")
    if owner == P(actor):
        return owner
    if owner.startswith("c:") and s.president(owner[2:]) == actor:
        return owner
    return None


def take_tunnel_share(tx: Tx[State], actor: str, corp: str) -> None:
    s = tx.state
    taker = tunnel_taker(s, actor)
    if taker is None:
        refuse("NOT_OWNER", "you do not control the Tunnel Company")
    if s.set_no not in rules()["tunnel_free_share_rounds"]:
        refuse("WRONG_ROUND", "the free share may be taken only in stock rounds 2, 3 or 4")
    certs = s.shares.ordinary_certs(corp, POOL) if corp in s.corps else []
    if not certs:
        refuse("NO_SHARE_AVAILABLE", f"no {corp} share in the bank pool")
    if taker.startswith("p:") and player_cert_count(s, actor) >= cert_limit(s):
        refuse("CERTIFICATE_LIMIT", f"you are at the certificate limit of {cert_limit(s)}")
    tx.emit(E.TunnelShareTaken(taker=taker, cert=certs[0]))
    tx.emit(E.PrivateClosed(private="P6", reason="free share taken"))
    if taker.startswith("p:"):
        leave_receivership(tx, corp, actor)
        settle_presidency(tx, corp)
    check_float(tx, corp)

