"""Round trip of a command through lobby → adjudicator → store, at a steady bounded load on loopback.

Real servers: NATS with JetStream (fsync before every acknowledgement) and Redis from the venv's wheels,
the adjudicator and the lobby as their own processes (`python -m adjudicator`, `python -m lobby`), and
this process as the players. Each of CLIENTS players owns a one-seat Testjack game and sends `Think`
(legal on their turn, recorded as CommandHadNoEffect, so every command is a full decide + append) at
RATE commands per second in total, paced (an open schedule per client, at most one command in flight
per client), for DURATION seconds after a warm-up. Prints p50 / p90 / p99 / max and the rate achieved,
then the same figures for the same load sent straight to the adjudicator, to show the lobby's share.
Last, real games: `starbase load` (starbase_cli.loadgen) plays 21Moon at LOAD_TABLES tables for LOAD_SECONDS
against the same lobby, as players would (HTTP moves, a WebSocket per player and one spectator).
"""
from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
# The Testjack engine lives with the test support code, imported as `tests.support.testjack`: putting
# tests/ itself on the path would let test folders (tests/moon21, …) shadow the engines of those names.
sys.path.insert(0, str(ROOT))

from starbase_core.servers import NatsServer, RedisServer, free_port  # noqa: E402

CLIENTS = int(os.environ.get("BENCH_LOBBY_CLIENTS", 8))
RATE = float(os.environ.get("BENCH_LOBBY_RATE", 40))          # commands per second, all clients together
DURATION = float(os.environ.get("BENCH_LOBBY_SECONDS", 15))
DIRECT_SECONDS = DURATION / 2
LOAD_TABLES = int(os.environ.get("BENCH_LOBBY_LOAD_TABLES", 4))
LOAD_SECONDS = float(os.environ.get("BENCH_LOBBY_LOAD_SECONDS", 12))
WARMUP = 2.0
# A child that registers Testjack, then runs a service module as `python -m` would.
LAUNCH = ("import sys, runpy; sys.path.insert(0, {root!r}); from tests.support import testjack; "
          "testjack.register(); runpy.run_module({module!r}, run_name='__main__')")


def start_service(module: str, env: dict, log_dir: Path) -> subprocess.Popen:
    code = LAUNCH.format(root=str(ROOT), module=module)
    log = open(log_dir / f"{module}.log", "ab")
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=log, stderr=subprocess.STDOUT)


def wait_ready(url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: the service exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} not ready after {timeout}s")


async def one_player_game(http: httpx.AsyncClient, index: int) -> tuple[str, dict]:
    reply = await http.post("/players/guest")
    auth = {"Authorization": f"Bearer {reply.json()['access_token']}"}
    table = (await http.post("/tables", json={"game": "testjack", "seats": 1}, headers=auth)).json()
    await http.post(f"/tables/{table['table_id']}/ready", json={}, headers=auth)
    started = await http.post(f"/tables/{table['table_id']}/start", headers=auth)
    started.raise_for_status()
    return started.json()["game_id"], auth


async def paced(send, clients: list, interval: float, duration: float) -> tuple[list[float], list[str]]:
    """Each client sends on its own steady schedule; latencies after the warm-up, and the errors."""
    samples: list[float] = []
    errors: list[str] = []
    begin = time.perf_counter()

    async def one(index: int, target) -> None:
        next_send = begin + index * interval / len(clients)
        while next_send < begin + WARMUP + duration:
            await asyncio.sleep(max(0.0, next_send - time.perf_counter()))
            sent = time.perf_counter()
            problem = await send(target)
            took = time.perf_counter() - sent
            if problem:
                errors.append(problem)
            elif sent >= begin + WARMUP:
                samples.append(took)
            next_send = max(next_send + interval, time.perf_counter())   # behind: skip, keep the load bounded

    await asyncio.gather(*(one(i, target) for i, target in enumerate(clients)))
    return samples, errors


