"""What only the JetStream adapter has to show: its stream settings, command ids kept by the stream alone
(no index bucket, no message id, any duplicate window), a crash after a publish whose ack was lost,
digests that collide, an index that was dropped, and reads of many batches."""
from __future__ import annotations

import asyncio
import json

import pytest
from nats.js import api
from nats.js.errors import NotFoundError

from starbase_core import command_index
from starbase_core.envelope import GENESIS_HASH, NewEvent, chain_problems, seal
from starbase_core.store import WrongExpectedSeq
from starbase_core.store_jetstream import EXPECTED_LAST, JetStreamEventStore

pytestmark = pytest.mark.integration

SHORT_WINDOW = 0.2  # seconds; the tests wait past it so JetStream's own de-duplication cannot help


@pytest.fixture
async def short_window_store(nats_url, namespace):
    store = await JetStreamEventStore.connect(nats_url, name=f"W_{namespace}", subject_prefix=f"w{namespace}",
                                              duplicate_window=SHORT_WINDOW)
    yield store
    await store._js.delete_stream(store.name)
    await store.close()


async def replica_of(store: JetStreamEventStore, nats_url: str, **options) -> JetStreamEventStore:
    return await JetStreamEventStore.connect(nats_url, name=store.name, subject_prefix=store.prefix,
                                             ensure=False, **options)


def event(name: str) -> list[NewEvent]:
    return [NewEvent(type=name)]


async def test_the_stream_is_file_backed_append_only_with_one_subject_per_starbase_stream(jetstream_store):
    info = await jetstream_store._js.stream_info(jetstream_store.name)
    assert info.config.storage == api.StorageType.FILE
    assert info.config.deny_delete and info.config.deny_purge
    assert info.config.subjects == [f"{jetstream_store.prefix}.>"]
    await jetstream_store.append("game.g1", event("A"), expected_seq=0)
    message = await jetstream_store._js.get_last_msg(jetstream_store.name, f"{jetstream_store.prefix}.game.g1")
    assert json.loads(message.data)[0]["type"] == "A"


async def test_an_append_with_a_command_id_is_one_message_and_no_other_write(jetstream_store):
    store = jetstream_store
    await store.append("game.g1", event("A"), expected_seq=0, command_id="c1")
    await store.append("game.g1", event("B"), expected_seq=1, command_id="c2")
    info = await store._js.stream_info(store.name)
    assert info.state.messages == 2
    message = await store._js.get_last_msg(store.name, f"{store.prefix}.game.g1")
    assert set(message.headers or {}) == {EXPECTED_LAST}   # no message id: the stream is the index
    with pytest.raises(NotFoundError):
        await store._js.stream_info(f"KV_{store.name}_commands")


async def test_a_crash_after_a_publish_whose_ack_was_lost_still_appends_nothing_later(
        short_window_store, nats_url):
    store = short_window_store
    await store.append("game.g1", event("A"), expected_seq=0, command_id="c0")
    # What an appender does up to its crash: the expected-sequence publish reaches the server, the ack
    # never comes back, the process dies. Nothing else was written anywhere.
    sealed = seal("game.g1", event("B"), last_seq=1, last_hash=(await store.read("game.g1"))[0].hash,
                  command_id="c1")
    await store._js.publish(f"{store.prefix}.game.g1", json.dumps([e.model_dump() for e in sealed]).encode(),
                            stream=store.name, headers={EXPECTED_LAST: "1"})
    await asyncio.sleep(SHORT_WINDOW * 3)
    for retrying in (store, await replica_of(store, nats_url)):   # one that saw seq 1, one that saw nothing
        assert await retrying.append("game.g1", event("B"), expected_seq=1, command_id="c1") == sealed
        assert await retrying.append("game.g1", event("B"), expected_seq=2, command_id="c1") == sealed
    assert [e.type for e in await store.read("game.g1")] == ["A", "B"]


async def test_a_crash_before_publishing_leaves_the_command_free_to_be_appended(jetstream_store):
    store = jetstream_store
    await store.append("game.g1", event("A"), expected_seq=0)
    sealed = seal("game.g1", event("Lost"), last_seq=1, last_hash=GENESIS_HASH, command_id="c1")
    assert sealed   # sealed, then the appender died before publishing: nothing reached the server
    await store.append("game.g1", event("B"), expected_seq=1, command_id="other")
    assert await store.find_command("game.g1", "c1") is None
    stored = await store.append("game.g1", event("C"), expected_seq=2, command_id="c1")
    assert [e.type for e in stored] == ["C"] and stored[0].seq == 3


async def test_a_replica_that_missed_appends_is_refused_then_chains_after_them(jetstream_store, nats_url):
    first = jetstream_store
    await first.append("game.g1", event("A"), expected_seq=0)
    other = await replica_of(first, nats_url)
    try:
        by_other = await other.append("game.g1", event("B"), expected_seq=1)
    finally:
        await other.close()
    with pytest.raises(WrongExpectedSeq) as refused:   # `first` last saw seq 1 and is behind
        await first.append("game.g1", event("C"), expected_seq=1, command_id="c")
    assert refused.value.actual == 2
    stored = await first.append("game.g1", event("C"), expected_seq=2, command_id="c")
    assert stored[0].seq == 3 and stored[0].prev_hash == by_other[0].hash
    assert [e.type for e in await first.read("game.g1")] == ["A", "B", "C"]


