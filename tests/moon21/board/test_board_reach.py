"""Exact reachability for building (rule 11.1): a route may not reuse road, reverse at a plain
junction or pass a depot twice, so a base only builds where such a route leads."""
from __future__ import annotations

import pytest
from starbase_rules import RuleViolation

from moon21.board import CORPORATIONS, check_lay, lay_options, new_board
from moon21.board.graph import AREA, EDGE, base_node, compile_network, edge_sides, passable, walk
from moon21.board.reach import reach
from moon21.board.synthetic import crowded_board
from tests.moon21.board.conftest import MINERALS

# SSF's base D12 joins E11, whose road leads into the Space Port; a loop of yellow road leaves the
# Space Port at D8 and comes back into it from E7.
LOOP = {"D12": ["6M", 2], "E11": ["8", 1], "D8": ["8", 3], "D6": ["7", 5], "E7": ["8", 0]}


@pytest.fixture
def loop_board():
    board = new_board(dict(MINERALS))
    for hex_id, tile in LOOP.items():
        board.tiles[hex_id] = list(tile)
        board.supply[tile[0]] -= 1
    return board


def test_11_1_a_route_cannot_come_back_along_its_own_road_to_build(loop_board):
    """Given SSF's local base reaching E11 only from D12 (edge 1), when its route goes round the
    Space Port loop, then it may not come back out through the spoke it came in by to reach E11's
    edge 3: the generous walk thinks it can, the exact rule says no."""
    net = compile_network(loop_board)
    relaxed, _ = walk(loop_board, net, "SSF", base_node(loop_board, net, "SSF", "LB"))
    assert ("E11", 3) in relaxed.entered           # the old breadth-first walk's mistake
    exact = reach(loop_board, "SSF", "LB")
    assert ("E11", 1) in exact.entered and ("E11", 3) not in exact.entered
    # tile 23 at rotation 3 keeps E11's road 1-3 and adds road 3-0: new road at edge 3 only
    with pytest.raises(RuleViolation) as refusal:
        check_lay(loop_board, "SSF", "LB", "E11", "23", 3, phase="3")
    assert refusal.value.code == "NO_ROUTE"
    assert not any(o["hex"] == "E11" and o["tile"] == "23" and o["rotation"] == 3
                   for o in lay_options(loop_board, "SSF", "LB", phase="3"))
    # the Space Port base does come from E9 into edge 3, so it may
    assert check_lay(loop_board, "SSF", "SP", "E11", "23", 3, phase="3") == 0


def _brute_force(board, corp, base):
    """Every trail from the base, segment by segment, with no pruning at all."""
    net = compile_network(board)
    start = base_node(board, net, corp, base)
    depots, entered = {net.node_keys[start]}, set()

    def go(seg, node, used, visited):
        if net.node_kind[node] == EDGE:
            side = net.seg_side[seg]
            entered.update((hx, e) for hx, e in edge_sides(net.node_keys[node]) if hx != side)
            nexts = [t for t in net.incident[node] if net.seg_side[t] != side]
        else:
            depots.add(net.node_keys[node])
            if net.node_kind[node] == AREA or not passable(board, net, node, corp):
                return
            nexts = [t for t in net.incident[node] if t != seg]
        for t in nexts:
            w = net.other_end(t, node)
            if t in used or (net.node_kind[w] != EDGE and w in visited):
                continue
            go(t, w, used | {t}, visited | {w})

    for seg in net.incident[start]:
        end = net.other_end(seg, start)
        go(seg, end, {seg}, {start, end})
    return depots, entered


@pytest.mark.parametrize("seed", [3, 11])
def test_11_1_exact_reach_agrees_with_a_brute_force_trail_search(seed):
    board = crowded_board(seed, colours=("green", "yellow"))
    for corp in CORPORATIONS:
        for base in ("LB", "SP"):
            if base_node(board, compile_network(board), corp, base) is None:
                continue
            found = reach(board, corp, base)
            assert (found.depots, found.entered) == _brute_force(board, corp, base), (corp, base)
