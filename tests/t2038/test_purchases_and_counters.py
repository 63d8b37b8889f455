"""Claims, bases, refuelling stations, deals with consent, upgrades, repurchases (7.3, 7.4)."""
import pytest

from starbase_rules.contract import RuleViolation
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.game import GAME
from t2038.planner import best_pickups

from .helpers import given, refused, tile_of, when
from .stock_fixtures import tsi_held


def corp_buying(corp="TSI", phase=2, cash=1000, **options):
    """`corp` (President ann) in its purchase step with one 3/2 ship, some explored tiles around K9."""
    state = tsi_held({"ann": 2}, **options)
    events = [ev.PhaseChanged(phase=phase), ev.ShipRemoved(ship="P", to="gone")]
    if corp != "TSI":
        events += [ev.SharesMoved(corp=corp, source="ipo", destination="p:ann", units=2),
                   ev.CorporationLaunched(corp=corp, player="ann", par=67),
                   ev.StockPriceMoved(corp=corp, row=4, column=4), ev.CorporationActivated(corp=corp)]
    events += [ev.CashMoved(source="bank", destination=f"c:{corp}", amount=cash),
               ev.ShipBought(ship="1.01", buyer=f"c:{corp}", kind="tug", price=0),
               ev.HexExplored(hex="K7", tile=tile_of("N10+N20")), ev.HexExplored(hex="L8", tile=tile_of("R40")),
               ev.HexExplored(hex="A3", tile=tile_of("I50")),
               ev.RoundStarted(kind="operating", set_number=2, or_number=1),
               ev.OperatorStarted(operator=f"c:{corp}", price=100),
               ev.EarningsDeclared(operator=f"c:{corp}", choice="retain", earnings=0, retained=0, per_share=0)]
    return given(state, *events)


def test_claims_cost_60_then_100_and_no_third_in_a_round():
    state = corp_buying()
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="K7", mine=1))
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="K7", mine=0))
    assert state.cash("c:TSI") == 1000 - 160
    refused(state, "ann", cmd.PlaceClaim(hex="L8", mine=0), "CLAIM_LIMIT")


def test_resources_unlimited_places_its_first_claim_each_round_free():
    state = given(corp_buying("RU"), ev.HexExplored(hex="D10", tile=tile_of("N20")))
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="D10", mine=0))
    assert state.cash("c:RU") == 1000


def test_claims_need_range_an_unclaimed_mine_and_a_ship():
    state = corp_buying()
    refused(state, "ann", cmd.PlaceClaim(hex="A3", mine=0), "OUT_OF_RANGE")
    refused(state, "ann", cmd.PlaceClaim(hex="K7", mine=5), "NO_MINE_HERE")
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="K7", mine=0))
    refused(state, "ann", cmd.PlaceClaim(hex="K7", mine=0), "ALREADY_CLAIMED")


def test_bases_go_on_unclaimed_explored_tiles_after_phase_i_one_a_round():
    refused(corp_buying(phase=1), "ann", cmd.PlaceBase(hex="L8"), "TOO_EARLY")
    state = corp_buying()
    refused(state, "ann", cmd.PlaceBase(hex="K5"), "NOT_AN_ASTEROID")
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="K7", mine=0))
    refused(state, "ann", cmd.PlaceBase(hex="K7"), "TILE_CLAIMED")
    state, _ = when(state, "ann", cmd.PlaceBase(hex="L8"))
    assert state.bases["L8"] == "TSI" and "L8" in state.flipped and state.cash("c:TSI") == 1000 - 60 - 50
    refused(state, "ann", cmd.PlaceBase(hex="K7"), "ONE_PER_ROUND")


def test_mars_mining_pays_25_for_a_base_and_venus_prospectors_25_for_a_station():
    state, _ = when(corp_buying("MM"), "ann", cmd.PlaceBase(hex="A3"))
    assert state.cash("c:MM") == 1000 - 25
    state, _ = when(corp_buying("VP"), "ann", cmd.PlaceStation(hex="J2"))
    assert state.cash("c:VP") == 1000 - 25 and state.stations["J2"] == "VP"


