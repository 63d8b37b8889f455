"""Listing the runs of a corporation on its stop graph, or only those that earn enough.

A run is a trail of legs (`stops.py`) that never revisits a stop or reuses a segment. It is found
by a depth-first walk from every stop, once from each end, and recorded from the end with the
smaller stop index. Runs over the same set of stops keep only their minimal sets of road (more
road can never help). Lists are sorted best revenue first; `search.py` pairs runs from them.

A *floor* (least revenue, per number of counted stops) and a caller's test (`on_new`, asked
about each run the first time the walk meets it) leave out runs that cannot matter. The walk
itself is the same -- only the recording is skipped -- so a run that is kept was recorded from
every one of its trails, exactly as in the full listing: same minimal roads, same stop orders.
Both may grow stricter during a walk; a run is kept only if it passes them as they end up, which
it then passed all along. Runs over different stops never tie on the sort key, so the kept runs
come in the same order as in the full listing. Road already used by the other base is left out
of the walk; a minimal road that avoids it is minimal in the full listing too, so that list is
the full one filtered. A walk with a floor above nothing prunes (`ahead.py`): it does not go on
from a trail whose value plus the most the rest of a run can add is under every floor a longer
run would meet; those runs would not be recorded, so nothing else changes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from moon21.board.ahead import Ahead, Leg, start_of
from moon21.board.geometry import EAST_WEST_BONUS
from moon21.board.stops import TERMINAL_BONUS, StopGraph

NONE, ALL = 10**9, -(10**9)       # floors that keep no run / every run
PRUNE_FROM = 64                   # trails a walk must start from for pruning to pay


@dataclass(eq=False, slots=True)
class Run:
    revenue: int
    stops: int          # bit mask of stop indices
    road: int           # bit mask of segment indices
    counted: int        # stops counted against the transport
    order: tuple[int, ...]


def _set_of(indices: list[int], size: int) -> int:
    raw = bytearray((size + 8) // 8)
    for i in indices:
        raw[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(raw, "little")


@dataclass
class RunIndex:
    """A list of runs, best first, indexed by the stops they visit (bit i of a mask = runs[i])."""

    runs: list[Run]
    by_stop: dict[int, int]

    @classmethod
    def of(cls, runs: list[Run]) -> "RunIndex":
        lists: dict[int, list[int]] = {}
        for i, r in enumerate(runs):
            for s in r.order:
                lists.setdefault(s, []).append(i)
        return cls(runs, {s: _set_of(v, len(runs)) for s, v in lists.items()})

    def first_partner(self, stops: Iterable[int], road: int, above: int, tries: int = -1) -> Run | None:
        """The first run sharing a stop and no road with a run over `stops` (indices) and `road`, if
        it earns more than `above` (the runs come best first); None also after `tries` runs sharing a stop."""
        if not self.runs or self.runs[0].revenue <= above:
            return None
        meets = 0
        for s in stops:
            meets |= self.by_stop.get(s, 0)
        while meets and tries:
            low = meets & -meets
            r = self.runs[low.bit_length() - 1]
            if r.revenue <= above:
                return None
            if not r.road & road:
                return r
            meets ^= low
            tries -= 1
        return None


Found = dict[int, list[tuple[int, tuple[int, ...]]]]    # stop mask -> [(minimal road, stop order)]
OnNew = Callable[[int, int, int, int, tuple[int, ...]], bool]   # (revenue, stop mask, road, counted, stops) -> record it?
Trail = tuple[tuple[int, ...], int, int, int]            # (stops in order, stop mask, road, their value)


def walk(sg: StopGraph, max_stops: int, relevant: int, used: int, floor: list[int], found: Found, *,
         deepest: int = 0, on_new: OnNew | None = None, park: int = 0,
         starts: list[Trail] | None = None) -> list[Trail]:
    """Record into `found` every run meeting `floor[counted]` (a list the walk reads as it goes:
    `on_new` may raise it) that avoids road `used`, visits a stop in `relevant` and has at most
    `max_stops` counted stops (and at most `deepest` stops in all, if given).

    Returns the trails of `park` stops that may grow, in walk order: a later walk given them as
    `starts` goes on from there exactly as this walk did (without recording their shorter runs)."""
    limit = max_stops + (1 if sg.terminal and sg.east else 0)
    limit = min(limit, deepest or limit)
    value, east, west, terminal = sg.value, sg.east, sg.west, sg.terminal
    reachable = _reachable_from(sg, relevant)
    legs = _numbered_legs(sg, used, reachable)
    path: list[int] = []
    parked: list[Trail] = []
    if starts is None:
        starts = [((s,), 1 << s, 0, value[s]) for s in reachable]
    # Pruning (`ahead.py`): a trail of n stops goes on only if its value plus the most the rest of
    # a run can add reaches `least[n]`, the lowest floor of any longer run. The floor only rises,
    # so a run cut off this way would never have been recorded. Not while parking: the parked
    # trails must be those of the whole walk; not when every run is recorded anyway; not for a
    # small walk (from few trails), over before the bound would have paid for its tables.
    pruning = not park and len(starts) >= PRUNE_FROM and (on_new is not None or min(floor[:max_stops + 1]) > ALL)
    if pruning:
        sides = [start_of(sg, s) for s in range(len(sg.stops))]
        ahead = Ahead(sg, legs, max_stops, {sides[trail[0][0]] for trail in starts})
    least = [ALL] * limit           # per stop count n < limit: the lowest floor of a run of more stops
    seen = []       # the floor `least` was taken from

    def lower_floors() -> None:
        if pruning and floor != seen:
            seen[:] = floor
            low = NONE
            for c in range(len(floor) - 1, -1, -1):
                low = min(low, floor[c])
                if c < limit:
                    least[c] = low
    lower_floors()

    def ask(revenue: int, smask: int, road: int, counted: int, order: tuple[int, ...]) -> bool:
        assert on_new is not None
        keep = on_new(revenue, smask, road, counted, order)
        lower_floors()      # on_new may have raised the floor
        return keep

    def record(smask: int, road: int, order: tuple[int, ...]) -> None:
        kept = found.get(smask)
        if kept is None:
            found[smask] = [(road, order)]
            return
        wider = False           # some kept road is a superset of this one (and goes)
        for r, _ in kept:
            both = r & road
            if both == r:       # a subset is kept already: this road is not minimal
                return
            if both == road:
                wider = True
        if wider:
            kept[:] = [(r, o) for r, o in kept if r & road != road]
        kept.append((road, order))

    def extend(v: int, smask: int, road: int, depth: int, earned: int) -> None:
        # `path` holds the stops so far, ending with v; depth == len(path); `earned` is their value.
        # Each run is found from both ends; it is recorded from the end with the smaller index.
        n, first = depth + 1, path[0]       # the stops of a trail one leg longer; its first stop
        deeper, parking = n < limit, n == park
        if pruning and deeper:   # what a trail of n stops ending with each leg may still reach
            gain, need = gains[1 if smask & terminal else 0][max_stops - depth], least[n] - earned
        for w, bit, m, val, k, go in legs[v]:
            if smask & bit or m & road:
                continue
            reach, total = smask | bit, earned + val
            if first < w and reach & relevant:
                revenue, counted = total, n
                if reach & east:   # both bonuses need an eastern area; the Terminal is then free
                    revenue += (2 * EAST_WEST_BONUS if reach & west else 0) + (TERMINAL_BONUS if reach & terminal else 0)
                    counted -= 1 if reach & terminal else 0
                if revenue >= floor[counted]:
                    order = (*path, w)
                    if on_new is None or reach in found or ask(revenue, reach, road | m, counted, order):
                        record(reach, road | m, order)
            if go:      # a route may pass w
                if parking:
                    parked.append(((*path, w), reach, road | m, total))
                if deeper and (not pruning or gain[k] >= need):
                    path.append(w)
                    extend(w, reach, road | m, n, total)
                    path.pop()

    gains: list[list[list[int]]] = []
    for stops, smask, road, earned in starts:
        path[:] = stops
        if pruning:
            gains = ahead.gains[sides[stops[0]]]
        extend(stops[-1], smask, road, len(stops), earned)
    return parked


def _numbered_legs(sg: StopGraph, used: int, reachable: list[int] | None = None) -> list[list[Leg]]:
    """Per stop, the legs out of it avoiding road `used`, numbered across the whole graph, with
    whether a route may pass their far stop. Only the `reachable` stops' (`_reachable_from`; None: every
    stop's): a trail that leaves them never meets a relevant stop, so none of its runs is recorded, and
    the stop graph works out a stop's legs only when asked."""
    legs: list[list[Leg]] = [[] for _ in sg.stops]
    k = 0
    for v in range(len(sg.stops)) if reachable is None else reachable:
        out = legs[v]
        for w, m in sg.legs[v]:
            if not m & used:
                out.append((w, 1 << w, m, sg.value[w], k, sg.through[w]))
                k += 1
    return legs


