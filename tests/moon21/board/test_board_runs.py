"""Validating submitted runs (rules 11.1, 11.4, 11.4.1, 11.4.2): given a road, when a base runs."""
from __future__ import annotations

import pytest
from starbase_rules import RuleViolation

from moon21.board import (
    ROUTE_REFUSALS, apply_lay, place_research_marker, place_token, validate_runs,
    validate_turn_runs,
)

FULL = ["power_plant", "B4-0", "C7-0", "E9-0", "J10-0", "tourism_colony"]


def run(board, corp, base, runs, transports, **kw):
    return validate_runs(board, corp, base, runs, transports, sp_value=kw.pop("sp_value", 20),
                         phase=kw.pop("phase", "2"), **kw)


def refused(code, *args, **kwargs):
    assert code in ROUTE_REFUSALS
    with pytest.raises(RuleViolation) as err:
        run(*args, **kwargs)
    assert err.value.code == code, err.value.message


def test_east_west_run_earns_40_at_each_offboard_area(line):
    result = run(line, "SWP", "LB", [{"transport": 6, "stops": FULL}], [6])
    # 20 + 20 (Source-X yellow) + 30 + 20 (Space Port) + 20 + 20, plus 2 x 40
    assert result["revenue"] == 210
    assert result["runs"][0]["east_west"] is True
    assert result["east_west_areas"] == ["power_plant", "tourism_colony"]


def test_run_to_one_side_only_gets_no_bonus(line):
    result = run(line, "SWP", "LB", [{"transport": 5, "stops": FULL[:-1]}], [5])
    assert result["revenue"] == 110 and result["east_west_areas"] == []


def test_stops_are_limited_by_the_transport(line):
    refused("TOO_MANY_STOPS", line, "SWP", "LB", [{"transport": 5, "stops": FULL}], [5])


def test_stops_cannot_be_skipped(line):
    refused("NOT_CONNECTED", line, "SWP", "LB", [{"transport": 2, "stops": ["C7-0", "J10-0"]}], [2])


@pytest.mark.parametrize("stops, code", [
    (["C7-0"], "TOO_FEW_STOPS"),
    (["C7-0", "E9-0", "C7-0"], "REPEATED_STOP"),
    (["C7-0", "Q1-0"], "UNKNOWN_STOP"),
    (["B4-0", "power_plant", "C7-0"], "OFFBOARD_NOT_AT_END"),
])
def test_malformed_runs(line, stops, code):
    refused(code, line, "SWP", "LB", [{"transport": 4, "stops": stops}], [4])


def test_first_run_must_include_the_base_token(line):
    refused("BASE_NOT_IN_RUN", line, "SWP", "LB", [{"transport": 2, "stops": ["E9-0", "J10-0"]}], [2])
    assert run(line, "SWP", "SP", [{"transport": 2, "stops": ["E9-0", "J10-0"]}], [2])["revenue"] == 40


def test_runs_may_only_end_at_a_full_depot_of_others(line):
    place_token(line, "VH", "J10", 0, need_route=False)
    refused("BLOCKED_DEPOT", line, "SWP", "SP", [{"transport": 3, "stops": ["E9-0", "J10-0", "tourism_colony"]}], [3])
    assert run(line, "SWP", "SP", [{"transport": 2, "stops": ["E9-0", "J10-0"]}], [2])["revenue"] == 40
    # VH owns the token, so VH passes through
    assert run(line, "VH", "SP", [{"transport": 3, "stops": ["E9-0", "J10-0", "tourism_colony"]}], [3])["revenue"] == 60


def test_second_run_shares_a_stop_and_holds_a_token(line):
    runs = [{"transport": 2, "stops": ["C7-0", "E9-0"]}, {"transport": 2, "stops": ["B4-0", "C7-0"]}]
    assert run(line, "SWP", "LB", runs, [2, 2])["revenue"] == 50 + 50


def test_either_run_may_be_the_first(line):
    place_token(line, "SWP", "B4", 0)
    runs = [{"transport": 2, "stops": ["B4-0", "power_plant"]}, {"transport": 3, "stops": ["E9-0", "C7-0", "B4-0"]}]
    result = run(line, "SWP", "LB", runs, [2, 3])
    assert [r["transport"] for r in result["runs"]] == [3, 2]


def test_second_run_must_meet_the_first(line):
    runs = [{"transport": 2, "stops": ["C7-0", "E9-0"]}, {"transport": 2, "stops": ["J10-0", "tourism_colony"]}]
    refused("RUNS_DO_NOT_INTERSECT", line, "SWP", "LB", runs, [2, 2])


def test_second_run_needs_the_base_or_a_depot_token(line):
    runs = [{"transport": 2, "stops": ["C7-0", "E9-0"]}, {"transport": 2, "stops": ["E9-0", "J10-0"]}]
    refused("NO_TOKEN_IN_RUN", line, "SWP", "LB", runs, [2, 2])
    place_token(line, "SWP", "J10", 0)
    assert run(line, "SWP", "LB", runs, [2, 2])["revenue"] == 50 + 40


