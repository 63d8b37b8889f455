"""CPU of the load generator per command, by HTTP client and event loop: httpx vs aiohttp, asyncio vs uvloop.

One stack (NATS, Redis, adjudicator, lobby, as bench_capacity starts them); CLIENTS players each own a
one-seat Testjack game and send PER `Think` commands back to back, all at once. Each client/loop pair
runs in turn, ROUNDS times (side by side against the same services), and prints this process's CPU per
command, the lobby's, and the rate. Why `starbase_cli.loadclients.LobbyHttp` is aiohttp.

    cd benchmarks && ../.venv/bin/python bench_loadgen_clients.py
"""
from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path

import httpx
import uvloop

from bench_capacity import Stack                    # same directory: run as a script
from bench_lobby import one_player_game
from starbase_cli.loadclients import LobbyHttp
from starbase_core.servers import NatsServer, RedisServer

CLIENTS = int(os.environ.get("BENCH_CLIENTS_PLAYERS", 24))
PER = int(os.environ.get("BENCH_CLIENTS_COMMANDS", 40))
ROUNDS = int(os.environ.get("BENCH_CLIENTS_ROUNDS", 3))
THINK = {"command": {"type": "Think"}}


async def games(url: str) -> list[tuple[str, dict]]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        return [await one_player_game(http, index) for index in range(CLIENTS)]


async def with_httpx(url: str, players: list) -> tuple[float, float]:
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        async def one(game_id: str, auth: dict) -> None:
            for _ in range(PER):
                (await http.post(f"/games/{game_id}/commands", json=THINK, headers=auth)).json()
        return await timed(one, players)


async def with_aiohttp(url: str, players: list) -> tuple[float, float]:
    async with LobbyHttp(url, CLIENTS) as http:
        async def one(game_id: str, auth: dict) -> None:
            for _ in range(PER):
                (await http.post(f"/games/{game_id}/commands", json=THINK, headers=auth)).json()
        return await timed(one, players)


async def timed(one, players: list) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(one(game_id, auth) for game_id, auth in players))
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    with tempfile.TemporaryDirectory() as work, NatsServer() as nats, RedisServer() as redis, \
            Stack(nats, redis, 1, Path(work)) as stack:
        url = stack.lobbies[0]
        players = asyncio.run(games(url))
        commands = CLIENTS * PER
        print(f"{CLIENTS} players x {PER} commands back to back; CPU ms per command: this process / lobby")
        for _ in range(ROUNDS):
            for name, client, run in (("httpx   asyncio", with_httpx, asyncio.run),
                                      ("aiohttp asyncio", with_aiohttp, asyncio.run),
                                      ("httpx   uvloop", with_httpx, uvloop.run),
                                      ("aiohttp uvloop", with_aiohttp, uvloop.run)):
                before = stack.cpu()
                cpu, wall = run(client(url, players))
                after = stack.cpu()
                print(f"  {name:<16} {cpu * 1000 / commands:5.2f} / "
                      f"{(after['lobby'] - before['lobby']) * 1000 / commands:5.2f}   {commands / wall:6.0f} commands/s",
                      flush=True)


if __name__ == "__main__":
    main()
