"""The relay stores a move's events as its commit script answered them (no read of the outbox), marks
them durable on its next script call, and still never stores an event of a load it knows is gone."""
from __future__ import annotations

import asyncio

import pytest

from starbase_core.gamestream import game_stream
from starbase_core.seeds import MemorySeedVault

from trucker.relay import NotDurable, Relay
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse

from tests.trucker_service.helpers import check_invariants, move, new_game

pytestmark = pytest.mark.integration


@pytest.fixture
def counted(redis, jetstream_store):
    """A service whose relay counts its reads of the outbox."""
    warehouse = RedisWarehouse(redis)
    service = TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store), MemorySeedVault())
    reads = []
    real = warehouse.relay_view

    async def relay_view(game, limit, mark=None):
        reads.append(game)
        return await real(game, limit, mark)
    warehouse.relay_view = relay_view
    return service, reads


async def test_a_replicas_own_moves_are_stored_without_reading_the_outbox_and_leave_it(counted, jetstream_store):
    service, reads = counted
    game = await new_game(jetstream_store, ["ann", "bob", "cy"], vault=service.vault)
    await service.open_table(game)
    reads.clear()
    played = []
    for player in ["ann", "bob", "cy"] * 3:
        played.append(await service.play(game, player, move("grab_face_down"), None))
        played.append(await service.play(game, player, move("return_tile"), None))
    assert reads == []                          # one script call and one append per move
    stored = await jetstream_store.read(game_stream(game))
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    ours = [e for e in stored if e.seq >= played[0].first_seq]
    assert [(e.seq, e.type, e.actor) for e in ours] == \
        [(a.first_seq, a.events[0]["type"], a.events[0].get("actor")) for a in played]
    # Each commit marked what the relay had stored before it: only the last move waits in the outbox.
    outbox = await service.warehouse.redis.hkeys(f"trucker:{{{game}}}:outbox")
    assert sorted(map(int, outbox)) == list(range(played[-1].first_seq, played[-1].last_seq + 1))
    await service.relay.flush(game)
    assert await service.warehouse.redis.hlen(f"trucker:{{{game}}}:outbox") == 0
    await check_invariants(service, game)


async def test_moves_arriving_together_share_appends_and_land_in_seq_order(counted, jetstream_store):
    service, _ = counted
    players = ["ann", "bob", "cy", "dee"]
    game = await new_game(jetstream_store, players, vault=service.vault)
    await service.open_table(game)
    before = service.relay.appends
    played = await asyncio.gather(*(service.play(game, p, move("grab_face_down"), None) for p in players))
    assert service.relay.appends - before <= len(players)
    stored = await jetstream_store.read(game_stream(game), from_seq=min(a.first_seq for a in played))
    assert sorted((e.seq, e.actor) for e in stored) == sorted((a.first_seq, a.events[0].get("actor")) for a in played)
    await check_invariants(service, game)


async def test_an_offered_event_of_a_load_the_relay_saw_replaced_is_never_stored(counted, jetstream_store):
    service, reads = counted
    game = await new_game(jetstream_store, ["ann", "bob"], vault=service.vault)
    await service.open_table(game)
    await service.play(game, "bob", move("grab_face_down"), None)      # the relay knows this load
    lost = await service.apply(game, "ann", move("grab_face_down"), None)   # offered, not stored
    await service.warehouse.drop(game)                                      # Redis loses the load
    replacement = await service.play(game, "bob", move("return_tile"), None)
    assert replacement.first_seq == lost.first_seq and reads      # the new load was read, not assumed
    with pytest.raises(NotDurable):
        await service.relay.wait_durable(game, lost.last_seq, lost.events[-1]["epoch"])
    stored = await jetstream_store.read(game_stream(game), from_seq=lost.first_seq)
    assert [(e.type, e.actor) for e in stored] == [("ComponentReturned", "bob")]
    await check_invariants(service, game)
