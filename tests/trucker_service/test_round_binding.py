"""A move belongs to one round's building: the one given with it, or else the one of the first fresh view
it was decided on. Whatever retry a race sends it through, it never lands in the next round, and the end
of building never stores anything but an end of building. Real Redis; the in-memory event store.

With this game's seed the flight of round 1 needs nobody (the empty ships give up), so the last Finish
runs on by itself to round 2's building, which the service opens at once: exactly where a late move of
round 1 would find order tile 4 free again."""
from __future__ import annotations

import hashlib

import pytest

from starbase_core.gamestream import game_stream
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from trucker_rules import messages as m

from trucker import ending
from trucker.fanout import Listener
from trucker.relay import Relay
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse, Refused, Stale

from tests.trucker_service.helpers import check_invariants, new_game

pytestmark = pytest.mark.integration
PLAYERS = ["ann", "bob", "cy", "dee"]


async def _round_one_ended_by(service, game: str) -> list:
    """ann, bob and cy finish with tiles 1-3, then dee with tile 4: round 2's building is open."""
    await service.open_table(game)
    for tile, player in enumerate(PLAYERS, start=1):
        await service.play(game, player, m.Finish(order_tile=tile), f"{player}:finish-1", round=1)
    stream = await service.store.read(game_stream(game))
    assert [e.data["round"] for e in stream if e.type == "RoundStarted"] == [1, 2]
    assert [e.type for e in stream].count("BuildingStarted") == 2
    return stream


def _finishes(stream) -> list[tuple[int, str]]:
    return sorted((e.data["order_tile"], e.data["player"]) for e in stream if e.type == "ShipFinished")


SEED = hashlib.sha256(b"round-two-1").digest()     # cards and dice with which round 1 runs on to round 2


class _FixedSeeds(MemorySeedVault):
    async def get_or_create(self, game_id: str) -> bytes:
        return self._seeds.setdefault(game_id, SEED)


@pytest.fixture
async def service(redis):
    warehouse = RedisWarehouse(redis)
    store = MemoryEventStore()
    return TableService(warehouse, store, Relay(warehouse, store), _FixedSeeds())


@pytest.fixture
async def game(service):
    return await new_game(service.store, PLAYERS, vault=service.vault)


async def test_a_finish_sent_in_round_one_that_arrives_after_it_ended_is_refused_not_applied_to_round_two(
        service, game):
    stream = await _round_one_ended_by(service, game)
    with pytest.raises(Refused) as late:
        await service.play(game, "dee", m.Finish(order_tile=4), "dee:finish-late", round=1)
    assert late.value.code == "ROUND_OVER"
    after = await service.store.read(game_stream(game))
    assert len(after) == len(stream)                            # nothing stored
    assert _finishes(after) == [(1, "ann"), (2, "bob"), (3, "cy"), (4, "dee")]
    await check_invariants(service, game)                       # round 2's warehouse untouched
    assert (await service.warehouse.snapshot(game, secret=True))["meta"]["status"] == "building"


async def test_a_move_sent_in_round_two_plays_in_round_two(service, game):
    await _round_one_ended_by(service, game)
    applied = await service.play(game, "dee", m.Finish(order_tile=1), "dee:finish-2", round=2)
    assert [e["type"] for e in applied.events] == ["ShipFinished"]
    await check_invariants(service, game)


async def test_the_end_of_building_retried_on_a_later_round_refuses_instead_of_deciding_there(service, game):
    """The retry of a last Finish that lost its race (its `decided` found the stream moved on) decides
    again on the stream: bound to its round, it is refused once that round is over."""
    stream = await _round_one_ended_by(service, game)
    with pytest.raises(Refused) as late:
        await ending.decided(service, game, "dee", {"type": "Finish", "order_tile": 4}, "dee:lost-race",
                             status="building", round=1)
    assert late.value.code == "ROUND_OVER"
    assert len(await service.store.read(game_stream(game))) == len(stream)
    await check_invariants(service, game)


async def test_the_end_of_building_never_stores_a_move_that_does_not_end_it(service, game):
    """Even unbound: a Finish that no longer ends building (here: round 2, three ships still building)
    is not put through the end of building's script (which would close round 2's warehouse)."""
    stream = await _round_one_ended_by(service, game)
    with pytest.raises(Stale):
        await ending.decided(service, game, "dee", {"type": "Finish", "order_tile": 4}, "dee:unbound",
                             status="building")
    assert len(await service.store.read(game_stream(game))) == len(stream)
    assert (await service.warehouse.snapshot(game, secret=True))["meta"]["status"] == "building"
    await check_invariants(service, game)


async def test_a_view_of_round_one_a_replica_remembers_does_not_hold_back_a_move_of_round_two(service, game):
    """Only a fresh view binds a move: a replica's remembered view of dee's seat in round 1 is read
    again, and her grab for round 2 plays in round 2."""
    await service.open_table(game)
    remembered = await service._read(game, "dee", m.GrabFaceDown(), None)
    remembered.fresh = False
    await _round_one_ended_by(service, game)
    service.seats.remember(game, "dee", remembered)
    applied = await service.play(game, "dee", m.GrabFaceDown(), "dee:grab-2", round=2)
    assert [e["type"] for e in applied.events] == ["ComponentGrabbed"]
    await check_invariants(service, game)


async def test_a_move_first_decided_on_a_fresh_view_of_round_one_stays_there_without_a_round_given(
        service, game):
    """No round given: the first fresh view binds. dee's grab is decided on round 1 as read just before
    round 1 ends (the view handed over as the replica's own, still fresh); its commit finds round 2's
    warehouse, and decided again it is refused, not grabbed in round 2."""
    await service.open_table(game)
    read_before_the_end = await service._read(game, "dee", m.GrabFaceDown(), None)
    stream = await _round_one_ended_by(service, game)
    service.seats.remember(game, "dee", read_before_the_end)
    with pytest.raises(Refused) as late:
        await service.play(game, "dee", m.GrabFaceDown(), "dee:grab-late")
    assert late.value.code == "ROUND_OVER"
    assert len(await service.store.read(game_stream(game))) == len(stream)
    await check_invariants(service, game)


async def test_a_socket_binds_its_moves_to_the_building_it_has_shown_going_on(service, game):
    """The socket passes each move with the round whose building it had shown going on when the move
    arrived (`fanout.Listener.follow`): round 1 until it shows round 1's end, none between the rounds
    (the move's first fresh view binds it then), round 2 once it shows round 2's building."""
    await service.open_table(game)
    welcome = await service.store.read(game_stream(game))
    listener = Listener("dee", welcome[-1].seq, round_shown=1, building_round=1)
    stream = await _round_one_ended_by(service, game)
    shown = []
    for envelope in stream[len(welcome):]:
        listener.follow(envelope)
        shown.append((envelope.type, listener.building_round))
    ended = [t for t, _ in shown].index("BuildingEnded")
    assert {bound for _, bound in shown[:ended]} == {1}
    assert shown[ended][1] is None and shown[-1] == ("BuildingStarted", 2)
    assert {bound for _, bound in shown[ended:-1]} == {None}
