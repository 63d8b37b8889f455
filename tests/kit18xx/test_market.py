from kit18xx.market import MarketGrid, MarketState

GRID = MarketGrid.from_data({
    "grid": [[None, 100, 110],
             [70, 80, 90],
             [0, 60, None]],
    "closed_boxes": [{"row": 2, "col": 0}],
    "par_boxes": [{"row": 1, "col": 1}],
    "edge_rules": {"left": "down", "right": "up"},
})


def test_token_moving_into_an_occupied_box_goes_to_the_bottom():
    market = MarketState()
    market.place("A", 1, 1)
    market.place("B", 1, 0)
    market.move(GRID, "B", "right")
    assert market.stacks["1,1"] == ["A", "B"]
    assert market.price_order(GRID, ["A", "B"]) == ["A", "B"]


def test_up_at_the_top_edge_does_not_move():
    market = MarketState()
    market.place("A", 0, 1)
    assert market.move(GRID, "A", "up") == (0, 1)


def test_right_at_the_right_edge_moves_up_and_left_at_left_edge_moves_down():
    market = MarketState()
    market.place("A", 1, 2)
    assert market.move(GRID, "A", "right") == (0, 2)
    market.place("B", 1, 0)
    assert market.move(GRID, "B", "left") == (2, 0)
    assert GRID.is_closed(2, 0)


def test_edge_behaviour_is_data():
    grid = MarketGrid(GRID.rows, edge_rules=(("right", "down"),))
    market = MarketState()
    market.place("A", 1, 2)
    assert market.move(grid, "A", "right") == (1, 2)   # nothing below 90: stays
    market.place("A", 0, 2)
    assert market.move(grid, "A", "right") == (1, 2)


def test_down_where_no_box_below_does_not_move():
    market = MarketState()
    market.place("A", 1, 2)
    assert market.move(GRID, "A", "down") == (1, 2)


def test_descending_price_order_prefers_price_then_right_then_top_of_stack():
    market = MarketState()
    market.place("LOW", 2, 1)        # 60
    market.place("R", 1, 2)          # 90
    market.place("X", 0, 1)          # 100
    market.place("Y", 0, 1)          # 100, under X
    assert market.price_order(GRID, ["LOW", "R", "X", "Y"]) == ["X", "Y", "R", "LOW"]
    grid = MarketGrid(((80, 80),))
    tie = MarketState()
    tie.place("L", 0, 0)
    tie.place("RIGHT", 0, 1)
    assert tie.price_order(grid, ["L", "RIGHT"]) == ["RIGHT", "L"]


def test_two_steps_right():
    market = MarketState()
    market.place("A", 1, 0)
    assert market.move(GRID, "A", "right", 2) == (1, 2)
