"""The initial auction (5.1): Figure 3 and each refusal."""
from t2038 import commands as cmd
from t2038 import events as ev

from .helpers import game, given, of_type, price, refused, when


def figure_3_table():
    # ann, bob, cy, dee are Players 1-4. Opening bids of Figure 2, then later pending bids on IF and DH.
    return given(game(), ev.BidPlaced(player="ann", company=1, amount=100),
                 ev.BidPlaced(player="bob", company=3, amount=120),
                 ev.BidPlaced(player="cy", company=6, amount=100),
                 ev.BidPlaced(player="dee", company=1, amount=110),
                 ev.BidPlaced(player="dee", company=2, amount=100))


def test_figure_3_a_purchase_sells_pending_bids_in_turn_then_the_buyers_left_neighbour_plays():
    state, _ = when(figure_3_table(), "ann", cmd.BuyCompany(price=50))
    assert state.company_owner[0] == "p:ann"
    assert state.auction_company == 1 and state.auction_bidders == ["ann", "dee"]   # clockwise from dee
    state, _ = when(state, "ann", cmd.RaiseBid(amount=150))
    state, _ = when(state, "dee", cmd.RaiseBid(amount=160))
    state, events = when(state, "ann", cmd.DropOut())
    assert state.company_owner[1] == "p:dee" and state.cash("i:1") == 130        # 100 + (160 - 100) / 2
    assert state.company_owner[2] == "p:dee" and state.cash("i:2") == 100
    assert state.company_owner[3] == "p:bob" and state.cash("i:3") == 110
    assert state.company_owner[4] == "" and state.turn == "bob"
    assert state.cash("p:dee") == 450 - 160 - 100 and state.cash("p:bob") == 450 - 120


def test_a_bid_must_reach_the_printed_value_and_beat_the_last_bid_by_5():
    state = figure_3_table()
    refused(state, "ann", cmd.BidOnCompany(company=9, amount=150), "BID_TOO_LOW")
    refused(state, "ann", cmd.BidOnCompany(company=1, amount=114), "BID_TOO_LOW")
    state, _ = when(state, "ann", cmd.BidOnCompany(company=1, amount=115))
    assert state.bids[1]["ann"] == 115 and state.turn == "bob"


def test_money_in_a_leading_bid_is_tied_up():
    state = given(game(), ev.BidPlaced(player="ann", company=11, amount=410))
    refused(state, "ann", cmd.BuyCompany(), "INSUFFICIENT_FUNDS")        # 450 - 410 < 50
    refused(state, "ann", cmd.BidOnCompany(company=10, amount=180), "INSUFFICIENT_FUNDS")


def test_only_the_available_company_is_bought_and_bids_go_on_later_ones():
    state = game()
    refused(state, "ann", cmd.BidOnCompany(company=0, amount=60), "NOT_BIDDABLE")
    refused(state, "bob", cmd.BuyCompany(), "NOT_YOUR_TURN")
    refused(state, "ann", cmd.BuyCompany(price=40), "BID_TOO_LOW")
    refused(state, "ann", cmd.BuyShare(corp="TSI"), "NOT_NOW")


def test_buying_an_independent_for_more_than_100_puts_half_the_excess_in_its_treasury():
    state = given(game(), ev.CompanyAcquired(company=0, owner="p:bob", price=50))
    state, _ = when(state, "ann", cmd.BuyCompany(price=125))
    assert state.cash("i:1") == 112                                      # 100 + 25 // 2, rounded down


def test_buying_company_10_launches_and_activates_tsi_with_ten_times_par():
    sold = [ev.CompanyAcquired(company=n, owner="p:bob", price=0) for n in range(10)]
    shares = [ev.SharesMoved(corp="TSI", source="ipo", destination="p:bob", units=1) for _ in range(3)]
    state = given(game(), *sold, *shares)
    state, _ = when(state, "ann", cmd.BuyCompany())
    assert state.president["TSI"] == "ann" and "TSI" in state.active
    assert state.cash("c:TSI") == 1000 and price(state, "TSI") == 100


def test_all_players_passing_resolves_pending_bids_in_order_and_ends_the_round():
    state = given(game(), ev.BidPlaced(player="bob", company=5, amount=100))
    for player in ("ann", "bob", "cy"):
        state, _ = when(state, player, cmd.Pass())
    state, events = when(state, "dee", cmd.Pass())
    assert state.company_owner[5] == "p:bob" and state.company_owner[0] == ""
    assert state.round == "operating"
    assert of_type(events, ev.RoundStarted)[0].kind == "operating"
