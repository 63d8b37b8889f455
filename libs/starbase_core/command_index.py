"""What a store instance knows of its streams' prefixes: where each ends, and the command ids in them.

A `StreamIndex` covers a stream from seq 1 to `seq` with no hole: it is only ever built by reading the
stream from its first message, by a read that starts right after what it covers, by this instance's own
appends (which land right after it), or by adopting a `StreamCheckpoint` that was checked against the
stream (`store.adopt`). Stored messages never change (deny delete, deny purge), so what an index says
of seqs 1..seq stays true for ever; it may only be behind the stream's end.

Command ids are kept as 64-bit digests mapped to the message (append) that holds them. A digest
is not a proof: a store that finds one fetches that append and compares the whole id, and if two ids
ever share a digest it falls back to reading the stream (`COLLIDED`). So the digest's size is a matter
of memory, never of correctness.

`StreamIndexes` holds them for many streams, least recently used first out once the ids held pass a
bound: an index dropped is rebuilt by the next read of its stream.
"""
from __future__ import annotations

import base64
import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Mapping

from starbase_core.envelope import GENESIS_HASH, Envelope

COLLIDED = -1       # a digest shared by two command ids of one stream: look the id up in the stream itself


def command_digest(command_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(command_id.encode(), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class StreamCheckpoint:
    """A stream's prefix as a store knew it: through `seq` (whose envelope has `hash` and sits at the
    store's `position`, the position `follow` gives it), with the digests of its command ids mapped to the
    position of the first envelope of their append. A cache like a snapshot: only a store's `adopt`,
    which checks the envelope at `position`, makes one usable."""

    stream: str
    seq: int
    hash: str
    position: int
    commands: Mapping[int, int]

    def packed_commands(self) -> str:
        """The command map as compact text: per id its digest, then the position's distance from the one
        before (positions are ≥ 1 and distinct, so a distance is ≥ 1; 0 stands for COLLIDED)."""
        out, last = bytearray(), 0
        for digest, position in sorted(self.commands.items(), key=lambda item: item[1]):
            if position == COLLIDED:
                out += digest.to_bytes(8, "big") + _varint(0)
            else:
                out += digest.to_bytes(8, "big") + _varint(position - last)
                last = position
        return base64.b64encode(bytes(out)).decode()

    @staticmethod
    def unpack_commands(text: str) -> dict[int, int]:
        data, commands, at, position = base64.b64decode(text, validate=True), {}, 0, 0
        while at < len(data):
            if at + 8 > len(data):
                raise ValueError("a packed command map ends inside a digest")
            digest = int.from_bytes(data[at:at + 8], "big")
            distance, at = _read_varint(data, at + 8)
            if distance == 0:
                commands[digest] = COLLIDED
            else:
                position += distance
                commands[digest] = position
        return commands


@dataclass
class StreamIndex:
    seq: int = 0
    hash: str = GENESIS_HASH
    where: int = 0               # the adapter's number for the message holding `seq` (0: none yet)
    commands: dict[int, int] = field(default_factory=dict)   # digest → message number (or COLLIDED)

    def learn(self, where: int, envelopes: list[Envelope]) -> int:
        """Take in one stored append (message number `where`) if it comes right after what the index
        covers. Returns how many command ids it added (0 or 1), or -1 if it did not follow on."""
        if not envelopes or envelopes[0].seq != self.seq + 1:
            return -1
        added = 0
        if (command_id := envelopes[0].command_id) is not None:
            digest = command_digest(command_id)
            known = self.commands.get(digest)
            if known is None:
                self.commands[digest] = where
                added = 1
            elif known != where:
                # Two ids with one digest, or one id stored twice (only a stream written by something else
                # than a Starbase store can hold that): the stream itself has the answer.
                self.commands[digest] = COLLIDED
        self.seq, self.hash, self.where = envelopes[-1].seq, envelopes[-1].hash, where
        return added

    def lookup(self, command_id: str) -> int | None:
        """The message that may hold `command_id` (check the id there), COLLIDED, or None: not in 1..seq."""
        return self.commands.get(command_digest(command_id))


class StreamIndexes:
    """Per-stream indexes, bounded by the command ids held: least recently used out first. An index
    dropped while someone still holds it only stops being shared; the next `get` starts a new one."""

    def __init__(self, capacity: int = 1_000_000):
        self.capacity = capacity
        self._indexes: OrderedDict[str, StreamIndex] = OrderedDict()
        self._held = 0

    def get(self, stream: str) -> StreamIndex:
        """The stream's index (a fresh empty one if none), now the most recently used."""
        index = self._indexes.get(stream)
        if index is None:
            index = self._indexes[stream] = StreamIndex()
        self._indexes.move_to_end(stream)
        return index

    def peek(self, stream: str) -> StreamIndex | None:
        return self._indexes.get(stream)

    def learn(self, index: StreamIndex, where: int, envelopes: list[Envelope]) -> bool:
        added = index.learn(where, envelopes)
        if added > 0:
            self._held += added
            self._trim()
        return added >= 0

    def replace(self, stream: str, index: StreamIndex) -> None:
        if (old := self._indexes.get(stream)) is not None:
            self._held -= len(old.commands)
        self._indexes[stream] = index
        self._indexes.move_to_end(stream)
        self._held += len(index.commands)
        self._trim()

    def drop(self, stream: str) -> None:
        if (old := self._indexes.pop(stream, None)) is not None:
            self._held -= len(old.commands)

    def __len__(self) -> int:
        return len(self._indexes)

    def _trim(self) -> None:
        while self._held > self.capacity and len(self._indexes) > 1:
            _, dropped = self._indexes.popitem(last=False)
            self._held -= len(dropped.commands)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if at >= len(data):
            raise ValueError("a packed command map ends inside a number")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at, shift = at + 1, shift + 7
        if not byte & 0x80:
            return value, at
