"""Trucker at human pace: 25 / 100 / 250 tables of 4 bots, each bot making one move every 1.5 s
(±50 %): a grab, then a place (or a return), and so on; at 250 tables, the 1,000 players of the
capacity target (issue 13: grab-to-ack p99 <= 50 ms).

The figure is grab-to-acknowledgement latency (an ack means the event is durable in JetStream) in the
steady state, p50 / p99 / max, and the share of grabs over 100 ms (the stalls). Each bot starts at a
random moment of its first pause, as players do; the first `WARMUP` seconds (every table's first
moves: cold views, the store's first look at each stream) are reported apart. Bounded:
`BENCH_TRUCKER_PACED_SECONDS` of play per size (default 10 s) after the warm-up (at most 25 s
to connect and 15 s for the last answers, so the three sizes fit `make bench`'s 240 s), sizes from
`BENCH_TRUCKER_PACED_TABLES` (default 25,100,250); one service process on loopback with its own
nats-server (fsync on every message) and redis-server. Figures only; nothing is judged. On a shared
machine the tail follows the machine's load: compare runs made side by side.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
import time

import bench_trucker_service as base
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.servers import NatsServer, RedisServer
from starbase_core.store_jetstream import JetStreamEventStore
from trucker_rules.ship import Placed

PACE_SECONDS = 1.5
EVENT_PREFIX = '{"v":1,"kind":"event"'
WARMUP = 3.0
SIZES = [int(n) for n in os.environ.get("BENCH_TRUCKER_PACED_TABLES", "25,100,250").split(",")]
PLAY_SECONDS = float(os.environ.get("BENCH_TRUCKER_PACED_SECONDS", 10))


class PacedBot(base.SocketBot):
    """One move per pause: grab; then place what it holds (or return it); then grab again. Records
    each grab's latency with the moment it was sent (`timed`)."""

    started: float | None = None

    def __init__(self, url: str, player: str):
        super().__init__(url, player)
        self.timed: list[tuple[float, float]] = []
        self.holding: str | None = None

    async def run(self, start, deadline_holder, connected) -> None:
        self._deadline = deadline_holder
        await super().run(start, deadline_holder, connected)

    async def _read(self, socket) -> None:
        # The table's events are not parsed (this bot follows only its own answers), so the bots' process,
        # which shares the machine with the service, costs less per move (a player's client is elsewhere).
        async for raw in socket:
            if isinstance(raw, str) and raw.startswith(EVENT_PREFIX):
                continue
            message = json.loads(raw)
            if (waiter := self.pending.pop(message.get("id"), None)) is not None:
                waiter.set_result(message)

    async def _turn(self, socket, ship) -> None:
        if PacedBot.started is None:
            PacedBot.started = time.monotonic()
        await asyncio.sleep(random.uniform(0, PACE_SECONDS))      # the first pause, at a random phase
        while time.monotonic() < self._deadline[0]:
            await self._move(socket, ship)
            await asyncio.sleep(PACE_SECONDS * random.uniform(0.5, 1.5))

    async def _move(self, socket, ship) -> None:
        if self.holding is None:
            sent, began = time.monotonic(), time.perf_counter()
            answer = await self._send(socket, "grab_face_down")
            if answer["kind"] == "ack":
                self.timed.append((sent, time.perf_counter() - began))
                self.holding = answer["events"][0]["data"]["component"]
            elif answer.get("error", {}).get("code") == "HAND_FULL":
                await self._send(socket, "return")
            return
        spot = base.spot_for(ship, self.holding)
        if spot is not None:
            placed = await self._send(socket, "place", square=list(spot[0]), rotation=spot[1])
            if placed["kind"] == "ack":
                ship.tiles[spot[0]] = Placed(self.holding, spot[1])
                self.holding = None
                return
        await self._send(socket, "return")
        self.holding = None


def _summary(latencies: list[float]) -> str:
    if not latencies:
        return "no grabs"
    over = sum(x > 0.1 for x in latencies) / len(latencies)
    return (f"p50 {1000 * base.percentile(latencies, .5):.1f}  p99 {1000 * base.percentile(latencies, .99):.1f}  "
            f"max {1000 * max(latencies):.1f} ms; over 100 ms: {over:.1%} of {len(latencies)} grabs")


