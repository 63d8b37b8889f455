"""The best-run search as it stood before the floored search (kept verbatim as the tests' reference).

`tests/moon21/board/test_board_search_reference.py` checks that `moon21.board.search` gives exactly
this module's answer -- revenue, runs, stop orders and road, ties included. Its caches are its own.
Original docstring:

Finding the maximum-revenue runs of a base (rule 11.4: a base must run for the most it can).

1. Every possible run of the corporation is enumerated once on its stop graph (legs of road
   between stops, see `stops.py`): a depth-first walk that never revisits a stop or reuses a
   segment. Runs over the same set of stops keep only their minimal sets of road (more road can
   never help). The runs are sorted by revenue, best first, and cached per board position.
   Only runs meeting the base or a depot token are kept, and the walk starts only from stops such
   a run can reach.
2. A base's two transports: a quick scan of the top runs gives a good pair; the candidate second
   runs that could still beat it are indexed as bit sets (Python ints) -- runs using each segment,
   runs visiting each stop -- so "the best second run sharing a stop and no road with this first
   run" is a few big-int ORs and a lowest set bit. First runs are tried best first and the search
   stops once a first run plus the best conceivable second cannot beat the best pair found.
   Plans are memoised per board position, base, transports and road already used.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from moon21.board.runs import run_result, segment_mask, summarise
from moon21.board.state import Board
from moon21.board.stops import StopGraph, stop_graph


@dataclass(eq=False)
class Run:
    revenue: int
    stops: int          # bit mask of stop indices
    road: int           # bit mask of segment indices
    counted: int        # stops counted against the transport
    order: tuple[int, ...]

    @cached_property
    def segs(self) -> tuple[int, ...]:
        """The segment indices of `road` (computed only for runs that get indexed)."""
        return tuple(_bits(self.road))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _set_of(indices: list[int], size: int) -> int:
    raw = bytearray((size + 8) // 8)
    for i in indices:
        raw[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(raw, "little")


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


@dataclass
class RunIndex:
    """Bit-set indexes over a list of runs (bit i = runs[i])."""

    runs: list[Run]
    by_segment: dict[int, int]
    by_stop: dict[int, int]

    @classmethod
    def of(cls, runs: list[Run]) -> "RunIndex":
        seg_lists: dict[int, list[int]] = {}
        stop_lists: dict[int, list[int]] = {}
        for i, r in enumerate(runs):
            for s in r.segs:
                seg_lists.setdefault(s, []).append(i)
            for s in r.order:
                stop_lists.setdefault(s, []).append(i)
        n = len(runs)
        return cls(runs, {s: _set_of(v, n) for s, v in seg_lists.items()},
                   {s: _set_of(v, n) for s, v in stop_lists.items()})

    def compatible(self, run: Run) -> int:
        """Runs sharing a stop with `run` and no road."""
        meets = clash = 0
        for s in run.order:
            meets |= self.by_stop.get(s, 0)
        for s in run.segs:
            clash |= self.by_segment.get(s, 0)
        return meets & ~clash


def enumerate_runs(sg: StopGraph, max_stops: int, relevant: int = -1) -> list[Run]:
    """Every distinct run with at most `max_stops` counted stops, best revenue first.

    Only runs visiting a stop in the bit mask `relevant` are kept (a base's runs must all meet
    the base's token or a depot token)."""
    limit = max_stops + (1 if sg.terminal and sg.east else 0)
    through = sg.through
    legs = [[(w, 1 << w, m) for w, m in out] for out in sg.legs]
    found: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    path: list[int] = []

    def record(smask: int, road: int) -> None:
        kept = found.get(smask)
        if kept is None:
            found[smask] = [(road, tuple(path))]
            return
        for r, _ in kept:
            if r & road == r:
                return
        if any(r & road == road for r, _ in kept):
            kept[:] = [(r, o) for r, o in kept if r & road != road]
        kept.append((road, tuple(path)))

    def extend(v: int, smask: int, road: int, depth: int) -> None:
        # `path` holds the stops so far, ending with v; depth == len(path). Each run is found
        # from both ends; it is recorded from the end with the smaller stop index.
        if depth >= 2 and path[0] < v and smask & relevant:
            record(smask, road)
        if depth == limit or (depth > 1 and not through[v]):
            return
        for w, bit, m in legs[v]:
            if not smask & bit and not m & road:
                path.append(w)
                extend(w, smask | bit, road | m, depth + 1)
                path.pop()

    for s in _reachable_from(sg, relevant):
        path.append(s)
        extend(s, 1 << s, 0, 1)
        path.pop()
    runs = []
    for smask, kept in found.items():
        counted = sg.stops_counted(smask)
        if counted > max_stops:
            continue
        revenue = sum(sg.value[i] for i in kept[0][1]) + sg.bonus(smask)[0]
        runs.extend(Run(revenue, smask, road, counted, order) for road, order in kept)
    runs.sort(key=lambda r: (-r.revenue, r.counted, r.road.bit_count(), r.order))
    return runs


def _reachable_from(sg: StopGraph, relevant: int) -> list[int]:
    """Stops a run through a relevant stop can visit: reached by legs, passing only through stops
    a route may pass (a run elsewhere on the map can never meet the base or a token)."""
    if relevant == -1:
        return list(range(len(sg.stops)))
    starts = [i for i in range(len(sg.stops)) if relevant >> i & 1]
    seen, stack = set(starts), list(starts)
    while stack:
        v = stack.pop()
        if v not in starts and not sg.through[v]:
            continue
        for w, _ in sg.legs[v]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return sorted(seen)


_CACHE: dict[tuple, tuple[StopGraph, list[Run]]] = {}


def all_runs(sg: StopGraph, max_stops: int) -> list[Run]:
    """`enumerate_runs` for the runs a base may use, cached per stop graph and stop limit."""
    key = (id(sg), max_stops)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is sg:
        return cached[1]
    runs = enumerate_runs(sg, max_stops, sg.base_bits["LB"] | sg.base_bits["SP"] | sg.token_bits)
    if len(_CACHE) > 16:
        _CACHE.clear()
    _CACHE[key] = (sg, runs)
    return runs


@dataclass
class Plan:
    revenue: int
    runs: list[tuple[int, Run]]     # (transport type, run), the base's first run first
    road: int


_PLANS: dict[tuple, tuple[StopGraph, Plan]] = {}


def best_plan(sg: StopGraph, base: str, transports: list[int], used: int = 0,
              second_run: str = "base_or_depot_token") -> Plan:
    """The best runs of one base with its transports, avoiding road `used` (memoised)."""
    key = (id(sg), base, tuple(transports), used, second_run)
    cached = _PLANS.get(key)
    if cached is not None and cached[0] is sg:
        return cached[1]
    plan = _search_plan(sg, base, transports, used, second_run)
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[key] = (sg, plan)
    return plan


def _search_plan(sg: StopGraph, base: str, transports: list[int], used: int, second_run: str) -> Plan:
    base_bit = sg.base_bits[base]
    best = Plan(0, [], 0)
    if not transports or not base_bit:
        return best
    runs = [r for r in all_runs(sg, max(transports)) if not r.road & used]
    for t in set(transports):
        first = next((r for r in runs if r.stops & base_bit and r.counted <= t), None)
        if first is not None and first.revenue > best.revenue:
            best = Plan(first.revenue, [(t, first)], first.road)
    if len(transports) < 2:
        return best
    for ta, tb in {(transports[0], transports[1]), (transports[1], transports[0])}:
        firsts = [r for r in runs if r.stops & base_bit and r.counted <= ta]
        tokens = sg.second_run_tokens(base, second_run)
        seconds = [r for r in runs if r.stops & tokens and r.counted <= tb]
        best = _best_pair(firsts, seconds, ta, tb, best)
    return best


def _best_pair(firsts: list[Run], seconds: list[Run], ta: int, tb: int, best: Plan) -> Plan:
    """Best (first, second) with a shared stop and no shared road, if it beats `best`.

    A quick scan of the top of both lists gives a good pair; then only runs that could still
    be part of a better pair (revenue above best minus the other list's top) are indexed."""
    if not firsts or not seconds:
        return best
    for r1 in firsts[:64]:
        for r2 in seconds[:256]:
            if r1.revenue + r2.revenue <= best.revenue:
                break
            if r2.stops & r1.stops and not r2.road & r1.road:
                best = Plan(r1.revenue + r2.revenue, [(ta, r1), (tb, r2)], r1.road | r2.road)
                break
    top_second = seconds[0].revenue
    seconds = [r for r in seconds if r.revenue + firsts[0].revenue > best.revenue]
    if not seconds:
        return best
    index = RunIndex.of(seconds)
    for r1 in firsts:
        if r1.revenue + top_second <= best.revenue:
            break
        partners = index.compatible(r1)
        if partners:
            r2 = seconds[_lowest(partners)]
            if r1.revenue + r2.revenue > best.revenue:
                best = Plan(r1.revenue + r2.revenue, [(ta, r1), (tb, r2)], r1.road | r2.road)
    return best


def _as_result(sg: StopGraph, plan: Plan) -> dict:
    return summarise([run_result(sg, t, list(r.order), r.road) for t, r in plan.runs])


def best_runs(board: Board, corp: str, base: str, transports: list[int], *, sp_value: int,
              phase: str, used_segments=(), second_run: str = "base_or_depot_token") -> dict:
    """The maximum-revenue runs of one base with its transports (its first run first).

    `used_segments`: road the corporation's other base already used this turn (the "segments"
    of that base's runs). Returns {"revenue", "runs": [...], "east_west_areas"} like
    `validate_runs`; "runs" is empty when the base cannot run."""
    sg = stop_graph(board, corp, phase=phase, sp_value=sp_value)
    return _as_result(sg, best_plan(sg, base, list(transports), segment_mask(sg, used_segments), second_run))


def best_turn_runs(board: Board, corp: str, transports: dict[str, list[int]], *, sp_value: int,
                   phase: str, first: str | None = None, second_run: str = "base_or_depot_token") -> dict:
    """Both bases' best runs; they may not share road (rule 11.4).

    Ruling (docs/moon21_board.md): the president decides which base runs first, as for tile
    actions; that base runs its maximum and the other its maximum on the road left over. With
    `first` = None both orders are tried and the higher total wins (on a tie, the one paying the
    Space Port base more). A submitted pair of run sets whose legal total reaches this figure is
    therefore never short of the maximum the rules can demand.

    Returns {"LB": result, "SP": result, "revenue": total, "first": base}."""
    sg = stop_graph(board, corp, phase=phase, sp_value=sp_value)
    best = None
    for lead in ([first] if first else ["LB", "SP"]):
        second = "SP" if lead == "LB" else "LB"
        a = best_plan(sg, lead, list(transports.get(lead, [])), 0, second_run)
        b = best_plan(sg, second, list(transports.get(second, [])), a.road, second_run)
        plans = {lead: a, second: b}
        key = (a.revenue + b.revenue, plans["SP"].revenue)
        if best is None or key > best[0]:
            best = (key, lead, plans)
    (total, _), lead, plans = best
    return {"LB": _as_result(sg, plans["LB"]), "SP": _as_result(sg, plans["SP"]),
            "revenue": total, "first": lead}
