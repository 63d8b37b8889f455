"""Private companies bought by corporations (7.4) and their free black-edged counters (7, 8, 9)."""
from __future__ import annotations

from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038 import tiles
from t2038.auction import printed_bid
from t2038.payments import pay
from t2038.purchases import in_range
from t2038.state import c
from t2038.tables import entities


def buy_private(tx: Tx, holder: str, company: int, price: int, consented: bool = False) -> None:
    """The owner must consent: another player than the President is asked first (AcceptDeal / Decline)."""
    s = tx.state
    if not holder.startswith("c:"):
        refuse("CORPORATIONS_ONLY", f"only a corporation may buy a private company, not {holder} (7.4)")
    if not 2 <= s.phase <= 4:
        refuse("TOO_EARLY" if s.phase < 2 else "TOO_LATE", "corporations buy privates in Phases II-IV")
    if not entities()["privates"].get(company, {}).get("corp_may_buy"):
        refuse("NOT_FOR_SALE", f"company {company} cannot be sold to a corporation")
    owner = s.company_owner.get(company, "")
    if not owner.startswith("p:"):
        refuse("NOT_FOR_SALE", f"company {company} is not held by a player")
    if not 1 <= price <= printed_bid(company):
        refuse("BAD_PRICE", f"the price is $1 to ${printed_bid(company)}")
    if s.cash(holder) < price:
        refuse("INSUFFICIENT_FUNDS", f"{holder} has ${s.cash(holder)}")
    if not consented and owner[2:] != s.controller(holder):
        from t2038.purchases import ask_seller
        return ask_seller(tx, owner[2:], {"deal": "private", "company": company, "price": price})
    pay(tx, holder, owner, price, why=f"private {company}")
    tx.emit(ev.CompanyAcquired(company=company, owner=holder, price=price))


def use_private(tx: Tx, holder: str, company: int, hex_: str, mine: int) -> None:
    s = tx.state
    if s.company_owner.get(company) != holder or company not in (7, 8, 9):
        refuse("NOT_YOUR_PRIVATE", f"{holder} does not own private 7, 8 or 9 numbered {company}")
    if company in s.private_used:
        refuse("ALREADY_USED", f"private {company}'s counter is already placed")
    corp = holder[2:]
    if company == 7:
        if hex_ not in s.tiles or hex_ in s.bases or any(k.startswith(f"{hex_}/") for k in s.claims):
            refuse("NOT_AN_ASTEROID", f"private 7's base goes on an explored tile without claims, not {hex_}")
        tx.emit(ev.BasePlaced(corp=corp, hex=hex_, price=0, private=7))
        return
    if hex_ not in in_range(s, holder):
        refuse("OUT_OF_RANGE", f"{hex_} is beyond the reach of {holder}'s ships")
    if company == 8:
        if hex_ not in s.bases or hex_ in s.stations:
            refuse("NO_FREE_BASE", f"{hex_} is not a base without a refuelling station")
        tx.emit(ev.StationPlaced(corp=corp, hex=hex_, price=0, private=8))
        return
    if hex_ not in s.tiles or hex_ in s.flipped or not 0 <= mine < len(tiles.mines(s.tiles[hex_])):
        refuse("NO_MINE_HERE", f"{hex_} has no mine {mine}")
    if f"{hex_}/{mine}" in s.claims:
        refuse("ALREADY_CLAIMED", f"mine {hex_}/{mine} is already claimed")
    tx.emit(ev.ClaimPlaced(holder=c(corp), hex=hex_, mine=mine, price=0, private=9))
