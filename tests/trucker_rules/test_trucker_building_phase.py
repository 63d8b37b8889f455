"""The building phase as commands and events: grabbing, placing, returning, reserving, piles, the
hourglass, finishing; every refusal code; hidden face-down tiles."""
import copy
import json

import pytest

from starbase_rules import FairRng, RuleViolation, fold
from trucker_rules import build_phase
from trucker_rules import messages as m
from trucker_rules.game import GAME
from tests.trucker_rules.trucker_helpers import Table


@pytest.fixture
def table():
    t = Table()
    t.do("ann", m.StartBuilding(at=0.0))
    return t


def grab_until(table, player, predicate):
    """Grab face down, returning tiles face up, until the hand holds a tile matching `predicate`."""
    while True:
        table.do(player, m.GrabFaceDown())
        if predicate(table.seat(player).hand):
            return table.seat(player).hand
        table.do(player, m.ReturnComponent())


def placeable_at(square, rotation=0):
    from trucker_rules.building import check_placement
    from trucker_rules.ship import Ship

    def ok(component_id):
        try:
            check_placement(Ship.new("I", "start-blue"), component_id, square, rotation)
            return True
        except RuleViolation:
            return False
    return ok


def test_a_face_down_grab_draws_its_tile_at_grab_time_over_the_sorted_pile(table):
    counter = table.rng.used
    expected = sorted(table.state.face_down)[FairRng(b"test-seed", start=counter).randbelow(140)]
    [event] = table.do("ann", m.GrabFaceDown())
    assert event == m.ComponentGrabbed(player="ann", component=expected, source="face_down")
    assert table.seat("ann").hand == expected and expected not in table.state.face_down
    assert table.rng.used == counter + 1


def test_the_round_setup_records_no_face_down_order(table):
    assert "WarehouseShuffled" not in {e.type for e in table.events}
    assert table.state.face_down == sorted(table.state.face_down)
    raw = json.dumps([e.model_dump(mode="json") for e in table.events])
    assert not [cid for cid in table.state.face_down if f'"{cid}"' in raw]


def test_the_precomputed_face_down_sequence_is_what_the_grabs_draw(table):
    """While building nothing else draws, so the grabs can be known up front from (seed, counter)."""
    sequence = build_phase.face_down_sequence(table.state.face_down, FairRng(b"test-seed", start=table.rng.used))
    assert sorted(t for t, _ in sequence) == sorted(table.state.face_down)
    grabbed = []
    for turn in range(6):
        player = ("ann", "bob")[turn % 2]
        [event] = table.do(player, m.GrabFaceDown())
        grabbed.append((event.component, table.rng.used))
        table.do(player, m.ReturnComponent())          # back face up: the face-down pile only shrinks
    assert grabbed == sequence[:6]


def test_nobody_learns_a_face_down_tile_before_it_is_grabbed(table):
    hidden = set(table.state.face_down)
    for viewer in ("ann", "bob", None):
        seen = json.dumps([GAME.redact(e, viewer) for e in table.events]) + json.dumps(GAME.view(table.state, viewer))
        assert not [cid for cid in hidden if f'"{cid}"' in seen]
    assert GAME.view(table.state, None)["face_down_count"] == 140


def test_a_second_grab_while_holding_is_refused(table):
    table.do("ann", m.GrabFaceDown())
    table.refused("ann", m.GrabFaceDown(), "HAND_FULL")


def test_only_a_face_up_tile_can_be_grabbed_face_up(table):
    table.refused("bob", m.GrabFaceUp(component=table.state.face_down[0]), "NOT_FACE_UP")
    [grabbed] = table.do("ann", m.GrabFaceDown())
    table.do("ann", m.ReturnComponent())
    assert table.state.face_up == [grabbed.component]
    table.do("bob", m.GrabFaceUp(component=grabbed.component))
    table.refused("ann", m.GrabFaceUp(component=grabbed.component), "NOT_FACE_UP")   # bob took it first


def test_placing_needs_a_component_in_hand(table):
    table.refused("ann", m.PlaceComponent(square=(8, 7), rotation=0), "NOTHING_IN_HAND")


