"""The open points of the last review, each settled by its rule section: the certificate-limit
compliance after a President's certificate swap (5.23, 5.35), private 8 and the OPC's free station (7.4,
7.42), and the mandatory ship when the bank sells none (7.3). States are built from events."""
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.legal import route_proposals
from t2038.ships import for_sale
from t2038.stock import certificate_count, required_sales

from .helpers import given, of_type, refused, when
from .stock_fixtures import tsi_held
from .test_earnings import figure_9_board
from .test_purchases_and_counters import corp_buying


# ---- 5.35 with 5.23: only a sale that lowers the excess is required ---------------------------------
def test_5_35_given_the_only_possible_sale_swaps_the_presidents_certificate_when_passing_then_allowed():
    # ann: companies 0, 4, 8 + TSI President with 3 units (2 certificates) = 5 > limit 4. bob holds 3.
    # The market holds 4, so one unit can be sold: bob takes the Presidency, ann gets two shares for the
    # certificate and keeps 2 certificates -- the sale does not bring her nearer the limit.
    state = tsi_held({"ann": 3, "bob": 3}, market=4, certificate_limit=4)
    assert certificate_count(state, "ann") == 5
    assert required_sales(state, "ann") == []
    after, _ = when(state, "ann", cmd.Pass())
    assert after.turn == "bob" and after.units("TSI", "p:ann") == 3


def test_5_35_given_one_unit_does_not_lower_the_count_when_two_do_then_two_are_required_and_no_more():
    state = tsi_held({"ann": 3, "bob": 3}, market=3, certificate_limit=4)
    assert required_sales(state, "ann") == [("TSI", 2)]
    refused(state, "ann", cmd.Pass(), "MUST_COMPLY")
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI", count=1))        # the swap: still 5 certificates
    assert certificate_count(state, "ann") == 5 and state.president["TSI"] == "bob"
    refused(state, "ann", cmd.Pass(), "MUST_COMPLY")
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI", count=1))
    assert certificate_count(state, "ann") == 4
    state, _ = when(state, "ann", cmd.Pass())                                   # complied: nothing more owed
    assert state.turn == "bob" and state.units("TSI", "p:ann") == 1


# ---- 7.4 / 7.42: private 8's black-edged station is not the OPC's "first one" ----------------------
def _opc_with_private_8():
    return given(corp_buying(corp="OPC"), ev.CompanyAcquired(company=8, owner="c:OPC"))


def test_7_42_given_opc_used_private_8_when_it_places_its_own_first_station_then_that_one_is_free():
    state = _opc_with_private_8()
    state, _ = when(state, "ann", cmd.UsePrivate(company=8, hex="H14"))       # the extra black-edged marker
    assert state.counters_left["OPC"]["refuel"] == 3                          # none of OPC's own three used
    state, events = when(state, "ann", cmd.PlaceStation(hex="J18"))           # same round: not the round's one
    assert [e.price for e in events if isinstance(e, ev.StationPlaced)] == [0]
    assert state.cash("c:OPC") == 1000 and state.stations == {"H14": "OPC", "J18": "OPC"}
    assert state.counters_left["OPC"]["refuel"] == 2


def test_7_42_given_opc_placed_its_free_first_station_when_it_uses_private_8_then_both_are_free():
    state = _opc_with_private_8()
    state, _ = when(state, "ann", cmd.PlaceStation(hex="J18"))
    state, _ = when(state, "ann", cmd.UsePrivate(company=8, hex="H14"))
    assert state.cash("c:OPC") == 1000 and 8 in state.private_used
    refused(state, "ann", cmd.PlaceStation(hex="H14"), "ONE_PER_ROUND")


