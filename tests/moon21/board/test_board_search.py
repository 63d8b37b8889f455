"""The best-run search agrees with a brute force over every trail of road on small boards."""
from __future__ import annotations

import random

import pytest

from moon21.board import (
    AREAS, EAST_AREAS, WEST_AREAS, CORPORATIONS, apply_lay, best_runs, best_turn_runs, lay_options,
    place_token, stop_value, token_options, validate_runs, validate_turn_runs,
)
from moon21.board.graph import EDGE, compile_network, passable
from moon21.board.state import LOCAL_BASES


def random_board(board, seed: int, lays: int = 34):
    """Random legal tile lays and depot tokens by random corporations, phase rising."""
    rnd = random.Random(seed)
    for step in range(lays):
        phase = "2" if step < 12 else "3" if step < 22 else "5"
        corp, base = rnd.choice(CORPORATIONS), rnd.choice(["LB", "SP"])
        options = lay_options(board, corp, base, phase=phase, terminal_open=True)
        if options:
            o = rnd.choice(options)
            apply_lay(board, o["hex"], o["tile"], o["rotation"])
        if rnd.random() < 0.3:
            spots = token_options(board, corp)
            if spots:
                spot = rnd.choice(spots)
                place_token(board, corp, spot["hex"], spot["depot"])
    return board


def brute_routes(board, corp):
    """Every legal run, traced segment by segment: (stops in order, set of segments)."""
    net = compile_network(board)
    found = []

    def walk(v, side, used, stops):
        for s in net.incident[v]:
            if s in used or (net.node_kind[v] == EDGE and net.seg_side[s] == side):
                continue
            w = net.other_end(s, v)
            if net.node_kind[w] == EDGE:
                walk(w, net.seg_side[s], used | {s}, stops)
            elif w not in stops:
                found.append((stops + [w], used | {s}))
                if passable(board, net, w, corp):
                    walk(w, None, used | {s}, stops + [w])

    for v, kind in enumerate(net.node_kind):
        if kind != EDGE:
            walk(v, None, frozenset(), [v])
    return net, found


def price(board, net, stops, phase, sp_value):
    names = [net.node_keys[v] for v in stops]
    total = sum(stop_value(board, n, phase=phase, sp_value=sp_value) for n in names)
    east = any(n in EAST_AREAS for n in names)
    counted = len(names)
    if east and any(n in WEST_AREAS for n in names):
        total += 80
    if east and "F8-0" in names:
        total += 30
        counted -= 1
    return total, counted, set(names)


def brute_best(board, corp, base, transports, phase="5", sp_value=30):
    net, routes = brute_routes(board, corp)
    base_stop = "E9-0" if base == "SP" else next(
        f"{h}-{j}" for h, d in board.tokens.items() for j, s in enumerate(d) if f"LB:{corp}" in s)
    tokens = {f"{h}-{j}" for h, d in board.tokens.items() for j, s in enumerate(d)
              if corp in s or f"OLS:{corp}" in s}
    priced = [(price(board, net, r[0], phase, sp_value), r[1]) for r in routes]
    best = 0
    for (rev, counted, names), _ in priced:
        if base_stop in names and counted <= max(transports):
            best = max(best, rev)
    if len(transports) == 2:
        for ta, tb in ((transports[0], transports[1]), (transports[1], transports[0])):
            for (rev1, c1, n1), segs1 in priced:
                if base_stop not in n1 or c1 > ta:
                    continue
                for (rev2, c2, n2), segs2 in priced:
                    if rev1 + rev2 > best and c2 <= tb and n1 & n2 and not segs1 & segs2 \
                            and (base_stop in n2 or n2 & tokens):
                        best = rev1 + rev2
    return best


def has_local_base_tile(board, corp):
    return LOCAL_BASES[corp] in board.tiles


@pytest.mark.parametrize("seed", range(6))
def test_best_runs_match_brute_force(board, seed):
    random_board(board, seed)
    checked = 0
    for corp in CORPORATIONS:
        for base in ("LB", "SP"):
            if base == "LB" and not has_local_base_tile(board, corp):
                continue
            for transports in ([2], [3, 2], [4, 4]):
                found = best_runs(board, corp, base, transports, sp_value=30, phase="5")
                assert found["revenue"] == brute_best(board, corp, base, transports), (corp, base, transports)
                if found["runs"]:
                    again = validate_runs(board, corp, base, found["runs"], transports, sp_value=30, phase="5")
                    assert again["revenue"] == found["revenue"]
                    checked += 1
    assert checked > 0


