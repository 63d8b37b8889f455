"""The event-store contract: every adapter must pass every test here.

`replica()` gives another instance on the same data, as another process would have (for the in-memory
store, which lives in one process, the same instance). The JetStream stream here has a duplicate window
of a tenth of a second, so tests that wait past it show that JetStream's own de-duplication plays no part.
"""
from __future__ import annotations

import asyncio
import dataclasses

import pytest

from starbase_core.envelope import GENESIS_HASH, InvalidName, NewEvent, chain_problems
from starbase_core.store import EmptyAppend, WrongExpectedSeq
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.store_memory import MemoryEventStore

TINY_WINDOW = 0.1


@pytest.fixture(params=["memory", pytest.param("jetstream", marks=pytest.mark.integration)])
async def stores(request):
    """The store under test and a factory of replicas of it."""
    if request.param == "memory":
        memory = MemoryEventStore()

        async def same() -> MemoryEventStore:
            return memory
        yield memory, same
        return
    nats_url, namespace = request.getfixturevalue("nats_url"), request.getfixturevalue("namespace")
    options = dict(name=f"C_{namespace}", subject_prefix=f"c{namespace}", duplicate_window=TINY_WINDOW)
    first = await JetStreamEventStore.connect(nats_url, **options)
    opened = [first]

    async def replica() -> JetStreamEventStore:
        opened.append(await JetStreamEventStore.connect(nats_url, ensure=False, **options))
        return opened[-1]
    yield first, replica
    await first._js.delete_stream(first.name)
    for store in opened:
        await store.close()


@pytest.fixture
def store(stores):
    return stores[0]


@pytest.fixture
def replica(stores):
    return stores[1]


def events(*names: str, actor: str | None = "ann") -> list[NewEvent]:
    return [NewEvent(type=name, data={"name": name}, actor=actor) for name in names]


async def test_first_append_starts_at_seq_one_and_chains_from_genesis(store):
    stored = await store.append("game.g1", events("A", "B"), expected_seq=0, command_id="c1")
    assert [e.seq for e in stored] == [1, 2]
    assert stored[0].prev_hash == GENESIS_HASH
    assert stored[1].prev_hash == stored[0].hash
    assert [e.command_id for e in stored] == ["c1", "c1"]
    assert await store.read("game.g1") == stored
    assert await store.last_seq("game.g1") == 2


async def test_an_unknown_stream_is_empty(store):
    assert await store.read("game.nothing") == []
    assert await store.last_seq("game.nothing") == 0


async def test_appends_continue_the_chain(store):
    await store.append("game.g1", events("A"), expected_seq=0)
    await store.append("game.g1", events("B", "C"), expected_seq=1)
    stored = await store.read("game.g1")
    assert [e.type for e in stored] == ["A", "B", "C"]
    assert chain_problems(stored, stream="game.g1") == []


async def test_read_from_a_seq_skips_the_earlier_envelopes(store):
    await store.append("game.g1", events("A", "B"), expected_seq=0)
    await store.append("game.g1", events("C"), expected_seq=2)
    assert [e.type for e in await store.read("game.g1", from_seq=2)] == ["B", "C"]


async def test_a_stale_expected_seq_is_refused_with_the_actual_seq_and_stores_nothing(store):
    await store.append("game.g1", events("A", "B"), expected_seq=0)
    with pytest.raises(WrongExpectedSeq) as refused:
        await store.append("game.g1", events("C"), expected_seq=1)
    assert refused.value.actual == 2
    assert [e.type for e in await store.read("game.g1")] == ["A", "B"]


async def test_an_expected_seq_beyond_the_end_is_refused(store):
    with pytest.raises(WrongExpectedSeq) as refused:
        await store.append("game.g1", events("A"), expected_seq=3)
    assert refused.value.actual == 0
    assert await store.read("game.g1") == []


async def test_streams_have_their_own_sequences(store):
    await store.append("game.g1", events("A"), expected_seq=0)
    other = await store.append("table.t1", events("X"), expected_seq=0)
    assert other[0].seq == 1 and other[0].stream == "table.t1"
    assert await store.last_seq("game.g1") == 1


async def test_a_retried_command_id_returns_the_first_envelopes_and_appends_nothing(store):
    first = await store.append("game.g1", events("A", "B"), expected_seq=0, command_id="cmd-1")
    await store.append("game.g1", events("C"), expected_seq=2, command_id="cmd-2")
    again = await store.append("game.g1", events("Other"), expected_seq=3, command_id="cmd-1")
    assert again == first
    assert [e.type for e in await store.read("game.g1")] == ["A", "B", "C"]


