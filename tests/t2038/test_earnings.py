"""Earnings, dividends and stock moves (7.2): Figures 7 and 9, the 7.2 example and Independents."""
from t2038 import commands as cmd
from t2038 import events as ev

from .helpers import game, given, of_type, price, refused, tile_of, when
from .stock_fixtures import ALL_SOLD
from .test_routes import fly


def tsi_operating(earnings: int, short: bool = True, units=None):
    """TSI (Short game, $67) operating with routes already flown for `earnings`."""
    units = units or {"ann": 2, "bob": 1, "cy": 1, "dee": 1}
    events = list(ALL_SOLD)
    for player, count in units.items():
        events.append(ev.SharesMoved(corp="TSI", source="ipo", destination=f"p:{player}", units=count))
    par = 67 if short else 100
    events += [ev.CorporationLaunched(corp="TSI", player="ann", par=par),
               ev.StockPriceMoved(corp="TSI", row=4 if short else 1, column=4),
               ev.CorporationActivated(corp="TSI"),
               ev.RoundStarted(kind="operating", set_number=1, or_number=1),
               ev.OperatorStarted(operator="c:TSI")]
    if earnings:
        events += [ev.RouteStarted(ship="P", hex="K9", movement=4, holds=0),
                   ev.RouteEnded(ship="P", value=earnings, delivered=True)]
    return given(game(short=short), *events)


def test_figure_7_zero_earnings_slide_left_from_67_to_59():
    state, events = when(tsi_operating(0), "ann", cmd.DeclareEarnings(choice="full"))
    assert price(state, "TSI") == 59


def test_figure_7_paying_170_in_full_gives_17_a_share_and_moves_right_two():
    state = given(tsi_operating(170), ev.StockPriceMoved(corp="TSI", row=4, column=3))
    state, events = when(state, "ann", cmd.DeclareEarnings(choice="full"))
    assert of_type(events, ev.EarningsDeclared)[0].per_share == 17
    assert price(state, "TSI") == 76 and state.cash("p:ann") == 450 + 34


def test_figure_7_paying_half_keeps_80_pays_9_and_moves_right_one():
    state = given(tsi_operating(170), ev.StockPriceMoved(corp="TSI", row=4, column=3))
    state, events = when(state, "ann", cmd.DeclareEarnings(choice="half"))
    declared = of_type(events, ev.EarningsDeclared)[0]
    assert (declared.retained, declared.per_share) == (80, 9)
    assert price(state, "TSI") == 67 and state.cash("c:TSI") == 80


def test_rule_7_2_example_250_paid_half_keeps_120_and_pays_13():
    state, events = when(tsi_operating(250), "ann", cmd.DeclareEarnings(choice="half"))
    declared = of_type(events, ev.EarningsDeclared)[0]
    assert (declared.retained, declared.per_share) == (120, 13)


def test_market_shares_pay_their_dividend_into_the_treasury_but_public_box_shares_do_not():
    state = given(tsi_operating(100), ev.SharesMoved(corp="TSI", source="ipo", destination="market", units=2))
    state, _ = when(state, "ann", cmd.DeclareEarnings(choice="full"))
    assert state.cash("c:TSI") == 2 * 10                      # 3 units still in the public box earn nothing


def test_retaining_moves_the_price_left():
    state, _ = when(tsi_operating(100), "ann", cmd.DeclareEarnings(choice="retain"))
    assert price(state, "TSI") == 59 and state.cash("c:TSI") == 100


def test_an_independent_splits_with_the_treasury_taking_the_smaller_half_or_retains():
    state = given(game(), *ALL_SOLD, ev.RoundStarted(kind="operating", set_number=1, or_number=1),
                  ev.OperatorStarted(operator="i:1"), ev.RouteStarted(ship="x", hex="G7", movement=3, holds=2),
                  ev.RouteEnded(ship="x", value=50, delivered=True))
    refused(state, "bob", cmd.DeclareEarnings(choice="full"), "BAD_CHOICE")
    after, _ = when(state, "bob", cmd.DeclareEarnings(choice="split"))
    assert after.cash("i:1") == 25 and after.cash("p:bob") == 450 + 25
    after, _ = when(state, "bob", cmd.DeclareEarnings(choice="retain"))
    assert after.cash("i:1") == 50


