"""The cyclic garbage collector of a long-running service, set once it has started (`quieter_gc`).

What startup built (modules, the app, engine data, pydantic's validators) lives as long as the process,
so it is frozen out of every collection (`gc.freeze`): a full collection walks only what came after
(games, tables, sockets). Each pause holds up every command in flight, so the collector's work is kept
in small pieces rather than cut to its least: young collections every YOUNG_THRESHOLD (1,000)
allocations, a little above the default 700; full collections only after OLD_THRESHOLD (100)
middle-aged ones instead of 10 (and, as always in CPython, only once a quarter of the old objects are
new).

Measured: the Trucker service at 250 paced tables (docs/trucker_service.md: full collections had paused
it 270-500 ms; young ones at a 10,000 threshold took 16-18 ms of CPU each, at 1,000 they take 1-4 ms),
and the adjudicator and the lobby under `bench_capacity` (docs/lobby-capacity.md, twelfth round: with
the defaults the collector took 5-7 % of their CPU, and the adjudicator's full collections 25-40 ms).
Only for a process's own service: an app started again and again in one process (the tests) would
never collect what each one dropped.
"""
from __future__ import annotations

import gc

YOUNG_THRESHOLD = 1_000    # allocations between young collections
OLD_THRESHOLD = 100        # middle-aged collections between full ones


def quieter_gc() -> None:
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, OLD_THRESHOLD)
