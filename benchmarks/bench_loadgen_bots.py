"""The engine's bots on the event loop or on a thread of their own (`LoadPlan.bot_thread`), side by side.

One stack (as bench_capacity starts it); 21Moon at 4, 8 and 16 tables for SECONDS each, bots inline then
on their thread, ROUNDS times, against the same services. Prints the round trip and push p99, the
generator's CPU per move (of which the bots), cores busy and its event loop's lag p99.

    cd benchmarks && ../.venv/bin/python bench_loadgen_bots.py
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bench_capacity import Stack                    # same directory: run as a script
from starbase_cli.loadgen import LoadPlan, new_loop_run, run_load
from starbase_core.servers import NatsServer, RedisServer

SECONDS = float(os.environ.get("BENCH_BOTS_SECONDS", 8))
ROUNDS = int(os.environ.get("BENCH_BOTS_ROUNDS", 3))
TABLES = [int(x) for x in os.environ.get("BENCH_BOTS_TABLES", "4,8,16").split(",")]


async def one(url: str, on_thread: bool, tables: int) -> None:
    figures = (await run_load(LoadPlan(lobby=url, game="moon21", tables=tables, duration=SECONDS, drain=3,
                                       bot_thread=on_thread))).figures()
    own, trip = figures["generator"], figures["round_trip_ms"]
    print(f"  {'thread' if on_thread else 'inline':<7} {tables:>6} {figures['commands']['accepted_per_s']:>8.1f} "
          f"{trip['p50']:>7.1f} {trip['p99']:>7.1f} {figures['pushes']['command_to_push_ms']['p99']:>8.1f}   "
          f"{own['cpu_ms_per_accepted']:.2f} ({own['bots_cpu_ms_per_accepted']:.2f})   {own['cores_busy']:.2f}   "
          f"{own['loop_lag_ms']['p99']:.1f}{'   errors ' + str(figures['errors']) if figures['errors'] else ''}",
          flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as work, NatsServer() as nats, RedisServer() as redis, \
            Stack(nats, redis, 1, Path(work)) as stack:
        print(f"  {'bots':<7} {'tables':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'push p99':>8}   "
              f"generator CPU ms per move (bots)   cores busy   loop lag p99 ms")
        for _ in range(ROUNDS):
            for tables in TABLES:
                for on_thread in (False, True):
                    new_loop_run(one(stack.lobbies[0], on_thread, tables))


if __name__ == "__main__":
    main()
