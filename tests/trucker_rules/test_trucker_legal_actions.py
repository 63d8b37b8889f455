"""`legal_actions` lists full commands: each parses and `decide` accepts it in the state it was listed
for. Whole games played by picking uniformly among them, with the invariants after every event; where
the choice is small the list is complete (placements, moves of the newest tile, decision answers)."""
import json
import random

import pytest

from starbase_rules import FairRng, RuleViolation, fold
from starbase_rules.playout import playout
from trucker_rules import catalog
from trucker_rules import flight_messages as f
from trucker_rules import messages as m
from trucker_rules.game import GAME
from tests.trucker_rules.test_trucker_owner_choices import TWO_HOLDS, _on_a_planet, _smuggled, cabin_only
from tests.trucker_rules.trucker_helpers import BLOCK, FlightTable, Table, crewed, ship_of


def accepted(state, player: str, action: dict) -> bool:
    try:
        GAME.decide(state, GAME.parse_command(action), player, FairRng(b"legal"))
        return True
    except RuleViolation:
        return False


def assert_all_accepted(state, players) -> dict[str, list[dict]]:
    offered = {p: GAME.legal_actions(state, p) for p in players}
    for player, actions in offered.items():
        for action in actions:
            command = GAME.parse_command(action)
            assert command.model_dump(mode="json") == action          # a full command: every field named
            assert accepted(state, player, action), (state.phase, player, action)
    return offered


def play_randomly(players: int, seed: int, options: dict | None = None):
    """A whole game, each step a uniform choice among the legal actions of a player who owes a move
    (now and then of any player with a move, e.g. a pile to look at or giving up)."""
    names = [f"p{i}" for i in range(players)]
    rng, rnd = FairRng(f"random-legal-{seed}".encode()), random.Random(seed)
    events, chosen = GAME.setup(names, options or {}, rng), set()
    state = fold(GAME, events)
    while GAME.outcome(state) is None:
        assert len(events) < 100_000
        offered = assert_all_accepted(state, names)
        owing = [p for p in GAME.to_act(state) if offered[p]]
        movers = owing if owing and rnd.random() > 0.05 else [p for p in names if offered[p]]
        assert movers, f"nobody may act in {state.phase} and the game is not over"
        player = rnd.choice(movers)
        action = rnd.choice(offered[player])
        chosen.add(action["type"])
        before = state.clone()
        new = GAME.decide(state, GAME.parse_command(action), player, rng)
        assert state == before, f"decide changed the state it was given ({action})"
        for event in new:
            stored = json.loads(json.dumps(event.model_dump(mode="json")))
            assert GAME.parse_event(stored) == event
            state = GAME.evolve(state, event)
            assert GAME.invariants(state) == [], (event.type, GAME.invariants(state))
        events += new
    return state, events, chosen


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (2, 4), (3, 5), (4, 6), (4, 7)])
def test_whole_games_picking_uniformly_among_the_legal_actions_keep_every_invariant(players, seed):
    state, events, chosen = play_randomly(players, seed)
    assert state.finished_rounds == 3 and GAME.outcome(state) is not None
    assert fold(GAME, [GAME.parse_event(e.model_dump(mode="json")) for e in events]) == state
    assert {"StartBuilding", "GrabFaceDown", "Finish"} <= chosen


def test_random_legal_play_reaches_every_kind_of_building_move_and_repair():
    chosen = set()
    for seed in range(10, 22):
        chosen |= play_randomly(2 + seed % 3, seed, {"refuse_flawed_placements": seed % 2 == 0})[2]
    assert {"GrabFaceDown", "GrabFaceUp", "TakeReserved", "PlaceComponent", "MoveNewest", "ReturnComponent",
            "ReserveComponent", "LookAtPile", "PutBackPile", "TurnTimer", "Finish", "RepairShip", "GiveUp",
            "ChoosePlanet"} <= chosen


