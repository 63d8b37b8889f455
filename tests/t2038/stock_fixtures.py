"""Ready-made tables after the initial auction, built from events."""
from t2038 import events as ev

from .helpers import game, given

ALL_SOLD = [ev.CompanyAcquired(company=n, owner=f"p:{owner}", price=0)
            for n, owner in zip(range(12), ["ann", "bob", "cy", "dee"] * 3)]


def tsi_held(units: dict[str, int], president: str = "ann", market: int = 0, operated: bool = True,
             set_number: int = 2, **options):
    """TSI launched at $100 with `units` per player (the President's 2 included) and `market` units."""
    events = list(ALL_SOLD)
    events.append(ev.SharesMoved(corp="TSI", source="ipo", destination=f"p:{president}", units=2))
    events.append(ev.CorporationLaunched(corp="TSI", player=president, par=100))
    events.append(ev.StockPriceMoved(corp="TSI", row=1, column=4))
    events.append(ev.CorporationActivated(corp="TSI"))
    for player, count in units.items():
        extra = count - (2 if player == president else 0)
        if extra:
            events.append(ev.SharesMoved(corp="TSI", source="ipo", destination=f"p:{player}", units=extra))
    if market:
        events.append(ev.SharesMoved(corp="TSI", source="ipo", destination="market", units=market))
    if operated:
        events.append(ev.OperatorFinished(operator="c:TSI"))
    events.append(ev.RoundStarted(kind="stock", set_number=set_number, first_player="ann"))
    return given(game(**options), *events)
