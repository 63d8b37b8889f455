"""The printed facts of `libs/trucker_rules/data/*.yaml` pinned entry by entry through the engine.

A data mutation sweep (each integer of the data files changed by one) found entries that no other test
held; each table here states the expected values with their source (the rulebook excerpt
`rules/trucker.txt` and the project's reference for Trucker, 2007 edition) and checks them through a
decision of the engine:
- Journey's End (`scoring.yaml`): the arrival rewards of every place in every round, the best-looking
  ship's reward per round, the sale value of each colour of goods.
- The boards (`boards.yaml`): every ship board's squares (placement) and the dice totals that miss it
  (meteors), the starting cabin's square, the ship class and the hourglass's space per round, one run
  of the sand, the reserve slots of each board, the start positions per round, the 40-space track.
"""
import pytest

from starbase_rules import FairRng, RuleViolation, fold
from trucker_rules import build_phase, building, track
from trucker_rules import flight_messages as f
from trucker_rules import messages as m
from trucker_rules.game import GAME, automatic_events
from trucker_rules.ship import Ship
from tests.trucker_rules.test_trucker_launch_and_scoring import repaired_table, scored
from tests.trucker_rules.trucker_helpers import BLOCK, FlightTable, Table, crewed, ship_of

CABINS = ("start-blue", "start-green", "start-red", "start-yellow")

# Reference scoring.yaml per_round (board art and digital mission configs): arrival rewards for the
# 1st..4th ship still flying, and the best-looking ship's reward. Round 3's values are the reference's
# inferred ones (RULINGS.md 13).
ARRIVAL = {1: [4, 3, 2, 1], 2: [8, 6, 4, 2], 3: [12, 9, 6, 3]}
BEST_LOOKING = {1: 2, 2: 4, 3: 6}


@pytest.mark.parametrize("round_no", [1, 2, 3])
def test_journeys_end_pays_each_place_its_arrival_reward_and_the_best_looking_reward(round_no):
    # Four bare starting cabins (4 exposed connectors each): all tie for best-looking, all are paid.
    names = ["ann", "bob", "cy", "dee"]
    state = repaired_table({n: crewed(ship_of({}, cabin=c)) for n, c in zip(names, CABINS)})
    state.round = round_no
    for place, name in enumerate(names):
        state.seats[name].position = 10 - 3 * place          # ann leads, dee is last
    paid = scored(state)
    assert [amount for _, reason, amount in paid if reason == "arrival"] == ARRIVAL[round_no]
    assert [p for p, reason, _ in paid if reason == "arrival"] == names
    assert {(p, amount) for p, reason, amount in paid if reason == "best_looking_ship"} == \
        {(n, BEST_LOOKING[round_no]) for n in names}


# Reference scoring.yaml goods_sale (board art): red 4, yellow 3, green 2, blue 1 credits.
@pytest.mark.parametrize("colour, value", [("red", 4), ("yellow", 3), ("green", 2), ("blue", 1)])
def test_each_good_sells_for_its_printed_value(colour, value):
    # A red (special) container takes any colour; one good alone in it.
    ann = crewed(ship_of({(8, 7): ("red1-02", 0)}), goods={(8, 7): [colour]})
    state = repaired_table({"ann": ann, "bob": crewed(ship_of({}, cabin="start-green"))})
    assert ("ann", "goods", value) in scored(state)


# ------------------------------------------------------------------------------------ boards.yaml
# Reference boards.yaml ship_boards (BGA, the digital adaptation and z2tb8e agree): each board's map,
# '#' a buildable square, 'S' the starting cabin on column 7, row 7; the first map column is the
# first printed column number, each line starts with its printed row number.
SHAPES = {
    "I": (5, """
        5  ..#..
        6  .###.
        7  ##S##
        8  #####
        9  ##.##"""),
    "II": (4, """
        4  ...#...
        5  ..###..
        6  .#####.
        7  .##S##.
        8  #######
        9  ###.###"""),
    "III": (3, """
        4  ....#....
        5  ...###...
        6  #.#####.#
        7  ####S####
        8  #########
        9  ##.###.##"""),
    "IIIa": (5, """
        3  .###.
        4  #####
        5  ##.##
        6  #####
        7  .#S#.
        8  #.#.#
        9  #####
        10 #####
        11 #.#.#"""),
}


def board_squares(name):
    first_column, drawing = SHAPES[name]
    squares = set()
    for line in drawing.strip().splitlines():
        row, cells = line.split()
        squares |= {(first_column + i, int(row)) for i, cell in enumerate(cells) if cell in "#S"}
    return squares


@pytest.mark.parametrize("board", list(SHAPES))
def test_a_component_may_go_only_on_the_squares_printed_on_each_ship_board(board):
    on_board = set()
    for column in range(1, 14):
        for row in range(1, 14):
            try:
                building.check_placement(Ship.new(board, "start-blue"), BLOCK, (column, row), 0)
                on_board.add((column, row))
            except RuleViolation as refusal:
                if refusal.code != "SQUARE_NOT_ON_BOARD":
                    on_board.add((column, row))     # on the board, refused for another reason
    assert on_board == board_squares(board)
    assert Ship.new(board, "start-blue").tiles.keys() == {(7, 7)}   # the starting cabin's square


