"""Growth corporations (5.3): an Independent turned in for a President's certificate in Phases II-III,
before the League forms. The corporation takes the Independent's cash, ships, base and claims; the
Independent becomes its pilot."""
from __future__ import annotations

from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038.payments import pay
from t2038.state import c, i, p
from t2038.stock import available_to_launch
from t2038.tables import entities, market_data


def absorb(tx: Tx, number: int, corp: str, base_uses_counter: bool) -> None:
    """Move an Independent's treasury (what is left), ships, base and claims to `corp`."""
    s = tx.state
    holder = c(corp)
    pay(tx, i(number), holder, s.cash(i(number)), why=f"assets of {number}")
    for ship_id in s.ships_of(i(number)):
        tx.emit(ev.ShipBought(ship=ship_id, buyer=holder, kind=s.ships[ship_id].kind, price=0, seller=i(number)))
    home = entities()["independents"][number]["home"]
    tx.emit(ev.BaseTransferred(hex=home, owner=corp, uses_counter=base_uses_counter))
    for key, owner in sorted(s.claims.items()):
        if owner == i(number):
            hex_, mine = key.split("/")
            tx.emit(ev.ClaimPlaced(holder=holder, hex=hex_, mine=int(mine), price=0, replaced=i(number)))
    tx.emit(ev.CompanyAcquired(company=number, owner=f"pilot:{corp}"))


def launch_growth(tx: Tx, player: str, corp: str, number: int) -> None:
    s = tx.state
    if s.phase not in (2, 3) or "AL" in s.launched:
        refuse("NO_GROWTH_NOW", "Growth corporations launch in Phases II-III, before the League forms")
    if s.company_owner.get(number) != p(player) or number not in entities()["independents"]:
        refuse("NOT_YOUR_INDEPENDENT", f"{player} does not own Independent {number}")
    if corp not in available_to_launch(s):
        refuse("NOT_AVAILABLE", f"{corp} cannot be launched now; available: {available_to_launch(s)}")
    par = entities()["growth"]["par"]
    row, column = market_data()["growth_start"]
    tx.emit(ev.SharesMoved(corp=corp, source="ipo", destination=p(player), units=2))
    tx.emit(ev.CorporationLaunched(corp=corp, player=player, par=par, kind="growth"))
    tx.emit(ev.SharesMoved(corp=corp, source="ipo", destination="growth", units=8))
    tx.emit(ev.StockPriceMoved(corp=corp, row=row, column=column, why="launch"))
    tx.emit(ev.CorporationActivated(corp=corp))
    absorb(tx, number, corp, base_uses_counter=False)        # the GROWTH base marker is an extra
    if s.units("AL", "trade_in"):
        tx.emit(ev.SharesMoved(corp="AL", source="trade_in", destination="league", units=1))
