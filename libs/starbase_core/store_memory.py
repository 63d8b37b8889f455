"""An in-memory event store for unit tests and single-process tools. Same contract as JetStream's."""
from __future__ import annotations

import asyncio
from typing import AsyncIterator

from starbase_core.command_index import CommandSet, StreamCheckpoint, command_digest
from starbase_core.envelope import (
    GENESIS_HASH, Envelope, NewEvent, check_command_id, check_stream_name, seal,
)
from starbase_core.store import EmptyAppend, WrongExpectedSeq, subject_matches


class MemoryEventStore:
    def __init__(self) -> None:
        self._streams: dict[str, list[Envelope]] = {}
        self._commands: dict[tuple[str, str], list[Envelope]] = {}
        self._log: list[Envelope] = []          # every envelope in append order; position = index + 1
        self._appended = asyncio.Condition()

    async def append(self, stream: str, events: list[NewEvent], *, expected_seq: int,
                     command_id: str | None = None) -> list[Envelope]:
        check_stream_name(stream)
        check_command_id(command_id)
        if not events:
            raise EmptyAppend(f"nothing to append to {stream}")
        # No await between the checks and the writes: the asyncio loop makes this block atomic.
        if command_id is not None and (first := self._commands.get((stream, command_id))):
            return list(first)
        envelopes = self._streams.setdefault(stream, [])
        if len(envelopes) != expected_seq:
            raise WrongExpectedSeq(len(envelopes), expected_seq, stream)
        last_hash = envelopes[-1].hash if envelopes else GENESIS_HASH
        sealed = seal(stream, events, last_seq=expected_seq, last_hash=last_hash, command_id=command_id)
        envelopes.extend(sealed)
        self._log.extend(sealed)
        if command_id is not None:
            self._commands[(stream, command_id)] = sealed
        async with self._appended:
            self._appended.notify_all()
        return list(sealed)

    async def find_command(self, stream: str, command_id: str, *,
                           catch_up: bool = True) -> list[Envelope] | None:
        found = self._commands.get((stream, command_id))    # one process: always to the end
        return list(found) if found else None

    def checkpoint(self, stream: str) -> StreamCheckpoint | None:
        envelopes = self._streams.get(check_stream_name(stream))
        if not envelopes:
            return None
        position = {id(e): p for p, e in enumerate(self._log, start=1) if e.stream == stream}
        commands = CommandSet.of({command_digest(cid): position[id(first[0])]
                                  for (name, cid), first in self._commands.items() if name == stream})
        return StreamCheckpoint(stream=stream, seq=envelopes[-1].seq, hash=envelopes[-1].hash,
                                position=position[id(envelopes[-1])], commands=commands)

    async def adopt(self, checkpoint: StreamCheckpoint) -> bool:
        """Only checks it: this store always knows its streams to the end."""
        if not 0 < checkpoint.position <= len(self._log):
            return False
        envelope = self._log[checkpoint.position - 1]
        return (envelope.stream, envelope.seq, envelope.hash) == \
            (checkpoint.stream, checkpoint.seq, checkpoint.hash)

    async def read(self, stream: str, from_seq: int = 1) -> list[Envelope]:
        check_stream_name(stream)
        return list(self._streams.get(stream, [])[max(from_seq, 1) - 1:])

    async def last_seq(self, stream: str) -> int:
        return len(self._streams.get(check_stream_name(stream), []))

    async def follow(self, from_position: int = 0,
                     subject_filter: str = "game.>") -> AsyncIterator[tuple[int, Envelope]]:
        position = from_position
        while True:
            while position < len(self._log):
                envelope = self._log[position]
                position += 1
                if subject_matches(subject_filter, envelope.stream):
                    yield position, envelope
            async with self._appended:
                await self._appended.wait_for(lambda: position < len(self._log))

    async def end_position(self) -> int:
        return len(self._log)

    async def close(self) -> None:
        pass
