"""Flying routes hex by hex (7.1): Figure 6, Figure 9 and the refusals."""
from t2038 import commands as cmd
from t2038 import events as ev

from .helpers import Rigged, game, given, of_type, refused, tile_of, when
from .stock_fixtures import ALL_SOLD


def ore_crusher_with_a_scout():
    """Figure 6, OR 2: Ore Crusher (bought for $100) owns the 5/1 Scout it bought in OR 1."""
    return given(game(), *ALL_SOLD,
                 ev.CashMoved(source="p:ann", destination="i:4", amount=100),
                 ev.CashMoved(source="i:4", destination="bank", amount=100),
                 ev.ShipBought(ship="1.01", buyer="i:4", kind="scout", price=100),
                 ev.RoundStarted(kind="operating", set_number=1, or_number=2),
                 ev.OperatorStarted(operator="i:4"))


def fly(state, player, commands, draws=()):
    wanted = list(draws)
    for command in commands:
        rng = Rigged(state, wanted[:2])
        state, events = when(state, player, command, rng)
        wanted = wanted[len(rng.given):]
    return state


def test_figure_6_ore_crusher_explores_twice_and_delivers_nickel_to_lunar_enterprises_for_40():
    state = ore_crusher_with_a_scout()
    n20 = tile_of("N20")
    state = fly(state, "ann", [cmd.StartRoute(ship="1.01", base="M5"), cmd.Move(hex="N4", explore=True),
                               cmd.Move(hex="N2", explore=True), cmd.PickUp(mine=0), cmd.Move(hex="O1")],
                draws=[tile_of("N10+I30"), n20])
    assert state.flight.movement == 0 and state.cash("i:4") == 20          # two survey payments
    state, events = when(state, "ann", cmd.EndRoute())
    assert of_type(events, ev.RouteEnded)[0].value == 40                 # 20 ore + 10 LE base + 10 Ore Crusher
    state, _ = when(state, "ann", cmd.DeclareEarnings(choice="retain"))
    assert state.cash("i:4") == 60
    state, _ = when(state, "ann", cmd.PlaceClaim(hex="N2", mine=0))
    assert state.cash("i:4") == 0 and state.claims["N2/0"] == "i:4"
    # OR 3: explore C, then deliver the claimed Nickel for $80.
    state = given(state, ev.OperatorFinished(operator="i:4"),
                  ev.RoundStarted(kind="operating", set_number=2, or_number=1), ev.OperatorStarted(operator="i:4"))
    state = fly(state, "ann", [cmd.StartRoute(ship="1.01", base="M5"), cmd.Move(hex="M3", explore=True),
                               cmd.Move(hex="N2"), cmd.PickUp(mine=0), cmd.Move(hex="O1")],
                draws=[tile_of("N10", state)])
    state, events = when(state, "ann", cmd.EndRoute())
    assert of_type(events, ev.RouteEnded)[0].value == 80 and state.cash("i:4") == 10


def test_route_refusals_leave_the_state_unchanged():
    state = ore_crusher_with_a_scout()
    refused(state, "ann", cmd.StartRoute(ship="1.01", base="K9"), "NOT_YOUR_BASE")
    refused(state, "ann", cmd.StartRoute(ship="1.02", base="M5"), "NOT_YOUR_SHIP")
    refused(state, "bob", cmd.StartRoute(ship="1.01", base="M5"), "NOT_YOUR_TURN")
    refused(state, "ann", cmd.Move(hex="N4"), "NO_ROUTE")
    state, _ = when(state, "ann", cmd.StartRoute(ship="1.01", base="M5"))
    refused(state, "ann", cmd.Move(hex="O1"), "NOT_ADJACENT")
    refused(state, "ann", cmd.PickUp(mine=0), "NO_MINE_HERE")
    refused(state, "ann", cmd.Move(hex="M5", explore=True), "NOT_ADJACENT")
    state = fly(state, "ann", [cmd.Move(hex="N4", explore=True), cmd.Move(hex="N2", explore=True)],
                draws=[tile_of("N20"), tile_of("N10")])
    refused(state, "ann", cmd.Move(hex="M1", explore=True), "NO_MOVEMENT_LEFT")
    refused(state, "ann", cmd.Move(hex="N4", explore=True), "ALREADY_EXPLORED")
    state, _ = when(state, "ann", cmd.PickUp(mine=0))
    refused(state, "ann", cmd.PickUp(mine=0), "HOLDS_FULL")
    state, _ = when(state, "ann", cmd.EndRoute())
    refused(state, "ann", cmd.StartRoute(ship="1.01", base="M5"), "SHIP_ALREADY_FLEW")


