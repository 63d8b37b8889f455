"""Exact reachability from a base for tile lays and depot tokens (rule 11.1).

A base reaches a place when one *route* leads there: a trail from the base's token that uses no
piece of road twice, never reverses at a plain junction (the network's edge points), passes only
depots it may pass (its own token in the hex or an open slot), and passes no depot twice.

`graph.walk` answers the same question too generously (a breadth-first walk may reuse road, e.g.
go round a loop and come back along the road it came by), but never misses a place. So:

1. the walk gives the candidate places and the relaxed "state graph" (segment, heading);
2. a depth-first search over real trails confirms candidates, and stops as soon as all are
   confirmed (the usual case, found in a few hundred steps);
3. a trail is abandoned when an earlier trail reached the same state with a subset of its road
   (whatever the later one can still do, the earlier one can too), or when no unconfirmed
   candidate can be reached from its state even by the relaxed walk.
"""
from __future__ import annotations

from collections import deque

from moon21.board.graph import AREA, EDGE, Reach, base_node, compile_network, edge_sides, passable, walk
from moon21.board.state import Board

_PRUNE_EVERY = 64   # DFS steps between refreshes of the "still useful" states


_CACHE: dict[tuple, Reach] = {}


def reach(board: Board, corp: str, base: str, *, mode: str = "route") -> Reach:
    """Where the base's routes go: depots and areas reached, and (hex, edge) where a route enters
    a hex (the edges a new tile may extend). Cached per board position (callers only read it).

    `mode` "route": exact routes (rule 11.1). "network": the road network as 18xx.games' graph sees
    it, the generous walk of `graph.walk` (road may be walked again and a route may come back
    through old road it already used), a superset of "route"."""
    if mode not in ("route", "network"):
        raise ValueError(f"reach mode is route or network, not {mode!r}")
    key = (board.position_key(), corp, base, mode)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        found = _CACHE[key] = _exact_reach(board, corp, base) if mode == "route" else _network_reach(board, corp, base)
    return found


def _network_reach(board: Board, corp: str, base: str) -> Reach:
    net = compile_network(board)
    start = base_node(board, net, corp, base)
    return Reach(set(), set()) if start is None else walk(board, net, corp, start)[0]


def _exact_reach(board: Board, corp: str, base: str) -> Reach:
    net = compile_network(board)
    start = base_node(board, net, corp, base)
    if start is None:
        return Reach(set(), set())
    relaxed, succ = walk(board, net, corp, start)
    out = Reach({net.node_keys[start]}, set())
    missing = _count_missing(relaxed, out)
    if not missing:
        return out
    gains = {state: _gain(net, state) for state in succ}
    node_kind, incident, seg_side, other_end = net.node_kind, net.incident, net.seg_side, net.other_end
    can_pass: dict[int, bool] = {}      # asked of the depots the search meets (passable reads tokens)
    predecessors: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for state, nexts in succ.items():
        for nxt in nexts:
            predecessors.setdefault(nxt, []).append(state)

    kept: dict[tuple[int, int], int] = {}   # per state, the road of the first trail that reached it
    stack = [(s, other_end(s, start), 1 << s, 1 << start) for s in incident[start]]
    useful, steps, dirty = None, 0, False
    found_depots, found_entered = out.depots, out.entered
    while stack:
        s, v, used, visited = stack.pop()
        state = (s, v)
        steps += 1
        if dirty and steps % _PRUNE_EVERY == 0:
            useful, dirty = _useful_states(gains, predecessors, out), False
        if useful is not None and state not in useful:
            continue
        # dominance (module doc, 3.): one road set kept per state; more cost more than
        # they saved on late boards, and fewer masks only prune less, so the answer stays exact
        first = kept.get(state)
        if first is not None:
            if first & used == first:
                continue
        else:
            kept[state] = used
        depots, entered = gains[state]
        if not (depots <= found_depots and entered <= found_entered):
            new = (depots - found_depots) | (entered - found_entered)
            found_depots |= depots
            found_entered |= entered
            missing -= len(new)
            if missing <= 0:
                return out
            dirty = True
        kind = node_kind[v]
        if kind == EDGE:
            side = seg_side[s]
            nexts = [t for t in incident[v] if seg_side[t] != side]
        elif kind == AREA:
            continue
        else:
            passes = can_pass.get(v)
            if passes is None:
                passes = can_pass[v] = v != start and passable(board, net, v, corp)
            if not passes:
                continue
            nexts = [t for t in incident[v] if t != s]
        for t in nexts:
            if used >> t & 1:
                continue
            w = other_end(t, v)
            if node_kind[w] != EDGE:
                if visited >> w & 1:
                    continue   # a route passes each depot once (11.1)
                stack.append((t, w, used | 1 << t, visited | 1 << w))
            else:
                stack.append((t, w, used | 1 << t, visited))
    return out


def _count_missing(relaxed: Reach, found: Reach) -> int:
    return len(relaxed.depots - found.depots) + len(relaxed.entered - found.entered)


def _gain(net, state: tuple[int, int]) -> tuple[frozenset, frozenset]:
    """What arriving in this state confirms: the depot or area, or the hex entered at an edge (kept
    on the network: `Network.gains`)."""
    found = net.gains.get(state)
    if found is None:
        found = net.gains[state] = _gain_of(net, state)
    return found


def _gain_of(net, state: tuple[int, int]) -> tuple[frozenset, frozenset]:
    s, v = state
    if net.node_kind[v] != EDGE:
        return frozenset({net.node_keys[v]}), frozenset()
    side = net.seg_side[s]
    return frozenset(), frozenset((hx, e) for hx, e in edge_sides(net.node_keys[v]) if hx != side)


def _useful_states(gains, predecessors, found: Reach) -> set[tuple[int, int]]:
    """States from which the relaxed walk still reaches something not yet confirmed."""
    goals = [st for st, (d, e) in gains.items() if (d - found.depots) or (e - found.entered)]
    useful = set(goals)
    queue = deque(goals)
    while queue:
        st = queue.popleft()
        for prev in predecessors.get(st, ()):
            if prev not in useful:
                useful.add(prev)
                queue.append(prev)
    return useful
