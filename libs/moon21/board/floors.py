"""Which runs a base's best answer can need, listed without listing the rest.

The answer (`search._pair_runs`) is one run through the base, or a first run through the base and
a second through a token sharing a stop and no road, the best first found in list order. Let a
run be *short* when it counts no more stops than the base's smaller transport, *long* otherwise.
A long run can only be paired with a short one, and the number of trails grows with their length:
long runs are the bulk of a full listing, and few of them can matter. So:

1. every short run is listed (a walk no deeper than the short runs);
2. the walk goes on from there for long runs, keeping a long run only if it could be part of an
   answer worth the best value met so far, V (a lower bound of the true best: V only counts
   answers actually found): alone, if it earns V; in a pair, if it earns V minus the best short
   partner through one of its stops (a partner must share a stop). And it keeps every run of the
   lists whose tops the quick scan reads (the best 64 first runs, 256 second runs), down to the
   64th / 256th best seen so far, so those windows hold the same runs as in the full list.
   V and the windows only rise as the walk goes, so a run kept at the end was kept all along;
3. a cheap floor per number of counted stops (the least any of these tests lets through) skips
   most long runs before the tests;
4. the walk over, a short run is kept only if it is in a window or earns V minus the best run
   of either list (any partner earns no more).

Every run of a best answer is kept, and every run that could come before it in the order the
pair search reads runs, so the search gives the full list's answer, ties included: the kept list
is the full one (`listing.py`) with runs that can change nothing left out.
"""
from __future__ import annotations

import heapq

from moon21.board.listing import ALL, NONE, Found, Run, RunIndex, enumerate_runs, runs_of, sort_runs, walk
from moon21.board.stops import StopGraph

FIRST_WINDOW, SECOND_WINDOW = 64, 256     # how deep `search._best_pair`'s quick scan reads
PARTNERS = 512                            # short runs tried as partners of long ones while walking

# one base's question: (its token's stop bit, the stops its second run may take as token, transports)
Want = tuple[int, int, tuple[int, ...]]


class _Keeper:
    """One base's test of which long runs could matter, with its best value met so far."""

    def __init__(self, sg: StopGraph, want: Want, shorts: list[Run]):
        self.base_bit, self.tokens, transports = want
        self.top = max(transports)
        self.short = min(transports[:2]) if len(transports) >= 2 else 0
        usable = [r for r in shorts if r.counted <= self.top]
        firsts = [r for r in usable if r.stops & self.base_bit and r.counted <= self.short]
        seconds = [r for r in usable if r.stops & self.tokens and r.counted <= self.short]
        self.best_first_at, self.best_second_at = _best_through(sg, firsts), _best_through(sg, seconds)
        self.partner_top = max([r.revenue for r in firsts[:1] + seconds[:1]], default=0)
        self.firsts, self.seconds = RunIndex.of(firsts[:PARTNERS]), RunIndex.of(seconds[:PARTNERS])
        self.best = max([r.revenue for r in usable if r.stops & self.base_bit][:1], default=0)
        for r in firsts[:FIRST_WINDOW]:
            self.best = max(self.best, self._paired(r.revenue, r.order, r.road, self.seconds))
        # the best revenues seen in the lists holding long runs whose top the quick scan reads (heaps)
        self.windows = [(bits, width, sorted(r.revenue for r in usable if r.stops & bits)[-width:])
                        for bits, width in ((self.base_bit, FIRST_WINDOW), (self.tokens, SECOND_WINDOW))
                        ] if self.short else []
        self._settle()

    def _paired(self, revenue: int, stops: tuple[int, ...], road: int, others: RunIndex) -> int:
        """This run's revenue with a partner from `others` that raises the best (else 0): a quick look
        suffices, the best value met only has to be a value some answer reaches."""
        mate = others.first_partner(stops, road, self.best - revenue, tries=8)
        return 0 if mate is None else revenue + mate.revenue

    def meet(self, revenue: int, smask: int, road: int, counted: int, stops: tuple[int, ...]) -> None:
        """A long run met for the first time: the best value and the windows may rise."""
        if counted > self.top:
            return
        was = self.best
        if smask & self.base_bit:
            self.best = max(self.best, revenue, self._paired(revenue, stops, road, self.seconds))
        if smask & self.tokens:
            self.best = max(self.best, self._paired(revenue, stops, road, self.firsts))
        moved = self.best != was
        for bits, width, seen in self.windows:
            if smask & bits and (len(seen) < width or revenue > seen[0]):
                (heapq.heappush if len(seen) < width else heapq.heapreplace)(seen, revenue)
                moved = True
        if moved:
            self._settle()

    def _settle(self) -> None:
        # each window's edge: a run of its list earning that much may be in it (until it is full, any)
        self.edges = [(bits, seen[0] if len(seen) == width else ALL) for bits, width, seen in self.windows]
        self.level = min([self.best - self.partner_top] + [edge for _, edge in self.edges])

    def keeps(self, revenue: int, smask: int, counted: int, stops: tuple[int, ...]) -> bool:
        if counted > self.top or revenue < self.level:
            return False
        if smask & self.base_bit and revenue >= self.best:
            return True
        for bits, edge in self.edges:
            if smask & bits and revenue >= edge:
                return True
        if smask & self.base_bit and revenue + max(self.best_second_at[i] for i in stops) >= self.best:
            return True
        return bool(smask & self.tokens) and revenue + max(self.best_first_at[i] for i in stops) >= self.best

    def shorts_kept(self, shorts: list[Run], longs: list[Run]) -> list[bool]:
        """Per short run (best first), whether it could matter, the walk over: it pairs with
        anything (so only the best run of either list bounds its partner), or is in a window."""
        either = self.base_bit | self.tokens
        tops = [next((r.revenue for r in rs if r.stops & either and r.counted <= self.top), ALL) for rs in (shorts, longs)]
        edges = [(bits, self.short, _kth([r.revenue for r in shorts if r.stops & bits and r.counted <= self.short], width))
                 for bits, width, _ in self.windows] + [(bits, self.top, edge) for bits, edge in self.edges]
        least = self.best - max(tops)
        lowest = min([least] + [edge for _, _, edge in edges])
        kept = [False] * len(shorts)
        for i, run in enumerate(shorts):
            if run.revenue < lowest:      # and so are all after it
                break
            if run.counted <= self.top:
                kept[i] = run.revenue >= least or any(run.stops & bits and run.counted <= t and run.revenue >= edge
                                                      for bits, t, edge in edges)
        return kept


