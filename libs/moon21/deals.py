"""Purchases that need another player's consent (6.1, 11.6): the operating corporation buying a private
from a player other than its president, or a transport from a corporation with another president.
The president proposes (`DealProposed`); the other player answers (`AnswerDeal`); only an accepted deal
is carried out. Deals with oneself need no answer."""
from __future__ import annotations

from moon21 import commands as K
from moon21 import events as E
from starbase_rules.scratch import Tx, refuse
from moon21.rules import rules
from moon21.state import C, P, State, name_of

CLOSES_ON_SALE = ("P1", "P2")


def _check_private(s: State, corp: str, private: str, price: int) -> str:
    """Validate a private purchase; returns the selling player."""
    spec = rules().privates.get(private)
    if spec is None:
        refuse("UNKNOWN_PRIVATE", f"no private company {private}")
    owner = s.private_owner.get(private, "")
    if not owner.startswith("p:") or name_of(owner) in s.bankrupt:
        refuse("NOT_OWNER", f"{private} is not owned by a player")
    if not spec.sale_min <= price <= spec.sale_max:
        refuse("ILLEGAL_PRICE", f"{private} sells for ₡{spec.sale_min}-₡{spec.sale_max}")
    if s.cash(C(corp)) < price:
        refuse("INSUFFICIENT_FUNDS", f"{corp} has ₡{s.cash(C(corp))}")
    if private == "P1":
        hex_id = next((h for h, d in s.board.tokens.items() for slots in d if "OLS" in slots), None)
        if hex_id is not None and s.board.corp_in_hex(corp, hex_id):
            refuse("TOKEN_IN_HEX", f"{corp} already has a token in {hex_id}, where the OLS token lies")
    return name_of(owner)


def acquire_private(tx: Tx[State], corp: str, actor: str, cmd: K.AcquirePrivate) -> None:
    seller = _check_private(tx.state, corp, cmd.private, cmd.price)
    if seller == actor:
        _sell_private(tx, corp, seller, cmd.private, cmd.price)
    else:
        tx.emit(E.DealProposed(corp=corp, seller=seller, kind="private", private=cmd.private, price=cmd.price))


def _sell_private(tx: Tx[State], corp: str, seller: str, private: str, price: int) -> None:
    tx.emit(E.PrivateSold(private=private, seller=P(seller), corp=corp, price=price))
    if private in CLOSES_ON_SALE:
        tx.emit(E.PrivateClosed(private=private, reason="sold to a corporation"))


def _check_transport(s: State, corp: str, cmd: K.BuyTransport) -> tuple[str, str]:
    """Validate a purchase from another corporation; returns (its base holding it, its president)."""
    seller = s.corps.get(cmd.from_corp or "")
    if seller is None or seller.closed or not seller.started or cmd.from_corp == corp:
        refuse("UNKNOWN_CORPORATION", f"no other corporation {cmd.from_corp}")
    if s.op.raised:
        refuse("EMERGENCY_BANK_ONLY", "money raised in an emergency only buys from the bank")
    president = s.president(cmd.from_corp)
    if president is None:
        refuse("NO_CONSENT", f"{cmd.from_corp} is in receivership and cannot agree a sale")
    holding = [b for b in ("LB", "SP") if cmd.transport in seller.transports[b]]
    if cmd.from_base is not None:
        if cmd.from_base not in holding:
            refuse("NO_SUCH_TRANSPORT", f"{cmd.from_corp} has no type {cmd.transport} transport "
                                        f"at its {cmd.from_base} base")
        holding = [cmd.from_base]
    if not holding:
        refuse("NO_SUCH_TRANSPORT", f"{cmd.from_corp} has no type {cmd.transport} transport")
    if len(holding) > 1:
        refuse("WHICH_BASE", f"{cmd.from_corp} holds a type {cmd.transport} at both bases: "
                             "say which (from_base)")
    base = holding[0]
    price = cmd.price or 0
    if price < 1 or price > s.cash(C(corp)):
        refuse("ILLEGAL_PRICE", f"the price must be between ₡1 and ₡{s.cash(C(corp))}")
    return base, president


def buy_from_corporation(tx: Tx[State], corp: str, actor: str, cmd: K.BuyTransport) -> None:
    base, president = _check_transport(tx.state, corp, cmd)
    if president == actor:
        _sell_transport(tx, corp, cmd.from_corp, base, cmd.transport, cmd.base, cmd.price)
    else:
        tx.emit(E.DealProposed(corp=corp, seller=president, kind="transport", from_corp=cmd.from_corp,
                               from_base=base, transport=cmd.transport, base=cmd.base, price=cmd.price))


def _sell_transport(tx: Tx[State], corp: str, from_corp: str, from_base: str, transport: int, base: str,
                    price: int) -> None:
    tx.emit(E.TransportBought(corp=corp, base=base, transport=transport, price=price,
                              from_corp=from_corp, from_base=from_base))


def answer_deal(tx: Tx[State], actor: str, cmd: K.AnswerDeal) -> None:
    s = tx.state
    deal = s.op.deal
    if not isinstance(cmd, K.AnswerDeal):
        refuse("DEAL_PENDING", f"{deal['corp']} waits for {deal['seller']} to accept or decline")
    tx.emit(E.DealAnswered(seller=actor, accepted=cmd.accept))
    if not cmd.accept:
        return
    if deal["kind"] == "private":
        _sell_private(tx, deal["corp"], actor, deal["private"], deal["price"])
    else:
        from_base = deal.get("from_base") or next(
            b for b in ("LB", "SP") if deal["transport"] in s.corps[deal["from_corp"]].transports[b])
        _sell_transport(tx, deal["corp"], deal["from_corp"], from_base, deal["transport"], deal["base"],
                        deal["price"])