def test_a_route_ending_in_space_earns_nothing_but_keeps_the_survey_payment():
    state = ore_crusher_with_a_scout()
    state = fly(state, "ann", [cmd.StartRoute(ship="1.01", base="M5"), cmd.Move(hex="N4", explore=True),
                               cmd.PickUp(mine=0)], draws=[tile_of("N20")])
    state, events = when(state, "ann", cmd.EndRoute())
    assert of_type(events, ev.RouteEnded)[0] == ev.RouteEnded(ship="1.01", value=0, delivered=False)
    assert state.cash("i:4") == 10


def test_an_empty_hold_at_a_transshipment_point_earns_its_lower_value():
    state = given(ore_crusher_with_a_scout(), ev.OperatorFinished(operator="i:4"),
                  ev.ShipBought(ship="1.02", buyer="i:1", kind="tug", price=100),
                  ev.OperatorStarted(operator="i:1"))
    state = fly(state, "bob", [cmd.StartRoute(ship="1.02", base="G7"), cmd.Move(hex="H8", explore=True),
                               cmd.PickUp(mine=0), cmd.Move(hex="H10")], draws=[tile_of("N20")])
    state, events = when(state, "bob", cmd.EndRoute())
    assert of_type(events, ev.RouteEnded)[0].value == 20 + 30


def test_a_mine_gives_one_pickup_per_round_and_a_claimed_mine_only_to_its_owner():
    n20 = tile_of("N20")
    state = given(ore_crusher_with_a_scout(), ev.HexExplored(hex="N4", tile=n20),
                  ev.HexExplored(hex="L4", tile=tile_of("N10")),
                  ev.ClaimPlaced(holder="i:1", hex="L4", mine=0, price=60),
                  ev.ShipBought(ship="1.02", buyer="i:4", kind="tug", price=100))
    state = fly(state, "ann", [cmd.StartRoute(ship="1.01", base="M5"), cmd.Move(hex="N4"), cmd.PickUp(mine=0),
                               cmd.EndRoute(), cmd.StartRoute(ship="1.02", base="M5"), cmd.Move(hex="N4")])
    refused(state, "ann", cmd.PickUp(mine=0), "MINE_USED")
    state = fly(state, "ann", [cmd.Move(hex="M3"), cmd.Move(hex="L4")])
    refused(state, "ann", cmd.PickUp(mine=0), "MINE_CLAIMED")


def test_ice_finder_places_a_second_tile_when_the_first_has_no_ice():
    state = given(ore_crusher_with_a_scout(), ev.OperatorFinished(operator="i:4"),
                  ev.ShipBought(ship="1.02", buyer="i:2", kind="scout", price=100), ev.OperatorStarted(operator="i:2"))
    first, second = tile_of("N20"), tile_of("N10")
    state, _ = when(state, "cy", cmd.StartRoute(ship="1.02", base="M13"))
    state, events = when(state, "cy", cmd.Move(hex="N12", explore=True), Rigged(state, [first, second]))
    assert of_type(events, ev.HexExplored)[0] == ev.HexExplored(hex="N12", tile=second, rejected=[first])
    assert first in state.pool and state.tiles["N12"] == second


def test_lucky_draws_two_tiles_and_places_the_one_it_chooses():
    state = given(ore_crusher_with_a_scout(), ev.OperatorFinished(operator="i:4"),
                  ev.ShipBought(ship="1.02", buyer="i:6", kind="scout", price=100), ev.OperatorStarted(operator="i:6"))
    a, b = tile_of("N10"), tile_of("I50")
    state, _ = when(state, "cy", cmd.StartRoute(ship="1.02", base="H14"))
    state, _ = when(state, "cy", cmd.Move(hex="H12", explore=True), Rigged(state, [a, b]))
    refused(state, "cy", cmd.Move(hex="H10"), "TILE_CHOICE_PENDING")
    refused(state, "cy", cmd.ChooseTile(tile=99), "NOT_OFFERED")
    state, events = when(state, "cy", cmd.ChooseTile(tile=b))
    assert state.tiles["H12"] == b and a in state.pool


def test_torch_ships_move_one_extra_hex():
    state = given(ore_crusher_with_a_scout(), ev.OperatorFinished(operator="i:4"),
                  ev.ShipBought(ship="1.02", buyer="i:5", kind="tug", price=100), ev.OperatorStarted(operator="i:5"))
    state, _ = when(state, "bob", cmd.StartRoute(ship="1.02", base="B6"))
    assert state.flight.movement == 4
