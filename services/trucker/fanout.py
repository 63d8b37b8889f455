"""Every public change of a table reaches every connection of the table, on every replica, through NATS.

The replica whose relay stored events publishes them on `<prefix>.events.<game>` and hands them to its
own connections at once, from the envelopes in hand (its NATS connection takes no echo of its own
publishes). Each replica with connections at that table
subscribes once per table and hands the events to its connections in seq order; a message whose events
it delivered already (header `Trucker-Last-Seq`) is dropped before it is parsed. A gap (a replica died between storing and publishing, or a message was dropped) is filled from the
event store before going on, so no connection ever misses or reorders an event; duplicates (two relays
publishing the same batch) are dropped by seq.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Callable

from pydantic import TypeAdapter

import structlog
from nats.aio.client import Client as NATS

from starbase_core import tracing
from starbase_core.envelope import Envelope
from starbase_core.gamestream import game_stream, redact
from starbase_core.store import EventStore
from trucker_rules.game import GAME

log = structlog.get_logger(__name__)
HIDDEN = "Hidden"
QUEUE_LIMIT = 10_000      # a connection this far behind is too slow to follow the table: it is closed
LAST_SEQ = "Trucker-Last-Seq"   # header of a fan-out message: the seq of its last event
_ENVELOPES = TypeAdapter(list[Envelope])


# What the warehouse writes is public by construction (a face-down grab names its component only once
# grabbed): those skip the engine's redaction, which would parse every event once per viewer. Not
# PileTaken: at a pile's first look it carries the pile's cards, for the looker only.
PUBLIC_TYPES = frozenset({
    "BuildingStarted", "ComponentGrabbed", "ComponentPlaced", "NewestMoved", "ComponentReturned",
    "ComponentReserved", "PileReturned", "TimerTurned", "ShipFinished",
})


def wire_event(envelope: Envelope, viewer: str | None) -> dict:
    """One stored event as the viewer may see it (the platform's redaction, then the engine's), in
    protocol version 1's shape. An event hidden from the viewer as a whole keeps its place (`Hidden`,
    data null), as on the lobby's sockets, so a client's seqs have no gaps and its `after` is right."""
    if envelope.type in PUBLIC_TYPES:
        data = {k: v for k, v in envelope.data.items() if k not in ("type", "v")}
        return {"stream": envelope.stream, "seq": envelope.seq, "type": envelope.type, "actor": envelope.actor,
                "data": data, "time": envelope.time}
    public = redact(GAME, envelope, viewer)
    if public is None:
        return {"stream": envelope.stream, "seq": envelope.seq, "type": HIDDEN, "actor": None, "data": None,
                "time": envelope.time}
    data = {k: v for k, v in public["data"].items() if k not in ("type", "v")}
    return {"stream": envelope.stream, "seq": public["seq"], "type": public["type"], "actor": public["actor"],
            "data": data, "time": public["time"]}


@dataclass(eq=False)
class Listener:
    viewer: str | None
    after: int                                  # deliver events with seq > after
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    overflowed: bool = False
    # What this socket has been shown, from its welcome on: the latest round, and the round whose
    # building is going on (None: none). Its client's moves are for that building (`TableService.apply`):
    # a move arriving before the socket is shown the end of a round is never played in the next one.
    round_shown: int = 0
    building_round: int | None = None
    # The socket's way out at once (`api.Connection.write_now`): a message with nothing queued before it
    # is written there and then, by whoever pushes it, instead of waking the socket's writer task for it
    # (a task wake-up and the ASGI layers per frame, five frames a move, and a turn of the event loop
    # before the ack leaves). It answers False when it cannot (the socket's buffer full, closing): then
    # the message is queued, and everything after it too until the writer has caught up. None until the
    # socket's writer runs (the welcome and the catch-up go first).
    write_now: Callable[[dict | str], bool] | None = None
    writer_holding: bool = False        # the writer took a message off the queue and has not written it

    def follow(self, envelope: Envelope) -> None:
        if envelope.type == "RoundStarted":
            self.round_shown, self.building_round = int(envelope.data["round"]), None
        elif envelope.type == "BuildingStarted":
            self.building_round = self.round_shown
        elif envelope.type == "BuildingEnded":
            self.building_round = None

    def push(self, item: dict | str) -> None:
        """Queue a message for the socket: a dict, or text already encoded (shared by many listeners)."""
        if self.overflowed:
            return
        if (self.write_now is not None and not self.writer_holding and self.queue.empty()
                and (isinstance(item, str) or "kind" in item) and self.write_now(item)):
            return                              # (a close or an overflow always goes through the writer)
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            # Too slow to follow the table: drop what is queued and tell the connection to close.
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait({"type": "overflow"})


@dataclass
class _Table:
    last: int
    listeners: set = field(default_factory=set)
    subscription: object = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class TableHub:
    def __init__(self, nc: NATS, store: EventStore, prefix: str = "trucker"):
        self.nc, self.store, self.prefix = nc, store, prefix
        self._tables: dict[str, _Table] = {}
        self._later: set[asyncio.Future] = set()     # deliveries waiting for a table's lock (`publish`)

    def subject(self, game: str) -> str:
        return f"{self.prefix}.events.{game}"

    async def publish(self, game: str, envelopes: list[Envelope]) -> None:
        """Events this replica's relay stored: to every replica, and to this one's connections now."""
        if not envelopes:
            return
        # The `traceparent` of the move that stored them: each replica's push joins its trace.
        headers = {**(tracing.headers() or {}), LAST_SEQ: str(envelopes[-1].seq)}
        await self.nc.publish(self.subject(game), _ENVELOPES.dump_json(envelopes), headers=headers)
        table = self._tables.get(game)
        if table is None:
            return
        # At once when they follow what the table delivered and nothing else is filling it (a join, a
        # gap read from the store). Otherwise the relay must not wait here: they are delivered once the
        # table's lock is free, after what fills it now (a gap before them is read from the store then).
        if envelopes[0].seq <= table.last + 1 and not table.lock.locked():
            with tracing.span_from_headers(headers, "push", **{"starbase.stream": game_stream(game),
                                                               "starbase.seq": envelopes[-1].seq}):
                await self._fill(game, table, envelopes)
        else:
            task = asyncio.ensure_future(self._fill_later(game, table, envelopes, headers))
            self._later.add(task)
            task.add_done_callback(self._later.discard)

    async def _fill_later(self, game: str, table: "_Table", envelopes: list[Envelope], headers: dict) -> None:
        try:
            with tracing.span_from_headers(headers, "push", **{"starbase.stream": game_stream(game),
                                                               "starbase.seq": envelopes[-1].seq}):
                await self._fill(game, table, envelopes)
        except Exception:  # as a message's delivery: one table's trouble must not stop the others
            log.exception("fanout_failed", game=game)

    async def join(self, game: str, viewer: str | None, after: int, round_shown: int = 0,
                   building: bool = False) -> Listener:
        """Start delivering the table's events after seq `after` (what the viewer was shown: `round_shown`,
        its building going on or not) to a new listener."""
        table = self._tables.get(game)
        first = table is None
        if first:
            table = self._tables[game] = _Table(last=after)
            table.subscription = await self.nc.subscribe(self.subject(game), cb=self._receiver(game))
        listener = Listener(viewer, after, round_shown=round_shown,
                            building_round=round_shown if building else None)
        async with table.lock:
            table.listeners.add(listener)
            if table.last > after:   # the table is ahead of what this viewer was shown: catch them up
                for envelope in await self.store.read(game_stream(game), from_seq=after + 1):
                    if envelope.seq <= table.last:
                        self._deliver_one(listener, envelope)
        if first:   # whatever was stored before the subscription existed is read here, not missed
            await self._fill(game, table, None)
        return listener

    async def leave(self, game: str, listener: Listener) -> None:
        table = self._tables.get(game)
        if table is None:
            return
        table.listeners.discard(listener)
        if not table.listeners:
            del self._tables[game]
            await table.subscription.unsubscribe()

    def _receiver(self, game: str):
        async def on_message(message) -> None:
            table = self._tables.get(game)
            if table is None:
                return
            last = (message.headers or {}).get(LAST_SEQ)
            if last is not None and last.isdigit() and int(last) <= table.last:
                return      # every event of it was delivered already (this replica stored them)
            try:
                envelopes = _ENVELOPES.validate_json(message.data)
                last = envelopes[-1].seq if envelopes else 0
                with tracing.span_from_headers(message.headers, "push", **{"starbase.stream": game_stream(game),
                                                                           "starbase.seq": last}):
                    await self._fill(game, table, envelopes)
            except Exception:  # one bad message must not stop the table's deliveries
                log.exception("fanout_failed", game=game)
        return on_message

    async def _fill(self, game: str, table: _Table, envelopes: list[Envelope] | None) -> None:
        async with table.lock:
            if envelopes is not None and envelopes and envelopes[0].seq <= table.last + 1:
                fresh = [e for e in envelopes if e.seq > table.last]
            else:   # a gap (or a first look): read from the store everything after what we delivered
                fresh = await self.store.read(game_stream(game), from_seq=table.last + 1)
            for envelope in fresh:
                if envelope.seq != table.last + 1:
                    continue
                table.last = envelope.seq
                # The service's own events read the same for everyone: encode them once per table.
                shared = _encoded(envelope, None) if envelope.type in PUBLIC_TYPES else None
                for listener in list(table.listeners):
                    self._deliver_one(listener, envelope, shared)

    def _deliver_one(self, listener: Listener, envelope: Envelope, shared: str | None = None) -> None:
        if envelope.seq <= listener.after or listener.overflowed:
            return
        listener.after = envelope.seq
        listener.follow(envelope)
        listener.push(shared if shared is not None else _encoded(envelope, listener.viewer))


def _encoded(envelope: Envelope, viewer: str | None) -> str:
    return _json({"v": 1, "kind": "event", "event": wire_event(envelope, viewer)})


_json = json.JSONEncoder(separators=(",", ":")).encode     # one encoder: json.dumps builds one per call
