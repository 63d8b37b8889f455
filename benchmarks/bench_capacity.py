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

Then the Testjack steps with two lobbies and two adjudicators (each lobby reaching both adjudicators,
each game on one of them, the players split across the lobbies): the scale-out ratio is capacity(2) / capacity(1).
On a 2-core machine the second replica competes for the same cores, so read the ratio as what one box
gains, not what a cluster would.

The load generator's own cost is printed on every line: its CPU per command, the cores it kept busy
and its event loop's lag (p99 of how late a 20 ms sleep wakes: every round trip it times includes it;
"(generator lagging)" once that passes 20 ms, a fifth of the bound: a busy tool or a busy box).
It runs on uvloop when installed, as the lobby does. BENCH_CAPACITY_LOADGEN_BEFORE=<libs dir> (e.g.
/tmp/before-session/libs) runs that tree's starbase_cli.loadgen and its httpx players on asyncio too,
alternating with this one at each step against the same services: side by side. BENCH_CAPACITY_LOAD_WORKERS=N
adds a row per 21Moon step with the tables spread over N generator processes. Each 21Moon step also has a
`sockets` row (unless BENCH_CAPACITY_SOCKET_MOVES=0): the same generator sending each move on the player's
own game socket instead of a POST, alternating with the `now` row against the same services.
"""
from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench_lobby import one_player_game, start_service, wait_ready   # same directory: run as a script
from starbase_cli.loadclients import HttpFailed, LobbyHttp
from starbase_cli.loadgen import LoopLag, new_loop_run
from starbase_core.servers import NatsServer, RedisServer, free_port

STEPS = [float(x) for x in os.environ.get("BENCH_CAPACITY_STEPS", "50,100,200,400,600,800,1200,1600,2000,2400").split(",") if x]
STEP_SECONDS = float(os.environ.get("BENCH_CAPACITY_SECONDS", 6))
CLIENTS = int(os.environ.get("BENCH_CAPACITY_CLIENTS", 48))
# 16 tables stayed within the bound (~500 moves/s) once the generator stopped lagging (docs/lobby-capacity.md,
# twelfth round): the steps go on until the bound is passed.
MOON_TABLES = [int(x) for x in os.environ.get("BENCH_CAPACITY_MOON_TABLES", "16,32,48,64").split(",") if x]
REPLICAS = [int(x) for x in os.environ.get("BENCH_CAPACITY_REPLICAS", "1,2").split(",") if x]
MOON_SECONDS = float(os.environ.get("BENCH_CAPACITY_MOON_SECONDS", 10))
LOADGEN_BEFORE = os.environ.get("BENCH_CAPACITY_LOADGEN_BEFORE", "")
LOAD_WORKERS = int(os.environ.get("BENCH_CAPACITY_LOAD_WORKERS", 0))
ROUNDS = int(os.environ.get("BENCH_CAPACITY_ROUNDS", 3))      # the steps again, for min / median / max
SOCKET_MOVES = os.environ.get("BENCH_CAPACITY_SOCKET_MOVES", "1") == "1"
BENCH_LIMIT_SECONDS = 1200      # for `make bench`: three rounds take about 12 minutes on 2 cores
BOUND = 0.100
LAGGING = 0.020     # the generator's loop lag p99 past a fifth of the bound: its p99 is not the lobby's alone
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS          # utime + stime


RUNNING, RUNNABLE = 0, 1        # the fields of /proc/<pid>/task/<tid>/schedstat, in ns


def schedstat_seconds(pid: int, field: int) -> float:
    """One field of Linux's schedstat (time on a CPU, or runnable and waiting for one), summed over the
    process's threads, in seconds to the ns. A thread that ends between two readings drops out of the
    sum; 0 where the kernel keeps no schedstat."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[field])
        except (FileNotFoundError, IndexError):         # the thread ended meanwhile
            continue
    return total / 1e9


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


