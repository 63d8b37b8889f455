"""Ship purchases, phases, obsolescence, limits and the mandatory ship (7.3, 8)."""
from t2038 import commands as cmd
from t2038 import events as ev

from .helpers import given, refused, when
from .test_earnings import tsi_operating


def purchasing(state):
    return given(state, ev.EarningsDeclared(operator="c:TSI", choice="retain", earnings=0, retained=0, per_share=0))


def tsi_buying(cash=2000, short=False):
    state = tsi_operating(0, short=short)
    return purchasing(given(state, ev.CashMoved(source="bank", destination="c:TSI", amount=cash)))


def bought_out(phase: int, count: int, buyer: str = "i:1", kind: str = "scout"):
    return [ev.ShipBought(ship=f"{phase}.{n:02d}", buyer=buyer, kind=kind, price=0) for n in range(1, count + 1)]


def test_phase_i_ships_cost_100_either_type_and_the_next_phase_waits_for_them_to_sell_out():
    state = tsi_buying()
    refused(state, "ann", cmd.BuyShip(phase=2, kind="scout"), "SHIP_NOT_AVAILABLE")
    state, events = when(state, "ann", cmd.BuyShip(phase=1, kind="tug"))
    assert state.ships["1.01"].owner == "c:TSI" and (state.ships["1.01"].movement, state.ships["1.01"].holds) == (3, 2)
    assert state.cash("c:TSI") == 1900
    assert state.company_owner[10] == "closed"                  # private 10 leaves once TSI buys a ship


def test_the_first_phase_ii_ship_starts_phase_ii_and_the_probe_leaves():
    state = given(tsi_buying(), *bought_out(1, 10))
    state, events = when(state, "ann", cmd.BuyShip(phase=2, kind="tug"))
    assert state.phase == 2 and state.ships["P"].owner == "gone"
    assert state.cash("c:TSI") == 2000 - 200


def test_phase_iii_makes_phase_i_ships_obsolete():
    state = given(tsi_buying(), *bought_out(1, 10), ev.PhaseChanged(phase=2), *bought_out(2, 10, buyer="i:2"))
    state, _ = when(state, "ann", cmd.BuyShip(phase=3, kind="scout"))
    assert state.phase == 3 and state.ships["1.01"].owner == "gone" and state.ships["2.01"].owner == "i:2"


def test_a_phase_change_over_the_ship_limit_forces_a_discard_of_the_owners_choice():
    # Phase III limit is 3: i:2 holds four Phase II ships when TSI buys the first Phase III ship.
    state = given(tsi_buying(), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  *[ev.ShipBought(ship=f"2.{n:02d}", buyer="i:2" if n <= 4 else f"i:{3 + (n - 5) // 3}",
                                  kind="tug", price=0)
                    for n in range(1, 11)])
    state, events = when(state, "ann", cmd.BuyShip(phase=3, kind="scout"))
    assert state.must_discard == ["i:2"]
    from t2038.game import GAME
    assert GAME.to_act(state) == ["cy"]
    refused(state, "cy", cmd.FinishOperating(), "DISCARD_FIRST")
    state, _ = when(state, "cy", cmd.DiscardShip(ship="2.03"))
    assert state.must_discard == [] and state.ships["2.03"].owner == "bank"


def test_no_ship_beyond_the_limit():
    state = given(tsi_buying(), *bought_out(1, 3, buyer="c:TSI"))
    refused(state, "ann", cmd.BuyShip(phase=1, kind="scout"), "SHIP_LIMIT")   # three plus the Probe


def test_a_corporation_without_a_ship_must_buy_one_with_its_presidents_cash_if_needed():
    state = given(tsi_buying(cash=50), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"))
    refused(state, "ann", cmd.FinishOperating(), "MUST_BUY_SHIP")
    after, _ = when(state, "ann", cmd.BuyShip(phase=2, kind="scout"))
    assert after.cash("c:TSI") == 0 and after.cash("p:ann") == 450 - 125
    after, _ = when(state, "ann", cmd.BuyShip(phase=2, kind="tug"))        # either type of the earliest
    assert after.cash("p:ann") == 450 - 150


def test_the_presidents_money_only_buys_the_earliest_ship_on_sale():
    state = given(tsi_buying(cash=50), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"), ev.ShipRemoved(ship="1.03", to="bank"))
    refused(state, "ann", cmd.BuyShip(phase=2, kind="scout"), "INSUFFICIENT_FUNDS")
    state, _ = when(state, "ann", cmd.BuyShip(phase=1, kind="tug"))         # the returned Phase I card
    assert state.ships["1.03"].owner == "c:TSI" and state.cash("p:ann") == 450 - 50


def test_bankruptcy_is_refused_while_the_ship_can_be_paid_for():
    state = given(tsi_buying(cash=0), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"))
    refused(state, "ann", cmd.DeclareBankruptcy(), "NOT_BANKRUPT")


def test_a_president_short_of_cash_with_nothing_to_sell_goes_bankrupt():
    state = given(tsi_buying(cash=0), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                  ev.ShipRemoved(ship="P", to="gone"), ev.CashMoved(source="p:ann", destination="bank", amount=440))
    refused(state, "ann", cmd.BuyShip(phase=2, kind="scout"), "INSUFFICIENT_FUNDS")
    state, events = when(state, "ann", cmd.DeclareBankruptcy())
    assert state.round == "over" and state.bankrupt == "ann"
