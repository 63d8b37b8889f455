"""The lobby's own CPU per command: HTTP command → adjudicator → reply, and the feed's work on its event.

The stack as processes on loopback (NATS with JetStream, Redis, one adjudicator, one lobby); CLIENTS
players, each with a one-seat Testjack game, send `Think` at RATE commands/s in all for SECONDS. The
lobby's CPU (utime + stime from /proc) over the run, less its idle background over as long, divided by
the commands accepted; and the same for the adjudicator behind it (what a command through the lobby
costs the adjudicator: with the lobby's client, unary Submit or SubmitStream, whichever it uses). Twice: with the rate limits counted in Redis (as in production: players' own
addresses), and with the players' address exempt (LOBBY_LIMITS_EXEMPT, as the load benchmarks run).
BENCH_LOBBY_CPU_BEFORE=<dir>: each measurement is also made, just before, with the services found in
<dir> (a copy of an older `services/` holding `lobby/` and `adjudicator/`, and `../proto` beside it:
`git archive main services/lobby services/adjudicator proto | tar -x -C /tmp/old`, then
BENCH_LOBBY_CPU_BEFORE=/tmp/old/services), so the two lobbies are compared on the same machine's load;
BENCH_LOBBY_CPU_ROUNDS times over (alternating).
Each player watches their own game on a socket (one push per command: bench_fanout measures many), and
each measurement is made twice in a row: commands as POSTs (`http`), then as moves on that socket
(`socket`, services/lobby/socket_moves.py; an older lobby is measured with POSTs only). Figures are
printed, never judged.
"""
from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path

import json

import httpx
import websockets

from starbase_core import tickets

from bench_capacity import cpu_seconds                 # same directory: run as a script
from bench_lobby import one_player_game, start_service, wait_ready
from starbase_core.servers import NatsServer, RedisServer, free_port

RATE = float(os.environ.get("BENCH_LOBBY_CPU_RATE", 40))
SECONDS = float(os.environ.get("BENCH_LOBBY_CPU_SECONDS", 12))
CLIENTS = int(os.environ.get("BENCH_LOBBY_CPU_CLIENTS", 16))
BEFORE = os.environ.get("BENCH_LOBBY_CPU_BEFORE", "")
ROUNDS = int(os.environ.get("BENCH_LOBBY_CPU_ROUNDS", 1))


class MovesSocket:
    """A player's own socket on their game: it reads every message (the lobby pushes each command's
    event to it) and hands each move's answer to whoever waits for it."""

    def __init__(self, socket):
        self.socket, self.answers = socket, {}
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, http, url: str, game_id: str, auth: dict) -> "MovesSocket":
        ticket = (await http.post("/tickets", json={}, headers=auth)).json()["ticket"]
        socket = await websockets.connect(f"ws{url[len('http'):]}/games/{game_id}/ws",
                                          subprotocols=tickets.subprotocols(ticket))
        return cls(socket)

    async def _read(self) -> None:
        async for raw in self.socket:
            message = json.loads(raw)
            if message["kind"] in ("ack", "error") and message["id"] in self.answers:
                self.answers.pop(message["id"]).set_result(message["kind"] == "ack")

    async def move(self, move_id: str, command: dict) -> bool:
        answered = self.answers[move_id] = asyncio.get_running_loop().create_future()
        await self.socket.send(json.dumps({"v": 1, "kind": "move", "id": move_id, "command": command}))
        return await asyncio.wait_for(answered, 30)

    async def close(self) -> None:
        await self.socket.close()
        self.reader.cancel()


