"""A search for a few places (`reach.reaches`: a lay's check, a depot token's, whether the token step
has any option, whether a base has a route) answers exactly as the full listing (`reach.reach`) does,
on the boards of a bot game as it grows and on a crowded one, including the places the generous walk
reaches and real routes do not (rule 11.1)."""
from __future__ import annotations

import pytest
from starbase_rules import RuleViolation
from starbase_rules.playout import playout

from moon21.board import CORPORATIONS, check_token, has_route, has_token_option, token_options
from moon21.board import reach as reach_module
from moon21.board.geometry import HEXES, SPACE_PORT, tile_kind_for_hex
from moon21.board.graph import base_node, compile_network, walk
from moon21.board.lays import _check, _context, _first_tiles, check_lay, upgrades_of
from moon21.board.reach import reach, reaches
from moon21.board.synthetic import crowded_board
from moon21.game import GAME

LAY_EVERY = 8       # a board after every 8th tile laid in the game


@pytest.fixture(scope="module")
def boards():
    played = playout(GAME, ["ann", "bob", "cy"], seed=5, check=False)
    state, found, lays = GAME.initial_state(), [], 0
    for event in played.events:
        state = GAME.evolve(state, event)
        if event.type == "TileLaid":
            lays += 1
            if lays % LAY_EVERY == 0:
                found.append(state.board.copy())
    assert len(found) >= 4, "the game laid too few tiles to test on"
    return found + [crowded_board(3, colours=("green", "yellow"))]


def _bases(board):
    net = compile_network(board)
    for corp in CORPORATIONS:
        for base in ("LB", "SP"):
            start = base_node(board, net, corp, base)
            if start is not None:
                yield corp, base, net, start


def _searched(ask):
    """`ask()` with no full listing cached, so that `reaches` searches rather than reads one."""
    reach_module._CACHE.clear()
    return ask()


def test_each_place_alone_is_reached_exactly_when_the_full_listing_has_it(boards):
    checked = refused = 0
    for board in boards:
        for corp, base, net, start in _bases(board):
            full = reach(board, corp, base)
            relaxed, _ = walk(board, net, corp, start)
            for key in sorted(relaxed.depots) + ["no-such-place"]:
                assert _searched(lambda: reaches(board, corp, base, depots=key.__eq__)) == (key in full.depots), \
                    (corp, base, key)
            for place in sorted(relaxed.entered):
                found = _searched(lambda: reaches(board, corp, base, entered=[place]))
                assert found == (place in full.entered), (corp, base, place)
                checked += 1
                refused += not found
    # the boards hold places the generous walk reaches and no route does: the search must refuse those
    assert checked > 500 and refused > 0


def test_a_search_for_several_places_answers_whether_any_is_reached(boards):
    for board in boards[:3]:
        for corp, base, net, start in _bases(board):
            full = reach(board, corp, base)
            relaxed, _ = walk(board, net, corp, start)
            unreached = sorted(relaxed.entered - full.entered)
            reached = sorted(full.entered)
            assert _searched(lambda: reaches(board, corp, base, entered=unreached)) is False
            if reached:
                assert _searched(lambda: reaches(board, corp, base, entered=unreached + reached[-1:])) is True
            # the base's own depot counts as reached, as in the listing
            assert _searched(lambda: reaches(board, corp, base, depots=net.node_keys[start].__eq__)) is True
            assert _searched(lambda: reaches(board, corp, base)) is False     # nothing asked


def _outcome(check):
    try:
        return check()
    except RuleViolation as refusal:
        return refusal.code


def test_a_lay_is_checked_alone_as_the_listing_of_every_lay_checks_it(boards):
    compared = allowed = 0
    for board in boards:
        for corp, base, _, _ in _bases(board):
            full = reach(board, corp, base)     # every hex a route enters or has a depot in, as lay_options asks
            hexes = {h for h in {h for h, _ in full.entered} | {d.split("-")[0] for d in full.depots}
                     if h in HEXES and tile_kind_for_hex(h)}
            flags = {"phase": "5", "space_bridge": True}
            listing = _context(board, corp, base, "5", True, False, False, listing=True)
            candidates = [(h, t, r) for h in sorted(hexes) for t in _tiles_for(board, h) for r in range(6)]
            expected = [_outcome(lambda: _check(board, listing, *c)) for c in candidates]
            reach_module._CACHE.clear()
            alone = [_outcome(lambda: check_lay(board, corp, base, *c, **flags)) for c in candidates]
            assert alone == expected, (corp, base)
            compared += len(candidates)
            allowed += sum(isinstance(x, int) for x in expected)
    assert allowed > 50 and compared > allowed


