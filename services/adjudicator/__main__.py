"""`python -m adjudicator`: the gRPC adjudicator; /healthz and /readyz on a side port, /metrics on another.

Environment: NATS_URL, ADJUDICATOR_PORT (50051), ADJUDICATOR_HEALTH_PORT (8081), ADJUDICATOR_HOST,
METRICS_HOST, METRICS_PORT (9101), EVENT_STREAM, EVENT_SUBJECT_PREFIX, STORE_REPLICAS, SEED_BUCKET,
CACHE_GAMES, SNAPSHOT_EVERY (256 events; 0: no snapshots; they go to the KV bucket <EVENT_STREAM>_snapshots),
ADJUDICATOR_SUBJECT (Submit over NATS: `nats_door.py`), LOG_LEVEL, LOG_JSON; credentials
(docs/security.md): NATS_NKEY_FILE, ADJUDICATOR_CALLERS_FILE (who may call), ADJUDICATOR_TLS with
TLS_CA_FILE, TLS_CERT_FILE, TLS_KEY_FILE. It refuses to start without them unless INSECURE_DEV_MODE=true.
SIGTERM or SIGINT: stop taking calls (the NATS door says goodbye first, so callers place its games
elsewhere), finish the ones in flight (grace period), then close the store.
ADJUDICATOR_EVENT_LOOP: `uvloop` (the default, when installed) or `asyncio` (see `run`).
"""
from __future__ import annotations

import asyncio
import os
import signal
from typing import Callable, Coroutine

from adjudicator.nats_door import SubmitDoor
from adjudicator.server import start_grpc_server
from adjudicator.service import Adjudicator
from starbase_core.callers import load_callers
from starbase_core.collector import quieter_gc
from starbase_core.config import CoreSettings, from_env
from starbase_core.connections import nats_auth, tls_files
from starbase_core.credentials import require
from starbase_core.health import HealthServer, serve_metrics
from starbase_core.logging import configure_logging
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.snapshots import JetStreamSnapshotBucket, Snapshots
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.registry import get_game


class AdjudicatorSettings(CoreSettings):
    adjudicator_host: str = "0.0.0.0"
    adjudicator_port: int = 50051
    adjudicator_health_port: int = 8081
    cache_games: int = 1000
    snapshot_every: int = 256          # events between two snapshots of a game (0: none)
    shutdown_grace: float = 10.0
    adjudicator_callers_file: str = ""      # who may call, and what (starbase_core.callers)
    metrics_port: int = 9101


NEEDS = ("nats", "adjudicator_server")


async def serve(settings: AdjudicatorSettings, stop: asyncio.Event, wrap_store=None,
                started: Callable[[], None] | None = None) -> None:
    """Run until `stop` is set. `wrap_store` lets a test put a fault-injecting shim around the store;
    `started` is called once it serves (`main`: `quieter_gc`, for its own process only)."""
    log = configure_logging("adjudicator", settings.log_level, settings.log_json)
    store = await JetStreamEventStore.connect(
        settings.nats_url, name=settings.event_stream, subject_prefix=settings.event_subject_prefix,
        replicas=settings.store_replicas, auth=nats_auth(settings, "adjudicator"),
    )
    vault = await JetStreamSeedVault(store._nc, settings.seed_bucket, settings.store_replicas).ensure()
    snapshots = await Snapshots.open(await JetStreamSnapshotBucket(
        store._nc, f"{settings.event_stream}_snapshots", settings.store_replicas).ensure(), vault, get_game)
    adjudicator = Adjudicator(wrap_store(store) if wrap_store else store, vault,
                              cache_size=settings.cache_games, snapshots=snapshots,
                              snapshot_every=settings.snapshot_every)

    async def ready() -> bool:
        return store._nc.is_connected

    health = await HealthServer(settings.adjudicator_health_port, ready, settings.adjudicator_host).start()
    callers = load_callers(settings.adjudicator_callers_file) if settings.adjudicator_callers_file else None
    tls = tls_files(settings) if settings.adjudicator_tls else None
    if settings.adjudicator_tls and tls is None:
        raise ValueError("ADJUDICATOR_TLS needs TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE")
    server, port = await start_grpc_server(adjudicator, settings.adjudicator_port, settings.adjudicator_host,
                                           callers=callers, tls=tls)
    door = await SubmitDoor(adjudicator, store._nc, settings.adjudicator_subjects, callers=callers).start()
    log.info("adjudicator_started", grpc_port=port, health_port=health.port, callers_checked=callers is not None,
             tls=tls is not None, event_loop=type(asyncio.get_running_loop()).__module__,
             nats_subject=settings.adjudicator_subjects, replica=door.replica)
    if started is not None:
        started()
    try:
        await stop.wait()
    finally:
        log.info("adjudicator_stopping", grace=settings.shutdown_grace)
        await asyncio.gather(door.stop(settings.shutdown_grace), server.stop(settings.shutdown_grace))
        await adjudicator.close()
        await health.stop()
        await store.close()
        log.info("adjudicator_stopped")


async def main(wrap_store=None) -> None:
    settings = from_env(AdjudicatorSettings)
    require(settings, NEEDS, "adjudicator")
    serve_metrics(settings.metrics_host, settings.metrics_port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await serve(settings, stop, wrap_store, started=quieter_gc)


EVENT_LOOPS = ("uvloop", "asyncio")


def run(coroutine: Coroutine) -> None:
    """Run the adjudicator's coroutine to its end on uvloop (installed with uvicorn[standard]), or on
    asyncio's own loop when uvloop is missing or ADJUDICATOR_EVENT_LOOP=asyncio.

    Why uvloop: a command is a handful of loop turns (gRPC's completion of the request, the task that
    decides it, nats-py's flusher and reader, the ack, the reply), and the pure-Python loop's bookkeeping
    of each turn (selector, handles, transports) is a measurable part of what a command costs; uvloop's
    loop, in C, cut the adjudicator's CPU per command by 5-8% side by side
    (benchmarks/bench_adjudicator_cpu.py, docs/platform.md). grpc.aio and nats-py run on either."""
    choice = os.environ.get("ADJUDICATOR_EVENT_LOOP", "uvloop").strip().lower() or "uvloop"
    if choice not in EVENT_LOOPS:
        coroutine.close()
        raise SystemExit(f"ADJUDICATOR_EVENT_LOOP must be one of {', '.join(EVENT_LOOPS)}, not {choice!r}")
    if choice == "uvloop":
        try:
            import uvloop
        except ImportError:     # an install without uvicorn[standard]: the standard loop does the same work
            pass
        else:
            uvloop.run(coroutine)
            return
    asyncio.run(coroutine)


if __name__ == "__main__":
    run(main())