async def test_a_retried_command_id_wins_over_a_stale_expected_seq(store):
    first = await store.append("game.g1", events("A"), expected_seq=0, command_id="cmd-1")
    assert await store.append("game.g1", events("A"), expected_seq=0, command_id="cmd-1") == first
    assert await store.last_seq("game.g1") == 1


async def test_find_command_knows_stored_commands_only(store):
    stored = await store.append("game.g1", events("A"), expected_seq=0, command_id="cmd-1")
    assert await store.find_command("game.g1", "cmd-1") == stored
    assert await store.find_command("game.g1", "cmd-2") is None
    assert await store.find_command("game.g2", "cmd-1") is None


async def test_command_ids_are_scoped_to_their_stream(store):
    await store.append("game.g1", events("A"), expected_seq=0, command_id="same")
    other = await store.append("game.g2", events("B"), expected_seq=0, command_id="same")
    assert other[0].stream == "game.g2" and other[0].type == "B"


async def test_an_empty_append_and_bad_names_are_refused(store):
    with pytest.raises(EmptyAppend):
        await store.append("game.g1", [], expected_seq=0)
    for bad in ("game", "game.a b", "game.*", "game.>", "", "game..x"):
        with pytest.raises(InvalidName):
            await store.append(bad, events("A"), expected_seq=0)
    with pytest.raises(InvalidName):
        await store.append("game.g1", events("A"), expected_seq=0, command_id="has space")
    assert await store.read("game.g1") == []


async def test_many_concurrent_writers_give_a_gap_free_duplicate_free_stream(store):
    writers, appends_each = 8, 5

    async def writer(name: str) -> None:
        for index in range(appends_each):
            while True:  # the optimistic-concurrency loop every service runs
                seq = await store.last_seq("game.busy")
                try:
                    await store.append("game.busy", [NewEvent(type="Wrote", data={"w": name, "i": index})],
                                       expected_seq=seq, command_id=f"{name}-{index}")
                    break
                except WrongExpectedSeq:
                    continue

    await asyncio.gather(*(writer(f"w{n}") for n in range(writers)))
    stored = await store.read("game.busy")
    assert [e.seq for e in stored] == list(range(1, writers * appends_each + 1))
    written = sorted((e.data["w"], e.data["i"]) for e in stored)
    assert written == sorted((f"w{n}", i) for n in range(writers) for i in range(appends_each))
    assert chain_problems(stored, stream="game.busy") == []


async def test_concurrent_attempts_of_one_command_store_it_once_and_all_get_it(store):
    await store.append("game.g1", events("A"), expected_seq=0)
    results = await asyncio.gather(*(
        store.append("game.g1", events("Once"), expected_seq=1, command_id="dup") for _ in range(6)
    ))
    stored = await store.read("game.g1")
    assert [e.type for e in stored] == ["A", "Once"]
    assert all(result == stored[1:] for result in results)
    assert await store.find_command("game.g1", "dup") == stored[1:]


async def _take(iterator, count: int) -> list:
    taken = []
    async for item in iterator:
        taken.append(item)
        if len(taken) == count:
            break
    return taken


async def test_follow_yields_matching_streams_in_append_order_and_resumes_after_a_position(store):
    await store.append("game.g1", events("A", "B"), expected_seq=0)
    await store.append("table.t1", events("T"), expected_seq=0)
    await store.append("game.g2", events("C"), expected_seq=0)
    seen = await asyncio.wait_for(_take(store.follow(0, "game.>"), 3), 10)
    assert [(e.stream, e.type) for _, e in seen] == [("game.g1", "A"), ("game.g1", "B"), ("game.g2", "C")]
    positions = [p for p, _ in seen]
    assert positions == sorted(set(positions))
    resumed = await asyncio.wait_for(_take(store.follow(positions[0], "game.>"), 2), 10)
    assert [e.type for _, e in resumed] == ["B", "C"]
    tables = await asyncio.wait_for(_take(store.follow(0, "table.*"), 1), 10)
    assert [e.type for _, e in tables] == ["T"]


async def test_follow_waits_for_events_appended_later(store):
    follower = asyncio.ensure_future(asyncio.wait_for(_take(store.follow(0, "game.*"), 2), 10))
    await asyncio.sleep(0.05)  # let the follower subscribe first (it must also see later events)
    await store.append("game.g1", events("A"), expected_seq=0)
    await store.append("game.g1", events("B"), expected_seq=1)
    assert [e.type for _, e in await follower] == ["A", "B"]


