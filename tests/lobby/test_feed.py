"""The live feed over the in-memory store: backlog then live, in order, once, gaps filled, laggards cut."""
import asyncio

import pytest

from lobby import feed as feed_module
from lobby.feed import Feed, SlowConsumer
from starbase_core.envelope import NewEvent
from starbase_core.store_memory import MemoryEventStore


async def append(store, stream: str, count: int) -> list:
    stored = []
    for _ in range(count):
        stored += await store.append(stream, [NewEvent(type="Ticked")], expected_seq=await store.last_seq(stream))
    return stored


async def take(events, count: int) -> list[int]:
    return [(await asyncio.wait_for(anext(events), 5)).seq for _ in range(count)]


@pytest.fixture
async def running():
    store = MemoryEventStore()
    await append(store, "game.other", 2)
    feed = Feed(store)
    await feed.start()
    yield store, feed
    await feed.stop()


async def test_a_subscriber_gets_what_it_missed_then_live_events_in_order(running):
    store, feed = running
    await append(store, "game.g", 3)
    events = feed.events("game.g", after=1)
    assert await take(events, 2) == [2, 3]
    await append(store, "game.g", 2)
    await append(store, "game.other", 1)          # another stream's events are not ours
    assert await take(events, 2) == [4, 5]
    await events.aclose()


async def test_an_envelope_seen_twice_is_sent_once_and_a_gap_is_filled_from_the_store(running):
    store, feed = running
    events = feed.events("game.g", after=0)
    first = asyncio.create_task(take(events, 1))
    await asyncio.sleep(0)
    stored = await append(store, "game.g", 1)
    assert await first == [1]
    # The follower hands over seq 1 again, then seq 3 without seq 2 (as after a follower restart).
    more = await store.append("game.g", [NewEvent(type="A"), NewEvent(type="B")], expected_seq=1)
    feed._dispatch(stored[0])
    feed._dispatch(more[1])
    assert await take(events, 2) == [2, 3]
    await events.aclose()


async def test_a_subscriber_that_falls_too_far_behind_is_cut_off(running, monkeypatch):
    store, feed = running
    monkeypatch.setattr(feed_module, "QUEUE_LIMIT", 2)
    events = feed.events("game.g", after=0)
    first = asyncio.create_task(take(events, 1))
    await asyncio.sleep(0)
    await append(store, "game.g", 1)
    await first
    for envelope in await append(store, "game.g", 4):    # nobody reads: the queue overflows
        feed._dispatch(envelope)
    with pytest.raises(SlowConsumer):
        await take(events, 10)


class CountingStore:
    def __init__(self, store):
        self.store, self.reads = store, 0

    async def read(self, stream, from_seq=1):
        self.reads += 1
        await asyncio.sleep(0.01)           # a read takes a while: the crowd arrives meanwhile
        return await self.store.read(stream, from_seq)

    def __getattr__(self, name):
        return getattr(self.store, name)


async def test_a_crowd_asking_for_the_same_point_shares_one_store_read_then_the_live_copy(running):
    store, feed = running
    await append(store, "game.g", 3)
    counting = CountingStore(store)
    feed.store = counting
    crowd = [feed.events("game.g", after=1) for _ in range(20)]
    assert await asyncio.gather(*(take(events, 2) for events in crowd)) == [[2, 3]] * 20
    assert counting.reads == 1
    late = feed.events("game.g", after=0)       # further back than the live copy: read, and kept
    assert await take(late, 3) == [1, 2, 3]
    again = feed.events("game.g", after=0)
    assert await take(again, 3) == [1, 2, 3]
    assert counting.reads == 2
    for envelope in await append(store, "game.g", 1):
        feed._dispatch(envelope)
    everyone = crowd + [late, again]
    assert await asyncio.gather(*(take(events, 1) for events in everyone)) == [[4]] * 22
    assert counting.reads == 2
    for events in everyone:
        await events.aclose()


