"""A refusal means "not applied, ever": two attempts of one command id in flight at once (a client
resending after a timeout, the lobby's gRPC retry after DEADLINE_EXCEEDED) never get one the events and
the other a refusal. Each attempt that is refused checks, after the game's lock and on the store, that
its command id did not land meanwhile; if it did, it answers with the stored envelopes."""
from __future__ import annotations

import asyncio

import pytest

from adjudicator.service import MAX_ATTEMPTS, Adjudicator
from starbase_core.seeds import MemorySeedVault
from starbase_core.store import WrongExpectedSeq
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import RuleViolation
from tests.adjudicator.test_replicas import replicas  # noqa: F401  (fixture: two replicas on JetStream)

PLAYERS = ["ann", "bob", "cyd"]
TRIES = 12


async def outcome(replica, game_id, actor, command, command_id, **options):
    try:
        return await replica.submit(game_id, actor, command, command_id, **options)
    except RuleViolation as refusal:
        return refusal.code


def assert_same_answer(answers, stored):
    """Every attempt got the envelopes the store holds for the command id: never a refusal."""
    assert [a for a in answers if isinstance(a, str)] == [], f"a refusal beside an applied command: {answers}"
    assert all(answer == stored for answer in answers)


class Yielding:
    """The in-memory store, but every call lets other tasks run first, as a real store's round trip does
    (the memory store never suspends, so without this one attempt would run whole before the other)."""

    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        method = getattr(self._store, name)

        async def after_a_pause(*args, **kwargs):
            await asyncio.sleep(0)
            return await method(*args, **kwargs)
        return after_a_pause


async def test_two_attempts_of_one_command_on_one_replica_both_get_its_events():
    store = MemoryEventStore()
    adjudicator = Adjudicator(Yielding(store), MemorySeedVault())
    for attempt in range(TRIES):
        game_id = f"g{attempt}"
        await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
        # Stand ends ann's turn, so an attempt decided after the first one lands is NOT_YOUR_TURN.
        answers = await asyncio.gather(*(outcome(adjudicator, game_id, "ann", {"type": "Stand"}, "twice")
                                         for _ in range(2)))
        assert_same_answer(answers, await store.find_command(f"game.{game_id}", "twice"))


@pytest.mark.integration
async def test_two_replicas_given_one_command_id_at_once_both_answer_with_its_events(replicas, new_name):  # noqa: F811
    first, second = replicas
    for _ in range(TRIES):
        game_id = new_name("g")
        await first.create_game(game_id, "testjack", PLAYERS, {})
        # The same move resent twice to one replica and once to the other, which may not have the game
        # in its cache yet (it then reads the stream, maybe after the first attempt landed).
        answers = await asyncio.gather(*(outcome(replica, game_id, "ann", {"type": "Stand"}, "resent")
                                         for replica in (first, second, first)))
        assert_same_answer(answers, await first.store.find_command(f"game.{game_id}", "resent"))


@pytest.mark.integration
async def test_a_resend_with_the_old_position_gets_the_events_not_stale_position(replicas, new_name):  # noqa: F811
    first, second = replicas
    for _ in range(TRIES):
        game_id = new_name("g")
        created = await first.create_game(game_id, "testjack", PLAYERS, {})
        position = created[-1].seq
        answers = await asyncio.gather(*(
            outcome(replica, game_id, "ann", {"type": "Draw"}, "at-position", expected_seq=position)
            for replica in (first, second, first)))
        assert_same_answer(answers, await first.store.find_command(f"game.{game_id}", "at-position"))


class AlwaysRaced:
    """The real store, but every append loses a race; and, once, the command lands "from elsewhere"
    (another replica) just before the adjudicator gives up with TOO_BUSY."""

    def __init__(self, store, vault, game_id, actor, command, lands_at: int | None):
        self._store, self.vault, self.game_id, self.actor, self.command = store, vault, game_id, actor, command
        self.lands_at, self.races = lands_at, 0

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, stream, events, *, expected_seq, command_id=None):
        self.races += 1
        if self.races == self.lands_at:     # another replica was first
            other = Adjudicator(self._store, self.vault)
            await other.submit(self.game_id, self.actor, self.command, command_id)
        raise WrongExpectedSeq(expected_seq + 1, expected_seq, stream)


async def test_too_busy_is_not_answered_for_a_command_that_landed():
    store, vault = MemoryEventStore(), MemorySeedVault()
    await Adjudicator(store, vault).create_game("g1", "testjack", PLAYERS, {})
    raced = AlwaysRaced(store, vault, "g1", "ann", {"type": "Draw"}, lands_at=MAX_ATTEMPTS)
    answer = await outcome(Adjudicator(raced, vault), "g1", "ann", {"type": "Draw"}, "busy")
    assert answer == await store.find_command("game.g1", "busy")
    assert raced.races == MAX_ATTEMPTS


async def test_too_busy_when_the_command_never_landed_appends_nothing():
    store, vault = MemoryEventStore(), MemorySeedVault()
    await Adjudicator(store, vault).create_game("g1", "testjack", PLAYERS, {})
    before = await store.read("game.g1")
    raced = AlwaysRaced(store, vault, "g1", "ann", {"type": "Draw"}, lands_at=None)
    answer = await outcome(Adjudicator(raced, vault), "g1", "ann", {"type": "Draw"}, "busy")
    assert answer == "TOO_BUSY" and await store.read("game.g1") == before


class LandsElsewhereFirst:
    """The real store, but while this replica decides, another one stores a command and then an earlier
    attempt of this very command (the pre-check of the command id ran before it landed)."""

    def __init__(self, store, other: Adjudicator):
        self._store, self.other, self.armed = store, other, True

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, stream, events, *, expected_seq, command_id=None):
        if self.armed:
            self.armed = False
            await self.other.submit("g1", "ann", {"type": "Think"}, "someone-else")
            await self.other.submit("g1", "ann", {"type": "Think"}, command_id)
        return await self._store.append(stream, events, expected_seq=expected_seq, command_id=command_id)


async def test_an_earlier_attempt_that_landed_after_another_command_is_the_answer_and_the_cache_follows():
    store, vault = MemoryEventStore(), MemorySeedVault()
    other = Adjudicator(store, vault)
    await other.create_game("g1", "testjack", PLAYERS, {})
    racing = LandsElsewhereFirst(store, other)
    adjudicator = Adjudicator(racing, vault)
    await adjudicator.view("g1", None)                       # the game is in this replica's cache

    answer = await adjudicator.submit("g1", "ann", {"type": "Think"}, "thought")

    assert answer == await store.find_command("game.g1", "thought")
    assert [e.seq for e in answer] == [await store.last_seq("game.g1")]
    # The cache did not skip "someone-else": the next command is decided on the stream's true end.
    stood = await adjudicator.submit("g1", "ann", {"type": "Stand"}, "then")
    assert stood[0].seq == answer[-1].seq + 1
    assert (await adjudicator.record("g1")).last_seq == await store.last_seq("game.g1")
