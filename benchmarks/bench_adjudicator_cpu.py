"""The adjudicator's own CPU per accepted command, side by side with an older adjudicator.

Real NATS (JetStream, fsync before every ack) from the wheel and the adjudicator as its own process
(`python -m adjudicator`, Testjack registered); this process is CLIENTS gRPC callers per adjudicator,
each with a one-seat Testjack game, sending `Think` (a full decide + append, recorded as
CommandHadNoEffect) at RATE commands/s in all for SECONDS, paced. The adjudicator's CPU (utime + stime
from /proc) over the run, less its idle background over as long, divided by the commands accepted:
what one command costs the platform around a trivial engine (gRPC, cache and lock, decide, seal, append,
the turn, metrics).

Every variant measured runs at the same time, each adjudicator on a NATS of its own, over the same
window: on a shared machine the load of the moment then falls on all of them alike, so compare the
figures of one round (and their ratios), not figures of different runs. Variants:
- `this unary`: this tree's adjudicator, a Submit call per command (`AdjudicatorClient(streams=0)`);
- `this stream` (unless BENCH_ADJ_CPU_STREAM=0): the same commands through `AdjudicatorClient`'s
  SubmitStreams (its default, as the lobby sends them);
- `before unary` and `before stream` (BENCH_ADJ_CPU_BEFORE=<dir>): an older adjudicator, the same two
  ways (one without SubmitStream gets Submit calls: the client falls back), where <dir> holds its `services/adjudicator`,
  `libs/starbase_core` and `proto` (`git archive main services/adjudicator libs/starbase_core proto |
  tar -x -C /tmp/adj-before`, then BENCH_ADJ_CPU_BEFORE=/tmp/adj-before).
BENCH_ADJ_CPU_UNARY=0: no unary variants (fewer processes sharing the cores). ROUNDS rounds; at the end
each variant's min / median / max, and each `this` / `before` of the same transport, round by round.
BENCH_ADJ_CPU_THREADS=1: also each thread's CPU per command (the event loop's, gRPC's).
BENCH_ADJ_CPU_CALLER=<n>: then the caller's side (what the lobby's process spends in `AdjudicatorClient.submit`
and gRPC): this process's CPU per command, unary and stream alternating, n times, against one
adjudicator of this tree, CLIENTS callers each sending its next command as soon as it has its reply.
Figures are printed, never judged.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
import uuid
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from bench_capacity import TICKS, cpu_seconds   # same directory: run as a script
from bench_lobby import start_service, wait_ready

from adjudicator.client import AdjudicatorClient
from starbase_core.servers import NatsServer, free_port

RATE = float(os.environ.get("BENCH_ADJ_CPU_RATE", 120))
SECONDS = float(os.environ.get("BENCH_ADJ_CPU_SECONDS", 10))
CLIENTS = int(os.environ.get("BENCH_ADJ_CPU_CLIENTS", 16))
ROUNDS = int(os.environ.get("BENCH_ADJ_CPU_ROUNDS", 3))
BEFORE = os.environ.get("BENCH_ADJ_CPU_BEFORE", "")
STREAM = os.environ.get("BENCH_ADJ_CPU_STREAM", "1") not in ("", "0")
UNARY = os.environ.get("BENCH_ADJ_CPU_UNARY", "1") not in ("", "0")
THREADS = os.environ.get("BENCH_ADJ_CPU_THREADS", "") not in ("", "0")
CALLER = int(os.environ.get("BENCH_ADJ_CPU_CALLER", 0) or 0)
CALLER_COMMANDS = 2000       # per measurement of the caller's side
WARMUP_COMMANDS = 20     # per caller, before the clock starts: connections, caches, first calls


@dataclass
class Variant:
    name: str
    services: str = ""          # an older tree's root; "" for this one
    stream: bool = False
    pid: int = 0
    target: str = ""
    accepted: int = 0
    net: float = 0.0            # ms of CPU per command, less the idle background


def kernel_seconds(pid: int) -> float:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[12]) / TICKS    # stime


def thread_seconds(pid: int) -> dict[int, tuple[str, float]]:
    """Each thread of the process: (its name, its CPU seconds so far)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue            # the thread ended meanwhile
        fields = stat.rsplit(")", 1)[1].split()
        found[int(task.name)] = (stat[stat.index("(") + 1:stat.rindex(")")], (int(fields[11]) + int(fields[12])) / TICKS)
    return found


async def callers(variant: Variant, began: float) -> None:
    """CLIENTS callers of one adjudicator, each on its own game, paced, until SECONDS after `began`."""
    streams = {} if variant.stream else {"streams": 0}
    async with AdjudicatorClient(variant.target, **streams) as client:
        interval = CLIENTS / RATE

        async def one(index: int, game: str) -> None:
            next_send = began + index * interval / CLIENTS
            while next_send < began + SECONDS:
                await asyncio.sleep(max(0.0, next_send - time.perf_counter()))
                await client.submit(game, "p", {"type": "Think"})
                variant.accepted += 1
                next_send += interval

        games = [f"cpu{index}-{uuid.uuid4().hex[:8]}" for index in range(CLIENTS)]
        for game in games:
            await client.create_game(game, "testjack", ["p"])
        await asyncio.gather(*(client.submit(game, "p", {"type": "Think"})
                               for game in games for _ in range(WARMUP_COMMANDS)))
        await asyncio.sleep(max(0.0, began - time.perf_counter()))
        await asyncio.gather(*(one(i, game) for i, game in enumerate(games)))


