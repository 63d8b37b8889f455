"""`python -m clock`: apply the engine's default when a player's decision time runs out.

Environment: NATS_URL, EVENT_STREAM, EVENT_SUBJECT_PREFIX, ADJUDICATOR_TARGET (127.0.0.1:50051),
CLOCK_DEFAULT_SECONDS (0: tables without a `decision_seconds` option have no clock), CLOCK_TICK_SECONDS
(0.5), CLOCK_HEALTH_PORT (8085: /healthz, /readyz, /metrics), CLOCK_HEALTH_HOST, SHUTDOWN_GRACE (10 s), LOG_LEVEL, LOG_JSON.
SIGTERM or SIGINT: stop following, finish the default in flight, close.
"""
from __future__ import annotations

import asyncio
import signal

from adjudicator.client import AdjudicatorClient
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.config import CoreSettings, from_env
from starbase_core.health import HealthServer
from starbase_core.logging import configure_logging
from starbase_core.store_jetstream import JetStreamEventStore


class ClockSettings(CoreSettings):
    adjudicator_target: str = "127.0.0.1:50051"
    clock_default_seconds: float = 0.0
    clock_tick_seconds: float = 0.5
    clock_health_port: int = 8085
    clock_health_host: str = "0.0.0.0"
    shutdown_grace: float = 10.0


async def serve(settings: ClockSettings, stop: asyncio.Event) -> None:
    log = configure_logging("clock", settings.log_level, settings.log_json)
    store = await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                              subject_prefix=settings.event_subject_prefix,
                                              replicas=settings.store_replicas)
    adjudicator = AdjudicatorClient(settings.adjudicator_target)

    clock = DecisionClock(store, adjudicator.submit, Tracker(settings.clock_default_seconds),
                          tick_seconds=settings.clock_tick_seconds)

    async def ready() -> bool:
        return store._nc.is_connected and clock.caught_up

    health = await HealthServer(settings.clock_health_port, ready, settings.clock_health_host).start()
    task = asyncio.create_task(clock.run(stop), name="clock")
    log.info("clock_started", health_port=health.port, adjudicator=settings.adjudicator_target,
             default_seconds=settings.clock_default_seconds)
    try:
        await asyncio.shield(task)   # returns when `stop` is set, or raises when the clock failed
    finally:
        log.info("clock_stopping")
        stop.set()
        try:
            await asyncio.wait_for(task, settings.shutdown_grace)
        except BaseException:   # past the grace period (or already failed): stop it now
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await health.stop()
        await adjudicator.close()
        await store.close()
        log.info("clock_stopped")


async def main() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await serve(from_env(ClockSettings), stop)


if __name__ == "__main__":
    asyncio.run(main())
