"""The 21Moon board: map, road tiles, tile lays, depot tokens and the route engine (pure).

Everything here is pure: no I/O after the data files are loaded at import, no clock, no random.
Refusals raise `starbase_rules.RuleViolation(code, message)`.

Identifiers (JSON-friendly, the public 18xx.games convention kept so recorded games import):

- hexes: "E9", "G13" (flat-topped, doubled rows; edges 0..5 clockwise from the bottom side).
- bases: "LB" (the corporation's local base) and "SP" (its token in the Space Port, E9).
- corporations: "SWP", "HMQ", "VH", "ITC", "SSF", "LG", "KR".
- stops: a depot is "HEX-j" (j = depot index on the tile; "E9-0" is the Space Port, "F8-0" the
  Terminal, "G13-1" the second depot of a double-dot hex); an off-board area is its name:
  "power_plant", "water_farm" (West), "research_station", "tourism_colony" (East).
- phases: "2", "3", "4", "5", "6", "10" (colours: 2 yellow; 3-4 +green; 5-6 +brown; 10 +gray).
- a token slot holds "VH" (a depot token from VH's charter), "LB:VH" (VH's local base token),
  "OLS" (the black Old Landing Site token) or "OLS:VH" (the OLS token after VH bought P1).

The `Board` dataclass is mutated in place by the `apply_*`/`place_*` functions (the caller's
`evolve` owns its state); `Board.copy()` is cheap, `==` compares, `to_json()`/`Board.from_json()`
round-trip. Every query function leaves the board unchanged.

Runs: submit `{"transport": type, "stops": [stop ids in order]}` per run; the engine finds the road.
`validate_turn_runs` checks both bases together (no road shared, traced jointly); `best_turn_runs`
gives the maximum (ruling: the president picks which base runs first; both orders are tried and the
higher total returned). Accept submitted runs when `validate_turn_runs` passes and its total is at
least `best_turn_runs`' total: a true maximum is then never refused. Rulings: docs/moon21_board.md.

Refusal codes
    tile lays:  UNKNOWN_HEX, UNKNOWN_TILE, ILLEGAL_HEX, TERMINAL_RESERVED, ILLEGAL_TILE,
                TILE_NOT_AVAILABLE, ILLEGAL_ROTATION, NO_ROUTE
    tokens:     UNKNOWN_HEX, ILLEGAL_HEX, NO_SUCH_DEPOT, NO_OPEN_SLOT, TOKEN_IN_HEX, NO_ROUTE
    OLS / lab:  ILLEGAL_HEX, ILLEGAL_TILE, TILE_NOT_AVAILABLE, ILLEGAL_ROTATION, NO_SUCH_DEPOT
    runs:       all codes in `ROUTE_REFUSALS` (each a subtype of the old catch-all ILLEGAL_ROUTE:
                callers that only want "is it legal" can catch RuleViolation)
"""
from __future__ import annotations

from moon21.board.geometry import AREAS, BONUS_TOKENS, EAST_AREAS, WEST_AREAS, hex_distance
from moon21.board.state import (
    BASES,
    CORPORATIONS,
    Board,
    invariants,
    local_base_hex,
    new_board,
    place_research_marker,
    remove_corporation,
    research_targets,
    stop_value,
    tokens_on_board,
    view,
)
from moon21.board.lays import (
    PHASE_COLOURS,
    apply_lay,
    check_lay,
    check_ols,
    convert_ols,
    lay_options,
    ols_options,
    place_ols,
    rift_crossed,
    terminal_options,
    upgrades_of,
)
from moon21.board.tokens import check_token, has_route, has_token_option, place_token, token_options
from moon21.board.runs import ROUTE_REFUSALS, validate_runs, validate_turn_runs
from moon21.board.search import best_runs, best_turn_runs

__all__ = [
    # data and identifiers
    "AREAS", "BONUS_TOKENS", "EAST_AREAS", "WEST_AREAS", "BASES", "CORPORATIONS", "PHASE_COLOURS",
    "hex_distance",
    # the board state
    "Board", "new_board", "invariants", "view", "tokens_on_board", "local_base_hex", "stop_value",
    "remove_corporation", "place_research_marker", "research_targets",
    # tiles
    "lay_options", "check_lay", "apply_lay", "upgrades_of", "terminal_options", "rift_crossed",
    "ols_options", "check_ols", "place_ols", "convert_ols",
    # depot tokens and routes for building
    "token_options", "has_token_option", "check_token", "place_token", "has_route",
    # runs
    "ROUTE_REFUSALS", "validate_runs", "validate_turn_runs", "best_runs", "best_turn_runs",
]
