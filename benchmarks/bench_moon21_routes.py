"""Route search speed on heavy synthetic late-game 21Moon boards (prints figures, never fails).

Each board is `moon21.board.synthetic.crowded_board(seed)`: every hex holding the most connected
tile the supply allows (gray and brown first), roads aligned with their neighbours, three depot
tokens per corporation. For each corporation we time `best_turn_runs` with four transports
(local base 10 + 6, Space Port base 10 + 5) in phase 10, from a cold cache (nothing computed for
that board yet) and warm (the same question again, as `legal_actions` then `decide` would ask).

Side by side: the search as it was before the floored listing (`tests/moon21/board/reference_search.py`,
every run listed then paired) is timed on the same question right after, alternating, both cold,
`REPEATS` times each; a search's figure is the least CPU time (`time.process_time`) of its repeats,
which keeps most of other jobs' load on a shared machine out of it. Both answers must be equal
(the line says DIFFERENT otherwise; `tests/moon21/board/test_board_search_reference.py` asserts it).
The same side by side over every operating turn of two bot games (`bot_games`).

Before and after a change: with `BENCH_MOON21_BEFORE=/path/to/old/libs` (e.g. /tmp/before-session/libs)
`main()` also runs `before_and_after`: the same cold questions in fresh processes, the old code's
and this checkout's alternately, `ROUNDS` times; a search's figure is its least CPU time over all
repeats, and the line says DIFFERENT if the answers differ.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))   # the reference lives in tests/

from moon21.board import CORPORATIONS, best_turn_runs, lay_options, token_options  # noqa: E402
from moon21.board import graph, reach, search, stops  # noqa: E402
from moon21.board.synthetic import crowded_board  # noqa: E402
from moon21.game import GAME  # noqa: E402
from starbase_rules.playout import playout  # noqa: E402
from tests.moon21.board import reference_search as reference  # noqa: E402

TRANSPORTS = {"LB": [10, 6], "SP": [10, 5]}
REPEATS = 3
ROUNDS = 3
LIMIT_SECONDS = 150
LIBS = pathlib.Path(__file__).resolve().parents[1] / "libs"


def _clear_caches() -> None:
    for cache in (graph._CACHE, stops._CACHE, search._CACHE, search._PLANS, reach._CACHE,
                  reference._CACHE, reference._PLANS):
        cache.clear()


def _cold(find, board, corp) -> tuple[float, dict]:
    _clear_caches()
    t0 = time.process_time()
    result = find(board, corp, TRANSPORTS, sp_value=40, phase="10")
    return time.process_time() - t0, result


def bot_games(seeds=(4, 11)) -> None:
    """Every operating turn of seeded 5-player bot games (the boards real games meet: most small),
    both searches side by side as above."""
    now, before = [], []
    for seed in seeds:
        game = playout(GAME, ["ann", "bob", "cy", "dan", "eve"], seed=seed, check=False)
        state = GAME.initial_state()
        for event in game.events:
            state = GAME.evolve(state, event)
            held = state.corps[event.corp].transports if event.type == "OperatingTurnStarted" else {}
            if held and (held["LB"] or held["SP"]):
                transports = {b: list(held[b]) for b in ("LB", "SP")}
                kw = {"sp_value": state.space_port_value, "phase": state.phase}
                for find, times in ((best_turn_runs, now), (reference.best_turn_runs, before)):
                    least = float("inf")
                    for _ in range(REPEATS):
                        _clear_caches()
                        t0 = time.process_time()
                        find(state.board, event.corp, transports, **kw)
                        least = min(least, time.process_time() - t0)
                    times.append(least)
    for label, times in (("now", now), ("before", before)):
        print(f"bot games (seeds {', '.join(map(str, seeds))}), {len(times)} operating turns, cold, {label}: "
              f"median {1000 * statistics.median(times):.2f} ms, max {1000 * max(times):.1f} ms, "
              f"total {1000 * sum(times):.0f} ms")


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


def _times_here(cases: list[tuple[int, str]]) -> dict[str, tuple[float, str]]:
    """Least CPU time of `REPEATS` cold searches and a digest of the answer, per (seed, corporation)."""
    out, boards = {}, {}
    for seed, corp in cases:
        board = boards.setdefault(seed, crowded_board(seed))
        least = float("inf")
        for _ in range(REPEATS):
            t, result = _cold(best_turn_runs, board, corp)
            least = min(least, t)
        out[f"{seed} {corp}"] = (least, hashlib.sha256(repr(result).encode()).hexdigest())
    return out


def before_and_after(before_libs: str, seeds=(1, 2, 3), rounds: int = ROUNDS) -> None:
    """The crowded boards' searches with the code in `before_libs` and with this checkout's, in
    fresh processes, alternately (other jobs' load falls on both)."""
    cases = [(seed, corp) for seed in seeds for corp in CORPORATIONS]
    script = ("import json, sys; sys.path.insert(0, sys.argv[2]); import bench_moon21_routes as b; "
              "print(json.dumps(b._times_here([tuple(c) for c in json.loads(sys.argv[1])])))")
    times: dict[str, dict[str, list]] = {"before": {}, "after": {}}
    for _ in range(rounds):
        for label, libs in (("before", before_libs), ("after", str(LIBS))):
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([libs, str(LIBS.parent)]))
            done = subprocess.run([sys.executable, "-c", script, json.dumps(cases), str(pathlib.Path(__file__).parent)],
                                  env=env, capture_output=True, text=True, check=True)
            for case, figure in json.loads(done.stdout.splitlines()[-1]).items():
                times[label].setdefault(case, []).append(figure)
    for case in times["after"]:
        old, new = (min(t for t, _ in times[label][case]) for label in ("before", "after"))
        same = {d for _, d in times["before"][case]} == {d for _, d in times["after"][case]}
        print(f"seed {case:>7}: before {1000 * old:6.1f} ms, after {1000 * new:6.1f} ms{'' if same else ' DIFFERENT'}")
    for label in ("before", "after"):
        least = [min(t for t, _ in figures) for figures in times[label].values()]
        print(f"best runs, four transports, cold, {label} ({before_libs if label == 'before' else LIBS}): "
              f"median {1000 * statistics.median(least):.1f} ms, max {1000 * max(least):.1f} ms over {len(least)} "
              f"searches (least CPU time of {REPEATS} x {rounds} rounds); load {os.getloadavg()[0]:.1f}")


