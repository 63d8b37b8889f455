"""The stock market (rule 5): edges (5.1), stacking (5.1) and descending share price order (5.2),
driven through the engine's own price moves (dividends, sales, no-dividend turns)."""
from moon21.game import GAME
from moon21.trading import move_price


def _moved(t, corp, direction, steps=1):
    em = GAME.tx(t.state)
    move_price(em, corp, direction, steps)
    t.given(*em.events)
    return em.events


def test_5_1_a_blocked_left_move_goes_down_and_a_blocked_up_move_stays(table):
    t = table().stock_round().start("ann", "VH", 90)          # the 90 par box: row 2, column 2
    _moved(t, "VH", "left", 2)
    assert t.state.market.positions["VH"] == (2, 0) and t.price("VH") == 70
    _moved(t, "VH", "left")                                   # the left edge: down instead
    assert t.state.market.positions["VH"] == (3, 0) and t.price("VH") == 60
    _moved(t, "VH", "up")
    _moved(t, "VH", "up")                                     # row 1 has no box in column 0: stays
    assert t.state.market.positions["VH"] == (2, 0)


def test_5_1_a_blocked_right_move_goes_up_and_a_blocked_down_move_stays(table):
    t = table().stock_round().start("ann", "VH", 90)
    _moved(t, "VH", "right", 15)
    assert t.price("VH") == 345                               # the right edge of row 2
    _moved(t, "VH", "right", 2)                               # a dividend of twice the price: up, up
    assert t.state.market.positions["VH"] == (0, 17) and t.price("VH") == 430
    _moved(t, "VH", "right")
    assert t.price("VH") == 430                               # top right corner: nowhere to go
    t2 = table().stock_round().start("ann", "SSF", 60)        # the 60 par box: row 5, column 2
    _moved(t2, "SSF", "down")
    _moved(t2, "SSF", "down")                                 # the bottom row: stays
    assert t2.state.market.positions["SSF"] == (6, 2) and t2.price("SSF") == 50


def test_5_moving_left_off_the_bottom_left_enters_the_closed_box_and_closes_the_corporation(table):
    t = table().stock_round().start("ann", "SSF", 60)
    _moved(t, "SSF", "left", 2)                               # 50, then 40 at the left edge of row 5
    assert t.price("SSF") == 40
    events = _moved(t, "SSF", "left")                         # blocked: down into the Closed box
    assert [e.type for e in events][-1] == "CorporationClosed" and t.state.corps["SSF"].closed


def test_5_1_a_token_joining_a_box_goes_under_the_tokens_there_and_5_2_top_of_stack_goes_first(table):
    t = table().stock_round().start("ann", "VH", 70).start("bob", "SSF", 60)
    _moved(t, "SSF", "up")                                    # 60 -> 70, into VH's box
    assert t.state.market.positions["SSF"] == t.state.market.positions["VH"]
    live = t.state.live_corps()
    assert t.state.market.price_order(t.state.grid, live) == ["VH", "SSF"]
    _moved(t, "VH", "right")
    _moved(t, "VH", "left")                                   # back again: now under SSF
    assert t.state.market.price_order(t.state.grid, live) == ["SSF", "VH"]


def test_5_2_at_equal_prices_the_token_further_right_goes_first(table):
    t = table().stock_round().start("ann", "VH", 90).start("bob", "SSF", 70)
    _moved(t, "VH", "left", 2)                                # 70 at column 0 of row 2
    assert t.price("VH") == t.price("SSF") == 70
    assert t.state.market.price_order(t.state.grid, t.state.live_corps()) == ["SSF", "VH"]
    assert GAME.invariants(t.state) == []
