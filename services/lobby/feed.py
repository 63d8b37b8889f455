"""Live events for WebSockets: one follower of the store per lobby process, fanned out in memory.

Each lobby replica follows `game.>` and `table.>` once and hands each envelope to the local subscribers
of its stream, so N sockets on a game cost one JetStream consumer, not N. Each watched stream has a
`Channel` (channel.py): its recent envelopes and their pushes encoded once per view. A socket that
resumes after a reconnect first takes what it missed from the channel's tail, or else from the store
(one read shared by every socket asking for the same point at once), then takes live envelopes,
skipping any it has already sent and filling any gap from the store: every client sees every event of
its stream once and in order, whichever replica it lands on. The follows are supervised: one that fails
is restarted (with back-off) from where it was, and `supervisor.healthy()` is False meanwhile.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import AsyncIterator, Awaitable, Callable, Hashable

import structlog

from starbase_core import tracing
from starbase_core.envelope import Envelope
from starbase_core.supervise import Supervisor

from lobby.channel import GONE, SLOW, Channel, Sink
from starbase_core.outlet import Outlet

log = structlog.get_logger(__name__)

# A subscriber that falls this far behind is dropped; its client reconnects and resumes from its seq.
QUEUE_LIMIT = 1000
# Channels nobody watches any more are kept this many at most (newest first): sockets that drop and
# come back a moment later find their stream's tail still there.
IDLE_CHANNELS = 256
# What a catching-up socket's frames are joined into, per write: one send for a short backlog, and a
# long one still paced by the server's flow control.
BATCH = 64 * 1024


class SlowConsumer(Exception):
    pass


class _Subscription:
    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False


class _Reader:
    """One subscriber's place in a stream: the last seq it has had, and its queue of live envelopes."""

    def __init__(self, feed: "Feed", channel: Channel, after: int):
        self.feed, self.channel, self.last = feed, channel, after
        self.subscription: _Subscription | None = _Subscription()
        channel.subscribers.add(self.subscription)      # subscribe first, then read: nothing falls between

    def unsubscribe(self) -> None:
        if self.subscription is not None:
            self.channel.subscribers.discard(self.subscription)
            self.subscription = None
            self.feed._release(self.channel)

    def caught_up(self) -> bool:
        """Nothing queued: every envelope handed out so far is sent (or older than what was sent)."""
        subscription = self.subscription
        return subscription is not None and subscription.queue.empty() and not subscription.overflowed

    async def backlog(self) -> list[Envelope]:
        return self._after_last(await self.feed._backlog(self.channel, self.last))

    async def next(self) -> list[Envelope]:
        """The next envelopes in order, waiting for one; a gap is filled from the store."""
        subscription = self.subscription
        assert subscription is not None
        if subscription.overflowed and subscription.queue.empty():
            raise SlowConsumer(f"fell {QUEUE_LIMIT} events behind on {self.channel.stream}")
        envelope = await subscription.queue.get()
        if envelope.seq <= self.last:
            return []
        found = []
        if envelope.seq > self.last + 1:    # missed some (e.g. the follower restarted): fill from the store
            found = [e for e in await self.feed.store.read(self.channel.stream, self.last + 1) if e.seq < envelope.seq]
        return self._after_last(found + [envelope])

    def _after_last(self, envelopes: list[Envelope]) -> list[Envelope]:
        fresh = [e for e in envelopes if e.seq > self.last]
        if fresh:
            self.last = fresh[-1].seq
        return fresh


