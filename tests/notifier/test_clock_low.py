""""Clock running low" on real NATS: a signed webhook once per decision whichever replica sees it, and
from a notifier started after the decision began; never for a decision already answered (a replica
that lagged reads the store first). The watches' `now` is set by the test, relative to the stream's own
server times, so nothing depends on the machine's speed."""
from __future__ import annotations

from datetime import timedelta

import pytest

from adjudicator.service import Adjudicator
import asyncio

from notifier.clocklow import ClockLowWatch
from notifier.kinds import CLOCK_LOW, notification_id
from notifier.preferences import Preferences, Webhook
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from tests.notifier.helpers import parts
from tests.notifier.receiver import Receiver, verified

pytestmark = pytest.mark.integration
SECRET = "whsec_clock-low-secret"


@pytest.fixture
async def receiver():
    made = await Receiver().start()
    yield made
    await made.stop()


async def test_a_low_clock_is_told_once_per_decision_and_never_for_an_answered_one(
        nats_url, namespace, jetstream_store, receiver, new_name):
    game_id = new_name("g")
    stream = f"game.{game_id}"
    adjudicator = Adjudicator(jetstream_store, MemorySeedVault())
    await adjudicator.create_game(game_id, "testjack", ["ann", "bob"], {"bank_seconds": 600, "increment_seconds": 10})
    moment = {}
    async with parts(nats_url, namespace) as made:
        for player in ("ann", "bob"):
            await made.preferences.put(player, Preferences(webhook=Webhook(url=receiver.url, secret=SECRET)))
        def a_watch() -> ClockLowWatch:
            return ClockLowWatch(jetstream_store, made.deliverer.deliver, lead_seconds=120, fraction=0.25,
                                 tick_seconds=0.05, now=lambda: moment["now"])
        replicas = []
        for _ in range(2):      # two notifiers that have folded the game's start (ticked by the test)
            watch = a_watch()
            for envelope in await jetstream_store.read(stream):
                watch.book.observe(envelope)
            replicas.append(watch)
        first, lagging = replicas
        ann = first.book.followed[game_id].owed["ann"]
        ann_low_from, ann_due = first.low_from(first.book.followed[game_id], ann)
        assert ann_due - ann_low_from == timedelta(seconds=120)       # min(120 s, a quarter of 600 s)

        # ann stands; only the first replica's consumer gets that append.
        await adjudicator.submit(game_id, "ann", {"type": "Stand"}, "ann-stand")
        for envelope in await jetstream_store.read(stream, first.book.expects(game_id)):
            first.book.observe(envelope)
        game = first.book.followed[game_id]
        bob = game.owed["bob"]
        bob_low_from, bob_due = first.low_from(game, bob)
        assert list(lagging.book.followed[game_id].owed) == ["ann"]      # stale

        # A moment when ann's old decision would be low and bob's is not yet: the lagging replica reads
        # the store before warning, so nobody is told anything.
        moment["now"] = ann_low_from + (bob.since - ann.since) / 2
        assert ann_low_from <= moment["now"] < bob_low_from
        await lagging.tick()
        await settled(replicas)
        assert list(lagging.book.followed[game_id].owed) == ["bob"] and receiver.requests == []

        # bob's decision: not low a second before its lead, then low: both replicas tick, one webhook.
        moment["now"] = bob_low_from - timedelta(seconds=1)
        assert [await watch.tick() for watch in replicas] == [0, 0]
        # A notifier started now (a restart) learns bob's decision from the store by itself and tells
        # him; the two replicas tick after it: still one webhook.
        moment["now"] = bob_due - timedelta(seconds=60)
        restarted = a_watch()
        running = asyncio.create_task(restarted.run())
        try:
            async def told():
                while not receiver.requests:
                    await asyncio.sleep(0.05)
            await asyncio.wait_for(told(), 15)
            for _ in range(2):
                for watch in replicas:
                    await watch.tick()
                await settled([*replicas, restarted])
        finally:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
    [low] = receiver.requests
    assert verified(low, SECRET) and low.json["kind"] == CLOCK_LOW and low.json["player"] == "bob"
    assert low.id == notification_id(stream, bob.since_seq, "bob", CLOCK_LOW)
    assert low.json["due_at"] == bob_due.isoformat() and low.json["bank_seconds"] == 600


async def settled(watches) -> None:
    for watch in watches:
        for task in list(watch._sending.values()):
            await task


async def folded_watch(store, default_seconds: float = 0.0) -> ClockLowWatch:
    async def never_sent(note):      # these tests read the watch's fold; nothing is due to be sent
        raise AssertionError(f"nothing may be sent here: {note}")
    watch = ClockLowWatch(store, never_sent, lead_seconds=60, default_seconds=default_seconds)
    for envelope in await store.read("game.d"):
        await watch.feed.fold(envelope)
    return watch


async def test_a_table_timed_by_the_clocks_default_is_watched_and_an_undo_keeps_it_watched():
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("d", "testjack", ["ann", "bob"], {"rated": False})    # no time controls
    assert "d" not in (await folded_watch(store)).book.followed          # untimed without a default
    watch = await folded_watch(store, default_seconds=300)
    game = watch.book.followed["d"]
    ann = game.owed["ann"]
    low_from, due = watch.low_from(game, ann)
    assert due - ann.since == timedelta(seconds=300) and due - low_from == timedelta(seconds=60)

    await adjudicator.submit("d", "ann", {"type": "Stand"}, "d-1")
    await adjudicator.submit("d", "ann", {"type": "Undo"}, "d-2")       # takes back what the watch folded
    for envelope in await store.read("game.d", watch.book.expects("d")):
        await watch.feed.fold(envelope)
    assert list(watch.book.followed["d"].owed) == ["ann"]               # still watched: ann owes again