def test_a_station_goes_on_any_base_in_range_without_one():
    state = corp_buying()
    refused(state, "ann", cmd.PlaceStation(hex="K7"), "NO_FREE_BASE")
    refused(state, "ann", cmd.PlaceStation(hex="A1"), "OUT_OF_RANGE")
    state, _ = when(state, "ann", cmd.PlaceStation(hex="M5"))         # Ore Crusher's base
    assert state.stations["M5"] == "TSI"
    refused(state, "ann", cmd.PlaceStation(hex="K9"), "ONE_PER_ROUND")


def test_independents_place_claims_but_no_bases():
    state = given(corp_buying(), ev.OperatorFinished(operator="c:TSI"),
                  ev.ShipBought(ship="1.02", buyer="i:4", kind="scout", price=0),
                  ev.CashMoved(source="bank", destination="i:4", amount=100),
                  ev.HexExplored(hex="N4", tile=tile_of("N20")), ev.OperatorStarted(operator="i:4"),
                  ev.EarningsDeclared(operator="i:4", choice="retain", earnings=0, retained=0, per_share=0))
    refused(state, "ann", cmd.PlaceBase(hex="N4"), "CORPORATIONS_ONLY")
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="N4", mine=0))
    assert state.claims["N4/0"] == "i:4" and state.independent_claims_left[4] == 1


def test_buying_another_players_ship_waits_for_their_consent():
    state = given(corp_buying(), ev.ShipBought(ship="1.02", buyer="i:2", kind="scout", price=0))
    state, events = when(state, "ann", cmd.BuyShipFrom(ship="1.02", price=30))
    assert GAME.to_act(state) == ["cy"] and state.ships["1.02"].owner == "i:2"
    declined, _ = when(state, "cy", cmd.Decline())
    assert declined.ships["1.02"].owner == "i:2" and GAME.to_act(declined) == ["ann"]
    state, _ = when(state, "cy", cmd.AcceptDeal())
    assert state.ships["1.02"].owner == "c:TSI" and state.cash("i:2") == 30


def test_ship_trades_wait_for_phase_ii_and_cost_at_least_1():
    state = given(corp_buying(phase=1), ev.ShipBought(ship="1.02", buyer="i:4", kind="scout", price=0))
    refused(state, "ann", cmd.BuyShipFrom(ship="1.02", price=10), "TOO_EARLY")
    state = given(corp_buying(), ev.ShipBought(ship="1.02", buyer="i:4", kind="scout", price=0))
    refused(state, "ann", cmd.BuyShipFrom(ship="1.02", price=0), "BAD_PRICE")
    state, _ = when(state, "ann", cmd.BuyShipFrom(ship="1.02", price=1))      # ann runs Ore Crusher too
    assert state.ships["1.02"].owner == "c:TSI"


def test_a_corporation_buys_an_independents_claim_for_60_out_of_range():
    state = given(corp_buying(), ev.HexExplored(hex="A5", tile=tile_of("N20")),
                  ev.ClaimPlaced(holder="i:4", hex="A5", mine=0, price=60))
    state, _ = when(state, "ann", cmd.BuyIndependentClaim(hex="A5", mine=0))
    assert state.claims["A5/0"] == "c:TSI" and state.cash("i:4") == 60
    assert state.independent_claims_left[4] == 2


def test_upgrading_to_phase_vi_costs_700_and_retires_the_old_card():
    bought = [ev.ShipBought(ship=f"{ph}.{n:02d}", buyer="bank", kind="tug", price=0)
              for ph, count in ((2, 10), (3, 6), (4, 5)) for n in range(1, count + 1)]
    state = given(corp_buying(phase=5), *bought, ev.ShipBought(ship="5.01", buyer="c:TSI", kind="tug", price=0))
    refused(state, "ann", cmd.UpgradeShip(ship="1.01"), "NOT_UPGRADABLE")
    state, _ = when(state, "ann", cmd.UpgradeShip(ship="5.01"))
    assert state.ships["5.01"].owner == "gone" and state.ships["6.01"].owner == "c:TSI"
    assert state.cash("c:TSI") == 1000 - 700