def test_no_road_is_used_twice_by_one_corporation(line):
    place_token(line, "SWP", "J10", 0)
    runs = [{"transport": 3, "stops": ["C7-0", "E9-0", "J10-0"]}, {"transport": 2, "stops": ["E9-0", "J10-0"]}]
    refused("ROAD_REUSED", line, "SWP", "LB", runs, [3, 2])
    sp = run(line, "SWP", "SP", [{"transport": 2, "stops": ["E9-0", "J10-0"]}], [2])
    refused("ROAD_REUSED", line, "SWP", "LB", [{"transport": 3, "stops": ["C7-0", "E9-0", "J10-0"]}], [3],
            used_segments=sp["runs"][0]["segments"])


def test_both_bases_checked_together(line):
    turn = {"LB": [{"transport": 2, "stops": ["C7-0", "E9-0"]}], "SP": [{"transport": 2, "stops": ["E9-0", "J10-0"]}]}
    result = validate_turn_runs(line, "SWP", turn, {"LB": [2], "SP": [2]}, sp_value=20, phase="2")
    assert result["revenue"] == 50 + 40
    turn["SP"] = [{"transport": 2, "stops": ["E9-0", "C7-0"]}]
    with pytest.raises(RuleViolation) as err:
        validate_turn_runs(line, "SWP", turn, {"LB": [2], "SP": [2]}, sp_value=20, phase="2")
    assert err.value.code == "ROAD_REUSED"


def test_transports_must_belong_to_the_base(line):
    refused("UNKNOWN_TRANSPORT", line, "SWP", "LB", [{"transport": 3, "stops": ["C7-0", "E9-0"]}], [2])
    runs = [{"transport": 2, "stops": ["C7-0", "E9-0"]}] * 2
    refused("TOO_MANY_RUNS", line, "SWP", "LB", runs, [2])


def test_terminal_with_an_eastern_area_pays_30_and_is_not_counted(terminal_line):
    stops = ["F8-0", "G7-0", "I5-0", "research_station"]
    result = run(terminal_line, "VH", "LB", [{"transport": 3, "stops": stops}], [3])
    assert result["revenue"] == 30 + 30 + 30 + 20 + 30
    assert result["runs"][0]["terminal_bonus"] is True


def test_terminal_without_the_east_counts_as_a_stop(terminal_line):
    refused("TOO_MANY_STOPS", terminal_line, "VH", "LB", [{"transport": 2, "stops": ["F8-0", "G7-0", "I5-0"]}], [2])
    result = run(terminal_line, "VH", "LB", [{"transport": 3, "stops": ["F8-0", "G7-0", "I5-0"]}], [3])
    assert result["revenue"] == 90 and result["runs"][0]["terminal_bonus"] is False


def test_terminal_value_falls_with_the_phase(terminal_line):
    stops = ["F8-0", "G7-0"]
    assert run(terminal_line, "VH", "LB", [{"transport": 2, "stops": stops}], [2], phase="5")["revenue"] == 20 + 30
    assert run(terminal_line, "VH", "LB", [{"transport": 2, "stops": stops}], [2], phase="10")["revenue"] == 10 + 30


def test_mineral_value_follows_the_tile_colour_and_the_research_marker(line):
    two = [{"transport": 2, "stops": ["E9-0", "J10-0"]}]
    assert run(line, "SWP", "SP", two, [2])["revenue"] == 20 + 20
    tile, rotation = line.tile_at("J10")
    upgrade = next((t, r) for t in ("441M", "442M") for r in range(6)
                   if _keeps(line, "J10", t, r))
    apply_lay(line, "J10", *upgrade)
    assert run(line, "SWP", "SP", two, [2], phase="3")["revenue"] == 20 + 40
    place_research_marker(line, "J10")
    assert run(line, "SWP", "SP", two, [2], phase="3")["revenue"] == 20 + 60


def _keeps(board, hex_id, tile, rotation):
    from moon21.board.lays import keeps_roads
    return keeps_roads(board.tile_at(hex_id), (tile, rotation)) is not None


def test_local_base_is_always_worth_30(line):
    upgrade = next((t, r) for t in ("441M", "442M", "444M") for r in range(6) if _keeps(line, "C7", t, r))
    apply_lay(line, "C7", *upgrade)
    result = run(line, "SWP", "LB", [{"transport": 2, "stops": ["C7-0", "E9-0"]}], [2], phase="3", sp_value=40)
    assert result["revenue"] == 30 + 40


def test_unknown_base(line):
    refused("UNKNOWN_BASE", line, "SWP", "XX", [], [])


def test_a_token_anywhere_in_the_hex_lets_its_owner_pass_a_full_depot(board):
    from moon21.board.geometry import rotated_paths
    from moon21.board.synthetic import edge_towards, lay_path
    lay_path(board, ["E9", "F10", "F12", "G13", "H12", "H10"])
    towards_f12 = edge_towards("G13", "F12")
    on_path = next(-1 - d for e, d in rotated_paths(*board.tile_at("G13")) if e == towards_f12)
    place_token(board, "VH", "G13", on_path, need_route=False)          # the path's depot is full
    place_token(board, "KR", "G13", 1 - on_path, need_route=False)      # KR holds the other depot
    stops = ["E9-0", f"G13-{on_path}", "H10-0"]
    # Space Port 20, Armalcolite on a green tile 30, Regolith on a yellow tile 20
    assert board.colour_at("G13") == "green" and board.colour_at("H10") == "yellow"
    assert run(board, "KR", "SP", [{"transport": 3, "stops": stops}], [3])["revenue"] == 20 + 30 + 20
    refused("BLOCKED_DEPOT", board, "SWP", "SP", [{"transport": 3, "stops": stops}], [3])
