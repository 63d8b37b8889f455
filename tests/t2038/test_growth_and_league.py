"""Growth corporations, pilots, the Asteroid League and the privates' counters (5.3, 7.1, 7.4, 8)."""
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.game import GAME

from .helpers import given, of_type, price, refused, tile_of, when
from .stock_fixtures import tsi_held
from .test_ships_and_phases import bought_out


def ore_crusher_set_up(phase=2):
    """ann owns Ore Crusher ($80 cash, a 3/2, a claim on N4) in a stock round of the given phase."""
    return given(tsi_held({"ann": 2}), ev.PhaseChanged(phase=phase),
                 ev.CashMoved(source="bank", destination="i:4", amount=80),
                 ev.ShipBought(ship="1.01", buyer="i:4", kind="tug", price=100),
                 ev.HexExplored(hex="N4", tile=tile_of("N20")),
                 ev.ClaimPlaced(holder="i:4", hex="N4", mine=0, price=60))


def test_a_growth_launch_turns_the_independent_into_a_10_dollar_corporation_with_its_assets():
    state, events = when(ore_crusher_set_up(), "ann", cmd.LaunchGrowth(corp="RU", independent=4))
    assert state.corp_kind["RU"] == "growth" and "RU" in state.active
    assert price(state, "RU") == 10 and state.par["RU"] == 67
    assert state.units("RU", "p:ann") == 2 and state.units("RU", "growth") == 8
    assert state.cash("c:RU") == 80 and state.ships["1.01"].owner == "c:RU"
    assert state.bases["M5"] == "RU" and state.claims["N4/0"] == "c:RU"
    assert state.company_owner[4] == "pilot:RU"
    assert state.units("AL", "trade_in") == 5 and state.units("AL", "league") == 3
    assert state.turn == "bob"                                        # it was ann's purchase


def test_growth_box_shares_cost_par_and_the_money_goes_to_the_treasury():
    state, _ = when(ore_crusher_set_up(), "ann", cmd.LaunchGrowth(corp="RU", independent=4))
    state, _ = when(state, "bob", cmd.BuyShare(corp="RU", source="growth"))
    assert state.cash("c:RU") == 80 + 67 and state.cash("p:bob") == 450 - 67


def test_no_growth_launch_in_phase_i_or_with_someone_elses_independent():
    refused(ore_crusher_set_up(phase=1), "ann", cmd.LaunchGrowth(corp="RU", independent=4), "NO_GROWTH_NOW")
    refused(ore_crusher_set_up(), "ann", cmd.LaunchGrowth(corp="RU", independent=1), "NOT_YOUR_INDEPENDENT")


def test_a_pilot_gives_one_ship_per_round_its_bonus():
    state, _ = when(ore_crusher_set_up(), "ann", cmd.LaunchGrowth(corp="RU", independent=4))
    state = given(state, ev.ShipBought(ship="1.02", buyer="c:RU", kind="tug", price=100),
                  ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                  ev.OperatorStarted(operator="c:RU", price=10))
    state, _ = when(state, "ann", cmd.StartRoute(ship="1.01", base="M5", pilot=4))
    for command in (cmd.Move(hex="N4"), cmd.PickUp(mine=0), cmd.Move(hex="N2"), cmd.Move(hex="O1")):
        state, _ = when(state, "ann", command)
    state, events = when(state, "ann", cmd.EndRoute())
    assert of_type(events, ev.RouteEnded)[0].value == 60 + 10 + 10     # claimed N + LE base + pilot
    refused(state, "ann", cmd.StartRoute(ship="1.02", base="M5", pilot=4), "PILOT_ALREADY_FLEW")
    refused(state, "ann", cmd.StartRoute(ship="1.02", base="M5", pilot=2), "NOT_YOUR_PILOT")


def phase_iii_purchase():
    """TSI buying the first Phase III ship; dee owns Asteroid Export Co. (11)."""
    state = tsi_held({"ann": 2})
    return given(state, *bought_out(1, 10, buyer="bank"), ev.PhaseChanged(phase=2), ev.ShipRemoved(ship="P", to="gone"),
                 *[ev.ShipBought(ship=f"2.{n:02d}", buyer=f"i:{1 + n % 6}", kind="scout", price=0)
                   for n in range(1, 11)],
                 *[ev.CashMoved(source="bank", destination=f"i:{n}", amount=101) for n in range(1, 7)],
                 ev.CashMoved(source="bank", destination="c:TSI", amount=3000),
                 ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                 ev.OperatorStarted(operator="c:TSI", price=100),
                 ev.EarningsDeclared(operator="c:TSI", choice="retain", earnings=0, retained=0, per_share=0))


def test_phase_iii_offers_the_league_and_forming_it_offers_mergers_clockwise_from_its_president():
    state, _ = when(phase_iii_purchase(), "ann", cmd.BuyShip(phase=3, kind="scout"))
    assert state.phase == 3 and GAME.to_act(state) == ["dee"]
    refused(state, "ann", cmd.FinishOperating(), "NOT_YOUR_TURN")
    state, events = when(state, "dee", cmd.FormLeague())
    assert state.president["AL"] == "dee" and price(state, "AL") == 125
    assert state.cash("c:AL") == 250 and state.bases["H10"] == "AL" and "H10" in state.tiles
    assert [d[2] for d in state.pending] == [3, 4, 1, 5, 2, 6]           # dee, ann, bob, cy
    state, _ = when(state, "dee", cmd.MergeIndependent(independent=3))
    assert state.cash("p:dee") == 450 + 51 and state.cash("c:AL") == 250 + 50   # golden parachute
    assert state.units("AL", "p:dee") == 3 and state.company_owner[3] == "pilot:AL"
    for player in ("ann", "bob", "bob", "cy", "cy"):
        state, _ = when(state, player, cmd.Decline())
    assert state.pending == [] and GAME.to_act(state) == ["ann"] and state.operator == "c:TSI"