def main(seeds=(1, 2, 3), boards=()) -> None:
    """Time the synthetic boards of `seeds`, then any `boards` given (e.g. the heaviest board a
    playout met: pass `[(label, Board)]`)."""
    now, before, warm = [], [], []
    started = time.perf_counter()
    cases = [(seed, lambda seed=seed: crowded_board(seed)) for seed in seeds]
    cases += [(label, lambda b=b: b) for label, b in boards]
    for seed, build in cases:
        board = build()
        for corp in CORPORATIONS:
            new_t, old_t = [], []
            for _ in range(REPEATS):
                t, result = _cold(best_turn_runs, board, corp)
                new_t.append(t)
                t0 = time.process_time()
                best_turn_runs(board, corp, TRANSPORTS, sp_value=40, phase="10")
                warm.append(time.process_time() - t0)
                kept = len(search._CACHE[next(iter(search._CACHE))][2])
                t, old = _cold(reference.best_turn_runs, board, corp)
                old_t.append(t)
            now.append(min(new_t))
            before.append(min(old_t))
            sg = stops.stop_graph(board, corp, phase="10", sp_value=40)
            n_runs = len(reference.all_runs(sg, 10))
            print(f"seed {seed} {corp:>3}: {len(board.tiles)} tiles, {len(sg.stops)} stops, {n_runs} runs "
                  f"({kept} listed now) -> revenue {result['revenue']:>4} "
                  f"(LB {result['LB']['revenue']}, SP {result['SP']['revenue']}){'' if result == old else ' DIFFERENT'}; "
                  f"cold now {1000 * now[-1]:6.1f} ms, before {1000 * before[-1]:6.1f} ms")
        if time.perf_counter() - started > LIMIT_SECONDS:
            break
    for label, times in (("now", now), ("before", before)):
        print(f"best runs, four transports, cold, {label}: median {1000 * statistics.median(times):.1f} ms, "
              f"max {1000 * max(times):.1f} ms over {len(times)} searches (least CPU time of {REPEATS})")
    print(f"best runs, four transports, warm: median {1000 * statistics.median(warm):.2f} ms")
    if os.environ.get("BENCH_MOON21_BEFORE"):
        before_and_after(os.environ["BENCH_MOON21_BEFORE"], seeds)
    bot_games()
    building([(f"seed {seed}", crowded_board(seed)) for seed in (*seeds, 9, 11)] + list(boards))


if __name__ == "__main__":
    main()
