"""The inspection at the end of building, the repair step and exposed connectors."""
import pytest

from starbase_rules import RuleViolation
from trucker_rules.building import auto_repair, check_repair, exposed_connectors, inspect, parts
from tests.trucker_rules.trucker_helpers import BLOCK, ship_of


def codes(ship):
    return sorted({f.code for f in inspect(ship)})


def test_a_ship_built_by_the_rules_passes():
    ship = ship_of({(8, 7): ("cab-01", 0), (6, 7): ("eng-16", 0)})   # eng-16's left universal... joined by its right double?
    ship = ship_of({(8, 7): ("cab-01", 0), (7, 8): ("eng-17", 0)})   # eng-17 top single under the cabin
    assert inspect(ship) == []


def test_single_against_double_is_an_illegal_joint():
    ship = ship_of({(8, 7): ("cab-01", 0), (9, 7): ("cab-03", 0)})
    # cab-03 is held by nothing else, so it is also cut off from the ship
    assert codes(ship) == ["CUT_OFF", "ILLEGAL_JOINT"]


def test_a_connector_against_a_smooth_side_is_an_illegal_joint_but_smooth_beside_smooth_is_not():
    assert codes(ship_of({(8, 7): ("cab-01", 0), (8, 6): ("crg3-01", 0)})) == ["CUT_OFF", "ILLEGAL_JOINT"]
    # crg3-01 (smooth bottom) above bat2-01 (smooth top), each joined on its left: legal.
    assert codes(ship_of({(8, 7): ("crg3-01", 0), (7, 8): (BLOCK, 0), (8, 8): ("bat2-01", 0)})) == []


def test_an_engine_must_exhaust_to_the_rear():
    assert codes(ship_of({(6, 7): ("eng-14", 2)})) == ["ENGINE_NOT_FACING_REAR"]


def test_nothing_may_sit_behind_an_exhaust():
    ship = ship_of({(8, 7): ("eng-14", 0), (7, 8): (BLOCK, 0), (8, 8): ("bat2-01", 0)})
    assert codes(ship) == ["EXHAUST_BLOCKED"]


def test_nothing_may_sit_in_front_of_a_cannon_whatever_its_facing():
    assert codes(ship_of({(8, 7): ("can-01", 1), (9, 8): (BLOCK, 0), (9, 7): ("bat2-01", 3),
                          (8, 8): ("str-07", 2), (7, 8): (BLOCK, 0)})) == ["BARREL_BLOCKED"]
    assert codes(ship_of({(7, 6): ("can-01", 0), (7, 5): ("bat2-01", 0)})) == ["BARREL_BLOCKED", "CUT_OFF"]


def test_a_part_not_joined_to_the_cabin_is_cut_off():
    ship = ship_of({(5, 9): (BLOCK, 0), (6, 9): (BLOCK, 0)})
    flaws = inspect(ship)
    assert {f.code for f in flaws} == {"CUT_OFF"} and {f.square for f in flaws} == {(5, 9), (6, 9)}
    assert [len(p) for p in parts(ship)] == [2, 1]


def test_repair_removes_chosen_components_and_keeps_one_part():
    ship = ship_of({(8, 7): ("cab-01", 0), (9, 7): ("cab-03", 0)})
    assert check_repair(ship, [(9, 7)], None) == {(9, 7)}


def test_repair_that_leaves_a_flaw_is_refused():
    ship = ship_of({(6, 7): ("eng-14", 2)})
    with pytest.raises(RuleViolation) as info:
        check_repair(ship, [], None)
    assert info.value.code == "STILL_FLAWED"


def test_repair_of_an_empty_square_is_refused():
    with pytest.raises(RuleViolation) as info:
        check_repair(ship_of({}), [(8, 8)], None)
    assert info.value.code == "REPAIR_SQUARE_EMPTY"


def test_a_repair_that_splits_the_ship_must_name_the_part_kept():
    # (6,7) block holds (6,8) block; removing (6,7) would leave (6,8) apart from the cabin... and the
    # barrel flaw at (7,6) is fixed by removing the blocker at (7,5).
    ship = ship_of({(6, 7): (BLOCK, 0), (6, 8): (BLOCK, 0), (8, 7): ("eng-14", 2)})
    with pytest.raises(RuleViolation) as info:
        check_repair(ship, [(6, 7), (8, 7)], None)
    assert info.value.code == "PART_NOT_CHOSEN"
    with pytest.raises(RuleViolation) as info:
        check_repair(ship, [(6, 7), (8, 7)], (9, 9))
    assert info.value.code == "KEEP_NOT_ON_SHIP"
    assert check_repair(ship, [(6, 7), (8, 7)], (7, 7)) == {(6, 7), (8, 7), (6, 8)}
    assert check_repair(ship, [(6, 7), (8, 7)], (6, 8)) == {(6, 7), (8, 7), (7, 7)}


def test_the_default_repair_gives_a_legal_ship():
    ship = ship_of({(8, 7): ("cab-01", 0), (9, 7): ("cab-03", 0), (6, 7): ("eng-14", 2),
                    (5, 9): (BLOCK, 0)})
    remove, keep = auto_repair(ship)
    lost = check_repair(ship, remove, keep)
    assert (7, 7) not in lost and (5, 9) in lost


def test_exposed_connectors_count_every_connector_with_no_neighbour():
    assert exposed_connectors(ship_of({})) == 4                        # the universal starting cabin
    # cab-01 (double/single/double/single) right of the cabin: cabin has 3 open sides, cab-01 has 3.
    assert exposed_connectors(ship_of({(8, 7): ("cab-01", 0)})) == 6
    # a smooth-sided neighbour hides nothing: crg3-01 only has a connector on its (joined) left side
    assert exposed_connectors(ship_of({(8, 7): ("crg3-01", 0)})) == 3


def test_sides_facing_a_hole_inside_the_ship_are_exposed():
    ring = {(6, 7): (BLOCK, 0), (6, 8): (BLOCK, 0), (7, 9): (BLOCK, 0), (8, 8): (BLOCK, 0), (8, 7): (BLOCK, 0),
            (6, 9): (BLOCK, 0), (8, 9): (BLOCK, 0)}
    ship = ship_of(ring)
    hole_sides = 4                                                       # around the empty (7,8)
    assert exposed_connectors(ship) == sum(1 for _ in range(hole_sides)) + exposed_connectors(ship) - 4
    filled = ship_of({**ring, (7, 8): (BLOCK, 0)})
    assert exposed_connectors(ship) - exposed_connectors(filled) == 4
