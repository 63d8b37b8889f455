"""Tile lays (rules 11.2, 11.2.1, 11.2.2): given a board, when a base lays, then cost or refusal."""
from __future__ import annotations

import pytest
from starbase_rules import RuleViolation

from moon21.board import (
    apply_lay, check_lay, lay_options, place_token, rift_crossed, terminal_options,
)


def refused(code, fn, *args, **kwargs):
    with pytest.raises(RuleViolation) as err:
        fn(*args, **kwargs)
    assert err.value.code == code, err.value.message
    return err.value.message


# -- routes for building ----------------------------------------------------------------------

def test_space_port_base_extends_the_space_port_road(board):
    assert check_lay(board, "VH", "SP", "D8", "9", 2, phase="2") == 0


def test_a_lay_away_from_every_route_is_refused(board):
    refused("NO_ROUTE", check_lay, board, "VH", "SP", "H8", "9", 0, phase="2")


def test_a_lay_next_to_the_route_but_not_joining_it_is_refused(board):
    # D8 touches E9 on its edge 5; a straight on edges 0-3 does not meet it
    refused("NO_ROUTE", check_lay, board, "VH", "SP", "D8", "9", 0, phase="2")


def test_local_base_may_lay_its_first_tile_without_a_route(board):
    assert check_lay(board, "VH", "LB", "G7", "57M", 0, phase="2") == 0
    options = lay_options(board, "VH", "LB", phase="2")
    assert options and {o["hex"] for o in options} == {"G7"}


def test_local_base_without_track_cannot_lay_elsewhere(board):
    refused("NO_ROUTE", check_lay, board, "VH", "LB", "G9", "9", 0, phase="2")


def test_another_base_cannot_use_the_no_track_exception(board):
    refused("NO_ROUTE", check_lay, board, "VH", "SP", "G7", "57M", 0, phase="2")
    refused("NO_ROUTE", check_lay, board, "SWP", "LB", "G7", "57M", 0, phase="2")


def test_route_through_a_full_depot_of_others_is_cut(board):
    apply_lay(board, "D10", "57M", 1)                # road C11 - D10 - E9
    place_token(board, "SWP", "D10", 0)              # its only slot: full for everyone else
    refused("NO_ROUTE", check_lay, board, "VH", "SP", "C11", "9", 1, phase="2")
    assert check_lay(board, "SWP", "SP", "C11", "9", 1, phase="2") == 10


# -- terrain costs ----------------------------------------------------------------------------

def test_mountain_costs_40_or_10_with_the_tunnel_company(board):
    apply_lay(board, "G7", "57M", 0)                 # road G9 - G7 - G5
    assert check_lay(board, "VH", "LB", "G9", "9", 0, phase="2") == 40
    assert check_lay(board, "VH", "LB", "G9", "9", 0, phase="2", tunnel=True) == 10


def test_hill_costs_10_even_with_the_tunnel_company(board):
    apply_lay(board, "G7", "57M", 1)                 # road F8 - G7 - H6
    assert check_lay(board, "VH", "LB", "H6", "9", 1, phase="2") == 10
    assert check_lay(board, "VH", "LB", "H6", "9", 1, phase="2", tunnel=True) == 10


def test_mineral_hexes_and_upgrades_cost_nothing(board):
    assert check_lay(board, "VH", "SP", "D10", "57M", 1, phase="2") == 0
    apply_lay(board, "G7", "57M", 0)
    apply_lay(board, "G9", "9", 0)
    assert check_lay(board, "VH", "LB", "G9", "23", 3, phase="3") == 0


# -- which tile ----------------------------------------------------------------------------

@pytest.mark.parametrize("hex_id, tile, rotation, why", [
    ("D10", "9", 1, "plain road on a mineral hex"),
    ("D8", "57M", 2, "a depot tile on a plain hex"),
    ("D8", "23", 2, "a green tile on an empty hex"),
    ("D8", "X29", 2, "the Terminal tile off F8"),
])
def test_wrong_tile_for_the_hex_is_refused(board, hex_id, tile, rotation, why):
    refused("ILLEGAL_TILE", check_lay, board, "VH", "SP", hex_id, tile, rotation, phase="10")


def test_double_dot_hexes_take_double_dot_tiles_only(board):
    apply_lay(board, "E7", "9", 0)                   # E9 - E7 - E5
    refused("ILLEGAL_TILE", check_lay, board, "VH", "SP", "E5", "57M", 0, phase="2")
    assert check_lay(board, "VH", "SP", "E5", "X3", 0, phase="2") == 0


def test_upgrades_need_the_phase_colour(board):
    apply_lay(board, "D8", "9", 2)
    refused("ILLEGAL_TILE", check_lay, board, "VH", "SP", "D8", "24", 5, phase="2")
    assert check_lay(board, "VH", "SP", "D8", "24", 5, phase="3") == 0


def test_upgrade_must_be_listed(board):
    apply_lay(board, "D8", "9", 2)
    refused("ILLEGAL_TILE", check_lay, board, "VH", "SP", "D8", "25", 0, phase="3")
    refused("ILLEGAL_TILE", check_lay, board, "VH", "SP", "D8", "39", 0, phase="5")  # skips green


def test_chart_upgrade_that_loses_road_is_refused(board):
    apply_lay(board, "D10", "57M", 1)
    for r in range(6):
        refused("ILLEGAL_TILE", check_lay, board, "VH", "SP", "D10", "443M", r, phase="3")
    assert any(check_lay(board, "VH", "SP", "D10", "441M", r, phase="3") == 0
               for r in range(6) if _ok(board, "D10", "441M", r))


