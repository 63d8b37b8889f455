"""Finding the maximum-revenue runs of a base (rule 11.4: a base must run for the most it can).

1. The runs of the corporation are listed on its stop graph (legs of road between stops, see
   `stops.py`) by a depth-first walk that never revisits a stop or reuses a segment; runs over
   the same set of stops keep only their minimal sets of road (`listing.py`). Only the runs that
   can matter to the bases' questions are kept (`floors.py`: every run short enough for the
   smaller transport, and the few long ones that could still be part of a best answer), sorted
   by revenue, best first, and kept per board position, road already used and second-run rule.
2. A base's two transports: a quick scan of the top runs gives a good pair; then first runs are
   tried best first, each with the first second run (best first) sharing a stop and no road --
   found by a scan of the second runs through its stops (bit sets, Python ints) -- and the search
   stops once a first run plus the best conceivable second cannot beat the best pair found.
   Plans are memoised per board position, base, transports and road already used.

The search before the kept-runs listing (every run listed) is `tests/moon21/board/reference_search.py`;
the tests hold this one to its answers, ties included.
"""
from __future__ import annotations

from dataclasses import dataclass

from moon21.board.floors import promising_runs
from moon21.board.listing import Run, RunIndex, enumerate_runs
from moon21.board.runs import run_result, segment_mask, summarise
from moon21.board.state import Board
from moon21.board.stops import StopGraph, stop_graph
from starbase_rules.recent import Recent


# a listing of runs can be large: a few dozen positions' worth (every game's current one, warm)
_CACHE: Recent[tuple[StopGraph, set[tuple], list[Run]]] = Recent(64)


def all_runs(sg: StopGraph, max_stops: int) -> list[Run]:
    """Every run a base may use (not cached)."""
    return enumerate_runs(sg, max_stops, _relevant(sg))


def _relevant(sg: StopGraph) -> int:
    return sg.base_bits["LB"] | sg.base_bits["SP"] | sg.token_bits


def _runs_for(sg: StopGraph, bases: dict[str, list[int]], used: int, second_run: str) -> list[Run]:
    """The runs that can matter to these bases' questions (`floors.py`), avoiding road `used`;
    kept per stop graph, road and second-run rule, with the questions they answer."""
    asked = {(base, tuple(t)) for base, t in bases.items()}
    key = (id(sg), used, second_run)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is sg and asked <= cached[1]:
        return cached[2]
    wants = [(sg.base_bits[base], sg.second_run_tokens(base, second_run), t) for base, t in sorted(asked)]
    runs = promising_runs(sg, _relevant(sg), used, wants)
    _CACHE.put(key, (sg, asked, runs))
    return runs


@dataclass
class Plan:
    revenue: int
    runs: list[tuple[int, Run]]     # (transport type, run), the base's first run first
    road: int


_PLANS: Recent[tuple[StopGraph, Plan]] = Recent(256)


def best_plan(sg: StopGraph, base: str, transports: list[int], used: int = 0,
              second_run: str = "base_or_depot_token") -> Plan:
    """The best runs of one base with its transports, avoiding road `used` (memoised)."""
    key = (id(sg), base, tuple(transports), used, second_run)
    cached = _PLANS.get(key)
    if cached is not None and cached[0] is sg:
        return cached[1]
    if not transports or not sg.base_bits[base]:
        plan = Plan(0, [], 0)
    else:
        plan = _pair_runs(sg, _runs_for(sg, {base: transports}, used, second_run), base, transports, second_run)
    _PLANS.put(key, (sg, plan))
    return plan


def _pair_runs(sg: StopGraph, runs: list[Run], base: str, transports: list[int], second_run: str) -> Plan:
    base_bit = sg.base_bits[base]
    best = Plan(0, [], 0)
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
        # the first compatible second, if it beats the best: the same as scanning for the first
        # compatible one and then comparing, as the seconds come best first
        r2 = index.first_partner(r1.order, r1.road, best.revenue - r1.revenue)
        if r2 is not None:
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
    # list once the runs either base can need when it runs first (unless both answers are known)
    leads = {b: list(transports.get(b, [])) for b in ([first] if first else ["LB", "SP"])}
    leads = {b: t for b, t in leads.items() if t and sg.base_bits[b]
             and _PLANS.get((id(sg), b, tuple(t), 0, second_run), (None,))[0] is not sg}
    if leads:
        _runs_for(sg, leads, 0, second_run)
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