def test_the_live_copy_stays_contiguous_and_shares_each_views_encoding():
    from lobby.channel import Channel
    from starbase_core.envelope import Envelope

    def envelope(seq: int) -> Envelope:
        return Envelope(stream="game.g", seq=seq, type="Ticked", data={}, time="t", prev_hash="", hash="")

    channel, encoded = Channel("game.g"), []
    for seq in (1, 2, 3):
        channel.add(envelope(seq))
    channel.add(envelope(2))                                    # handed over again: ignored
    assert [e.seq for e in channel.since(0)] == [1, 2, 3] and channel.covers(0)
    shared = [channel.text(channel.tail[1], view, lambda: encoded.append(1) or f"t{len(encoded)}")
              for view in ("ann", "ann", None, None, "ann")]
    assert shared == ["t1", "t1", "t2", "t2", "t1"] and len(encoded) == 2
    channel.add(envelope(5))                                    # a gap: the copy starts again at 5
    assert [e.seq for e in channel.tail] == [5] and not channel.covers(3) and channel.covers(4)
    channel.seed([envelope(3), envelope(4)])                    # a store read that meets it
    assert [e.seq for e in channel.tail] == [3, 4, 5]


def frames_in(written: bytes) -> list[bytes]:
    """The unmasked server frames one write holds, each whole."""
    found = []
    while written:
        size, start = written[1] & 0x7F, 2
        if size == 126:
            size, start = int.from_bytes(written[2:4], "big"), 4
        found.append(written[:start + size])
        written = written[start + size:]
    return found


class Written:
    """An outlet that can be written directly, recording the frames; `room` frames before it is slow."""
    direct = True

    def __init__(self, room: int = 100):
        self.frames, self.writes, self.room = [], 0, room

    def write(self, framed: bytes) -> bool:
        if len(self.frames) >= self.room:
            return False
        self.writes += 1
        self.frames += frames_in(framed) if len(frames_in(framed)) > 1 else [framed]
        return True

    def slow(self) -> bool:
        return len(self.frames) >= self.room


async def test_caught_up_sockets_get_one_shared_frame_per_view_and_leave_on_a_gap_or_when_slow():
    from lobby.channel import GAP, SLOW, Channel, Sink
    from starbase_core.envelope import Envelope

    def envelope(seq: int) -> Envelope:
        return Envelope(stream="game.g", seq=seq, type="Ticked", data={"n": seq}, time="t", prev_hash="", hash="")

    channel, demoted = Channel("game.g"), {}
    channel.add(envelope(1))
    views = {"ann": lambda e: f"ann sees {e.seq}", None: lambda e: f"anyone sees {e.seq}"}
    sinks = [Sink(view, views[view], Written(room), 1, lambda sink, reason: demoted.setdefault(sink, []).append(reason))
             for view, room in (("ann", 9), ("ann", 9), (None, 9), (None, 1))]
    for sink in sinks:
        channel.join(sink)
    for seq in (2, 3):
        channel.add(envelope(seq))
        channel.deliver([envelope(seq)])
    ann1, ann2, spectator, slow = sinks
    assert ann1.outlet.frames == ann2.outlet.frames and ann1.outlet.frames[0] is ann2.outlet.frames[0]
    assert ann1.outlet.frames[1].endswith(b"ann sees 3") and spectator.outlet.frames[1].endswith(b"anyone sees 3")
    assert demoted[slow] == [SLOW] and slow.last == 2 and slow not in channel.audience[None]
    channel.add(envelope(5))                                    # 4 never came: each sink must fill the gap
    channel.deliver([envelope(5)])
    channel.deliver([envelope(6)])                              # a demoted sink is told once, and written no more
    assert all(demoted[sink] == [GAP] and sink.last == 3 for sink in (ann1, ann2, spectator))
    assert channel.audience == {} and len(ann1.outlet.frames) == 2


def test_each_socket_gets_all_it_is_owed_of_a_command_in_one_write_and_a_socket_behind_it_is_told():
    from lobby.channel import GAP, Channel, Sink
    from starbase_core.envelope import Envelope

    def envelope(seq: int) -> Envelope:
        return Envelope(stream="game.g", seq=seq, type="Ticked", data={}, time="t", prev_hash="", hash="")

    channel, demoted, encoded = Channel("game.g"), [], []
    channel.add(envelope(1))
    channel.add(envelope(2))
    sinks = {had: Sink(None, lambda e: encoded.append(e.seq) or f"seq {e.seq}", Written(), had,
                       lambda sink, reason: demoted.append((sink.last, reason))) for had in (1, 2, 3, 4, 5)}
    for sink in sinks.values():
        channel.join(sink)
    command = [envelope(seq) for seq in (3, 4, 5)]              # one command's three envelopes
    for e in command:
        channel.add(e)
    channel.deliver(command)
    written = {had: (sink.outlet.writes, [f[-5:] for f in sink.outlet.frames]) for had, sink in sinks.items()}
    assert written == {1: (0, []), 2: (1, [b"seq 3", b"seq 4", b"seq 5"]), 3: (1, [b"seq 4", b"seq 5"]),
                       4: (1, [b"seq 5"]), 5: (0, [])}
    assert demoted == [(1, GAP)] and [s.last for s in sinks.values()] == [1, 5, 5, 5, 5]
    assert sorted(encoded) == [3, 4, 5]                         # each frame made once for the view


