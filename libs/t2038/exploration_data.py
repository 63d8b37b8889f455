"""The rulebook's Exploration Data charts, recomputed from the engine's own tile pool and delivery rules.

Exact expectations over draws without replacement, enumerated by tile kind with multiplicities.
`SUMMARY_LINES` and `DETAILED_LINES` are the printed lines in order, each with the hexes it explores
(its "Explor. Bonus") and how its average is computed; tests/t2038/test_exploration_data.py compares
every figure with the print, line by line. How each line is read: libs/t2038/RULINGS.md.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb
from typing import Callable

from t2038 import hexmap, tiles
from t2038.routes import DRAW_UNTIL, LUCKY, SURVEY_PAYMENT
from t2038.state import Options
from t2038.values import route_value

CATEGORIES = {
    "Nickel": lambda m: m.ore == "N",
    "Ice": lambda m: m.ore == "I",
    "Rare": lambda m: m.ore == "R",
    "N=20": lambda m: m.ore == "N" and m.unclaimed == 20,
    "I>30": lambda m: m.ore == "I" and m.unclaimed > 30,
    "R>20": lambda m: m.ore == "R" and m.unclaimed > 20,
}


@cache
def kind_counts() -> tuple[tuple[str, int], ...]:
    return tuple(Counter(tiles.tile_kinds()).items())


def ore_table() -> dict[str, dict[str, float]]:
    """Per category: mines, % of mines, tiles with one, % of tiles, odds of 1+ in 2 and in 4 draws."""
    all_kinds = tiles.tile_kinds()
    total_tiles, total_mines = len(all_kinds), sum(len(tiles.mines_of_kind(k)) for k in all_kinds)
    table = {}
    for name, test in CATEGORIES.items():
        mines = sum(sum(1 for m in tiles.mines_of_kind(k) if test(m)) for k in all_kinds)
        with_one = sum(1 for k in all_kinds if any(test(m) for m in tiles.mines_of_kind(k)))
        def odds(draws: int) -> float:
            return 100 * (1 - comb(total_tiles - with_one, draws) / comb(total_tiles, draws))
        table[name] = {"mines": mines, "mines_pct": 100 * mines / total_mines, "tiles": with_one,
                       "tiles_pct": 100 * with_one / total_tiles, "odds_2": odds(2), "odds_4": odds(4)}
    return table


def _draw(taken: Counter) -> list[tuple[str, float]]:
    """Each kind that can be drawn next, with its chance, given the kinds already out of the pool."""
    left = {kind: count - taken[kind] for kind, count in kind_counts()}
    total = sum(left.values())
    return [(kind, count / total) for kind, count in left.items() if count > 0]


def _placed(pilot: str, taken: Counter, choose_either: bool = False) -> list[tuple[str, float, Counter]]:
    """What one exploration places under the flying company's drawing rule (the same `DRAW_UNTIL` and
    Lucky rules the routes use): (kind placed, or "a|b" for a choice; chance; tiles out of the pool).
    `choose_either` is the rejected reading where Ice Finder / Drill Hound choose between their two."""
    outcomes = []
    for first, chance in _draw(taken):
        after = taken + Counter([first])
        wanted = DRAW_UNTIL.get(pilot)
        if wanted and choose_either and not any(m.ore == wanted for m in tiles.mines_of_kind(first)):
            for second, chance2 in _draw(after):
                outcomes.append((first + "|" + second, chance * chance2, after + Counter([second])))
        elif wanted and not any(m.ore == wanted for m in tiles.mines_of_kind(first)):
            # Ice Finder / Drill Hound: the second tile is the one placed; the first goes back.
            for second, chance2 in _draw(after):
                outcomes.append((second, chance * chance2, taken + Counter([second])))
        elif pilot == LUCKY:
            for second, chance2 in _draw(after):
                outcomes.append((first + "|" + second, chance * chance2, after + Counter([second])))
        else:
            outcomes.append((first, chance, after))
    return outcomes


def _best_load(kinds: list[str], holds: int, operator: str, ends: list[str]) -> int:
    """Best value of loading up to `holds` mines from the tiles `kinds`, over the possible route ends."""
    mines = [(m.ore, m.unclaimed) for kind in kinds for m in tiles.mines_of_kind(kind)]
    best = 0
    for end in ends:
        is_point = end in hexmap.transshipment_points()
        for size in range(0, min(holds, len(mines)) + 1):
            for load in combinations(mines, size):
                value = route_value(list(load), holds, end, operator=operator, is_base=not is_point,
                                    is_transshipment=is_point, phase=1, options=Options())
                best = max(best, value)
    return best


def one_hex_route(holds: int, operator: str, ends: list[str], choose_either: bool = False) -> float:
    """Average value of exploring one hex and delivering from it (a 3/2 or Torch's 4/2)."""
    total = 0.0
    for placed, chance, _ in _placed(operator, Counter(), choose_either):
        options = placed.split("|")          # Lucky places whichever of its two tiles is better
        total += chance * max(_best_load([kind], holds, operator, ends) for kind in options)
    return total


def two_hex_route(holds: int, operator: str, ends: list[str], keep_first_at: int) -> float:
    """Average of exploring two hexes in turn; ore on the first tile worth `keep_first_at`+ (bonus
    included) is loaded at once, the rest of the holds are filled from the second tile."""
    return two_hex_route_by_threshold(holds, operator, ends, (keep_first_at,))[keep_first_at]


# The worths a first-tile pickup can have (ore value plus a bonus): the only thresholds that differ.
THRESHOLDS = (20, 30, 40, 50, 60, 70)


def best_two_hex_route(holds: int, operator: str, ends: list[str]) -> tuple[int, float]:
    """Lines that print no pickup threshold: the player keeps a first-tile mine from the threshold that
    gives the best average (`(threshold, average)`; the lowest threshold wins a tie)."""
    averages = two_hex_route_by_threshold(holds, operator, ends, THRESHOLDS)
    best = max(THRESHOLDS, key=lambda threshold: (averages[threshold], -threshold))
    return best, averages[best]


def two_hex_route_by_threshold(holds: int, operator: str, ends: list[str],
                               thresholds: tuple[int, ...]) -> dict[int, float]:
    """`two_hex_route` for several thresholds in one pass over the draws."""
    totals = dict.fromkeys(thresholds, 0.0)
    for placed1, chance1, out1 in _merged(_placed(operator, Counter()), keep_pool=True):
        for placed2, chance2, _ in _merged(_placed(operator, out1), keep_pool=False):
            values = _pair_values(placed1, placed2, holds, operator, tuple(ends), thresholds)
            for threshold, value in zip(thresholds, values):
                totals[threshold] += chance1 * chance2 * value
    return totals


def _merged(outcomes: list, keep_pool: bool) -> list[tuple[str, float, Counter]]:
    """Outcomes that place the same tile (or offer the same pair, in either order) and leave the same
    pool are one outcome with the summed chance: the same average, far fewer cases to value."""
    merged: dict[tuple, float] = {}
    for placed, chance, out in outcomes:
        key = ("|".join(sorted(placed.split("|"))), tuple(sorted(out.items())) if keep_pool else ())
        merged[key] = merged.get(key, 0.0) + chance
    return [(placed, chance, Counter(dict(pool))) for (placed, pool), chance in merged.items()]


@cache
def _pair_values(placed1: str, placed2: str, holds: int, operator: str, ends: tuple[str, ...],
                 thresholds: tuple[int, ...]) -> tuple[int, ...]:
    """Per threshold, the best route from the first and second placed tiles (either tile of a pair)."""
    return tuple(max(_two_tiles(kind1, kind2, holds, operator, ends, threshold)
                     for kind1 in placed1.split("|") for kind2 in placed2.split("|"))
                 for threshold in thresholds)


@cache
def _two_tiles(kind1: str, kind2: str, holds: int, operator: str, ends: tuple[str, ...], threshold: int) -> int:
    first = sorted(((m.ore, m.unclaimed) for m in tiles.mines_of_kind(kind1)),
                   key=lambda mine: -_worth(mine, operator, ends))
    kept = [mine for mine in first if _worth(mine, operator, ends) >= threshold][:holds]
    second = [(m.ore, m.unclaimed) for m in tiles.mines_of_kind(kind2)]
    best = 0
    for end in ends:
        is_point = end in hexmap.transshipment_points()
        for size in range(0, min(holds - len(kept), len(second)) + 1):
            for load in combinations(second, size):
                value = route_value(kept + list(load), holds, end, operator=operator, is_base=not is_point,
                                    is_transshipment=is_point, phase=1, options=Options())
                best = max(best, value)
    return best


def _worth(mine: tuple[str, int], operator: str, ends: tuple[str, ...]) -> int:
    return max(route_value([mine], 1, end, operator=operator, is_base=end not in hexmap.transshipment_points(),
                           is_transshipment=end in hexmap.transshipment_points(), phase=1, options=Options())
               for end in ends)


@dataclass(frozen=True)
class ChartLine:
    """One printed line: its wording, the hexes it explores (the "Explor. Bonus" column is the survey
    payment for each) and how the engine computes its average from the tile pool."""
    text: str
    ship: str           # whose opening ship the line describes (the chart leaves it to the reader)
    explored: int
    average: Callable[[], float]

    def exploration_bonus(self) -> int:
        return self.explored * SURVEY_PAYMENT


def _best(holds: int, operator: str, ends: list[str]) -> Callable[[], float]:
    return lambda: best_two_hex_route(holds, operator, ends)[1]


_PLAIN = ["K9"]   # a base with no ore bonus: the summary chart counts no bonuses

# "by number of tile draws / cargo pickups": a 3/2 (one hex) or 5/1 / 5/2 (two hexes), no bonuses;
# the 2-draw lines print their threshold ("pickup @ 1st tile if $30+").
SUMMARY_LINES = (
    ChartLine("1 draw, 1 pickup", "a 3/2", 1, lambda: one_hex_route(1, "", _PLAIN)),
    ChartLine("2 draws, 1 pickup (pickup @ 1st tile if $30+)", "a 5/1", 2, lambda: two_hex_route(1, "", _PLAIN, 30)),
    ChartLine("1 draw, 2 pickups", "a 3/2", 1, lambda: one_hex_route(2, "", _PLAIN)),
    ChartLine("2 draws, 2 pickups (pickup @ 1st tile if $30+)", "a 5/2", 2, lambda: two_hex_route(2, "", _PLAIN, 30)),
)

# "detailed": each Independent's opening ship from its home base, with its own ability and bonus and
# the ending the line names (H10, O11 and D2 are the 30 transshipment points in reach; O1 is Lunar
# Enterprises' +10 Nickel base, A1 Mars Mining's +20 Ice base, F18 Ring Construction's +10 Nickel base).
# Where the line prints no first-tile threshold, the player keeps the threshold that pays best.
DETAILED_LINES = (
    ChartLine("1 draw, end @ 30 Transshipment, 2 pickups", "Fast Buck 3/2",
              1, lambda: one_hex_route(2, "i:1", ["H10"])),
    ChartLine("1 (2 if no I) draw, +10 I, end @ 30 T, 2 pickups", "Ice Finder 3/2",
              1, lambda: one_hex_route(2, "i:2", ["O11"])),
    ChartLine("2 (2 if no I) draws, +10 I, end @ 30T, 1 pickup", "Ice Finder 5/1",
              2, _best(1, "i:2", ["O11"])),
    ChartLine("1 (2 if no R) draw, +10 R, 2 pickups", "Drill Hound 3/2",
              1, lambda: one_hex_route(2, "i:3", ["D14"])),
    ChartLine("2 (2 if no R) draws, +10 R, +10 N, 1 pickup", "Drill Hound 5/1",
              2, _best(1, "i:3", ["F18"])),
    ChartLine("1 draw, +10 N, 2 pickups", "Ore Crusher 3/2",
              1, lambda: one_hex_route(2, "i:4", ["M5"])),
    ChartLine("2 draws, +20 N, 1 pickup (@1st if $40+)", "Ore Crusher 5/1",
              2, lambda: two_hex_route(1, "i:4", ["O1"], 40)),
    ChartLine("1 draw, +20 I or end @30T, 2 pickups", "Torch 4/2",
              1, lambda: one_hex_route(2, "i:5", ["A1", "D2"])),
    ChartLine("1 double draw, end @30T, 2 pickups", "Lucky 3/2",
              1, lambda: one_hex_route(2, "i:6", ["H10"])),
    ChartLine("2 double draws, end @30T, 1 pickup", "Lucky 5/1",
              2, _best(1, "i:6", ["H10"])),
)