def test_in_bot_games_every_answer_offered_to_every_decision_is_accepted():
    kinds = set()
    for seed in range(4):
        result = playout(GAME, ["a", "b", "c"], seed, check=False)
        state = GAME.initial_state()
        for event in result.events:
            state = GAME.evolve(state, event)
            if event.type == "DecisionRequested":
                kinds.add(event.kind)
                offered = assert_all_accepted(state, state.players)
                assert offered[event.player], event.kind
    assert {"aliens", "engines", "cannons", "planet", "offer", "crew", "cargo"} <= kinds


# ------------------------------------------------------------------------------ building, complete
@pytest.fixture
def table():
    t = Table(("ann", "bob", "cy"))
    t.do("ann", m.StartBuilding(at=0.0))
    return t


def every_spot(board: str):
    return [(sq, r) for sq in sorted(catalog.ship_board(board).squares) for r in range(4)]


def test_every_placement_the_rules_accept_is_listed_and_nothing_else(table):
    for _ in range(6):
        table.do("ann", m.GrabFaceDown())
        listed = {(tuple(a["square"]), a["rotation"]) for a in GAME.legal_actions(table.state, "ann")
                  if a["type"] == "PlaceComponent"}
        allowed = {(sq, r) for sq, r in every_spot("I")
                   if accepted(table.state, "ann", {"type": "PlaceComponent", "square": sq, "rotation": r})}
        assert listed == allowed
        if listed:
            square, rotation = sorted(listed)[0]
            table.do("ann", m.PlaceComponent(square=square, rotation=rotation))
        else:
            table.do("ann", m.ReturnComponent())


def test_every_move_of_the_newest_component_is_listed_turning_it_in_place_included(table):
    placed = None
    while placed is None:
        table.do("ann", m.GrabFaceDown())
        spots = [a for a in GAME.legal_actions(table.state, "ann") if a["type"] == "PlaceComponent"]
        if spots:
            placed = spots[0]
            table.do("ann", GAME.parse_command(placed))
        else:
            table.do("ann", m.ReturnComponent())
    listed = {(tuple(a["square"]), a["rotation"]) for a in GAME.legal_actions(table.state, "ann")
              if a["type"] == "MoveNewest"}
    allowed = {(sq, r) for sq, r in every_spot("I")
               if accepted(table.state, "ann", {"type": "MoveNewest", "square": sq, "rotation": r})}
    assert listed == allowed and (tuple(placed["square"]), placed["rotation"]) in listed


def test_a_player_with_a_free_hand_is_offered_every_grab_a_pile_and_each_free_order_tile(table):
    returned = table.do("bob", m.GrabFaceDown())[0].component
    table.do("bob", m.ReturnComponent())
    offered = GAME.legal_actions(table.state, "ann")
    assert {"type": "GrabFaceDown"} in offered
    assert {"type": "GrabFaceUp", "component": returned} in offered
    assert [a for a in offered if a["type"] == "Finish"] == [{"type": "Finish", "order_tile": n} for n in (1, 2, 3)]
    assert not [a for a in offered if a["type"] in ("LookAtPile", "TurnTimer", "ReturnComponent")]


def test_grabs_are_offered_only_while_tiles_are_there(table):
    table.state.face_down = []
    offered = {a["type"] for a in GAME.legal_actions(table.state, "ann")}
    assert "GrabFaceDown" not in offered and "GrabFaceUp" not in offered and "Finish" in offered
    table.refused("ann", m.GrabFaceDown(), "WAREHOUSE_EMPTY")


def test_the_last_face_down_tile_may_be_grabbed(table):
    table.state.face_down = table.state.face_down[:1]
    assert {"type": "GrabFaceDown"} in GAME.legal_actions(table.state, "ann")