async def test_reading_past_the_end_gives_only_what_came_later(store):
    await store.append("game.g1", events("A", "B"), expected_seq=0)
    assert await store.read("game.g1", from_seq=3) == []
    await store.append("game.g1", events("C"), expected_seq=2)
    await store.append("game.g1", events("D", "E"), expected_seq=3)
    assert [e.type for e in await store.read("game.g1", from_seq=3)] == ["C", "D", "E"]
    assert [e.type for e in await store.read("game.g1", from_seq=5)] == ["E"]
    assert [e.type for e in await store.read("game.g1", from_seq=1)] == ["A", "B", "C", "D", "E"]


async def test_end_position_is_zero_for_an_empty_store(store):
    assert await store.end_position() == 0


async def test_end_position_is_the_position_of_the_last_envelope_of_any_stream(store):
    await store.append("game.g1", events("A", "B"), expected_seq=0)
    await store.append("table.t1", events("T1", "T2", "T3"), expected_seq=0)
    seen = await asyncio.wait_for(_take(store.follow(0, ">"), 5), 10)
    assert [e.type for _, e in seen] == ["A", "B", "T1", "T2", "T3"]
    assert await store.end_position() == seen[-1][0]


async def test_following_from_the_end_position_gives_only_what_is_appended_later(store):
    await store.append("game.g1", events("Old1", "Old2"), expected_seq=0)
    end = await store.end_position()
    await store.append("game.g1", events("New"), expected_seq=2)
    await store.append("game.g2", events("Newer"), expected_seq=0)
    later = await asyncio.wait_for(_take(store.follow(end, "game.>"), 2), 10)
    assert [e.type for _, e in later] == ["New", "Newer"]
    assert all(position > end for position, _ in later)
    assert await store.end_position() == later[-1][0]


async def test_a_replica_reads_any_part_of_a_long_stream_interleaved_with_others(store, replica):
    """From a fresh replica and from one whose reading stopped long ago: from an append's first event,
    from inside an append, from the last one, past the end; and its appends and retries stay right."""
    stale = None
    for round_ in range(40):
        for other in ("game.o1", "game.o2"):
            await store.append(other, events("X"), expected_seq=round_)
        await store.append("game.g1", events(f"A{round_}", f"B{round_}"), expected_seq=2 * round_,
                           command_id=f"c{round_}")
        if round_ == 9:
            stale = await replica()
            assert len(await stale.read("game.g1")) == 20       # it knows seq 20, then reads no more
    whole = await store.read("game.g1")
    assert [e.type for e in whole[-2:]] == ["A39", "B39"] and len(whole) == 80
    for reader in (await replica(), stale):
        for from_seq in (80, 79, 77, 60, 22, 21, 81, 500, 2, 1):
            assert await reader.read("game.g1", from_seq) == whole[from_seq - 1:], from_seq
        # What it read near the end taught it no command ids it has not read: old retries find theirs.
        assert await reader.append("game.g1", events("A3", "B3"), expected_seq=6, command_id="c3") == whole[6:8]
        assert await reader.append("game.g1", events("A30", "B30"), expected_seq=80, command_id="c30") \
            == whole[60:62]
    added = await stale.append("game.g1", events("Next"), expected_seq=80, command_id="next")
    assert added[0].seq == 81 and added[0].prev_hash == whole[-1].hash
    assert await store.read("game.g1", 81) == added


# ---- command ids across replicas, crashes and time ----------------------------------------------

async def test_a_replica_that_has_not_seen_the_latest_appends_answers_their_retries(store, replica):
    other = await replica()
    await store.append("game.g1", events("A"), expected_seq=0, command_id="c1")
    assert [e.type for e in await other.read("game.g1")] == ["A"]        # the replica knows seq 1
    latest = await store.append("game.g1", events("B"), expected_seq=1, command_id="c2")
    # The retry reaches the replica, expecting what the replica saw, or what the client saw.
    assert await other.append("game.g1", events("B"), expected_seq=1, command_id="c2") == latest
    assert await other.append("game.g1", events("B"), expected_seq=2, command_id="c2") == latest
    assert await other.find_command("game.g1", "c2") == latest
    with pytest.raises(WrongExpectedSeq) as refused:     # and a new command there is told the true end
        await other.append("game.g1", events("C"), expected_seq=1, command_id="c3")
    assert refused.value.actual == 2
    assert [e.type for e in await store.read("game.g1")] == ["A", "B"]