def _tiles_for(board, hex_id):
    """The tiles that could go on the hex (every other tile is refused before any route is asked)."""
    current = board.tile_at(hex_id)
    if current is None:
        return _first_tiles(tile_kind_for_hex(hex_id))
    return upgrades_of(current[0])


def test_the_token_checks_agree_with_the_token_listing(boards):
    for board in boards:
        for corp in CORPORATIONS:
            listed = token_options(board, corp)
            assert _searched(lambda: has_token_option(board, corp)) == bool(listed), corp
            for hex_id, depot in sorted({(o["hex"], o["depot"]) for o in listed}):
                assert _searched(lambda: _outcome(lambda: check_token(board, corp, hex_id, depot))) is None
            for base in ("LB", "SP"):
                expected = base_node(board, compile_network(board), corp, base) is not None and \
                    len(reach(board, corp, base).depots) > 1
                assert _searched(lambda: has_route(board, corp, base)) == expected, (corp, base)


def test_a_depot_token_never_goes_on_the_space_port_even_where_a_route_reaches_an_open_slot():
    board = crowded_board(3, colours=("green", "yellow"))
    board.space_port.remove("VH")                   # a slot opens; VH's local base still reaches it
    assert f"{SPACE_PORT}-0" in reach(board, "VH", "LB").depots and board.has_open_slot(SPACE_PORT, 0)
    assert all(o["hex"] != SPACE_PORT for o in token_options(board, "VH"))
    assert _searched(lambda: _outcome(lambda: check_token(board, "VH", SPACE_PORT, 0))) == "ILLEGAL_HEX"


def test_a_depot_token_no_route_reaches_is_refused():
    board = crowded_board(11, tokens_per_corp=1, colours=("yellow",))
    refused = 0
    for corp in CORPORATIONS:
        listed = {(o["hex"], o["depot"]) for o in token_options(board, corp)}
        for hex_id in sorted(board.tokens):
            for depot in range(len(board.slot_capacity(hex_id))):
                if (hex_id, depot) in listed or not board.has_open_slot(hex_id, depot) \
                        or board.corp_in_hex(corp, hex_id):
                    continue
                assert _searched(lambda: _outcome(lambda: check_token(board, corp, hex_id, depot))) == "NO_ROUTE"
                refused += 1
    assert refused > 0


def test_a_depot_tile_reached_only_at_its_own_depot_may_be_upgraded():
    """11.2.2: a route to a depot in the hex is a route to the tile, even where no route enters the hex
    at an edge (the base's own token there, its road all leading away)."""
    played = playout(GAME, ["ann", "bob", "cy"], seed=5, check=False)
    state, upgrades = GAME.initial_state(), 0
    for event in played.events:
        state = GAME.evolve(state, event)
        if event.type != "TileLaid" or upgrades >= 5:
            continue
        board = state.board
        for corp, base, net, start in _bases(board):
            hex_id = net.node_keys[start].split("-")[0]
            current = board.tile_at(hex_id)
            if current is None or any(h == hex_id for h, _ in reach(board, corp, base).entered):
                continue
            listing = _context(board, corp, base, "5", True, False, False, listing=True)
            for tile in upgrades_of(current[0]):
                for rotation in range(6):
                    if isinstance(_outcome(lambda: _check(board, listing, hex_id, tile, rotation)), int):
                        reach_module._CACHE.clear()
                        assert _outcome(lambda: check_lay(board, corp, base, hex_id, tile, rotation, phase="5",
                                                          space_bridge=True)) == 0, (corp, base, hex_id, tile)
                        upgrades += 1
    assert upgrades >= 5