def test_after_a_placement_the_player_may_grab_again_move_the_newest_or_return_it(table):
    while not table.seat("ann").ship.newest:
        table.do("ann", m.GrabFaceDown())
        spot = next((a for a in GAME.legal_actions(table.state, "ann") if a["type"] == "PlaceComponent"), None)
        table.do("ann", GAME.parse_command(spot) if spot else m.ReturnComponent())
    kinds = {a["type"] for a in GAME.legal_actions(table.state, "ann")}
    assert {"GrabFaceDown", "MoveNewest", "ReturnComponent", "Finish", "LookAtPile"} <= kinds


def test_a_reserved_tile_in_hand_may_go_back_to_the_reserve_but_never_to_the_warehouse(table):
    tile = table.do("ann", m.GrabFaceDown())[0].component
    table.do("ann", m.ReserveComponent())
    assert {"type": "TakeReserved", "component": tile} in GAME.legal_actions(table.state, "ann")
    table.do("ann", m.TakeReserved(component=tile))
    kinds = {a["type"] for a in GAME.legal_actions(table.state, "ann")}
    assert "ReserveComponent" in kinds and "ReturnComponent" not in kinds


def test_a_full_reserve_is_not_offered(table):
    for _ in range(2):
        table.do("ann", m.GrabFaceDown())
        table.do("ann", m.ReserveComponent())
    table.do("ann", m.GrabFaceDown())
    assert "ReserveComponent" not in {a["type"] for a in GAME.legal_actions(table.state, "ann")}
    table.refused("ann", m.ReserveComponent(), "RESERVE_FULL")


def test_the_hourglass_is_offered_at_the_moment_its_sand_runs_out_and_onto_start_only_to_the_finished(table):
    runs_out = table.state.runs_out_at
    assert table.state.timer_space == 1                           # round 1: the next turn is onto START
    assert "TurnTimer" not in {a["type"] for a in GAME.legal_actions(table.state, "bob")}
    table.refused("bob", m.TurnTimer(at=runs_out), "NOT_FINISHED")
    table.do("ann", m.Finish(order_tile=2))
    finished = GAME.legal_actions(table.state, "ann")
    assert finished == [{"type": "TurnTimer", "at": runs_out}]     # nothing built: no pile to look at
    table.do("ann", m.TurnTimer(at=runs_out))
    assert table.state.timer_space == 0
    for player in ("ann", "bob"):                                 # on START: when it runs out, building ends
        assert not [a for a in GAME.legal_actions(table.state, player) if a["type"] in ("TurnTimer", "CallTimeUp")]


def test_away_from_start_anyone_may_turn_the_run_out_hourglass():
    table = Table(("ann", "bob"))
    table.do("ann", m.StartBuilding(at=0.0))
    table.state.timer_space = 2                                  # as in round 2
    assert {"type": "TurnTimer", "at": 90.0} in GAME.legal_actions(table.state, "bob")
    table.do("bob", m.TurnTimer(at=90.0))
    assert table.state.timer_space == 1 and table.state.runs_out_at == 180.0


def test_a_player_holding_a_pile_is_offered_to_put_it_back(table):
    spot = None
    while spot is None:
        table.do("ann", m.GrabFaceDown())
        spot = next((a for a in GAME.legal_actions(table.state, "ann") if a["type"] == "PlaceComponent"), None)
        if spot is None:
            table.do("ann", m.ReturnComponent())
    table.do("ann", GAME.parse_command(spot))
    assert [a["pile"] for a in GAME.legal_actions(table.state, "ann") if a["type"] == "LookAtPile"] == [1, 2, 3]
    table.do("ann", m.LookAtPile(pile=2))
    offered = GAME.legal_actions(table.state, "ann")
    assert {"type": "PutBackPile"} in offered        # no grab, pile or finish while holding one
    assert not {a["type"] for a in offered} & {"GrabFaceDown", "GrabFaceUp", "LookAtPile", "Finish", "TurnTimer"}


