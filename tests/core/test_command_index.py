"""The per-stream command index: what it learns, what it forgets, and checkpoints packed as text."""
from __future__ import annotations

import pytest

from starbase_core.command_index import (
    COLLIDED, CommandSet, StreamIndex, StreamIndexes, command_digest,
)
from starbase_core.envelope import GENESIS_HASH, NewEvent, seal


def append(index: StreamIndex, where: int, command_id: str | None, count: int = 1):
    sealed = seal("game.g", [NewEvent(type="X")] * count, last_seq=index.seq, last_hash=index.hash,
                  command_id=command_id)
    return index.learn(where, sealed), sealed


def test_an_index_learns_only_the_append_right_after_what_it_covers():
    index = StreamIndex()
    assert append(index, 5, "c1", count=2)[0] == 1
    assert (index.seq, index.where, index.lookup("c1")) == (2, 5, 5)
    gap = seal("game.g", [NewEvent(type="X")], last_seq=7, last_hash=GENESIS_HASH, command_id="c9")
    assert index.learn(9, gap) == -1 and index.seq == 2 and index.lookup("c9") is None
    assert append(index, 8, None)[0] == 0 and index.seq == 3 and index.where == 8


def test_one_digest_for_two_messages_sends_the_lookup_to_the_stream():
    index = StreamIndex()
    append(index, 1, "c1")
    index.commands.add(command_digest("c2"), 1)       # as if c2's digest were c1's
    append(index, 2, "c2")
    assert index.lookup("c2") == COLLIDED


def test_a_command_set_survives_packing_and_merging_including_collisions():
    commands = {command_digest(f"c{i}"): 4096 * (i * 3 + 1) for i in range(500)}
    commands[12345] = COLLIDED
    packed = CommandSet.of(commands).to_bytes()
    assert CommandSet.from_bytes(packed).items() == commands
    assert len(packed) == 4 + 16 * len(commands)
    grown = CommandSet.from_bytes(packed)
    grown.MERGE_AT = 7
    for i in range(500, 520):                          # merged into the arrays every 7 additions
        assert grown.add(command_digest(f"c{i}"), i) == 1
    assert grown.add(command_digest("c3"), 4096 * 11) == 0 and grown.get(command_digest("c3")) == COLLIDED
    assert grown.get(command_digest("c519")) == 519 and grown.get(command_digest("c4")) == 4096 * 13
    assert grown.get(command_digest("nope")) is None
    assert len(grown.copy().items()) == 521


def test_a_truncated_or_unsorted_command_map_is_refused():
    packed = CommandSet.of({1: 4096, 2: 8192}).to_bytes()
    swapped = packed[:4] + packed[12:20] + packed[4:12] + packed[20:]
    for bad in (packed[:-1], packed[:12], packed + b"x", b"\0", swapped):
        with pytest.raises(ValueError):
            CommandSet.from_bytes(bad)


def test_indexes_drop_the_least_recently_used_once_past_their_capacity():
    indexes = StreamIndexes(capacity=3)
    for stream in ("game.a", "game.b"):
        index = indexes.get(stream)
        for where in (1, 2):
            sealed = seal(stream, [NewEvent(type="X")], last_seq=index.seq, last_hash=index.hash,
                          command_id=f"{stream}{where}")
            assert indexes.learn(index, where, sealed)
    assert indexes.peek("game.a") is None and indexes.peek("game.b") is not None
    indexes.get("game.c")
    assert len(indexes) == 2
