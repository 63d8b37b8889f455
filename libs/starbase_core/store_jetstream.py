"""The event store on NATS JetStream.

Layout: one JetStream stream (default `STARBASE`, file storage, deny delete, deny purge, direct get on)
holding subject `<prefix>.<starbase stream>` per Starbase stream (`sb.game.42`, `sb.table.7`).
One JetStream message per append: its payload is the JSON list of the envelopes of that append, so a
command's events land atomically or not at all. Appends carry `Nats-Expected-Last-Subject-Sequence`
(optimistic concurrency, checked by the server) and `Nats-Msg-Id` = `<stream>:<command id>`.

Command ids are remembered past JetStream's duplicate window by an index, a KV bucket
(`<NAME>_commands`) keyed by SHA-256(stream, command id). The index entry is written *before* the
publish, as "pending after JetStream seq J"; a message published with expected last subject sequence J
can only ever land as the next message on its subject after J, so one direct get tells whether a pending
attempt landed (no second write is needed to confirm it). A crash anywhere in between therefore never
lets a retried command be appended twice, even hours later. Cost of an append: one publish (fsynced); with a
command id also one KV create (fsynced); plus one direct get of the subject's last message when this
instance has not seen the stream's end itself (another replica appended, or first use).
"""
from __future__ import annotations

import hashlib
import json
from typing import AsyncIterator

from nats.aio.client import Client as NATS
from pydantic import TypeAdapter
from nats.js import api
from nats.js.kv import KeyValue
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js.errors import BadRequestError, KeyNotFoundError, KeyWrongLastSequenceError, NotFoundError

from starbase_core.bus import NatsAuth, connect_nats
from starbase_core.envelope import (
    GENESIS_HASH, Envelope, NewEvent, check_command_id, check_stream_name, seal,
)
from starbase_core.store import EmptyAppend, StoreError, WrongExpectedSeq

COMMAND_HEADER = "Starbase-Command-Id"
WRONG_LAST_SEQUENCE = 10071
# Positions are js_seq * STRIDE + index within the message, so each envelope has its own position.
POSITION_STRIDE = 4096
READ_BATCH = 256
READ_TIMEOUT = 2.0


class JetStreamEventStore:
    def __init__(self, connection: NATS, *, name: str = "STARBASE", subject_prefix: str = "sb",
                 replicas: int = 1, duplicate_window: float = 120.0, owns_connection: bool = False):
        self.name = name
        self.prefix = subject_prefix
        self.replicas = replicas
        self.duplicate_window = duplicate_window
        self._nc = connection
        self._js = connection.jetstream()
        self._owns_connection = owns_connection
        self._index_bucket: KeyValue | None = None
        # stream → (last seq seen, its hash, JetStream seq of its message). Stored messages never
        # change, so a hint is never wrong, only possibly old: `read(from_seq)` starts after it, and
        # `append` with expected_seq == its seq publishes straight away (the server refuses the
        # publish if the stream has moved on), saving a round trip on the common path.
        self._hints: dict[str, tuple[int, str, int]] = {}

    @classmethod
    async def connect(cls, url: str, *, ensure: bool = True, attempts: int = 30, auth: NatsAuth | None = None,
                      **options) -> "JetStreamEventStore":
        """Connect and (by default) create the stream and index; `ensure=False` for read-only tools.
        `auth`: the service's NATS credentials and TLS (`starbase_core.connections.nats_auth`)."""
        connection = await connect_nats(url, name="starbase-store", attempts=attempts, auth=auth)
        store = cls(connection, owns_connection=True, **options)
        if ensure:
            await store.ensure()
        return store

    async def ensure(self) -> None:
        """Create (or update) the stream and the command index; safe to call from every replica."""
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
        self._index_bucket = await self._js.create_key_value(api.KeyValueConfig(
            bucket=f"{self.name}_commands", history=1, storage=api.StorageType.FILE,
            replicas=self.replicas,
        ))

    @property
    def _index(self) -> KeyValue:
        if self._index_bucket is None:
            raise RuntimeError("the event store is not ready: call ensure() first")
        return self._index_bucket

    async def exists(self) -> bool:
        try:
            await self._js.stream_info(self.name)
        except NotFoundError:
            return False
        return True

    async def close(self) -> None:
        if self._owns_connection and not self._nc.is_closed:
            await self._nc.drain()

    # ---- the port ---------------------------------------------------------------------------------

    async def append(self, stream: str, events: list[NewEvent], *, expected_seq: int,
                     command_id: str | None = None) -> list[Envelope]:
        subject = self._subject(stream)
        check_command_id(command_id)
        if not events:
            raise EmptyAppend(f"nothing to append to {stream}")
        if len(events) >= POSITION_STRIDE:
            raise StoreError(f"at most {POSITION_STRIDE - 1} events per append")
        for attempt in range(10):  # only concurrent attempts of one command id loop here
            hinted_seq, hinted_hash, hinted_js = self._hints.get(stream, (0, GENESIS_HASH, 0))
            if attempt == 0 and hinted_seq == expected_seq and hinted_seq > 0:
                js_last, actual, last_hash = hinted_js, hinted_seq, hinted_hash
            else:
                js_last, last = await self._last_message(subject)
                actual, last_hash = (last[-1].seq, last[-1].hash) if last else (0, GENESIS_HASH)
            if actual != expected_seq:
                # A retry of a command that did land sees the stream past its expected seq.
                if command_id is not None and (found := await self.find_command(stream, command_id)):
                    return found
                raise WrongExpectedSeq(actual, expected_seq, stream)
            if command_id is not None:
                claimed, found = await self._claim(stream, subject, command_id, js_last)
                if found is not None:
                    return found
                if not claimed:
                    continue  # another attempt of this command moved the entry: look again
            sealed = seal(stream, events, last_seq=actual, last_hash=last_hash, command_id=command_id)
            return await self._publish(stream, subject, sealed, js_last, command_id)
        raise StoreError(f"command {command_id!r} on {stream} keeps racing with itself")

    async def find_command(self, stream: str, command_id: str) -> list[Envelope] | None:
        subject = self._subject(stream)
        entry, _ = await self._index_entry(stream, command_id)
        return None if entry is None else await self._resolve(subject, command_id, entry)

    async def read(self, stream: str, from_seq: int = 1) -> list[Envelope]:
        subject = self._subject(stream)
        known_seq, _, known_js = self._hints.get(stream, (0, GENESIS_HASH, 0))
        start = known_js + 1 if 0 < known_seq < from_seq else 1
        envelopes: list[Envelope] = []
        async for js_seq, message_envelopes in self._messages_on(subject, start):
            envelopes.extend(e for e in message_envelopes if e.seq >= from_seq)
            self._hint(stream, message_envelopes[-1], js_seq)
        return envelopes

    async def last_seq(self, stream: str) -> int:
        _, last = await self._last_message(self._subject(stream))
        return last[-1].seq if last else 0

    async def follow(self, from_position: int = 0,
                     subject_filter: str = "game.>") -> AsyncIterator[tuple[int, Envelope]]:
        start = max(from_position // POSITION_STRIDE, 1)
        config = api.ConsumerConfig(deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE,
                                    opt_start_seq=start)
        subscription = await self._js.subscribe(
            f"{self.prefix}.{subject_filter}", stream=self.name, config=config, ordered_consumer=True,
        )
        try:
            async for message in subscription.messages:
                js_seq = message.metadata.sequence.stream
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
        return last_js * POSITION_STRIDE + len(_decode((await self._get(last_js)).data)) - 1

    # ---- JetStream details ------------------------------------------------------------------------

    def _subject(self, stream: str) -> str:
        return f"{self.prefix}.{check_stream_name(stream)}"

    async def _publish(self, stream: str, subject: str, sealed: list[Envelope], js_last: int,
                       command_id: str | None) -> list[Envelope]:
        headers = {"Nats-Expected-Last-Subject-Sequence": str(js_last)}
        if command_id is not None:
            headers["Nats-Msg-Id"] = f"{stream}:{command_id}"
            headers[COMMAND_HEADER] = command_id
        payload = json.dumps([e.model_dump() for e in sealed], separators=(",", ":")).encode()
        try:
            ack = await self._js.publish(subject, payload, stream=self.name, headers=headers)
        except BadRequestError as error:
            if error.err_code != WRONG_LAST_SEQUENCE:
                raise
            # The server checks the expected sequence before duplicates: our own earlier attempt
            # may be what got in first.
            if command_id is not None and (found := await self.find_command(stream, command_id)):
                return found
            raise WrongExpectedSeq(await self.last_seq(stream), sealed[0].seq - 1, stream) from None
        if ack.duplicate:  # the server had it already: answer with what it stored, and pin the index
            stored = _decode((await self._get(ack.seq)).data)
            assert command_id is not None, "only a command id makes a publish a duplicate"
            await self._index.put(_index_key(stream, command_id), _encode_entry({"at": ack.seq}))
        else:
            stored = sealed
        self._hint(stream, stored[-1], ack.seq)
        return stored

    async def _index_entry(self, stream: str, command_id: str) -> tuple[dict | None, int | None]:
        try:
            entry = await self._index.get(_index_key(stream, command_id))
        except KeyNotFoundError:
            return None, None
        return (json.loads(entry.value) if entry.value else None), entry.revision

    async def _claim(self, stream: str, subject: str, command_id: str,
                     js_last: int) -> tuple[bool, list[Envelope] | None]:
        """Write "pending after js_last" for the command before publishing it.

        Returns (True, None) when claimed; (False, envelopes) when an earlier attempt already landed;
        (False, None) when a concurrent attempt changed the entry under us."""
        if await self._mark_pending(stream, command_id, js_last, None):
            return True, None
        entry, revision = await self._index_entry(stream, command_id)
        if entry is not None and (found := await self._resolve(subject, command_id, entry)):
            return False, found
        return await self._mark_pending(stream, command_id, js_last, revision), None

    async def _mark_pending(self, stream: str, command_id: str, js_last: int, revision: int | None) -> bool:
        key, value = _index_key(stream, command_id), _encode_entry({"after": js_last})
        try:
            if revision is None:
                await self._index.create(key, value)
            else:
                await self._index.update(key, value, last=revision)
        except KeyWrongLastSequenceError:
            return False
        return True

    async def _resolve(self, subject: str, command_id: str, entry: dict) -> list[Envelope] | None:
        """The envelopes an index entry points at, or None when that attempt never landed."""
        try:
            if "at" in entry:
                message = await self._get(entry["at"])
            else:
                message = await self._js.get_msg(self.name, seq=entry["after"] + 1, subject=subject,
                                                 next=True, direct=True)
        except NotFoundError:
            return None
        if message.subject != subject or (message.headers or {}).get(COMMAND_HEADER) != command_id:
            if "at" in entry:
                raise StoreError(f"command index points {command_id!r} at a message of another command")
            return None
        return _decode(message.data)

    async def _get(self, js_seq: int):
        return await self._js.get_msg(self.name, seq=js_seq, direct=True)

    async def _last_message(self, subject: str) -> tuple[int, list[Envelope]]:
        try:
            message = await self._js.get_last_msg(self.name, subject, direct=True)
        except NotFoundError:
            return 0, []
        return message.seq or 0, _decode(message.data or b"[]")

    def _hint(self, stream: str, last: Envelope, js_seq: int) -> None:
        if len(self._hints) > 100_000:
            self._hints.clear()
        if last.seq > self._hints.get(stream, (0, "", 0))[0]:
            self._hints[stream] = (last.seq, last.hash, js_seq)

    async def _messages_on(self, subject: str, start: int = 1):
        """Every message on one subject from JetStream seq `start`, by batched direct gets."""
        next_seq = start
        while True:
            batch, more = await self._batch(subject, next_seq)
            for js_seq, envelopes in batch:
                yield js_seq, envelopes
            if not more or not batch:
                return
            next_seq = batch[-1][0] + 1

    async def _batch(self, subject: str, start: int, attempts: int = 3):
        """One direct-get batch: ([(js_seq, envelopes)], more to read?). Reads are idempotent, so a
        request lost on a connection that just died is sent again (on a fresh inbox, so a late reply to
        the lost request cannot mix in)."""
        request = json.dumps({"seq": start, "next_by_subj": subject, "batch": READ_BATCH}).encode()
        for attempt in range(1, attempts + 1):
            inbox = self._nc.new_inbox()
            subscription = await self._nc.subscribe(inbox)
            batch: list[tuple[int, list[Envelope]]] = []
            try:
                await self._nc.publish(f"$JS.API.DIRECT.GET.{self.name}", request, reply=inbox)
                while True:
                    reply = await subscription.next_msg(timeout=READ_TIMEOUT)
                    headers = reply.headers or {}
                    status = headers.get("Status")
                    if status == "404":
                        return batch, False
                    if status == "204":  # the end of this batch
                        return batch, headers.get("Nats-Num-Pending", "0") != "0"
                    if status is not None:  # 503: no responders (JetStream not up yet), 408, …
                        raise StoreError(f"reading {subject} failed: status {status} "
                                         f"{headers.get('Description', '')}".rstrip())
                    batch.append((int(headers["Nats-Sequence"]), _decode(reply.data)))
                    if headers.get("Nats-Num-Pending") == "0":
                        return batch, False
            except NatsTimeoutError:
                if attempt == attempts:
                    raise StoreError(f"reading {subject}: no answer from JetStream") from None
            finally:
                await subscription.unsubscribe()
        raise AssertionError("unreachable")


_ENVELOPES = TypeAdapter(list[Envelope])


def _decode(data: bytes) -> list[Envelope]:
    return _ENVELOPES.validate_json(data)   # pydantic-core parses and validates in one pass


def _index_key(stream: str, command_id: str) -> str:
    return hashlib.sha256(f"{stream}\n{command_id}".encode()).hexdigest()


def _encode_entry(entry: dict) -> bytes:
    return json.dumps(entry).encode()
