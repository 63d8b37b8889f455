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
- The cards (`cards.yaml`): each pile's cards per round, each card's numbers (days, crew, credits, firepower, goods lost).
- The components (`components.yaml`): the capacity of every battery component and cargo hold.
"""
from collections import Counter

import pytest

from starbase_rules import FairRng, RuleViolation, fold
from trucker_rules import build_phase, building, track
from trucker_rules import flight_messages as f
from trucker_rules import messages as m
from trucker_rules.game import GAME, automatic_events
from trucker_rules.ship import Placed, Ship
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


# ------------------------------------------------------------------------------------- cards.yaml
# Ships on a Class III board made to measure: `crew` humans (2 per cabin, the starting cabin first),
# `cannons` simple cannons facing the front (firepower 1 each, rules summary 5), `engines` simple
# engines, and with `cargo` five goods: yellow x3 in a 3-hold, green and blue in a 2-hold (most valuable
# first, so losing n goods leaves 5 - n, never a choice of holds).
CABIN_SQUARES = [(6, 7), (8, 7), (5, 7), (9, 7), (4, 7)]
CANNON_SQUARES = [(7, 4), (6, 5), (7, 5), (8, 5), (3, 6), (5, 6), (6, 6), (7, 6), (8, 6), (9, 6), (11, 6)]
ENGINE_SQUARES = [(7, 9), (6, 9)]


def made(crew=2, cannons=0, engines=0, cargo=False, cabin="start-blue"):
    tiles = {sq: ("cab-01", 0) for sq in CABIN_SQUARES[:max(0, (crew - 1) // 2)]}
    tiles |= {sq: ("can-01", 0) for sq in CANNON_SQUARES[:cannons]}
    tiles |= {sq: ("eng-01", 0) for sq in ENGINE_SQUARES[:engines]}
    goods = {}
    if cargo:
        tiles |= {(6, 8): ("crg3-01", 0), (8, 8): ("crg2-01", 0)}
        goods = {(6, 8): ["yellow"] * 3, (8, 8): ["green", "blue"]}
    humans, left = {}, crew
    for square in [(7, 7)] + CABIN_SQUARES:
        if left > 0:
            humans[square], left = min(2, left), left - min(2, left)
    return crewed(ship_of(tiles, board="III", cabin=cabin), humans=humans, goods=goods)


def goods_left(table, player):
    """How many goods `player` keeps after the card (5 if the card set no cargo of theirs)."""
    cargo = table.of("CargoSet", player=player)
    return sum(len(g) for _, g in cargo[-1].cargo) if cargo else 5



# Reference cards.yaml deck_per_round (BGA): each of the 4 piles holds 2 level I cards in round 1;
# 1 level I and 2 level II in round 2; 1 level I, 1 level II and 2 level III in round 3.
@pytest.mark.parametrize("round_no, recipe", [(1, {"I": 2}), (2, {"I": 1, "II": 2}), (3, {"I": 1, "II": 1, "III": 2})])
def test_each_pile_holds_the_rounds_cards_of_each_level(round_no, recipe):
    table, _ = building_round(round_no)
    table.state.face_down.remove("str-02")                  # ann has built one component: she may look
    table.seat("ann").ship.tiles[(7, 8)] = Placed("str-02", 0)
    for pile in (1, 2, 3):
        [taken] = table.do("ann", m.LookAtPile(pile=pile))
        assert Counter(card.split("-")[0] for card in taken.cards) == recipe    # a card's id names its level
        table.do("ann", m.PutBackPile())


# Reference cards.yaml (digital basic_deck, z2tb8e and BGA agree): planets' flight days lost.
@pytest.mark.parametrize("card, days", [("I-05", 2), ("I-06", 2), ("I-07", 3), ("I-08", 3),
                                        ("II-04", 2), ("II-05", 3), ("II-06", 3), ("II-07", 4),
                                        ("III-04", 1), ("III-05", 2), ("III-06", 3), ("III-07", 5)])
def test_landing_on_a_planet_costs_the_cards_flight_days(card, days):
    table = FlightTable({"ann": made(), "bob": made(cabin="start-green")}, {"ann": 0, "bob": -10}, card)
    assert table.ask["kind"] == "planet" and table.ask["options"]["days"] == days
    table.do("ann", f.ChoosePlanet(planet=0))
    table.do("bob", f.ChoosePlanet(planet=None))
    assert table.of("ShipMoved") == [f.ShipMoved(player="ann", days=-days, position=-days)]


# Reference cards.yaml: abandoned ships (crew given up, credits, days lost).
@pytest.mark.parametrize("card, crew, credits, days", [("I-09", 2, 3, 1), ("I-10", 3, 4, 1), ("II-08", 4, 6, 1),
                                                       ("II-09", 5, 8, 2), ("III-08", 6, 10, 2), ("III-09", 7, 11, 2)])
def test_an_abandoned_ship_needs_its_crew_and_pays_its_credits_for_its_days(card, crew, credits, days):
    # ann (the leader) is one short and is not asked; bob has exactly the crew and gives all of it up.
    table = FlightTable({"ann": made(crew - 1), "bob": made(crew, cabin="start-green")}, {"ann": 0, "bob": -20}, card)
    assert table.ask["player"] == "bob"
    assert table.ask["options"] == {"crew_lost": crew, "credits": credits, "days": days}
    table.do("bob", f.AnswerOffer(accept=True))
    assert table.of("CreditsPaid") == [f.CreditsPaid(player="bob", amount=credits, reason="abandoned_ship")]
    assert len(table.of("CrewLost")[0].losses) == crew
    assert table.of("ShipMoved") == [f.ShipMoved(player="bob", days=-days, position=-20 - days)]


# Reference cards.yaml: abandoned stations (crew needed, days lost).
@pytest.mark.parametrize("card, crew, days", [("I-11", 5, 1), ("I-12", 6, 1), ("II-10", 7, 1), ("II-11", 8, 2),
                                              ("III-10", 9, 2), ("III-11", 10, 2)])
def test_an_abandoned_station_needs_its_crew_and_costs_its_days(card, crew, days):
    table = FlightTable({"ann": made(crew - 1), "bob": made(crew, cabin="start-green")}, {"ann": 0, "bob": -20}, card)
    assert table.ask["player"] == "bob" and table.ask["options"]["days"] == days
    table.do("bob", f.AnswerOffer(accept=True))
    assert table.of("ShipMoved") == [f.ShipMoved(player="bob", days=-days, position=-20 - days)]
    assert not table.of("CrewLost")


# Reference cards.yaml: enemies (firepower; penalty: goods or crew lost; reward: credits; days lost).
# ann has exactly the enemy's firepower (nothing happens), bob none (the penalty), cy one more (the reward).
ENEMIES = [("I-17", 4, {"goods_lost": 2}, None, 1), ("II-16", 8, {"goods_lost": 3}, None, 1),
           ("III-16", 9, {"goods_lost": 4}, None, 2),
           ("I-18", 6, {"crew_lost": 3}, 5, 1), ("II-17", 7, {"crew_lost": 4}, 8, 2), ("III-17", 8, {"crew_lost": 5}, 10, 2),
           ("I-19", 5, {}, 4, 1), ("II-18", 6, {}, 7, 2), ("III-18", 10, {}, 12, 2)]


@pytest.mark.parametrize("card, firepower, penalty, credits, days", ENEMIES)
def test_an_enemy_is_beaten_only_by_more_firepower_and_pays_or_punishes_by_its_card(card, firepower, penalty,
                                                                                  credits, days):
    crew_lost = penalty.get("crew_lost", 0)
    ships = {"ann": made(cannons=firepower, cargo=True),
             "bob": made(crew=crew_lost + 1, cargo=True, cabin="start-green"),
             "cy": made(cannons=firepower + 1, cabin="start-red")}
    table = FlightTable(ships, {"ann": 0, "bob": -3, "cy": -6}, card, dice=MISS * 6)
    if crew_lost:
        assert table.ask["player"] == "bob" and table.ask["options"]["count"] == crew_lost
        humans = [(tuple(sq), "human") for sq, n in table.ask["options"]["humans"] for _ in range(n)]
        table.do("bob", f.ChooseCrewLoss(losses=humans[:crew_lost]))
    assert table.ask["player"] == "cy" and table.ask["options"]["days"] == days
    table.do("cy", f.AnswerOffer(accept=True))
    assert goods_left(table, "ann") == 5 and not table.of("CrewLost", player="ann")   # equal: nothing happens
    assert goods_left(table, "bob") == 5 - penalty.get("goods_lost", 0)
    assert [(e.player, e.amount) for e in table.of("CreditsPaid")] == ([("cy", credits)] if credits else [])
    assert table.of("ShipMoved") == [f.ShipMoved(player="cy", days=-days, position=-6 - days)]



# Reference cards.yaml: the combat zones' penalties (days lost, crew lost, goods lost; the third line's
# cannon fire has no number). bob is the weakest in every test (fewer crew, no engine, no cannon).
@pytest.mark.parametrize("card, days, crew_lost, goods_lost", [("I-16", 3, 2, 0), ("II-15", 4, 0, 3),
                                                               ("III-15", 0, 4, 4)])
def test_the_combat_zone_punishes_the_weakest_by_its_card(card, days, crew_lost, goods_lost):
    ships = {"ann": made(crew=8, cannons=1, engines=1), "bob": made(crew=crew_lost + 1, cargo=True, cabin="start-green")}
    table = FlightTable(ships, {"ann": 0, "bob": -3}, card, dice=MISS * 6)
    asked = []
    while table.ask and table.ask["kind"] == "crew":
        asked.append(table.ask["options"]["count"])
        humans = [(tuple(sq), "human") for sq, n in table.ask["options"]["humans"] for _ in range(n)]
        table.do("bob", f.ChooseCrewLoss(losses=humans[:asked[-1]]))
    assert asked == ([crew_lost] if crew_lost else [])
    assert table.of("ShipMoved") == ([f.ShipMoved(player="bob", days=-days, position=-3 - days)] if days else [])
    assert goods_left(table, "bob") == 5 - goods_lost
    assert not table.of("CrewLost", player="ann")


# -------------------------------------------------------------------------------- components.yaml
# Reference components.yaml (BGA, z2tb8e and the digital adaptation agree): the 2007 warehouse's
# battery components (9 of 2 tokens, 6 of 3), cargo holds (9 of 2, 6 of 3) and red containers
# (6 of 1, 3 of 2); the project's ids number each family.
def family(prefix, count, capacity):
    return [(f"{prefix}-{n:02d}", capacity) for n in range(1, count + 1)]


BATTERIES = family("bat2", 9, 2) + family("bat3", 6, 3)
HOLDS = family("crg2", 9, 2) + family("crg3", 6, 3) + family("red1", 6, 1) + family("red2", 3, 2)


def test_each_battery_component_is_filled_to_its_capacity_at_launch():
    # Rules summary 4: every battery component is filled to its capacity (2 or 3 tokens).
    free = sorted(board_squares("III") - {(7, 7)})
    ship = ship_of({sq: (tile, 0) for sq, (tile, _) in zip(free, BATTERIES)}, board="III")
    state = repaired_table({"ann": ship, "bob": ship_of({}, cabin="start-green")})
    [launched] = [e for e in automatic_events(state, FairRng(b"launch"))
                  if isinstance(e, f.ShipLaunched) and e.player == "ann"]
    assert {ship.tiles[sq].component: tokens for sq, tokens in launched.batteries} == dict(BATTERIES)


@pytest.mark.parametrize("hold, capacity", HOLDS)
def test_each_cargo_hold_takes_as_many_goods_as_its_capacity(hold, capacity):
    # I-07's first planet offers red, green and three blue: more than any one hold takes, so its owner
    # must choose what to keep (ruling 7); a hold may be filled to its capacity and not beyond.
    ann = crewed(ship_of({(8, 7): (hold, 0)}))
    table = FlightTable({"ann": ann, "bob": crewed(ship_of({}, cabin="start-green"))}, {"ann": 0, "bob": -10}, "I-07")
    table.do("ann", f.ChoosePlanet(planet=0))
    table.do("bob", f.ChoosePlanet(planet=None))
    assert table.ask["kind"] == "cargo"
    load = ["blue", "blue", "blue", "green"]
    table.refused("ann", f.ArrangeCargo(cargo=[((8, 7), load[:capacity + 1])]), "BAD_CARGO")
    table.do("ann", f.ArrangeCargo(cargo=[((8, 7), load[:capacity])]))
    assert table.of("CargoSet", player="ann")[-1].cargo == [((8, 7), load[:capacity])]