class Generator:
    """One way of generating load: its loadgen module, how its Testjack players post, its event loop."""

    def __init__(self, label: str, loadgen, client: str, run, workers: int = 1, moves: str = "http"):
        self.label, self.loadgen, self.client, self.run, self.workers = label, loadgen, client, run, workers
        self.moves = moves                  # 21Moon: "http" (POST) or "socket" (moves on the players' sockets)
        self.best = 0.0
        self.done = False
        self.bests: list[float] = []

    def spread(self) -> str:
        ordered = sorted(self.bests)
        if len(ordered) == 1:
            return f"{ordered[0]:.0f}"
        return f"{ordered[0]:.0f} / {ordered[len(ordered) // 2]:.0f} / {ordered[-1]:.0f} (min / median / max of {len(ordered)})"


def generators() -> list[Generator]:
    from starbase_cli import loadgen

    chosen = []
    if LOADGEN_BEFORE:
        chosen.append(Generator("before", load_before(LOADGEN_BEFORE), "httpx", asyncio.run))
    chosen.append(Generator("now", loadgen, "aiohttp", new_loop_run))
    if SOCKET_MOVES:
        chosen.append(Generator("sockets", loadgen, "", new_loop_run, moves="socket"))
    if LOAD_WORKERS > 1:
        chosen.append(Generator(f"now x{LOAD_WORKERS}", loadgen, "", new_loop_run, LOAD_WORKERS))
    return chosen


def load_before(libs: str):
    """That tree's loadgen and loadclients as a package of their own, beside this tree's."""
    package = Path(tempfile.mkdtemp(prefix="loadgen-before-")) / "loadgen_before"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("loadgen", "loadclients"):
        text = (Path(libs) / "starbase_cli" / f"{name}.py").read_text()
        (package / f"{name}.py").write_text(text.replace("starbase_cli.loadclients", "loadgen_before.loadclients"))
    sys.path.insert(0, str(package.parent))
    spec = importlib.util.find_spec("loadgen_before.loadgen")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loadgen_before.loadgen"] = module
    spec.loader.exec_module(module)
    return module


def poster(kind: str, url: str):
    """A POST of a command, as that generator's players send it: (client, post(path, auth) -> ok)."""
    if kind == "httpx":
        http = httpx.AsyncClient(base_url=url, timeout=30,
                                 limits=httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS))

        async def post_httpx(path: str, auth: dict) -> bool:
            try:
                return (await http.post(path, json={"command": {"type": "Think"}}, headers=auth)).status_code == 200
            except httpx.HTTPError:
                return False
        return http, post_httpx
    lobby = LobbyHttp(url, CLIENTS, timeout=30)

    async def post_aiohttp(path: str, auth: dict) -> bool:
        try:
            return (await lobby.post(path, json={"command": {"type": "Think"}}, headers=auth)).status_code == 200
        except HttpFailed:
            return False
    return lobby, post_aiohttp


async def step(players: list, rate: float, kind: str) -> tuple[list[float], int, list[float]]:
    """Offer `rate` commands/s for STEP_SECONDS (after a 1 s warm-up): latencies, failures, loop lags."""
    clients, posts = {}, {}
    for url in {url for url, _, _ in players}:
        clients[url], posts[url] = poster(kind, url)
    lag = LoopLag()
    lag.start()
    try:
        samples, failures = await paced_step(players, rate, posts)
    finally:
        lags = await lag.stop()
        for client in clients.values():
            await client.aclose()
    return samples, failures, lags


async def paced_step(players: list, rate: float, posts: dict) -> tuple[list[float], int]:
    interval = len(players) / rate
    begin = time.perf_counter()
    samples: list[float] = []
    failures = 0

    async def one(index: int, player) -> None:
        nonlocal failures
        url, game_id, auth = player
        post = posts[url]
        next_send = begin + index * interval / len(players)
        while next_send < begin + 1.0 + STEP_SECONDS:
            await asyncio.sleep(max(0.0, next_send - time.perf_counter()))
            sent = time.perf_counter()
            ok = await post(f"/games/{game_id}/commands", auth)
            if not ok:
                failures += 1
            elif sent >= begin + 1.0:
                samples.append(time.perf_counter() - sent)
            next_send += interval               # open schedule: a late reply does not slow the offer
            if time.perf_counter() - next_send > 1.0:
                next_send = time.perf_counter()   # hopelessly behind: this step is past the bound anyway

    await asyncio.gather(*(one(i, p) for i, p in enumerate(players)))
    return samples, failures


