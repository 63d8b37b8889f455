"""Snapshots: a replica that has never seen a game resumes it from its snapshot and the stream's tail,
exactly as if it had folded the whole stream; a snapshot nobody could trust is ignored; and the checks
of `check_snapshot` agree with a fold from zero."""
from __future__ import annotations

import random

import pytest

from adjudicator.service import Adjudicator
from starbase_core import snapshots as snapshot_module
from starbase_core.gamestream import replay
from starbase_core.seeds import MemorySeedVault
from starbase_core.snapshots import (
    Captured, MemorySnapshotBucket, Snapshots, check_snapshot, open_snapshot, seal_snapshot,
)
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game

PLAYERS = ["ann", "bob", "cyd"]
KEY = b"k" * 32
EVERY = 40


class ReadLog:
    """The store, noting where every read starts."""

    def __init__(self, store):
        self._store, self.reads = store, []

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def read(self, stream, from_seq=1):
        self.reads.append(from_seq)
        return await self._store.read(stream, from_seq)


async def play(adjudicator, game_id: str, commands: int, seed: int = 3) -> None:
    bots = random.Random(seed)
    for number in range(commands):
        record = await adjudicator.record(game_id)
        if record.ended is not None:
            return
        actor = record.engine.to_act(record.state)[0]
        command = record.engine.bot_command(record.state, actor, bots)
        await adjudicator.submit(game_id, actor, command.model_dump(mode="json"), f"{seed}-{number}")


@pytest.fixture
async def played():
    """A 21Moon game 70 commands in, written by an adjudicator that snapshots every 40 events: its
    snapshot was taken 10 commands before the end."""
    store, vault, bucket = MemoryEventStore(), MemorySeedVault(), MemorySnapshotBucket()
    writer = Adjudicator(store, vault, snapshots=Snapshots(bucket, KEY, get_game), snapshot_every=EVERY)
    await writer.create_game("g1", "moon21", PLAYERS, {})
    await play(writer, "g1", 60)
    await writer.cache.settle()       # the memory store never waits, so this is when it is written
    await play(writer, "g1", 10, seed=9)
    return store, vault, bucket


def fresh(store, vault, bucket, key=KEY) -> tuple[Adjudicator, ReadLog]:
    logged = ReadLog(store)
    return Adjudicator(logged, vault, snapshots=Snapshots(bucket, key, get_game), snapshot_every=EVERY), logged


async def test_a_fresh_replica_resumes_from_the_snapshot_and_reads_only_the_tail(played):
    store, vault, bucket = played
    body, _ = open_snapshot(bucket.saved["g1"])
    stream = await store.read("game.g1")
    assert EVERY <= body["seq"] < len(stream)
    replica, logged = fresh(store, vault, bucket)
    resumed = await replica.record("g1")
    assert logged.reads == [body["seq"] + 1]
    folded = replay("g1", stream, get_game)
    assert resumed.state == folded.state
    assert (resumed.last_seq, resumed.last_hash, resumed.draw_end, resumed.events, resumed.players) == \
        (folded.last_seq, folded.last_hash, folded.draw_end, folded.events, folded.players)
    # It plays on: what it decides on the resumed state folds from zero to the same state.
    await play(replica, "g1", 30, seed=4)
    assert (await replica.record("g1")).state == replay("g1", await store.read("game.g1"), get_game).state


async def test_a_retried_command_from_before_the_snapshot_gets_its_first_events(played):
    store, vault, bucket = played
    first = await store.find_command("game.g1", "3-5")
    replica, _ = fresh(store, vault, bucket)
    before = await store.last_seq("game.g1")
    assert await replica.submit("g1", first[0].actor, first[0].meta["command"], "3-5") == first
    assert await store.last_seq("game.g1") == before


async def test_check_snapshot_agrees_with_a_fold_from_zero_and_catches_a_wrong_one(played):
    store, _, bucket = played
    stream = await store.read("game.g1")
    assert check_snapshot(bucket.saved["g1"], stream, get_game) == []
    body, commands = open_snapshot(bucket.saved["g1"])
    state = body["state"]                      # a tagged dataclass: {"~": "data", "c": …, "v": fields}
    wrong_state = {**body, "state": {**state, "v": {**state["v"], "phase": "7"}}}
    assert check_snapshot(seal_snapshot(KEY, Captured("g1", body["seq"], wrong_state, commands)),
                          stream, get_game) == ["the engine state differs from the fold from seq 1"]
    wrong_draws = {**body, "draw_end": body["draw_end"] + 1}
    assert check_snapshot(seal_snapshot(KEY, Captured("g1", body["seq"], wrong_draws, commands)),
                          stream, get_game) == ["draw_end differs from the fold"]
    no_ids = Captured("g1", body["seq"], body, b"\0\0\0\0")
    assert check_snapshot(seal_snapshot(KEY, no_ids), stream, get_game) == \
        ["its command ids are not those of seqs 1 to its seq"]


async def resumed_from_stream(store, vault, bucket, key=KEY) -> bool:
    replica, logged = fresh(store, vault, bucket, key)
    record = await replica.record("g1")
    assert record.state == replay("g1", await store.read("game.g1"), get_game).state
    return logged.reads == [1]


