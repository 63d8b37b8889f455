"""Scoring as a durable JetStream consumer: what `python -m scoring` runs in production.

A durable pull consumer (`scoring` by default) on the event store's game subjects: the NATS server
keeps the consumer's place, so a restarted (or rescheduled) scoring pod resumes where the last one
acknowledged. Each JetStream message is one append (a JSON list of envelopes, see
`starbase_core.store_jetstream`); it is acknowledged only after every envelope in it is handled,
and handling is idempotent on (stream, seq), so a redelivery after a crash scores nothing twice.
Messages are handled one at a time in stream order, which keeps ratings reproducible by a rebuild.

Two promises on top of that:
- **Quick resumption.** `ack_wait` is short (ACK_WAIT), so the batch a killed process had fetched is
  redelivered within seconds, not a minute; a batch that takes longer keeps its messages with
  `in_progress` heartbeats; a batch that fails is handed back at once (`nak`).
- **Redis may forget; scoring notices.** Next to the projection, Redis holds a marker: the stream
  sequence of the last message whose effects it holds. It is written after the effects and before
  the acknowledgements, so it never lags what the server counts as done (the consumer's ack floor)
  unless Redis lost writes. `run` compares them first: marker gone → the projection is dropped and
  every game is scored again from the start; marker behind the ack floor (Redis came back from an
  older append-only file, which holds a prefix of its writes) → the consumer restarts after the
  marker. While running, a marker that disappears (Redis wiped under us) stops `run` with
  `ProjectionLost`, and its supervisor's restart rebuilds. Either way every game counts once.

`run` raises on any failure (NATS or Redis gone): it is meant to run under a `Supervisor`, which
restarts it with back-off and reports it down meanwhile. `reset` deletes the consumer, so the next
`run` starts again from the first game.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any

import structlog
from nats.errors import TimeoutError as NatsTimeout
from nats.js import api
from nats.js.errors import NotFoundError
from prometheus_client import Counter, Gauge

from starbase_core.batches import finish_shielded, keep_alive, quietly, raise_if_cancelled
from starbase_core.envelope import Envelope
from starbase_core.store_jetstream import JetStreamEventStore

from scoring.consumer import ScoringConsumer

log = structlog.get_logger(__name__)
REBUILDS = Counter("scoring_rebuilds_total", "Rebuilds after Redis lost the projection", ["kind"])
# How far scoring is behind the store: the consumer's pending messages after the last one fetched (0 when
# a fetch finds nothing). The alert on it is how an operator learns that leaderboards are going stale.
LAG = Gauge("scoring_consumer_lag_messages", "Store messages not yet delivered to scoring")
BATCH = 100
ACK_WAIT = 5.0              # seconds before the server hands an unacknowledged message to someone else
HEARTBEAT = ACK_WAIT / 3    # a batch in hand tells the server it is still working this often
FETCH_TIMEOUT = 2.0         # also how often an idle consumer checks that Redis still holds the marker

# Move the marker forward, only if it still exists (a missing one means Redis was wiped under us).
_ADVANCE = ("if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
            "if tonumber(ARGV[1]) > tonumber(redis.call('GET', KEYS[1])) then "
            "redis.call('SET', KEYS[1], ARGV[1]) end return 1")


class ProjectionLost(Exception):
    """Redis no longer holds the marker: what scoring wrote may be gone; rebuild."""


class DurableScoring:
    def __init__(self, store: JetStreamEventStore, consumer: ScoringConsumer, durable: str = "scoring"):
        self.store, self.consumer, self.durable = store, consumer, durable
        self.ledger = consumer.ledger
        self._js = store._nc.jetstream()
        self.handled = 0
        self.marker = self.ledger.key("consumed", durable)

    async def reset(self) -> None:
        try:
            await self._js.delete_consumer(self.store.name, self.durable)
        except NotFoundError:
            pass

    async def run(self) -> None:
        """Reconcile with Redis, then pull, handle, acknowledge, until cancelled (the batch in hand is
        finished first). Raises when NATS or Redis fail, or when Redis lost the projection."""
        subscription = await self._subscribe()
        try:
            while True:
                raise_if_cancelled()
                try:
                    messages = await subscription.fetch(BATCH, timeout=FETCH_TIMEOUT)
                except (NatsTimeout, asyncio.TimeoutError):
                    LAG.set(0)
                    await self._check_marker()       # idle: did Redis lose the projection meanwhile?
                    continue
                # Shielded (starbase_core.batches): a stop never lands inside a Redis call.
                LAG.set(messages[-1].metadata.num_pending)
                await finish_shielded(self._handle_batch(messages))
        finally:
            try:
                await subscription.unsubscribe()
            except Exception:   # the connection is gone already: nothing to release
                pass

    # ---- reconciling with Redis -------------------------------------------------------------------

    async def _subscribe(self) -> Any:
        marked = await self.ledger.redis.get(self.marker)
        info = await self._consumer_info()
        floor = info.ack_floor.stream_seq if info is not None and info.ack_floor else 0
        if marked is None:
            if floor or info is None:
                # Redis was wiped (or this is a first start): score every game again, from nothing.
                await self.ledger.reset()
                await self.reset()
                info = None
                if floor:
                    REBUILDS.labels("wiped").inc()
                    log.warning("scoring_projection_lost", acknowledged=floor, action="rebuild from the start")
            await self.ledger.redis.set(self.marker, 0, nx=True)
            start = 1
        elif int(marked) < floor:
            # Redis came back from an older file: it holds a prefix of what it was told. Go on after it.
            await self.reset()
            info = None
            start = int(marked) + 1
            REBUILDS.labels("behind").inc()
            log.warning("scoring_projection_behind", marker=int(marked), acknowledged=floor,
                        action="consume again after the marker")
        else:
            start = 1
        await self._ensure_consumer(info, start)
        return await self._js.pull_subscribe_bind(durable=self.durable, stream=self.store.name)

    async def _consumer_info(self) -> Any:
        try:
            return await self._js.consumer_info(self.store.name, self.durable)
        except NotFoundError:
            return None

    async def _ensure_consumer(self, info: Any, start: int) -> None:
        if info is not None:
            if info.config.ack_wait != ACK_WAIT:   # made by an older scoring: shorten its ack wait
                await self._js.add_consumer(self.store.name, info.config.evolve(ack_wait=ACK_WAIT))
            return
        config = api.ConsumerConfig(
            durable_name=self.durable, filter_subject=f"{self.store.prefix}.game.>",
            ack_policy=api.AckPolicy.EXPLICIT, max_ack_pending=BATCH, ack_wait=ACK_WAIT,
            deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE if start > 1 else api.DeliverPolicy.ALL,
            opt_start_seq=start if start > 1 else None)
        try:
            await self._js.add_consumer(self.store.name, config)
        except Exception:
            # Another replica made it first (with the same start: it read the same marker): use theirs.
            if await self._consumer_info() is None:
                raise

    async def _check_marker(self) -> None:
        if not await self.ledger.redis.exists(self.marker):
            raise ProjectionLost("the scoring marker vanished from Redis")

    # ---- a batch ------------------------------------------------------------------------------------

    async def _handle_batch(self, messages) -> None:
        heartbeat = keep_alive(messages, HEARTBEAT)
        try:
            await self._check_marker()
            for message in messages:
                items = json.loads(message.data)
                # One message is one append: its first event keeps the trace of the command (its meta).
                trace_meta = items[0].get("meta") if items else None
                for item in items:
                    await self.consumer.handle(Envelope.model_validate(item), trace_meta)
                    self.handled += 1
            last = max(message.metadata.sequence.stream for message in messages)
            if await self.ledger.redis.eval(_ADVANCE, 1, self.marker, last) == -1:
                raise ProjectionLost("the scoring marker vanished from Redis during a batch")
        except BaseException:
            await quietly(*(message.nak() for message in messages))   # redeliver now, not after ack_wait
            raise
        finally:
            heartbeat.cancel()
        for message in messages:
            await message.ack()