async def test_the_envelopes_handed_out_in_one_turn_go_to_a_socket_in_one_write_and_never_twice():
    store = MemoryEventStore()
    feed = Feed(store)                   # not started: envelopes are handed out by hand below
    await append(store, "game.g", 1)
    early, told = Recorded(), []
    sink = await feed.catch_up("game.g", 0, None, lambda e: f"seq {e.seq}", early, lambda s, r: told.append(r))
    command = await append(store, "game.g", 3)                  # stored as one message, handed out at once
    for envelope in command:
        feed._dispatch(envelope)
    assert early.writes == 1 and sink.last == 1                # nothing yet: written at the end of this turn
    late = Recorded()                                           # joins before that: the tail has them all
    joined = await feed.catch_up("game.g", 0, None, lambda e: f"seq {e.seq}", late, lambda s, r: told.append(r))
    await asyncio.sleep(0)
    assert early.writes == 2 and [f[-5:] for f in early.frames] == [b"seq 1", b"seq 2", b"seq 3", b"seq 4"]
    assert late.writes == 1 and [f[-5:] for f in late.frames] == [b"seq 1", b"seq 2", b"seq 3", b"seq 4"]
    assert sink.last == joined.last == 4 and told == []
    feed.leave(sink)
    feed.leave(joined)


class Recorded(Written):
    """A direct outlet that also records what went the awaited way."""

    def __init__(self):
        super().__init__()
        self.sent = []

    async def send(self, text: str) -> None:
        self.sent.append(text)

    async def ready(self) -> None:
        pass


async def until(condition) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not reached")


async def test_a_served_socket_catches_up_then_is_written_to_and_fills_a_gap_from_the_store():
    store = MemoryEventStore()
    feed = Feed(store)                   # not started: envelopes are handed out by hand below
    await append(store, "game.g", 2)
    outlet = Recorded()
    serving = asyncio.create_task(feed.serve("game.g", 0, None, lambda e: f"seq {e.seq}", outlet))
    await until(lambda: "game.g" in feed._channels and feed._channels["game.g"].audience)
    channel = feed._channels["game.g"]                          # the backlog went straight out, then it joined
    assert [f[-5:] for f in outlet.frames] == [b"seq 1", b"seq 2"]
    feed._dispatch((await append(store, "game.g", 1))[0])        # seq 3: written within this turn of the loop
    await asyncio.sleep(0)
    assert outlet.frames[-1].endswith(b"seq 3")
    more = await append(store, "game.g", 2)
    feed._dispatch(more[1])                                     # seq 5 without seq 4: filled from the store
    await until(lambda: len(outlet.frames) == 5 and channel.audience)
    feed._dispatch((await append(store, "game.g", 1))[0])
    await asyncio.sleep(0)
    assert [f[-5:] for f in outlet.frames] == [b"seq 1", b"seq 2", b"seq 3", b"seq 4", b"seq 5", b"seq 6"]
    assert outlet.sent == []                                    # nothing needed the awaited way
    serving.cancel()
    await asyncio.gather(serving, return_exceptions=True)
    assert "game.g" not in feed._channels and not channel.subscribers and not channel.audience


async def test_a_caught_up_socket_holds_no_task_and_is_told_when_its_feed_stops():
    """`catch_up` returns once the socket is written to by the feed: nothing of it waits meanwhile."""
    from lobby.channel import GAP

    store = MemoryEventStore()
    feed = Feed(store)
    await append(store, "game.g", 1)
    outlet, told = Recorded(), []
    sink = await feed.catch_up("game.g", 0, None, lambda e: f"seq {e.seq}", outlet, lambda s, reason: told.append(reason))
    assert sink is not None and sink.last == 1 and [f[-5:] for f in outlet.frames] == [b"seq 1"]
    feed._dispatch((await append(store, "game.g", 1))[0])
    more = await append(store, "game.g", 2)
    feed._dispatch(more[1])                                     # a gap: the owner is told, once
    await asyncio.sleep(0)
    assert told == [GAP] and sink.last == 2
    again = await feed.catch_up("game.g", sink.last, None, lambda e: f"seq {e.seq}", outlet, lambda s, r: told.append(r))
    assert [f[-5:] for f in outlet.frames] == [b"seq 1", b"seq 2", b"seq 3", b"seq 4"] and again.last == 4
    feed.leave(again)
    assert "game.g" not in feed._channels


