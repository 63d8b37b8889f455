"""Accounts and limits: what a log-in, a token check and the limiter cost.

    python benchmarks/bench_accounts.py

- log-ins per second on one core: argon2id verifications with the production parameters (LobbySettings'
  defaults, named in the output), the process pinned to one CPU;
- token checks per second on one core: an access token's signature, then the account from the
  replica's cache (what every authenticated request pays);
- the limiter's added latency on a command: one lobby stack (real NATS and Redis from the venv's
  wheels, the adjudicator over gRPC), two lobby replicas on it, identical but for the limits (one exempts
  loopback, so its commands never reach Redis's limiter). One player per replica sends Testjack `Think`
  commands, alternating replicas one command at a time, so both see the same machine at the same
  moment; p50/p99 of each and their ratio.
Bounded: counts and time budgets per phase; the whole run takes well under a minute.
"""
from __future__ import annotations

import asyncio
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from lobby.accounts.directory import Account, Directory  # noqa: E402
from lobby.accounts.passwords import Passwords  # noqa: E402
from lobby.accounts.service import AccountService  # noqa: E402
from lobby.accounts.sessions import Sessions  # noqa: E402
from lobby.config import LobbySettings  # noqa: E402
from lobby.tokens import TokenSigner  # noqa: E402
from starbase_core.logging import configure_logging  # noqa: E402
from starbase_core.servers import NatsServer, RedisServer  # noqa: E402
from tests.support import testjack  # noqa: E402
from tests.support.stack import ApiPlayer, another_lobby, local_stack  # noqa: E402

LOGINS, LOGIN_BUDGET = int(os.environ.get("BENCH_ACCOUNTS_LOGINS", 30)), 15.0
TOKEN_SECONDS = 2.0
COMMANDS = int(os.environ.get("BENCH_ACCOUNTS_COMMANDS", 300))     # per replica


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity here)"


def logins_per_second() -> None:
    defaults = LobbySettings()
    passwords = Passwords(defaults.lobby_argon2_time_cost, defaults.lobby_argon2_memory_kib,
                          defaults.lobby_argon2_parallelism)
    stored = passwords._hasher.hash("correct horse battery staple")
    started, done = time.perf_counter(), 0
    while done < LOGINS and time.perf_counter() - started < LOGIN_BUDGET:
        matches, _ = passwords._verify(stored, "correct horse battery staple")
        assert matches
        done += 1
    elapsed = time.perf_counter() - started
    print(f"log-in (argon2id verify), {passwords.parameters}: {done / elapsed:.1f} per s on one core "
          f"({elapsed / done * 1000:.1f} ms each, {done} verifications)")


async def token_checks_per_second() -> None:
    signer = TokenSigner("bench secret", 900, 3600)
    directory = Directory.__new__(Directory)            # the cache only: no NATS needed for a cache hit
    directory.cache = {"p1": Account("p1", "ann", "ann", None)}
    sessions = Sessions.__new__(Sessions)
    sessions.signer, sessions._revoked = signer, {}
    accounts = AccountService(directory, sessions, None, None, None, None)
    token = signer.access("p1", 0, "fam")
    started, done = time.perf_counter(), 0
    while time.perf_counter() - started < TOKEN_SECONDS:
        for _ in range(500):
            await accounts.authenticate(token)
        done += 500
    elapsed = time.perf_counter() - started
    print(f"token check (signature + cached account): {done / elapsed:,.0f} per s on one core "
          f"({elapsed / done * 1e6:.1f} µs each)")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000


async def limiter_latency() -> None:
    testjack.register()
    limits = dict(lobby_limit_commands="100000/second", lobby_limit_registrations="1000/minute",
                  lobby_limit_logins="1000/minute", lobby_limit_tables="1000/minute", lobby_limit_tickets="1000/minute")
    with NatsServer() as nats, RedisServer() as redis:
        async with local_stack(nats.url, redis.url, "bench", scoring=False, settings=limits) as stack:
            exempt = stack.settings.model_copy(update={"lobby_limits_exempt": "127.0.0.1/32,::1/128"})
            stack_without = type(stack)(**{**stack.__dict__, "settings": exempt})
            async with another_lobby(stack_without) as other, \
                    httpx.AsyncClient(base_url=stack.http) as limited_http, \
                    httpx.AsyncClient(base_url=f"http://{other}") as free_http:
                players = {}
                for label, http in (("with limiter", limited_http), ("without (exempt)", free_http)):
                    player = await ApiPlayer.register(http, f"b{len(players)}")
                    table = await player.ok(player.post("/tables", {"game": "testjack", "seats": 1}))
                    await player.ok(player.post(f"/tables/{table['table_id']}/ready"))
                    game_id = (await player.ok(player.post(f"/tables/{table['table_id']}/start")))["game_id"]
                    players[label] = (player, game_id, [])
                for index in range(COMMANDS + 20):                      # 20 warm-up rounds
                    for label, (player, game_id, samples) in players.items():
                        sent = time.perf_counter()
                        reply = await player.post(f"/games/{game_id}/commands", {"command": {"type": "Think"}})
                        reply.raise_for_status()
                        if index >= 20:
                            samples.append(time.perf_counter() - sent)
                base = players["without (exempt)"][2]
                for label, (_, _, samples) in players.items():
                    print(f"command round trip {label}: p50 {percentile(samples, 0.5):.2f} ms, "
                          f"p99 {percentile(samples, 0.99):.2f} ms (n={len(samples)})")
                with_limiter = players["with limiter"][2]
                print(f"limiter on a command: p50 x{statistics.median(with_limiter) / statistics.median(base):.2f}, "
                      f"p99 x{percentile(with_limiter, 0.99) / percentile(base, 0.99):.2f} "
                      f"(+{percentile(with_limiter, 0.5) - percentile(base, 0.5):.2f} ms at p50)")
                # The limiter alone, in the same run: what it adds is one Redis script call per limit item.
                alone = []
                for index in range(COMMANDS):
                    started = time.perf_counter()
                    await stack.runtime.limits.hit("commands", f"alone{index % 8}")
                    alone.append(time.perf_counter() - started)
                print(f"limiter alone (commands: {stack.settings.lobby_limit_commands}): "
                      f"p50 {percentile(alone, 0.5):.2f} ms, p99 {percentile(alone, 0.99):.2f} ms = "
                      f"{percentile(alone, 0.5) / percentile(base, 0.5):.1%} / "
                      f"{percentile(alone, 0.99) / percentile(base, 0.99):.1%} of the command round trip "
                      "without it (p50 / p99)")


def main() -> None:
    configure_logging("bench", "warning", json=False)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{pin_to_one_core()}; load average {load:.1f} on {os.cpu_count()} CPUs (shared machines slow all figures)")
    logins_per_second()
    asyncio.run(token_checks_per_second())
    asyncio.run(limiter_latency())


if __name__ == "__main__":
    main()
