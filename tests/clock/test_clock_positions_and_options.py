"""The clock sends the position it decided on, so a move that lands just before its default is never
answered by that default; and a game whose engine refuses unknown options (Stellar) is timed by its
`decision_seconds` option, to the end, as an audit confirms. In memory; time is passed in (`now`)."""
from __future__ import annotations

from datetime import datetime, timedelta

from adjudicator.service import Adjudicator
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import DECISION_SECONDS, ends_game
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game

LIMIT = 30.0


def clock_ids(stream) -> list[str]:
    return [e.command_id for e in stream if (e.command_id or "").startswith("clock:")]


class Racing:
    """Passes defaults on to the adjudicator, but lets a player's own command land first, once: the
    player acting in the instant between the clock's last read and its default."""

    def __init__(self, adjudicator: Adjudicator, game_id: str, actor: str, command: dict):
        self.adjudicator, self.game_id, self.actor, self.command = adjudicator, game_id, actor, command
        self.raced = False
        self.calls: list[tuple[str, int | None]] = []

    async def __call__(self, game_id, actor, command, command_id, *, expected_seq=None, played_by=None):
        self.calls.append((command_id, expected_seq))
        if not self.raced:
            self.raced = True
            await self.adjudicator.submit(self.game_id, self.actor, self.command, "the-players-own")
        return await self.adjudicator.submit(game_id, actor, command, command_id, expected_seq=expected_seq,
                                             played_by=played_by)


async def testjack_table(options=None):
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("g1", "testjack", ["ann", "bob"], {DECISION_SECONDS: LIMIT, **(options or {})})
    return store, adjudicator


async def folded(store, tracker: Tracker) -> Tracker:
    for envelope in await store.read("game.g1"):
        tracker.observe(envelope)
    return tracker


async def test_a_move_landing_just_before_the_default_is_not_answered_by_it():
    store, adjudicator = await testjack_table()
    tracker = await folded(store, Tracker(0.0))
    owed, seen = tracker.clocks["g1"].owed["ann"], tracker.clocks["g1"].record.last_seq
    now = owed.since + timedelta(seconds=LIMIT)
    racing = Racing(adjudicator, "g1", "ann", {"type": "Draw"})   # ann makes her move herself, just in time
    clock = DecisionClock(store, racing, tracker, now=lambda: now)

    assert await clock.tick() == 0
    [(command_id, expected_seq)] = racing.calls
    assert command_id == f"clock:{owed.since_seq}:ann" and expected_seq == seen
    stream = await store.read("game.g1")
    assert clock_ids(stream) == []                      # her new decision got no default
    assert [e.type for e in stream if e.command_id == "the-players-own"][0] == "CardDrawn"
    # The clock reads the move at its next tick; whoever owes now owes since it, so nothing is due yet.
    assert await clock.tick() == 0 and clock_ids(await store.read("game.g1")) == []
    assert all(o.since_seq == stream[-1].seq for o in tracker.clocks["g1"].owed.values())


async def test_a_default_refused_as_stale_is_decided_again_on_the_newer_state():
    store, adjudicator = await testjack_table()
    tracker = await folded(store, Tracker(0.0))
    owed, seen = tracker.clocks["g1"].owed["ann"], tracker.clocks["g1"].record.last_seq
    now = owed.since + timedelta(seconds=LIMIT)
    # ann's move changes nothing (Think): she still owes the same decision, so its default still applies.
    racing = Racing(adjudicator, "g1", "ann", {"type": "Think"})
    clock = DecisionClock(store, racing, tracker, now=lambda: now)

    assert await clock.tick() == 0                      # refused as stale, not given up
    assert await clock.tick() == 0                      # reads the newer envelope
    assert await clock.tick() == 1                      # decides again on it: the default lands
    assert [expected for _, expected in racing.calls] == [seen, seen + 1]
    stream = await store.read("game.g1")
    assert clock_ids(stream) == [f"clock:{owed.since_seq}:ann"]
    assert [e.type for e in stream if e.command_id == f"clock:{owed.since_seq}:ann"] == ["Stood"]


async def test_a_stellar_table_with_a_decision_time_is_timed_to_its_end_and_passes_the_audit():
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("g1", "stellar", ["ann", "bob", "cyd"], {DECISION_SECONDS: LIMIT})
    tracker = await folded(store, Tracker(0.0))         # no service default: the table's option times it
    assert tracker.clocks["g1"].limit == LIMIT
    moment = {"now": datetime.min}
    clock = DecisionClock(store, adjudicator.submit, tracker, now=lambda: moment["now"])

    # Nobody ever acts: each tick, every decision owed is LIMIT old. A few ticks only read (a default
    # landed in the game after another was chosen), so the bound is generous.
    for _ in range(2000):
        stream = await store.read("game.g1")
        if ends_game(stream[-1]):
            break
        assert "g1" in tracker.clocks, "the clock stopped timing an unfinished game"
        owed = tracker.clocks["g1"].owed.values()
        assert owed, "an unfinished game where nobody owes a decision"
        moment["now"] = max(o.since for o in owed) + timedelta(seconds=LIMIT)
        await clock.tick()
    stream = await store.read("game.g1")
    assert ends_game(stream[-1]) and "g1" not in tracker.clocks
    by_players = [e for e in stream if e.meta.get("command") is not None]
    assert by_players and all(e.command_id.startswith("clock:") for e in by_players)
    assert stream[0].data["options"] == {DECISION_SECONDS: LIMIT}

    report = audit_game("g1", stream, get_game)
    assert report.problems == [] and report.verdict == PASS
