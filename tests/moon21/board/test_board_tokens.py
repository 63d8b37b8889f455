"""Depot tokens (11.3), routes for the must-buy rule (11.6), the OLS, the +20 marker, bankruptcy."""
from __future__ import annotations

import json

import pytest
from starbase_rules import RuleViolation

from moon21.board import (
    Board, apply_lay, check_ols, check_token, convert_ols, has_route, invariants, new_board,
    ols_options, place_ols, place_research_marker, place_token, remove_corporation,
    research_targets, token_options, tokens_on_board, view,
)


def refused(code, fn, *args, **kwargs):
    with pytest.raises(RuleViolation) as err:
        fn(*args, **kwargs)
    assert err.value.code == code, err.value.message


def test_setup_places_every_base_token(board):
    assert board.space_port == ["HMQ", "ITC", "KR", "LG", "SSF", "SWP", "VH"]
    assert board.tokens["G7"] == [["LB:VH"]]
    assert invariants(board) == []
    assert sum(board.supply.values()) == 97


def test_setup_refuses_a_wrong_mineral_draw(board):
    minerals = dict(board.minerals)
    minerals["B4"] = "Lithium"
    refused("ILLEGAL_SETUP", new_board, minerals)


def test_board_round_trips_through_json_and_copies(board):
    apply_lay(board, "D10", "57M", 1)
    data = json.loads(json.dumps(board.to_json()))
    assert Board.from_json(data) == board
    clone = board.copy()
    place_token(clone, "VH", "D10", 0)
    assert clone != board


def test_token_goes_to_an_open_slot_a_base_reaches(board):
    assert token_options(board, "VH") == []
    apply_lay(board, "D10", "57M", 1)
    assert token_options(board, "VH") == [{"hex": "D10", "depot": 0}]
    place_token(board, "VH", "D10", 0)
    assert tokens_on_board(board, "VH") == 1
    assert token_options(board, "SWP") == []      # its only slot is now taken


def test_token_refusals(board):
    apply_lay(board, "D10", "57M", 1)
    refused("UNKNOWN_HEX", check_token, board, "VH", "Q7", 0)
    refused("ILLEGAL_HEX", check_token, board, "VH", "E9", 0)
    refused("NO_SUCH_DEPOT", check_token, board, "VH", "D10", 1)
    refused("TOKEN_IN_HEX", check_token, board, "VH", "G7", 0)
    apply_lay(board, "B4", "57M", 0)
    refused("NO_ROUTE", check_token, board, "VH", "B4", 0)
    place_token(board, "SWP", "D10", 0)
    refused("NO_OPEN_SLOT", check_token, board, "VH", "D10", 0)


def test_terminal_token_needs_no_route(board):
    apply_lay(board, "F8", "X29", 0)
    refused("NO_ROUTE", check_token, board, "KR", "F8", 0)
    place_token(board, "KR", "F8", 0, need_route=False)
    assert board.tokens["F8"] == [["KR"]]


def test_has_route_needs_road_from_the_base_to_another_stop(board):
    assert not has_route(board, "VH", "SP") and not has_route(board, "VH", "LB")
    apply_lay(board, "G7", "57M", 1)                  # G7 road towards F8 and H6, nothing there
    assert not has_route(board, "VH", "LB")
    apply_lay(board, "F8", "X29", 0)                  # the Terminal's road meets G7, not E9
    assert has_route(board, "VH", "LB") and not has_route(board, "VH", "SP")
    apply_lay(board, "D10", "57M", 1)
    assert has_route(board, "SWP", "SP") and not has_route(board, "SWP", "LB")


def test_old_landing_site_options_follow_the_card(board):
    options = ols_options(board)
    hexes = {o["hex"] for o in options}
    assert "D10" not in hexes and "E5" not in hexes          # 1 and 2 hexes from the Space Port
    assert {"B4", "G13", "J10"} <= hexes
    assert {o["depot"] for o in options if o["hex"] == "G13"} == {0, 1}
    assert all(o["hex"] != "A9" or o["rotation"] is not None for o in options)


