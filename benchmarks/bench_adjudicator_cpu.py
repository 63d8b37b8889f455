"""The adjudicator's own CPU per accepted command, side by side with an older adjudicator.

Real NATS (JetStream, fsync before every ack) from the wheel and the adjudicator as its own process
(`python -m adjudicator`, Testjack registered); this process is CLIENTS gRPC callers, each with a
one-seat Testjack game, sending `Think` (a full decide + append, recorded as CommandHadNoEffect) at
RATE commands/s in all for SECONDS, paced. The adjudicator's CPU (utime + stime from /proc) over the
run, less its idle background over as long, divided by the commands accepted: what one command costs
the platform around a trivial engine (gRPC, cache and lock, decide, seal, append, the turn, metrics).

BENCH_ADJ_CPU_BEFORE=<dir>: <dir> holds an older `services/adjudicator`, `libs/starbase_core` and
`proto` (`git archive main services/adjudicator libs/starbase_core proto | tar -x -C /tmp/adj-before`,
then BENCH_ADJ_CPU_BEFORE=/tmp/adj-before); each of PAIRS rounds then measures that adjudicator and
this one, one right after the other on a fresh NATS each, so both see the same machine's load.
BENCH_ADJ_CPU_STREAM=1: each round also measures this adjudicator with every caller sending its commands
on one SubmitStream (a stream per caller, one command in flight on it) instead of a Submit call each.
BENCH_ADJ_CPU_THREADS=1: also each thread's CPU per command (the event loop's, gRPC's own threads).
BENCH_ADJ_CPU_PROFILE=<file>: the adjudicator of this tree runs under cProfile and writes its
statistics there (slower: read the shares, not the figure).
Figures are printed, never judged.
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench_capacity import TICKS, cpu_seconds   # same directory: run as a script
from bench_lobby import ROOT, start_service, wait_ready

import grpc

from adjudicator.client import AdjudicatorClient
from adjudicator.wire import pb, rpc
from starbase_core.servers import NatsServer, free_port

RATE = float(os.environ.get("BENCH_ADJ_CPU_RATE", 200))
SECONDS = float(os.environ.get("BENCH_ADJ_CPU_SECONDS", 10))
CLIENTS = int(os.environ.get("BENCH_ADJ_CPU_CLIENTS", 16))
PAIRS = int(os.environ.get("BENCH_ADJ_CPU_PAIRS", 3))
BEFORE = os.environ.get("BENCH_ADJ_CPU_BEFORE", "")
PROFILE = os.environ.get("BENCH_ADJ_CPU_PROFILE", "")
STREAM = os.environ.get("BENCH_ADJ_CPU_STREAM", "") not in ("", "0")
THREADS = os.environ.get("BENCH_ADJ_CPU_THREADS", "") not in ("", "0")
WARMUP_COMMANDS = 20     # per client, before the clock starts: connections, caches, first calls

# `python -m adjudicator` under cProfile; SIGTERM lets `main` return, so the statistics are written.
PROFILED = ("import sys, cProfile, runpy; sys.path.insert(0, {root!r}); from tests.support import testjack; "
            "testjack.register(); p = cProfile.Profile(); p.enable()\n"
            "try: runpy.run_module({module!r}, run_name='__main__')\n"
            "finally: p.disable(); p.dump_stats({out!r})")


async def drive(target: str, pid: int, stream: bool) -> tuple[int, float, float, float, float]:
    """(accepted, CPU seconds over the run, of which in the kernel, idle CPU seconds over as long, p99
    seconds). `stream`: each caller sends its commands on one SubmitStream instead of a Submit each."""
    async with AdjudicatorClient(target) as client, grpc.aio.insecure_channel(target) as channel:
        games = [f"cpu{index}-{uuid.uuid4().hex[:8]}" for index in range(CLIENTS)]
        for game in games:
            await client.create_game(game, "testjack", ["p"])
        await asyncio.gather(*(client.submit(game, "p", {"type": "Think"})
                               for game in games for _ in range(WARMUP_COMMANDS)))
        stub = rpc.AdjudicatorStub(channel)
        interval = CLIENTS / RATE
        accepted, latencies = 0, []
        began, cpu_began, threads_began = time.perf_counter(), cpu_seconds(pid), thread_seconds(pid)
        kernel_began = kernel_seconds(pid)

        async def one(index: int, game: str) -> None:
            nonlocal accepted
            calls = stub.SubmitStream() if stream else None
            next_send = began + index * interval / CLIENTS
            while next_send < began + SECONDS:
                await asyncio.sleep(max(0.0, next_send - time.perf_counter()))
                sent = time.perf_counter()
                if calls is None:
                    await client.submit(game, "p", {"type": "Think"})
                else:
                    await calls.write(pb.SubmitRequest(game_id=game, actor="p", command_json='{"type": "Think"}',
                                                       command_id=uuid.uuid4().hex, call=accepted + 1))
                    reply = await calls.read()
                    assert reply.WhichOneof("result") == "events", reply
                latencies.append(time.perf_counter() - sent)
                accepted += 1
                next_send += interval
            if calls is not None:
                await calls.done_writing()
                assert await calls.read() is grpc.aio.EOF

        await asyncio.gather(*(one(i, game) for i, game in enumerate(games)))
        busy, kernel = cpu_seconds(pid) - cpu_began, kernel_seconds(pid) - kernel_began
        threads = thread_seconds(pid)
        if THREADS:
            print("    by thread: " + ", ".join(
                f"{name} {(seconds - threads_began.get(key, (name, 0.0))[1]) * 1000 / max(1, accepted):.2f}"
                for key, (name, seconds) in sorted(threads.items())
                if seconds - threads_began.get(key, (name, 0.0))[1] > 0))
        took = time.perf_counter() - began
        idle_began = cpu_seconds(pid)
        await asyncio.sleep(took)
        idle = cpu_seconds(pid) - idle_began
    latencies.sort()
    return accepted, busy, kernel, idle, latencies[int(0.99 * (len(latencies) - 1))]


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
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        found[int(task.name)] = (name, (int(fields[11]) + int(fields[12])) / TICKS)
    return found


def measure(before: str = "", stream: bool = False) -> float:
    """One run; prints its line and returns ms of CPU per command less the idle background."""
    with tempfile.TemporaryDirectory(prefix="bench-adj-cpu-") as work, NatsServer() as nats:
        grpc_port, health_port = free_port(), free_port()
        env = {**os.environ, "NATS_URL": nats.url, "LOG_LEVEL": "warning", "INSECURE_DEV_MODE": "true",
               "ADJUDICATOR_PORT": str(grpc_port), "ADJUDICATOR_HOST": "127.0.0.1",
               "ADJUDICATOR_HEALTH_PORT": str(health_port), "METRICS_PORT": "0"}
        if before:          # found before the installed packages (the editable finder comes last)
            root = Path(before).resolve()
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root / "services"), str(root / "libs"),
                                                              env.get("PYTHONPATH", "")]))
            env["ADJUDICATOR_PROTO_DIR"] = str(root / "proto")
        if PROFILE and not before:
            child = _start_profiled(env, Path(work))
        else:
            child = start_service("adjudicator", env, Path(work))
        try:
            wait_ready(f"http://127.0.0.1:{health_port}/readyz", child)
            accepted, busy, kernel, idle, p99 = asyncio.run(drive(f"127.0.0.1:{grpc_port}", child.pid, stream))
        finally:
            child.terminate()
            child.wait(30)
    net = max(0.0, busy - idle) * 1000 / max(1, accepted)
    print(f"  {'before' if before else 'this  '} {'stream' if stream else 'unary '}  {accepted:>5} commands  "
          f"{busy * 1000 / max(1, accepted):5.2f} ms/command  {net:5.2f} ms/command less the idle background  "
          f"(in the kernel {kernel * 1000 / max(1, accepted):.2f}; p99 {p99 * 1000:.1f} ms)", flush=True)
    return net


def _start_profiled(env: dict, work: Path) -> subprocess.Popen:
    code = PROFILED.format(root=str(ROOT), module="adjudicator", out=str(Path(PROFILE).resolve()))
    log = open(work / "adjudicator.log", "ab")
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=log, stderr=subprocess.STDOUT)


def main() -> None:
    print(f"adjudicator CPU per command: {CLIENTS} callers, Think at {RATE:.0f} commands/s for {SECONDS:.0f} s "
          f"(CPU ticks are 10 ms: ±{10 / (RATE * SECONDS):.3f} ms/command)")
    rounds = []
    for _ in range(PAIRS if BEFORE or STREAM else 1):
        rounds.append((measure(BEFORE) if BEFORE else None, measure(), measure(stream=True) if STREAM else None))
    if BEFORE:
        print("  this unary / before: " + "  ".join(f"{new / old:.2f}" for old, new, _ in rounds if old))
    if BEFORE and STREAM:
        print("  this stream / before: " + "  ".join(f"{stream / old:.2f}" for old, _, stream in rounds if old))


if __name__ == "__main__":
    main()
