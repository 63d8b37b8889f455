"""Concurrent requests on one table: the event store's expected-seq append decides, nothing doubles."""
import asyncio

import pytest

pytestmark = pytest.mark.integration


async def test_five_players_racing_for_one_free_seat_seat_exactly_one(stack, register):
    host = await register("host")
    table = await host.ok(host.post("/tables", {"game": "testjack", "seats": 2}))
    racers = [await register(f"racer{i}") for i in range(5)]

    replies = await asyncio.gather(*(r.post(f"/tables/{table['table_id']}/join") for r in racers))

    assert sorted(reply.status_code for reply in replies) == [200, 409, 409, 409, 409]
    assert {reply.json()["error"]["code"] for reply in replies if reply.status_code == 409} == {"TABLE_FULL"}
    stored = await stack.store.read(f"table.{table['table_id']}")
    assert [e.type for e in stored] == ["TableCreated", "PlayerSeated", "PlayerSeated"]
    assert [e.seq for e in stored] == [1, 2, 3]


async def test_two_simultaneous_starts_create_one_game(stack, register):
    ann, bob = await register("ann"), await register("bob")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    table_id = table["table_id"]
    await bob.ok(bob.post(f"/tables/{table_id}/join"))
    for player in (ann, bob):
        await player.ok(player.post(f"/tables/{table_id}/ready"))

    replies = await asyncio.gather(ann.post(f"/tables/{table_id}/start"), bob.post(f"/tables/{table_id}/start"))

    assert [reply.status_code for reply in replies] == [200, 200]
    assert {reply.json()["game_id"] for reply in replies} == {table_id}
    table_events = [e.type for e in await stack.store.read(f"table.{table_id}")]
    game_events = [e.type for e in await stack.store.read(f"game.{table_id}")]
    assert table_events.count("GameStarted") == 1 and game_events.count("GameCreated") == 1


async def test_a_table_with_options_its_engine_refuses_is_refused_when_opened(stack, register):
    ann = await register("ann")
    refused = await ann.post("/tables", {"game": "testjack", "seats": 1, "options": {"refuse": True}})
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "BAD_OPTION")
    assert stack.runtime.projection.open_tables_of(ann.player_id) == 0


async def test_a_game_the_adjudicator_refuses_to_create_reopens_the_table(stack, register):
    # Given a table opened before options were checked at creation (written straight to its stream)
    ann = await register("ann")
    identity = await stack.runtime.identity_of(ann.player_id)
    created = await stack.runtime.tables.create(identity, "testjack", {"refuse": True}, 1, False)
    table = {"table_id": created.table_id}
    await ann.ok(ann.post(f"/tables/{table['table_id']}/ready"))

    refused = await ann.post(f"/tables/{table['table_id']}/start")

    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "BAD_OPTIONS")
    reopened = await ann.ok(ann.get(f"/tables/{table['table_id']}"))
    assert reopened["status"] == "open" and reopened["game_id"] is None
    assert await stack.store.last_seq(f"game.{table['table_id']}") == 0
