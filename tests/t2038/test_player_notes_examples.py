"""The worked arithmetic of the Player Notes, replayed through the engine's own costs and dividends."""
from t2038 import commands as cmd
from t2038 import events as ev
from t2038 import tiles

from .helpers import given, tile_of, when
from .test_growth_and_league import ore_crusher_set_up
from .test_purchases_and_counters import corp_buying


def _ore_crusher_owns_two_claims():
    """TSI (ann, $1000) buying; ann's Ore Crusher holds claims on A5 and A7 (out of TSI's range)."""
    return given(corp_buying(), ev.HexExplored(hex="A5", tile=tile_of("N20")),
                 ev.HexExplored(hex="A7", tile=tile_of("I30")),
                 ev.ClaimPlaced(holder="i:4", hex="A5", mine=0, price=60),
                 ev.ClaimPlaced(holder="i:4", hex="A7", mine=0, price=60),
                 # TSI's turn begins afresh after Ore Crusher's claims: none of TSI's own this round yet
                 ev.OperatorStarted(operator="c:TSI", price=100),
                 ev.EarningsDeclared(operator="c:TSI", choice="retain", earnings=0, retained=0, per_share=0))


def test_three_claims_in_one_round_for_180_or_four_for_280_by_buying_an_independents_claims():
    # given a corporation whose President also owns an Independent with two placed claims
    state = _ore_crusher_owns_two_claims()
    # when it buys both Independent claims ($60 each, 7.45) and places one of its own ($60, 7.43)
    for hex_ in ("A5", "A7"):
        state, _ = when(state, "ann", cmd.BuyIndependentClaim(hex=hex_, mine=0))
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="K7", mine=0))
    # then it has three new claims for $180 ...
    assert state.cash("c:TSI") == 1000 - 180
    # ... and a second placed claim ($100) makes four for $280
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="L8", mine=0))
    assert state.cash("c:TSI") == 1000 - 280
    assert sum(1 for owner in state.claims.values() if owner == "c:TSI") == 4
    assert state.independent_claims_left[4] == 2                  # both markers came back to Ore Crusher


def test_the_independent_replaces_both_claims_next_round_for_40_more_than_two_single_claims():
    # given Ore Crusher with both claim markers back and $200, operating next to two unclaimed mines
    state = given(corp_buying(), ev.OperatorFinished(operator="c:TSI"),
                  ev.ShipBought(ship="1.02", buyer="i:4", kind="scout", price=0),
                  ev.CashMoved(source="bank", destination="i:4", amount=200),
                  ev.HexExplored(hex="N4", tile=tile_of("N20")), ev.HexExplored(hex="L4", tile=tile_of("I30")),
                  ev.OperatorStarted(operator="i:4"),
                  ev.EarningsDeclared(operator="i:4", choice="retain", earnings=0, retained=0, per_share=0))
    # when it places both claims in one round
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="N4", mine=0))
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="L4", mine=0))
    # then they cost $160: $40 more than two rounds of one $60 claim
    assert state.cash("i:4") == 200 - 160 == 200 - 2 * 60 - 40


def test_claims_placed_2_1_0_cost_220_against_180_for_1_1_1():
    two, _ = when(corp_buying(), "ann", cmd.PlaceClaim(hex="K7", mine=0))
    two, _ = when(two, "ann", cmd.PlaceClaim(hex="K7", mine=1))
    one, _ = when(corp_buying(), "ann", cmd.PlaceClaim(hex="K7", mine=0))
    first_round, single = 1000 - two.cash("c:TSI"), 1000 - one.cash("c:TSI")
    assert first_round + single == 220 and 3 * single == 180


def test_accelerating_a_nickel_claim_two_rounds_with_seven_growth_box_shares_nets_16():
    # given a Growth corporation with 7 shares left in its Growth box
    state, _ = when(ore_crusher_set_up(), "ann", cmd.LaunchGrowth(corp="RU", independent=4))
    state, _ = when(state, "bob", cmd.BuyShare(corp="RU", source="growth"))
    assert state.units("RU", "growth") == 7
    # a claimed $20 Nickel mine delivers $40 more a round, i.e. $4 a share when paid out in full
    nickel = tiles.mines_of_kind("N20")[0]
    extra = nickel.claimed - nickel.unclaimed
    assert extra // 10 == 4
    # when it pays those $40 out in full
    state = given(state, ev.RoundStarted(kind="operating", set_number=2, or_number=1),
                  ev.OperatorStarted(operator="c:RU", price=10),
                  ev.RouteStarted(ship="1.01", hex="M5", movement=3, holds=2),
                  ev.RouteEnded(ship="1.01", value=extra, delivered=True))
    before = state.cash("c:RU")
    state, _ = when(state, "ann", cmd.DeclareEarnings(choice="full"))
    # then the treasury receives $4 x 7 = $28; over two rounds $56, less the $40 the acceleration cost
    received = state.cash("c:RU") - before
    assert received == 28 and 2 * received - 40 == 16
