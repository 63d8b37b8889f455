"""The JetStream store's follow (nats-py's ordered push consumer) on a real NATS server: every envelope
once and in order per stream under concurrent appends, after its consumer is deleted on the server, after
the server is killed and restarted with appends on both sides of it; and a reader that stops reading holds the
server back (flow control) instead of piling messages up in the process."""
from __future__ import annotations

import asyncio

import pytest

from starbase_core.envelope import NewEvent
from starbase_core.servers import NatsServer
from starbase_core.store_jetstream import POSITION_STRIDE, JetStreamEventStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


@pytest.fixture
async def store(nats_url, namespace):
    store = await JetStreamEventStore.connect(nats_url, name=f"O_{namespace}", subject_prefix=f"o{namespace}")
    yield store
    await store._js.delete_stream(store.name)
    await store.close()


class Follower:
    """A follow running in a task, keeping what it was handed."""

    def __init__(self, store: JetStreamEventStore, subject_filter: str = "game.>", start: int = 0):
        self.seen: list[tuple[int, str, int]] = []          # (position, stream, seq)
        self.task = asyncio.create_task(self._run(store, subject_filter, start))

    async def _run(self, store, subject_filter, start) -> None:
        async for position, envelope in store.follow(start, subject_filter):
            self.seen.append((position, envelope.stream, envelope.seq))

    def per_stream(self) -> dict[str, list[int]]:
        streams: dict[str, list[int]] = {}
        for _, stream, seq in self.seen:
            streams.setdefault(stream, []).append(seq)
        return streams

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


async def until(condition, timeout: float, what: str = "") -> None:
    async def poll():
        while not condition():
            await asyncio.sleep(0.02)
    try:
        await asyncio.wait_for(poll(), timeout)
    except asyncio.TimeoutError:
        raise AssertionError(f"not within {timeout} s: {what}") from None


async def append_many(store, streams: list[str], count: int, start: dict[str, int] | None = None) -> None:
    """`count` one-event appends to each stream, the streams concurrently."""
    async def one_stream(stream: str) -> None:
        first = (start or {}).get(stream, 0)
        for seq in range(first, first + count):
            await store.append(stream, [NewEvent(type="Tick", data={"n": seq + 1})], expected_seq=seq)
    await asyncio.gather(*(one_stream(stream) for stream in streams))


async def append_retrying(store, stream: str, seq: int) -> None:
    """One append, tried again (the same command id: stored once) while JetStream recovers."""
    for _ in range(100):
        try:
            await store.append(stream, [NewEvent(type="Tick")], expected_seq=seq, command_id=f"{stream}-{seq}")
            return
        except Exception:
            await asyncio.sleep(0.1)
    raise AssertionError(f"could not append to {stream} after the restart")


def assert_each_once_in_order(follower: Follower, streams: list[str], count: int) -> None:
    positions = [position for position, _, _ in follower.seen]
    assert positions == sorted(set(positions)), "positions repeat or go back"
    assert follower.per_stream() == {stream: list(range(1, count + 1)) for stream in streams}


async def test_concurrent_appends_to_many_streams_are_followed_each_once_in_order(store):
    streams = [f"game.g{index}" for index in range(12)]
    early = Follower(store)                                  # live from the first append
    await append_many(store, streams, 15)
    late = Follower(store)                                   # the past first, then the live part
    await append_many(store, streams, 15, start={stream: 15 for stream in streams})
    for follower in (early, late):
        await until(lambda: len(follower.seen) >= 12 * 30, 20, "every envelope followed")
    await asyncio.sleep(0.3)                                 # room for a duplicate to show up
    for follower in (early, late):
        assert_each_once_in_order(follower, streams, 30)
        await follower.stop()


async def test_a_follow_whose_consumer_is_deleted_on_the_server_carries_on_without_a_gap_or_a_repeat(store):
    follower = Follower(store)
    await append_many(store, ["game.a", "game.b"], 10)
    await until(lambda: len(follower.seen) == 20, 10, "the first envelopes")
    for consumer in await store._js.consumers_info(store.name):
        await store._js.delete_consumer(store.name, consumer.name)
    await append_many(store, ["game.a", "game.b"], 10, start={"game.a": 10, "game.b": 10})
    await until(lambda: len(follower.seen) >= 40, 15, "the envelopes after the consumer went")
    await asyncio.sleep(0.3)
    assert_each_once_in_order(follower, ["game.a", "game.b"], 20)
    await follower.stop()


