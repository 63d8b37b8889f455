"""What a store instance knows of its streams' prefixes: where each ends, and the command ids in them.

A `StreamIndex` covers a stream from seq 1 to `seq` with no hole: it is only ever built by reading the
stream from its first message, by a read that starts right after what it covers, by this instance's own
appends (which land right after it), or by adopting a `StreamCheckpoint` that was checked against the
stream (`store.adopt`). Stored messages never change (deny delete, deny purge), so what an index says
of seqs 1..seq stays true for ever; it may only be behind the stream's end.

Command ids are kept as 64-bit digests mapped to the message (append) that holds them (`CommandSet`). A digest
is not a proof: a store that finds one fetches that append and compares the whole id, and if two ids
ever share a digest it falls back to reading the stream (`COLLIDED`). So the digest's size is a matter
of memory, never of correctness.

`StreamIndexes` holds them for many streams, least recently used first out once the ids held pass a
bound: an index dropped is rebuilt by the next read of its stream.
"""
from __future__ import annotations

import bisect
import functools
import hashlib
import itertools
import operator
import struct
import sys
from array import array
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Mapping

from starbase_core.envelope import GENESIS_HASH, Envelope

MARK_EVERY = 32     # seqs between two marks of an index
COLLIDED = -1       # a digest shared by two command ids of one stream: look the id up in the stream itself


# A command's id is digested up to three times on its way in (looked up before the decision, looked up
# again by the append, learnt after it): the recent ones are kept.
@functools.lru_cache(maxsize=4096)
def command_digest(command_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(command_id.encode(), digest_size=8).digest(), "big")


class CommandSet:
    """Command id digests → where their append is (a number only the store that made it reads).

    Two sorted arrays (16 bytes an id, and read from bytes or written to bytes without a Python loop,
    which is what makes a snapshot of a 20k-event game cheap to load) plus a dict of the latest
    additions, folded into the arrays once it grows. An entry in the dict overrides the arrays."""

    MERGE_AT = 4096

    def __init__(self, digests: array | None = None, places: array | None = None):
        self._digests = digests if digests is not None else array("Q")
        self._places = places if places is not None else array("q")
        self._recent: dict[int, int] = {}

    @classmethod
    def of(cls, mapping: Mapping[int, int]) -> "CommandSet":
        made = cls()
        made._recent.update(mapping)
        made._merge()
        return made

    def get(self, digest: int) -> int | None:
        found = self._recent.get(digest)
        if found is not None:
            return found
        at = bisect.bisect_left(self._digests, digest)
        return self._places[at] if at < len(self._digests) and self._digests[at] == digest else None

    def add(self, digest: int, where: int) -> int:
        """Note an append holding an id with this digest: 1 if the digest is new, else 0 (and if it was
        noted at another place, it is COLLIDED from now on)."""
        known = self.get(digest)
        if known is None:
            self._recent[digest] = where
            if len(self._recent) >= self.MERGE_AT:
                self._merge()
            return 1
        if known != where:
            self._recent[digest] = COLLIDED
        return 0

    def __len__(self) -> int:
        return len(self._digests) + len(self._recent)     # an upper bound until the next merge

    def items(self) -> dict[int, int]:
        self._merge()
        return dict(zip(self._digests, self._places))

    def copy(self) -> "CommandSet":
        self._merge()
        return CommandSet(array("Q", self._digests), array("q", self._places))

    def to_bytes(self) -> bytes:
        """The count, the digests, then the places, little-endian 64-bit each."""
        self._merge()
        digests, places = array("Q", self._digests), array("q", self._places)
        if sys.byteorder != "little":
            digests.byteswap()
            places.byteswap()
        return struct.pack("<I", len(digests)) + digests.tobytes() + places.tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> "CommandSet":
        if len(data) < 4:
            raise ValueError("a command map is at least 4 bytes")
        (count,) = struct.unpack_from("<I", data)
        if len(data) != 4 + 16 * count:
            raise ValueError(f"a command map of {count} ids is {4 + 16 * count} bytes, not {len(data)}")
        digests, places = array("Q"), array("q")
        digests.frombytes(data[4:4 + 8 * count])
        places.frombytes(data[4 + 8 * count:])
        if sys.byteorder != "little":
            digests.byteswap()
            places.byteswap()
        if not all(map(operator.lt, digests, itertools.islice(digests, 1, None))):
            raise ValueError("a command map's digests must be sorted and distinct")
        return cls(digests, places)

    def _merge(self) -> None:
        if not self._recent:
            return
        merged = dict(zip(self._digests, self._places))
        merged.update(self._recent)
        order = sorted(merged)
        self._digests, self._places = array("Q", order), array("q", (merged[d] for d in order))
        self._recent = {}


@dataclass(frozen=True)
class StreamCheckpoint:
    """A stream's prefix as a store knew it: through `seq`, whose envelope has `hash` and which the store
    finds again at `position` (the store's own number for it), with the command ids of seqs 1..seq (their
    digests, and where the store finds their appends). A cache like a snapshot: only a store's `adopt`,
    which checks the envelope there, makes one usable."""

    stream: str
    seq: int
    hash: str
    position: int
    commands: CommandSet


@dataclass
class StreamIndex:
    seq: int = 0
    hash: str = GENESIS_HASH
    where: int = 0               # the adapter's number for the message holding `seq` (0: none yet)
    commands: CommandSet = field(default_factory=CommandSet)   # digest → message number (or COLLIDED)
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
            # Seen at another place already: two ids with one digest, or one id stored twice (only a
            # stream written by something else than a Starbase store can hold that): COLLIDED.
            added = self.commands.add(command_digest(command_id), where)
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