async def test_a_snapshot_signed_with_another_key_is_ignored(played):
    store, vault, bucket = played
    body, commands = open_snapshot(bucket.saved["g1"])
    bucket.saved["g1"] = seal_snapshot(b"x" * 32, Captured("g1", body["seq"], body, commands))
    assert await resumed_from_stream(store, vault, bucket)
    bucket.saved["g1"] = b"SBS1" + b"\0" * 100          # not even a snapshot
    assert await resumed_from_stream(store, vault, bucket)


async def test_a_snapshot_that_names_no_real_place_of_the_stream_is_ignored(played):
    store, vault, bucket = played
    body, commands = open_snapshot(bucket.saved["g1"])
    for wrong in ({"hash": "0" * 64}, {"seq": body["seq"] - 1}, {"game_id": "g2"}, {"stream": "game.g2"}):
        bucket.saved["g1"] = seal_snapshot(KEY, Captured("g1", body["seq"], {**body, **wrong}, commands))
        assert await resumed_from_stream(store, vault, bucket)


async def test_a_snapshot_of_another_engine_version_is_ignored(played, monkeypatch):
    store, vault, bucket = played
    monkeypatch.setitem(snapshot_module._VERSIONS, type(get_game("moon21")), "changed")
    assert await resumed_from_stream(store, vault, bucket)


async def test_snapshots_are_written_every_few_hundred_events_and_not_on_the_way(played):
    store, vault, bucket = played
    body, _ = open_snapshot(bucket.saved["g1"])
    last = await store.last_seq("game.g1")
    assert last - body["seq"] < EVERY          # the newest one is at most EVERY events behind
    replica, _ = fresh(store, vault, bucket)
    await play(replica, "g1", 40, seed=5)
    await replica.cache.settle()
    newer, _ = open_snapshot(bucket.saved["g1"])
    assert newer["seq"] > body["seq"]
    assert check_snapshot(bucket.saved["g1"], await store.read("game.g1"), get_game) == []


@pytest.mark.integration
async def test_on_jetstream_a_replica_resuming_from_a_snapshot_answers_retries_it_never_read(
        jetstream_store, nats_url, namespace):
    from starbase_core.seeds import JetStreamSeedVault
    from starbase_core.snapshots import JetStreamSnapshotBucket
    from starbase_core.store_jetstream import JetStreamEventStore

    async def adjudicator_on(store, every):
        vault = await JetStreamSeedVault(store._nc, f"seeds_{namespace}").ensure()
        bucket = await JetStreamSnapshotBucket(store._nc, f"{store.name}_snapshots").ensure()
        return Adjudicator(store, vault, snapshots=await Snapshots.open(bucket, vault, get_game),
                           snapshot_every=every)

    writer = await adjudicator_on(jetstream_store, every=20)
    await writer.create_game("long", "testjack", ["ann"], {})
    answers = [await writer.submit("long", "ann", {"type": "Think"}, f"t{n}") for n in range(45)]
    await writer.cache.settle()
    other = await JetStreamEventStore.connect(nats_url, name=jetstream_store.name,
                                              subject_prefix=jetstream_store.prefix, ensure=False)
    try:
        logged = ReadLog(other)
        replica = await adjudicator_on(logged, every=20)
        # A retry of a command the replica's store never read (it is in the snapshot's part of the
        # stream), one from the tail after the snapshot, then a new command: each lands once.
        assert await replica.submit("long", "ann", {"type": "Think"}, "t3") == answers[3]
        assert len(logged.reads) == 1 and logged.reads[0] > answers[3][0].seq
        assert await replica.submit("long", "ann", {"type": "Think"}, "t44") == answers[44]
        new = await replica.submit("long", "ann", {"type": "Think"}, "t45")
        assert new[0].seq == answers[44][-1].seq + 1
        stream = await jetstream_store.read("game.long")
        assert [e.command_id for e in stream[-46:]] == [f"t{n}" for n in range(46)]
        await replica.cache.settle()
    finally:
        await other.close()
        for bucket in (f"seeds_{namespace}", f"{jetstream_store.name}_snapshots"):
            await jetstream_store._js.delete_key_value(bucket)


async def test_a_replica_far_behind_on_a_game_catches_up_from_its_newest_snapshot(played):
    """A game another replica decides, asked about here now and then: a little behind, this replica reads
    what it missed; more than a snapshot's distance behind, it takes the newest snapshot and its tail."""
    store, vault, bucket = played
    replica, logged = fresh(store, vault, bucket)
    held = (await replica.record("g1")).last_seq
    writer = Adjudicator(store, vault, snapshots=Snapshots(bucket, KEY, get_game), snapshot_every=EVERY)
    await play(writer, "g1", 3, seed=5)                  # a few events: read from where it was
    logged.reads.clear()
    await replica.to_act("g1")
    assert logged.reads == [held + 1]
    held = (await replica.record("g1")).last_seq
    await play(writer, "g1", 40, seed=6)
    await writer.cache.settle()
    await play(writer, "g1", 2, seed=7)
    body, _ = open_snapshot(bucket.saved["g1"])
    assert await store.last_seq("game.g1") - held > EVERY and body["seq"] > held
    logged.reads.clear()
    answer = await replica.to_act("g1")
    caught = await replica.record("g1")
    folded = replay("g1", await store.read("game.g1"), get_game)
    assert (caught.last_seq, caught.last_hash, caught.state) == (folded.last_seq, folded.last_hash, folded.state)
    assert answer["seq"] == folded.last_seq
    assert logged.reads == [body["seq"] + 1]
    logged.reads.clear()
    assert await replica.to_act("g1") == answer and logged.reads == []     # nothing new: nothing read