def runs_of(sg: StopGraph, found: Found, floor: list[int],
            keeps: Callable[[int, int, int, tuple[int, ...]], bool] | None = None) -> list[Run]:
    """The recorded runs meeting `floor`, best revenue first (a run under it may have been
    recorded from only some of its trails, before the floor rose: it must not come out)."""
    runs = []
    value, east, west, terminal = sg.value, sg.east, sg.west, sg.terminal
    for smask, kept in found.items():
        order = kept[0][1]
        revenue, counted = sum([value[i] for i in order]), len(order)
        if smask & east:    # the bonuses and the free Terminal, as `StopGraph.bonus` and `stops_counted`
            revenue += (2 * EAST_WEST_BONUS if smask & west else 0) + (TERMINAL_BONUS if smask & terminal else 0)
            counted -= 1 if smask & terminal else 0
        if revenue >= floor[counted] and (keeps is None or keeps(revenue, smask, counted, order)):
            runs.extend([Run(revenue, smask, road, counted, order) for road, order in kept])
    sort_runs(runs)
    return runs


def sort_runs(runs: list[Run]) -> None:
    # Only runs over the same stops can tie on the whole key (the stop order names the stops):
    # those keep the order the walk recorded them in, whatever else was recorded in between.
    runs.sort(key=lambda r: (-r.revenue, r.counted, r.road.bit_count(), r.order))


def flat_floor(max_stops: int, level: int = ALL) -> list[int]:
    """A floor indexed by counted stops up to `max_stops` + 1 (the last keeps nothing)."""
    return [level] * (max_stops + 1) + [NONE]


def enumerate_runs(sg: StopGraph, max_stops: int, relevant: int = -1, used: int = 0,
                   floor: list[int] | None = None) -> list[Run]:
    """Every distinct run with at most `max_stops` counted stops that avoids road `used`, visits a
    stop in `relevant` (a base's runs must meet its token or a depot token) and meets `floor`."""
    floor = (floor or flat_floor(max_stops))[:max_stops + 1] + [NONE]    # nothing longer than max_stops
    found: Found = {}
    walk(sg, max_stops, relevant, used, floor, found)
    return runs_of(sg, found, floor)


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