def _first_hazard(board, dice):
    """The first HazardMet of a ship filling every square of `board`, under I-14's meteors (small ones
    from the front, rear, left, right: one 2d6 roll each)."""
    full = crewed(ship_of({sq: (BLOCK, 0) for sq in board_squares(board) - {(7, 7)}}, board=board))
    table = FlightTable({"ann": full, "bob": crewed(ship_of({}, cabin="start-green"))}, {"ann": 0, "bob": -2},
                        "I-14", dice=dice)
    return next(e for e in table.events if e.type == "HazardMet" and e.player == "ann"
                and e.result != "missed")


def _roll(total):
    return [1, total - 1] if total <= 7 else [total - 6, 6]


MISS = [1, 1]     # a total of 2 is no line of any board


@pytest.mark.parametrize("board", list(SHAPES))
def test_a_meteor_hits_every_column_and_row_that_has_squares_and_misses_the_others(board):
    # Rulebook/reference 7.1: the 2d6 total names the column (from the front) or row (from the side);
    # a total that is not on the ship board misses. A full ship has a component in every line it has.
    columns = {c for c, _ in board_squares(board)}
    rows = {r for _, r in board_squares(board)}
    for total in range(2, 13):
        try:
            hit = _first_hazard(board, _roll(total) + MISS * 3)
        except StopIteration:
            hit = None
        assert (hit is not None and hit.direction == "front" and hit.line == total) == (total in columns), total
        try:
            hit = _first_hazard(board, MISS * 2 + _roll(total) + MISS)
        except StopIteration:
            hit = None
        assert (hit is not None and hit.direction == "left" and hit.line == total) == (total in rows), total


def building_round(round_no, options=None):
    """A two-player table at the start of round `round_no`'s building, the sand started at 0."""
    table = Table(options=options)
    table.state = fold(GAME, build_phase.round_setup_events(table.state, round_no, table.rng), table.state)
    [started] = table.do("ann", m.StartBuilding(at=0.0))
    return table, started


# Reference boards.yaml building_timer: the hourglass starts on the round's space (I, II, III; START is
# space 0), one run is about 90 s (BGA), so a round has at most 2 / 3 / 4 runs. Ship class per round:
# the rulebook's "Course of the game" (Class I, II, III ships in rounds 1, 2, 3).
@pytest.mark.parametrize("round_no, ship_class", [(1, "I"), (2, "II"), (3, "III")])
def test_each_round_builds_its_class_and_the_hourglass_runs_from_its_space_down_to_start(round_no, ship_class):
    table, started = building_round(round_no)
    assert {table.seat(n).ship.board for n in ("ann", "bob")} == {ship_class}
    assert (started.timer_space, started.runs_out_at) == (round_no, 90.0)
    table.do("bob", m.Finish())          # only a finished player may move it onto START
    at = 90.0
    for space in range(round_no - 1, -1, -1):
        [turned] = table.do("bob", m.TurnTimer(at=at))
        assert (turned.timer_space, turned.runs_out_at) == (space, at + 90.0)
        at += 90.0
    table.refused("bob", m.TurnTimer(at=at), "TIMER_ON_START")


# Reference boards.yaml reserve: 2 reserve slots beside every ship board (RULINGS.md 3: round 1 too).
@pytest.mark.parametrize("round_no, options", [(1, {}), (2, {}), (3, {}), (3, {"round3_board": "IIIa"})])
def test_every_ship_board_has_two_reserve_slots(round_no, options):
    table, _ = building_round(round_no, options)
    for _ in range(2):
        table.do("ann", m.GrabFaceDown())
        table.do("ann", m.ReserveComponent())
    table.do("ann", m.GrabFaceDown())
    table.refused("ann", m.ReserveComponent(), "RESERVE_FULL")


# Reference boards.yaml flight_board.start_positions: the holders of order tiles 1..4 start 0, -(r+1),
# -2(r+1), -3(r+1) spaces from the start space in round r.
@pytest.mark.parametrize("round_no, positions", [(1, [0, -2, -4, -6]), (2, [0, -3, -6, -9]), (3, [0, -4, -8, -12])])
def test_ships_launch_on_the_start_positions_of_their_order_tiles(round_no, positions):
    names = ["ann", "bob", "cy", "dee"]
    state = repaired_table({n: ship_of({}, cabin=c) for n, c in zip(names, CABINS)})
    state.round = round_no
    launched = [e for e in automatic_events(state, FairRng(b"launch")) if isinstance(e, f.ShipLaunched)]
    assert [(e.player, e.position) for e in launched] == list(zip(names, positions))


# Reference boards.yaml flight_board: a loop of 40 spaces; a ship the leader has lapped (40 or more
# spaces behind, RULINGS.md 9) gives up, and a moving ship jumps a ship a whole lap away (same space).
def test_the_flight_board_has_forty_spaces():
    cabins = {"ann": crewed(ship_of({})), "bob": crewed(ship_of({}, cabin="start-green"))}
    lapped = FlightTable(cabins, {"ann": 0, "bob": -40}, "II-20")
    assert lapped.of("ShipGaveUp") == [f.ShipGaveUp(player="bob", reason="lapped")]
    cabins = {"ann": crewed(ship_of({})), "bob": crewed(ship_of({}, cabin="start-green"))}
    behind = FlightTable(cabins, {"ann": 0, "bob": -39}, "II-20")
    assert behind.of("ShipGaveUp") == []
    seats = behind.state.seats
    for name, position in (("ann", 2), ("bob", -39)):     # -38 is space 2 of the loop, a lap behind ann
        seats[name].position, seats[name].gave_up = position, False
    assert track.move(behind.state, "bob", 1) == -37

