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

import bisect
import hashlib
import struct
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Mapping

from starbase_core.envelope import GENESIS_HASH, Envelope

MARK_EVERY = 32     # seqs between two marks of an index
COLLIDED = -1       # a digest shared by two command ids of one stream: look the id up in the stream itself


def command_digest(command_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(command_id.encode(), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class StreamCheckpoint:
    """A stream's prefix as a store knew it: through `seq`, whose envelope has `hash` and which the store
    finds again at `position` (a position in the sense of `follow`, within the append that ends at
    `seq`), with the digests of its command ids mapped to the position of their append. A cache like a
    snapshot: only a store's `adopt`, which checks the envelope there, makes one usable."""

    stream: str
    seq: int
    hash: str
    position: int
    commands: Mapping[int, int]

    def commands_to_bytes(self) -> bytes:
        """The command map as bytes: the count, the digests, then the positions (COLLIDED is -1)."""
        count = len(self.commands)
        return struct.pack(f"<I{count}Q{count}q", count, *self.commands.keys(), *self.commands.values())

    @staticmethod
    def commands_from_bytes(data: bytes) -> dict[int, int]:
        (count,) = struct.unpack_from("<I", data)
        if len(data) != 4 + 16 * count:
            raise ValueError(f"a command map of {count} ids is {4 + 16 * count} bytes, not {len(data)}")
        digests = struct.unpack_from(f"<{count}Q", data, 4)
        return dict(zip(digests, struct.unpack_from(f"<{count}q", data, 4 + 8 * count)))


@dataclass
class StreamIndex:
    seq: int = 0
    hash: str = GENESIS_HASH
    where: int = 0               # the adapter's number for the message holding `seq` (0: none yet)
    commands: dict[int, int] = field(default_factory=dict)   # digest → message number (or COLLIDED)
    # (seq, message number) of some appends' ends, ascending: a read from the middle of the stream starts
    # at the nearest one before it instead of at the first message.
    marks: list[tuple[int, int]] = field(default_factory=list)

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
        if not self.marks or self.seq - self.marks[-1][0] >= MARK_EVERY:
            self.marks.append((self.seq, where))
        return added

    def mark(self, seq: int, where: int) -> None:
        """Remember where an append ending at `seq` is (a checked checkpoint's place)."""
        if seq <= self.seq and (seq, where) not in self.marks:
            bisect.insort(self.marks, (seq, where))

    def start_for(self, from_seq: int) -> tuple[int, int]:
        """The last (seq, message number) known before `from_seq`: read from the message after it."""
        at = bisect.bisect_left(self.marks, (from_seq, -1))
        return self.marks[at - 1] if at else (0, 0)

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