def test_an_illegal_placement_is_refused_and_changes_nothing(table):
    table.do("ann", m.GrabFaceDown())
    table.refused("ann", m.PlaceComponent(square=(5, 9), rotation=0), "NOT_ADJACENT")
    table.refused("ann", m.PlaceComponent(square=(1, 1), rotation=0), "SQUARE_NOT_ON_BOARD")
    table.refused("ann", m.PlaceComponent(square=(7, 7), rotation=0), "SQUARE_TAKEN")


def test_the_newest_component_moves_until_the_next_grab_then_is_fixed(table):
    tile = grab_until(table, "ann", lambda c: placeable_at((8, 7))(c) and placeable_at((7, 8), 1)(c)
                      and placeable_at((6, 7))(c))
    table.do("ann", m.PlaceComponent(square=(8, 7), rotation=0))
    table.do("ann", m.MoveNewest(square=(6, 7), rotation=0))
    assert (8, 7) not in table.seat("ann").ship.tiles and table.seat("ann").ship.tiles[(6, 7)].component == tile
    table.refused("ann", m.MoveNewest(square=(5, 9), rotation=0), "NOT_ADJACENT")
    table.do("ann", m.GrabFaceDown())                       # the next grab fixes it in place
    table.refused("ann", m.MoveNewest(square=(8, 7), rotation=0), "NO_NEWEST_COMPONENT")
    table.do("ann", m.ReturnComponent())
    table.refused("ann", m.ReturnComponent(), "NOTHING_TO_RETURN")


def test_the_newest_component_can_be_returned_face_up(table):
    tile = grab_until(table, "ann", placeable_at((8, 7)))
    table.do("ann", m.PlaceComponent(square=(8, 7), rotation=0))
    [event] = table.do("ann", m.ReturnComponent())
    assert event == m.ComponentReturned(player="ann", component=tile, source="ship")
    assert tile in table.state.face_up and (8, 7) not in table.seat("ann").ship.tiles


def test_round_one_has_reserve_spots_by_default():
    table = Table()
    table.do("ann", m.StartBuilding(at=0.0))
    table.do("ann", m.GrabFaceDown())
    table.do("ann", m.ReserveComponent())
    assert len(table.seat("ann").ship.reserve) == 1


def test_no_reserve_in_round_one_when_the_table_chooses_so():
    table = Table(options={"reserve_in_round_1": False})
    table.do("ann", m.StartBuilding(at=0.0))
    table.do("ann", m.GrabFaceDown())
    table.refused("ann", m.ReserveComponent(), "NO_RESERVE_THIS_ROUND")


def test_two_reserve_spots_and_a_reserved_tile_never_goes_back():
    table = Table(options={"reserve_in_round_1": True})
    table.do("ann", m.StartBuilding(at=0.0))
    table.refused("ann", m.ReserveComponent(), "NOTHING_IN_HAND")
    for _ in range(2):
        table.do("ann", m.GrabFaceDown())
        table.do("ann", m.ReserveComponent())
    table.do("ann", m.GrabFaceDown())
    table.refused("ann", m.ReserveComponent(), "RESERVE_FULL")
    table.do("ann", m.ReturnComponent())
    kept = table.seat("ann").ship.reserve[0]
    table.refused("ann", m.TakeReserved(component="cab-99"), "NOT_IN_RESERVE")
    table.do("ann", m.TakeReserved(component=kept))
    table.refused("ann", m.ReturnComponent(), "RESERVED_STAYS")
    table.do("ann", m.ReserveComponent())
    assert kept in table.seat("ann").ship.reserve


def test_looking_at_a_pile(table):
    table.refused("ann", m.LookAtPile(pile=1), "NOTHING_BUILT")
    grab_until(table, "ann", placeable_at((8, 7)))
    table.do("ann", m.PlaceComponent(square=(8, 7), rotation=0))
    grab_until(table, "bob", placeable_at((8, 7)))
    table.do("bob", m.PlaceComponent(square=(8, 7), rotation=0))
    table.refused("ann", m.LookAtPile(pile=4), "PILE_SECRET")
    table.do("ann", m.GrabFaceDown())
    table.refused("ann", m.LookAtPile(pile=1), "HAND_FULL")
    table.do("ann", m.ReturnComponent())
    table.do("ann", m.LookAtPile(pile=1))
    assert GAME.view(table.state, "ann")["pile"] == sorted(table.state.piles[0])
    assert GAME.view(table.state, "bob")["pile"] is None and GAME.view(table.state, None)["pile"] is None
    table.refused("ann", m.LookAtPile(pile=2), "ALREADY_LOOKING")
    table.refused("ann", m.GrabFaceDown(), "LOOKING_AT_PILE")
    table.refused("bob", m.LookAtPile(pile=1), "PILE_IN_USE")
    table.do("ann", m.PutBackPile())
    table.refused("ann", m.PutBackPile(), "NOT_LOOKING")
    table.do("bob", m.LookAtPile(pile=1))


