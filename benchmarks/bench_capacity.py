"""Capacity at the latency bound, CPU per command, and scale-out: 1 vs 2 replicas side by side.

The stack as processes on loopback (NATS with JetStream fsyncing every append, Redis, the adjudicator,
the lobby), players in this process. Each player owns a one-seat Testjack game and sends `Think` (a full
decide + append, recorded as CommandHadNoEffect) on an open, paced schedule. The offered rate steps up
(STEPS commands/s, STEP_SECONDS each after a warm-up); the capacity is the highest step whose p99 round
trip stays under 100 ms with nothing failed, never the saturation rate. At each step the CPU seconds of
every process are read from /proc, so CPU per accepted command is per service, not guessed; the load
generator's own (this process: the players, their HTTP clients, bots and sockets) is printed beside them,
since it takes a share of the same cores.

Then 21Moon, as players play it (`starbase load`: bots reading their legal actions, one move in
flight per table, a socket per player and a spectator per table), stepping the number of tables
(MOON_TABLES): the capacity is the highest accepted move rate whose p99 round trip stays under 100 ms.

Then the Testjack steps with two lobbies and two adjudicators (each lobby reaching both adjudicators
round-robin, the players split across the lobbies): the scale-out ratio is capacity(2) / capacity(1).
On a 2-core machine the second replica competes for the same cores, so read the ratio as what one box
gains, not what a cluster would.
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

from bench_lobby import one_player_game, start_service, wait_ready   # same directory: run as a script
from starbase_core.servers import NatsServer, RedisServer, free_port

STEPS = [float(x) for x in os.environ.get("BENCH_CAPACITY_STEPS", "25,50,100,150,200,300,400,600").split(",")]
STEP_SECONDS = float(os.environ.get("BENCH_CAPACITY_SECONDS", 6))
CLIENTS = int(os.environ.get("BENCH_CAPACITY_CLIENTS", 48))
MOON_TABLES = [int(x) for x in os.environ.get("BENCH_CAPACITY_MOON_TABLES", "2,4,8,16").split(",")]
MOON_SECONDS = float(os.environ.get("BENCH_CAPACITY_MOON_SECONDS", 10))
BOUND = 0.100
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS          # utime + stime


class Stack:
    """NATS, Redis, `replicas` adjudicators and as many lobbies; every lobby reaches every adjudicator."""

    def __init__(self, nats, redis, replicas: int, logs: Path):
        self.nats, self.redis, self.replicas, self.logs = nats, redis, replicas, logs
        self.children: dict[str, subprocess.Popen] = {}
        self.lobbies: list[str] = []

    def __enter__(self) -> "Stack":
        base = {**os.environ, "NATS_URL": self.nats.url, "REDIS_URL": self.redis.url, "LOG_LEVEL": "warning",
                "LOBBY_SECRET": "bench", "INSECURE_DEV_MODE": "true",
                "LOBBY_LIMITS_EXEMPT": "127.0.0.1/32,::1/128"}
        grpc_ports = []
        for n in range(self.replicas):
            grpc, health = free_port(), free_port()
            env = {**base, "ADJUDICATOR_PORT": str(grpc), "ADJUDICATOR_HOST": "127.0.0.1",
                   "ADJUDICATOR_HEALTH_PORT": str(health), "METRICS_PORT": str(free_port())}
            self.children[f"adjudicator{n}"] = child = start_service("adjudicator", env, self.logs)
            wait_ready(f"http://127.0.0.1:{health}/readyz", child)
            grpc_ports.append(grpc)
        target = ",".join(f"127.0.0.1:{port}" for port in grpc_ports)
        for n in range(self.replicas):
            port = free_port()
            # Each replica a metrics port of its own: a second one on the default port would not start.
            env = {**base, "LOBBY_PORT": str(port), "ADJUDICATOR_TARGET": target, "METRICS_PORT": str(free_port())}
            self.children[f"lobby{n}"] = child = start_service("lobby", env, self.logs)
            wait_ready(f"http://127.0.0.1:{port}/readyz", child)
            self.lobbies.append(f"http://127.0.0.1:{port}")
        return self

    def __exit__(self, *exc_info) -> None:
        for child in self.children.values():
            child.terminate()
        for child in self.children.values():
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()

    def cpu(self) -> dict[str, float]:
        by_role: dict[str, float] = {"nats": cpu_seconds(self.nats.process.pid), "load": time.process_time()}
        for name, child in self.children.items():
            role = name.rstrip("0123456789")
            by_role[role] = by_role.get(role, 0.0) + cpu_seconds(child.pid)
        return by_role


async def step(players: list, rate: float) -> tuple[list[float], int]:
    """Offer `rate` commands/s for STEP_SECONDS (after a 1 s warm-up): latencies and failures."""
    interval = len(players) / rate
    begin = time.perf_counter()
    samples: list[float] = []
    failures = 0

    async def one(index: int, player) -> None:
        nonlocal failures
        http, game_id, auth = player
        next_send = begin + index * interval / len(players)
        while next_send < begin + 1.0 + STEP_SECONDS:
            await asyncio.sleep(max(0.0, next_send - time.perf_counter()))
            sent = time.perf_counter()
            try:
                reply = await http.post(f"/games/{game_id}/commands", json={"command": {"type": "Think"}},
                                        headers=auth)
                ok = reply.status_code == 200
            except httpx.HTTPError:
                ok = False
            if not ok:
                failures += 1
            elif sent >= begin + 1.0:
                samples.append(time.perf_counter() - sent)
            next_send += interval               # open schedule: a late reply does not slow the offer
            if time.perf_counter() - next_send > 1.0:
                next_send = time.perf_counter()   # hopelessly behind: this step is past the bound anyway

    await asyncio.gather(*(one(i, p) for i, p in enumerate(players)))
    return samples, failures


async def capacity(stack: Stack, label: str) -> float:
    clients = [httpx.AsyncClient(base_url=url, timeout=30,
                                 limits=httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS))
               for url in stack.lobbies]
    try:
        players = []
        for index in range(CLIENTS):
            http = clients[index % len(clients)]
            game_id, auth = await one_player_game(http, index)
            players.append((http, game_id, auth))
        print(f"{label}: {len(stack.lobbies)} lobby + {len(stack.lobbies)} adjudicator process(es), "
              f"{CLIENTS} players, {STEP_SECONDS:.0f} s per step")
        print(f"  {'offered/s':>9} {'accepted/s':>10} {'p50 ms':>7} {'p99 ms':>7} {'fail':>5}   "
              f"CPU ms per accepted command: lobby / adjudicator / nats / load generator")
        best = 0.0
        for rate in STEPS:
            before = stack.cpu()
            samples, failures = await step(players, rate)
            after = stack.cpu()
            if not samples:
                print(f"  {rate:>9.0f}  nothing accepted ({failures} failures)")
                break
            samples.sort()
            p50, p99 = samples[len(samples) // 2], samples[min(len(samples) - 1, int(0.99 * len(samples)))]
            per = {role: (after[role] - before[role]) * 1000 / len(samples) for role in after}
            within = p99 < BOUND and failures == 0
            accepted = len(samples) / STEP_SECONDS
            print(f"  {rate:>9.0f} {accepted:>10.1f} {p50 * 1000:>7.1f} {p99 * 1000:>7.1f} {failures:>5}   "
                  f"{per['lobby']:.2f} / {per['adjudicator']:.2f} / {per['nats']:.2f} / {per['load']:.2f}"
                  f"{'' if within else '   (past the bound)'}")
            if not within:
                break
            best = accepted
        print(f"  capacity at p99 < 100 ms: {best:.0f} accepted commands/s")
        return best
    finally:
        for http in clients:
            await http.aclose()


async def moon21(stack: Stack) -> float:
    """21Moon moves through the lobby at more and more tables: the highest accepted rate within the bound."""
    from starbase_cli.loadgen import LoadPlan, run_load

    print(f"21Moon through the lobby, bots at N tables (3 seats, one move in flight per table), "
          f"{MOON_SECONDS:.0f} s per step")
    print(f"  {'tables':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'refused':>7}   CPU ms per accepted move: "
          f"lobby / adjudicator / nats / load generator")
    best = 0.0
    for tables in MOON_TABLES:
        before = stack.cpu()
        figures = (await run_load(LoadPlan(lobby=stack.lobbies[0], game="moon21", tables=tables,
                                           duration=MOON_SECONDS, drain=5.0))).figures()
        after = stack.cpu()
        commands, trip = figures["commands"], figures["round_trip_ms"]
        if not trip.get("n"):
            print(f"  {tables:>6}  nothing accepted ({figures['stopped'] or figures['errors']})")
            break
        per = {role: (after[role] - before[role]) * 1000 / max(1, commands["accepted"]) for role in after}
        within = trip["p99"] < BOUND * 1000 and not figures["errors"]
        print(f"  {tables:>6} {commands['accepted_per_s']:>8.1f} {trip['p50']:>7.1f} {trip['p99']:>7.1f} "
              f"{commands['refused']:>7}   {per['lobby']:.2f} / {per['adjudicator']:.2f} / {per['nats']:.2f} / {per['load']:.2f}"
              f"{'' if within else '   (past the bound)'}")
        if not within:
            break
        best = commands["accepted_per_s"]
    print(f"  21Moon capacity at p99 < 100 ms: {best:.0f} accepted moves/s")
    return best


def main() -> None:
    results = {}
    for replicas in (1, 2):
        with tempfile.TemporaryDirectory(prefix="bench-capacity-") as work, NatsServer() as nats, \
                RedisServer() as redis, Stack(nats, redis, replicas, Path(work)) as stack:
            if replicas == 1:
                asyncio.run(moon21(stack))
            results[replicas] = asyncio.run(capacity(stack, f"{replicas} replica(s) of each"))
    if results[1]:
        print(f"scale-out on this box: capacity with 2 replicas / with 1 = {results[2] / results[1]:.2f}")


if __name__ == "__main__":
    main()
