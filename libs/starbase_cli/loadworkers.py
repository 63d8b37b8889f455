"""`LoadPlan(workers=N)`: the tables of a run spread over N processes, each its own event loop (one loop
takes one core at most: a machine with more cores than one generator can use), tables dealt
round-robin, the command and game caps split between them, and their figures merged: samples are pooled,
so the percentiles are still exact over every command, and each worker's journal is replayed into the
caller's. On 2 cores it gains nothing (docs/load-testing.md).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import random
import time
from dataclasses import replace
from typing import Callable

from starbase_cli.loadgen import Budget, LoadPlan, LoadReport, new_loop_run, run_tables

WORKER_HEAD_START = 2.0  # seconds for worker processes to start and import before their clocks run


class JournalRecorder:
    """A worker's journal: the calls, kept to be replayed into the parent's journal."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def command(self, *call) -> None:
        self.calls.append(call)


async def run_in_workers(plan: LoadPlan, get_game: Callable | None, journal) -> LoadReport:
    """`plan.tables` tables over `plan.workers` processes, one event loop each; their figures merged."""
    workers = min(plan.workers, plan.tables)
    run_id = f"load{random.Random().getrandbits(40):010x}"
    # The caps are split so that the whole run still stops at them (a worker's share rounded up for the
    # first ones: the shares add up to the cap exactly).
    shares = [(plan.max_commands // workers) + (1 if k < plan.max_commands % workers else 0) for k in range(workers)]
    games = ([plan.games // workers + (1 if k < plan.games % workers else 0) for k in range(workers)]
             if plan.games is not None else [None] * workers)
    began = time.perf_counter()
    cpu_began = time.process_time()
    loop = asyncio.get_running_loop()
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        start_at = time.monotonic() + WORKER_HEAD_START
        futures = [loop.run_in_executor(pool, _worker, plan, list(range(k, plan.tables, workers)), shares[k], games[k],
                                        run_id, get_game, start_at, journal is not None)
                   for k in range(workers)]
        results = await asyncio.gather(*futures)
    report = LoadReport(plan=plan, bots=results[0][0].bots, processes=workers)
    for worker_report, calls in results:
        report.merge(worker_report)
        for call in calls:
            journal.command(*call)
    report.cpu += time.process_time() - cpu_began       # the parent's own share (starting the workers)
    report.elapsed = report.elapsed or time.perf_counter() - began
    report.stopped = merged_reason([worker_report.stopped for worker_report, _ in results])
    return report


def merged_reason(reasons: list[str]) -> str:
    """Why a run over workers stopped: the whole run's limit that one of them reached, else their own."""
    for limit in ("command cap", "duration"):
        if limit in reasons:
            return limit
    others = [reason for reason in reasons if reason != "games done"]
    return others[0] if others else "games done"


def _worker(plan: LoadPlan, indices: list[int], max_commands: int, games: int | None, run_id: str,
            get_game: Callable | None, start_at: float, journaled: bool) -> tuple[LoadReport, list[tuple]]:
    """One worker process: its tables on its own event loop (uvloop when installed, as the lobby runs)."""
    share = replace(plan, max_commands=max_commands, games=games, workers=1)
    journal = JournalRecorder() if journaled else None

    async def main() -> LoadReport:
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        budget = Budget(share, deadline=start_at + plan.duration)
        return await run_tables(share, indices, run_id, get_game, budget, journal)

    report = new_loop_run(main())
    report.plan = plan
    return report, journal.calls if journal else []