def test_the_league_base_ends_transshipment_at_its_reserved_hex():
    state, _ = when(phase_iii_purchase(), "ann", cmd.BuyShip(phase=3, kind="scout"))
    state, _ = when(state, "dee", cmd.FormLeague())
    from t2038.planner import end_hexes
    assert "H10" in state.bases and end_hexes(state).count("H10") == 1


def test_phase_iv_forces_the_league_and_phase_v_every_independent_into_it():
    state, _ = when(phase_iii_purchase(), "ann", cmd.BuyShip(phase=3, kind="scout"))
    state, _ = when(state, "dee", cmd.Decline())
    state = given(state, *[ev.ShipBought(ship=f"3.{n:02d}", buyer="bank", kind="tug", price=0) for n in range(2, 7)])
    state, _ = when(state, "ann", cmd.BuyShip(phase=4, kind="scout"))
    assert "AL" in state.launched and len(state.pending) == 6
    for _ in range(6):
        state, _ = when(state, state.pending[0][1], cmd.Decline())
    state = given(state, *[ev.ShipBought(ship=f"4.{n:02d}", buyer="bank", kind="tug", price=0) for n in range(2, 6)])
    state, _ = when(state, "ann", cmd.BuyShip(phase=5, kind="scout"))
    assert all(state.company_owner[n] == "closed" for n in range(1, 7))     # merged, then pilots removed
    assert state.units("AL", "trade_in") == 0


def test_after_the_league_forms_an_independent_without_a_ship_must_buy_one_or_merge():
    state, _ = when(phase_iii_purchase(), "ann", cmd.BuyShip(phase=3, kind="scout"))
    state, _ = when(state, "dee", cmd.FormLeague())
    for _ in range(6):
        state, _ = when(state, state.pending[0][1], cmd.Decline())
    state = given(state, ev.OperatorFinished(operator="c:TSI"), ev.ShipRemoved(ship="2.04", to="bank"),
                  ev.ShipRemoved(ship="2.10", to="bank"),
                  ev.OperatorStarted(operator="i:5"),
                  ev.EarningsDeclared(operator="i:5", choice="retain", earnings=0, retained=0, per_share=0))
    refused(state, "bob", cmd.FinishOperating(), "MUST_BUY_OR_MERGE")
    state, _ = when(state, "bob", cmd.MergeIndependent(independent=5))
    assert state.company_owner[5] == "pilot:AL" and state.cash("p:bob") == 450    # no golden parachute


def test_figure_8_a_corporation_buys_private_7_places_its_free_base_then_a_station_there():
    state = given(tsi_held({"ann": 2}), ev.PhaseChanged(phase=2), ev.ShipRemoved(ship="P", to="gone"),
                  ev.ShipBought(ship="1.01", buyer="c:TSI", kind="tug", price=0),
                  ev.CashMoved(source="bank", destination="c:TSI", amount=500),
                  ev.CompanyAcquired(company=7, owner="p:ann"),
                  ev.HexExplored(hex="K15", tile=tile_of("N10")), ev.HexExplored(hex="K17", tile=tile_of("I40")),
                  ev.HexExplored(hex="J16", tile=tile_of("I30")),
                  ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                  ev.OperatorStarted(operator="c:TSI", price=100),
                  ev.EarningsDeclared(operator="c:TSI", choice="retain", earnings=0, retained=0, per_share=0))
    refused(state, "ann", cmd.BuyPrivate(company=7, price=121), "BAD_PRICE")
    state, _ = when(state, "ann", cmd.BuyPrivate(company=7, price=120))
    assert state.company_owner[7] == "c:TSI" and state.cash("p:ann") == 450 + 120
    state, _ = when(state, "ann", cmd.UsePrivate(company=7, hex="K15"))
    assert state.bases["K15"] == "TSI" and "K15" in state.flipped
    refused(state, "ann", cmd.UsePrivate(company=7, hex="K17"), "ALREADY_USED")
    state, _ = when(state, "ann", cmd.PlaceStation(hex="K15"))
    assert state.cash("c:TSI") == 500 - 120 - 50 and state.stations["K15"] == "TSI"
    # Next round its 3/2 carries Ice from C and D to the OPC base for +$10 each.
    state = given(state, ev.OperatorFinished(operator="c:TSI"),
                  ev.RoundStarted(kind="operating", set_number=2, or_number=2),
                  ev.OperatorStarted(operator="c:TSI", price=100))
    for command in (cmd.StartRoute(ship="1.01", base="K15"), cmd.Move(hex="K17"), cmd.PickUp(mine=0),
                    cmd.Move(hex="J16"), cmd.PickUp(mine=0), cmd.Move(hex="J18")):
        state, _ = when(state, "ann", command)
    state, events = when(state, "ann", cmd.EndRoute())
    assert of_type(events, ev.RouteEnded)[0].value == (40 + 10) + (30 + 10)