def report(title: str, samples: list[float], errors: list[str], duration: float) -> None:
    print(title)
    if not samples:
        print(f"  no command succeeded; errors: {errors[:3]}")
        return
    samples.sort()
    pick = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))] * 1000  # noqa: E731
    print(f"  commands measured   {len(samples)}  ({len(samples) / duration:.1f} cmd/s achieved, "
          f"{len(errors)} errors)")
    print(f"  p50 {pick(0.50):.1f} ms   p90 {pick(0.90):.1f} ms   p99 {pick(0.99):.1f} ms   "
          f"max {samples[-1] * 1000:.1f} ms   mean {statistics.mean(samples) * 1000:.1f} ms")


async def drive(base_url: str, adjudicator_target: str) -> None:
    from adjudicator.client import AdjudicatorClient

    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    interval = CLIENTS / RATE
    async with httpx.AsyncClient(base_url=base_url, timeout=30, limits=limits) as http:
        games = [await one_player_game(http, i) for i in range(CLIENTS)]

        async def through_lobby(target) -> str | None:
            game_id, auth = target
            reply = await http.post(f"/games/{game_id}/commands", json={"command": {"type": "Think"}}, headers=auth)
            return None if reply.status_code == 200 else reply.text

        samples, errors = await paced(through_lobby, games, interval, DURATION)
    report(f"lobby round trip (HTTP → lobby → gRPC → adjudicator → JetStream fsync → reply), "
           f"{CLIENTS} clients, offered {RATE:.0f} cmd/s for {DURATION:.0f} s:", samples, errors, DURATION)

    # The same load straight to the adjudicator, so the lobby's own share can be read off.
    async with AdjudicatorClient(adjudicator_target) as adjudicator:
        players = {game_id: (await adjudicator.view(game_id))["players"][0] for game_id, _ in games}

        async def direct(target) -> str | None:
            game_id, _ = target
            try:
                await adjudicator.submit(game_id, players[game_id], {"type": "Think"})
            except Exception as problem:    # a refusal or a failure: counted, not timed
                return str(problem)
            return None

        samples, errors = await paced(direct, games, interval, DIRECT_SECONDS)
    report(f"for comparison, gRPC → adjudicator → JetStream fsync → reply, same load, {DIRECT_SECONDS:.0f} s:",
           samples, errors, DIRECT_SECONDS)

    from starbase_cli.loadgen import LoadPlan, render, run_load

    print(f"real games: 21Moon bots at {LOAD_TABLES} tables (one move in flight per table), {LOAD_SECONDS:.0f} s:")
    figures = (await run_load(LoadPlan(lobby=base_url, game="moon21", tables=LOAD_TABLES,
                                       duration=LOAD_SECONDS))).figures()
    print("\n".join("  " + line for line in render(figures).splitlines()))


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-lobby-") as work, NatsServer() as nats, RedisServer() as redis:
        logs = Path(work)
        grpc_port, health_port, lobby_port = free_port(), free_port(), free_port()
        env = {**os.environ, "NATS_URL": nats.url, "REDIS_URL": redis.url, "LOG_LEVEL": "warning",
               "ADJUDICATOR_PORT": str(grpc_port), "ADJUDICATOR_HOST": "127.0.0.1",
               "ADJUDICATOR_HEALTH_PORT": str(health_port), "LOBBY_PORT": str(lobby_port),
               "ADJUDICATOR_TARGET": f"127.0.0.1:{grpc_port}", "LOBBY_SECRET": "bench",
               "INSECURE_DEV_MODE": "true", "METRICS_PORT": "0",   # open servers; bench_security measures auth
               # The players all come from this machine: run around the limits (docs/accounts.md).
               "LOBBY_LIMITS_EXEMPT": "127.0.0.1/32,::1/128"}
        children = [start_service("adjudicator", env, logs)]
        try:
            wait_ready(f"http://127.0.0.1:{health_port}/readyz", children[0])
            children.append(start_service("lobby", env, logs))
            wait_ready(f"http://127.0.0.1:{lobby_port}/readyz", children[1])
            asyncio.run(drive(f"http://127.0.0.1:{lobby_port}", f"127.0.0.1:{grpc_port}"))
        finally:
            for child in reversed(children):
                child.terminate()
                try:
                    child.wait(15)
                except subprocess.TimeoutExpired:
                    child.kill()


if __name__ == "__main__":
    main()