async def test_command_ids_whose_digests_collide_are_told_apart_by_the_stream(
        jetstream_store, nats_url, monkeypatch):
    monkeypatch.setattr(command_index, "command_digest", lambda command_id: 7)   # every id collides
    store = jetstream_store
    stored = {}
    for seq, name in enumerate(["c1", "c2", "c3"]):
        stored[name] = await store.append("game.g1", event(name), expected_seq=seq, command_id=name)
    fresh = await replica_of(store, nats_url)
    for retrying in (store, fresh):
        assert await retrying.append("game.g1", event("c2"), expected_seq=0, command_id="c2") == stored["c2"]
        assert await retrying.find_command("game.g1", "c9") is None
    added = await fresh.append("game.g1", event("c4"), expected_seq=3, command_id="c4")
    assert added[0].seq == 4
    assert await store.find_command("game.g1", "c4") == added
    assert [e.type for e in await store.read("game.g1")] == ["c1", "c2", "c3", "c4"]


async def test_a_dropped_index_is_rebuilt_from_the_stream(jetstream_store, nats_url):
    small = await replica_of(jetstream_store, nats_url, index_capacity=2)
    first = {}
    for game in ("g1", "g2", "g3"):
        first[game] = await small.append(f"game.{game}", event("A"), expected_seq=0, command_id="c1")
        await small.append(f"game.{game}", event("B"), expected_seq=1, command_id="c2")
    assert small.checkpoint("game.g1") is None          # dropped, least recently used
    assert await small.append("game.g1", event("A"), expected_seq=2, command_id="c1") == first["g1"]
    assert await small.append("game.g1", event("C"), expected_seq=2, command_id="c3")
    assert [e.type for e in await jetstream_store.read("game.g1")] == ["A", "B", "C"]


async def test_reads_of_many_batches_give_every_envelope_once_in_order(jetstream_store, nats_url):
    store = jetstream_store
    for seq in range(0, 40, 2):
        await store.append("game.long", [NewEvent(type="X"), NewEvent(type="Y")], expected_seq=seq,
                           command_id=f"c{seq}")
    reader = await replica_of(store, nats_url)
    reader._reader.batch = 3
    stored = await reader.read("game.long")
    assert [e.seq for e in stored] == list(range(1, 41))
    assert chain_problems(stored, stream="game.long") == []
    assert [e.seq for e in await reader.read("game.long", from_seq=38)] == [38, 39, 40]
    reader._indexes.drop("game.long")
    assert [e.seq for e in await reader.read("game.long", from_seq=38)] == [38, 39, 40]
    # Concurrent readers of one stream on one instance teach one index and all get the whole stream.
    reader._indexes.drop("game.long")
    results = await asyncio.gather(*(reader.read("game.long") for _ in range(4)),
                                   reader.find_command("game.long", "c20"))
    assert all(result == stored for result in results[:4]) and results[4] == stored[20:22]


async def test_a_read_near_the_end_brings_only_the_messages_near_the_end(jetstream_store, nats_url):
    """All streams interleave in one JetStream stream: a read that started from the index's end (or from
    the first message, for a replica that never read the game) made the server walk every message stored
    since, on every stream; a lobby's look at a game's last moves stalled every append meanwhile."""
    store = jetstream_store
    for round_ in range(150):
        for other in range(3):
            await store.append(f"game.o{other}", event("X"), expected_seq=round_)
        await store.append("game.g1", [NewEvent(type="A"), NewEvent(type="B")], expected_seq=2 * round_)
    whole = await store.read("game.g1")
    stale = await replica_of(store, nats_url)
    assert len(await stale.read("game.g1", 1)) == 300
    await store.append("game.g1", event("C"), expected_seq=300)
    whole = await store.read("game.g1")
    for replica in (await replica_of(store, nats_url), stale):
        # the last message, then the appends from the one holding `from_seq` (after a look or two back,
        # each a message; and a batch's closing status): a handful, not the game's 150 appends
        for from_seq, at_most in ((301, 4), (300, 7), (299, 7), (295, 14), (281, 40)):
            heard = replica._nc.stats["in_msgs"]
            assert await replica.read("game.g1", from_seq) == whole[from_seq - 1:]
            assert replica._nc.stats["in_msgs"] - heard <= at_most, from_seq
        await replica.close()


async def test_an_append_on_a_stream_the_store_knows_to_its_end_is_one_message_to_nats(jetstream_store):
    store = jetstream_store
    await store.append("game.g1", event("A"), expected_seq=0, command_id="c0")
    sent = store._nc.stats["out_msgs"]
    for seq in range(1, 6):
        await store.append("game.g1", event("B"), expected_seq=seq, command_id=f"c{seq}")
        assert await store.find_command("game.g1", "nope", catch_up=False) is None
    assert store._nc.stats["out_msgs"] - sent == 5      # the publishes, nothing else
