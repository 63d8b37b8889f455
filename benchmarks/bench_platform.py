"""Platform figures: the store against raw JetStream, cold games, the adjudicator's CPU per command.

    python benchmarks/bench_platform.py     # its own nats-server (fsync always) on loopback, ~2-3 minutes
    BENCH_PLATFORM_PROFILE=out.prof python benchmarks/bench_platform.py cpu   # + cProfile of the server

The machine is shared, so every figure is a ratio of things run side by side or a time per unit, taken
RUNS times and printed as min / median / max:

1. appends: a raw `js.publish` of the very bytes the store writes and a `store.append` of one event,
   alternating one after the other, so the disk's and the neighbours' mood hits both alike; the ratio
   raw time / store time (1.0: the store costs nothing over the publish), with and without a command id.
2. cold games: the first command on a game nobody has loaded (a fresh store and adjudicator on their
   own connection), games of 1k / 5k / 20k events, with and without a snapshot (one taken TAIL events
   before the end, the mean distance under the default SNAPSHOT_EVERY), read + fold + decide + append.
3. the adjudicator's CPU per command: `python -m adjudicator` in its own process, CLIENTS gRPC clients
   sending commands back to back for WINDOW seconds; its process CPU time (/proc) / accepted commands.
Each phase stops at its count or its time budget, whichever comes first. Arguments pick phases
(`appends`, `cold`, `cpu`); none: all three.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.service import Adjudicator  # noqa: E402
from bench_capacity import cpu_seconds  # noqa: E402  (same directory: run as a script)
from bench_lobby import wait_ready  # noqa: E402
from starbase_core.envelope import NewEvent, seal_to_json  # noqa: E402
from starbase_core.gamestream import GameRecord, game_stream  # noqa: E402
from starbase_core.logging import configure_logging  # noqa: E402
from starbase_core.seeds import MemorySeedVault  # noqa: E402
from starbase_core.servers import NatsServer, free_port  # noqa: E402
from starbase_core.snapshots import JetStreamSnapshotBucket, Snapshots  # noqa: E402
from starbase_core.store_jetstream import JetStreamEventStore  # noqa: E402
from starbase_core.transaction import decide_next, open_game  # noqa: E402
from starbase_rules.registry import get_game  # noqa: E402
from tests.support import testjack  # noqa: E402

RUNS = 3
APPENDS, APPEND_BUDGET = 400, 8.0                 # pairs per run, seconds per run at most
COLD_SIZES, TAIL, BUILD_BUDGET = (1_000, 5_000, 20_000), 128, 90.0
CLIENTS, GAMES_PER_CLIENT, WINDOW, MAX_COMMANDS = 8, 2, 5.0, 20_000
EVENT = [NewEvent(type="SharesBought", actor="ann", meta={"draw_end": 12},
                  data={"player": "ann", "company": "ACME", "count": 2, "price": 67, "from": "bank"})]
LAUNCH = ("import sys, runpy; sys.path.insert(0, {root!r}); from tests.support import testjack; "
          "testjack.register(); runpy.run_module('adjudicator', run_name='__main__')")
PROFILED = ("import sys, cProfile, runpy, signal; sys.path.insert(0, {root!r}); "
            "from tests.support import testjack; testjack.register(); p = cProfile.Profile(); p.enable()\n"
            "try: runpy.run_module('adjudicator', run_name='__main__')\n"
            "finally: p.disable(); p.dump_stats({out!r})")


def spread(label: str, values: list[float], unit: str = "", digits: int = 2) -> None:
    low, mid, high = min(values), statistics.median(values), max(values)
    print(f"  {label:<58} min {low:.{digits}f}{unit}  median {mid:.{digits}f}{unit}  max {high:.{digits}f}{unit}")


# ---- 1. appends -----------------------------------------------------------------------------------

async def appends(url: str, namespace: str) -> None:
    store = await JetStreamEventStore.connect(url, name=f"{namespace}_A", subject_prefix=f"{namespace}a")
    _, body = seal_to_json("game.bench", EVENT, last_seq=41, last_hash="0" * 64, command_id=uuid.uuid4().hex)
    ratios: dict[str, list[float]] = {"with a command id": [], "without a command id": []}
    latencies: dict[str, list[float]] = {"raw": [], "with a command id": [], "without a command id": []}
    try:
        for run in range(RUNS):
            spent = {"raw": 0.0, "with a command id": 0.0, "without a command id": 0.0}
            counts = {"with a command id": 0, "without a command id": 0}
            started = time.perf_counter()
            for i in range(APPENDS):
                for kind in counts:
                    t0 = time.perf_counter()
                    await store._js.publish(f"{store.prefix}.raw", body)
                    t1 = time.perf_counter()
                    with_id = kind.startswith("with a")
                    await store.append(f"game.r{run}{'id' if with_id else 'no'}", EVENT,
                                       expected_seq=counts[kind], command_id=f"c{i}" if with_id else None)
                    t2 = time.perf_counter()
                    spent["raw"] += t1 - t0
                    spent[kind] += t2 - t1
                    counts[kind] += 1
                if time.perf_counter() - started > APPEND_BUDGET:
                    break
            pairs = counts["with a command id"]
            for kind in ratios:
                ratios[kind].append((spent["raw"] / 2) / spent[kind])
                latencies[kind].append(spent[kind] / pairs * 1e3)
            latencies["raw"].append(spent["raw"] / (2 * pairs) * 1e3)
        print(f"appends of one event, fsync before ack, raw and store alternating ({RUNS} runs of "
              f"≤{APPENDS} pairs each):")
        spread("raw js.publish, mean", latencies["raw"], " ms", 3)
        for kind in ratios:
            spread(f"store.append {kind}, mean", latencies[kind], " ms", 3)
        for kind, values in ratios.items():
            spread(f"ratio raw time / store time, {kind}", values)
    finally:
        await store._js.delete_stream(store.name)
        await store.close()


# ---- 2. cold games --------------------------------------------------------------------------------

async def build_game(store: JetStreamEventStore, vault: MemorySeedVault, game_id: str, events: int) -> None:
    """A one-seat Testjack game of `events` envelopes, written as the adjudicator writes it (the platform
    transaction, one append per command) but published many at a time, to build it quickly."""
    seed = await vault.get_or_create(game_id)
    stream, engine = game_stream(game_id), testjack.GAME
    new = open_game(engine, ["ann"], {}, seed)
    pending, seq, last_hash, command = [], 0, "0" * 64, 0
    record = GameRecord(game_id, engine, ["ann"], {}, "", engine.initial_state())
    deadline = time.perf_counter() + BUILD_BUDGET
    while seq < events:
        sealed, payload = seal_to_json(stream, new, last_seq=seq, last_hash=last_hash, command_id=f"b{command}")
        record.apply(sealed)
        seq, last_hash, command = sealed[-1].seq, sealed[-1].hash, command + 1
        pending.append(store._js.publish(store._subject(stream), payload))
        if len(pending) == 256 or seq >= events:
            await asyncio.gather(*pending)
            pending = []
            if time.perf_counter() > deadline:
                raise TimeoutError(f"building a game of {events} events took over {BUILD_BUDGET} s")
        new = decide_next(record, {"type": "Think"}, "ann", seed).events


async def first_command(url: str, options: dict, vault, game_id: str, snapshots_bucket: str | None) -> float:
    """Seconds from a fresh replica's first command on the game to its reply."""
    store = await JetStreamEventStore.connect(url, ensure=False, **options)
    try:
        snapshots = None
        if snapshots_bucket:
            bucket = await JetStreamSnapshotBucket(store._nc, snapshots_bucket).ensure()
            snapshots = await Snapshots.open(bucket, vault, get_game)
        adjudicator = Adjudicator(store, vault, games=get_game, snapshots=snapshots)
        t0 = time.perf_counter()
        await adjudicator.submit(game_id, "ann", {"type": "Think"}, uuid.uuid4().hex)
        took = time.perf_counter() - t0
        await adjudicator.close()
        return took
    finally:
        await store.close()