# ---- 7.3: the mandatory ship when the bank sells none ---------------------------------------------
def _phase_vi_tsi_without_a_ship(owners: dict[str, str]):
    """Phase VI; every ship is out of play but the freighters in `owners`; the bank sells nothing. TSI
    (President ann, $500) is in its purchase step without a ship."""
    state = tsi_held({"ann": 2})
    events = [ev.PhaseChanged(phase=6)]
    for sid in state.ships:
        if sid in owners:
            events.append(ev.ShipBought(ship=sid, buyer=owners[sid], kind="freighter", price=0))
        else:
            events.append(ev.ShipRemoved(ship=sid, to="gone"))
    events += [ev.CashMoved(source="bank", destination="c:TSI", amount=500),
               ev.RoundStarted(kind="operating", set_number=2, or_number=1),
               ev.OperatorStarted(operator="c:TSI", price=100),
               ev.EarningsDeclared(operator="c:TSI", choice="retain", earnings=0, retained=0, per_share=0)]
    state = given(state, *events)
    assert for_sale(state) == [] and not state.ships_of("c:TSI")
    return state


def test_7_3_given_the_bank_sells_no_ship_when_its_president_runs_a_company_with_one_then_it_must_buy_it():
    state = _phase_vi_tsi_without_a_ship({"6.01": "i:4", "6.02": "i:1"})        # i:4 is ann's, i:1 bob's
    refused(state, "ann", cmd.FinishOperating(), "MUST_BUY_SHIP")
    state, _ = when(state, "ann", cmd.BuyShipFrom(ship="6.01", price=1))       # no consent needed
    assert state.ships["6.01"].owner == "c:TSI" and state.cash("c:TSI") == 499
    state, _ = when(state, "ann", cmd.FinishOperating())
    assert state.operator != "c:TSI"


def test_7_3_given_the_bank_sells_no_ship_when_other_players_decline_the_whole_treasury_then_it_may_finish():
    state = _phase_vi_tsi_without_a_ship({"6.01": "i:1", "6.02": "i:2"})        # bob's and cy's
    refused(state, "ann", cmd.FinishOperating(), "MUST_BUY_SHIP")
    state, _ = when(state, "ann", cmd.BuyShipFrom(ship="6.01", price=1))
    state, _ = when(state, "bob", cmd.Decline())
    refused(state, "ann", cmd.FinishOperating(), "MUST_BUY_SHIP")             # a better offer could succeed
    state, _ = when(state, "ann", cmd.BuyShipFrom(ship="6.01", price=500))
    state, _ = when(state, "bob", cmd.Decline())
    assert state.ships_refused == ["6.01"]
    refused(state, "ann", cmd.FinishOperating(), "MUST_BUY_SHIP")             # cy's freighter is still open
    declined, _ = when(state, "ann", cmd.BuyShipFrom(ship="6.02", price=500))
    declined, _ = when(declined, "cy", cmd.Decline())
    declined, _ = when(declined, "ann", cmd.FinishOperating())               # unable to buy one: no ship
    assert declined.operator != "c:TSI" and not declined.ships_of("c:TSI")
    accepted, _ = when(state, "ann", cmd.BuyShipFrom(ship="6.02", price=300))
    accepted, _ = when(accepted, "cy", cmd.AcceptDeal())
    assert accepted.ships["6.02"].owner == "c:TSI" and accepted.cash("i:2") >= 300


# ---- the route helper counts refuelling (7.11, 7.12) -----------------------------------------------
def test_7_11_figure_9_given_the_3_2_at_k9_then_the_helper_proposes_ends_reached_through_the_m5_station():
    state, _ = when(figure_9_board(), "ann", cmd.StartRoute(ship="1.02", base="K9"))
    assert state.flight.movement == 3                          # J2 (VP) and O1 (LE) are six hexes away
    proposals = route_proposals(state)
    far = [r for r in proposals if len(r.path) > 3]
    assert {r.path[-1] for r in far} >= {"J2", "O1"} and all("M5" in r.path for r in far)
    best = proposals[0]                                        # Rare 40 + Nickel 40 to VP's base
    assert best.path[-1] == "J2" and best.value == 150 and set(best.pickups) == {("L8", 0), ("L6", 0)}
    for step in best.path:                                     # and it can be flown as proposed
        state, _ = when(state, "ann", cmd.Move(hex=step))
        for _, mine in [pickup for pickup in best.pickups if pickup[0] == step]:
            state, _ = when(state, "ann", cmd.PickUp(mine=mine))
    assert state.flight.refuelled == ["M5"]
    state, events = when(state, "ann", cmd.EndRoute())
    assert of_type(events, ev.RouteEnded)[0].value == 150
