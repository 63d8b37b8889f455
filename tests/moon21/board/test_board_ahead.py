"""The bound the run walk prunes with (`moon21.board.ahead`) and the pruned walk itself.

The bound must never fall short: for every trail, no run growing from it may earn more than the
trail's value plus the bound (else the walk could drop a run of the best answer). It should also
be tight: on a stop graph without cycles the walk it takes is the trail itself, so there the
bound is exactly the best such run. Both are checked against a brute force over every trail of
random stop graphs (areas of both sides, the Terminal, depots a route may not pass, legs sharing
road) and of crowded boards. The pruned walk must record exactly what the unpruned one records.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moon21.board import listing, stops
from moon21.board.ahead import NEVER, Ahead, start_of
from moon21.board.listing import ALL, NONE, flat_floor, walk
from moon21.board.stops import StopGraph
from moon21.board.synthetic import crowded_board


def random_stop_graph(seed: int, tree: bool) -> StopGraph:
    """Stops 0..n-1 joined by legs (a tree, or with extra legs making cycles, parallel legs and
    legs sharing road); two eastern and two western areas, perhaps the Terminal, some full depots."""
    rnd = random.Random(seed)
    n = rnd.randint(5, 13)
    kinds = ["depot"] * n
    for i in rnd.sample(range(n), rnd.randint(0, min(n, 6))):
        kinds[i] = rnd.choice(["east", "west", "full"])
    if rnd.random() < 0.6:      # the Terminal, most often one a route may pass
        kinds[rnd.randrange(n)] = rnd.choice(["terminal", "terminal", "full terminal"])
    pairs = [(rnd.randrange(i), i) for i in range(1, n)]
    if not tree:
        pairs += [tuple(rnd.sample(range(n), 2)) for _ in range(rnd.randint(1, n))]
    legs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    segment = 0
    for v, w in pairs:
        shared = 0
        if not tree and segment and rnd.random() < 0.2:
            shared = 1 << rnd.randrange(segment)      # some road another leg uses too
        road = 1 << segment | shared
        segment += 1
        legs[v].append((w, road))
        legs[w].append((v, road))
    bits = lambda kind: sum(1 << i for i, k in enumerate(kinds) if k == kind)   # noqa: E731
    return StopGraph(
        net=None, stops=[f"S{i}" for i in range(n)], index={f"S{i}": i for i in range(n)},
        value=[rnd.choice([10, 20, 30, 40, 50, 60, 80, 90]) for _ in range(n)],
        through=[k in ("depot", "terminal") for k in kinds], legs=legs,
        east=bits("east"), west=bits("west"), terminal=bits("terminal") | bits("full terminal"),
        base_bits={"LB": 1, "SP": 0}, token_bits=0)


def trails(sg: StopGraph, max_stops: int):
    """Every trail a route may go on from, as (stops, stop mask, value, number of its last leg),
    with the best revenue of a run growing from it (None if none does): a brute force."""
    legs = listing._numbered_legs(sg, 0)
    out = []

    def grow(path: list[int], smask: int, road: int, value: int) -> int | None:
        best = NEVER
        for w, bit, m, val, k, go in legs[path[-1]]:
            if smask & bit or m & road:
                continue
            reach, total = smask | bit, value + val
            if sg.stops_counted(reach) <= max_stops:
                best = max(best, total + sg.bonus(reach)[0])
            if go:      # a route may pass w: the trail may grow from there
                further = grow(path + [w], reach, road | m, total)
                out.append((path + [w], reach, total, k, further))
                best = max(best, NEVER if further is None else further)
        return None if best == NEVER else best

    for s in range(len(sg.stops)):
        grow([s], 1 << s, 0, sg.value[s])
    return out


def check_bound(sg: StopGraph, max_stops: int, exact: bool) -> int:
    legs = listing._numbered_legs(sg, 0)
    ahead = Ahead(sg, legs, max_stops, {0, 1, 2})
    checked = 0
    for path, reach, total, k, further in trails(sg, max_stops):
        if len(path) > max_stops:
            continue
        before = 1 << path[-1] ^ reach          # the trail's stops before its last one
        gain = ahead.gains[start_of(sg, path[0])][1 if before & sg.terminal else 0][max_stops - len(path) + 1][k]
        bound = total - sg.value[path[-1]] + gain
        if further is None:
            assert not exact or bound < NEVER // 2, (path, bound)
        else:
            assert bound >= further, (path, bound, further)
            if exact:
                assert bound == further, (path, bound, further)
            checked += 1
    return checked


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 100_000), max_stops=st.integers(2, 8))
def test_the_bound_is_exact_on_a_stop_graph_without_cycles(seed, max_stops):
    check_bound(random_stop_graph(seed, tree=True), max_stops, exact=True)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 100_000), max_stops=st.integers(2, 8))
def test_the_bound_never_falls_short_on_a_stop_graph_with_cycles(seed, max_stops):
    check_bound(random_stop_graph(seed, tree=False), max_stops, exact=False)


def test_the_bound_never_falls_short_on_a_crowded_board():
    """A real late board (one of the benchmark's slowest): every trail checked, for the big transport and a small one."""
    sg = stops.stop_graph(crowded_board(2), "SSF", phase="10", sp_value=40)
    assert check_bound(sg, 10, exact=False) > 10_000
    assert check_bound(sg, 4, exact=False) > 200


def test_the_bound_is_the_best_run_on_a_line(line):
    """West to East through SWP's base: from the Power Plant the best run goes all the way."""
    sg = stops.stop_graph(line, "SWP", phase="5", sp_value=30)
    assert check_bound(sg, 10, exact=True) > 0


def triangle(terminal: int) -> StopGraph:
    """Three stops worth 90 in a triangle (A B C, the Terminal among them if `terminal`), an
    eastern area worth 20 off C."""
    legs: list[list[tuple[int, int]]] = [[], [], [], []]
    for segment, (v, w) in enumerate([(0, 1), (1, 2), (2, 0), (2, 3)]):
        legs[v].append((w, 1 << segment))
        legs[w].append((v, 1 << segment))
    return StopGraph(net=None, stops=["A", "B", "C", "east"], index={"A": 0, "B": 1, "C": 2, "east": 3},
                     value=[90, 90, 90, 20], through=[True, True, True, False], legs=legs, east=0b1000, west=0,
                     terminal=terminal, base_bits={"LB": 1, "SP": 0}, token_bits=0)


def bound(sg: StopGraph, trail: list[int], max_stops: int = 8) -> int:
    """The walk's bound for a run growing from a trail of two stops."""
    numbered = listing._numbered_legs(sg, 0)
    ahead = Ahead(sg, numbered, max_stops, {start_of(sg, trail[0])})
    leg = next(k for w, _, _, _, k, _ in numbered[trail[0]] if w == trail[1])
    held = 1 if sg.terminal >> trail[0] & 1 else 0
    return sg.value[trail[0]] + ahead.gains[start_of(sg, trail[0])][held][max_stops - 1][leg]


def test_the_bound_counts_each_stop_near_a_cycle_once():
    """A walk may go round the triangle for ever, a trail takes each stop once: the bound may
    count a stop the trail already took (it is that close), but none twice, and no bonus the run
    cannot earn (there is no West and no Terminal)."""
    sg = triangle(terminal=0)
    # after A, B the best run is A B C east (290); the bound counts C, A and the area once each
    assert bound(sg, [0, 1]) == 90 + 90 + (90 + 90 + 20)
    # after east, C the best run is east C B A (290); the bound counts A, B and the area once each
    assert bound(sg, [3, 2]) == 20 + 90 + (90 + 90 + 20)


def test_the_bound_never_takes_the_terminal_twice():
    """With A the Terminal: after A, B the walk from C may not step back onto it, so the bound is
    the best run, A B C east with the Terminal bonus (320)."""
    assert bound(triangle(terminal=0b1), [0, 1]) == 90 + 90 + 90 + 20 + 30


def walked(sg: StopGraph, max_stops: int, floor: list[int], prune: bool, monkeypatch, raise_every: int = 0):
    """What `walk` records from every stop (and in what order), with pruning or without; with
    `raise_every`, the floor rises to each raise_every-th new run's revenue as the walk goes."""
    monkeypatch.setattr(listing, "PRUNE_FROM", 0 if prune else NONE)
    found: listing.Found = {}
    met: list[int] = []

    def on_new(revenue: int, smask: int, road: int, counted: int, order: tuple[int, ...]) -> bool:
        met.append(smask)
        if len(met) % raise_every == 0:
            floor[:max_stops + 1] = [max(f, revenue - 30) for f in floor[:max_stops + 1]]
        return revenue >= floor[counted]

    walk(sg, max_stops, -1, 0, floor, found, on_new=on_new if raise_every else None)
    return [(smask, kept) for smask, kept in found.items()], met


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 100_000), max_stops=st.integers(2, 8), tree=st.booleans(),
       levels=st.lists(st.integers(0, 400), min_size=9, max_size=9), raise_every=st.sampled_from([0, 1, 3]))
def test_the_pruned_walk_records_what_the_full_walk_records(monkeypatch, seed, max_stops, tree, levels, raise_every):
    sg = random_stop_graph(seed, tree)
    floor = levels[:max_stops + 1] + [NONE]
    assert walked(sg, max_stops, list(floor), True, monkeypatch, raise_every) == \
        walked(sg, max_stops, list(floor), False, monkeypatch, raise_every)


@pytest.mark.parametrize("corp", ["KR", "SWP"])
def test_the_pruned_walk_records_what_the_full_walk_records_on_a_crowded_board(monkeypatch, corp):
    sg = stops.stop_graph(crowded_board(3), corp, phase="10", sp_value=40)
    for floor in ([NONE] * 7 + [400] * 4 + [NONE], list(range(0, 550, 50)) + [NONE], flat_floor(10, ALL)):
        assert walked(sg, 10, list(floor), True, monkeypatch) == walked(sg, 10, list(floor), False, monkeypatch)