async def drive(variants: list[Variant]) -> None:
    began = time.perf_counter() + 3.0 + 0.2 * CLIENTS * len(variants)    # every variant warmed up by then
    runs = [asyncio.ensure_future(callers(v, began)) for v in variants]
    await asyncio.sleep(max(0.0, began - time.perf_counter()))
    cpu0 = {v.name: (cpu_seconds(v.pid), kernel_seconds(v.pid), thread_seconds(v.pid)) for v in variants}
    await asyncio.gather(*runs)
    took = time.perf_counter() - began
    cpu1 = {v.name: (cpu_seconds(v.pid), kernel_seconds(v.pid), thread_seconds(v.pid)) for v in variants}
    await asyncio.sleep(took)                   # the idle background, over as long
    for v in variants:
        busy, kernel = cpu1[v.name][0] - cpu0[v.name][0], cpu1[v.name][1] - cpu0[v.name][1]
        idle = cpu_seconds(v.pid) - cpu1[v.name][0]
        per = 1000 / max(1, v.accepted)
        v.net = max(0.0, busy - idle) * per
        print(f"  {v.name:12}  {v.accepted:>5} commands  {busy * per:5.2f} ms/command  "
              f"{v.net:5.2f} less the idle background  (in the kernel {kernel * per:.2f})", flush=True)
        if THREADS:
            before, after = cpu1[v.name][2], cpu0[v.name][2]
            print("      by thread: " + ", ".join(
                f"{name} {(seconds - after.get(key, (name, 0.0))[1]) * per:.2f}"
                for key, (name, seconds) in sorted(before.items()) if seconds > after.get(key, (name, 0.0))[1]))


def one_round(variants: list[Variant], run=drive) -> None:
    """Start an adjudicator (and its NATS) per variant, then `run(variants)`."""
    with tempfile.TemporaryDirectory(prefix="bench-adj-cpu-") as work, ExitStack() as stack:
        children = []
        try:
            for variant in variants:
                nats = stack.enter_context(NatsServer())
                grpc_port, health_port = free_port(), free_port()
                env = {**os.environ, "NATS_URL": nats.url, "LOG_LEVEL": "warning", "INSECURE_DEV_MODE": "true",
                       "ADJUDICATOR_PORT": str(grpc_port), "ADJUDICATOR_HOST": "127.0.0.1",
                       "ADJUDICATOR_HEALTH_PORT": str(health_port), "METRICS_PORT": "0"}
                if variant.services:    # found before the installed packages (the editable finder comes last)
                    root = Path(variant.services).resolve()
                    env["PYTHONPATH"] = os.pathsep.join(filter(None, [
                        str(root / "services"), str(root / "libs"), env.get("PYTHONPATH", "")]))
                    env["ADJUDICATOR_PROTO_DIR"] = str(root / "proto")
                logs = Path(work) / variant.name.replace(" ", "-")
                logs.mkdir()
                children.append(child := start_service("adjudicator", env, logs))
                wait_ready(f"http://127.0.0.1:{health_port}/readyz", child)
                variant.pid, variant.target, variant.accepted = child.pid, f"127.0.0.1:{grpc_port}", 0
            asyncio.run(run(variants))
        finally:
            for child in children:
                child.terminate()
            for child in children:
                child.wait(30)


def main() -> None:
    print(f"adjudicator CPU per command: per adjudicator {CLIENTS} callers, Think at {RATE:.0f} commands/s for "
          f"{SECONDS:.0f} s, every adjudicator at once (CPU ticks are 10 ms: ±{10 / (RATE * SECONDS):.3f} ms/command)")
    figures: dict[str, list[float]] = {}
    for number in range(ROUNDS):
        print(f" round {number + 1} (load average {os.getloadavg()[0]:.1f})")
        transports = (["unary"] if UNARY else []) + (["stream"] if STREAM else [])
        variants = [Variant(f"before {t}", services=BEFORE, stream=t == "stream") for t in transports if BEFORE] \
            + [Variant(f"this {t}", stream=t == "stream") for t in transports]
        one_round(variants)
        for v in variants:
            figures.setdefault(v.name, []).append(v.net)
    for name, values in figures.items():
        print(f"  {name:12}  min {min(values):.2f}  median {statistics.median(values):.2f}  max {max(values):.2f}"
              " ms/command less the idle background")
    for name, values in figures.items():
        if name.startswith("this ") and (before := figures.get(name.replace("this", "before", 1))):
            print(f"  {name} / {name.replace('this', 'before', 1)}: " +
                  "  ".join(f"{new / max(1e-9, old):.2f}" for new, old in zip(values, before)))
    if CALLER:
        print(f" the caller's side: {CLIENTS} callers, {CALLER_COMMANDS} commands back to back per measurement")
        one_round([Variant("caller")], run=caller_side)


async def caller_side(variants: list[Variant]) -> None:
    for _ in range(CALLER):
        for stream in (False, True):
            async with AdjudicatorClient(variants[0].target, **({} if stream else {"streams": 0})) as client:
                games = [f"caller{index}-{uuid.uuid4().hex[:8]}" for index in range(CLIENTS)]
                for game in games:
                    await client.create_game(game, "testjack", ["p"])
                await asyncio.gather(*(client.submit(game, "p", {"type": "Think"})
                                       for game in games for _ in range(WARMUP_COMMANDS)))

                async def one(game: str) -> None:
                    for _ in range(CALLER_COMMANDS // CLIENTS):
                        await client.submit(game, "p", {"type": "Think"})

                began = time.process_time()
                await asyncio.gather(*(one(game) for game in games))
                spent = time.process_time() - began
            print(f"  {'stream' if stream else 'unary':6}  {spent * 1000 / (CALLER_COMMANDS // CLIENTS * CLIENTS):.3f} "
                  f"ms of the caller's CPU per command", flush=True)


if __name__ == "__main__":
    main()
