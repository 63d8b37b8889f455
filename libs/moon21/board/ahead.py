"""What the rest of a trail can still earn: an upper bound that lets the run walk prune.

The walk (`listing.walk`) grows trails stop by stop and records runs meeting a floor. A trail
whose value, plus the most any way of going on can add, stays under the lowest floor of every
longer run can be dropped with everything that would grow from it: none of those runs would
have been recorded. The bound must never be too low; it is only worth its cost if it is tight.

`Ahead.gains` bounds the *revenue* a trail can still reach past its last stop w (reached from
v), bonuses included, given its first stop's side, the counted stops the run may still take and
whether the Terminal is in it. It is the best *walk* on the stop graph (a trail is a walk) under
these rules:

- it never turns straight back (a trail never revisits a stop, so not v from w either), and
  never steps onto the Terminal twice;
- it goes on only through stops a route may pass; at any other stop (an area, a full depot) it
  ends;
- every stop counts, but a run holding the Terminal and reaching the East may take one stop more
  (the Terminal is free, rule 11.4); where it ends, the run's bonuses are added: the East-West
  bonus needs an area of each side, the Terminal bonus the Terminal and an eastern area. Areas
  are only ever a run's ends, so the side of the run's first stop (`start_of`) and where the
  walk ends decide both;
- at each stop, with r counted stops left (so at most r + 1 stops to come), no more than the
  r + 1 best stops within r + 1 legs (a trail visits each stop once and stays that close) plus
  the most bonus a run from that first stop can earn.

The walk is computed per stop with its best and second-best next stop, so that "not straight
back to v" costs one comparison (the second best is a different stop); then per leg, so that
the run walk pays one addition and one comparison per step. Without cycles in the stop graph a
walk that never turns straight back is a trail, and the bound is exact (the tests check both).
"""
from __future__ import annotations

from moon21.board.geometry import EAST_WEST_BONUS
from moon21.board.stops import TERMINAL_BONUS, StopGraph

NEVER = -(10**9)      # no way on (an upper bound for an empty set of runs)

# A run's first stop: an eastern area, a western one, or a stop that is no area.
EAST, WEST, INLAND = 0, 1, 2


def start_of(sg: StopGraph, stop: int) -> int:
    """The side of a run's first stop: EAST, WEST (an area of that side) or INLAND."""
    bit = 1 << stop
    return EAST if sg.east & bit else WEST if sg.west & bit else INLAND


Leg = tuple[int, int, int, int, int, bool]   # (next stop, its bit, road, its value, leg number, may pass it)


