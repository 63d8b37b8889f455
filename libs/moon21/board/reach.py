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

`reach` lists everything (what `lay_options` and `token_options` show); `reaches` asks whether a
route leads to any of a few places (a command's check, whether a step has any option at all): the
same search, kept from the start to the states that lead to those places, stopped at the first.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Collection

from moon21.board.graph import EDGE, Reach, base_node, compile_network, edge_point_key, edge_sides, walk
from moon21.board.state import Board
from starbase_rules.recent import Recent

_PRUNE_EVERY = 64   # DFS steps between refreshes of the "still useful" states


_CACHE: Recent[Reach] = Recent(1024)          # by position, corporation, base and mode


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
        found = _CACHE.put(key, _exact_reach(board, corp, base) if mode == "route" else _network_reach(board, corp, base))
    return found


def _network_reach(board: Board, corp: str, base: str) -> Reach:
    net = compile_network(board)
    start = base_node(board, net, corp, base)
    return Reach(set(), set()) if start is None else walk(board, net, corp, start)[0]


def reaches(board: Board, corp: str, base: str, *, depots: Callable[[str], bool] | None = None,
            entered: Collection[tuple[str, int]] = (), mode: str = "route") -> bool:
    """Does a route from the base reach a depot or area whose key `depots` accepts, or enter the hex at
    one of `entered`? The answer `reach` would give, without listing everything the base reaches (a
    check of one command, or whether a step has any option): read from `reach` when it is cached, else
    found by the same search kept to the roads that could lead to one of these places, and stopped at
    the first one a route confirms. `depots` None: no depot or area is asked about."""
    depots = depots or _nowhere
    found = (_CACHE.get((board.position_key(), corp, base, mode)) if mode == "route"
             else reach(board, corp, base, mode=mode))
    if found is not None:
        return _any_of(found, depots, entered)
    net = compile_network(board)
    start = base_node(board, net, corp, base)
    if start is None:
        return False
    if depots(net.node_keys[start]):
        return True
    relaxed, succ = walk(board, net, corp, start)
    targets = Reach({d for d in relaxed.depots if d != net.node_keys[start] and depots(d)},
                    relaxed.entered.intersection(entered))
    if not (targets.depots or targets.entered):
        return False                # no route reaches them when not even the generous walk does
    return _any_of(_confirm(net, start, succ, targets, Reach(set(), set()), first=True),
                   depots, entered)


def _nowhere(key: str) -> bool:
    return False


def _any_of(found: Reach, depots: Callable[[str], bool], entered: Collection[tuple[str, int]]) -> bool:
    return any(depots(d) for d in found.depots) or any(e in found.entered for e in entered)


def _exact_reach(board: Board, corp: str, base: str) -> Reach:
    net = compile_network(board)
    start = base_node(board, net, corp, base)
    if start is None:
        return Reach(set(), set())
    relaxed, succ = walk(board, net, corp, start)
    out = Reach({net.node_keys[start]}, set())
    targets = Reach(relaxed.depots - out.depots, relaxed.entered)
    if not (targets.depots or targets.entered):
        return out
    return _confirm(net, start, succ, targets, out, first=False)


def _confirm(net, start: int, succ: dict, targets: Reach, out: Reach, *, first: bool) -> Reach:
    """Adds to `out` the places of `targets` (places the generous walk from `start` reaches, `succ` its
    state graph, none of them in `out`) that real routes reach (module doc, 2. and 3.): all of them,
    or with `first` until one is confirmed. Returns `out`.

    The search keeps to the states from which the walk still reaches a place not yet confirmed: with
    `first` worked out once (a few places wanted), else from the first place found on, again every
    `_PRUNE_EVERY` steps while places are being found."""
    if first:       # only the states arriving at one of the places count
        goals = _goals(net, succ, targets)
        useful: set | None = _leading_to(net, succ, goals)
    else:
        goals, useful = None, None
    missing = len(targets.depots) + len(targets.entered)
    node_kind, incident, other_end = net.node_kind, net.incident, net.other_end

    kept: dict[tuple[int, int], int] = {}   # per state, the road of the first trail that reached it
    stack = [(s, other_end(s, start), 1 << s, 1 << start) for s in incident[start]]
    steps, dirty = 0, False
    found_depots, found_entered = out.depots, out.entered
    while stack:
        s, v, used, visited = stack.pop()
        state = (s, v)
        steps += 1
        if dirty and steps % _PRUNE_EVERY == 0:
            left = Reach(targets.depots - found_depots, targets.entered - found_entered)
            useful, dirty = _leading_to(net, succ, _goals(net, succ, left)), False
        if useful is not None and state not in useful:
            continue
        # dominance (module doc, 3.): one road set kept per state; more cost more than
        # they saved on late boards, and fewer masks only prune less, so the answer stays exact
        first_road = kept.get(state)
        if first_road is not None:
            if first_road & used == first_road:
                continue
        else:
            # a state's first trail confirms what arriving there confirms: a later trail adds nothing
            kept[state] = used
            depots, entered = goals.get(state, _NOTHING) if goals is not None else _gain(net, state)
            if not (depots <= found_depots and entered <= found_entered):
                new = (depots - found_depots) | (entered - found_entered)
                found_depots |= depots
                found_entered |= entered
                missing -= len(new)
                if missing <= 0 or first:
                    return out
                dirty = True
        # the walk's own next states: the same turns a route may take (onto the other hex at an edge
        # point; on from a depot it may pass, by another road; never on from an area or the start)
        for t, w in succ[state]:
            if used >> t & 1:
                continue
            if node_kind[w] != EDGE:
                if visited >> w & 1:
                    # a route passes each depot once (11.1); for where routes reach it only prunes: the
                    # trail's first time there could leave by any road this one can, with less used
                    continue
                stack.append((t, w, used | 1 << t, visited | 1 << w))
            else:
                stack.append((t, w, used | 1 << t, visited))
    return out


_NOTHING: tuple[frozenset, frozenset] = (frozenset(), frozenset())


def _goals(net, succ: dict, targets: Reach) -> dict[tuple[int, int], tuple[frozenset, frozenset]]:
    """The states whose arrival confirms one of `targets`, with what it confirms of them. Only states
    heading to a target's node can: the depot's (or area's) own, or the edge point of an edge entered."""
    nodes = {net.node_index[d] for d in targets.depots}
    for hex_id, edge in targets.entered:
        node = net.node_index.get(edge_point_key(hex_id, edge))
        if node is not None:
            nodes.add(node)
    goals = {}
    for state in succ:
        if state[1] in nodes:
            gain = _restricted(_gain(net, state), targets)
            if gain[0] or gain[1]:
                goals[state] = gain
    return goals


def _leading_to(net, succ: dict, goals: Collection[tuple[int, int]]) -> set[tuple[int, int]]:
    """The states of the relaxed walk (`succ`) from which it reaches one of `goals`: a walk backwards
    from them. A state (s, v) precedes (t, w) when t leaves v, the far end of t from w, and the walk
    went on from (s, v) along t."""
    incident, other_end = net.incident, net.other_end
    useful = set(goals)
    queue = deque(useful)
    while queue:
        state = queue.popleft()
        t, w = state
        v = other_end(t, w)
        for s in incident[v]:
            prev = (s, v)
            if prev not in useful and state in succ.get(prev, ()):
                useful.add(prev)
                queue.append(prev)
    return useful


def _restricted(gain: tuple[frozenset, frozenset], targets: Reach) -> tuple[frozenset, frozenset]:
    depots, entered = gain
    return (depots & targets.depots if depots else depots), (entered & targets.entered if entered else entered)


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
