"""Pausing the clock by agreement and the `bot` / `lose` time-out policies, as rules: a real adjudicator
on the in-memory store; the envelopes' server times are set by the test, so nothing here waits."""
from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.service import Adjudicator
from clock.service import DecisionClock
from clock.tracker import Tracker
from lobby.clockview import ClockViews
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import ends_game, replay
from starbase_core.pause import MAX_REQUESTS
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import RuleViolation
from starbase_rules.registry import get_game
from tests.support import tally

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)
GAME = "g1"
STREAM = f"game.{GAME}"
ids = itertools.count()


class Game:
    """A testjack game whose moves are stamped with test-chosen server times (seconds after setup)."""

    def __init__(self):
        self.store = MemoryEventStore()
        self.adjudicator = Adjudicator(self.store, MemorySeedVault())
        self.times: dict[str | None, datetime] = {None: T0}

    async def create(self, options, players=("ann", "bob")):
        await self.adjudicator.create_game(GAME, "testjack", list(players), options)

    async def act(self, player, command: str, at: float, played_by=None):
        command_id = f"m{next(ids)}"
        stored = await self.adjudicator.submit(GAME, player, {"type": command}, command_id, played_by=played_by)
        self.times[command_id] = T0 + timedelta(seconds=at)
        return [e.type for e in stored]

    async def refused(self, player, command: str, played_by=None) -> str:
        with pytest.raises(RuleViolation) as refusal:
            await self.adjudicator.submit(GAME, player, {"type": command}, f"r{next(ids)}", played_by=played_by)
        return refusal.value.code

    async def envelopes(self):
        stamp = lambda moment: moment.isoformat().replace("+00:00", "Z")     # noqa: E731
        return [e.model_copy(update={"time": stamp(self.times.get(e.command_id, self.times[None]))})
                for e in await self.store.read(STREAM)]

    async def tracker(self) -> Tracker:
        tracker = Tracker(0.0)
        for envelope in await self.envelopes():
            tracker.observe(envelope)
        return tracker


@pytest.fixture
def game():
    return Game()


async def test_a_pause_needs_everyone_stops_the_bank_and_the_decision_goes_on_after_the_resumption(game):
    await game.create({"bank_seconds": 100, "increment_seconds": 10})
    assert await game.act("ann", "ProposePause", 20) == ["PauseRequested"]
    clock = (await game.tracker()).clocks[GAME]
    assert clock.owed["ann"].since == T0                       # asking is not acting: the decision runs on
    assert clock.due_at(clock.owed["ann"]) == T0 + timedelta(seconds=100)
    assert clock.clock_state(T0 + timedelta(seconds=25))["awaiting"] == ["bob"]

    assert await game.act("bob", "AgreePause", 30) == ["PauseAgreed", "ClockPaused"]
    tracker = await game.tracker()
    clock = tracker.clocks[GAME]
    assert clock.due_at(clock.owed["ann"]) is None
    assert tracker.due(T0 + timedelta(days=365)) == []         # nobody runs out of time while paused
    state = clock.clock_state(T0 + timedelta(seconds=1000))
    assert state["paused"] is True and state["seats"]["ann"]["bank_seconds"] == 70.0   # frozen at 30 s used
    assert state["seats"]["ann"]["due_at"] is None

    assert await game.act("bob", "ResumeClock", 130) == ["ClockResumed"]    # one person is enough
    clock = (await game.tracker()).clocks[GAME]
    assert clock.owed["ann"].since == T0 + timedelta(seconds=100)          # moved on by the 100 s paused
    assert clock.due_at(clock.owed["ann"]) == T0 + timedelta(seconds=200)
    assert await game.act("ann", "Draw", 150) == ["CardDrawn"]
    clock = (await game.tracker()).clocks[GAME]
    assert clock.banks["ann"] == 100 - 30 - 20 + 10                        # the pause was not charged
    assert audit_game(GAME, await game.store.read(STREAM), get_game).problems == []


async def test_a_decision_ended_during_the_pause_is_charged_up_to_the_pause_only(game):
    await game.create({"bank_seconds": 100})
    await game.act("ann", "ProposePause", 10)
    await game.act("bob", "AgreePause", 40)
    await game.act("ann", "Draw", 500)                         # play goes on while paused
    clock = (await game.tracker()).clocks[GAME]
    assert clock.banks["ann"] == 60 and clock.paused_at == T0 + timedelta(seconds=40)
    assert clock.due_at(clock.owed["ann"]) is None
    await game.act("ann", "ResumeClock", 700)
    clock = (await game.tracker()).clocks[GAME]
    assert clock.owed["ann"].since == T0 + timedelta(seconds=700)           # owed since the pause: from now
    assert clock.due_at(clock.owed["ann"]) == T0 + timedelta(seconds=760)


