"""The event envelope: what the store keeps for every event, hash-chained per stream.

An `Envelope` wraps one event of one stream (`game.<id>`, `table.<id>`) with its place (`seq`: 1, 2, …),
who caused it (`actor`, `command_id`), when (`time`, ISO 8601 UTC), free `meta` (for games: `draw_end`,
the FairRng counter after the command, and `command`, the command that produced it) and the chain:
`hash` is SHA-256 over the canonical JSON (sorted keys, no spaces) of every other field, `prev_hash` is
the previous envelope's `hash` (64 zeros for the first). Altering, dropping or reordering any stored
event breaks the chain, which is what lets an auditor trust a stream handed to them.
"""
from __future__ import annotations

import hashlib
import json
import re
import time as _clock
from datetime import datetime, timezone
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field

GENESIS_HASH = "0" * 64

# Stream names are NATS subject tokens joined by dots ("game.ab12"): no spaces, no wildcards.
STREAM_NAME = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$")


class InvalidName(ValueError):
    pass


def check_stream_name(stream: str) -> str:
    if not STREAM_NAME.match(stream):
        raise InvalidName(
            f"{stream!r} is not a stream name: use dot-separated tokens of letters, digits, '_' or '-', "
            "such as 'game.42'"
        )
    return stream


# Command ids travel in NATS headers: printable ASCII without spaces, bounded.
COMMAND_ID = re.compile(r"^[!-~]{1,200}$")


def check_command_id(command_id: str | None) -> str | None:
    if command_id is not None and not COMMAND_ID.match(command_id):
        raise InvalidName(f"{command_id!r} is not a command id: use 1 to 200 printable ASCII characters")
    return command_id


# Built once: `json.dumps` with any option builds a new encoder on every call, and every envelope
# sealed is encoded twice (its hash, the stored payload). Same options, so the same bytes.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> bytes:
    """The one byte form hashes are taken over: sorted keys, no spaces, UTF-8."""
    return _CANONICAL.encode(value).encode()


_this_second: tuple[int, str] = (-1, "")     # (a UTC second, its "YYYY-MM-DDTHH:MM:SS")


def utc_now() -> str:
    """Now, as `datetime.now(timezone.utc).isoformat(timespec="microseconds")` with a Z: the date and
    time of the second are formatted once a second, as each command sealed asks for the time."""
    global _this_second
    seconds, nanoseconds = divmod(_clock.time_ns(), 1_000_000_000)
    if seconds != _this_second[0]:
        _this_second = (seconds, datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{_this_second[1]}.{nanoseconds // 1000:06d}Z"


class NewEvent(BaseModel):
    """An event about to be appended; the store gives it its place, time and hashes."""

    model_config = ConfigDict(frozen=True)
    type: str
    data: dict = Field(default_factory=dict)
    actor: str | None = None
    meta: dict = Field(default_factory=dict)


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    stream: str
    seq: int
    type: str
    data: dict
    command_id: str | None = None
    actor: str | None = None
    time: str
    meta: dict = Field(default_factory=dict)
    prev_hash: str
    hash: str

    def computed_hash(self) -> str:
        return hash_of(self.model_dump(exclude={"hash"}))


def hash_of(fields: dict) -> str:
    return hashlib.sha256(canonical_json(fields)).hexdigest()


def seal(stream: str, events: Iterable[NewEvent], *, last_seq: int, last_hash: str,
         command_id: str | None = None, time: str | None = None) -> list[Envelope]:
    """Chain new events after (last_seq, last_hash): the envelopes the store will append."""
    return [Envelope.model_construct(**fields)
            for fields in _sealed_fields(stream, events, last_seq, last_hash, command_id, time)]


def seal_to_json(stream: str, events: Iterable[NewEvent], *, last_seq: int, last_hash: str,
                 command_id: str | None = None) -> tuple[list[Envelope], bytes]:
    """`seal`, and the JSON list of the envelopes' fields (as `model_dump` orders them) a store keeps,
    made from the same dicts rather than dumped back out of the models."""
    sealed = _sealed_fields(stream, events, last_seq, last_hash, command_id, None)
    payload = _COMPACT.encode(sealed).encode()
    return [Envelope.model_construct(**fields) for fields in sealed], payload


def _sealed_fields(stream: str, events: Iterable[NewEvent], last_seq: int, last_hash: str,
                   command_id: str | None, time: str | None) -> list[dict[str, Any]]:
    # Built from NewEvents, which pydantic has validated, and from this function's own values: the
    # envelopes need no second validation (model_construct), which a command would pay for per event.
    time = time or utc_now()
    sealed: list[dict[str, Any]] = []
    prev_hash, seq = last_hash, last_seq
    for event in events:
        seq += 1
        body: dict[str, Any] = {
            "stream": stream, "seq": seq, "type": event.type, "data": event.data,
            "command_id": command_id, "actor": event.actor, "time": time, "meta": event.meta,
            "prev_hash": prev_hash,
        }
        body["hash"] = prev_hash = hash_of(body)
        sealed.append(body)
    return sealed


_RUN_START, _SEQ_FIELD, _HASH_FIELD = '{"stream":"', '","seq":', ',"hash":"'


def run_of(first_json: str, last_json: str) -> tuple[str, int, str] | None:
    """(stream, first seq, last hash) of a run of one stream's envelopes given as JSON (each as
    `model_dump_json` writes it: the fields in order, compact), read off the first one's start and the
    last one's end without parsing either; None when they do not read so. A copy of the run held
    elsewhere is the same run when it has as many envelopes, starts at that seq of that stream and ends
    with that hash: the hash seals its envelope, which names the hash of the one before, and so on."""
    if not first_json.startswith(_RUN_START) or not last_json.endswith('"}'):
        return None
    stream_end = first_json.find(_SEQ_FIELD, len(_RUN_START))
    seq_start = stream_end + len(_SEQ_FIELD)
    seq_end = first_json.find(",", seq_start, seq_start + 20)
    hash_start = len(last_json) - 2 - 64
    if stream_end < 0 or seq_end < 0 or last_json[hash_start - len(_HASH_FIELD):hash_start] != _HASH_FIELD:
        return None
    seq = first_json[seq_start:seq_end]
    if not seq.isdigit():
        return None
    return first_json[len(_RUN_START):stream_end], int(seq), last_json[hash_start:-2]


def chain_problems(envelopes: Iterable[Envelope], *, stream: str | None = None) -> list[str]:
    """Everything wrong with a stream's chain, in order; empty when the chain holds from seq 1."""
    problems: list[str] = []
    prev_hash, expected_seq = GENESIS_HASH, 1
    for envelope in envelopes:
        where = f"seq {envelope.seq}"
        if stream is not None and envelope.stream != stream:
            problems.append(f"{where}: belongs to stream {envelope.stream!r}, not {stream!r}")
        if envelope.seq != expected_seq:
            problems.append(f"{where}: expected seq {expected_seq} (a gap, a duplicate or a reorder)")
        if envelope.prev_hash != prev_hash:
            problems.append(f"{where}: prev_hash does not match the hash of the event before it")
        if envelope.computed_hash() != envelope.hash:
            problems.append(f"{where}: hash does not match its content (the event was altered)")
        prev_hash, expected_seq = envelope.hash, envelope.seq + 1
    return problems


def verify_chain(envelopes: Iterable[Envelope], *, stream: str | None = None) -> None:
    if problems := chain_problems(envelopes, stream=stream):
        raise BrokenChain(problems)


class BrokenChain(Exception):
    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems
