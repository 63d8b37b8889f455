"""Scoring as a durable JetStream consumer: what `python -m scoring` runs in production.

A durable pull consumer (`scoring` by default) on the event store's game subjects: the NATS server
keeps the consumer's place, so a restarted (or rescheduled) scoring pod resumes where the last one
acknowledged, whatever Redis holds. Each JetStream message is one append (a JSON list of envelopes,
see `starbase_core.store_jetstream`); it is acknowledged only after every envelope in it is handled,
and handling is idempotent on (stream, seq), so a redelivery after a crash scores nothing twice.
Messages are handled one at a time in stream order, which keeps ratings reproducible by a rebuild.
`reset` deletes the consumer, so the next `run` starts again from the first game.
"""
from __future__ import annotations

import asyncio
import json

import structlog
from nats.errors import TimeoutError as NatsTimeout
from nats.js import api
from nats.js.errors import NotFoundError

from starbase_core.envelope import Envelope
from starbase_core.store_jetstream import JetStreamEventStore

from scoring.consumer import ScoringConsumer

log = structlog.get_logger(__name__)
BATCH = 100


class DurableScoring:
    def __init__(self, store: JetStreamEventStore, consumer: ScoringConsumer, durable: str = "scoring"):
        self.store, self.consumer, self.durable = store, consumer, durable
        self._js = store._nc.jetstream()
        self.handled = 0

    async def reset(self) -> None:
        try:
            await self._js.delete_consumer(self.store.name, self.durable)
        except NotFoundError:
            pass

    async def run(self) -> None:
        """Pull, handle, acknowledge, for ever (cancel to stop; the batch in hand is finished first)."""
        subscription = await self._js.pull_subscribe(
            f"{self.store.prefix}.game.>", durable=self.durable, stream=self.store.name,
            config=api.ConsumerConfig(ack_policy=api.AckPolicy.EXPLICIT, deliver_policy=api.DeliverPolicy.ALL,
                                      max_ack_pending=BATCH, ack_wait=60))
        try:
            while True:
                try:
                    messages = await subscription.fetch(BATCH, timeout=2)
                except (NatsTimeout, asyncio.TimeoutError):
                    continue                        # nothing new: ask again
                # Shielded: a stop never lands inside a Redis call (see ScoringConsumer.run).
                step = asyncio.ensure_future(self._handle_batch(messages))
                try:
                    await asyncio.shield(step)
                except asyncio.CancelledError:
                    await asyncio.wait({step})
                    raise
        finally:
            await subscription.unsubscribe()

    async def _handle_batch(self, messages) -> None:
        for message in messages:
            for item in json.loads(message.data):
                await self.consumer.handle(Envelope.model_validate(item))
                self.handled += 1
            await message.ack()
