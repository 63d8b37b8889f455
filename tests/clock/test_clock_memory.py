"""The clock over the in-memory store and a real adjudicator: who owes what since when, and what it does
when the time runs out. Time is passed in (`now`), so nothing here waits."""
from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime, timedelta

import pytest

from adjudicator.service import Adjudicator
from clock.decision import parse_time
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.gamestream import ends_game
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import RuleViolation
from tests.support.faults import CuttableStore
from tests.support.testjack import GAME as TESTJACK

LIMIT = 30.0
GAME = "g1"
STREAM = f"game.{GAME}"


class Table:
    """A testjack game on a real adjudicator, and clocks that fold its stream."""

    def __init__(self):
        self.store = MemoryEventStore()
        self.adjudicator = Adjudicator(self.store, MemorySeedVault())
        self.now = datetime.min

    async def create(self, players, options):
        await self.adjudicator.create_game(GAME, "testjack", players, options)

    async def act(self, player, command_type, command_id):
        return await self.adjudicator.submit(GAME, player, {"type": command_type}, command_id)

    def clock(self, default_seconds: float = 0.0) -> DecisionClock:
        return DecisionClock(self.store, self.adjudicator.submit, Tracker(default_seconds), now=lambda: self.now)

    async def fold(self, clock: DecisionClock) -> None:
        for envelope in await self.store.read(STREAM):
            clock.tracker.observe(envelope)

    async def stream(self):
        return await self.store.read(STREAM)

    async def time_of(self, seq: int) -> datetime:
        return parse_time((await self.stream())[seq - 1].time)


@pytest.fixture
def table():
    return Table()


async def test_the_player_to_act_owes_a_decision_since_the_envelope_that_made_it_theirs(table):
    await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
    clock = table.clock()
    await table.fold(clock)
    owed = clock.tracker.clocks[GAME].owed
    assert list(owed) == ["ann"]
    # Seating the players (setup, seq 2) is the first envelope after which ann is to act.
    seated = (await table.stream())[owed["ann"].since_seq - 1]
    assert seated.type == "PlayersSeated" and owed["ann"].since == parse_time(seated.time)


async def test_nothing_is_due_before_the_limit_and_the_default_is_due_at_it(table):
    await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
    clock = table.clock()
    await table.fold(clock)
    since = clock.tracker.clocks[GAME].owed["ann"]
    assert clock.tracker.due(since.since + timedelta(seconds=LIMIT - 0.001)) == []
    [due] = clock.tracker.due(since.since + timedelta(seconds=LIMIT))
    assert (due.player, due.command, due.command_id) == ("ann", {"type": "Stand", "v": 1},
                                                         f"clock:{since.since_seq}:ann")


async def test_an_absent_player_gets_the_default_and_play_goes_on_to_the_next_player(table):
    await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
    clock = table.clock()
    await table.fold(clock)
    since = clock.tracker.clocks[GAME].owed["ann"]
    table.now = since.since + timedelta(seconds=LIMIT)
    assert await clock.tick() == 1
    stream = await table.stream()
    applied = [e for e in stream if e.command_id == f"clock:{since.since_seq}:ann"]
    assert [(e.type, e.actor, e.data["player"]) for e in applied] == [("Stood", "ann", "ann")]
    # bob owes now, since ann's default; he plays on himself.
    assert clock.tracker.clocks[GAME].owed["bob"].since_seq == applied[-1].seq
    await table.act("bob", "Stand", "bob-1")
    assert ends_game((await table.stream())[-1])


async def test_a_player_who_acts_in_time_is_left_alone(table):
    await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
    clock = table.clock()
    await table.fold(clock)
    since = clock.tracker.clocks[GAME].owed["ann"]
    await table.act("ann", "Stand", "ann-1")      # the clock has not seen this yet
    table.now = since.since + timedelta(seconds=LIMIT)
    assert await clock.tick() == 0                # it reads the newer envelopes and does not act
    assert [e.command_id for e in await table.stream() if (e.command_id or "").startswith("clock:")] == []
    assert list(clock.tracker.clocks[GAME].owed) == ["bob"]


async def test_a_players_own_move_starts_a_new_decision_but_a_move_that_changed_nothing_does_not(table):
    await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
    clock = table.clock()
    await table.fold(clock)
    first = clock.tracker.clocks[GAME].owed["ann"]
    await table.act("ann", "Think", "ann-think")   # legal, no effect: not a decision made
    await table.fold(clock)
    assert clock.tracker.clocks[GAME].owed["ann"] == first
    drawn = await table.act("ann", "Draw", "ann-draw")
    await table.fold(clock)
    if not ends_game(drawn[-1]) and "ann" in clock.tracker.clocks[GAME].owed:   # ann did not go bust
        again = clock.tracker.clocks[GAME].owed["ann"]
        assert again.since_seq == drawn[-1].seq and again.since_seq > first.since_seq