async def test_a_welcome_and_the_backlog_go_out_in_one_write():
    store = MemoryEventStore()
    feed = Feed(store)
    await append(store, "game.g", 3)
    outlet = Recorded()
    sink = await feed.catch_up("game.g", 1, None, lambda e: f"seq {e.seq}", outlet, lambda s, r: None,
                               lead=b"\x81\x05hello")
    assert outlet.writes == 1 and outlet.frames == [b"\x81\x05hello", b"\x81\x05seq 2", b"\x81\x05seq 3"]
    feed.leave(sink)


async def test_a_served_socket_too_slow_for_its_backlog_is_cut_off(monkeypatch):
    monkeypatch.setattr(feed_module, "BATCH", 1)                # a frame per write
    store = MemoryEventStore()
    feed = Feed(store)
    await append(store, "game.g", 5)
    outlet = Recorded()
    outlet.room = 2                                             # its write buffer is full after two frames
    with pytest.raises(SlowConsumer):
        await feed.catch_up("game.g", 0, None, lambda e: f"seq {e.seq}", outlet, lambda s, reason: None)
    assert len(outlet.frames) == 2 and "game.g" not in feed._channels


async def test_an_event_with_no_secret_is_encoded_once_for_every_view_and_one_with_a_secret_for_each():
    # The real path: the lobby's Watch for each view of a Trucker game (its encode and `alike`), the
    # engine's redaction. PileTaken's cards are seen by its player only; PileReturned hides nothing.
    from lobby.channel import Channel, Sink
    from lobby.games import watch_game
    from lobby.service import load_engine
    from starbase_core.envelope import Envelope

    engine, encoded = load_engine("trucker"), {}
    watches = {view: watch_game(engine, "g", 0, view) for view in ("ann", "bob", None)}

    def counting(view):
        def encode(e):
            encoded[view] = encoded.get(view, 0) + 1
            return watches[view].encode(e)
        return encode

    def envelope(seq: int, type_: str, data: dict) -> Envelope:
        return Envelope(stream="game.g", seq=seq, type=type_, data={"type": type_, **data}, time="t",
                        prev_hash="", hash="")

    channel = Channel("game.g")
    channel.alike = watches[None].alike
    sinks = [Sink(view, counting(view), Written(), 0, lambda sink, reason: None) for view in watches]
    for sink in sinks:
        channel.join(sink)
    taken = envelope(1, "PileTaken", {"player": "ann", "pile": 2, "cards": ["c1", "c2", "c3"]})
    returned = envelope(2, "PileReturned", {"player": "ann", "pile": 2})
    for e in (taken, returned):
        channel.add(e)
        channel.deliver([e])
    ann, bob, spectator = (sink.outlet.frames for sink in sinks)
    assert b'"c1"' in ann[0] and b'"c1"' not in bob[0] and b'"c1"' not in spectator[0]   # each its own
    assert bob[0] == spectator[0] and bob[0] is not spectator[0]                           # encoded apart
    assert ann[1] is bob[1] is spectator[1] and b"PileReturned" in ann[1]                  # one for all
    assert encoded == {"ann": 2, "bob": 1, None: 1}


