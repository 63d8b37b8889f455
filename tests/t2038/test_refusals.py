"""Refusals (every rule section): each has a stable code and a refused command changes nothing (the
`refused` helper compares the state before and after)."""
import pytest

from t2038 import commands as cmd
from t2038 import events as ev
from t2038.game import GAME

from .helpers import game, given, refused, when
from .stock_fixtures import tsi_held
from .test_rulebook_review import league_formed_with_declines
from .test_ships_and_phases import bought_out, tsi_buying


# ---- Refusals: a stable code and nothing changed ----------------------------------------------------
def _stock_turn():
    return tsi_held({"ann": 4, "bob": 1}, market=1)


def _auction_running():
    state = given(game(), ev.BidPlaced(player="bob", company=1, amount=100),
                  ev.BidPlaced(player="cy", company=1, amount=105))
    state, _ = when(state, "ann", cmd.BuyCompany())
    assert state.auction_company == 1
    return state


def _emergency():
    """TSI (ann 3, bob 2) needs its mandatory $175 ship; ann has $50 of her own."""
    return given(tsi_buying(cash=0), *bought_out(1, 10), ev.PhaseChanged(phase=2),
                 ev.ShipRemoved(ship="P", to="gone"), ev.CashMoved(source="p:ann", destination="bank", amount=400),
                 ev.SharesMoved(corp="TSI", source="ipo", destination="p:ann", units=1),
                 ev.SharesMoved(corp="TSI", source="ipo", destination="p:bob", units=1))


def _buying():
    from .test_purchases_and_counters import corp_buying
    return corp_buying()


def _flying():
    from .test_earnings import tsi_operating
    state, _ = when(tsi_operating(0), "ann", cmd.StartRoute(ship="P", base="K9"))
    return state


def _league_operating():
    return given(league_formed_with_declines(), ev.OperatorFinished(operator="c:TSI"),
                 ev.OperatorStarted(operator="c:AL", price=125),
                 ev.EarningsDeclared(operator="c:AL", choice="retain", earnings=0, retained=0, per_share=0))


def _merge_offered():
    return given(league_formed_with_declines(), ev.DecisionsQueued(decisions=[["merge", "dee", 3, "later"]]))


REFUSALS = [
    (_stock_turn, "ann", cmd.SellShares(corp="TSI", count=0), "BAD_COUNT"),
    (_stock_turn, "ann", cmd.SellShares(corp="TSI", count=5), "NOT_ENOUGH_SHARES"),
    (_stock_turn, "ann", cmd.SellShares(corp="RU", count=1), "NOT_LAUNCHED"),
    (_stock_turn, "ann", cmd.BuyShare(corp="RU"), "NOT_LAUNCHED"),
    (_stock_turn, "ann", cmd.BuyShare(corp="TSI", source="growth"), "NO_SHARE_THERE"),
    (_stock_turn, "ann", cmd.LaunchCorporation(corp="RU", par=90), "BAD_PAR"),
    (_stock_turn, "ann", cmd.BuyCompany(), "NOTHING_FOR_SALE"),
    (_stock_turn, "ann", cmd.DiscardShip(ship="1.01"), "NO_DISCARD_DUE"),
    (_buying, "ann", cmd.DiscardShip(ship="P"), "NO_DISCARD_DUE"),
    (_auction_running, None, cmd.Pass(), "AUCTION_RUNNING"),
    (_emergency, "ann", cmd.EmergencySell(corp="TSI", count=2), "WOULD_LOSE_PRESIDENCY"),
    (_emergency, "ann", cmd.BuyShip(phase=2, kind="freighter"), "BAD_SHIP_TYPE"),
    (_emergency, "ann", cmd.FinishOperating(), "MUST_BUY_SHIP"),
    (_buying, "ann", cmd.EmergencySell(corp="TSI", count=1), "NO_EMERGENCY"),
    (_buying, "ann", cmd.BuyIndependentClaim(hex="K7", mine=0), "NOT_AN_INDEPENDENT_CLAIM"),
    (_buying, "ann", cmd.BuyPrivate(company=10, price=1), "NOT_FOR_SALE"),
    (_buying, "ann", cmd.DeclareBankruptcy(), "NOT_BANKRUPT"),
    (_flying, "ann", cmd.DeclareEarnings(choice="retain"), "ROUTE_IN_PROGRESS"),
    (_flying, "ann", cmd.StartRoute(ship="P", base="K9"), "ROUTE_IN_PROGRESS"),
    (_flying, "ann", cmd.ChooseTile(tile=0), "NO_TILE_CHOICE"),
    (_league_operating, "dee", cmd.PlaceBase(hex="H10"), "NO_COUNTERS_LEFT"),
    (_merge_offered, "dee", cmd.Pass(), "DECISION_PENDING"),
    (_merge_offered, "dee", cmd.MergeIndependent(independent=4), "NOT_OFFERED"),
    (_merge_offered, "ann", cmd.Decline(), "NOT_YOUR_TURN"),
]


@pytest.mark.parametrize("build, actor, command, code", REFUSALS,
                         ids=[f"{case[3]}-{case[2].type}" for case in REFUSALS])
def test_refusals_carry_a_stable_code_and_change_nothing(build, actor, command, code):
    state = build()
    refused(state, actor or GAME.to_act(state)[0], command, code)            # `refused` also checks ==
