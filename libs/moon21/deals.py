"""Purchases that need another player's consent (6.1, 11.6): the operating corporation buying a private
from a player other than its president, or a transport from a corporation with another president.
The president proposes (`DealProposed`); the other player answers (`AnswerDeal`); only an accepted deal
is carried out. Deals with oneself need no answer."""
from __future__ import annotations

from moon21 import commands as K
from moon21 import events as E
from moon21.emit import Emitter, refuse
from moon21.rules import rules
from moon21.state import C, P, State, name_of

CLOSES_ON_SALE = ("P1", "P2")


def _check_private(s: State, corp: str, private: str, price: int) -> str:
    """Validate a private purchase; returns the selling player."""
    spec = rules().privates.get(private)
    if spec is None:
        raise refuse("UNKNOWN_PRIVATE", f"no private company {private}")
    owner = s.private_owner.get(private, "")
    if not owner.startswith("p:") or name_of(owner) in s.bankrupt:
        raise refuse("NOT_OWNER", f"{private} is not owned by a player")
    if not spec.sale_min <= price <= spec.sale_max:
        raise refuse("ILLEGAL_PRICE", f"{private} sells for ₡{spec.sale_min}-₡{spec.sale_max}")
    if s.cash(C(corp)) < price:
        raise refuse("INSUFFICIENT_FUNDS", f"{corp} has ₡{s.cash(C(corp))}")
    if private == "P1":
        hex_id = next((h for h, d in s.board.tokens.items() for slots in d if "OLS" in slots), None)
        if hex_id is not None and s.board.corp_in_hex(corp, hex_id):
            raise refuse("TOKEN_IN_HEX", f"{corp} already has a token in {hex_id}, where the OLS token lies")
    return name_of(owner)


def acquire_private(em: Emitter, corp: str, actor: str, cmd: K.AcquirePrivate) -> None:
    seller = _check_private(em.state, corp, cmd.private, cmd.price)
    if seller == actor:
        _sell_private(em, corp, seller, cmd.private, cmd.price)
    else:
        em(E.DealProposed(corp=corp, seller=seller, kind="private", private=cmd.private, price=cmd.price))


def _sell_private(em: Emitter, corp: str, seller: str, private: str, price: int) -> None:
    em(E.PrivateSold(private=private, seller=P(seller), corp=corp, price=price))
    if private in CLOSES_ON_SALE:
        em(E.PrivateClosed(private=private, reason="sold to a corporation"))


def _check_transport(s: State, corp: str, cmd: K.BuyTransport) -> tuple[str, str]:
    """Validate a purchase from another corporation; returns (its base holding it, its president)."""
    seller = s.corps.get(cmd.from_corp or "")
    if seller is None or seller.closed or not seller.started or cmd.from_corp == corp:
        raise refuse("UNKNOWN_CORPORATION", f"no other corporation {cmd.from_corp}")
    if s.op.raised:
        raise refuse("EMERGENCY_BANK_ONLY", "money raised in an emergency only buys from the bank")
    president = s.president(cmd.from_corp)
    if president is None:
        raise refuse("NO_CONSENT", f"{cmd.from_corp} is in receivership and cannot agree a sale")
    holding = [b for b in ("LB", "SP") if cmd.transport in seller.transports[b]]
    if cmd.from_base is not None:
        if cmd.from_base not in holding:
            raise refuse("NO_SUCH_TRANSPORT", f"{cmd.from_corp} has no type {cmd.transport} transport "
                                              f"at its {cmd.from_base} base")
        holding = [cmd.from_base]
    if not holding:
        raise refuse("NO_SUCH_TRANSPORT", f"{cmd.from_corp} has no type {cmd.transport} transport")
    if len(holding) > 1:
        raise refuse("WHICH_BASE", f"{cmd.from_corp} holds a type {cmd.transport} at both bases: "
                                   "say which (from_base)")
    base = holding[0]
    price = cmd.price or 0
    if price < 1 or price > s.cash(C(corp)):
        raise refuse("ILLEGAL_PRICE", f"the price must be between ₡1 and ₡{s.cash(C(corp))}")
    return base, president


def buy_from_corporation(em: Emitter, corp: str, actor: str, cmd: K.BuyTransport) -> None:
    base, president = _check_transport(em.state, corp, cmd)
    if president == actor:
        _sell_transport(em, corp, cmd.from_corp, base, cmd.transport, cmd.base, cmd.price)
    else:
        em(E.DealProposed(corp=corp, seller=president, kind="transport", from_corp=cmd.from_corp,
                          from_base=base, transport=cmd.transport, base=cmd.base, price=cmd.price))


def _sell_transport(em: Emitter, corp: str, from_corp: str, from_base: str, transport: int, base: str,
                    price: int) -> None:
    em(E.TransportBought(corp=corp, base=base, transport=transport, price=price,
                         from_corp=from_corp, from_base=from_base))


def answer_deal(em: Emitter, actor: str, cmd: K.AnswerDeal) -> None:
    s = em.state
    deal = s.op.deal
    if not isinstance(cmd, K.AnswerDeal):
        raise refuse("DEAL_PENDING", f"{deal['corp']} waits for {deal['seller']} to accept or decline")
    em(E.DealAnswered(seller=actor, accepted=cmd.accept))
    if not cmd.accept:
        return
    if deal["kind"] == "private":
        _sell_private(em, deal["corp"], actor, deal["private"], deal["price"])
    else:
        from_base = deal.get("from_base") or next(
            b for b in ("LB", "SP") if deal["transport"] in s.corps[deal["from_corp"]].transports[b])
        _sell_transport(em, deal["corp"], deal["from_corp"], from_base, deal["transport"], deal["base"],
                        deal["price"])