def test_every_spectator_of_an_engine_shares_one_push_function_and_each_player_has_their_own():
    # A crowd of spectators' sockets hold no functions of their own (memory per idle socket); a player's
    # push is still their own view (a shared one would leak one seat's secrets to another).
    from lobby.games import watch_game
    from lobby.service import load_engine
    from starbase_core.envelope import Envelope

    trucker, moon = load_engine("trucker"), load_engine("moon21")
    crowd = [watch_game(trucker, f"g{n}", n, None) for n in range(3)]
    assert all(w.encode is crowd[0].encode and w.alike is crowd[0].alike for w in crowd)
    assert [(w.stream, w.after, w.view) for w in crowd] == [("game.g0", 0, None), ("game.g1", 1, None),
                                                             ("game.g2", 2, None)]
    assert watch_game(moon, "g", 0, None).encode is not crowd[0].encode          # per engine
    ann, bob = watch_game(trucker, "g", 0, "ann"), watch_game(trucker, "g", 0, "bob")
    assert ann.alike is crowd[0].alike                                            # not a view's: shared
    taken = Envelope(stream="game.g", seq=1, type="PileTaken", time="t", prev_hash="", hash="",
                     data={"type": "PileTaken", "player": "ann", "pile": 2, "cards": ["c1", "c2", "c3"]})
    assert '"c1"' in ann.encode(taken)
    assert '"c1"' not in bob.encode(taken) and '"c1"' not in crowd[1].encode(taken)
    assert not crowd[2].alike(taken) and not hasattr(crowd[0], "__dict__")       # slots: no dict a socket


def test_only_platform_envelopes_and_engine_events_without_secrets_are_the_same_for_every_viewer():
    from lobby.service import load_engine
    from starbase_core.envelope import Envelope
    from starbase_core.gamestream import GAME_ENDED, same_for_every_viewer
    from tests.support import testjack

    def envelope(type_: str, meta: dict | None = None) -> Envelope:
        return Envelope(stream="game.g", seq=1, type=type_, data={"type": type_}, time="t", prev_hash="",
                        hash="", meta=meta or {})

    testjack.register()
    trucker, jack = load_engine("trucker"), load_engine("testjack")
    assert same_for_every_viewer(trucker, envelope(GAME_ENDED, {"platform": True}))
    assert same_for_every_viewer(jack, envelope(GAME_ENDED, {"platform": True}))
    assert same_for_every_viewer(trucker, envelope("PileReturned"))
    assert not same_for_every_viewer(trucker, envelope("PileTaken"))            # its cards: its player's
    assert not same_for_every_viewer(jack, envelope("CardDealt"))               # not on the base: unsure


def test_whether_an_envelope_pushes_alike_is_asked_once_for_all_its_views_and_again_after_it_changes():
    from lobby.channel import Channel, Sink
    from starbase_core.envelope import Envelope

    def envelope(seq: int) -> Envelope:
        return Envelope(stream="game.g", seq=seq, type="Ticked", data={}, time="t", prev_hash="", hash="")

    asked = []
    channel = Channel("game.g")
    channel.alike = lambda e: asked.append(e.seq) or True
    for view in ("ann", "bob", "cy", None):
        channel.join(Sink(view, lambda e: f"seq {e.seq}", Written(), 0, lambda sink, reason: None))
    for seq in (1, 2):
        channel.add(envelope(seq))
        channel.deliver([envelope(seq)])
    assert sorted(set(asked)) == [1, 2] and len(asked) <= 4     # not once per view (4 views, 2 envelopes)
    channel.alike = lambda e: asked.append(-e.seq) or False      # other watchers, another answer
    assert channel.text(channel.tail[0], "ann", lambda: "ann's own") == "ann's own" and asked[-1] == -1


def test_a_command_alike_for_every_view_is_framed_once_for_all_of_them():
    """Each view's sockets get that view's frames; when every envelope owed is alike, every view's
    sockets get the very same bytes, framed and joined once."""
    from lobby.channel import Channel, Sink
    from starbase_core.envelope import Envelope

    def envelope(seq: int) -> Envelope:
        return Envelope(stream="game.g", seq=seq, type="Ticked", data={}, time="t", prev_hash="", hash="")

    for alike, framed_per_envelope in ((True, 1), (False, 4)):
        channel, framed = Channel("game.g"), []
        channel.alike = lambda e, alike=alike: alike
        real_frame = channel.frame
        channel.frame = lambda *args: framed.append(args[0].seq) or real_frame(*args)
        outlets = {view: Written() for view in ("ann", "bob", "cy", None)}
        for view, outlet in outlets.items():
            channel.join(Sink(view, lambda e, view=view: f"{view} {e.seq}", outlet, 0, lambda sink, reason: None))
        command = [envelope(1), envelope(2)]
        for sent in command:
            channel.add(sent)
        channel.deliver(command)
        assert sorted(framed) == sorted([1, 2] * framed_per_envelope)
        assert all(outlet.writes == 1 and len(outlet.frames) == 2 for outlet in outlets.values())
        texts = {view: b"".join(outlet.frames) for view, outlet in outlets.items()}
        assert (len(set(texts.values())) == 1) == alike


