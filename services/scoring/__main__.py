"""`python -m scoring [--rebuild]`: score every finished game, for ever; health on SCORING_HEALTH_PORT.

It runs as a durable JetStream consumer (`scoring/durable.py`; the server keeps its place), under a
supervisor: if NATS or Redis fail, the consumer is restarted with back-off and `/readyz` answers 503
until it runs again; if Redis lost the projection, the restart rebuilds it by itself.
`--rebuild` first drops the scoring projection in Redis and the durable consumer, so every game is
replayed from the start of the store and ratings, leaderboards and histories are rebuilt (the same
ones: scoring is idempotent and keeps stream order). SIGTERM or Ctrl-C: finish the batch in hand, close.
Metrics on METRICS_PORT (9102). It refuses to start without its NATS and Redis credentials
(NATS_NKEY_FILE, REDIS_USERNAME, REDIS_PASSWORD_FILE; docs/security.md) unless INSECURE_DEV_MODE=true.
"""
from __future__ import annotations

import argparse
import asyncio
import signal

from redis.asyncio import Redis

from starbase_core.connections import nats_auth, redis_options
from starbase_core.credentials import require
from starbase_core.health import HealthServer, serve_metrics
from starbase_core.logging import configure_logging
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.supervise import Supervisor

from scoring.config import NEEDS, ScoringSettings, load_settings
from scoring.consumer import ScoringConsumer
from scoring.durable import DurableScoring
from scoring.ledger import Ledger


async def serve(settings: ScoringSettings, stop: asyncio.Event, rebuild: bool = False) -> None:
    log = configure_logging("scoring", settings.log_level, settings.log_json)
    store = await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                              subject_prefix=settings.event_subject_prefix,
                                              replicas=settings.store_replicas, auth=nats_auth(settings, "scoring"))
    redis = Redis.from_url(settings.redis_url, decode_responses=True, **redis_options(settings))
    ledger = Ledger(redis, settings.scoring_prefix)
    consumer = ScoringConsumer(store, ledger)
    durable = DurableScoring(store, consumer, settings.scoring_durable)
    if rebuild:
        await ledger.reset()
        await durable.reset()
        log.info("scoring_rebuild_started")

    supervisor = Supervisor("scoring")

    async def ready() -> bool:
        return supervisor.healthy() and bool(await redis.ping()) and store._nc.is_connected

    health = await HealthServer(settings.scoring_health_port, ready, settings.scoring_health_host).start()
    supervisor.start("consume", durable.run)
    log.info("scoring_started", health_port=health.port, durable=settings.scoring_durable)
    try:
        await stop.wait()
    finally:
        await supervisor.stop()
        await health.stop()
        await store.close()
        await redis.aclose()
        log.info("scoring_stopped", handled=durable.handled)


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__.splitlines()[0])
    parser.add_argument("--rebuild", action="store_true", help="drop the projection and replay every game")
    args = parser.parse_args(argv)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    settings = load_settings()
    require(settings, NEEDS, "scoring")
    serve_metrics(settings.metrics_host, settings.metrics_port)
    await serve(settings, stop, args.rebuild)


if __name__ == "__main__":
    asyncio.run(main())
