"""Route search speed on heavy synthetic late-game 21Moon boards (prints figures, never fails).

Each board is `moon21.board.synthetic.crowded_board(seed)`: every hex holding the most connected
tile the supply allows (gray and brown first), roads aligned with their neighbours, three depot
tokens per corporation. For each corporation we time `best_turn_runs` with four transports
(local base 10 + 6, Space Port base 10 + 5) in phase 10, from a cold cache (nothing computed for
that board yet) and warm (the same question again, as `legal_actions` then `decide` would ask).
"""
from __future__ import annotations

import statistics
import time

from moon21.board import CORPORATIONS, best_turn_runs, lay_options, token_options
from moon21.board import graph, reach, search, stops
from moon21.board.synthetic import crowded_board

TRANSPORTS = {"LB": [10, 6], "SP": [10, 5]}


def _clear_caches() -> None:
    graph._CACHE.clear()
    stops._CACHE.clear()
    search._CACHE.clear()
    search._PLANS.clear()
    reach._CACHE.clear()


def building(boards) -> None:
    """Exact reachability for building (rule 11.1): every tile action of both bases and every depot
    token option, per corporation, from a cold cache."""
    times = []
    for label, board in boards:
        for corp in CORPORATIONS:
            _clear_caches()
            t0 = time.perf_counter()
            n = sum(len(lay_options(board, corp, base, phase="10", space_bridge=True)) for base in ("LB", "SP"))
            n += len(token_options(board, corp))
            times.append(time.perf_counter() - t0)
        print(f"building {label}: {len(board.tiles)} tiles; slowest corporation {1000 * max(times[-7:]):.1f} ms "
              f"({n} options for the last)")
    print(f"tile and depot options, both bases, cold: median {1000 * statistics.median(times):.1f} ms, "
          f"max {1000 * max(times):.1f} ms over {len(times)} corporations")


def main(seeds=(1, 2, 3), boards=()) -> None:
    """Time the synthetic boards of `seeds`, then any `boards` given (e.g. the heaviest board a
    playout met: pass `[(label, Board)]`)."""
    cold, warm = [], []
    started = time.perf_counter()
    cases = [(seed, lambda seed=seed: crowded_board(seed)) for seed in seeds]
    cases += [(label, lambda b=b: b) for label, b in boards]
    for seed, build in cases:
        board = build()
        for corp in CORPORATIONS:
            _clear_caches()
            t0 = time.perf_counter()
            result = best_turn_runs(board, corp, TRANSPORTS, sp_value=40, phase="10")
            t1 = time.perf_counter()
            best_turn_runs(board, corp, TRANSPORTS, sp_value=40, phase="10")
            t2 = time.perf_counter()
            cold.append(t1 - t0)
            warm.append(t2 - t1)
            sg = stops.stop_graph(board, corp, phase="10", sp_value=40)
            n_runs = len(search.all_runs(sg, 10))
            print(f"seed {seed} {corp:>3}: {len(board.tiles)} tiles, {len(sg.stops)} stops, "
                  f"{sum(len(x) for x in sg.legs) // 2} legs, {n_runs} runs -> revenue {result['revenue']:>4} "
                  f"(LB {result['LB']['revenue']}, SP {result['SP']['revenue']}); "
                  f"cold {1000 * (t1 - t0):7.1f} ms, warm {1000 * (t2 - t1):6.1f} ms")
        if time.perf_counter() - started > 45:
            break
    print(f"best runs, four transports, cold: median {1000 * statistics.median(cold):.1f} ms, "
          f"max {1000 * max(cold):.1f} ms over {len(cold)} searches")
    print(f"best runs, four transports, warm: median {1000 * statistics.median(warm):.2f} ms")
    building([(f"seed {seed}", crowded_board(seed)) for seed in (*seeds, 9, 11)] + list(boards))


if __name__ == "__main__":
    main()