def test_old_landing_site_token_is_placed_and_converted(board):
    option = next(o for o in ols_options(board) if o["hex"] == "G13" and o["depot"] == 1)
    place_ols(board, option["hex"], option["tile"], option["rotation"], option["depot"])
    assert board.tokens["G13"] == [[], ["OLS"]]
    assert invariants(board) == []
    assert convert_ols(board, "KR") == "G13"
    assert board.tokens["G13"] == [[], ["OLS:KR"]]
    assert tokens_on_board(board, "KR") == 0      # not a charter token


def test_old_landing_site_refusals(board):
    refused("ILLEGAL_HEX", check_ols, board, "D10", "57M", 0, 0)
    refused("ILLEGAL_TILE", check_ols, board, "B4", "X1", 0, 0)
    refused("NO_SUCH_DEPOT", check_ols, board, "B4", "57M", 0, 1)
    refused("ILLEGAL_ROTATION", check_ols, board, "A9", "57M", 0, 0)   # A9's edges 0-2 are off the map
    refused("NO_OLS_TOKEN", convert_ols, board, "VH")


def test_research_marker_goes_on_a_mineral_or_local_base_but_not_the_terminal(board):
    targets = research_targets(board)
    assert "F8" not in targets and "G7" in targets and "J10" in targets and len(targets) == 24
    refused("ILLEGAL_HEX", place_research_marker, board, "F8")
    place_research_marker(board, "G7")
    assert research_targets(board) == []


def test_bankrupt_corporation_leaves_the_map(board):
    apply_lay(board, "D10", "57M", 1)
    place_token(board, "VH", "D10", 0)
    remove_corporation(board, "VH")
    assert "VH" not in board.space_port and "G7" not in board.tokens and "D10" not in board.tokens
    assert invariants(board) == []


def test_invariants_catch_a_lost_tile(board):
    board.supply["9"] -= 1
    assert any("tile 9" in problem for problem in invariants(board))


def test_view_lists_stop_values(board):
    apply_lay(board, "D10", "57M", 1)
    shown = view(board, phase="2", sp_value=20)
    assert shown["stop_values"]["D10-0"] == 30 and shown["stop_values"]["E9-0"] == 20


def test_old_landing_site_refusals_for_supply_and_a_second_token(board):
    from moon21.board.lays import keeps_roads
    board.supply["57M"] = 0
    refused("TILE_NOT_AVAILABLE", check_ols, board, "B4", "57M", 0, 0)
    board.supply["57M"] = 5
    place_ols(board, "B4", "57M", 0, 0)
    green = next((t, r) for t in ("441M", "442M") for r in range(6)
                 if keeps_roads(board.tile_at("B4"), (t, r)) is not None)
    apply_lay(board, "B4", *green)                    # two slots now: OLS and one open
    place_token(board, "VH", "B4", 0, need_route=False)
    refused("TOKEN_IN_HEX", convert_ols, board, "VH")
    assert convert_ols(board, "KR") == "B4"


def test_tokens_follow_their_depot_when_a_double_dot_tile_is_upgraded(board):
    from moon21.board.geometry import rotated_paths
    from moon21.board.lays import keeps_roads
    option = next(o for o in ols_options(board) if o["hex"] == "G13" and o["depot"] == 1)
    place_ols(board, option["hex"], option["tile"], option["rotation"], 1)
    old = board.tile_at("G13")
    old_edge = next(a for a, b in rotated_paths(*old) if b == -2)        # the OLS depot's road
    new = next((t, r) for t in ("X4", "X5", "X6", "X7") for r in range(6)
               if keeps_roads(old, (t, r)) is not None)
    apply_lay(board, "G13", *new)
    holder = next(j for j, slots in enumerate(board.tokens["G13"]) if "OLS" in slots)
    assert (old_edge, -1 - holder) in rotated_paths(*new)
    assert invariants(board) == []
