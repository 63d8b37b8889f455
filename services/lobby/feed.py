"""Live events for WebSockets: one follower of the store per lobby process, fanned out in memory.

Each lobby replica follows `game.>` and `table.>` once and hands each envelope to the local subscribers
of its stream, so N sockets on a game cost one JetStream consumer, not N. A socket that resumes after
a reconnect first reads what it missed from the store (by per-stream `seq`), then takes live envelopes,
skipping any it has already sent and filling any gap from the store: every client sees every event of
its stream once and in order, whichever replica it lands on. The follows are supervised: one that fails
is restarted (with back-off) from where it was, and `supervisor.healthy()` is False meanwhile.
"""
from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import AsyncIterator, Awaitable, Callable

import structlog

from starbase_core import tracing
from starbase_core.envelope import Envelope
from starbase_core.supervise import Supervisor

log = structlog.get_logger(__name__)

# A subscriber that falls this far behind is dropped; its client reconnects and resumes from its seq.
QUEUE_LIMIT = 1000


class SlowConsumer(Exception):
    pass


class _Subscription:
    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False


class Feed:
    def __init__(self, store, on_envelope: Callable[[Envelope], Awaitable[None]] | None = None):
        self.store = store
        self.on_envelope = on_envelope
        self._subscribers: dict[str, set[_Subscription]] = defaultdict(set)
        self.supervisor = Supervisor("lobby-feed")
        self._positions: dict[str, int] = {}
        self.started = asyncio.Event()

    async def start(self) -> None:
        position = await self.store.end_position()      # live from now: the past is read per stream
        for subject_filter in ("game.>", "table.>"):
            self._positions[subject_filter] = position
            self.supervisor.start(f"follow {subject_filter}", lambda f=subject_filter: self._follow(f))
        self.started.set()

    async def stop(self) -> None:
        await self.supervisor.stop()

    async def _follow(self, subject_filter: str) -> None:
        """Hand out every envelope after the last one handed out (NATS reconnects by itself; a restart
        by the supervisor follows again from where this one was)."""
        async for position, envelope in self.store.follow(self._positions[subject_filter], subject_filter):
            self._positions[subject_filter] = position
            self._dispatch(envelope)
            if self.on_envelope is not None:
                try:
                    await self.on_envelope(envelope)
                except Exception:       # a projection hiccup must not stop the live feed
                    log.exception("feed_handler_failed", stream=envelope.stream, seq=envelope.seq)
        raise ConnectionError(f"the follow of {subject_filter} ended")

    def _dispatch(self, envelope: Envelope) -> None:
        if tracing.enabled() and (parent := tracing.parent_of(envelope.meta)) is not None:
            # The push joins the trace of the command that appended this event (its ids are in the meta).
            with tracing.tracer().start_as_current_span("push", context=parent) as span:
                span.set_attribute("starbase.stream", envelope.stream)
                span.set_attribute("starbase.seq", envelope.seq)
                span.set_attribute("starbase.subscribers", len(self._subscribers.get(envelope.stream, ())))
                self._hand_out(envelope)
        else:
            self._hand_out(envelope)

    def _hand_out(self, envelope: Envelope) -> None:
        for subscription in list(self._subscribers.get(envelope.stream, ())):
            try:
                subscription.queue.put_nowait(envelope)
            except asyncio.QueueFull:
                self._subscribers[envelope.stream].discard(subscription)
                subscription.overflowed = True

    async def events(self, stream: str, after: int) -> AsyncIterator[Envelope]:
        """Every envelope of `stream` past seq `after`, in order, then live ones as they come."""
        subscription = _Subscription()
        self._subscribers[stream].add(subscription)     # subscribe first, then read: nothing falls in between
        try:
            last = after
            for envelope in await self.store.read(stream, after + 1):
                yield envelope
                last = envelope.seq
            while True:
                if subscription.overflowed and subscription.queue.empty():
                    raise SlowConsumer(f"fell {QUEUE_LIMIT} events behind on {stream}")
                envelope = await subscription.queue.get()
                if envelope.seq <= last:
                    continue
                if envelope.seq > last + 1:      # missed some (e.g. the follower restarted): fill from the store
                    for missed in await self.store.read(stream, last + 1):
                        if missed.seq >= envelope.seq:
                            break
                        yield missed
                        last = missed.seq
                yield envelope
                last = envelope.seq
        finally:
            self._subscribers[stream].discard(subscription)
            if not self._subscribers[stream]:
                self._subscribers.pop(stream, None)
