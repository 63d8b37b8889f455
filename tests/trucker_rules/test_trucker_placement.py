"""Placement rules (rulebook "Building ships"), given a ship, when a component is placed, then it is
accepted or refused with a stable code."""
import pytest

from starbase_rules import RuleViolation
from trucker_rules import catalog
from trucker_rules.building import check_placement, joint
from tests.trucker_rules.trucker_helpers import BLOCK, ship_of


def refusal(ship, component, square, rotation=0, strict=False):
    with pytest.raises(RuleViolation) as info:
        check_placement(ship, component, square, rotation, strict=strict)
    return info.value.code


def test_the_catalog_has_140_warehouse_tiles_and_four_starting_cabins():
    assert len(catalog.warehouse_ids()) == 140
    assert sorted(c.id for c in catalog.components().values() if c.kind == "starting_cabin") == sorted(catalog.STARTING_CABINS)


@pytest.mark.parametrize("a,b,kind", [
    ("single", "single", "real"), ("double", "double", "real"), ("universal", "single", "real"),
    ("universal", "double", "real"), ("universal", "universal", "real"), ("single", "double", "illegal"),
    ("smooth", "single", "illegal"), ("universal", "smooth", "illegal"), ("smooth", "smooth", "none"),
])
def test_connectors_join_same_type_or_universal_and_smooth_only_beside_smooth(a, b, kind):
    assert joint(a, b) == kind == joint(b, a)


def test_turning_a_tile_clockwise_moves_its_left_side_to_the_top():
    cabin = catalog.component("cab-05")          # top smooth, right smooth, bottom single, left universal
    assert cabin.side(catalog.TOP, 1) == "universal"
    assert cabin.side(catalog.RIGHT, 1) == "smooth"
    assert cabin.side(catalog.LEFT, 1) == "single"


def test_a_component_joined_by_a_legal_connector_is_accepted():
    check_placement(ship_of({}), "cab-01", (8, 7), 0)     # its single left side meets the cabin's universal


def test_a_square_off_the_class_board_is_refused():
    assert refusal(ship_of({}), "cab-01", (5, 5)) == "SQUARE_NOT_ON_BOARD"    # row 5 of Class I has only column 7
    assert refusal(ship_of({}), "cab-01", (9, 6)) == "SQUARE_NOT_ON_BOARD"


def test_a_taken_square_is_refused():
    assert refusal(ship_of({}), "cab-01", (7, 7)) == "SQUARE_TAKEN"


def test_a_square_not_next_to_the_ship_is_refused():
    assert refusal(ship_of({}), "cab-01", (5, 9)) == "NOT_ADJACENT"


def test_a_single_connector_cannot_join_a_double_one():
    ship = ship_of({(8, 7): ("cab-01", 0)})           # right side single
    assert refusal(ship, "cab-03", (9, 7)) == "ILLEGAL_JOINT"    # left side double


def test_a_connector_cannot_touch_a_smooth_side():
    ship = ship_of({(8, 7): ("cab-01", 0)})           # top side double
    assert refusal(ship, "eng-01", (8, 6)) == "ILLEGAL_JOINT"    # an engine's exhaust side is smooth


def test_every_touching_side_must_join_even_when_one_side_joins_well():
    # (8,8) touches the cabin-like block at (7,8) (fine) and cab-01 at (8,7) whose bottom is double.
    ship = ship_of({(8, 7): ("cab-01", 0), (7, 8): (BLOCK, 0)})
    assert refusal(ship, "crg3-02", (8, 8)) == "ILLEGAL_JOINT"   # crg3-02: top smooth against a double


def test_touching_only_smooth_to_smooth_is_not_a_joint():
    ship = ship_of({(8, 7): ("crg3-01", 0)})          # smooth bottom
    assert refusal(ship, "bat2-01", (8, 8)) == "NO_REAL_JOINT"   # smooth top, connector only on the left


def test_two_smooth_sides_may_sit_together_when_another_side_joins():
    ship = ship_of({(8, 7): ("crg3-01", 0), (7, 8): (BLOCK, 0)})
    check_placement(ship, "bat2-01", (8, 8), 0)        # left universal joins, top smooth sits by smooth


def test_a_rotation_outside_0_to_3_is_refused():
    assert refusal(ship_of({}), "cab-01", (8, 7), 4) == "BAD_ROTATION"


def test_unknown_component_is_refused():
    assert refusal(ship_of({}), "nope-1", (8, 7)) == "UNKNOWN_COMPONENT"


def test_strict_tables_refuse_an_engine_not_facing_the_rear():
    ship = ship_of({})
    check_placement(ship, "eng-14", (8, 7), 0, strict=True)         # left universal, exhaust down
    # Turned twice the nozzle faces the front; its universal side is then on the right, so join from the left.
    assert refusal(ship, "eng-14", (6, 7), 2, strict=True) == "ENGINE_NOT_FACING_REAR"
    check_placement(ship, "eng-14", (6, 7), 2)                       # the rulebook leaves it to inspection


def test_strict_tables_refuse_a_component_behind_an_exhaust():
    ship = ship_of({(8, 7): ("eng-14", 0), (7, 8): (BLOCK, 0)})
    check_placement(ship, "bat2-01", (8, 8), 0)
    assert refusal(ship, "bat2-01", (8, 8), 0, strict=True) == "EXHAUST_BLOCKED"


def test_strict_tables_refuse_a_component_in_front_of_a_barrel():
    ship = ship_of({(8, 7): ("can-01", 1), (9, 8): (BLOCK, 0)})    # barrel turned to the right
    check_placement(ship, "bat2-01", (9, 7), 3)                      # universal bottom joins, smooth left
    assert refusal(ship, "bat2-01", (9, 7), 3, strict=True) == "BARREL_BLOCKED"