async def testjack_players(stack: Stack) -> list[tuple[str, str, dict]]:
    async with contextlib.AsyncExitStack() as exits:
        clients = [await exits.enter_async_context(httpx.AsyncClient(base_url=url, timeout=30)) for url in stack.lobbies]
        players = []
        for index in range(CLIENTS):
            http = clients[index % len(clients)]
            game_id, auth = await one_player_game(http, index)
            players.append((str(http.base_url).rstrip("/"), game_id, auth))
        return players


def capacity(stack: Stack, label: str, chosen: list[Generator]) -> dict[str, float]:
    players = asyncio.run(testjack_players(stack))
    print(f"{label}: {len(stack.lobbies)} lobby + {len(stack.lobbies)} adjudicator process(es), "
          f"{CLIENTS} players, {STEP_SECONDS:.0f} s per step")
    print(f"  {'generator':<9} {'offered/s':>9} {'accepted/s':>10} {'p50 ms':>7} {'p99 ms':>7} {'fail':>5}   "
          f"CPU ms per accepted command: lobby / adjudicator / nats / load generator; generator loop lag p99 ms")
    testjack = [g for g in chosen if g.client]
    for generator in testjack:
        generator.bests = []
    for _ in range(ROUNDS):
        climb(testjack, STEPS, lambda generator, rate: testjack_step(stack, players, generator, rate))
    for generator in testjack:
        print(f"  capacity at p99 < 100 ms, generator {generator.label}: {generator.spread()} accepted commands/s")
    return {generator.label: statistics.median(generator.bests) for generator in testjack}


def climb(generators: list[Generator], steps: list, measure) -> None:
    """One round: each generator offers more and more (`steps`, alternating at each step) until a step
    is past the bound; its best is the last step within it. `measure(generator, step)` runs and prints
    one step: None when nothing was accepted, else (within the bound, accepted per second)."""
    for generator in generators:
        generator.best, generator.done = 0.0, False
    for step in steps:
        for generator in generators:
            if generator.done:
                continue
            result = measure(generator, step)
            if result is not None and result[0]:
                generator.best = result[1]
            else:
                generator.done = True
        if all(generator.done for generator in generators):
            break
    for generator in generators:
        generator.bests.append(generator.best)


