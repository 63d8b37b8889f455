"""The event store on NATS JetStream.

Layout: one JetStream stream (default `STARBASE`, file storage, deny delete, deny purge, direct get on)
holding subject `<prefix>.<starbase stream>` per Starbase stream (`sb.game.42`, `sb.table.7`).
One JetStream message per append: its payload is the JSON list of the envelopes of that append, so a
command's events land atomically or not at all. Appends carry `Nats-Expected-Last-Subject-Sequence`:
the server stores the message only if the subject's last message is the one the appender saw.

**Idempotency from the stream.** Every envelope carries its command id, and stored messages never change.
Per stream this instance keeps an index (`command_index.StreamIndex`): how far it has read the stream
(seq, hash, JetStream seq) and the command ids up to there. `append(expected_seq=N, command_id=C)`:

1. if the index does not end at N, read the stream from where the index ends to its end;
2. if C is in the index (its append is fetched and the whole id compared), answer with its envelopes;
3. if the stream does not end at N, raise WrongExpectedSeq;
4. publish, expecting the subject's last message to be the one holding seq N; if the server refuses
   (someone appended meanwhile), read to the end and go to 2 once more (C may be what got in).

Why a command id can never be stored twice: say it were, in messages M1 before M2 on the subject. M2's
appender expected the message just before M2 (step 4: nothing can land between), so its index covered
M1 when it checked C in step 2; an index only covers messages read from the stream, and M1 was there and
held C, so step 2 answered and M2 was never published. Nothing here depends on time: no duplicate window,
no second write. The cases, one by one:

- *a replica whose index is behind* (another replica appended): if the caller expects the end it saw,
  step 1 reads the tail; if it expects what the index says, the server refuses the publish and step 4
  reads the tail. Either way C is looked for in what was read before anything is published.
- *a retry hours later*, past JetStream's duplicate window (which plays no part any more): the retry's
  index is built by reading the stream, which holds C, so it is answered with the first envelopes.
- *a crash between the append and the reply*: the message is stored or it is not. The client retries
  with the same id on any replica; step 1 or 4 reads the stored message and step 2 answers with it.
  If the publish never reached the server, the retry appends the command, once.
- *two replicas racing one id*: both check C against their index and publish expecting the same last
  message; the server stores one; the other is refused, reads the tail in step 4, finds C and answers
  with the envelopes the first stored. The same holds for any number of attempts.
- *an index adopted from a checkpoint* (a snapshot): `adopt` checks that the envelope at its position
  has its seq and hash, so where it ends is the stream's truth; its command ids are vouched for by
  whoever made it (the adjudicator signs its snapshots): a wrong one could let a retry in twice, so a
  checkpoint must only ever come from a store's own `checkpoint`.

Cost of an append on a stream this instance knows to its end: one publish (fsynced by the server), no
read, no other write. Reads: `jetstream_reader.DirectReader` (batched direct gets on one subscription);
publishes: `jetstream_publish.AckedPublisher` (acks on one subscription).
"""
from __future__ import annotations

import asyncio
from typing import AsyncIterator

from nats.aio.client import Client as NATS
from nats.js import api
from nats.js.errors import BadRequestError, NotFoundError
from pydantic import TypeAdapter

from starbase_core.bus import NatsAuth, connect_nats
from starbase_core.command_index import COLLIDED, StreamCheckpoint, StreamIndex, StreamIndexes
from starbase_core.envelope import Envelope, NewEvent, check_command_id, check_stream_name, seal_to_json
from starbase_core.jetstream_publish import AckedPublisher
from starbase_core.jetstream_reader import DirectReader
from starbase_core.store import EmptyAppend, StoreError, WrongExpectedSeq