def test_before_building_starts_the_only_move_is_starting_it_and_after_the_game_nothing():
    table = Table()
    assert GAME.legal_actions(table.state, "ann") == [{"type": "StartBuilding", "at": 0.0}]
    assert GAME.legal_actions(table.state, "zed") == []
    over = playout(GAME, ["a", "b"], 8, check=False)
    assert GAME.legal_actions(over.state, "a") == []


# ------------------------------------------------------------------------------- repair and flight
def test_a_broken_ship_is_offered_the_default_repair_and_keeping_each_other_part():
    table = Table()
    seat = table.seat("ann")
    seat.ship = ship_of({(5, 9): (BLOCK, 0), (6, 9): (BLOCK, 0)})
    seat.flaws, table.state.phase = ["CUT_OFF"], "repair"
    table.seat("ann").order_tile, table.seat("bob").order_tile, table.state.order_tiles_free = 1, 2, []
    offered = GAME.legal_actions(table.state, "ann")
    assert offered == [{"type": "RepairShip", "remove": [], "keep": [7, 7]},
                       {"type": "RepairShip", "remove": [], "keep": [5, 9]}]
    assert all(accepted(table.state, "ann", action) for action in offered)
    assert GAME.legal_actions(table.state, "bob") == []
    seat.ship = ship_of({(7, 8): ("eng-14", 2)})                 # one part, one flaw: one repair, no part to keep
    seat.flaws = ["ENGINE_NOT_FACING_REAR"]
    assert GAME.legal_actions(table.state, "ann") == [{"type": "RepairShip", "remove": [[7, 8]], "keep": None}]


def test_the_holds_that_lose_goods_are_each_a_listed_choice():
    table = _smuggled()
    offered = GAME.legal_actions(table.state, "ann")
    losses = sorted(sorted((tuple(square), good) for square, good in a["losses"])
                    for a in offered if a["type"] == "ChooseGoodsLoss")
    assert losses == [[((6, 7), "green"), ((8, 7), "yellow")], [((8, 7), "green"), ((8, 7), "yellow")]]
    assert all(accepted(table.state, "ann", action) for action in offered)


def test_cargo_arrangements_offered_are_accepted_the_best_first():
    table = _on_a_planet(TWO_HOLDS)
    offered = [a["cargo"] for a in GAME.legal_actions(table.state, "ann") if a["type"] == "ArrangeCargo"]
    assert offered == [[[[6, 7], ["green", "green"]], [[8, 7], ["blue"]]],       # the best: the default
                       [[[6, 7], ["green"]], [[8, 7], ["blue"]]],                # one good thrown away
                       [[[6, 7], ["green", "green"]]],
                       []]                                                       # nothing kept
    assert GAME.parse_command({"type": "ArrangeCargo", "cargo": offered[0]}) == GAME.default_command(table.state, "ann")


def answers_of(table, player="ann"):
    return [a for a in GAME.legal_actions(table.state, player) if a["type"] != "GiveUp"]


def test_every_number_of_double_engines_the_batteries_allow_is_offered():
    from tests.trucker_rules.test_trucker_owner_choices import _engine_ship
    table = FlightTable({"ann": _engine_ship({(8, 7): 2, (7, 6): 3}), "bob": cabin_only()},
                        {"ann": 0, "bob": -2}, "I-01")
    assert table.ask["kind"] == "engines" and table.ask["options"]["max"] == 1
    assert answers_of(table) == [{"type": "PowerEngines", "count": 0, "batteries": None},
                                 {"type": "PowerEngines", "count": 1, "batteries": None}]


def test_every_set_of_double_cannons_the_batteries_pay_for_is_offered():
    ann = crewed(ship_of({(7, 6): ("dcan-01", 0), (6, 7): ("dcan-01", 0), (8, 7): ("bat2-01", 0),
                          (7, 8): ("bat3-04", 0)}), batteries={(8, 7): 1, (7, 8): 0})     # one token: one cannon
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-17")
    assert table.ask["kind"] == "cannons"
    assert [a["squares"] for a in answers_of(table)] == [[], [[6, 7]], [[7, 6]]]


