"""Wiring: the adapters the service runs on, built once at startup from the settings (and torn down).

The background tasks, the hourglass watch and the bot seats' building (`bot_seats.py`), run under a
supervisor (`starbase_core.supervise`): if one fails it is restarted with back-off and `/readyz` answers
503 meanwhile. The relay and the fan-out
have no task of their own: the relay runs inside the moves that wait on it, and the fan-out inside
NATS subscription callbacks, each of which catches its own failures.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import structlog
from nats.aio.client import Client as NATS
from redis.asyncio import BlockingConnectionPool, Redis

from starbase_core.bus import connect_nats
from starbase_core.collector import quieter_gc
from starbase_core.connections import nats_auth, redis_options
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.supervise import Supervisor

from trucker.auth import Authenticator
from trucker.bot_seats import BotSeats
from trucker.fanout import TableHub
from trucker.probe import Probe, install as install_probe
from trucker.relay import Relay
from starbase_core.script_line import ScriptLine
from trucker.settings import TruckerSettings
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse

log = structlog.get_logger(__name__)
IDLE_LOOK = 10.0    # seconds: the longest a served table goes without a look at its hourglass


@dataclass
class Runtime:
    settings: TruckerSettings
    redis: Redis
    nc: NATS
    store: JetStreamEventStore
    hub: TableHub
    service: TableService
    auth: Authenticator
    supervisor: Supervisor = field(default_factory=lambda: Supervisor("trucker"))
    bots: BotSeats | None = None
    probe: Probe | None = None
    stopping: bool = False
    active: dict[str, float] = field(default_factory=dict)   # games this replica served lately
    _next_check: dict[str, float] = field(default_factory=dict)   # when to look at each hourglass again

    @classmethod
    async def start(cls, settings: TruckerSettings) -> "Runtime":
        probe = install_probe() if settings.trucker_probe_file else None     # before the parts it times are built
        # A bounded pool that makes callers wait for a free connection (rather than fail) under bursts.
        # `driver_info=None`: no CLIENT SETINFO on a new connection. redis-py reads its own version from
        # the package metadata for it (an email-header parse, ~5-10 ms of CPU) on every connection it
        # opens, and the pool opens new ones exactly when the service is busiest.
        pool = BlockingConnectionPool.from_url(settings.redis_url, decode_responses=True, timeout=20,
                                               max_connections=settings.trucker_redis_connections,
                                               health_check_interval=10, driver_info=None,
                                               **redis_options(settings))
        redis = Redis(connection_pool=pool)
        # No echo: what this replica publishes (its relay's events, to the tables' other replicas) it has
        # delivered to its own connections already (`fanout.TableHub.publish`); coming back, each
        # message cost nats-server a delivery and this process a read, a parse and a callback per move.
        nc = await connect_nats(settings.nats_url, name="trucker", auth=nats_auth(settings, "trucker"),
                                no_echo=True)
        store = JetStreamEventStore(nc, name=settings.event_stream, subject_prefix=settings.event_subject_prefix,
                                    replicas=settings.store_replicas)
        await store.ensure()
        hub = TableHub(nc, store, settings.trucker_bus_prefix)
        warehouse = RedisWarehouse(redis, ScriptLine(redis))
        vault = await JetStreamSeedVault(nc, bucket=settings.seed_bucket, replicas=settings.store_replicas).ensure()
        service = TableService(warehouse, store, Relay(warehouse, store, hub.publish), vault)
        runtime = cls(settings, redis, nc, store, hub, service, Authenticator(settings))
        runtime.supervisor.start("hourglasses", runtime._watch_hourglasses)
        runtime.bots = BotSeats(service, redis, settings.trucker_bot_move_seconds, runtime.touch)
        runtime.supervisor.start("bot-seats", runtime.bots.run)
        quieter_gc()
        if probe is not None:
            runtime.probe = probe
            probe.start()
        return runtime

    def touch(self, game: str) -> None:
        self.active[game] = time.monotonic()

    async def ready(self) -> bool:
        return (bool(await self.redis.ping()) and self.nc.is_connected and not self.stopping
                and self.supervisor.healthy())

    async def _watch_hourglasses(self) -> None:
        """When the sand runs out on START building stops at once: every replica watches the tables it
        served lately and the first to see it records the end (the script makes the rest no-ops)."""
        while True:
            await asyncio.sleep(self.settings.trucker_clock_interval)
            now = time.monotonic()
            for game, seen in list(self.active.items()):
                if now - seen > 600:
                    del self.active[game]
                    self._next_check.pop(game, None)
                    continue
                if now < self._next_check.get(game, 0):
                    continue
                try:
                    self._next_check[game] = now + await self._check_hourglass(game)
                except Exception:  # a table's trouble must not stop the watch over the others
                    log.exception("hourglass_check_failed", game=game)

    async def _check_hourglass(self, game: str) -> float:
        """Stop building if the sand ran out on START; returns how long until this table needs a look.
        Away from START the sand cannot end building before it has run out where it is (the hourglass
        is turned only once its sand has run out, and then runs a whole run): look again when it has
        (at most IDLE_LOOK seconds on, for a table left `ending` by a replica that died), else every
        2 s. Every table's read was every 2 s: at 250 paced tables a Redis call for every fifth move."""
        line = self.service.warehouse.line      # the tables' reads: not through the pool
        assert line is not None                 # (`start` always gives the warehouse one)
        status, space, runs_out_at = await line.call("HMGET", f"trucker:{{{game}}}:meta", "status",
                                                     "timer_space", "runs_out_at")
        if status == "ending":
            await self.service.conclude(game)
            return 0.0
        if status != "building" or not runs_out_at:
            return 2.0
        seconds, micros = await line.call("TIME")
        left = float(runs_out_at) - (int(seconds) + int(micros) / 1e6)
        if space != "0":
            return min(IDLE_LOOK, max(2.0, left))
        if left <= 0:
            await self.service.stop_if_due(game)
            return 0.0
        return left

    async def stop(self) -> None:
        """Graceful: stop taking moves, move every pending event to the store, close the connections."""
        self.stopping = True
        if self.probe is not None:
            self.probe.stop()
            self.probe.write(self.settings.trucker_probe_file)
        await self.supervisor.stop()
        for game in list(self.active):
            try:
                await asyncio.wait_for(self.service.relay.flush(game), self.settings.trucker_shutdown_grace)
            except Exception:  # the warehouse may be gone: nothing left to move
                log.warning("flush_at_shutdown_failed", game=game)
        await self.store.close()
        if not self.nc.is_closed:
            await self.nc.drain()
        if self.service.warehouse.line is not None:
            await self.service.warehouse.line.aclose()
        await self.redis.aclose()