class UnsyncedNats(NatsServer):
    """nats-server without fsync before every ack: only to write the long games quickly (5 s, not a minute)."""

    def _command(self) -> list[str]:
        command = super()._command()
        config = self.workdir / "nats.conf"
        config.write_text(config.read_text().replace("  sync_interval: always\n", ""))
        return command


async def write_cold_games(url: str, options: dict, vault: MemorySeedVault, bucket_name: str) -> None:
    store = await JetStreamEventStore.connect(url, **options)
    try:
        bucket = await JetStreamSnapshotBucket(store._nc, bucket_name).ensure()
        for events in COLD_SIZES:
            await build_game(store, vault, f"cold{events}", events - TAIL)
            # A snapshot at the end of what is there, then TAIL more events written by the adjudicator.
            writer = Adjudicator(store, vault, games=get_game,
                                 snapshots=await Snapshots.open(bucket, vault, get_game))
            for _ in range(TAIL):
                await writer.submit(f"cold{events}", "ann", {"type": "Think"}, uuid.uuid4().hex)
            await writer.close()
    finally:
        await store.close()


async def measure_cold_games(url: str, options: dict, vault: MemorySeedVault, bucket_name: str) -> None:
    print(f"cold games: the first command on a game nobody has loaded ({RUNS} fresh replicas each):")
    for events in COLD_SIZES:
        for label, snapshots in (("without a snapshot", None), (f"with a snapshot {TAIL} events back",
                                                                bucket_name)):
            times = [await first_command(url, options, vault, f"cold{events}", snapshots) * 1e3
                     for _ in range(RUNS)]
            spread(f"{events:>6} events, {label}", times, " ms", 1)