async def test_pause_refusals_each_with_its_code(game):
    await game.create({"decision_seconds": 60})
    assert await game.refused("ann", "AgreePause") == "NO_PAUSE_REQUEST"
    assert await game.refused("ann", "ResumeClock") == "NOT_PAUSED"
    assert await game.refused("ann", "ProposePause", played_by="clock") == "NOT_A_PERSON"
    assert await game.refused("ann", "ProposePause", played_by="bot:easy") == "NOT_A_PERSON"
    await game.act("ann", "ProposePause", 1)
    assert await game.refused("ann", "AgreePause") == "NOT_ASKED"
    assert await game.refused("bob", "ProposePause") == "PAUSE_PENDING"
    assert await game.act("bob", "RefusePause", 2) == ["PauseRefused"]      # one refusal ends it
    assert await game.refused("bob", "AgreePause") == "NO_PAUSE_REQUEST"
    for at in range(MAX_REQUESTS - 1):
        await game.act("ann", "ProposePause", 3 + at)
        await game.act("bob", "RefusePause", 3 + at)
    assert await game.refused("ann", "ProposePause") == "PAUSE_LIMIT"
    await game.act("bob", "ProposePause", 20)
    await game.act("ann", "AgreePause", 21)
    assert await game.refused("bob", "ProposePause") == "ALREADY_PAUSED"
    envelopes = await game.store.read(STREAM)
    assert replay(GAME, envelopes, get_game).pause.paused is True
    assert audit_game(GAME, envelopes, get_game).problems == []


async def test_a_lone_person_against_bots_pauses_at_once_and_a_resignation_lapses_a_request(game):
    await game.create({"decision_seconds": 60, "bots": {"bob": "easy"}})
    assert await game.act("ann", "ProposePause", 1) == ["PauseRequested", "ClockPaused"]

    other = Game()
    await other.create({"decision_seconds": 60}, players=("ann", "bob", "cyd"))
    await other.act("ann", "ProposePause", 1)
    await other.act("bob", "AgreePause", 2)
    await other.act("cyd", "Resign", 3)
    assert await other.refused("bob", "AgreePause") == "NO_PAUSE_REQUEST"   # lapsed: those asked changed
    assert replay(GAME, await other.store.read(STREAM), get_game).pause.paused is False


def clock_on(game: Game, now: datetime) -> DecisionClock:
    return DecisionClock(game.store, game.adjudicator.submit, Tracker(0.0), now=lambda: now)


async def timed_out(game: Game, options: dict, players=("ann", "bob")) -> list:
    """Create the game, let ann's first decision run out, and tick a clock once."""
    await game.create(options, players)
    clock = clock_on(game, datetime.max.replace(tzinfo=timezone.utc))
    for envelope in await game.store.read(STREAM):
        clock.tracker.observe(envelope)
    assert await clock.tick() == 1
    return await game.store.read(STREAM)


async def test_lose_on_time_ends_a_two_player_game_with_the_late_player_last(game):
    envelopes = await timed_out(game, {"decision_seconds": 60, "timeout_policy": "lose"})
    resigned = next(e for e in envelopes if e.type == "PlayerResigned")
    assert resigned.actor == "ann" and resigned.meta["played_by"] == "clock"
    assert resigned.data == {"player": "ann", "by": "ann", "level": "normal", "timeout": "lose"}
    assert resigned.meta["command"] == {"type": "TimeOut"}
    assert ends_game(envelopes[-1]) and envelopes[-1].data["reason"] == "resigned"
    assert [(s["player"], s["rank"]) for s in envelopes[-1].data["standings"]] == [("bob", 1), ("ann", 2)]
    assert envelopes[-1].data["resigned"] == ["ann"]
    assert audit_game(GAME, envelopes, get_game).verdict == PASS