async def test_a_table_with_the_clock_off_never_gets_a_default(table):
    await table.create(["ann", "bob"], {"decision_seconds": 0})
    clock = table.clock(default_seconds=LIMIT)
    await table.fold(clock)
    table.now = datetime.max.replace(tzinfo=(await table.time_of(1)).tzinfo)
    assert clock.tracker.due(table.now) == [] and await clock.tick() == 0


async def test_the_service_default_applies_to_a_table_without_the_option(table):
    await table.create(["ann", "bob"], {})
    clock = table.clock(default_seconds=LIMIT)
    await table.fold(clock)
    since = clock.tracker.clocks[GAME].owed["ann"].since
    assert clock.tracker.due(since + timedelta(seconds=LIMIT - 1)) == []
    assert [d.player for d in clock.tracker.due(since + timedelta(seconds=LIMIT))] == ["ann"]


async def test_two_clocks_at_the_same_moment_apply_a_default_once(table):
    await table.create(["ann", "bob", "cyd"], {"decision_seconds": LIMIT})
    first, second = table.clock(), table.clock()
    await table.fold(first)
    await table.fold(second)
    table.now = (await table.time_of(len(await table.stream()))) + timedelta(seconds=LIMIT)
    await asyncio.gather(first.tick(), second.tick())
    stream = await table.stream()
    defaults = Counter(e.command_id for e in stream if (e.command_id or "").startswith("clock:"))
    assert list(defaults.values()) == [1]
    [stood] = [e for e in stream if e.type == "Stood"]
    assert stood.actor == "ann"


async def test_a_refused_default_is_logged_and_not_tried_again(table):
    await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
    clock = table.clock()
    await table.fold(clock)
    later = clock.tracker.clocks[GAME].owed["ann"].since + timedelta(days=1)
    [due] = clock.tracker.due(later)
    refusing = DecisionClock(table.store, _refuse, clock.tracker, now=lambda: later)
    assert await refusing.enforce(due) is False
    assert clock.tracker.due(later) == [] and await refusing.tick() == 0
    assert [e.type for e in await table.stream() if e.actor == "ann"] == []


async def test_a_finished_game_is_no_longer_followed(table):
    await table.create(["ann"], {"decision_seconds": LIMIT})
    clock = table.clock()
    await table.fold(clock)
    assert GAME in clock.tracker.clocks
    await table.act("ann", "Stand", "ann-1")
    await table.fold(clock)
    assert GAME not in clock.tracker.clocks and clock.tracker.owed_count() == 0


async def _refuse(game_id, actor, command, command_id, expected_seq=None, played_by=None):
    raise RuleViolation("REALTIME_PHASE", "timed by its own service")


class RealtimeJack(type(TESTJACK)):
    """Testjack whose whole game is a real-time phase, timed by another service (like Trucker's building)."""

    def realtime_service(self, state):
        return "trucker"


async def test_nobody_owes_the_clock_during_a_real_time_phase(table):
    await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
    tracker = Tracker(0.0, games=lambda name: RealtimeJack())
    for envelope in await table.stream():
        tracker.observe(envelope)
    assert GAME in tracker.clocks and tracker.clocks[GAME].owed == {}
    assert tracker.due(datetime.max.replace(tzinfo=(await table.time_of(1)).tzinfo)) == []


async def test_a_cut_follow_is_restarted_where_it_was_and_reported_unhealthy_meanwhile(table):
    store = CuttableStore(table.store)
    clock = DecisionClock(store, table.adjudicator.submit, Tracker(0.0), now=lambda: table.now, tick_seconds=0.01)
    stop = asyncio.Event()
    running = asyncio.create_task(clock.run(stop))
    try:
        await table.create(["ann", "bob"], {"decision_seconds": LIMIT})
        await until(lambda: GAME in clock.tracker.clocks and clock.healthy())
        folded = clock.position
        store.cut()
        await table.act("ann", "Stand", "ann-1")           # the follow meets the cut here
        await until(lambda: not clock.healthy())
        store.restore()
        await until(lambda: clock.healthy() and clock.position > folded)
        # It resumed after what it had folded: bob owes since ann's move, and his default comes on time.
        since = clock.tracker.clocks[GAME].owed["bob"]
        assert since.since_seq == (await table.stream())[-1].seq
        table.now = since.since + timedelta(seconds=LIMIT)
        await until(lambda: ends_game(table.store._streams[STREAM][-1]))
        assert clock.supervisor.tasks["follow"].restarts >= 1
    finally:
        stop.set()
        await running


async def until(condition, timeout: float = 10.0) -> None:
    async def poll():
        while not condition():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(poll(), timeout)
