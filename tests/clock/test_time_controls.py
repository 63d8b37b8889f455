"""Time controls as rules: the option checks of a new table, the tolerant reading of stored options, and
the Fischer bank folded from a stream (real adjudicator, in-memory store; the envelopes' server times are
set by the test, so nothing here waits)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.service import Adjudicator
from clock.tracker import Tracker
from starbase_core.gamestream import engine_options
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_core.timecontrol import MAX_SECONDS, TimeControl, problems

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)
GAME = "g1"


@pytest.mark.parametrize("options, words", [
    ({"bank_seconds": 1e300}, "bank_seconds is 0 (off) or 10 to"),
    ({"bank_seconds": float("inf")}, "bank_seconds"), ({"bank_seconds": float("nan")}, "bank_seconds"),
    ({"bank_seconds": 5}, "bank_seconds"), ({"bank_seconds": -10}, "bank_seconds"),
    ({"bank_seconds": "600"}, "bank_seconds"), ({"bank_seconds": True}, "bank_seconds"),
    ({"bank_seconds": 600, "increment_seconds": 86401}, "increment_seconds is 0 (off) or 1 to 86400"),
    ({"increment_seconds": 10}, "increment_seconds is added to a time bank"),
    ({"days_per_move": 1.5}, "whole days"), ({"days_per_move": 31}, "days_per_move"),
    ({"days_per_move": 2, "decision_seconds": 60}, "not both"),
    ({"decision_seconds": 1e300}, "decision_seconds"), ({"decision_seconds": 4}, "decision_seconds"),
    ({"timeout_policy": "whatever"}, "timeout_policy is one of default_move, bot, lose, not 'whatever'"),
    ({"timeout_policy": "Lose"}, "timeout_policy is one of"), ({"timeout_policy": None}, "timeout_policy"),
    ({"timeout_policy": ["default_move"]}, "timeout_policy is one of"),
    ({"bank_seconds": "x" * 10_000}, "..."), ({"bank_seconds": 10**400}, "bank_seconds"),
    ({"decision_seconds": 10**400}, "decision_seconds"),
])
def test_bad_time_controls_are_refused_with_a_message_that_says_why(options, words):
    found = problems(options)
    assert found and words in "; ".join(found)
    assert all(len(problem) < 200 for problem in found)     # no echo of a huge value


@pytest.mark.parametrize("options", [
    {}, {"decision_seconds": 0}, {"decision_seconds": 5}, {"days_per_move": 30}, {"days_per_move": 1},
    {"bank_seconds": MAX_SECONDS, "increment_seconds": 86400}, {"bank_seconds": 10, "decision_seconds": 60},
    {"bank_seconds": 600, "increment_seconds": 0, "timeout_policy": "default_move"},
    {"bank_seconds": 600, "timeout_policy": "bot"}, {"decision_seconds": 60, "timeout_policy": "lose"},
])
def test_good_time_controls_pass_and_engines_never_see_them(options):
    assert problems(options) == []
    assert engine_options({**options, "refuse": False}) == {"refuse": False}


def test_stored_options_are_read_without_failing_and_clamped():
    assert TimeControl.of({"bank_seconds": 1e300, "increment_seconds": 10**400}).bank == MAX_SECONDS
    assert TimeControl.of({"bank_seconds": 1e300, "increment_seconds": 10**400}).increment == MAX_SECONDS
    assert TimeControl.of({"bank_seconds": "nope"}) is None and TimeControl.of({"bank_seconds": -1}) is None
    assert TimeControl.of({"days_per_move": 2}).limit == 2 * 86400
    assert TimeControl.of({"days_per_move": 2, "decision_seconds": 60}).limit == 60   # the shorter
    assert TimeControl.of({"increment_seconds": 30}) is None          # an increment alone times nothing
    assert TimeControl.of({"timeout_policy": "lose", "bank_seconds": 60}).policy == "lose"
    assert TimeControl.of({"timeout_policy": "later", "bank_seconds": 60}).policy == "default_move"
    # The service default applies only to tables that set no limit and no bank; 0 switches it off.
    assert TimeControl.of({}, 120).limit == 120 and TimeControl.of({"decision_seconds": 0}, 120) is None
    assert TimeControl.of({"bank_seconds": 600}, 120).limit is None
    huge = TimeControl.of({"bank_seconds": 1e300})
    assert huge.due_at(T0, huge.bank) == T0 + timedelta(seconds=MAX_SECONDS)   # no overflow


async def played(options: dict, moves: list[tuple[str, str, float]]) -> list:
    """A testjack game for ann and bob with `moves` (player, command, seconds after setup), its stream
    retimed: setup at T0, each move at its time."""
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game(GAME, "testjack", ["ann", "bob"], options)
    times = {None: T0}
    for number, (player, command, at) in enumerate(moves):
        await adjudicator.submit(GAME, player, {"type": command}, f"m{number}")
        times[f"m{number}"] = T0 + timedelta(seconds=at)
    stamp = lambda moment: moment.isoformat().replace("+00:00", "Z")     # noqa: E731
    return [e.model_copy(update={"time": stamp(times[e.command_id if e.command_id in times else None])})
            for e in await store.read(f"game.{GAME}")]


def fold(envelopes, default_seconds: float = 0.0) -> Tracker:
    tracker = Tracker(default_seconds)
    for envelope in envelopes:
        tracker.observe(envelope)
    return tracker


async def test_the_bank_runs_down_across_decisions_and_the_increment_is_added_after_each():
    options = {"bank_seconds": 100, "increment_seconds": 10}
    setup_only = fold(await played(options, []))
    game = setup_only.clocks[GAME]
    assert game.banks == {"ann": 100, "bob": 100}
    assert game.due_at(game.owed["ann"]) == T0 + timedelta(seconds=100)

    # ann draws after 30 s (first draw never busts): 100 - 30 + 10; her next decision is due 80 s later.
    after_draw = fold(await played(options, [("ann", "Draw", 30)])).clocks[GAME]
    assert after_draw.banks == {"ann": 80, "bob": 100}
    assert after_draw.due_at(after_draw.owed["ann"]) == T0 + timedelta(seconds=30 + 80)

    # ann stands 50 s later: 80 - 50 + 10 = 40; bob owes now, with his whole bank.
    after_stand = fold(await played(options, [("ann", "Draw", 30), ("ann", "Stand", 80)])).clocks[GAME]
    assert after_stand.banks == {"ann": 40, "bob": 100}
    assert list(after_stand.owed) == ["bob"]
    assert after_stand.due_at(after_stand.owed["bob"]) == T0 + timedelta(seconds=80 + 100)
    state = after_stand.clock_state(T0 + timedelta(seconds=90))
    assert state["seats"]["bob"] == {"bank_seconds": 90.0, "owes_since": (T0 + timedelta(seconds=80)).isoformat(),
                                     "due_at": (T0 + timedelta(seconds=180)).isoformat()}
    assert state["seats"]["ann"] == {"bank_seconds": 40.0, "owes_since": None, "due_at": None}


async def test_an_overdrawn_bank_is_empty_and_then_holds_only_the_increment():
    options = {"bank_seconds": 100, "increment_seconds": 10}
    late = fold(await played(options, [("ann", "Draw", 250)])).clocks[GAME]
    assert late.banks["ann"] == 10
    assert late.due_at(late.owed["ann"]) == T0 + timedelta(seconds=260)


async def test_a_per_decision_limit_shorter_than_the_bank_comes_first_and_the_bank_pays_what_was_used():
    options = {"bank_seconds": 600, "increment_seconds": 5, "decision_seconds": 60}
    game = fold(await played(options, [("ann", "Draw", 20)])).clocks[GAME]
    assert game.banks["ann"] == 585
    assert game.due_at(game.owed["ann"]) == T0 + timedelta(seconds=20 + 60)


async def test_the_clock_tracker_makes_the_default_due_when_the_bank_runs_out():
    options = {"bank_seconds": 100, "increment_seconds": 10}
    tracker = fold(await played(options, [("ann", "Draw", 30)]))
    assert tracker.due(T0 + timedelta(seconds=109.999)) == []
    [due] = tracker.due(T0 + timedelta(seconds=110))
    assert (due.player, due.command) == ("ann", {"type": "Stand", "v": 1})


async def test_correspondence_days_per_move():
    game = fold(await played({"days_per_move": 3}, [("ann", "Draw", 3600)])).clocks[GAME]
    assert game.banks == {} and game.due_at(game.owed["ann"]) == T0 + timedelta(seconds=3600 + 3 * 86400)