async def _script_calls(url: str) -> int:
    """Redis scripts run so far (EVALSHA and EVAL, from INFO commandstats)."""
    from redis.asyncio import Redis
    client = Redis.from_url(url)
    try:
        stats = await client.info("commandstats")
    finally:
        await client.aclose()
    return sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in ("evalsha", "eval"))


async def _servers_cpu(pids: dict[str, int]) -> dict[str, tuple[int, float]]:
    """The CPU each server had used when play began (the bots' first move), to count theirs during play."""
    while PacedBot.started is None:
        await asyncio.sleep(0.05)
    return {name: (pid, base._cpu_seconds(pid)) for name, pid in pids.items()}


async def one_size(tables: int) -> None:
    PacedBot.started = None
    with tempfile.TemporaryDirectory() as scratch, NatsServer(workdir=scratch) as nats, RedisServer() as redis:
        store = await JetStreamEventStore.connect(nats.url)
        vault = await JetStreamSeedVault(store._nc).ensure()
        games = await base.create_games(store, vault, tables)
        bots: list[PacedBot] = []

        def make(url: str, player: str) -> PacedBot:
            bots.append(PacedBot(url, player))
            return bots[-1]
        scripts_before = await _script_calls(redis.url)
        appends_before = (await store._js.stream_info(store.name)).state.messages
        servers = {"nats-server": nats.process.pid, "redis-server": redis.process.pid}
        watch = asyncio.create_task(_servers_cpu(servers))
        figures = await base.run_service(nats.url, redis.url, games, bot_class=make)
        if not watch.done():        # no bot ever moved
            watch.cancel()
        servers_cpu = {name: base._cpu_seconds(pid) - before
                       for name, (pid, before) in (watch.result() if watch.done() and not watch.cancelled() else {}).items()}
        scripts = await _script_calls(redis.url) - scripts_before
        appends = (await store._js.stream_info(store.name)).state.messages - appends_before
        await store.close()
    began = PacedBot.started or 0.0
    warm = [lat for bot in bots for sent, lat in bot.timed if sent < began + WARMUP]
    steady = [lat for bot in bots for sent, lat in bot.timed if sent >= began + WARMUP]
    print(f"{tables} tables ({4 * tables} players): {figures['acked']} moves acknowledged "
          f"({figures['acked'] / figures['elapsed']:.0f}/s), {figures['refused']} refused, "
          f"{figures['failed_bots']} bots failed; service CPU {1000 * figures['cpu'] / max(1, figures['acked']):.2f} ms "
          f"per move ({figures['cpu'] / figures['elapsed']:.0%} of one core); the bots' own process "
          f"{1000 * figures['bots_cpu'] / max(1, figures['acked']):.2f} ms per move "
          f"({figures['bots_cpu'] / figures['elapsed']:.0%} of one core); load average {os.getloadavg()[0]:.1f}",
          flush=True)
    acked = max(1, figures["acked"])
    print("  the servers during play: " + ", ".join(
        f"{name} {1000 * cpu / acked:.2f} ms per move ({cpu / figures['elapsed']:.0%} of one core)"
        for name, cpu in servers_cpu.items()), flush=True)
    print(f"  per acknowledged move: {scripts / acked:.2f} Redis script calls, {appends / acked:.2f} JetStream "
          f"appends (round trips on the path of a move, whatever the machine's load)", flush=True)
    print(f"  grab-to-ack, steady: {_summary(steady)}", flush=True)
    print(f"  grab-to-ack, first {WARMUP:.0f} s: {_summary(warm)}", flush=True)


async def main_async() -> None:
    base.SERVICE_SECONDS = WARMUP + PLAY_SECONDS
    base.CONNECT_SECONDS, base.DRAIN_SECONDS = 25.0, 15.0
    print(f"paced Trucker tables: 4 bots each, one move per {PACE_SECONDS} s (±50 %), {WARMUP:.0f} s warm-up "
          f"then {PLAY_SECONDS:.0f} s measured per size; load average now {os.getloadavg()[0]:.1f}", flush=True)
    for tables in SIZES:
        await one_size(tables)


def main() -> None:
    try:
        import uvloop
        uvloop.run(main_async())
    except ImportError:
        asyncio.run(main_async())


if __name__ == "__main__":
    main()
