from kit18xx.auction import Waterfall, after_sale
from kit18xx.emergency import max_sellable, may_sell
from kit18xx.market import MarketGrid, MarketState
from kit18xx.turns import StockTurns, next_to_operate


def test_buying_first_then_single_bid_on_next_sells_it_to_the_bidder():
    auction = Waterfall.start([("P1", 30), ("P2", 30), ("P3", 40)])
    auction.place_bid("P2", "bob", 35)
    auction.remove_first()
    assert after_sale(auction) == ("sold", ("bob", 35))
    auction.sell("P2")
    assert after_sale(auction) == ("stop", None)


def test_two_bids_start_a_resolution_auction_with_the_lowest_bidder_first():
    auction = Waterfall.start([("P1", 30), ("P2", 30)])
    auction.place_bid("P2", "bob", 35)
    auction.place_bid("P2", "cy", 40)
    auction.remove_first()
    kind, first = after_sale(auction)
    assert (kind, first) == ("resolve", "bob")
    auction.begin_resolution("P2", first)
    seats = ["ann", "bob", "cy", "dan"]
    auction.place_bid("P2", "ann", 45)
    # after ann raised, the turn passes clockwise; bob is next, cy next after bob; the high bidder is skipped
    assert auction.next_in_resolution(seats, "ann") == "bob"
    assert auction.next_in_resolution(seats, "bob") == "cy"
    auction.place_bid("P2", "cy", 50)
    assert auction.next_in_resolution(seats, "bob") == "ann"
    auction.drop_out("ann")
    auction.drop_out("bob")
    assert auction.resolution_bidders() == ["cy"]


def test_minimum_bid_is_five_over_face_value_or_high_bid_and_money_is_set_aside():
    auction = Waterfall.start([("P1", 30), ("P2", 30)])
    assert auction.min_bid("P2", 5) == 35
    auction.place_bid("P2", "bob", 45)
    assert auction.min_bid("P2", 5) == 50
    assert auction.committed("bob") == 45


def test_all_pass_drops_the_first_price_by_ten_down_to_zero():
    auction = Waterfall.start([("P1", 15)])
    auction.drop_price("P1", 10)
    auction.drop_price("P1", 10)
    assert auction.price["P1"] == 0


def test_stock_round_ends_when_all_pass_consecutively_and_priority_goes_left_of_last_actor():
    turns = StockTurns.begin(["a", "b", "c"], "b")
    turns.acted("b"); turns.advance()
    turns.passed(); turns.advance()
    turns.passed(); turns.advance()
    assert not turns.all_passed()
    turns.passed()
    assert turns.all_passed()
    assert turns.priority_after_round() == "c"


def test_priority_stays_when_nobody_acted():
    turns = StockTurns.begin(["a", "b", "c"], "b")
    for _ in range(3):
        turns.passed(); turns.advance()
    assert turns.priority_after_round() == "b"


def test_forced_stock_sale_example_never_sells_more_than_needed():
    # Rulebook 11.7: need ₡100; three SSF at ₡70, one SWP at ₡100.
    assert max_sellable(0, 100, 70, 3) == 2
    assert max_sellable(0, 100, 100, 1) == 1
    assert may_sell(0, 100, 70, 2) and not may_sell(0, 100, 70, 3)
    assert not may_sell(140, 100, 100, 1)


def test_operating_order_is_dynamic_descending_price():
    grid = MarketGrid(((50, 60, 70),))
    market = MarketState()
    market.place("A", 0, 0); market.place("B", 0, 2); market.place("C", 0, 1)
    assert next_to_operate(market, grid, ["A", "B", "C"], {"B"}) == "C"
    market.move(grid, "A", "right", 2)
    assert next_to_operate(market, grid, ["A", "B", "C"], {"B"}) == "A"