def testjack_step(stack: Stack, players: list, generator: Generator, rate: float) -> tuple[bool, float] | None:
    before, process_before = stack.cpu(), time.process_time()
    samples, failures, lags = generator.run(step(players, rate, generator.client))
    after, process_after = stack.cpu(), time.process_time()
    after["load"], before["load"] = process_after, process_before
    if not samples:
        print(f"  {generator.label:<9} {rate:>9.0f}  nothing accepted ({failures} failures)")
        return None
    samples.sort()
    p50, p99 = samples[len(samples) // 2], samples[min(len(samples) - 1, int(0.99 * len(samples)))]
    per = {role: (after[role] - before[role]) * 1000 / len(samples) for role in after}
    within = p99 < BOUND and failures == 0
    accepted = len(samples) / STEP_SECONDS
    lag = sorted(lags)[min(len(lags) - 1, int(0.99 * len(lags)))] * 1000 if lags else 0.0
    print(f"  {generator.label:<9} {rate:>9.0f} {accepted:>10.1f} {p50 * 1000:>7.1f} {p99 * 1000:>7.1f} "
          f"{failures:>5}   {per['lobby']:.2f} / {per['adjudicator']:.2f} / {per['nats']:.2f} / "
          f"{per['load']:.2f}; {lag:.1f}{'' if within else '   (past the bound)'}"
          f"{'   (generator lagging)' if lag >= LAGGING * 1000 else ''}")
    return within, accepted


def moon21(stack: Stack, chosen: list[Generator]) -> None:
    """21Moon moves through the lobby at more and more tables: the highest accepted rate within the bound."""
    print(f"21Moon through the lobby, bots at N tables (3 seats, one move in flight per table), "
          f"{MOON_SECONDS:.0f} s per step")
    print(f"  {'generator':<9} {'tables':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'refused':>7}   "
          f"CPU ms per accepted move: lobby / adjudicator / nats / load generator (of which bots); generator cores busy, loop lag p99 ms")
    for generator in chosen:
        generator.bests = []
    for _ in range(ROUNDS):
        climb(chosen, MOON_TABLES, lambda generator, tables: moon21_step(stack, generator, tables))
    for generator in chosen:
        print(f"  21Moon capacity at p99 < 100 ms, generator {generator.label}: {generator.spread()} accepted moves/s")


def moon21_step(stack: Stack, generator: Generator, tables: int) -> tuple[bool, float] | None:
    plan_options = {"workers": generator.workers} if generator.workers > 1 else {}
    if generator.moves != "http":
        plan_options["moves"] = generator.moves
    plan = generator.loadgen.LoadPlan(lobby=stack.lobbies[0], game="moon21", tables=tables,
                                      duration=MOON_SECONDS, drain=5.0, **plan_options)
    before, process_before = stack.cpu(), time.process_time()
    figures = generator.run(generator.loadgen.run_load(plan)).figures()
    after, process_after = stack.cpu(), time.process_time()
    commands, trip = figures["commands"], figures["round_trip_ms"]
    if not trip.get("n"):
        print(f"  {generator.label:<9} {tables:>6}  nothing accepted ({figures['stopped'] or figures['errors']})")
        return None
    own = figures.get("generator")      # the before-session generator did not measure itself
    after["load"] = before["load"] + (own["cpu_s"] if own else process_after - process_before)
    per = {role: (after[role] - before[role]) * 1000 / max(1, commands["accepted"]) for role in after}
    within = trip["p99"] < BOUND * 1000 and not figures["errors"]
    itself = (f" ({own['bots_cpu_ms_per_accepted']:.2f}); {own['cores_busy']:.2f}, "
              f"{own['loop_lag_ms'].get('p99', 0):.1f}" if own else
              f"; {(process_after - process_before) / figures['elapsed_s']:.2f}, -")
    print(f"  {generator.label:<9} {tables:>6} {commands['accepted_per_s']:>8.1f} {trip['p50']:>7.1f} "
          f"{trip['p99']:>7.1f} {commands['refused']:>7}   {per['lobby']:.2f} / {per['adjudicator']:.2f} / "
          f"{per['nats']:.2f} / {per['load']:.2f}{itself}{'' if within else '   (past the bound)'}"
          f"{'   (generator lagging)' if own and own['loop_lag_ms'].get('p99', 0) >= LAGGING * 1000 else ''}")
    return within, commands["accepted_per_s"]


def main() -> None:
    chosen = generators()
    results = {}
    for replicas in REPLICAS:
        with tempfile.TemporaryDirectory(prefix="bench-capacity-") as work, NatsServer() as nats, \
                RedisServer() as redis, Stack(nats, redis, replicas, Path(work)) as stack:
            if replicas == 1 and MOON_TABLES:
                moon21(stack, chosen)
            if STEPS:       # Testjack's players post from this process: moves over sockets are 21Moon's
                results[replicas] = capacity(stack, f"{replicas} replica(s) of each",
                                             [generator for generator in chosen if generator.moves == "http"])
    if results.get(1) and results.get(2):
        for label, best in results[1].items():
            if best:
                print(f"scale-out on this box, generator {label}: capacity with 2 replicas / with 1 = "
                      f"{results[2][label] / best:.2f}")


if __name__ == "__main__":
    main()