@pytest.mark.parametrize("seed", range(3))
def test_best_turn_runs_are_legal_together(board, seed):
    random_board(board, seed + 10, lays=26)
    for corp in CORPORATIONS:
        transports = {"LB": [3, 2], "SP": [4]}
        turn = best_turn_runs(board, corp, transports, sp_value=30, phase="5")
        runs = {b: turn[b]["runs"] for b in ("LB", "SP")}
        again = validate_turn_runs(board, corp, runs, transports, sp_value=30, phase="5")
        assert again["revenue"] == turn["revenue"]
        alone = [best_runs(board, corp, b, transports[b], sp_value=30, phase="5")["revenue"] for b in ("LB", "SP")]
        assert max(alone) <= turn["revenue"] <= sum(alone)


def test_used_road_is_avoided(line):
    first = best_runs(line, "SWP", "LB", [6], sp_value=20, phase="2")
    assert first["revenue"] == 210
    rest = best_runs(line, "SWP", "SP", [6], sp_value=20, phase="2",
                     used_segments=first["runs"][0]["segments"])
    assert rest["revenue"] == 0 and rest["runs"] == []


def test_best_run_takes_the_east_west_bonus(line):
    assert best_runs(line, "SWP", "LB", [6], sp_value=20, phase="2")["east_west_areas"] == [
        "power_plant", "tourism_colony"]
    # a 5 cannot reach both areas from C7: its best stops short of one of them
    assert best_runs(line, "SWP", "LB", [5], sp_value=20, phase="2")["revenue"] == 130 - 20


def test_base_with_no_road_runs_nothing(board):
    assert best_runs(board, "VH", "LB", [2], sp_value=20, phase="2") == {
        "revenue": 0, "runs": [], "east_west_areas": []}
    assert AREAS


@pytest.mark.parametrize("seed", range(3))
def test_validation_accepts_exactly_the_brute_force_runs(board, seed):
    """Every traced run is accepted at its price; random stop lists are accepted only if some
    trail of road visits exactly those stops in that order."""
    from starbase_rules import RuleViolation
    random_board(board, seed + 20)
    rnd = random.Random(seed)
    for corp in rnd.sample(CORPORATIONS, 3):
        net, routes = brute_routes(board, corp)
        traced = {}
        for stops, _ in routes:
            names = tuple(net.node_keys[v] for v in stops)
            traced[names] = price(board, net, stops, "5", 30)
        with_base = [n for n in traced if "E9-0" in n]
        for names in rnd.sample(with_base, min(40, len(with_base))):
            rev, counted, _ = traced[names]
            result = validate_runs(board, corp, "SP", [{"transport": 10, "stops": list(names)}], [10],
                                   sp_value=30, phase="5")
            assert result["revenue"] == rev
        stops = sorted({n for names in traced for n in names})
        for _ in range(150):
            names = tuple(rnd.sample(stops, rnd.randint(2, min(4, len(stops)))))
            if "E9-0" not in names:
                names = ("E9-0",) + names[1:] if "E9-0" in stops else names
            legal = names in traced or names[::-1] in traced
            try:
                validate_runs(board, corp, "SP", [{"transport": 10, "stops": list(names)}], [10],
                              sp_value=30, phase="5")
                accepted = True
            except RuleViolation as refusal:
                accepted = False
                assert refusal.code != "TOO_MANY_STOPS"
            assert accepted == (legal and "E9-0" in names), names


def test_both_bases_share_no_road_and_ties_favour_the_space_port(line):
    turn = best_turn_runs(line, "SWP", {"LB": [6], "SP": [6]}, sp_value=20, phase="2")
    assert turn["revenue"] == 210
    assert turn["first"] == "SP" and turn["SP"]["revenue"] == 210 and turn["LB"]["revenue"] == 0
    lb_first = best_turn_runs(line, "SWP", {"LB": [6], "SP": [6]}, sp_value=20, phase="2", first="LB")
    assert lb_first["LB"]["revenue"] == 210 and lb_first["SP"]["revenue"] == 0


@pytest.mark.parametrize("seed", range(2))
def test_lay_options_list_every_legal_lay(board, seed):
    """Completeness of what legal_actions offers: any (hex, tile, rotation) the checker accepts
    appears in lay_options, up to rotations that give the very same road."""
    from starbase_rules import RuleViolation
    from moon21.board.geometry import HEXES, TILES, rotated_paths
    from moon21.board.lays import _check, _context
    random_board(board, seed + 30)
    for corp, base in (("VH", "SP"), ("SWP", "LB"), ("KR", "LB")):
        options = lay_options(board, corp, base, phase="5", terminal_open=True)
        offered = {(o["hex"], o["tile"], frozenset(frozenset(p) for p in rotated_paths(o["tile"], o["rotation"])))
                   for o in options}
        ctx = _context(board, corp, base, "5", False, False, True)
        for hex_id in HEXES:
            for tile in TILES:
                for r in range(6):
                    try:
                        _check(board, ctx, hex_id, tile, r)
                    except RuleViolation:
                        continue
                    road = frozenset(frozenset(p) for p in rotated_paths(tile, r))
                    assert (hex_id, tile, road) in offered, (corp, base, hex_id, tile, r)
