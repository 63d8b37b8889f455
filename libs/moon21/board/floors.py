"""Which runs a base's best answer can need: a floor for the listing, and the proof it was low enough.

The answer (`search._pair_runs`) is a first run through the base and a second through a token,
sharing a stop and no road. Its revenue V is at most the best first run plus the best second run,
so each run of a best pair earns at least V minus the best run of the *other* list. A long run
(more counted stops than the smaller transport) can only be paired with a short one, and short
runs earn much less: long runs need only reach V minus the best short run. Long runs are the
bulk of the listing (the number of trails grows with their length), so most are never kept.

`promising_runs` lists every short run first, then walks for long runs with a floor that rises
as the walk meets better pairs (and never above the 64th / 256th best run seen of a list whose
top the search's quick scan reads: that window must hold the same runs as in the full list).

`enough` then proves the answer found on the floored list is the full list's -- revenue and the
very runs chosen, ties included -- or names the lower floor under which it would be.
"""
from __future__ import annotations

import heapq

from moon21.board.listing import (
    ALL, NONE, Found, Run, RunIndex, enumerate_runs, flat_floor, runs_of, sort_runs, walk,
)
from moon21.board.stops import StopGraph

FIRST_WINDOW, SECOND_WINDOW = 64, 256     # how deep `search._best_pair`'s quick scan reads
PARTNERS = 512                            # short runs tried as partners while walking


def promising_runs(sg: StopGraph, relevant: int, used: int, base_bit: int, tokens: int,
                   transports: list[int]) -> tuple[list[Run], list[int]]:
    """Every short run and the long runs above a floor rising with the best pair met so far;
    returns them (best first) and the floor they meet."""
    top = max(transports)
    short = min(transports[:2]) if len(transports) >= 2 else 0
    if short == top or short == 1:
        floor = flat_floor(top)
        return enumerate_runs(sg, top, relevant, used, floor), floor
    shorts: list[Run] = []
    parked = None    # the long runs' walk goes on from the short runs' walk
    if short:
        floor = flat_floor(top)
        floor[short + 1:top + 1] = [NONE] * (top - short)
        found: Found = {}
        parked = walk(sg, top, relevant, used, floor, found, deepest=short + (1 if sg.terminal and sg.east else 0),
                      park=short)
        shorts = runs_of(sg, found, floor)
    firsts = [r for r in shorts if r.stops & base_bit]
    seconds = [r for r in shorts if r.stops & tokens] if short else []
    partner_top = max([r.revenue for r in firsts[:1] + seconds[:1]], default=0)
    # the quick scan's windows over lists holding long runs: the best revenues seen of each (a heap)
    windows = [(bits, width, sorted(r.revenue for r in rs)[-width:])
               for bits, width, rs in ((base_bit, FIRST_WINDOW, firsts), (tokens, SECOND_WINDOW, seconds))] if short else []
    floor = [NONE] * (short + 1) + [ALL] * (top - short) + [NONE]
    # partners for the pairs met: the best short runs are enough for a good lower bound
    first_index, second_index = RunIndex.of(firsts[:PARTNERS]), RunIndex.of(seconds[:PARTNERS])
    best = firsts[0].revenue if firsts else 0

    def paired(revenue: int, smask: int, road: int, others: RunIndex) -> int:
        """The best so far, or this run with its best partner from `others` if that is better."""
        if not others.runs or revenue + others.runs[0].revenue <= best:
            return best
        mate = others.best_partner(smask, road)
        return best if mate is None else max(best, revenue + mate.revenue)

    for r in firsts[:FIRST_WINDOW]:
        best = paired(r.revenue, r.stops, r.road, second_index)

    def on_new(revenue: int, smask: int, road: int, counted: int) -> None:
        nonlocal best
        if smask & base_bit:
            best = max(best, revenue, paired(revenue, smask, road, second_index))
        if smask & tokens:
            best = max(best, paired(revenue, smask, road, first_index))
        level = best - partner_top
        for bits, width, seen in windows:
            if smask & bits:
                (heapq.heappush if len(seen) < width else heapq.heappushpop)(seen, revenue)
            level = min(level, seen[0] if len(seen) == width else ALL)
        if level > floor[top]:
            floor[short + 1:top + 1] = [level] * (top - short)

    found = {}
    walk(sg, top, relevant, used, floor, found, on_new=on_new, starts=parked)
    runs = shorts + runs_of(sg, found, floor)
    sort_runs(runs)
    return runs, [ALL] * (short + 1) + floor[short + 1:]


def enough(sg: StopGraph, runs: list[Run], floor: list[int], revenue: int, base: str,
           transports: list[int], second_run: str) -> list[int]:
    """A floor under which `search._pair_runs` gives on `runs` (listed at `floor`) what it gives on
    the full list, `revenue` being its answer on `runs`.

    That floor must keep every run of a best answer: a run earning `revenue` alone, and both runs of
    a pair worth `revenue` -- each earns at least `revenue` minus the best of the other's list (above
    the floor a list is complete; below it, anything left out earns less than the floor). And the
    quick scan's windows must hold the same runs as the full list's: nothing left out above the
    last run of a window."""
    out = [revenue] * (len(floor) - 1) + [NONE]     # the last entry: runs longer than any transport

    def lower(t: int, level: int) -> None:
        for c in range(min(t, len(floor) - 2) + 1):
            out[c] = min(out[c], level)

    if len(transports) >= 2:
        base_bit, tokens = sg.base_bits[base], sg.second_run_tokens(base, second_run)
        for ta, tb in ((transports[0], transports[1]), (transports[1], transports[0])):
            firsts = [r for r in runs if r.stops & base_bit and r.counted <= ta]
            seconds = [r for r in runs if r.stops & tokens and r.counted <= tb]
            for mine, t, width, other, other_t in ((firsts, ta, FIRST_WINDOW, seconds, tb),
                                                   (seconds, tb, SECOND_WINDOW, firsts, ta)):
                other_top = max(([other[0].revenue] if other else []) + [max(floor[:other_t + 1]) - 1])
                lower(t, revenue - other_top)
                window = mine[:width]
                if window and window[-1].revenue < max(floor[:t + 1]):
                    lower(t, window[-1].revenue)
    return out
