"""The event-store port: append-only streams with optimistic concurrency and idempotent commands.

Adapters: `store_memory.MemoryEventStore` (unit tests, single process) and
`store_jetstream.JetStreamEventStore` (NATS JetStream, the real thing). Both pass the one contract suite
in `tests/core/test_store_contract.py`.

Semantics every adapter keeps:

- `append(stream, events, expected_seq=N, command_id=C)` stores all `events` atomically as seqs N+1, N+2, …
  only if the stream's last seq is N; otherwise it raises `WrongExpectedSeq(actual)` and stores nothing.
- A `command_id` is remembered per stream for ever: appending again with one already stored returns the
  envelopes first stored for it and stores nothing, whatever `expected_seq` says. `find_command` asks
  the same question without appending (a service checks it before re-deciding a retried command);
  with `catch_up=False` it answers from what this instance has read already, with no round trip, so
  None then only means "not in the part of the stream this instance knows" (the append still checks).
- `checkpoint(stream)` is what this instance knows of a stream's prefix (its last seq, hash, position and
  command ids), with no round trip, or None; `adopt(checkpoint)` checks one (kept in a snapshot, say)
  against the stream, its envelope at `position` must have that seq and hash, and if it holds, uses
  it, so that reading from `checkpoint.seq + 1` and appending after it need not read what it covers.
  A checkpoint is a cache: the store checks where it stands, its maker vouches for its command ids.
- `read(stream, from_seq)` gives the stream's envelopes in seq order; `last_seq` its last seq (0: empty).
- `follow(from_position, subject_filter)` yields `(position, envelope)` for every envelope of every
  stream whose name matches the NATS-style filter ("game.>", "table.*"), in append order, then waits
  for more. Positions are opaque, strictly increasing ints; `follow(p)` resumes right after position p,
  so a consumer that saves the position of each envelope it has handled resumes exactly.
- `end_position()` is the position of the last envelope in the whole store (0 when it is empty):
  `follow(end_position())` gives only what is appended from now on, and a projection rebuilding with
  `follow(0)` has caught up once it has handled that position.
"""
from __future__ import annotations

from typing import AsyncIterator, Protocol, runtime_checkable

from starbase_core.command_index import StreamCheckpoint
from starbase_core.envelope import Envelope, NewEvent

__all__ = ["EventStore", "StoreError", "WrongExpectedSeq", "EmptyAppend", "StreamCheckpoint", "subject_matches"]


class StoreError(Exception):
    pass


class WrongExpectedSeq(StoreError):
    """Someone appended first: re-read the stream and decide again."""

    def __init__(self, actual: int, expected: int | None = None, stream: str | None = None):
        super().__init__(f"stream {stream or '?'} is at seq {actual}, not the expected {expected}")
        self.actual = actual
        self.expected = expected
        self.stream = stream


class EmptyAppend(StoreError, ValueError):
    pass


@runtime_checkable
class EventStore(Protocol):
    async def append(self, stream: str, events: list[NewEvent], *, expected_seq: int,
                     command_id: str | None = None) -> list[Envelope]: ...

    async def find_command(self, stream: str, command_id: str, *,
                           catch_up: bool = True) -> list[Envelope] | None: ...

    def checkpoint(self, stream: str) -> StreamCheckpoint | None: ...

    async def adopt(self, checkpoint: StreamCheckpoint) -> bool: ...

    async def read(self, stream: str, from_seq: int = 1) -> list[Envelope]: ...

    async def last_seq(self, stream: str) -> int: ...

    def follow(self, from_position: int = 0,
               subject_filter: str = "game.>") -> AsyncIterator[tuple[int, Envelope]]: ...

    async def end_position(self) -> int: ...

    async def close(self) -> None: ...


def subject_matches(subject_filter: str, subject: str) -> bool:
    """NATS subject matching: '*' is one token, '>' the rest (one or more tokens)."""
    wanted, tokens = subject_filter.split("."), subject.split(".")
    for index, token in enumerate(wanted):
        if token == ">":
            return len(tokens) > index
        if index >= len(tokens) or (token != "*" and token != tokens[index]):
            return False
    return len(tokens) == len(wanted)
