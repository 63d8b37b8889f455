"""`python -m clock`: apply the engine's default when a player's decision time runs out.

Environment: NATS_URL, EVENT_STREAM, EVENT_SUBJECT_PREFIX, ADJUDICATOR_TARGET (127.0.0.1:50051),
CLOCK_DEFAULT_SECONDS (0: tables without a `decision_seconds` option have no clock), CLOCK_TICK_SECONDS
(0.5), CLOCK_HEALTH_PORT (8085: /healthz, /readyz), CLOCK_HEALTH_HOST, METRICS_HOST, METRICS_PORT (9105),
SHUTDOWN_GRACE (10 s), LOG_LEVEL, LOG_JSON; credentials (docs/security.md): NATS_NKEY_FILE,
ADJUDICATOR_TOKEN_FILE, ADJUDICATOR_TLS with the TLS_* files (refused when missing unless INSECURE_DEV_MODE).
The clock runs under a supervisor, as its follow of the store does inside it: a failure (NATS away at
start, say) is logged and retried with back-off, and `/readyz` answers 503 until it runs again.
SIGTERM or SIGINT: stop following, finish the default in flight, close.
"""
from __future__ import annotations

import asyncio

from adjudicator.client import AdjudicatorClient
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.config import CoreSettings
from starbase_core.connections import nats_auth
from starbase_core.health import HealthServer
from starbase_core.logging import configure_logging
from starbase_core.service_main import service_main
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.supervise import Supervisor


class ClockSettings(CoreSettings):
    adjudicator_target: str = "127.0.0.1:50051"
    clock_default_seconds: float = 0.0
    clock_tick_seconds: float = 0.5
    clock_health_port: int = 8085
    clock_health_host: str = "0.0.0.0"
    shutdown_grace: float = 10.0
    adjudicator_token_file: str = ""        # the clock's caller secret for the adjudicator
    metrics_port: int = 9105


NEEDS = ("nats", "adjudicator_client")


async def serve(settings: ClockSettings, stop: asyncio.Event) -> None:
    log = configure_logging("clock", settings.log_level, settings.log_json)
    store = await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                              subject_prefix=settings.event_subject_prefix,
                                              replicas=settings.store_replicas, auth=nats_auth(settings, "clock"))
    adjudicator = AdjudicatorClient.from_settings(settings, nats=store._nc)

    clock = DecisionClock(store, adjudicator.submit, Tracker(settings.clock_default_seconds),
                          tick_seconds=settings.clock_tick_seconds)

    supervisor = Supervisor("clock")

    async def ready() -> bool:
        return store._nc.is_connected and clock.caught_up and supervisor.healthy() and clock.healthy()

    health = await HealthServer(settings.clock_health_port, ready, settings.clock_health_host).start()
    # Once: `run` returns only when `stop` is set; if it raises, it is run again.
    supervisor.start("decide", lambda: clock.run(stop), once=True)
    log.info("clock_started", health_port=health.port, adjudicator=settings.adjudicator_target,
             default_seconds=settings.clock_default_seconds)
    try:
        await stop.wait()
    finally:
        log.info("clock_stopping")
        stop.set()
        await supervisor.stop(grace=settings.shutdown_grace)   # the default in flight is finished first
        await health.stop()
        await adjudicator.close()
        await store.close()
        log.info("clock_stopped")


async def main() -> None:
    await service_main(ClockSettings, NEEDS, "clock", serve)


if __name__ == "__main__":
    asyncio.run(main())