def test_the_hourglass(table):
    table.refused("ann", m.TurnTimer(at=10.0), "SAND_STILL_RUNNING")
    assert table.state.timer_space == 1                   # round 1 starts on space I
    table.refused("ann", m.TurnTimer(at=95.0), "NOT_FINISHED")   # only a finished player moves it onto START
    table.refused("ann", m.CallTimeUp(at=95.0), "TIMER_NOT_ON_START")
    table.do("bob", m.Finish())
    [turned] = table.do("bob", m.TurnTimer(at=95.0))
    assert turned.timer_space == 0 and turned.runs_out_at == 185.0
    table.refused("ann", m.TurnTimer(at=300.0), "TIMER_ON_START")
    table.refused("ann", m.CallTimeUp(at=100.0), "SAND_STILL_RUNNING")
    table.do("ann", m.GrabFaceDown())
    held = table.seat("ann").hand
    events = table.do(None, m.CallTimeUp(at=185.0))
    assert events[0] == m.BuildingEnded(reason="time_up")
    # the building phase is over and play has moved on (launch, flight): look at the events
    assert m.ComponentReturned(player="ann", component=held, source="hand") in events   # back face up
    assert m.ShipFinished(player="ann", order_tile=2) in events     # the unfinished take the remaining tiles
    assert [e.player for e in events if isinstance(e, m.ShipInspected)] == ["ann", "bob"]


def test_finishing_takes_an_order_tile():
    table = Table(players=("ann", "bob", "cy"))
    table.do("ann", m.StartBuilding(at=0.0))
    table.refused("ann", m.StartBuilding(at=1.0), "ALREADY_STARTED")
    table.refused("ann", m.Finish(order_tile=4), "NO_SUCH_ORDER_TILE")
    table.do("ann", m.Finish(order_tile=2))               # any free tile, not only the lowest
    table.refused("bob", m.Finish(order_tile=2), "ORDER_TILE_TAKEN")
    table.refused("ann", m.GrabFaceDown(), "ALREADY_FINISHED")
    table.do("bob", m.Finish())
    assert table.seat("bob").order_tile == 1
    table.do("cy", m.GrabFaceDown())
    table.refused("cy", m.Finish(), "HAND_FULL")
    table.do("cy", m.ReturnComponent())
    events = table.do("cy", m.Finish())
    assert events[:2] == [m.ShipFinished(player="cy", order_tile=3), m.BuildingEnded(reason="all_finished")]


def test_commands_before_the_start_or_from_strangers_are_refused():
    table = Table()
    table.refused("ann", m.GrabFaceDown(), "BUILDING_NOT_STARTED")
    table.do("ann", m.StartBuilding(at=0.0))
    table.refused("zed", m.GrabFaceDown(), "NOT_A_PLAYER")
    table.refused("ann", m.RepairShip(), "NOT_REPAIRING")


def test_malformed_commands_are_refused():
    for data in ({"type": "Nope"}, {"type": "PlaceComponent", "square": "x"}, {"type": "LookAtPile", "pile": 9},
                 {"type": "GrabFaceDown", "extra": 1}):
        with pytest.raises(RuleViolation) as info:
            GAME.parse_command(data)
        assert info.value.code == "MALFORMED_COMMAND"
    assert GAME.parse_command({"type": "PlaceComponent", "square": [8, 7], "rotation": 1}) == \
        m.PlaceComponent(square=(8, 7), rotation=1)


def test_decide_never_mutates_the_state(table):
    table.do("ann", m.GrabFaceDown())
    before = copy.deepcopy(table.state)
    GAME.decide(table.state, m.ReturnComponent(), "ann", table.rng)
    assert table.state == before