def cold_games(namespace: str) -> None:
    """Written on a server without fsync (fast), measured on one with it, over the same store files."""
    options, vault = dict(name=f"{namespace}_C", subject_prefix=f"{namespace}c"), MemorySeedVault()
    bucket_name = f"{namespace}_C_snapshots"
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as work:
        with UnsyncedNats(workdir=work) as unsynced:
            asyncio.run(write_cold_games(unsynced.url, options, vault, bucket_name))
        with NatsServer(workdir=work) as server:
            asyncio.run(measure_cold_games(server.url, options, vault, bucket_name))


# ---- 3. the adjudicator's CPU per command ---------------------------------------------------------

def start_adjudicator(env: dict, log_dir: Path, profile: str | None) -> subprocess.Popen:
    code = (PROFILED.format(root=str(ROOT), out=profile) if profile else LAUNCH.format(root=str(ROOT)))
    log = open(log_dir / "adjudicator.log", "ab")
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=log, stderr=subprocess.STDOUT)


async def drive(target: str, server_pid: int) -> None:
    from adjudicator.client import AdjudicatorClient

    async with AdjudicatorClient(target) as client:
        games = [f"cpu{uuid.uuid4().hex[:8]}" for _ in range(CLIENTS * GAMES_PER_CLIENT)]
        for game_id in games:
            await client.create_game(game_id, "testjack", ["ann"], {})
            await client.submit(game_id, "ann", {"type": "Think"})      # each game is in the cache

        async def window() -> tuple[int, float, float]:
            done, stop_at = [0], time.perf_counter() + WINDOW

            async def player(mine: list[str]) -> None:
                turn = 0
                while time.perf_counter() < stop_at and done[0] < MAX_COMMANDS:
                    await client.submit(mine[turn % len(mine)], "ann", {"type": "Think"})
                    done[0], turn = done[0] + 1, turn + 1

            cpu, started = cpu_seconds(server_pid), time.perf_counter()
            await asyncio.gather(*(player(games[c::CLIENTS]) for c in range(CLIENTS)))
            elapsed, spent = time.perf_counter() - started, cpu_seconds(server_pid) - cpu
            return done[0], spent / max(done[0], 1), elapsed

        results = [await window() for _ in range(RUNS)]
    print(f"the adjudicator's CPU per accepted command ({CLIENTS} gRPC clients back to back, one-seat "
          f"Testjack `Think`: decide + append + reply; {RUNS} windows of {WINDOW:.0f} s):")
    spread("server process CPU time per command", [r[1] * 1e3 for r in results], " ms", 3)
    spread("commands per second (all clients, this machine)", [r[0] / r[2] for r in results], "", 0)


def adjudicator_cpu(url: str, namespace: str) -> None:
    profile = os.environ.get("BENCH_PLATFORM_PROFILE")
    with tempfile.TemporaryDirectory(prefix="bench-platform-") as work:
        grpc_port, health_port = free_port(), free_port()
        env = {**os.environ, "NATS_URL": url, "LOG_LEVEL": "warning", "ADJUDICATOR_HOST": "127.0.0.1",
               "ADJUDICATOR_PORT": str(grpc_port), "ADJUDICATOR_HEALTH_PORT": str(health_port),
               "EVENT_STREAM": f"{namespace}_S", "EVENT_SUBJECT_PREFIX": f"{namespace}s",
               "SEED_BUCKET": f"{namespace}_seeds",
               # An open server (the store's own cost is measured, not authentication's: bench_security)
               # and a metrics port of its own, never the default one another process may hold.
               "INSECURE_DEV_MODE": "true", "METRICS_PORT": str(free_port())}
        child = start_adjudicator(env, Path(work), profile)
        try:
            wait_ready(f"http://127.0.0.1:{health_port}/readyz", child)
            asyncio.run(drive(f"127.0.0.1:{grpc_port}", child.pid))
        finally:
            child.terminate()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
    if profile:
        print(f"  (cProfile of the server written to {profile})")


def main() -> None:
    wanted = set(sys.argv[1:]) or {"appends", "cold", "cpu"}
    namespace = f"BENCH{uuid.uuid4().hex[:6]}"
    testjack.register()
    configure_logging("bench", "warning", json=False)
    with NatsServer() as server:
        print(f"nats-server {server.url}, JetStream file store, sync_interval always (loopback)")
        if "appends" in wanted:
            asyncio.run(appends(server.url, namespace))
        if "cold" in wanted:
            cold_games(namespace)
        if "cpu" in wanted:
            adjudicator_cpu(server.url, namespace)


if __name__ == "__main__":
    main()