def figure_9_board():
    """TSI in Phase II with a 5/1, 3/2, 6/2 and 4/3, six claims and a refuelling station at M5."""
    tile = {"K7": tile_of("N20+R30"), "L6": 12, "L10": 13, "M9": 14, "L8": tile_of("R40")}
    events = [ev.HexExplored(hex=h, tile=t) for h, t in tile.items()]
    claims = [("K7", 0), ("K7", 1), ("L6", 0), ("L10", 0), ("M9", 0), ("L8", 0)]
    events += [ev.ClaimPlaced(holder="c:TSI", hex=h, mine=m, price=0) for h, m in claims]
    events += [ev.PhaseChanged(phase=2), ev.ShipRemoved(ship="P", to="gone"),
               ev.ShipBought(ship="1.01", buyer="c:TSI", kind="scout", price=0),
               ev.ShipBought(ship="1.02", buyer="c:TSI", kind="tug", price=0),
               ev.ShipBought(ship="2.01", buyer="c:TSI", kind="scout", price=0),
               ev.ShipBought(ship="2.02", buyer="c:TSI", kind="tug", price=0),
               ev.StationPlaced(corp="TSI", hex="M5", price=0)]
    return given(tsi_operating(0, short=False, units={"ann": 5, "bob": 3, "cy": 2}), *events)


def test_figure_9_tsi_runs_four_ships_for_540_and_pays_54_a_share():
    state = figure_9_board()
    routes = [
        ("1.02", [cmd.Move(hex="K7"), cmd.PickUp(mine=0), cmd.Move(hex="L6"), cmd.PickUp(mine=0),
                  cmd.Move(hex="M5"), cmd.Move(hex="N4"), cmd.Move(hex="N2"), cmd.Move(hex="O1")], [], 140),
        ("1.01", [cmd.Move(hex="K7"), cmd.PickUp(mine=1), cmd.Move(hex="L6"), cmd.Move(hex="M5"),
                  cmd.Move(hex="L4", explore=True), cmd.Move(hex="K3"), cmd.Move(hex="J2")], ["R30"], 80),
        ("2.01", [cmd.Move(hex="L8"), cmd.PickUp(mine=0), cmd.Move(hex="M7", explore=True), cmd.Move(hex="M5"),
                  cmd.Move(hex="L4"), cmd.PickUp(mine=0), cmd.Move(hex="K3"), cmd.Move(hex="J2")], ["I40"], 140),
        ("2.02", [cmd.Move(hex="L10"), cmd.PickUp(mine=0), cmd.Move(hex="M9"), cmd.PickUp(mine=0),
                  cmd.Move(hex="M7"), cmd.PickUp(mine=0), cmd.Move(hex="M5"), cmd.Move(hex="N4"),
                  cmd.Move(hex="N2"), cmd.Move(hex="O1")], [], 180),
    ]
    treasury = state.cash("c:TSI")
    for ship, moves, draws, value in routes:
        state = fly(state, "ann", [cmd.StartRoute(ship=ship, base="K9"), *moves],
                    draws=[tile_of(kind, state) for kind in draws])
        state, events = when(state, "ann", cmd.EndRoute())
        assert of_type(events, ev.RouteEnded)[0].value == value
    assert state.earnings == 540 and state.cash("c:TSI") == treasury + 20
    state, events = when(state, "ann", cmd.DeclareEarnings(choice="full"))
    assert of_type(events, ev.EarningsDeclared)[0].per_share == 54
    assert state.cash("p:bob") == 450 + 3 * 54
