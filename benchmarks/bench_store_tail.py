"""Reading a game's last moves from a store full of other games: what a lobby's turn tracker and an
adjudicator catching up ask for, and what it costs every other game's appends meanwhile.

    python benchmarks/bench_store_tail.py        # its own nats-server (fsync always) on loopback, ~1 minute

All Starbase streams share one JetStream stream, so a game's messages lie among every other game's. The
store fills GAMES games with APPENDS appends each (round after round, so they interleave), then, while a
writer keeps appending to eight other games, fresh store instances (a replica that never read the game)
read each of READS games from BACK appends before its end, and, side by side, the whole game (what such a
read cost before the store looked for the seq from the stream's end: a read by subject from the first
message makes the server walk every message stored since). Printed: the time per read of each kind
(min / median / max), their ratio, and the other games' append latency (p50 / p99) in a quiet second
and while each kind of read runs. Figures are printed, never judged (docs/lobby-capacity.md, fourteenth
round).
"""
from __future__ import annotations

import asyncio
import os
import statistics
import time

from starbase_core.envelope import NewEvent
from starbase_core.servers import NatsServer
from starbase_core.store_jetstream import JetStreamEventStore

GAMES = int(os.environ.get("BENCH_TAIL_GAMES", 48))
APPENDS = int(os.environ.get("BENCH_TAIL_APPENDS", 1500))
READS = int(os.environ.get("BENCH_TAIL_READS", 12))
BACK = [int(x) for x in os.environ.get("BENCH_TAIL_BACK", "0,5,50").split(",") if x]
WRITERS = 8
PAD = "x" * 400                 # about a 21Moon move's envelope
BENCH_LIMIT_SECONDS = 300


def spread(values: list[float]) -> str:
    return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"


def quantile(values: list[float], q: float) -> float:
    return sorted(values)[int(q * (len(values) - 1))] * 1000 if values else float("nan")


async def main() -> None:
    with NatsServer() as nats:
        store = await JetStreamEventStore.connect(nats.url)
        names = [f"game.g{n}" for n in range(GAMES + WRITERS)]
        started = time.perf_counter()
        for round_ in range(APPENDS):
            await asyncio.gather(*(store.append(name, [NewEvent(type="Moved", data={"pad": PAD})], expected_seq=round_)
                                   for name in names))
        print(f"{len(names)} games of {APPENDS} appends ({len(names) * APPENDS} messages) "
              f"stored in {time.perf_counter() - started:.0f} s")
        seqs = {name: APPENDS for name in names[GAMES:]}
        latencies: list[float] = []
        writing = True

        async def writer() -> None:
            turn = 0
            while writing:
                name = names[GAMES + turn % WRITERS]
                turn += 1
                began = time.perf_counter()
                await store.append(name, [NewEvent(type="Moved")], expected_seq=seqs[name])
                seqs[name] += 1
                latencies.append(time.perf_counter() - began)

        async def timed_reads(from_seq_of) -> tuple[list[float], list[float]]:
            latencies.clear()
            times = []
            for name in names[:READS]:
                replica = await JetStreamEventStore.connect(nats.url, ensure=False)
                began = time.perf_counter()
                read = await replica.read(name, from_seq_of(name))
                times.append((time.perf_counter() - began) * 1000)
                assert read and read[-1].seq == APPENDS
                await replica.close()
            return times, list(latencies)

        task = asyncio.create_task(writer())
        await asyncio.sleep(1.0)
        quiet = list(latencies)
        print(f"other games' appends, quiet: p50 {quantile(quiet, .5):.1f} ms, p99 {quantile(quiet, .99):.1f} ms "
              f"({len(quiet)} in 1 s)")
        for back in BACK:
            tail, during_tail = await timed_reads(lambda name: APPENDS - back)
            whole, during_whole = await timed_reads(lambda name: 1)
            print(f"a fresh replica reads a game from {back} appends before its end: {spread(tail)} ms "
                  f"(min / median / max of {READS}); the whole game, side by side: {spread(whole)} ms; "
                  f"ratio of medians {statistics.median(tail) / statistics.median(whole):.3f}")
            print(f"  other games' appends meanwhile: p50 / p99 {quantile(during_tail, .5):.1f} / "
                  f"{quantile(during_tail, .99):.1f} ms during the tail reads, {quantile(during_whole, .5):.1f} / "
                  f"{quantile(during_whole, .99):.1f} ms during the whole-game reads")
        writing = False
        await task
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