async def test_a_reader_that_stops_reading_holds_the_server_back_then_gets_everything_in_order(store):
    big = {"blob": "x" * 16_000}
    follow = store.follow(0, "game.>")
    await store.append("game.s", [NewEvent(type="Big", data=big)], expected_seq=0)
    assert (await asyncio.wait_for(follow.__anext__(), 10))[1].seq == 1
    count = 1500                                             # ~24 MB: far past the consumer's window
    # nats-py answers the server's "consumer stalled" heartbeat (every FOLLOW_HEARTBEAT) as if the reader
    # had read, so a stalled reader is let through a window per heartbeat: on a slow machine it may hold
    # everything by the end. What flow control promises is that the server held messages back meanwhile.
    held_back = 0
    for seq in range(1, count):
        await store.append("game.s", [NewEvent(type="Big", data=big)], expected_seq=seq)
        if seq % 100 == 0:
            held_back = max(held_back, await _pending(store))
    for _ in range(10):
        await asyncio.sleep(0.1)                             # the server sends what flow control allows
        held_back = max(held_back, await _pending(store))
    assert held_back > 0, "the server sent everything to a reader that was not reading"
    seqs = [1]
    async for _, envelope in follow:
        seqs.append(envelope.seq)
        if len(seqs) == count:
            break
    assert seqs == list(range(1, count + 1))
    await follow.aclose()


async def _pending(store) -> int:
    """The follow's consumer's messages not yet sent (the test's one consumer)."""
    infos = await store._js.consumers_info(store.name)
    assert len(infos) == 1
    return infos[0].num_pending


async def test_a_follow_after_nats_is_killed_and_restarted_gets_what_came_before_and_after_once(tmp_path):
    """The follow's consumer (memory storage) does not survive the restart, and nobody tells the follow:
    its silence does (no heartbeat), and a new consumer starts after the last envelope handed out."""
    server = NatsServer(workdir=tmp_path / "nats").start()
    store = await JetStreamEventStore.connect(server.url, name="R", subject_prefix="r")
    try:
        follower = Follower(store)
        await append_many(store, ["game.a", "game.b"], 20)   # the follow may be anywhere in these
        server.process.kill()
        server.process.wait()
        server.start()                                       # same port, same files
        await until(lambda: store._nc.is_connected, 15, "reconnected")
        for seq in range(20, 40):
            for stream in ("game.a", "game.b"):
                await append_retrying(store, stream, seq)
        await until(lambda: len(follower.seen) >= 80, 15, "the envelopes from both sides of the restart")
        await asyncio.sleep(0.3)
        assert_each_once_in_order(follower, ["game.a", "game.b"], 40)
        assert all(position % POSITION_STRIDE == 0 for position, _, _ in follower.seen)
        await follower.stop()
    finally:
        await store.close()
        server.stop()



async def test_a_follow_reads_with_no_task_per_message_and_ends_when_its_store_closes(nats_url, namespace,
                                                                                       monkeypatch):
    """nats-py's `messages` iterator starts a task and an `asyncio.wait` for every message; the follow
    reads the subscription's queue itself (flow control still holds the server back: the test above),
    and, as that iterator did, ends when the store closes."""
    from nats.aio import subscription

    async def iterated(self):
        raise AssertionError("a follow read through nats-py's iterator")
    monkeypatch.setattr(subscription._SubscriptionMessageIterator, "__anext__", iterated)
    store = await JetStreamEventStore.connect(nats_url, name=f"C_{namespace}", subject_prefix=f"c{namespace}")
    follow = store.follow(0, "game.>")
    for seq in range(3):
        await store.append("game.c", [NewEvent(type="Noted", data={})], expected_seq=seq)
    assert [(await asyncio.wait_for(follow.__anext__(), 10))[1].seq for _ in range(3)] == [1, 2, 3]
    waiting = asyncio.ensure_future(follow.__anext__())
    await asyncio.sleep(0.1)
    await store._js.delete_stream(store.name)
    await store.close()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(waiting, 10)


def test_a_followed_messages_stream_seq_is_read_off_its_ack_subject():
    from nats.aio.msg import Msg
    from nats.errors import NotJSMessageError

    from starbase_core.store_jetstream import _stream_seq
    old = Msg(None, reply="$JS.ACK.STARBASE.consumer.1.42.7.1764547200000000000.0")
    with_domain = Msg(None, reply="$JS.ACK.hub.ACCHASH.STARBASE.consumer.1.43.7.1764547200000000000.0.r4nd")
    assert (_stream_seq(old), _stream_seq(with_domain)) == (42, 43)
    for not_an_ack in ("$JS.ACK.hub.ACCHASH.STARBASE.consumer.1.44.7.0", "_INBOX.x.y.z.1.2.3.4.5", ""):
        with pytest.raises(NotJSMessageError):       # as nats-py's own reading refuses them
            _stream_seq(Msg(None, reply=not_an_ack))
