"""`python -m notifier`: tell players when it is their turn (and more), by signed webhook and e-mail.

`python -m notifier dead-letters [--player ID] [--after N] [--limit N]` lists dead letters (JSON lines).
Settings: docs/notifier.md. Health and readiness on NOTIFIER_HEALTH_PORT (8086), metrics on METRICS_PORT
(9106); its NATS user NATS_NKEY_FILE (refused when missing unless INSECURE_DEV_MODE). SIGTERM or
Ctrl-C: stop fetching, abandon deliveries in hand (they come back to the next notifier), close.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import signal
import uuid

from starbase_core.bus import connect_nats
from starbase_core.connections import nats_auth
from starbase_core.credentials import require
from starbase_core.health import HealthServer, serve_metrics
from starbase_core.logging import configure_logging
from starbase_core.store_jetstream import JetStreamEventStore

from notifier.causes import Causes
from notifier.claims import Claims
from notifier.clocklow import ClockLowWatch
from notifier.config import NEEDS, NotifierSettings, load_settings
from notifier.consumer import NotifierConsumer
from notifier.deadletters import DeadLetters
from notifier.delivery import Deliverer
from notifier.mailer import Mailer
from notifier.preferences import PreferenceStore
from notifier.responder import ProbeResponder
from notifier.webhook import WebhookSender
from starbase_core.supervise import cancel_and_wait


def mailer_of(settings: NotifierSettings) -> Mailer:
    return Mailer(settings.notifier_smtp_host, settings.notifier_smtp_port,
                  starttls=settings.notifier_smtp_starttls, use_ssl=settings.notifier_smtp_ssl,
                  username=settings.notifier_smtp_username, password=settings.notifier_smtp_password,
                  sender=settings.notifier_smtp_from, timeout=settings.notifier_smtp_timeout,
                  ca_file=settings.notifier_smtp_ca_file)


async def serve(settings: NotifierSettings, stop: asyncio.Event) -> None:
    log = configure_logging("notifier", settings.log_level, settings.log_json)
    store = await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                              subject_prefix=settings.event_subject_prefix,
                                              replicas=settings.store_replicas,
                                              auth=nats_auth(settings, "notifier"))
    nc = store._nc
    replicas = settings.notifier_storage_replicas
    preferences = await PreferenceStore(nc, settings.notifier_prefs_bucket, replicas).ensure()
    claims = await Claims(nc, settings.notifier_claims_bucket, replicas, settings.notifier_claims_days,
                          owner=uuid.uuid4().hex[:12]).ensure()
    dead = await DeadLetters(nc, settings.notifier_dead_stream, settings.notifier_dead_prefix, replicas).ensure()
    webhook = WebhookSender(settings.notifier_timeout_seconds, settings.notifier_response_max_bytes,
                            settings.notifier_allow_loopback)
    deliverer = Deliverer(settings, preferences, claims, dead, webhook, mailer_of(settings))
    causes = Causes(store, settings.notifier_turn_interval_seconds)
    consumer = NotifierConsumer(store, causes, deliverer, settings.notifier_durable, settings.notifier_in_flight,
                                settings.notifier_ack_wait_seconds)
    watch = ClockLowWatch(store, deliverer.deliver, settings.notifier_clock_low_seconds,
                          settings.notifier_clock_low_fraction, settings.notifier_clock_tick_seconds,
                          default_seconds=settings.clock_default_seconds)
    responder = await ProbeResponder(nc, deliverer, settings.notifier_test_subject).start()
    health_of_consumer = {"down": False}
    task = asyncio.create_task(supervised(consumer.run, log, health_of_consumer), name="notifier-consumer")
    watching = asyncio.create_task(watch.run(), name="notifier-clock-low")

    async def ready() -> bool:
        return nc.is_connected and not task.done() and not health_of_consumer["down"] and watch.healthy()

    health = await HealthServer(settings.notifier_health_port, ready, settings.notifier_health_host).start()
    log.info("notifier_started", health_port=health.port, durable=settings.notifier_durable,
             email=deliverer.mailer.enabled, loopback_webhooks=settings.notifier_allow_loopback)
    try:
        await stop.wait()
    finally:
        await cancel_and_wait([task, watching])
        await responder.stop()
        await health.stop()
        await webhook.close()
        await store.close()
        log.info("notifier_stopped", handled=consumer.handled)


async def supervised(work, log, health: dict, first_delay: float = 0.5, max_delay: float = 10.0) -> None:
    """Run `work` for ever: a failure (NATS gone, a consumer deleted) is logged, reported down (readiness)
    until the next try, and retried with back-off. (starbase_core.supervise, once merged, does this for
    every service: switch to it then.)"""
    delay = first_delay
    while True:
        try:
            health["down"] = False
            await work()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("notifier_consumer_failed", retry_in=delay)
        health["down"] = True
        await asyncio.sleep(delay)
        delay = min(delay * 2, max_delay)


async def list_dead_letters(settings: NotifierSettings, player: str | None, after: int, limit: int) -> None:
    nc = await connect_nats(settings.nats_url, name="starbase-notifier-cli", auth=nats_auth(settings, "notifier"))
    try:
        dead = await DeadLetters(nc, settings.notifier_dead_stream, settings.notifier_dead_prefix,
                                 settings.notifier_storage_replicas).ensure()
        for record in await dead.list(player, after, limit):
            print(json.dumps(record, sort_keys=True))
    finally:
        await nc.drain()


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m notifier", description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command")
    listing = commands.add_parser("dead-letters", help="list dead letters as JSON lines")
    listing.add_argument("--player", help="only this player's")
    listing.add_argument("--after", type=int, default=0, help="the last dead_letter_id seen")
    listing.add_argument("--limit", type=int, default=100)
    args = parser.parse_args(argv)
    settings = load_settings()
    if args.command == "dead-letters":
        await list_dead_letters(settings, args.player, args.after, args.limit)
        return
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    require(settings, NEEDS, "notifier")
    serve_metrics(settings.metrics_host, settings.metrics_port)
    await serve(settings, stop)


if __name__ == "__main__":
    asyncio.run(main())