async def test_a_retry_long_after_the_first_attempt_on_a_fresh_replica_appends_nothing(store, replica):
    first = await store.append("game.g1", events("A"), expected_seq=0, command_id="c1")
    await store.append("game.g1", events("B"), expected_seq=1, command_id="c2")
    await asyncio.sleep(TINY_WINDOW * 3)                 # past JetStream's duplicate window
    later = await replica()
    assert await later.append("game.g1", events("A"), expected_seq=0, command_id="c1") == first
    assert await later.append("game.g1", events("A"), expected_seq=2, command_id="c1") == first
    assert [e.type for e in await later.read("game.g1")] == ["A", "B"]


async def test_a_crash_between_the_append_and_the_reply_leaves_the_retry_its_first_answer(store, replica):
    await store.append("game.g1", events("A"), expected_seq=0, command_id="c0")
    stored = await store.append("game.g1", events("Move"), expected_seq=1, command_id="move")
    # The appender dies before replying; the client resends to another replica, maybe much later.
    await asyncio.sleep(TINY_WINDOW * 3)
    survivor = await replica()
    assert await survivor.find_command("game.g1", "move") == stored
    assert await survivor.append("game.g1", events("Move"), expected_seq=1, command_id="move") == stored
    assert [e.type for e in await survivor.read("game.g1")] == ["A", "Move"]


async def test_two_replicas_racing_one_command_id_store_it_once_and_both_answer_with_it(store, replica):
    others = [await replica() for _ in range(2)]
    for round_ in range(5):
        stream = f"game.race{round_}"
        await store.append(stream, events("A"), expected_seq=0)
        for other in others:
            await other.read(stream)                     # every replica knows seq 1 and nothing of the id
        results = await asyncio.gather(*(
            writer.append(stream, events("Once"), expected_seq=1, command_id="same")
            for writer in (store, *others, store)))
        stored = await store.read(stream)
        assert [e.type for e in stored] == ["A", "Once"]
        assert all(result == stored[1:] for result in results)


async def test_a_checkpoint_lets_a_fresh_replica_skip_what_it_covers(store, replica):
    first = await store.append("game.g1", events("A", "B"), expected_seq=0, command_id="c1")
    await store.append("game.g1", events("C"), expected_seq=2, command_id="c2")
    checkpoint = store.checkpoint("game.g1")
    assert (checkpoint.seq, checkpoint.hash) == (3, (await store.read("game.g1"))[-1].hash)
    await store.append("game.g1", events("D"), expected_seq=3, command_id="c3")

    fresh = await replica()
    assert await fresh.adopt(checkpoint)
    assert [e.type for e in await fresh.read("game.g1", from_seq=4)] == ["D"]
    assert await fresh.append("game.g1", events("A"), expected_seq=0, command_id="c1") == first
    assert await fresh.find_command("game.g1", "c1", catch_up=False) == first
    added = await fresh.append("game.g1", events("E"), expected_seq=4, command_id="c4")
    assert added[0].seq == 5 and added[0].prev_hash == (await store.read("game.g1"))[3].hash


async def test_a_checkpoint_that_does_not_match_the_stream_is_not_adopted(store, replica):
    await store.append("game.g1", events("A"), expected_seq=0, command_id="c1")
    await store.append("game.g2", events("X"), expected_seq=0, command_id="c1")
    good = store.checkpoint("game.g1")
    fresh = await replica()
    for forged in (dataclasses.replace(good, hash="f" * 64), dataclasses.replace(good, seq=2),
                   dataclasses.replace(good, stream="game.g2"), dataclasses.replace(good, position=10**9)):
        assert not await fresh.adopt(forged)
    assert await fresh.adopt(good)


async def test_find_command_without_catching_up_answers_from_what_was_read(store, replica):
    stored = await store.append("game.g1", events("A"), expected_seq=0, command_id="c1")
    fresh = await replica()
    assert await fresh.find_command("game.g1", "c1", catch_up=False) in (None, stored)   # may not know
    assert await fresh.find_command("game.g1", "c1") == stored                          # asks the stream
    assert await fresh.find_command("game.g1", "c1", catch_up=False) == stored          # now it knows
    assert await fresh.find_command("game.g1", "nope", catch_up=False) is None