class Ahead:
    """Bounds for the walk over `legs` (per stop, its legs on the road left, numbered 0, 1, ...)."""

    def __init__(self, sg: StopGraph, legs: list[list[Leg]], max_stops: int, starts: set[int]):
        self.max_stops = max_stops
        self._sg, self._legs = sg, legs
        self._neighbours = [sorted({leg[0] for leg in out}) for out in legs]
        self._terminal = sg.terminal.bit_length() - 1      # -1 when the Terminal is not on the map
        self._near = _near(sg, self._neighbours, max_stops)
        # per start: [Terminal in the trail][max_stops - d][leg k from v to w] -> the most the trail
        # of d + 1 stops ending with leg k (its value included) may still reach, less its first d stops' value
        self.gains = {start: self._gains(self._walks(start)) for start in starts}

    def _gains(self, tables: list[list[list[tuple[int, int, int]]]]) -> list[list[list[int]]]:
        terminal, count = self._terminal, sum(len(out) for out in self._legs)
        gains: list[list[list[int]]] = [[], []]
        for t in (0, 1):
            for i in range(self.max_stops):     # a walked trail has d >= 1 stops
                row = [NEVER] * count
                for v, out in enumerate(self._legs):
                    for w, _, _, val, k, _ in out:
                        best, to, second = tables[t or w == terminal][i][w]
                        row[k] = val + (best if to != v else second)
                gains[t].append(row)
        return gains

    def _walks(self, start: int) -> list[list[list[tuple[int, int, int]]]]:
        sg, top, n = self._sg, self.max_stops, len(self._sg.stops)
        value, through, terminal = sg.value, sg.through, self._terminal
        first_east, first_west = start == EAST, start == WEST
        cap = _most_bonus(sg, start)

        def ending(t: int, east: bool, west: bool, left: int) -> int:
            """The bonus of a run ending here with `left` counted stops to spare, if it may end."""
            if left < 0 and not (left == -1 and t and east):
                return NEVER
            return (2 * EAST_WEST_BONUS if east and west else 0) + (TERMINAL_BONUS if t and east else 0)

        # per Terminal-in-run t and stop w: the next stops x, each as (x, t after x, through x?,
        # x's value plus the bonus of ending at x [with stops to spare, with the free one taken])
        steps: list[list[list[tuple[int, int, bool, int, int]]]] = [[], []]
        for t in (0, 1):
            for w in range(n):
                row = []
                for x in self._neighbours[w]:
                    if x == terminal and t:
                        continue
                    t2 = 1 if t or x == terminal else 0
                    if through[x]:
                        spare, last = ending(t2, first_east, first_west, 0), ending(t2, first_east, first_west, -1)
                    else:
                        east, west = first_east or sg.east >> x & 1 == 1, first_west or sg.west >> x & 1 == 1
                        spare, last = ending(t2, east, west, 0), ending(t2, east, west, -1)
                    row.append((x, t2, through[x], value[x] + spare if spare != NEVER else NEVER,
                                value[x] + last if last != NEVER else NEVER))
                steps[t].append(row)
        empty = [(NEVER, -1, NEVER)] * n
        # tables[t][r + 1][w]: r counted stops left after w (-1: the free Terminal's stop taken too)
        tables = [[empty], [empty]]
        for r in range(top - 1):      # a trail of d >= 1 stops has r <= top - 2 counted ones left
            near = self._near[r]
            for t in (0, 1):
                row = []
                for w in range(n):
                    limit = near[w] + cap
                    best, best_to, second = NEVER, -1, NEVER
                    for x, t2, go_on, spare, last in steps[t][w]:
                        gain = spare if r else last        # end at x
                        if go_on:                          # or go on from x, not back to w
                            after = tables[t2][r][x]
                            on = after[0] if after[1] != w else after[2]
                            if on != NEVER and value[x] + on > gain:
                                gain = value[x] + on
                        if gain > limit:
                            gain = limit
                        if gain > best:
                            best, best_to, second = gain, x, best
                        elif gain > second:
                            second = gain
                    row.append((best, best_to, second))
                tables[t].append(row)
        return tables


def _most_bonus(sg: StopGraph, start: int) -> int:
    """The most bonus a run from such a first stop can earn (only a run from an area has both sides)."""
    if start == INLAND:
        return TERMINAL_BONUS if sg.terminal and sg.east else 0
    return (2 * EAST_WEST_BONUS if sg.east and sg.west else 0) + (TERMINAL_BONUS if sg.terminal and sg.east else 0)


def _near(sg: StopGraph, neighbours: list[list[int]], max_stops: int) -> list[list[int]]:
    """near[r][w]: the r + 1 best values within r + 1 legs of w (w left out): the stops a trail may
    still take after w when it may take r counted ones and perhaps the free Terminal."""
    n = len(sg.stops)
    near = [[0] * n for _ in range(max_stops)]
    for w in range(n):
        ranked: list[tuple[int, int]] = []      # (value, legs away)
        seen, frontier, d = {w}, [w], 0
        while frontier and d <= max_stops:
            d += 1
            nxt = []
            for v in frontier:
                if v == w or sg.through[v]:
                    for x in neighbours[v]:
                        if x not in seen:
                            seen.add(x)
                            nxt.append(x)
                            ranked.append((sg.value[x], d))
            frontier = nxt
        ranked.sort(reverse=True)
        for r in range(max_stops):
            near[r][w] = sum([val for val, k in ranked if k <= r + 1][:r + 1])
    return near
