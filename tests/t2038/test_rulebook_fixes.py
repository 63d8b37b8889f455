"""Rules found skipped or misapplied when the rulebook was read against the code (given / when / then)."""
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.purchases import in_range

from .helpers import given, refused, tile_of, when
from .test_purchases_and_counters import corp_buying


def _bank_sells_phase_v():
    """Phase V with every Phase II-IV card sold; TSI holds the first Phase V ship, i:2 a Phase III one."""
    sold = [ev.ShipBought(ship=f"{ph}.{n:02d}", buyer="bank", kind="tug", price=0)
            for ph, count in ((2, 10), (4, 5)) for n in range(1, count + 1)]
    sold += [ev.ShipBought(ship=f"3.{n:02d}", buyer="bank", kind="tug", price=0) for n in range(2, 7)]
    return given(corp_buying(phase=5), ev.ShipRemoved(ship="1.01", to="gone"), *sold,
                 ev.ShipBought(ship="3.01", buyer="i:2", kind="scout", price=0),
                 ev.ShipBought(ship="5.01", buyer="c:TSI", kind="tug", price=0))


def test_an_upgrade_that_brings_the_first_phase_vi_ship_into_play_starts_phase_vi():
    # given Phase V, no Phase VI ship bought yet, and a Phase III ship still flying for Ice Finder
    state = _bank_sells_phase_v()
    assert state.phase == 5 and state.ships["3.01"].owner == "i:2"
    # when TSI upgrades its Phase V ship for $700 (8: a phase begins once one of its ships is acquired)
    state, events = when(state, "ann", cmd.UpgradeShip(ship="5.01"))
    # then Phase VI has begun, with its effects: Phase III ships are obsolete and leave the game
    assert any(isinstance(e, ev.PhaseChanged) and e.phase == 6 for e in events)
    assert state.phase == 6 and state.ships["3.01"].owner == "gone"
    assert state.ships["6.01"].owner == "c:TSI" and state.cash("c:TSI") == 1000 - 700


def test_a_later_upgrade_in_phase_vi_changes_no_phase():
    state = given(_bank_sells_phase_v(), ev.PhaseChanged(phase=6), ev.ShipRemoved(ship="3.01", to="gone"),
                  ev.ShipBought(ship="4.01", buyer="c:TSI", kind="tug", price=0))
    state, events = when(state, "ann", cmd.UpgradeShip(ship="4.01"))
    assert not any(isinstance(e, ev.PhaseChanged) for e in events) and state.phase == 6


def _scout_with_a_station_four_hexes_out():
    """TSI owns only a 5/1 scout at its K9 base and a refuelling station on Fast Buck's base G7, four
    hexes away (7.42: a station may go on another company's base)."""
    return given(corp_buying(), ev.ShipRemoved(ship="1.01", to="gone"),
                 ev.ShipBought(ship="1.02", buyer="c:TSI", kind="scout", price=0),
                 ev.StationPlaced(corp="TSI", hex="G7", price=0),
                 ev.HexExplored(hex="B10", tile=tile_of("R30")), ev.HexExplored(hex="C7", tile=tile_of("I40")))


def test_placement_range_refuels_only_once_at_each_station():
    # given the scout reaches G7 with 1 MP left and refuels to 4 (+3, 7.11)
    state = _scout_with_a_station_four_hexes_out()
    reach = in_range(state, "c:TSI")
    assert reach["G7"] == 4
    # then C7, four hexes past the station, is in range for a claim ...
    state_after, _ = when(state, "ann", cmd.PlaceClaim(hex="C7", mine=0))
    assert state_after.claims["C7/0"] == "c:TSI"
    # ... but B10, five hexes past it, is not: leaving G7 and coming back would refuel a second time,
    # which 7.12 forbids (a station is visited once per round by each ship)
    assert "B10" not in reach
    refused(state, "ann", cmd.PlaceClaim(hex="B10", mine=0), "OUT_OF_RANGE")


def test_a_corporation_that_can_pay_for_a_ship_itself_gets_no_presidents_money():
    from .test_ships_and_phases import bought_out, tsi_buying
    # given TSI without a ship in Phase II with $180: enough for a $175 scout, not for a $200 tug
    state = given(tsi_buying(cash=180), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"))
    # when it asks for the tug, then it is refused: it is not "unable to buy one with its own funds" (7.3)
    refused(state, "ann", cmd.BuyShip(phase=2, kind="tug"), "INSUFFICIENT_FUNDS")
    # and the scout is bought from the treasury alone
    state, _ = when(state, "ann", cmd.BuyShip(phase=2, kind="scout"))
    assert state.cash("c:TSI") == 5 and state.cash("p:ann") == 450
