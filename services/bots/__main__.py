"""`python -m bots`: play bot-held seats and forced moves in every game, off the players' request path.

Environment: NATS_URL, EVENT_STREAM, EVENT_SUBJECT_PREFIX, STORE_REPLICAS, ADJUDICATOR_TARGET
(127.0.0.1:50051), BOTS_DURABLE (bots: the durable consumer's name, shared by replicas),
BOTS_HEALTH_PORT (8087: /healthz, /readyz), BOTS_HEALTH_HOST, METRICS_HOST, METRICS_PORT (9107),
SHUTDOWN_GRACE (10 s), LOG_LEVEL, LOG_JSON; credentials (docs/security.md): NATS_NKEY_FILE,
ADJUDICATOR_TOKEN_FILE (the bot worker is a caller of its own), ADJUDICATOR_TLS with the TLS_* files
(refused when missing unless INSECURE_DEV_MODE). The worker runs under a supervisor: a failure (NATS or the adjudicator away) is logged and
retried with back-off, and `/readyz` answers 503 until it runs again. SIGTERM or SIGINT: finish the
batch in hand, close.
"""
from __future__ import annotations

import asyncio

from adjudicator.client import AdjudicatorClient
from bots.worker import BotWorker
from starbase_core.config import CoreSettings
from starbase_core.connections import nats_auth
from starbase_core.health import HealthServer
from starbase_core.logging import configure_logging
from starbase_core.service_main import service_main
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.supervise import Supervisor


class BotSettings(CoreSettings):
    adjudicator_target: str = "127.0.0.1:50051"
    bots_durable: str = "bots"
    bots_health_port: int = 8087
    bots_health_host: str = "0.0.0.0"
    shutdown_grace: float = 10.0
    adjudicator_token_file: str = ""        # the bot worker's caller secret for the adjudicator
    metrics_port: int = 9107


NEEDS = ("nats", "adjudicator_client")


async def serve(settings: BotSettings, stop: asyncio.Event) -> None:
    log = configure_logging("bots", settings.log_level, settings.log_json)
    store = await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                              subject_prefix=settings.event_subject_prefix,
                                              replicas=settings.store_replicas, auth=nats_auth(settings, "bots"))
    adjudicator = AdjudicatorClient.from_settings(settings, nats=store._nc)
    worker = BotWorker(store, adjudicator.submit, durable=settings.bots_durable)
    supervisor = Supervisor("bots")

    async def ready() -> bool:
        return store._nc.is_connected and supervisor.healthy()

    health = await HealthServer(settings.bots_health_port, ready, settings.bots_health_host).start()
    supervisor.start("play", worker.run)
    log.info("bots_started", health_port=health.port, adjudicator=settings.adjudicator_target,
             durable=settings.bots_durable)
    try:
        await stop.wait()
    finally:
        log.info("bots_stopping")
        await supervisor.stop(grace=settings.shutdown_grace)
        await health.stop()
        await adjudicator.close()
        await store.close()
        log.info("bots_stopped", handled=worker.handled)


async def main() -> None:
    await service_main(BotSettings, NEEDS, "bots", serve)


if __name__ == "__main__":
    asyncio.run(main())
