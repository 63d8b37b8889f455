"""Stock rounds (5.2-5.5): sales, purchases, launches, presidency, limits."""
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.stock import certificate_count

from .helpers import given, price, refused, when
from .stock_fixtures import tsi_held


def test_rule_5_24_example_the_president_sells_one_share_out_of_the_certificate():
    state = tsi_held({"ann": 2, "bob": 2, "cy": 2}, market=4)
    state, events = when(state, "ann", cmd.SellShares(corp="TSI", count=1))
    assert state.president["TSI"] == "bob"                      # first clockwise of the tied 20 % holders
    assert state.units("TSI", "p:ann") == 1 and state.units("TSI", "market") == 5
    assert state.cash("p:ann") == 450 + 100


def test_presidency_passes_clockwise_on_a_tie_starting_left_of_the_seller():
    state = tsi_held({"ann": 3, "cy": 2, "dee": 2}, market=1)
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI", count=2))
    assert state.president["TSI"] == "cy"


def test_no_more_than_half_the_shares_may_enter_the_market():
    state = tsi_held({"ann": 3, "bob": 2}, market=5)
    refused(state, "ann", cmd.SellShares(corp="TSI"), "MARKET_FULL")


def test_the_presidents_certificate_never_enters_the_market():
    state = tsi_held({"ann": 2, "bob": 1}, market=1)
    refused(state, "ann", cmd.SellShares(corp="TSI"), "PRESIDENT_CERTIFICATE")


def test_only_the_president_sells_before_the_corporation_has_operated():
    state = tsi_held({"ann": 3, "bob": 2}, operated=False)
    state = given(state, ev.StockTurnEnded(player="ann", passed=True, next_player="bob"))
    refused(state, "bob", cmd.SellShares(corp="TSI"), "NOT_YET_OPERATED")


def test_selling_several_shares_in_one_turn_drops_the_price_one_box():
    state = tsi_held({"ann": 5}, market=0)
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI", count=1))
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI", count=2))
    assert price(state, "TSI") == 88                      # one box down from 100


def test_no_sales_in_the_first_stock_round():
    state = tsi_held({"ann": 3}, set_number=1)
    refused(state, "ann", cmd.SellShares(corp="TSI"), "NO_SALES_YET")


def test_a_player_may_not_buy_back_a_stock_sold_this_round():
    state = tsi_held({"ann": 4}, market=1)
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI"))
    refused(state, "ann", cmd.BuyShare(corp="TSI", source="market"), "SOLD_THIS_ROUND")


def test_no_player_buys_past_60_percent():
    state = tsi_held({"ann": 6})
    refused(state, "ann", cmd.BuyShare(corp="TSI"), "HOLDING_LIMIT")


def test_the_certificate_limit_stops_a_purchase_and_a_launch():
    # Short game, 4 players: limit 13. ann: 3 companies + TSI 60 % (5 certificates) + RU 60 % (5).
    state = tsi_held({"ann": 6}, short=True)
    state = given(state, ev.SharesMoved(corp="RU", source="ipo", destination="p:ann", units=6),
                  ev.CorporationLaunched(corp="RU", player="ann", par=67),
                  ev.StockPriceMoved(corp="RU", row=4, column=4))
    assert certificate_count(state, "ann") == 13
    refused(state, "ann", cmd.LaunchCorporation(corp="LE", par=67), "CERTIFICATE_LIMIT")
    state = given(state, ev.SharesMoved(corp="TSI", source="p:ann", destination="market", units=1))
    assert certificate_count(state, "ann") == 12


def test_buying_more_than_the_president_takes_the_presidency():
    state = tsi_held({"ann": 2, "bob": 2})
    state = given(state, ev.StockTurnEnded(player="ann", passed=True, next_player="bob"))
    state, events = when(state, "bob", cmd.BuyShare(corp="TSI"))
    assert state.president["TSI"] == "bob" and state.turn == "cy"


def test_launching_a_public_corporation_buys_the_certificate_at_twice_par():
    state = tsi_held({"ann": 2})
    state, _ = when(state, "ann", cmd.LaunchCorporation(corp="RU", par=88))
    assert state.president["RU"] == "ann" and state.cash("p:ann") == 450 - 176
    assert price(state, "RU") == 88 and "RU" not in state.active
    refused(state, "bob", cmd.LaunchCorporation(corp="OPC", par=67), "NOT_AVAILABLE")  # group C waits for B


def test_a_public_corporation_activates_at_50_percent_with_ten_times_par():
    state = tsi_held({"ann": 2})
    state, _ = when(state, "ann", cmd.LaunchCorporation(corp="RU", par=67))
    for buyer in ("bob", "cy", "dee"):
        state, _ = when(state, buyer, cmd.BuyShare(corp="RU"))
    assert "RU" in state.active and state.cash("c:RU") == 670


def test_all_passing_ends_the_round_raises_fully_held_stocks_and_moves_the_first_player_card():
    state = tsi_held({"ann": 2, "bob": 4, "cy": 4})
    state, _ = when(state, "ann", cmd.LaunchCorporation(corp="RU", par=67))
    for player in ("bob", "cy", "dee", "ann"):
        state, events = when(state, player, cmd.Pass())
    assert state.round == "operating"
    assert price(state, "TSI") == 113                     # 100, all held, up one box... to the right row
    assert state.first_player == "bob"                          # left of ann, the last to buy


def test_a_player_over_the_certificate_limit_must_sell_before_ending_the_turn():
    # Short game, 4 players: limit 13. ann: 3 companies + TSI 50 % (5) + RU 60 % as President (5) + LE (1).
    state = tsi_held({"bob": 2, "ann": 5}, president="bob", short=True)
    state = given(state, ev.SharesMoved(corp="RU", source="ipo", destination="p:ann", units=6),
                  ev.CorporationLaunched(corp="RU", player="ann", par=67),
                  ev.StockPriceMoved(corp="RU", row=4, column=4), ev.OperatorFinished(operator="c:RU"),
                  ev.SharesMoved(corp="LE", source="ipo", destination="p:ann", units=2),
                  ev.CorporationLaunched(corp="LE", player="ann", par=67),
                  ev.StockPriceMoved(corp="LE", row=4, column=4))
    assert certificate_count(state, "ann") == 14
    refused(state, "ann", cmd.Pass(), "MUST_COMPLY")
    state, _ = when(state, "ann", cmd.SellShares(corp="TSI"))
    state, _ = when(state, "ann", cmd.Pass())
    assert state.turn == "bob"