def test_a_failed_inspection_is_repaired_by_the_owner():
    table = Table(players=("ann", "bob"))
    table.do("ann", m.StartBuilding(at=0.0))
    # ann puts an engine with its nozzle to the front: legal joints, a flaw at inspection.
    engine = grab_until(table, "ann", lambda c: c in ("eng-14", "eng-15"))
    table.do("ann", m.PlaceComponent(square=(6, 7), rotation=2))
    table.do("ann", m.Finish())
    events = table.do("bob", m.Finish())
    [inspected] = [e for e in events if isinstance(e, m.ShipInspected) and e.player == "ann"]
    assert [f.code for f in inspected.flaws] == ["ENGINE_NOT_FACING_REAR"]
    assert GAME.to_act(table.state) == ["ann"]
    table.refused("bob", m.RepairShip(), "NO_REPAIR_OWED")
    table.refused("bob", m.GrabFaceDown(), "NOT_BUILDING")
    table.refused("ann", m.RepairShip(remove=[]), "STILL_FLAWED")
    events = table.do("ann", m.RepairShip(remove=[(6, 7)]))
    assert events[0] == m.ShipRepaired(player="ann", removed=[(6, 7)])
    from trucker_rules.flight_messages import CreditsPaid
    # Paid at Journey's End: at least the removed engine (the flight may destroy more).
    [paid] = [e for e in events if isinstance(e, CreditsPaid) and e.player == "ann" and e.reason == "lost_components"]
    assert paid.amount <= -1
    assert engine not in table.state.face_up


def test_lenient_inspection_returns_removed_components_without_cost():
    table = Table(options={"lenient_inspection": True})
    table.do("ann", m.StartBuilding(at=0.0))
    engine = grab_until(table, "ann", lambda c: c in ("eng-14", "eng-15"))
    table.do("ann", m.PlaceComponent(square=(6, 7), rotation=2))
    table.do("ann", m.Finish())
    table.do("bob", m.Finish())
    before = table.state.clone()
    events = table.do("ann", m.RepairShip(remove=[(6, 7)]))
    assert events[0] == m.ShipRepaired(player="ann", removed=[(6, 7)])
    repaired = fold(GAME, events[:1], before)
    # The removed engine goes back face up instead of onto the lost pile (which Journey's End charges).
    assert engine in repaired.face_up and engine not in repaired.seats["ann"].ship.lost


def test_unknown_or_badly_typed_options_are_refused():
    for options, code in (({"nope": 1}, "UNKNOWN_OPTION"), ({"round3_board": "IV"}, "BAD_OPTION"),
                          ({"lapped_ship_gives_up": "yes"}, "BAD_OPTION")):
        with pytest.raises(RuleViolation) as info:
            Table(options=options)
        assert info.value.code == code


def test_the_warehouse_can_run_out_of_face_down_tiles(table):
    for _ in range(140):
        table.do("ann", m.GrabFaceDown())
        table.do("ann", m.ReturnComponent())
    assert len(table.state.face_up) == 140
    table.refused("bob", m.GrabFaceDown(), "WAREHOUSE_EMPTY")


def test_a_game_needs_two_to_four_distinct_players():
    from starbase_rules import FairRng
    for players, code in ((["a"], "BAD_PLAYER_COUNT"), (list("abcde"), "BAD_PLAYER_COUNT"),
                          (["a", "a"], "DUPLICATE_PLAYER")):
        with pytest.raises(RuleViolation) as info:
            GAME.setup(players, {}, FairRng(b"x"))
        assert info.value.code == code


def test_ending_building_from_outside_decide_also_plays_what_follows():
    from trucker_rules.game import automatic_events, end_of_building
    from trucker_rules import build_phase
    table = Table()
    table.do("ann", m.StartBuilding(at=0.0))
    events = end_of_building(table.state, "time_up", table.rng)
    assert events[0] == m.BuildingEnded(reason="time_up")
    assert any(e.type == "InspectionClosed" for e in events) and any(e.type == "CardRevealed" for e in events)
    only_building = build_phase.end_of_building_events(table.state, "time_up")
    after = fold(GAME, only_building, copy.deepcopy(table.state))
    assert GAME.to_act(after) == []                    # nobody owes anything: the engine must go on by itself
    assert automatic_events(after, table.rng)[0].type == "InspectionClosed"