def _kth(revenues: list[int], k: int) -> int:
    """The k-th best of these revenues (everything is in the top k when there are fewer)."""
    return sorted(revenues, reverse=True)[k - 1] if len(revenues) >= k else ALL


def _best_through(sg: StopGraph, runs: list[Run]) -> list[int]:
    """Per stop, the best revenue of these runs (best first) through it."""
    best = [ALL] * len(sg.stops)
    left = (1 << len(sg.stops)) - 1      # stops no run met yet
    for r in runs:
        if r.stops & left:
            for i in r.order:
                if best[i] == ALL:
                    best[i] = r.revenue
            left &= ~r.stops
            if not left:
                break
    return best


def promising_runs(sg: StopGraph, relevant: int, used: int, wants: list[Want]) -> list[Run]:
    """The runs that can matter to any of `wants` (bases asking with their transports), avoiding
    road `used`, best first: every short run, and the long runs some base keeps."""
    top = max(max(t) for _, _, t in wants)
    short = max(min(t[:2]) if len(t) >= 2 else 0 for _, _, t in wants)
    if short == top or short == 1 or any(len(t) > 2 for _, _, t in wants):
        return enumerate_runs(sg, top, relevant, used)   # nothing to leave out (or no base holds three)
    shorts: list[Run] = []
    parked = None    # the long runs' walk goes on from the short runs' walk
    if short:
        floor = [ALL] * (short + 1) + [NONE] * (top - short + 1)
        found: Found = {}
        parked = walk(sg, top, relevant, used, floor, found, park=short,
                      deepest=short + (1 if sg.terminal and sg.east else 0))
        shorts = runs_of(sg, found, floor)
    keepers = [_Keeper(sg, want, shorts) for want in wants]
    floor = [NONE] * (short + 1) + [ALL] * (top - short) + [NONE]
    met: set[int] = set()

    def keeps(revenue: int, smask: int, counted: int, stops: tuple[int, ...]) -> bool:
        return any(k.keeps(revenue, smask, counted, stops) for k in keepers)

    def on_new(revenue: int, smask: int, road: int, counted: int, stops: tuple[int, ...]) -> bool:
        if smask in met:        # turned down before: the tests have only grown stricter since
            return False
        met.add(smask)
        for k in keepers:
            k.meet(revenue, smask, road, counted, stops)
        level = min(k.level for k in keepers)
        if level > floor[top]:
            floor[short + 1:top + 1] = [level] * (top - short)
        return any(k.keeps(revenue, smask, counted, stops) for k in keepers)

    found = {}
    walk(sg, top, relevant, used, floor, found, on_new=on_new, starts=parked)
    longs = runs_of(sg, found, floor, keeps)
    kept = [k.shorts_kept(shorts, longs) for k in keepers]
    runs = [r for r, *marks in zip(shorts, *kept) if any(marks)] + longs
    sort_runs(runs)
    return runs