def test_stock_repurchases_are_an_option():
    state = given(corp_buying(), ev.SharesMoved(corp="TSI", source="ipo", destination="market", units=1))
    refused(state, "ann", cmd.RepurchaseShare(), "OPTION_OFF")
    state = given(corp_buying(stock_repurchases=True),
                  ev.SharesMoved(corp="TSI", source="ipo", destination="market", units=1))
    state, _ = when(state, "ann", cmd.RepurchaseShare())
    assert state.units("TSI", "growth") == 1 and state.cash("c:TSI") == 1000 - 100


def test_best_pickups_for_a_chosen_path_take_the_most_valuable_mines():
    state = given(corp_buying(), ev.OperatorFinished(operator="c:TSI"), ev.OperatorStarted(operator="c:TSI"))
    assert best_pickups(state, "c:TSI", ["K9", "K7", "L8"], 2) == [("L8", 0), ("K7", 1)]


def test_options_and_player_counts_are_checked():
    from starbase_rules.fair import FairRng
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(["a", "b"], {}, FairRng(b"s"))
    assert caught.value.code == "BAD_PLAYER_COUNT"
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(["a", "b", "c"], {"colour": "red"}, FairRng(b"s"))
    assert caught.value.code == "UNKNOWN_OPTION"
    for bad in ({"variant": "long"}, {"weaker_tsi": 80}, {"transshipment_high_from_phase": 8},
                {"money_total": 1800}, {"certificate_limit": 0}, {"two_player": "yes"},
                {"variant": "short", "weaker_tsi": 78}):       # Weaker TSI is a Full game rule
        with pytest.raises(RuleViolation) as caught:
            GAME.setup(["a", "b", "c"], bad, FairRng(b"s"))
        assert caught.value.code == "BAD_OPTION", bad
    started = GAME.setup(["a", "b"], {"two_player": True}, FairRng(b"s"))[0]
    assert started.cash_each == 900
    with pytest.raises(RuleViolation) as caught:
        GAME.parse_command({"type": "Teleport"})
    assert caught.value.code == "MALFORMED_COMMAND"


def test_assumed_facts_are_table_options_with_the_sourced_defaults():
    from starbase_rules.fair import FairRng
    from t2038.ships import limit
    from t2038.state import Options, State
    from t2038.stock import certificate_limit
    from t2038.values import base_bonus, transshipment_value
    assert base_bonus("J2", Options()) == {"R": 20} and base_bonus("A1", Options()) == {"I": 20}
    assert base_bonus("J2", Options(base_bonuses={"J2": {"R": 30}})) == {"R": 30}
    assert transshipment_value("H18", 1, Options()) == 20 and transshipment_value("H18", 4, Options()) == 70
    assert transshipment_value("H18", 4, Options(transshipment_high_from_phase=7)) == 20
    assert transshipment_value("H10", 1, Options(transshipment_values={"H10": [20, 40]})) == 20
    started = GAME.setup(["a", "b", "c"], {"money_total": 12000, "certificate_limit": 20}, FairRng(b"s"))
    state = given(State(), *started)
    assert state.cash("bank") == 12000 - 1800 and certificate_limit(state) == 20 and limit(state, "c:TSI") == 4
    # The maps are no longer table options (a declared option is a bounded scalar), but a game that
    # recorded one (a v1 GameStarted) still plays with it.
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(["a", "b", "c"], {"ship_limits": {str(n): 2 for n in range(1, 7)}}, FairRng(b"s"))
    assert caught.value.code == "UNKNOWN_OPTION"
    stored = {"type": "GameStarted", "players": ["a", "b", "c"], "cash_each": 600, "money_total": 4000,
              "options": {"short": True, "ship_limits": {str(n): 2 for n in range(1, 7)}}}
    state = given(State(), GAME.parse_event(stored))
    assert state.options.short and limit(state, "c:TSI") == 2 and state.options.stock_repurchases is False
