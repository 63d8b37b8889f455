"""The outbox relay on real JetStream and Redis: idempotent, ordered, and never acknowledging an event
the stream does not hold."""
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
def replicas(redis, jetstream_store):
    """Two service layers (as on two replicas) sharing Redis, the JetStream event store and the seeds."""
    vault = MemorySeedVault()

    def one():
        warehouse = RedisWarehouse(redis)
        return TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store), vault)
    return one(), one()


async def test_two_relays_moving_one_outbox_store_each_event_once_and_in_order(replicas, jetstream_store):
    first, second = replicas
    game = await new_game(jetstream_store, ["ann", "bob", "cy"], vault=first.vault)
    await first.open_table(game)
    applied = []
    for player in ["ann", "bob", "cy"] * 3:   # scripts only: the events wait in the outbox
        applied.append(await first.apply(game, player, move("grab_face_down"), None))
        applied.append(await first.apply(game, player, move("return_tile"), None))
    last = applied[-1]
    await asyncio.gather(first.relay.wait_durable(game, last.last_seq, last.events[-1]["epoch"]),
                         second.relay.wait_durable(game, last.last_seq, last.events[-1]["epoch"]))
    stored = await jetstream_store.read(game_stream(game))
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    ours = [e for e in stored if e.seq >= applied[0].first_seq]
    assert [(e.seq, e.type) for e in ours] == [(a.first_seq, a.events[0]["type"]) for a in applied]
    await check_invariants(first, game)


async def test_a_move_whose_warehouse_was_lost_before_it_was_stored_is_never_acknowledged(replicas, jetstream_store):
    service, _ = replicas
    game = await new_game(jetstream_store, ["ann", "bob"], vault=service.vault)
    await service.open_table(game)
    lost = await service.apply(game, "ann", move("grab_face_down"), None)   # not stored yet
    await service.warehouse.drop(game)                                            # Redis loses it
    replacement = await service.play(game, "bob", move("grab_face_down"), None)  # rebuilt, play goes on
    assert replacement.first_seq == lost.first_seq                               # the same seq, reused
    with pytest.raises(NotDurable):
        await service.relay.wait_durable(game, lost.last_seq, lost.events[-1]["epoch"])
    stored = await jetstream_store.read(game_stream(game), from_seq=lost.first_seq)
    assert [(e.type, e.data["player"]) for e in stored] == [("ComponentGrabbed", "bob")]
    await check_invariants(service, game)


async def test_a_disagreement_noticed_by_several_moves_rebuilds_the_warehouse_once(replicas, jetstream_store):
    """Each move that found the stream disagreeing with the warehouse of its epoch asks for a rebuild;
    the first drops that warehouse and loads another, the later ones leave the replacement (and what
    was applied to it meanwhile) alone."""
    service, _ = replicas
    game = await new_game(jetstream_store, ["ann", "bob"], vault=service.vault)
    await service.open_table(game)
    meta = f"trucker:{{{game}}}:meta"
    disagreeing = await service.warehouse.redis.hget(meta, "epoch")
    await service.rebuild(game, disagreeing)
    replacement = await service.warehouse.redis.hget(meta, "epoch")
    assert replacement != disagreeing and service.rebuilds == 1
    grabbed = await service.play(game, "ann", move("grab_face_down"), None)
    await service.rebuild(game, disagreeing)                  # a later move noticed the same disagreement
    assert await service.warehouse.redis.hget(meta, "epoch") == replacement and service.rebuilds == 1
    assert await service.warehouse.redis.hget(f"trucker:{{{game}}}:hand", "ann") == \
        grabbed.events[0]["data"]["component"]
    await check_invariants(service, game)
