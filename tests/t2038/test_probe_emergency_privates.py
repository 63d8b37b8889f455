"""The Probe while TSI is inactive, the mandatory ship's emergency sales, privates 8 and 9, the League's
last ship (6, 7.37, 7.38, 7.4)."""
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.flow import operating_order

from .helpers import game, given, price, refused, Rigged, tile_of, when
from .test_purchases_and_counters import corp_buying
from .test_ships_and_phases import bought_out, tsi_buying


def test_while_tsi_is_inactive_private_10s_owner_flies_the_probe_and_keeps_the_survey_money():
    # All passed with company 8 unsold; a pending bid sold company 10: TSI holds only 40 %.
    sold = [ev.CompanyAcquired(company=n, owner="p:ann", price=0) for n in (0, 1, 2, 3, 4, 5, 6, 7, 9)]
    state = given(game(), *sold, ev.CompanyAcquired(company=10, owner="p:cy", price=180),
                  ev.SharesMoved(corp="TSI", source="ipo", destination="p:ann", units=2),
                  ev.SharesMoved(corp="TSI", source="ipo", destination="p:cy", units=2),
                  ev.CorporationLaunched(corp="TSI", player="cy", par=100),
                  ev.StockPriceMoved(corp="TSI", row=1, column=4),
                  ev.RoundStarted(kind="operating", set_number=1, or_number=1),
                  *[ev.OperatorFinished(operator=f"i:{n}") for n in range(1, 7)])
    assert operating_order(state) == ["probe"]
    state = given(state, ev.OperatorStarted(operator="probe"))
    state, _ = when(state, "cy", cmd.StartRoute(ship="P", base="K9"))
    state, _ = when(state, "cy", cmd.Move(hex="K7", explore=True), Rigged(state, [tile_of("N20")]))
    assert state.cash("p:cy") == 450 + 10
    state, _ = when(state, "cy", cmd.EndRoute())
    refused(state, "cy", cmd.DeclareEarnings(choice="full"), "NOT_NOW")
    state, _ = when(state, "cy", cmd.FinishOperating())
    assert state.round == "operating" and state.or_number == 2


def test_a_president_sells_other_shares_to_fund_the_mandatory_ship_but_not_this_presidency():
    state = given(tsi_buying(cash=0), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"), ev.CashMoved(source="p:ann", destination="bank", amount=400),
                  ev.SharesMoved(corp="TSI", source="ipo", destination="p:ann", units=1),
                  ev.SharesMoved(corp="RU", source="ipo", destination="p:ann", units=2),
                  ev.CorporationLaunched(corp="RU", player="ann", par=67),
                  ev.StockPriceMoved(corp="RU", row=4, column=4),
                  ev.SharesMoved(corp="RU", source="ipo", destination="p:ann", units=2))
    refused(state, "ann", cmd.BuyShip(phase=2, kind="scout"), "INSUFFICIENT_FUNDS")   # $50 of $175
    refused(state, "ann", cmd.EmergencySell(corp="RU", count=3), "RAISED_ENOUGH")
    state, _ = when(state, "ann", cmd.EmergencySell(corp="RU", count=2))
    assert state.cash("p:ann") == 50 + 2 * 67 and price(state, "RU") == 58
    state, _ = when(state, "ann", cmd.BuyShip(phase=2, kind="scout"))
    assert state.cash("p:ann") == 50 + 134 - 175 and state.ships_of("c:TSI")


def test_privates_8_and_9_place_a_free_station_and_a_free_claim_outside_the_round_limits():
    state = given(corp_buying(), ev.CompanyAcquired(company=8, owner="c:TSI"),
                  ev.CompanyAcquired(company=9, owner="c:TSI"))
    state, _ = when(state, "ann", cmd.PlaceStation(hex="K9"))
    state, _ = when(state, "ann", cmd.UsePrivate(company=8, hex="M5"))
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="K7", mine=0))
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="K7", mine=1))
    state, _ = when(state, "ann", cmd.UsePrivate(company=9, hex="L8", mine=0))
    assert state.stations == {"K9": "TSI", "M5": "TSI"} and state.claims["L8/0"] == "c:TSI"
    assert state.cash("c:TSI") == 1000 - 50 - 60 - 100
    assert state.counters_left["TSI"] == {"base": 1, "refuel": 2, "claim": 8}
    assert state.company_owner[8] == "c:TSI"                          # using it does not close it


def test_nobody_buys_the_leagues_last_ship():
    state = given(corp_buying(), ev.ShipBought(ship="2.01", buyer="c:AL", kind="tug", price=0),
                  ev.SharesMoved(corp="AL", source="ipo", destination="p:dee", units=2),
                  ev.CorporationLaunched(corp="AL", player="dee", par=125, kind="league"))
    refused(state, "ann", cmd.BuyShipFrom(ship="2.01", price=10), "LEAGUE_LAST_SHIP")