async def drive(url: str, lobby_pid: int, adjudicator_pid: int,
                moves: str = "http") -> tuple[int, float, float, float, float, float]:
    """(accepted, lobby CPU seconds over the run, its idle CPU seconds over as long, p99 seconds, and the
    adjudicator's CPU seconds over the run and idle). Every player watches their game on a socket; `moves`:
    commands sent as POSTs ("http") or as moves on that socket ("socket")."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        players = [await one_player_game(http, index) for index in range(CLIENTS)]
        watching = [await MovesSocket.open(http, url, game_id, auth) for game_id, auth in players]
        interval = CLIENTS / RATE
        accepted, latencies = 0, []
        began, cpu_began, adjudicator_began = time.perf_counter(), cpu_seconds(lobby_pid), cpu_seconds(adjudicator_pid)

        async def one(index: int, player) -> None:
            nonlocal accepted
            game_id, auth = player
            next_send = began + index * interval / CLIENTS
            sent_so_far = 0
            while next_send < began + SECONDS:
                await asyncio.sleep(max(0.0, next_send - time.perf_counter()))
                sent = time.perf_counter()
                sent_so_far += 1
                if moves == "socket":
                    ok = await watching[index].move(f"m{sent_so_far}", {"type": "Think"})
                else:
                    try:
                        reply = await http.post(f"/games/{game_id}/commands", json={"command": {"type": "Think"}},
                                                headers=auth)
                    except httpx.TransportError:    # e.g. a kept-alive connection the server closed meanwhile
                        reply = None
                    ok = reply is not None and reply.status_code == 200
                latencies.append(time.perf_counter() - sent)
                accepted += ok
                next_send += interval

        await asyncio.gather(*(one(i, p) for i, p in enumerate(players)))
        busy, adjudicator_busy = cpu_seconds(lobby_pid) - cpu_began, cpu_seconds(adjudicator_pid) - adjudicator_began
        took = time.perf_counter() - began
        idle_began, adjudicator_idle_began = cpu_seconds(lobby_pid), cpu_seconds(adjudicator_pid)
        await asyncio.sleep(took)
        idle, adjudicator_idle = cpu_seconds(lobby_pid) - idle_began, cpu_seconds(adjudicator_pid) - adjudicator_idle_began
        for socket in watching:
            await socket.close()
    latencies.sort()
    return accepted, busy, idle, latencies[int(0.99 * (len(latencies) - 1))], adjudicator_busy, adjudicator_idle


def measure(exempt: bool, services: str = "", moves: str = "http") -> None:
    with tempfile.TemporaryDirectory(prefix="bench-lobby-cpu-") as work, NatsServer() as nats, \
            RedisServer() as redis:
        grpc_port, health_port, lobby_port = free_port(), free_port(), free_port()
        env = {**os.environ, "NATS_URL": nats.url, "REDIS_URL": redis.url, "LOG_LEVEL": "warning",
               "ADJUDICATOR_PORT": str(grpc_port), "ADJUDICATOR_HOST": "127.0.0.1",
               "ADJUDICATOR_HEALTH_PORT": str(health_port), "LOBBY_PORT": str(lobby_port),
               "ADJUDICATOR_TARGET": f"127.0.0.1:{grpc_port}", "LOBBY_SECRET": "bench",
               "INSECURE_DEV_MODE": "true", "METRICS_PORT": "0",
               # Counted, the players' limits must still let this load through.
               "LOBBY_LIMIT_COMMANDS": "1000/second;30000/minute", "LOBBY_LIMIT_REGISTRATIONS": "1000/minute",
               "LOBBY_LIMIT_TABLES": "1000/minute"}
        if exempt:
            env["LOBBY_LIMITS_EXEMPT"] = "127.0.0.1/32,::1/128"
        if services:        # found before the installed packages (the editable finder comes last)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [services, env.get("PYTHONPATH", "")]))
            env["ADJUDICATOR_PROTO_DIR"] = str(Path(services).resolve().parent / "proto")
        children = [start_service("adjudicator", env, Path(work))]
        try:
            wait_ready(f"http://127.0.0.1:{health_port}/readyz", children[0])
            children.append(start_service("lobby", env, Path(work)))
            wait_ready(f"http://127.0.0.1:{lobby_port}/readyz", children[1])
            accepted, busy, idle, p99, adjudicator_busy, adjudicator_idle = asyncio.run(
                drive(f"http://127.0.0.1:{lobby_port}", children[1].pid, children[0].pid, moves))
        finally:
            for child in reversed(children):
                child.terminate()
                child.wait(15)
    print(f"  {'before' if services else 'this'}  {moves:<6}  limits {'exempt ' if exempt else 'counted'}  {accepted:>5} commands  "
          f"{busy * 1000 / max(1, accepted):5.2f} ms/command  "
          f"{max(0.0, busy - idle) * 1000 / max(1, accepted):5.2f} ms/command less the idle background  "
          f"(p99 {p99 * 1000:.0f} ms); adjudicator {adjudicator_busy * 1000 / max(1, accepted):5.2f}, "
          f"{max(0.0, adjudicator_busy - adjudicator_idle) * 1000 / max(1, accepted):5.2f} less its idle")


def main() -> None:
    print(f"lobby CPU per command: {CLIENTS} players, {RATE:.0f} commands/s for {SECONDS:.0f} s "
          f"(CPU ticks are 10 ms: ±{10 / (RATE * SECONDS):.2f} ms/command)")
    for _ in range(ROUNDS):
        for exempt in (False, True):
            if BEFORE:
                measure(exempt, BEFORE)
            measure(exempt)
            measure(exempt, moves="socket")


if __name__ == "__main__":
    main()
