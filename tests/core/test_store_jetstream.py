"""What only the JetStream adapter has to show: its stream settings and a command index that outlives
JetStream's duplicate window and any crash between the index and the publish."""
from __future__ import annotations

import asyncio
import json

import pytest
from nats.js import api

from starbase_core.envelope import GENESIS_HASH, NewEvent, seal
from starbase_core.store import WrongExpectedSeq
from starbase_core.store_jetstream import COMMAND_HEADER, JetStreamEventStore

pytestmark = pytest.mark.integration

SHORT_WINDOW = 0.2  # seconds; the tests wait past it so JetStream's own de-duplication cannot help


@pytest.fixture
async def short_window_store(nats_url, namespace):
    store = await JetStreamEventStore.connect(nats_url, name=f"W_{namespace}", subject_prefix=f"w{namespace}",
                                              duplicate_window=SHORT_WINDOW)
    yield store
    js = store._nc.jetstream()
    for stream in (store.name, f"KV_{store.name}_commands"):
        await js.delete_stream(stream)
    await store.close()


async def test_the_stream_is_file_backed_append_only_with_one_subject_per_starbase_stream(jetstream_store):
    info = await jetstream_store._js.stream_info(jetstream_store.name)
    assert info.config.storage == api.StorageType.FILE
    assert info.config.deny_delete and info.config.deny_purge
    assert info.config.subjects == [f"{jetstream_store.prefix}.>"]
    await jetstream_store.append("game.g1", [NewEvent(type="A")], expected_seq=0)
    message = await jetstream_store._js.get_last_msg(jetstream_store.name, f"{jetstream_store.prefix}.game.g1")
    assert json.loads(message.data)[0]["type"] == "A"


async def test_a_retry_after_the_duplicate_window_appends_nothing(short_window_store):
    store = short_window_store
    first = await store.append("game.g1", [NewEvent(type="A")], expected_seq=0, command_id="c1")
    await asyncio.sleep(SHORT_WINDOW * 3)
    assert await store.append("game.g1", [NewEvent(type="A")], expected_seq=0, command_id="c1") == first
    assert await store.append("game.g1", [NewEvent(type="A")], expected_seq=1, command_id="c1") == first
    assert await store.last_seq("game.g1") == 1


async def test_a_crash_after_publishing_but_before_confirming_the_index_still_appends_nothing_later(
        short_window_store):
    store = short_window_store
    # What an appender does up to its crash: index entry "pending after 0", then the publish itself.
    assert await store._mark_pending("game.g1", "c1", 0, None)
    sealed = seal("game.g1", [NewEvent(type="A")], last_seq=0, last_hash=GENESIS_HASH, command_id="c1")
    await store._js.publish(
        f"{store.prefix}.game.g1", json.dumps([e.model_dump() for e in sealed]).encode(), stream=store.name,
        headers={"Nats-Expected-Last-Subject-Sequence": "0", COMMAND_HEADER: "c1"},
    )
    await asyncio.sleep(SHORT_WINDOW * 3)
    retried = await store.append("game.g1", [NewEvent(type="A")], expected_seq=1, command_id="c1")
    assert retried == sealed
    assert await store.read("game.g1") == sealed


async def test_a_crash_before_publishing_leaves_the_command_free_to_be_appended(jetstream_store):
    store = jetstream_store
    await store.append("game.g1", [NewEvent(type="A")], expected_seq=0)
    assert await store._mark_pending("game.g1", "c1", 0, None)   # then the appender died
    await store.append("game.g1", [NewEvent(type="B")], expected_seq=1, command_id="other")
    assert await store.find_command("game.g1", "c1") is None
    stored = await store.append("game.g1", [NewEvent(type="C")], expected_seq=2, command_id="c1")
    assert [e.type for e in stored] == ["C"] and stored[0].seq == 3


async def test_a_second_replica_sees_the_first_ones_commands(jetstream_store, nats_url):
    first = await jetstream_store.append("game.g1", [NewEvent(type="A")], expected_seq=0, command_id="c1")
    replica = await JetStreamEventStore.connect(nats_url, name=jetstream_store.name,
                                                subject_prefix=jetstream_store.prefix)
    try:
        assert await replica.append("game.g1", [NewEvent(type="A")], expected_seq=0, command_id="c1") == first
        assert await replica.read("game.g1") == first
    finally:
        await replica.close()


async def test_a_replica_that_missed_appends_is_refused_then_chains_after_them(jetstream_store, nats_url):
    first = jetstream_store
    await first.append("game.g1", [NewEvent(type="A")], expected_seq=0)
    other = await JetStreamEventStore.connect(nats_url, name=first.name, subject_prefix=first.prefix)
    try:
        by_other = await other.append("game.g1", [NewEvent(type="B")], expected_seq=1)
    finally:
        await other.close()
    with pytest.raises(WrongExpectedSeq) as refused:   # `first` last saw seq 1 and is behind
        await first.append("game.g1", [NewEvent(type="C")], expected_seq=1, command_id="c")
    assert refused.value.actual == 2
    stored = await first.append("game.g1", [NewEvent(type="C")], expected_seq=2, command_id="c")
    assert stored[0].seq == 3 and stored[0].prev_hash == by_other[0].hash
    assert [e.type for e in await first.read("game.g1")] == ["A", "B", "C"]
