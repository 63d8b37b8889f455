"""Scale-out on one box: Trucker with 1 and with 2 replicas behind one address, side by side.

The replicas share one listening port (SO_REUSEPORT: the kernel spreads new connections over them), one
Redis and one JetStream, as replicas behind a load balancer do: a table's players may land on different
replicas, so the relay meets the other replica's events and the fan-out crosses NATS. Bots as in
`bench_trucker_service.py` (4 per table, each on its own WebSocket, grabbing and placing as fast as
they can) for a fixed time; the figure is acknowledged moves per second, and the ratio 2 replicas /
1 replica. Runs alternate 1, 2, 1, 2, … (`BENCH_SCALEOUT_ROUNDS` pairs, default 2) so both meet the
same machine load; min / median / max of the ratios. Bounded: `BENCH_SCALEOUT_SECONDS` of play per run
(default 8; at most 25 s to connect and 15 s for the last answers), `BENCH_SCALEOUT_TABLES`
tables (default 60). Loopback only; figures only, nothing judged.
On a 2-core machine the second replica competes for the same cores (and with nats-server, Redis and the
bots): read the ratio as what one box gains, not what a cluster would.

Not covered here: the lobby and the adjudicator (`bench_capacity.py` measures 1 vs 2 of those, players
split across the lobbies).
"""
from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import bench_trucker_service as base
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.servers import NatsServer, RedisServer, free_port
from starbase_core.store_jetstream import JetStreamEventStore

TABLES = int(os.environ.get("BENCH_SCALEOUT_TABLES", 60))
SECONDS = float(os.environ.get("BENCH_SCALEOUT_SECONDS", 8))
ROUNDS = int(os.environ.get("BENCH_SCALEOUT_ROUNDS", 2))


def serve_on_shared_port(port: int) -> None:
    """`python -m trucker`, but listening on a socket bound with SO_REUSEPORT (one address, N processes)."""
    import uvicorn

    from starbase_core.logging import configure_logging
    from trucker.api import create_app
    from trucker.settings import load_settings

    settings = load_settings()
    configure_logging("trucker", settings.log_level, settings.log_json)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(2048)
    config = uvicorn.Config(create_app(settings), ws_max_size=65536, log_config=None,
                            ws_per_message_deflate=False, lifespan="on")
    asyncio.run(uvicorn.Server(config).serve(sockets=[listener]))


async def run_replicas(nats_url: str, redis_url: str, games: list[str], replicas: int) -> dict:
    port = free_port()
    env = {**os.environ, "NATS_URL": nats_url, "REDIS_URL": redis_url, "TRUCKER_PORT": str(port),
           "TRUCKER_TRUST_PLAYER_PARAM": "true", "LOG_LEVEL": "warning", "INSECURE_DEV_MODE": "true",
           "METRICS_PORT": "0"}
    # Players here move as fast as the service answers: past one socket's flood limit (`flood.py`).
    env.update(TRUCKER_SOCKET_MESSAGES_PER_SECOND="1000000", TRUCKER_SOCKET_MESSAGE_BURST="1000000")
    children = [subprocess.Popen([sys.executable, __file__, "--serve", str(port)], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(replicas)]
    try:
        await base._wait_ready(port)
        await asyncio.sleep(2.0)        # every replica up (readyz answers from whichever got it)
        bots = [base.SocketBot(f"ws://127.0.0.1:{port}/tables/{game}/ws?player={player}", player)
                for game in games for player in base.PLAYERS]
        start, deadline, connected = asyncio.Event(), [float("inf")], [0]
        tasks = []
        for index, bot in enumerate(bots):
            tasks.append(asyncio.create_task(bot.run(start, deadline, connected)))
            if index % 50 == 49:
                await asyncio.sleep(0.05)
        waited = time.monotonic()
        while connected[0] < len(bots) and time.monotonic() - waited < 25 and not all(t.done() for t in tasks):
            await asyncio.sleep(0.05)
        cpu_before = sum(base._cpu_seconds(c.pid) for c in children)
        began = time.monotonic()
        deadline[0] = began + SECONDS
        start.set()
        done, late = await asyncio.wait(tasks, timeout=SECONDS + 15)
        for task in late:
            task.cancel()
        elapsed = time.monotonic() - began
        cpu = sum(base._cpu_seconds(c.pid) for c in children) - cpu_before
        failed = sum(1 for t in done if not t.cancelled() and t.exception() is not None) + len(late)
        acked = sum(bot.acked for bot in bots)
        latencies = [x for bot in bots for x in bot.latencies]
        return {"rate": acked / elapsed, "acked": acked, "failed": failed, "connected": connected[0],
                "p99": base.percentile(latencies, .99), "cpu": cpu / elapsed}
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()


async def one_run(replicas: int) -> dict:
    with tempfile.TemporaryDirectory() as scratch, NatsServer(workdir=scratch) as nats, RedisServer() as redis:
        store = await JetStreamEventStore.connect(nats.url)
        vault = await JetStreamSeedVault(store._nc).ensure()
        games = await base.create_games(store, vault, TABLES)
        figures = await run_replicas(nats.url, redis.url, games, replicas)
        await store.close()
    print(f"  {replicas} replica(s): {figures['acked']} moves acknowledged = {figures['rate']:.0f}/s, grab-to-ack "
          f"p99 {1000 * figures['p99']:.0f} ms, {figures['connected']} bots connected, {figures['failed']} failed; "
          f"replicas' CPU {figures['cpu']:.0%} of one core", flush=True)
    return figures


async def main_async() -> None:
    print(f"Trucker scale-out: {TABLES} tables x 4 bots as fast as they can, {SECONDS:.0f} s per run, "
          f"1 and 2 replicas on one port, alternating, {ROUNDS} pair(s); load average {os.getloadavg()[0]:.1f}",
          flush=True)
    ratios = []
    for _ in range(ROUNDS):
        one = await one_run(1)
        two = await one_run(2)
        ratios.append(two["rate"] / one["rate"] if one["rate"] else float("nan"))
    print(f"Trucker throughput, 2 replicas / 1 replica: min/median/max {min(ratios):.2f}/"
          f"{statistics.median(ratios):.2f}/{max(ratios):.2f} over {len(ratios)} pair(s)")


def main() -> None:
    try:
        import uvloop
        uvloop.run(main_async())
    except ImportError:
        asyncio.run(main_async())


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve_on_shared_port(int(sys.argv[2]))
    else:
        main()
