"""The event-store contract: every adapter must pass every test here."""
from __future__ import annotations

import asyncio

import pytest

from starbase_core.envelope import GENESIS_HASH, InvalidName, NewEvent, chain_problems
from starbase_core.store import EmptyAppend, WrongExpectedSeq
from starbase_core.store_memory import MemoryEventStore


@pytest.fixture(params=["memory", pytest.param("jetstream", marks=pytest.mark.integration)])
def store(request):
    if request.param == "memory":
        return MemoryEventStore()
    return request.getfixturevalue("jetstream_store")


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