async def caught_up_at_one():
    """A feed not started (its follow's hand-out played by hand), "game.g" at seq 1, and one socket
    caught up on it: (store, feed, socket, its sink, the demotions it was told)."""
    store = MemoryEventStore()
    feed = Feed(store)
    await append(store, "game.g", 1)
    socket, told = Recorded(), []
    sink = await feed.catch_up("game.g", 0, None, lambda e: f"seq {e.seq}", socket, lambda s, r: told.append(r))
    return store, feed, socket, sink, told


async def test_a_commands_envelopes_from_its_reply_are_pushed_at_once_and_not_again_when_the_follow_brings_them():
    store, feed, socket, sink, told = await caught_up_at_one()
    writes = socket.writes
    command = await append(store, "game.g", 2)
    feed.stored(command)                                        # the adjudicator's reply, before the follow
    await asyncio.sleep(0)
    assert socket.writes == writes + 1 and [f[-5:] for f in socket.frames[-2:]] == [b"seq 2", b"seq 3"]
    channel, delivered = feed._channels["game.g"], []
    real_deliver = channel.deliver
    channel.deliver = lambda envelopes: delivered.append(envelopes) or real_deliver(envelopes)
    for envelope in command:                                    # the follow brings the same envelopes
        feed._dispatch(envelope)
    await asyncio.sleep(0)
    assert socket.writes == writes + 1 and sink.last == 3
    assert delivered == []                                      # not handed out again: no work per socket
    later = await append(store, "game.g", 1)
    feed._dispatch(later[0])
    await asyncio.sleep(0)
    assert [f[-5:] for f in socket.frames[-3:]] == [b"seq 2", b"seq 3", b"seq 4"] and told == []
    feed.leave(sink)


async def test_a_reply_that_does_not_carry_on_the_live_copy_waits_for_the_follow():
    store, feed, socket, sink, told = await caught_up_at_one()
    writes = socket.writes
    others = await append(store, "game.g", 1)                   # another replica's command, not followed yet
    mine = await append(store, "game.g", 1)
    feed.stored(mine)                                           # past a gap: not handed out
    feed.stored(await store.read("game.g", 1))                  # a resend's old envelopes: held already
    await asyncio.sleep(0)
    assert socket.writes == writes and sink.last == 1 and len(feed._channels["game.g"].tail) == 1
    for envelope in others + mine:
        feed._dispatch(envelope)
    await asyncio.sleep(0)
    assert [f[-5:] for f in socket.frames[-2:]] == [b"seq 2", b"seq 3"] and sink.last == 3 and told == []
    feed.stored([])                                             # a reply with nothing stored: nothing
    feed.leave(sink)


async def test_an_envelope_only_read_from_the_store_is_still_handed_out_when_the_follow_brings_it():
    """The live copy may hold an envelope a store read put there before the follow brings it; a socket
    that subscribed before that read is owed it all the same (only what was handed out is skipped)."""
    store = MemoryEventStore()
    feed = Feed(store)
    await append(store, "game.g", 1)
    events = feed.events("game.g", 0)
    assert (await anext(events)).seq == 1                       # its backlog; it listens from here
    later = await append(store, "game.g", 1)                    # stored, not followed yet
    feed._channels["game.g"].seed(await store.read("game.g", 1))     # another socket's read
    feed._dispatch(later[0])                                    # the follow brings it
    assert (await asyncio.wait_for(anext(events), 1)).seq == 2
    await events.aclose()


async def test_the_live_copy_answers_for_a_run_it_holds_whole_and_only_then():
    """`Feed.held`: what a command's reply may be answered with when the follow brought it first."""
    store, feed, socket, sink, told = await caught_up_at_one()
    command = await append(store, "game.g", 3)
    for envelope in command:
        feed._dispatch(envelope)
    assert feed.held("game.g", 2, 3) == command and feed.held("game.g", 1, 4)[1:] == command
    assert feed.held("game.g", 2, 4) is None and feed.held("game.g", 0, 2) is None    # past either end
    assert feed.held("game.other", 1, 1) is None                                       # nobody watches
    feed.leave(sink)
    assert feed.held("game.g", 3, 2) == command[1:]                    # watched a moment ago: still kept
