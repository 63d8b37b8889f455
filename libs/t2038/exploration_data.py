"""The rulebook's Exploration Data charts, recomputed from the engine's own tile pool and delivery rules.

Exact expectations over draws without replacement, enumerated by tile kind with multiplicities. The
printed tables are the test: tests/t2038/test_exploration_data.py compares these figures with them.
"""
from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations
from math import comb

from t2038 import hexmap, tiles
from t2038.routes import DRAW_UNTIL, LUCKY
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


def _placed(pilot: str, taken: Counter) -> list[tuple[str, float, Counter]]:
    """What one exploration places under the flying company's drawing rule (the same `DRAW_UNTIL` and
    Lucky rules the routes use): (kind placed, chance, tiles out of the pool)."""
    outcomes = []
    for first, chance in _draw(taken):
        after = taken + Counter([first])
        wanted = DRAW_UNTIL.get(pilot)
        if wanted and not any(m.ore == wanted for m in tiles.mines_of_kind(first)):
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


def one_hex_route(holds: int, operator: str, ends: list[str]) -> float:
    """Average value of exploring one hex and delivering from it (a 3/2 or Torch's 4/2)."""
    total = 0.0
    for placed, chance, _ in _placed(operator, Counter()):
        options = placed.split("|")          # Lucky places whichever of its two tiles is better
        total += chance * max(_best_load([kind], holds, operator, ends) for kind in options)
    return total


def two_hex_route(holds: int, operator: str, ends: list[str], keep_first_at: int) -> float:
    """Average of exploring two hexes in turn; ore on the first tile worth `keep_first_at`+ (bonus
    included) is loaded at once, the rest of the holds are filled from the second tile."""
    total = 0.0
    for placed1, chance1, out1 in _placed(operator, Counter()):
        for placed2, chance2, _ in _placed(operator, out1):
            best = 0
            for kind1 in placed1.split("|"):
                for kind2 in placed2.split("|"):
                    best = max(best, _two_tiles(kind1, kind2, holds, operator, tuple(ends), keep_first_at))
            total += chance1 * chance2 * best
    return total


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


def summary_rows() -> dict[str, float]:
    """The four 'by number of tile draws / cargo pickups' averages (no bonuses; end at a plain base)."""
    plain = ["K9"]
    return {
        "1 draw, 1 pickup": one_hex_route(1, "", plain),
        "2 draws, 1 pickup": two_hex_route(1, "", plain, keep_first_at=30),
        "1 draw, 2 pickups": one_hex_route(2, "", plain),
        "2 draws, 2 pickups": two_hex_route(2, "", plain, keep_first_at=30),
    }


def detailed_rows() -> dict[str, float]:
    """Lines of 'Exploration & Route Description (detailed)', one per Independent's opening ship."""
    return {
        "FB 3/2: 1 draw, end @30T, 2 pickups": one_hex_route(2, "i:1", ["H10"]),
        "IF 3/2: 1 (2 if no I) draw, +10 I, end @30T, 2 pickups": one_hex_route(2, "i:2", ["O11"]),
        "DH 3/2: 1 (2 if no R) draw, +10 R, 2 pickups": one_hex_route(2, "i:3", ["D14"]),
        "OC 3/2: 1 draw, +10 N, 2 pickups": one_hex_route(2, "i:4", ["M5"]),
        "TH 4/2: 1 draw, +20 I or end @30T, 2 pickups": one_hex_route(2, "i:5", ["A1", "D2"]),
        "LY 3/2: 1 double draw, end @30T, 2 pickups": one_hex_route(2, "i:6", ["H10"]),
        "OC 5/1: 2 draws, +20 N, 1 pickup (@1st if $40+)": two_hex_route(1, "i:4", ["O1"], keep_first_at=40),
        "IF 5/1: 2 (2 if no I) draws, +10 I, end @30T, 1 pickup": two_hex_route(1, "i:2", ["O11"], keep_first_at=50),
        "DH 5/1: 2 (2 if no R) draws, +10 R, +10 N, 1 pickup": two_hex_route(1, "i:3", ["F18"], keep_first_at=40),
        "LY 5/1: 2 double draws, end @30T, 1 pickup": two_hex_route(1, "i:6", ["H10"], keep_first_at=40),
    }