WRONG_LAST_SEQUENCE = 10071
# Positions are js_seq * STRIDE + index within the message, so each envelope has its own position.
POSITION_STRIDE = 4096
EXPECTED_LAST = "Nats-Expected-Last-Subject-Sequence"
READ_TO_LEADER_ATTEMPTS = 20
LOOK_BACK = 8           # JetStream messages looked back first for a read near a stream's end (× 4 each time)
# A follow's ordered consumer resets itself after two missed server heartbeats. nats-py's default (5 s)
# left a follow deaf for 10-20 s after the NATS server restarted; at 1 s it resumes in 2-4 s.
FOLLOW_HEARTBEAT = 1.0
_FOLLOW_ENDED = object()        # put in a follow's queue when the store closes: the follow ends there


class JetStreamEventStore:
    def __init__(self, connection: NATS, *, name: str = "STARBASE", subject_prefix: str = "sb",
                 replicas: int = 1, duplicate_window: float = 120.0, owns_connection: bool = False,
                 index_capacity: int = 1_000_000):
        self.name = name
        self.prefix = subject_prefix
        self.replicas = replicas
        self.duplicate_window = duplicate_window
        self._nc = connection
        self._js = connection.jetstream()
        self._owns_connection = owns_connection
        self._reader = DirectReader(connection, name)
        self._publisher = AckedPublisher(connection)
        self._indexes = StreamIndexes(index_capacity)
        self._follows: set[asyncio.Queue] = set()       # the queues the follows read (`_arrivals`)

    @classmethod
    async def connect(cls, url: str, *, ensure: bool = True, attempts: int = 30, auth: NatsAuth | None = None,
                      **options) -> "JetStreamEventStore":
        """Connect and (by default) create the stream; `ensure=False` for read-only tools.
        `auth`: the service's NATS credentials and TLS (`starbase_core.connections.nats_auth`)."""
        connection = await connect_nats(url, name="starbase-store", attempts=attempts, auth=auth)
        store = cls(connection, owns_connection=True, **options)
        if ensure:
            await store.ensure()
        return store

    async def ensure(self) -> None:
        """Create (or update) the stream; safe to call from every replica."""
        config = api.StreamConfig(
            name=self.name, subjects=[f"{self.prefix}.>"], storage=api.StorageType.FILE,
            retention=api.RetentionPolicy.LIMITS, discard=api.DiscardPolicy.NEW,
            num_replicas=self.replicas, duplicate_window=self.duplicate_window,
            deny_delete=True, deny_purge=True, allow_direct=True, allow_rollup_hdrs=False,
        )
        try:
            await self._js.add_stream(config)
        except BadRequestError:  # it exists with another config: bring it to ours
            await self._js.update_stream(config)

    async def exists(self) -> bool:
        try:
            await self._js.stream_info(self.name)
        except NotFoundError:
            return False
        return True

    async def close(self) -> None:
        for queue in list(self._follows):   # each follow ends where it is (nats-py's iterator did so)
            try:
                queue.put_nowait(_FOLLOW_ENDED)
                queue.task_done()           # not a message: the drain below must not wait for it
            except asyncio.QueueFull:
                pass                        # a follow that far behind is cancelled by its owner
        if self._owns_connection and not self._nc.is_closed:
            await self._nc.drain()
        elif not self._nc.is_closed:
            await self._reader.close()
            await self._publisher.close()

    # ---- the port ---------------------------------------------------------------------------------

    async def append(self, stream: str, events: list[NewEvent], *, expected_seq: int,
                     command_id: str | None = None) -> list[Envelope]:
        subject = self._subject(stream)
        check_command_id(command_id)
        if not events:
            raise EmptyAppend(f"nothing to append to {stream}")
        if len(events) >= POSITION_STRIDE:
            raise StoreError(f"at most {POSITION_STRIDE - 1} events per append")
        index = self._indexes.get(stream)
        if index.seq != expected_seq:
            await self._read_to_end(stream, subject, index)
            if index.seq < expected_seq:     # the caller saw more than that: a lagging replica answered?
                await self._read_to_end(stream, subject, index, exact=True)
        refused = False
        while True:
            seen = index.seq
            if command_id is not None and (found := await self._stored(stream, subject, index, command_id)):
                return found
            if index.seq != seen:
                continue                # the index moved on while the id was looked up: look again
            if index.seq != expected_seq or refused:
                raise WrongExpectedSeq(index.seq, expected_seq, stream)
            # From here to the publish nothing waits, so the seal and the expectation are of one index.
            sealed, payload = seal_to_json(stream, events, last_seq=index.seq, last_hash=index.hash,
                                           command_id=command_id)
            try:
                # No `stream=` (a second stored header): JetStream lets only this stream hold its subjects.
                stored_in, js_seq = await self._publisher.publish(subject, payload, {EXPECTED_LAST: str(index.where)})
            except BadRequestError as error:
                if error.err_code != WRONG_LAST_SEQUENCE:
                    raise
                await self._read_to_end(stream, subject, index, exact=True)   # who got in first?
                refused = True
                continue
            if stored_in != self.name:
                raise StoreError(f"{subject} was stored in stream {stored_in}, not {self.name}")
            self._indexes.learn(index, js_seq, sealed)
            return sealed

    async def find_command(self, stream: str, command_id: str, *,
                           catch_up: bool = True) -> list[Envelope] | None:
        subject = self._subject(stream)
        index = self._indexes.get(stream)
        if catch_up:
            await self._read_to_end(stream, subject, index, exact=True)
        return await self._stored(stream, subject, index, command_id)

    async def read(self, stream: str, from_seq: int = 1) -> list[Envelope]:
        subject = self._subject(stream)
        index = self._indexes.get(stream)
        if from_seq > index.seq + 1:
            # The index ends well before `from_seq`, or knows nothing of the stream (a lobby reading one
            # game's last moves): reading on from where it ends would make the server walk every message
            # of every stream stored since (`_start_near`); look for `from_seq` from the end instead.
            start = await self._start_near(subject, from_seq, floor=index.where + 1)
            if start is not None:
                return await self._read_from(stream, subject, index, start, from_seq)
        if 0 < index.seq < from_seq:            # only the part after what the index covers is wanted
            return [e for e in await self._read_to_end(stream, subject, index) if e.seq >= from_seq]
        last, where = index.start_for(from_seq)
        return await self._read_from(stream, subject, index, where + 1, from_seq, after=last)

    async def _start_near(self, subject: str, from_seq: int, *, floor: int) -> int | None:
        """The JetStream seq of a message on `subject` at or before the one holding `from_seq`, found
        looking back from the subject's last message, further each time; None once the look would reach
        `floor` (the caller then reads from there). Why: all streams share one JetStream stream, so their
        messages interleave, and a read by subject from a seq makes the server load every message stored
        since then. A read of one game's tail from its first message walked the whole store: 70 ms on a
        store of 100,000 messages, during which every other game's appends waited (docs/lobby-capacity.md,
        fourteenth round). Each look here costs the walk from its seq to the subject's next message."""
        last = await self._reader.last(subject)
        if last is None:
            return None
        if _decode(last.data)[0].seq <= from_seq:
            return last.seq             # the last append holds it, or `from_seq` is past the end
        back = LOOK_BACK
        while (at := last.seq - back) > floor:
            found = await self._reader.next(subject, at)
            if found is not None and _decode(found.data)[0].seq <= from_seq:
                return found.seq
            back *= 4
        return None

    async def _read_from(self, stream: str, subject: str, index: StreamIndex, start: int, from_seq: int, *,
                         after: int | None = None) -> list[Envelope]:
        """The envelopes from `from_seq` on, reading from JetStream seq `start`: the message after the one
        that ends at seq `after`, or (None) a message at or before the one holding `from_seq`. Each message
        must carry on from the one before; what it reads past the index, the index learns."""
        envelopes: list[Envelope] = []
        last = after
        async for stored in self._reader.messages(subject, start):
            message = _decode(stored.data)
            if last is None:
                if message[0].seq > from_seq:
                    raise StoreError(f"reading {stream}: seq {message[0].seq} is where seq {from_seq} was looked for")
                last = message[0].seq - 1
            _check_follows(stream, last, message)
            last = message[-1].seq
            envelopes.extend(e for e in message if e.seq >= from_seq)
            if message[0].seq > index.seq:
                self._indexes.learn(index, stored.seq, message)
        return envelopes

    async def last_seq(self, stream: str) -> int:
        last = await self._reader.last(self._subject(stream))
        return _decode(last.data)[-1].seq if last else 0

    def checkpoint(self, stream: str) -> StreamCheckpoint | None:
        index = self._indexes.peek(check_stream_name(stream))
        if index is None or index.seq == 0:
            return None
        # The position is the JetStream seq of the message that ends at `seq` (`adopt` reads it there).
        return StreamCheckpoint(stream=stream, seq=index.seq, hash=index.hash, position=index.where,
                                commands=index.commands.copy())

    async def adopt(self, checkpoint: StreamCheckpoint) -> bool:
        subject = self._subject(checkpoint.stream)
        stored = await self._reader.get(checkpoint.position) if checkpoint.position > 0 else None
        if stored is None or stored.subject != subject:
            return False
        last = _decode(stored.data)[-1]
        if (last.stream, last.seq, last.hash) != (checkpoint.stream, checkpoint.seq, checkpoint.hash):
            return False
        known = self._indexes.peek(checkpoint.stream)
        if known is None or known.seq < checkpoint.seq:
            self._indexes.replace(checkpoint.stream, StreamIndex(
                seq=checkpoint.seq, hash=checkpoint.hash, where=checkpoint.position,
                commands=checkpoint.commands.copy(), marks=[(checkpoint.seq, checkpoint.position)]))
        else:
            known.mark(checkpoint.seq, checkpoint.position)    # reads from past the checkpoint start there
        return True

    async def follow(self, from_position: int = 0,
                     subject_filter: str = "game.>") -> AsyncIterator[tuple[int, Envelope]]:
        start = max(from_position // POSITION_STRIDE, 1)
        config = api.ConsumerConfig(deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE,
                                    opt_start_seq=start)
        subscription = await self._js.subscribe(
            f"{self.prefix}.{subject_filter}", stream=self.name, config=config, ordered_consumer=True,
            idle_heartbeat=FOLLOW_HEARTBEAT,
        )
        try:
            async for message in self._arrivals(subscription):
                js_seq = _stream_seq(message)
                for index, envelope in enumerate(_decode(message.data)):
                    position = js_seq * POSITION_STRIDE + index
                    if position > from_position:
                        yield position, envelope
        finally:
            await subscription.unsubscribe()

    async def end_position(self) -> int:
        """The position of the last envelope: the stream's last message, at its last index."""
        last_js = (await self._js.stream_info(self.name)).state.last_seq
        if not last_js:
            return 0
        # Stored messages never change (deny delete, deny purge), so reading the last one after asking
        # for its number is no race: later appends only get higher positions.
        last = await self._reader.get(last_js)
        return last_js * POSITION_STRIDE + (len(_decode(last.data)) - 1 if last else 0)

    # ---- JetStream details ------------------------------------------------------------------------

    async def _arrivals(self, subscription) -> AsyncIterator:
        """The follow's messages as nats-py's `messages` iterator gives them, without the task and the
        `asyncio.wait` it starts for every message (a good part of what a lobby spent on each command it
        follows: docs/lobby-capacity.md, twelfth round). It reads nats-py's queue as that iterator does
        and keeps the same count (flow control answers the server by the queue's length, so a reader that
        stops reading still holds the server back); it ends when the store closes. A callback
        subscription would need no private part, but nats-py then answers flow control as each message
        arrives, not as it is read. A nats-py without that queue: its own iterator."""
        queue = getattr(subscription, "_pending_queue", None)
        if not isinstance(queue, asyncio.Queue) or not hasattr(subscription, "_pending_size"):
            async for message in subscription.messages:
                yield message
            return
        self._follows.add(queue)
        try:
            while (message := await queue.get()) is not _FOLLOW_ENDED:
                queue.task_done()
                subscription._pending_size -= len(message.data)
                yield message
        finally:
            self._follows.discard(queue)

    def _subject(self, stream: str) -> str:
        return f"{self.prefix}.{check_stream_name(stream)}"

    async def _read_to_end(self, stream: str, subject: str, index: StreamIndex, *,
                           exact: bool = False) -> list[Envelope]:
        """Read the stream from where the index ends to the stream's end, teaching the index; returns what
        was read. (An index that does not cover seq 1 yet starts at the stream's first message.)

        Direct gets may be answered by any replica of the stream, and a follower may lag the leader by a
        moment. That never makes an append unsafe (the leader checks the expected last message), but a
        "was it stored?" must be exact: `exact` asks the leader where the subject ends, and reads until
        that message is in."""
        end = await self._leader_last(subject) if exact else None
        read: list[Envelope] = []
        last, where = index.seq, index.where
        for attempt in range(READ_TO_LEADER_ATTEMPTS):
            async for stored in self._reader.messages(subject, where + 1):
                message = _decode(stored.data)
                _check_follows(stream, last, message)
                last, where = message[-1].seq, stored.seq
                self._indexes.learn(index, stored.seq, message)   # a no-op if another reader taught it first
                read.extend(message)
            if end is None or where >= end or index.where >= end:
                return read
            await asyncio.sleep(0.005 * (attempt + 1))      # a follower that has not got it yet
        raise StoreError(f"reading {stream}: the replicas have not caught up with the leader")

    async def _leader_last(self, subject: str) -> int:
        """The JetStream seq of the subject's last message, as the stream's leader has it (0: none)."""
        try:
            return (await self._js.get_last_msg(self.name, subject, direct=False)).seq or 0
        except NotFoundError:
            return 0

    async def _stored(self, stream: str, subject: str, index: StreamIndex,
                      command_id: str) -> list[Envelope] | None:
        """The envelopes of `command_id` among what the index covers, or None if it is not there."""
        where = index.lookup(command_id)
        if where is None:
            return None
        if where != COLLIDED:
            stored = await self._reader.get(where)
            if stored is not None and stored.subject == subject:
                found = _decode(stored.data)
                if found[0].command_id == command_id:
                    return found
        # Another id shares the digest (or the index is wrong): the stream itself has the answer.
        async for stored in self._reader.messages(subject, 1):
            found = _decode(stored.data)
            if found[0].seq > index.seq:
                return None
            if found[0].command_id == command_id:
                return found
        return None


_ENVELOPES = TypeAdapter(list[Envelope])


def _decode(data: bytes) -> list[Envelope]:
    envelopes = _ENVELOPES.validate_json(data)   # pydantic-core parses and validates in one pass
    if not envelopes:
        raise StoreError("a stored message holds no envelope")
    return envelopes


def _stream_seq(message) -> int:
    """The JetStream seq of a followed message, from its ack subject: nats-py's `metadata` would build a
    dataclass and a datetime per message for this one number. `$JS.ACK.<stream>.<consumer>.<delivered>.
    <stream seq>...` (9 tokens), or with a domain and an account hash before the stream (11 or more)."""
    tokens: list[str] = message.reply.split(".") if message.reply else []
    if (len(tokens) == 9 or len(tokens) >= 11) and tokens[0] == "$JS" and tokens[1] == "ACK":
        return int(tokens[5] if len(tokens) == 9 else tokens[7])
    return message.metadata.sequence.stream         # not an ack subject: nats-py says why


def _check_follows(stream: str, last_seq: int, message: list[Envelope]) -> None:
    """A message read must carry on from the one before it: a hole means a reply went missing."""
    if message[0].seq != last_seq + 1:
        raise StoreError(f"reading {stream}: seq {message[0].seq} came after seq {last_seq}; read again")
