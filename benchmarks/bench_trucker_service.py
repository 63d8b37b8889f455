"""Trucker's real-time service under load, and its floor.

1. The service (`python -m trucker`, one process) with 250 tables of 4 bots, each bot on its own
   WebSocket grabbing and placing as fast as it can for a fixed time: grab-to-acknowledgement latency
   (p50 / p99 / p99.9; an ack means the event is durable in JetStream) and acknowledged moves per second.
2. The floor: the same moves decided by the engine, the same Lua scripts and the same JetStream appends
   (through the outbox relay, batched per game the same way) issued from this one Python client, with no
   socket and no service in between, at the same concurrency.
The service's throughput is printed as a ratio of the floor. Everything runs on loopback with its own
nats-server (JetStream, fsync on every message) and redis-server. Figures only; nothing is judged.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import zlib

import websockets
from redis.asyncio import BlockingConnectionPool, Redis

from starbase_core.gamestream import game_created, game_stream, wrap
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.servers import NatsServer, RedisServer, free_port
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng, commitment
from trucker_rules.building import check_placement
from trucker_rules.game import GAME
from trucker_rules.ship import Placed, Ship

TABLES = int(os.environ.get("BENCH_TRUCKER_TABLES", 250))
BOTS_PER_TABLE = 4
SERVICE_SECONDS = float(os.environ.get("BENCH_TRUCKER_SECONDS", 10))
FLOOR_SECONDS = float(os.environ.get("BENCH_TRUCKER_FLOOR_SECONDS", 6))
CONNECT_SECONDS = float(os.environ.get("BENCH_TRUCKER_CONNECT_SECONDS", 40))
DRAIN_SECONDS = 60.0     # how long the bots' last answers are awaited after play ends
# Paced bots (BENCH_TRUCKER_PACE_MS > 0): each bot thinks that long (±50 %) between its turns, so the
# service is loaded below saturation and grab-to-ack measures the service's own path, not queueing.
PACE_SECONDS = float(os.environ.get("BENCH_TRUCKER_PACE_MS", 0)) / 1000
PLAYERS = ["p1", "p2", "p3", "p4"]


async def create_games(store, vault, count: int) -> list[str]:
    """Games as the adjudicator creates them: the seed in the vault (face-down grabs are drawn from it)."""
    async def one(index: int) -> str:
        game = f"bench{index}x{random.randrange(10**9)}"
        seed = await vault.get_or_create(game)
        rng = FairRng(seed)
        setup = GAME.setup(PLAYERS, {}, rng)
        await store.append(game_stream(game), [game_created("trucker", PLAYERS, {}, commitment(seed), 0)],
                           expected_seq=0)
        await store.append(game_stream(game), wrap(setup, actor=None, draw_end=rng.used), expected_seq=1)
        return game
    games = []
    for start in range(0, count, 50):
        games += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
    return games


def spot_for(ship: Ship, component: str):
    for square in sorted(ship.squares):
        if square in ship.tiles:
            continue
        for rotation in range(4):
            try:
                check_placement(ship, component, square, rotation)
            except RuleViolation:
                continue
            return square, rotation
    return None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


class SocketBot:
    def __init__(self, url: str, player: str):
        self.url, self.player = url, player
        self.latencies: list[float] = []
        self.acked = self.refused = 0
        self.face_up: set[str] = set()
        self.pending: dict[str, asyncio.Future] = {}
        self.counter = 0

    async def run(self, start: asyncio.Event, deadline_holder: list[float], connected: list[int]) -> None:
        async with websockets.connect(self.url, max_size=2**22, open_timeout=90, compression=None) as socket:
            welcome = json.loads(await socket.recv())
            connected[0] += 1
            mine = welcome["view"]["players"][self.player]["ship"]
            ship = Ship(mine["board"], {tuple(t["square"]): Placed(t["component"], t["rotation"]) for t in mine["tiles"]})
            reader = asyncio.create_task(self._read(socket))
            await start.wait()
            try:
                while time.monotonic() < deadline_holder[0]:
                    await self._turn(socket, ship)
                    if PACE_SECONDS:
                        await asyncio.sleep(PACE_SECONDS * random.uniform(0.5, 1.5))
            finally:
                reader.cancel()

    async def _read(self, socket) -> None:
        async for raw in socket:
            message = json.loads(raw)
            if message["kind"] == "event":
                event = message["event"]
                if event["type"] == "ComponentReturned":
                    self.face_up.add(event["data"]["component"])
                elif event["type"] == "ComponentGrabbed":
                    self.face_up.discard(event["data"]["component"])
            elif (waiter := self.pending.pop(message.get("id"), None)) is not None:
                waiter.set_result(message)

    async def _send(self, socket, op: str, **fields) -> dict:
        self.counter += 1
        message_id = str(self.counter)
        waiter = self.pending[message_id] = asyncio.get_running_loop().create_future()
        await socket.send(json.dumps({"v": 1, "kind": "move", "id": message_id, "op": op, **fields}))
        answer = await asyncio.wait_for(waiter, 60)
        if answer["kind"] == "ack":
            self.acked += 1
        else:
            self.refused += 1
        return answer

    async def _turn(self, socket, ship: Ship) -> None:
        started = time.perf_counter()
        if self.face_up and random.random() < 0.3:
            answer = await self._send(socket, "grab_face_up", component=random.choice(sorted(self.face_up)))
        else:
            answer = await self._send(socket, "grab_face_down")
            if answer["kind"] == "error" and answer["error"]["code"] == "WAREHOUSE_EMPTY" and self.face_up:
                answer = await self._send(socket, "grab_face_up", component=random.choice(sorted(self.face_up)))
        if answer["kind"] != "ack":
            if answer["error"]["code"] == "HAND_FULL":
                await self._send(socket, "return")
            return
        self.latencies.append(time.perf_counter() - started)
        component = answer["events"][0]["data"]["component"]
        spot = spot_for(ship, component)
        if spot is None:
            await self._send(socket, "return")
            return
        placed = await self._send(socket, "place", square=list(spot[0]), rotation=spot[1])
        if placed["kind"] == "ack":
            ship.tiles[spot[0]] = Placed(component, spot[1])
        else:
            await self._send(socket, "return")


async def run_service(nats_url: str, redis_url: str, games: list[str], bot_class=SocketBot,
                      replicas: int = 1, probe_files: list[str] | None = None) -> dict:
    """Play against `replicas` service processes, each table on the one its id hashes to (as a router
    or the lobby's `realtime_url` would send it: a table's sockets on one replica). `probe_files`: one
    path per replica for the service's `TRUCKER_PROBE_FILE` (where a move's time went)."""
    ports = [free_port() for _ in range(replicas)]
    # BENCH_TRUCKER_PROFILE=<file>: run the service under cProfile (stats written on SIGUSR1, below).
    profile = os.environ.get("BENCH_TRUCKER_PROFILE")
    command = [__file__, "--serve-profiled", profile] if profile else ["-m", "trucker"]
    children = []
    for index, port in enumerate(ports):
        env = {**os.environ, "NATS_URL": nats_url, "REDIS_URL": redis_url, "TRUCKER_PORT": str(port),
               "TRUCKER_TRUST_PLAYER_PARAM": "true", "LOG_LEVEL": "warning",
               "INSECURE_DEV_MODE": "true", "METRICS_PORT": "0"}   # `?player=` and open servers: a benchmark
        # Players here move as fast as the service answers: past one socket's flood limit (`flood.py`).
        env.update(TRUCKER_SOCKET_MESSAGES_PER_SECOND="1000000", TRUCKER_SOCKET_MESSAGE_BURST="1000000")
        if probe_files:
            env["TRUCKER_PROBE_FILE"] = probe_files[index]
        children.append(subprocess.Popen([sys.executable, *command], env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL))
    try:
        for port in ports:
            await _wait_ready(port)
        bots = [bot_class(f"ws://127.0.0.1:{ports[replica_of(game, replicas)]}/tables/{game}/ws?player={player}",
                          player)
                for game in games for player in PLAYERS]
        start, deadline, connected = asyncio.Event(), [float("inf")], [0]
        tasks = []
        for index, bot in enumerate(bots):   # connect in waves: the first player of a table opens it
            tasks.append(asyncio.create_task(bot.run(start, deadline, connected)))
            if index % 50 == 49:
                await asyncio.sleep(0.05)
        waited = time.monotonic()
        while connected[0] < len(bots) and time.monotonic() - waited < CONNECT_SECONDS and not all(t.done() for t in tasks):
            await asyncio.sleep(0.05)
        print(f"  {connected[0]} of {len(bots)} bots connected in {time.monotonic() - waited:.1f} s", flush=True)
        if profile:
            for child in children:
                child.send_signal(signal.SIGUSR2)    # profile the play only, not the connections
        cpu_before = sum(_cpu_seconds(child.pid) for child in children)
        bots_before = _cpu_seconds(os.getpid())
        began = time.monotonic()
        deadline[0] = began + SERVICE_SECONDS
        start.set()
        done, late = await asyncio.wait(tasks, timeout=SERVICE_SECONDS + DRAIN_SECONDS)
        for task in late:   # bots still connecting when play ended (a slow machine) are not counted
            task.cancel()
        results = [t.exception() if not t.cancelled() and t.exception() else None for t in done]
        elapsed = time.monotonic() - began
        cpu = sum(_cpu_seconds(child.pid) for child in children) - cpu_before
        bots_cpu = _cpu_seconds(os.getpid()) - bots_before
        failed = sum(isinstance(r, Exception) for r in results) + len(late)
        latencies = [x for bot in bots for x in bot.latencies]
        acked = sum(bot.acked for bot in bots)
        inside = await _time_inside(ports[0])
        return {"elapsed": elapsed, "acked": acked, "refused": sum(bot.refused for bot in bots), "inside": inside,
                "latencies": latencies, "failed_bots": failed, "cpu": cpu,
                "bots_cpu": bots_cpu}
    finally:
        if profile:
            for child in children:
                child.send_signal(signal.SIGUSR1)
            await asyncio.sleep(3)
        for child in children:
            child.terminate()
        for child in children:
            child.wait(30)


def replica_of(game: str, replicas: int) -> int:
    """The replica serving a table: a stable hash of its id (Python's `hash` of a str changes per run)."""
    return zlib.crc32(game.encode()) % replicas


async def _time_inside(port: int) -> dict[str, float]:
    """Mean seconds a move spent inside the service (arrival to ack, its `trucker_move_seconds`), per op:
    compared with the bots' latency it tells queueing in the service from queueing before it."""
    import httpx
    async with httpx.AsyncClient() as client:
        text = (await client.get(f"http://127.0.0.1:{port}/metrics")).text
    sums, counts = {}, {}
    for line in text.splitlines():
        for suffix, into in (("_sum", sums), ("_count", counts)):
            if line.startswith(f"trucker_move_seconds{suffix}{{"):
                op = line.split('op="', 1)[1].split('"', 1)[0]
                into[op] = float(line.rsplit(" ", 1)[1])
    return {op: sums[op] / counts[op] for op in sums if counts.get(op)}


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux /proc), in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _wait_ready(port: int) -> None:
    import httpx
    async with httpx.AsyncClient() as client:
        for _ in range(400):
            try:
                if (await client.get(f"http://127.0.0.1:{port}/readyz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.05)
    raise RuntimeError("the trucker service did not start")


async def run_floor(store, vault, redis_url: str, games: list[str]) -> dict:
    """The same decisions, scripts and appends with no socket: grab face-down, then return it (two
    moves), each decided by the engine on the player's view and committed by one Lua script."""
    from trucker.relay import Relay
    from trucker.settings import TruckerSettings
    from trucker.tables import TableService
    from trucker.warehouse import RedisWarehouse
    from trucker_rules import messages as m

    # The same connection pool as the service's (TRUCKER_REDIS_CONNECTIONS), so only the service differs.
    connections = int(os.environ.get("TRUCKER_REDIS_CONNECTIONS",
                                     TruckerSettings.model_fields["trucker_redis_connections"].default))
    redis = Redis(connection_pool=BlockingConnectionPool.from_url(redis_url, decode_responses=True,
                                                                  max_connections=connections, timeout=20))
    warehouse = RedisWarehouse(redis)
    relay = Relay(warehouse, store)
    service = TableService(warehouse, store, relay, vault)
    for start in range(0, len(games), 50):
        await asyncio.gather(*(service.open_table(g) for g in games[start:start + 50]))
    latencies: list[float] = []
    done = [0]
    deadline = time.monotonic() + FLOOR_SECONDS

    async def worker(game: str, player: str) -> None:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            for command in (m.GrabFaceDown(), m.ReturnComponent()):
                applied = await service.apply(game, player, command, None)
                await relay.wait_durable(game, applied.last_seq, applied.events[-1]["epoch"])
                done[0] += 1
                if isinstance(command, m.GrabFaceDown):
                    latencies.append(time.perf_counter() - started)

    cpu_before = _cpu_seconds(os.getpid())
    began = time.monotonic()
    await asyncio.gather(*(worker(g, p) for g in games for p in PLAYERS))
    elapsed = time.monotonic() - began
    cpu = _cpu_seconds(os.getpid()) - cpu_before
    await redis.aclose()
    return {"elapsed": elapsed, "acked": done[0], "latencies": latencies, "appends": relay.appends, "cpu": cpu}


def report(name: str, figures: dict) -> float:
    rate = figures["acked"] / figures["elapsed"]
    lat = figures["latencies"]
    print(f"{name}: {figures['acked']} acknowledged moves in {figures['elapsed']:.1f} s = {rate:,.0f} moves/s")
    print(f"  grab-to-ack latency ms: p50 {1000 * percentile(lat, .5):.1f}  p99 {1000 * percentile(lat, .99):.1f}"
          f"  p99.9 {1000 * percentile(lat, .999):.1f}  ({len(lat)} grabs)")
    # Less sensitive to other jobs on the machine than moves/s: the Python process's own CPU per move.
    print(f"  CPU of the {'service process' if 'service' in name else 'client process'}: "
          f"{1000 * figures['cpu'] / max(1, figures['acked']):.2f} ms per acknowledged move"
          f" ({figures['cpu'] / figures['elapsed']:.0%} of one core)")
    return rate


async def main_async() -> None:
    with tempfile.TemporaryDirectory() as scratch, NatsServer(workdir=scratch) as nats, RedisServer() as redis:
        store = await JetStreamEventStore.connect(nats.url)
        vault = await JetStreamSeedVault(store._nc).ensure()       # the service's default SEED_BUCKET
        pace = f", bots pacing {1000 * PACE_SECONDS:.0f} ms between turns" if PACE_SECONDS else ""
        print(f"setting up {TABLES} tables of {BOTS_PER_TABLE} players{pace} ...", flush=True)
        games = await create_games(store, vault, TABLES)
        floor_games = await create_games(store, vault, TABLES) if FLOOR_SECONDS > 0 else []
        stored_before = (await store._js.stream_info(store.name)).state.messages
        service = await run_service(nats.url, redis.url, games)
        service_appends = (await store._js.stream_info(store.name)).state.messages - stored_before
        service_rate = report(f"service ({TABLES} tables x {BOTS_PER_TABLE} bots over WebSockets)", service)
        print(f"  {service_appends} JetStream appends for {service['acked']} moves (batched per game)")
        print(f"  refused moves: {service['refused']} (races lost, full hands, empty pile); bots failed: "
              f"{service['failed_bots']}; the bots' own process used {service['bots_cpu'] / service['elapsed']:.0%}"
              f" of one core")
        inside = "  ".join(f"{op} {1000 * seconds:.0f}" for op, seconds in sorted(service["inside"].items()))
        print(f"  mean ms from a move's arrival in the service to its ack: {inside}")
        if FLOOR_SECONDS > 0:   # BENCH_TRUCKER_FLOOR_SECONDS=0 leaves the floor out (paced comparisons)
            floor = await run_floor(store, vault, redis.url, floor_games)
            floor_rate = report("floor (engine decision + Lua + JetStream append from one Python client, same concurrency)", floor)
            print(f"  {floor['appends']} JetStream appends for {floor['acked']} moves (batched per game)")
            print(f"service / floor throughput: {service_rate / floor_rate:.2f}")
        await store.close()


def main() -> None:
    try:   # the service runs on uvloop (uvicorn[standard]); so do the bots and the floor, when present
        import uvloop
        uvloop.run(main_async())
    except ImportError:
        asyncio.run(main_async())


def serve_profiled(path: str) -> None:
    """`python -m trucker` under cProfile: SIGUSR2 starts it, SIGUSR1 writes the stats to `path`
    (uvicorn re-raises SIGTERM, so nothing after it would run)."""
    import cProfile

    from trucker.__main__ import main as serve
    profiler = cProfile.Profile()
    signal.signal(signal.SIGUSR2, lambda *_: profiler.enable())
    signal.signal(signal.SIGUSR1, lambda *_: (profiler.disable(), profiler.dump_stats(path)))
    serve()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve-profiled"]:
        serve_profiled(sys.argv[2])
    else:
        main()
