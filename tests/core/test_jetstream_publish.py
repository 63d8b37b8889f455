"""AckedPublisher on a real NATS server: the ack, JetStream's refusals and silence, as `js.publish` gives them."""
from __future__ import annotations

import asyncio
import json

import nats.errors
import nats.js.errors
import pytest

from starbase_core.jetstream_publish import AckedPublisher
from starbase_core.store_jetstream import EXPECTED_LAST, WRONG_LAST_SEQUENCE

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


async def test_each_publish_gets_its_own_ack_even_when_many_are_in_flight(jetstream_store):
    publisher = AckedPublisher(jetstream_store._nc)
    subjects = [f"{jetstream_store.prefix}.game.p{n}" for n in range(20)]
    acks = await asyncio.gather(*(publisher.publish(s, json.dumps({"n": n}).encode()) for n, s in enumerate(subjects)))
    assert {stream for stream, _ in acks} == {jetstream_store.name}
    for (_, seq), n in zip(acks, range(20)):      # the seq each ack names holds that very message
        stored = await jetstream_store._js.get_msg(jetstream_store.name, seq)
        assert json.loads(stored.data) == {"n": n}
    await publisher.close()


async def test_a_wrong_expected_last_sequence_is_jetstreams_bad_request_and_stores_nothing(jetstream_store):
    publisher = AckedPublisher(jetstream_store._nc)
    subject = f"{jetstream_store.prefix}.game.expect"
    _, first = await publisher.publish(subject, b"1", {EXPECTED_LAST: "0"})
    with pytest.raises(nats.js.errors.BadRequestError) as refused:
        await publisher.publish(subject, b"2", {EXPECTED_LAST: "0"})
    assert refused.value.err_code == WRONG_LAST_SEQUENCE
    assert (await jetstream_store._js.get_last_msg(jetstream_store.name, subject)).seq == first


async def test_no_stream_for_the_subject_is_no_stream_response(jetstream_store):
    publisher = AckedPublisher(jetstream_store._nc)
    with pytest.raises(nats.js.errors.NoStreamResponseError):
        await publisher.publish("nobody-stores.this", b"x")


async def test_no_ack_in_time_is_a_timeout_and_a_late_ack_is_ignored(jetstream_store):
    connection = jetstream_store._nc
    late: list = []

    async def answer_late(message) -> None:          # a "stream" that acks after the publisher gave up
        late.append(message)
        await asyncio.sleep(0.5)
        await connection.publish(message.reply, json.dumps({"stream": "LATE", "seq": 1}).encode())

    silent = await connection.subscribe("slow-stream.x", cb=answer_late)
    publisher = AckedPublisher(connection, timeout=0.2)
    try:
        with pytest.raises(nats.errors.TimeoutError):
            await publisher.publish("slow-stream.x", b"x")
        await asyncio.sleep(0.6)                      # the late ack arrives: nobody waits for it any more
        assert len(late) == 1 and publisher._waiting == {}
        stream, _ = await publisher.publish(f"{jetstream_store.prefix}.game.after", b"y")
        assert stream == jetstream_store.name        # the publisher still works
    finally:
        await silent.unsubscribe()
        await publisher.close()
