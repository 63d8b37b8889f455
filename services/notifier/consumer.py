"""The notifier as a durable JetStream consumer of the game and table streams.

A durable pull consumer (`notifier` by default) on `<prefix>.game.>` and `<prefix>.table.>`: the NATS
server keeps its place, so a restarted notifier resumes after the last acknowledged message, and any
number of replicas bound to the same consumer share the messages (each goes to one of them).

Messages are folded one at a time, in the order they arrive (`causes.Causes`), then their
notifications are delivered concurrently (at most NOTIFIER_IN_FLIGHT messages at once), so one slow
receiver delays nobody else. A message is acknowledged only when every notification it caused is
settled (sent, given up on, or not wanted); while deliveries retry, `in_progress` heartbeats keep the
server from handing it to someone else. When a claim is held by another sender the message is handed
back with a delay that ends with the holder's lease (`nak`), so a replica that died mid-send is taken
over then; a storage error hands it back after a few seconds. A crash loses nothing: unacknowledged
messages come back, and the claims make sure nothing goes out twice (docs/notifier.md, "exactly once").
"""
from __future__ import annotations

import asyncio

import structlog
from nats.errors import TimeoutError as NatsTimeout
from nats.js import api
from nats.js.errors import NotFoundError
from prometheus_client import Counter
from pydantic import TypeAdapter

from starbase_core import consumer_lag
from starbase_core.batches import raise_if_cancelled
from starbase_core.envelope import Envelope

from notifier.causes import Causes
from notifier.claims import Busy
from notifier.delivery import Deliverer
from starbase_core.supervise import cancel_and_wait

log = structlog.get_logger(__name__)
MESSAGES = Counter("notifier_messages_total", "Appends handled, by result", ["result"])
ENVELOPES = TypeAdapter(list[Envelope])
RETRY_SOON = 3.0            # seconds before a message whose delivery failed on storage comes back
FETCH = 50


class NotifierConsumer:
    def __init__(self, store, causes: Causes, deliverer: Deliverer, durable: str = "notifier",
                 in_flight: int = 256, ack_wait: float = 30.0):
        self.store, self.causes, self.deliverer = store, causes, deliverer
        self.durable, self.in_flight, self.ack_wait = durable, in_flight, ack_wait
        self._js = store._nc.jetstream()
        self._tasks: set[asyncio.Task] = set()
        self.handled = 0

    async def reset(self) -> None:
        try:
            await self._js.delete_consumer(self.store.name, self.durable)
        except NotFoundError:
            pass

    async def _subscribe(self):
        config = api.ConsumerConfig(
            durable_name=self.durable, ack_policy=api.AckPolicy.EXPLICIT, ack_wait=self.ack_wait,
            deliver_policy=api.DeliverPolicy.ALL, max_ack_pending=self.in_flight * 2,
            filter_subjects=[f"{self.store.prefix}.game.>", f"{self.store.prefix}.table.>"])
        try:
            await self._js.add_consumer(self.store.name, config)
        except Exception:
            # It exists already (another replica, an earlier run): bind to it as it is.
            await self._js.consumer_info(self.store.name, self.durable)
        return await self._js.pull_subscribe_bind(durable=self.durable, stream=self.store.name)

    async def run(self) -> None:
        """Fetch, fold, deliver, acknowledge, until cancelled (deliveries in hand are then abandoned
        unacknowledged: they come back to whoever runs next, and their claims resume after the lease)."""
        subscription = await self._subscribe()
        try:
            while True:
                free = self.in_flight - len(self._tasks)
                if free <= 0:
                    await asyncio.wait(set(self._tasks), return_when=asyncio.FIRST_COMPLETED)
                    continue
                raise_if_cancelled()
                try:
                    messages = await subscription.fetch(min(FETCH, free), timeout=2)
                except (NatsTimeout, asyncio.TimeoutError):
                    consumer_lag.idle("notifier")
                    continue
                consumer_lag.fetched("notifier", messages)        # how far behind the store it is
                for message in messages:
                    await self._take(message)
        finally:
            await cancel_and_wait(list(self._tasks))
            try:
                await subscription.unsubscribe()
            except Exception:       # the connection is gone already
                pass

    async def _take(self, message) -> None:
        try:
            append = ENVELOPES.validate_json(message.data)
            notes = await self.causes.of_append(append) if append else []
        except Exception:
            MESSAGES.labels("fold_failed").inc()
            log.exception("notifier_fold_failed", stream_seq=message.metadata.sequence.stream)
            await message.nak(delay=RETRY_SOON)     # the store did not answer: try this message again
            return
        if not notes:
            await message.ack()
            MESSAGES.labels("nothing").inc()
            self.handled += 1
            return
        task = asyncio.create_task(self._settle(message, notes))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle(self, message, notes) -> None:
        heartbeat = asyncio.create_task(self._keep_alive(message, self.ack_wait / 3))
        try:
            results = await asyncio.gather(*(self.deliverer.deliver(n) for n in notes), return_exceptions=True)
        finally:
            heartbeat.cancel()
        busy = [r for r in results if isinstance(r, Busy)]
        failed = [r for r in results if isinstance(r, BaseException) and not isinstance(r, Busy)]
        if failed:
            MESSAGES.labels("retry").inc()
            log.warning("notifier_delivery_failed", problem=repr(failed[0]))
            await message.nak(delay=RETRY_SOON)
        elif busy:
            MESSAGES.labels("busy").inc()
            await message.nak(delay=max(b.retry_after for b in busy) + 0.5)
        else:
            MESSAGES.labels("settled").inc()
            await message.ack()
        self.handled += 1

    @staticmethod
    async def _keep_alive(message, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await message.in_progress()
            except Exception:       # the connection blinked: the next beat tries again
                pass
