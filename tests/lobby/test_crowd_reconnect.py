"""A socket that reconnects where the live copy still reaches is caught up in one write and joins at
once (`Feed.catch_up` without a reader); each seq still once and in order, a slow or gone socket still
told, and one reaching further back still read from the store."""
from __future__ import annotations

import asyncio

import pytest

from lobby.channel import Channel
from lobby.feed import Feed, SlowConsumer
from starbase_core.store_memory import MemoryEventStore
from tests.lobby.test_feed import Recorded, append


def seqs(outlet) -> list[bytes]:
    return [frame.split(b" ")[-1] for frame in outlet.frames]


async def live(count: int) -> tuple[Feed, MemoryEventStore]:
    """A feed whose live copy of game.g holds `count` envelopes, handed out as the follower would."""
    store = MemoryEventStore()
    feed = Feed(store)
    feed._watch("game.g")
    for envelope in await append(store, "game.g", count):
        feed._dispatch(envelope)
    return feed, store


async def test_a_reconnect_inside_the_live_copy_is_one_write_and_joins_with_no_reader():
    feed, store = await live(5)
    channel: Channel = feed._channels["game.g"]
    outlet, told = Recorded(), []
    sink = await feed.catch_up("game.g", 3, None, lambda e: f"seq {e.seq}", outlet, lambda s, r: told.append(r),
                               lead=b"\x81\x07welcome")
    assert outlet.writes == 1 and seqs(outlet) == [b"\x81\x07welcome", b"4", b"5"]
    assert sink is not None and sink.last == 5 and sink in channel.audience[None] and not channel.subscribers
    for envelope in await append(store, "game.g", 2):          # then written by the feed, in order,
        feed._dispatch(envelope)
    await asyncio.sleep(0)                                      # at the end of the loop's turn, in one write
    assert seqs(outlet)[1:] == [b"4", b"5", b"6", b"7"] and sink.last == 7 and outlet.writes == 2
    # One that already has everything gets its welcome alone; one with nothing to send joins silently.
    caught_up, quiet = Recorded(), Recorded()
    first = await feed.catch_up("game.g", 7, None, lambda e: f"seq {e.seq}", caught_up, lambda s, r: None,
                                lead=b"\x81\x07welcome")
    second = await feed.catch_up("game.g", 7, None, lambda e: f"seq {e.seq}", quiet, lambda s, r: None)
    assert seqs(caught_up) == [b"\x81\x07welcome"] and quiet.writes == 0
    assert first is not None and second is not None and first.last == second.last == 7
    for joined in (sink, first, second):
        feed.leave(joined)
    assert "game.g" not in feed._channels


async def test_a_view_shares_its_frames_between_reconnecting_sockets():
    feed, _ = await live(4)
    crowd, encoded = [Recorded() for _ in range(3)], []

    def encode(envelope) -> str:
        encoded.append(envelope.seq)
        return f"ann sees {envelope.seq}"

    sinks = [await feed.catch_up("game.g", 1, "ann", encode, outlet, lambda s, r: None) for outlet in crowd]
    assert all(seqs(outlet) == [b"2", b"3", b"4"] and outlet.writes == 1 for outlet in crowd)
    assert encoded == [2, 3, 4]                                 # each push encoded once for the view
    for sink in sinks:
        feed.leave(sink)


async def test_a_reconnect_from_further_back_still_reads_the_store():
    store = MemoryEventStore()
    feed = Feed(store)
    await append(store, "game.g", 3)                            # before the follower saw anything
    feed._watch("game.g")
    for envelope in await append(store, "game.g", 2):
        feed._dispatch(envelope)                                # the live copy: 4 and 5 only
    outlet = Recorded()
    sink = await feed.catch_up("game.g", 0, None, lambda e: f"seq {e.seq}", outlet, lambda s, r: None)
    assert seqs(outlet) == [b"1", b"2", b"3", b"4", b"5"] and sink is not None and sink.last == 5
    feed.leave(sink)


async def test_a_reconnecting_socket_too_slow_or_gone_is_told_and_never_joins():
    feed, _ = await live(3)
    slow = Recorded()
    slow.room = 0                                               # its buffer is full already
    with pytest.raises(SlowConsumer):
        await feed.catch_up("game.g", 1, None, lambda e: f"seq {e.seq}", slow, lambda s, r: None)

    class Gone(Recorded):
        def write(self, framed: bytes) -> bool:
            return False                                        # closing: refused, and not slow

    assert await feed.catch_up("game.g", 1, None, lambda e: f"seq {e.seq}", Gone(), lambda s, r: None) is None
    assert "game.g" not in feed._channels                       # nobody joined: the channel went idle