def _ok(board, hex_id, tile, r):
    try:
        check_lay(board, "VH", "SP", hex_id, tile, r, phase="3")
        return True
    except RuleViolation:
        return False


def test_tile_not_in_supply(board):
    board.supply["9"] = 0
    refused("TILE_NOT_AVAILABLE", check_lay, board, "VH", "SP", "D8", "9", 2, phase="2")


# -- rotation ---------------------------------------------------------------------------------

def test_road_off_the_map_is_refused(board):
    message = refused("ILLEGAL_ROTATION", check_lay, board, "HMQ", "LB", "D2", "57M", 2, phase="2")
    assert "off the map" in message


def test_upgrade_rotation_must_keep_every_road(board):
    apply_lay(board, "D8", "9", 2)
    refused("ILLEGAL_ROTATION", check_lay, board, "VH", "SP", "D8", "24", 0, phase="3")


def test_road_into_the_rift_needs_the_space_bridge(board):
    apply_lay(board, "G7", "57M", 0)                 # road to G5, whose edge 3 faces the Rift
    refused("ILLEGAL_ROTATION", check_lay, board, "VH", "LB", "G5", "9", 0, phase="2")
    assert check_lay(board, "VH", "LB", "G5", "9", 0, phase="2", space_bridge=True) == 0


def test_first_road_across_the_rift_is_reported(board):
    apply_lay(board, "G7", "57M", 0)
    assert apply_lay(board, "G5", "9", 0)["rift_bridge_built"] is False
    assert not rift_crossed(board)
    assert check_lay(board, "VH", "LB", "G3", "9", 0, phase="2", space_bridge=True) == 0
    assert apply_lay(board, "G3", "9", 0)["rift_bridge_built"] is True
    assert rift_crossed(board)


# -- special hexes ------------------------------------------------------------------------

def test_nothing_is_laid_on_the_space_port(board):
    refused("ILLEGAL_HEX", check_lay, board, "VH", "SP", "E9", "9", 0, phase="2")


def test_unknown_hex_and_tile(board):
    refused("UNKNOWN_HEX", check_lay, board, "VH", "SP", "Z99", "9", 0, phase="2")
    refused("UNKNOWN_TILE", check_lay, board, "VH", "SP", "D8", "999", 0, phase="2")
    refused("ILLEGAL_ROTATION", check_lay, board, "VH", "SP", "D8", "9", 6, phase="2")


def test_terminal_is_reserved_while_p5_is_open(board):
    refused("TERMINAL_RESERVED", check_lay, board, "VH", "SP", "F8", "X29", 1, phase="2")
    assert check_lay(board, "VH", "SP", "F8", "X29", 1, phase="2", terminal_open=True) == 0


def test_terminal_power_needs_no_route_and_any_rotation(board):
    options = terminal_options(board)
    assert {o["rotation"] for o in options} == {0, 1}      # X29's two distinct orientations
    apply_lay(board, "F8", "X29", 0)
    assert terminal_options(board) == []


# -- upgrades and the route rule ----------------------------------------------------------

def test_plain_upgrade_needs_a_route_to_the_new_road(board):
    apply_lay(board, "D8", "9", 2)                   # E9 - D8 - C7
    # rotation 2 adds road 2-4 (C7 to E7): the Space Port route cannot reach it
    refused("NO_ROUTE", check_lay, board, "VH", "SP", "D8", "24", 2, phase="3")
    # rotation 5 adds road 5-1 from the Space Port side
    assert check_lay(board, "VH", "SP", "D8", "24", 5, phase="3") == 0


def test_depot_upgrade_needs_only_a_route_to_the_tile(board):
    apply_lay(board, "D10", "57M", 1)
    good = [r for r in range(6) if _ok(board, "D10", "442M", r)]
    assert good
    refused("NO_ROUTE", check_lay, board, "VH", "LB", "D10", "442M", good[0], phase="3")


def test_upgrade_returns_the_old_tile_and_keeps_tokens_in_place(board):
    apply_lay(board, "G7", "57M", 0)
    before = board.supply["57M"]
    rotation = next(r for r in range(6)
                    if _try(lambda: check_lay(board, "VH", "LB", "G7", "441M", r, phase="3")))
    result = apply_lay(board, "G7", "441M", rotation)
    assert result["replaced"] == "57M" and board.supply["57M"] == before + 1
    assert board.tokens["G7"] == [["LB:VH"]]
    assert board.slot_capacity("G7") == [2]


def _try(fn):
    try:
        fn()
        return True
    except RuleViolation:
        return False


def test_every_offered_lay_is_accepted(board):
    apply_lay(board, "D8", "9", 2)
    apply_lay(board, "D10", "57M", 1)
    for phase in ("2", "3", "5"):
        options = lay_options(board, "VH", "SP", phase=phase)
        assert options
        for o in options:
            assert check_lay(board, "VH", "SP", o["hex"], o["tile"], o["rotation"], phase=phase) == o["cost"]


def test_unknown_base_and_phase(board):
    refused("UNKNOWN_BASE", check_lay, board, "VH", "XX", "D8", "9", 2, phase="2")
    refused("UNKNOWN_PHASE", check_lay, board, "VH", "SP", "D8", "9", 2, phase="7")


def test_any_corporation_may_build_in_another_local_base_hex_with_a_route(board):
    apply_lay(board, "D8", "9", 2)                   # the Space Port road reaches C7 (SWP's base)
    assert check_lay(board, "VH", "SP", "C7", "57M", 2, phase="2") == 0
    apply_lay(board, "C7", "57M", 2)
    assert board.tokens["C7"] == [["LB:SWP"]]