def test_a_shield_or_an_offer_is_a_yes_or_a_no():
    from tests.trucker_rules.test_trucker_owner_choices import MISS, _shielded
    dice = [4, 4] + list(MISS) * 3
    shielded = FlightTable({"ann": _shielded({(7, 8): 2, (7, 6): 1}), "bob": _shielded({(7, 8): 1, (7, 6): 3})},
                           {"ann": 0, "bob": -2}, "I-14", dice=dice)
    assert answers_of(shielded) == [{"type": "Defend", "use": True, "batteries": None},
                                    {"type": "Defend", "use": False, "batteries": None}]
    offered = FlightTable({"ann": cabin_only("start-blue"),
                           "bob": crewed(ship_of({(8, 7): ("cab-01", 0)}, cabin="start-green"))},
                          {"ann": 0, "bob": -2}, "I-09")
    assert answers_of(offered) == [{"type": "AnswerOffer", "accept": True}, {"type": "AnswerOffer", "accept": False}]


def test_every_choice_of_crew_to_give_up_is_offered_the_default_first():
    ann = crewed(ship_of({(8, 7): ("cab-01", 0), (6, 7): ("cab-16", 0)}),
                 humans={(7, 7): 2, (6, 7): 2}, aliens={(8, 7): "purple"})           # 5 crew, slavers take 3
    table = FlightTable({"ann": ann, "bob": crewed(ship_of({}, cabin="start-green"))}, {"ann": 0, "bob": -2}, "I-18")
    assert table.ask["kind"] == "crew" and table.ask["options"]["count"] == 3
    losses = [sorted((tuple(sq), what) for sq, what in a["losses"]) for a in answers_of(table)]
    left, right, alien = ((6, 7), "human"), ((7, 7), "human"), ((8, 7), "purple")
    assert losses[0] == [left, left, right]                                       # the default: fullest cabins first
    assert sorted(losses) == sorted([[left, left, right], [left, left, alien], [left, right, right],
                                     [left, right, alien], [right, right, alien]])


def test_aliens_are_offered_in_every_allowed_combination():
    from trucker_rules.state import LAUNCH
    table = Table()
    table.state.phase, table.state.step = LAUNCH, {"ask": {"player": "ann", "kind": "aliens", "key": "aliens/ann",
                                                           "options": {"cabins": [[[8, 7], ["purple", "brown"]],
                                                                                  [[6, 7], ["brown"]]]}}}
    chosen = [a["aliens"] for a in GAME.legal_actions(table.state, "ann")]
    assert chosen == [[], [[[8, 7], "brown"]], [[[6, 7], "brown"]], [[[8, 7], "purple"]],
                      [[[8, 7], "purple"], [[6, 7], "brown"]]]


def test_between_decisions_a_flying_ship_may_only_give_up():
    ann = crewed(ship_of({(8, 7): ("crg2-01", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-06")
    assert GAME.legal_actions(table.state, "bob") == [{"type": "GiveUp"}]     # ann owes the decision
    table.state.step = {}
    assert GAME.legal_actions(table.state, "ann") == [{"type": "GiveUp"}]


def test_giving_up_is_offered_only_where_the_table_allows_it():
    ann = crewed(ship_of({(8, 7): ("crg2-01", 0)}))
    allowed = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-06")
    assert {"type": "GiveUp"} in GAME.legal_actions(allowed.state, "bob")
    barred = FlightTable({"ann": crewed(ship_of({(8, 7): ("crg2-01", 0)})), "bob": cabin_only()},
                         {"ann": 0, "bob": -2}, "I-06", options={"voluntary_give_up": False})
    assert GAME.legal_actions(barred.state, "bob") == []
    assert [a["planet"] for a in GAME.legal_actions(barred.state, "ann")] == [None, 0, 1, 2]
    assert f.GiveUp().model_dump() not in GAME.legal_actions(barred.state, "ann")