class Feed:
    def __init__(self, store, on_envelope: Callable[[Envelope], Awaitable[None]] | None = None):
        self.store = store
        self.on_envelope = on_envelope
        self._channels: dict[str, Channel] = {}          # streams with subscribers
        self._idle: OrderedDict[str, Channel] = OrderedDict()    # streams watched a moment ago
        self._reads: dict[tuple, asyncio.Future] = {}            # store calls in flight, shared
        self.supervisor = Supervisor("lobby-feed")
        self._positions: dict[str, int] = {}
        self._owed: dict[Channel, list[Envelope]] = {}          # handed out, to be written this turn
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
                channel = self._channels.get(envelope.stream)
                span.set_attribute("starbase.subscribers", len(channel.subscribers) if channel else 0)
                self._hand_out(envelope)
        else:
            self._hand_out(envelope)

    def stored(self, envelopes: list[Envelope]) -> None:
        """A command's envelopes as the store acknowledged them to this replica (the adjudicator's reply):
        handed out now when they carry on the watched stream's tail, when the reply comes before the
        follow brings them (which then finds them held: `Channel.add`, and each socket skips what it has;
        under load the follow is most often first: the server delivers to it as it acknowledges the
        append, before the acknowledgement becomes a reply). Any other case (a gap, a resend's old
        envelopes, nobody watching) waits for the follow, which stays the one path that hands out
        everything."""
        if not envelopes:
            return
        channel = self._channels.get(envelopes[0].stream)
        if channel is None or not channel.tail or channel.tail[-1].seq + 1 != envelopes[0].seq:
            return
        for envelope in envelopes:
            self._hand_out(envelope)

    def _kept(self, stream: str) -> Channel | None:
        """The stream's channel, watched now or a moment ago."""
        return self._channels.get(stream) or self._idle.get(stream)

    def held(self, stream: str, first: int, count: int) -> list[Envelope] | None:
        """`count` envelopes of `stream` from seq `first`, if the live copy holds them all: a command's
        reply the follow got ahead of (most, under load) needs no decoding (`AdjudicatorClient.held`)."""
        channel = self._kept(stream)
        return channel.run(first, count) if channel is not None else None

    def _hand_out(self, envelope: Envelope) -> None:
        channel = self._kept(envelope.stream)
        if channel is None or not channel.add(envelope):
            return              # nobody watches, or it was handed out already (from the command's reply)
        if channel.audience:
            self._owe(channel, envelope)
        for subscription in list(channel.subscribers):
            try:
                subscription.queue.put_nowait(envelope)
            except asyncio.QueueFull:
                channel.subscribers.discard(subscription)
                subscription.overflowed = True

    def _owe(self, channel: Channel, envelope: Envelope) -> None:
        """Deliver `envelope` to the channel's audience at the end of this turn of the loop, with the
        envelopes handed out after it meanwhile: a command's envelopes arrive in one stored message and
        are handed out with no wait between them, so its sockets get them in one write each."""
        owed = self._owed.get(channel)
        if owed is None:
            if not self._owed:
                asyncio.get_running_loop().call_soon(self._deliver_owed)
            self._owed[channel] = [envelope]
        elif owed[-1].seq + 1 == envelope.seq:
            owed.append(envelope)
        else:                               # not contiguous (the tail started again): the owed ones first
            channel.deliver(owed)
            self._owed[channel] = [envelope]

    def _deliver_owed(self) -> None:
        owed, self._owed = self._owed, {}
        for channel, envelopes in owed.items():
            channel.deliver(envelopes)

    def text(self, envelope: Envelope, view: Hashable, encode: Callable[[], str]) -> str:
        """The push of `envelope` for `view`, shared by every socket of this process with that view."""
        channel = self._kept(envelope.stream)
        return channel.text(envelope, view, encode) if channel is not None else encode()

    async def events(self, stream: str, after: int) -> AsyncIterator[Envelope]:
        """Every envelope of `stream` past seq `after`, in order, then live ones as they come."""
        reader = _Reader(self, self._watch(stream), after)
        try:
            for envelope in await reader.backlog():
                yield envelope
            while True:
                for envelope in await reader.next():
                    yield envelope
        finally:
            reader.unsubscribe()

    async def catch_up(self, stream: str, after: int, view: Hashable, encode: Callable[[Envelope], str],
                       outlet: Outlet, demoted: Callable[[Sink, str], None], lead: bytes = b"", *,
                       alike: Callable[[Envelope], bool] | None = None) -> Sink | None:
        """Send `outlet` every envelope of `stream` past `after`, as `encode` makes it for `view` (the
        text, and its frame, shared by every socket of that view), gaps filled from the store; then,
        once nothing more is queued for it, join the channel's audience and return the sink: from then
        on the feed writes each new envelope to it (`Channel.deliver`), no task waits for it, and
        `demoted(sink, reason)` says when that stops. None when the socket went away meanwhile;
        SlowConsumer when its reader cannot keep up. An outlet that cannot be written directly never
        joins: it is served here, the ASGI way, until it is gone. `lead`: frames a direct outlet
        gets first, in the same write as what it missed (its welcome: one send instead of two).
        `alike`: which of the stream's envelopes push the same to every view (`Channel.alike`)."""
        channel = self._watch(stream)
        if alike is not None:
            channel.alike = alike
        if outlet.direct and channel.covers(after):
            # What it missed is all in the live copy (a crowd reconnecting where it left off): written
            # and joined with no await between, so nothing can slip in and no reader is needed.
            backlog = channel.since(after)
            written = b"".join(([lead] if lead else []) + [channel.frame(e, view, lambda e=e: encode(e)) for e in backlog])
            if len(written) < BATCH:            # else the reader's paced writes take it
                return self._join_at_once(channel, backlog[-1].seq if backlog else after, view, encode, outlet,
                                          demoted, written)
        reader = _Reader(self, channel, after)
        try:
            if not await self._send(reader.channel, await reader.backlog(), view, encode, outlet, lead):
                return None
            while not (outlet.direct and reader.caught_up()):
                if not await self._send(reader.channel, await reader.next(), view, encode, outlet):
                    return None
            # Caught up. No await from the check above to the join: no envelope can slip between.
            sink = Sink(view, encode, outlet, reader.last, demoted)
            reader.channel.join(sink)
            return sink
        finally:
            reader.unsubscribe()

    def _join_at_once(self, channel: Channel, last: int, view: Hashable, encode: Callable[[Envelope], str],
                      outlet: Outlet, demoted: Callable[[Sink, str], None], written: bytes) -> Sink | None:
        """`catch_up` in one write (`written`: up to seq `last`), then the audience; None when the socket
        went away. A fresh socket's buffer is empty: the write is not paced (`outlet.ready`), as the
        feed's own writes to caught-up sockets are not; one over the limit is still too slow."""
        if written and (outlet.slow() or not outlet.write(written)):
            self._release(channel)
            if outlet.slow():
                raise SlowConsumer(f"its reader fell behind on {channel.stream}")
            return None
        sink = Sink(view, encode, outlet, last, demoted)
        channel.join(sink)
        return sink

    async def _send(self, channel: Channel, envelopes: list[Envelope], view: Hashable,
                    encode: Callable[[Envelope], str], outlet: Outlet, lead: bytes = b"") -> bool:
        """What a socket missed, in order; False when it went away. A direct outlet gets the frames the
        channel keeps per view, joined into writes of up to `BATCH` bytes, each once the server would
        take more (as its own send waits)."""
        if not outlet.direct:
            for envelope in envelopes:
                if outlet.slow():
                    raise SlowConsumer(f"its reader fell behind on {channel.stream}")
                await outlet.send(self.text(envelope, view, lambda: encode(envelope)))
            return True
        batch, size = ([lead], len(lead)) if lead else ([], 0)
        for index, envelope in enumerate(envelopes):
            framed = channel.frame(envelope, view, lambda: encode(envelope))
            batch.append(framed)
            size += len(framed)
            if size < BATCH and index < len(envelopes) - 1:
                continue
            if not await self._write(channel, outlet, batch):
                return False
            batch, size = [], 0
        return await self._write(channel, outlet, batch) if batch else True

    @staticmethod
    async def _write(channel: Channel, outlet: Outlet, frames: list[bytes]) -> bool:
        if outlet.slow():
            raise SlowConsumer(f"its reader fell behind on {channel.stream}")
        await outlet.ready()
        if outlet.write(frames[0] if len(frames) == 1 else b"".join(frames)):
            return True
        if outlet.slow():
            raise SlowConsumer(f"its reader fell behind on {channel.stream}")
        return False

    def leave(self, sink: Sink) -> None:
        """A socket that closed stops being written to; its channel may go idle."""
        channel = sink.channel
        if channel is not None:
            channel.leave(sink)
            self._release(channel)

    async def serve(self, stream: str, after: int, view: Hashable, encode: Callable[[Envelope], str],
                    outlet: Outlet, *, alike: Callable[[Envelope], bool] | None = None) -> None:
        """`catch_up`, then hold this task until the socket is gone, catching up again after a gap: for
        a socket whose server allows no direct writes. SlowConsumer when its reader cannot keep up."""
        loop = asyncio.get_running_loop()
        while True:
            stopped: asyncio.Future = loop.create_future()
            sink = await self.catch_up(stream, after, view, encode, outlet,
                                       lambda _, reason: stopped.done() or stopped.set_result(reason), alike=alike)
            if sink is None:
                return
            try:
                reason = await stopped
            finally:
                self.leave(sink)
            if reason == SLOW:
                raise SlowConsumer(f"its reader fell behind on {stream}")
            if reason == GONE:
                return
            after = sink.last                   # a gap: fill it from the store, then join again

    def _watch(self, stream: str) -> Channel:
        channel = self._channels.get(stream) or self._idle.pop(stream, None) or Channel(stream)
        self._channels[stream] = channel
        return channel

    def _release(self, channel: Channel) -> None:
        """A channel nobody reads or is written to any more joins the idle ones, the oldest dropped."""
        if channel.subscribers or channel.audience or self._channels.get(channel.stream) is not channel:
            return
        del self._channels[channel.stream]
        self._idle[channel.stream] = channel
        while len(self._idle) > IDLE_CHANNELS:
            self._idle.popitem(last=False)

    async def last_seq(self, stream: str) -> int:
        """The stream's last seq in the store; sockets opening at once share one ask (a welcome names it)."""
        return await self._shared(("last", stream, 0), lambda: self.store.last_seq(stream))

    def _shared(self, key: tuple, ask: Callable[[], Awaitable]) -> Awaitable:
        """One store call for every caller asking the same thing while it is in flight."""
        asking = self._reads.get(key)
        if asking is None:
            asking = self._reads[key] = asyncio.ensure_future(ask())
            asking.add_done_callback(lambda done: self._read_over(key, done))
        return asyncio.shield(asking)

    def _read_over(self, key: tuple, done: asyncio.Future) -> None:
        self._reads.pop(key, None)
        if not done.cancelled():
            done.exception()                        # retrieved: every waiter, if any, raised it already

    async def _backlog(self, channel: Channel, after: int) -> list[Envelope]:
        """What a new subscriber missed: from the live copy when it reaches back far enough, else one
        store read shared with every subscriber asking for the same point meanwhile."""
        if channel.covers(after):
            return channel.since(after)
        envelopes = await self._shared(("read", channel.stream, after),
                                       lambda: self.store.read(channel.stream, after + 1))
        channel.seed(envelopes)
        return envelopes