async def test_bot_on_time_hands_the_seat_to_a_bot_and_the_game_goes_on(game):
    envelopes = await timed_out(game, {"bank_seconds": 30, "timeout_policy": "bot"})
    resigned = next(e for e in envelopes if e.type == "PlayerResigned")
    assert resigned.data == {"player": "ann", "by": "ann", "level": "normal", "timeout": "bot"}
    assert not any(map(ends_game, envelopes))
    record = replay(GAME, envelopes, get_game)
    assert record.seats.controllers["ann"] == "bot:normal" and record.seats.resigned == ["ann"]
    # The bot plays the seat now; ann herself may not, and a bot's seat gets the engine's default on time.
    assert await game.refused("ann", "Stand") == "NOT_IN_CONTROL"
    clock = clock_on(game, datetime.max.replace(tzinfo=timezone.utc))
    for envelope in await game.store.read(STREAM):
        clock.tracker.observe(envelope)
    [due] = clock.tracker.due(datetime.max.replace(tzinfo=timezone.utc))
    assert due.player == "ann" and due.command["type"] == "Stand"
    assert audit_game(GAME, await game.store.read(STREAM), get_game).problems == []


async def test_a_time_out_is_refused_unless_the_clock_sends_it_for_a_person_owing_a_decision(game):
    await game.create({"decision_seconds": 60, "timeout_policy": "lose"})
    assert await game.refused("ann", "TimeOut") == "NOT_THE_CLOCK"
    assert await game.refused("ann", "TimeOut", played_by="bot:easy") == "NOT_THE_CLOCK"
    assert await game.refused("bob", "TimeOut", played_by="clock") == "NOT_TO_ACT"
    await game.act("ann", "ProposePause", 1)
    await game.act("bob", "AgreePause", 2)
    assert await game.refused("ann", "TimeOut", played_by="clock") == "CLOCK_PAUSED"

    plain = Game()
    await plain.create({"decision_seconds": 60})
    assert await plain.refused("ann", "TimeOut", played_by="clock") == "NO_TIMEOUT_POLICY"


async def test_an_undo_in_a_timed_game_is_refolded_and_the_clock_keeps_timing_it():
    """An undo takes back envelopes the clock had folded: it rebuilds the game from the stream instead
    of dropping it (it used to stop timing the game for good)."""
    tally.register()
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game(GAME, "tally", ["ann", "bob"], {"rated": False, "bank_seconds": 100})
    clock = DecisionClock(store, adjudicator.submit, Tracker(0.0), now=lambda: datetime.max.replace(tzinfo=timezone.utc))
    for envelope in await store.read(STREAM):
        await clock._fold(envelope)
    for number, command in enumerate([{"type": "Add", "points": 3}, {"type": "Undo"}]):
        for envelope in await adjudicator.submit(GAME, "ann", command, f"u{number}"):
            await clock._fold(envelope)
    envelopes = await store.read(STREAM)
    assert envelopes[-1].type == "CommandsUndone"
    game = clock.tracker.clocks[GAME]
    assert game.record.last_seq == envelopes[-1].seq
    assert game.record.state == replay(GAME, envelopes, get_game).state          # the Add is taken back
    assert game.owed["ann"].since_seq == envelopes[-1].seq                     # the undo was her move
    assert await clock.tick() == 1                                            # still timed: her default
    assert (await store.read(STREAM))[-1].meta["played_by"] == "clock"


async def test_the_lobbys_clock_views_fold_an_undo_and_a_pause_from_the_feed_and_the_store():
    tally.register()
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game(GAME, "tally", ["ann", "bob"], {"rated": False, "decision_seconds": 60})
    views = ClockViews(store)
    assert (await views.state(GAME))["seats"]["ann"]["due_at"] is not None
    for number, command in enumerate([{"type": "Add", "points": 3}, {"type": "Undo"}, {"type": "ProposePause"}]):
        for envelope in await adjudicator.submit(GAME, "ann", command, f"v{number}"):
            views.seen(envelope)                  # the live feed; the undo cannot be folded on alone
    assert views.cached(GAME) is None             # behind the feed: a list would read the store
    clock = await views.state(GAME, fresh=False)
    assert clock["seq"] == (await store.read(STREAM))[-1].seq and clock["awaiting"] == ["bob"]
    for envelope in await adjudicator.submit(GAME, "bob", {"type": "AgreePause"}, "v-agree"):
        assert views.seen(envelope)               # folded from the feed alone
    assert views.cached(GAME)["paused"] is True and views.cached(GAME)["seats"]["ann"]["due_at"] is None
    assert await views.state(GAME, options={"decision_seconds": 0}) is None    # untimed: nothing read
