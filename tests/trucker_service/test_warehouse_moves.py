"""The warehouse's Lua scripts, move by move: given a table, when a player moves, then the events (or a
refusal with its code, and nothing changed). Real Redis; the in-memory event store (same port as
JetStream's). The invariants and "Redis equals the fold of the stream" are checked after every move."""
from __future__ import annotations

import pytest

from trucker.relay import Relay
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse, Refused, Stale
from trucker_rules.game import GAME
from starbase_rules.fair import FairRng
from trucker_rules import messages as m

from tests.trucker_service.helpers import (
    move,
    Table, check_invariants, folded, illegal_joint_spot, legal_spot, new_game,
)

pytestmark = pytest.mark.integration


@pytest.fixture
async def table(service):
    game = await new_game(service.store, ["ann", "bob", "cy"], vault=service.vault)
    await service.open_table(game)
    await check_invariants(service, game)
    return Table(service, game)


async def test_opening_the_table_starts_building_and_the_hourglass(table):
    state = await table.state()
    assert state.building_started and state.timer_space == 1
    assert state.runs_out_at > 0


async def test_a_face_down_grab_takes_what_the_rules_engine_draws_at_grab_time(table):
    expected = await table.next_face_down()
    applied = await table.play("ann", "grab_face_down")
    assert [e["type"] for e in applied.events] == ["ComponentGrabbed"]
    assert applied.events[0]["data"] == {"player": "ann", "component": expected, "source": "face_down"}
    assert (await table.state()).seats["ann"].hand == expected


async def test_grabbing_while_holding_is_refused(table):
    await table.play("ann", "grab_face_down")
    assert await table.refusal("ann", "grab_face_down") == "HAND_FULL"


async def test_a_returned_component_lies_face_up_and_can_be_grabbed(table):
    tile = (await table.play("ann", "grab_face_down")).events[0]["data"]["component"]
    returned = await table.play("ann", "return_tile")
    assert returned.events[0]["data"] == {"player": "ann", "component": tile, "source": "hand"}
    grabbed = await table.play("bob", "grab_face_up", tile)
    assert grabbed.events[0]["data"]["source"] == "face_up"


async def test_a_face_up_component_someone_just_took_is_refused(table):
    tile = (await table.play("ann", "grab_face_down")).events[0]["data"]["component"]
    await table.play("ann", "return_tile")
    await table.play("bob", "grab_face_up", tile)
    assert await table.refusal("cy", "grab_face_up", tile) == "NOT_FACE_UP"


async def test_placing_needs_a_component_in_hand(table):
    assert await table.refusal("ann", "place", 7, 6, 0) == "NOTHING_IN_HAND"


async def test_placements_the_rules_forbid_are_refused_with_their_code(table):
    await table.play("ann", "grab_face_down")
    assert await table.refusal("ann", "place", 1, 1, 0) == "SQUARE_NOT_ON_BOARD"
    assert await table.refusal("ann", "place", 7, 7, 0) == "SQUARE_TAKEN"
    assert await table.refusal("ann", "place", 5, 9, 0) == "NOT_ADJACENT"


async def test_an_illegal_joint_is_refused(table):
    state = await table.state()
    for _ in range(40):   # find a component that can be joined illegally to the cabin
        tile = (await table.play("ann", "grab_face_down")).events[0]["data"]["component"]
        spot = illegal_joint_spot(state.seats["ann"].ship, tile)
        if spot:
            assert await table.refusal("ann", "place", *spot) == "ILLEGAL_JOINT"
            return
        await table.play("ann", "return_tile")
    pytest.fail("no component with an illegal joint in 40 grabs")


async def test_a_legal_placement_becomes_the_newest_component_and_may_move_and_turn(table):
    tile = await table.grab_and_place("ann")
    ship = (await table.state()).seats["ann"].ship
    assert ship.tiles[ship.newest].component == tile
    without = type(ship)(ship.board, {sq: p for sq, p in ship.tiles.items() if sq != ship.newest})
    spot = legal_spot(without, tile)
    moved = await table.play("ann", "move_newest", *spot)
    assert moved.events[0]["type"] == "NewestMoved"
    assert (await table.state()).seats["ann"].ship.newest == spot[:2]


async def test_the_newest_component_is_fixed_by_the_next_grab(table):
    await table.grab_and_place("ann")
    await table.play("ann", "grab_face_down")
    await table.play("ann", "return_tile")
    assert await table.refusal("ann", "move_newest", 7, 6, 0) == "NO_NEWEST_COMPONENT"
    assert await table.refusal("ann", "return_tile") == "NOTHING_TO_RETURN"


async def test_the_newest_component_may_be_given_back_face_up(table):
    tile = await table.grab_and_place("ann")
    returned = await table.play("ann", "return_tile")
    assert returned.events[0]["data"] == {"player": "ann", "component": tile, "source": "ship"}
    assert tile in (await table.state()).face_up


async def test_a_table_may_play_without_reserve_spots_in_round_one(service):
    game = await new_game(service.store, ["ann", "bob"], {"reserve_in_round_1": False}, vault=service.vault)
    await service.open_table(game)
    table = Table(service, game)
    await table.play("ann", "grab_face_down")
    assert await table.refusal("ann", "reserve") == "NO_RESERVE_THIS_ROUND"


async def test_reserve_spots_hold_two_and_a_reserved_component_never_goes_back(service):
    game = await new_game(service.store, ["ann", "bob"], {"reserve_in_round_1": True}, vault=service.vault)
    table = Table(service, game)
    await service.open_table(table.game)
    first = (await table.play("ann", "grab_face_down")).events[0]["data"]["component"]
    await table.play("ann", "reserve")
    await table.play("ann", "grab_face_down")
    await table.play("ann", "reserve")
    await table.play("ann", "grab_face_down")
    assert await table.refusal("ann", "reserve") == "RESERVE_FULL"
    await table.play("ann", "return_tile")
    taken = await table.play("ann", "grab_reserved", first)
    assert taken.events[0]["data"] == {"player": "ann", "component": first, "source": "reserve"}
    assert await table.refusal("ann", "return_tile") == "RESERVED_STAYS"
    assert await table.refusal("ann", "grab_reserved", "eng-01") == "HAND_FULL"
    await table.play("ann", "reserve")
    assert await table.refusal("ann", "grab_reserved", "not-there") == "NOT_IN_RESERVE"


async def test_looking_at_the_piles(table):
    assert await table.refusal("ann", "look_at_pile", 1) == "NOTHING_BUILT"
    await table.grab_and_place("ann")
    await table.grab_and_place("bob")
    assert await table.refusal("ann", "look_at_pile", 4) == "PILE_SECRET"
    assert await table.refusal("ann", "return_pile") == "NOT_LOOKING"
    before = await folded(table.service.store, table.game)
    taken = await table.play("ann", "look_at_pile", 2)
    # The pile's first look draws its cards, as the rules engine does (the game's FairRng, its counter).
    seed = await table.service.vault.get(table.game)
    expected = GAME.decide(before.state, m.LookAtPile(pile=2), "ann", FairRng(seed, start=before.draw_end))
    assert taken.events[0]["data"] == {"player": "ann", "pile": 2, "cards": expected[0].cards}
    assert len(expected[0].cards) == 2 and (await table.state()).piles[1] == expected[0].cards
    assert await table.next_face_down() == (await table.service.warehouse.snapshot(
        table.game, secret=True))["facedown"][0]                  # the face-down grabs follow the new counter
    assert await table.refusal("bob", "look_at_pile", 2) == "PILE_IN_USE"
    assert await table.refusal("ann", "look_at_pile", 3) == "ALREADY_LOOKING"
    assert await table.refusal("ann", "grab_face_down") == "LOOKING_AT_PILE"
    await table.play("bob", "grab_face_down")
    assert await table.refusal("bob", "look_at_pile", 3) == "HAND_FULL"
    await table.play("ann", "return_pile")
    await table.play("bob", "return_tile")
    again = await table.play("bob", "look_at_pile", 2)
    assert again.events[0]["data"] == {"player": "bob", "pile": 2, "cards": None}   # drawn once


async def test_the_hourglass_turns_only_once_run_out(table):
    assert await table.refusal("ann", "turn_timer") == "SAND_STILL_RUNNING"


async def test_order_tiles(table):
    assert await table.refusal("ann", "finish", 9) == "NO_SUCH_ORDER_TILE"
    await table.play("ann", "grab_face_down")
    assert await table.refusal("ann", "finish", "") == "HAND_FULL"
    await table.play("ann", "return_tile")
    finished = await table.play("ann", "finish", 2)
    assert finished.events[0]["data"] == {"player": "ann", "order_tile": 2}
    assert await table.refusal("bob", "finish", 2) == "ORDER_TILE_TAKEN"
    assert await table.refusal("ann", "grab_face_down") == "ALREADY_FINISHED"
    lowest = await table.play("bob", "finish", "")
    assert lowest.events[0]["data"]["order_tile"] == 1


async def test_the_last_ship_finished_ends_building_with_the_rules_engines_events(table):
    await table.grab_and_place("ann")
    await table.play("bob", "grab_face_down")        # bob still holds it when the last ship finishes
    await table.play("ann", "finish", "")
    await table.play("cy", "finish", "")
    assert await table.refusal("bob", "finish", "") == "HAND_FULL"
    await table.play("bob", "return_tile")
    await table.play("bob", "finish", "")
    state = await table.state()
    types = [e.type for e in await table.service.store.read(f"game.{table.game}")]
    assert "BuildingEnded" in types and types.count("ShipInspected") == 3
    assert GAME.to_act(state) or GAME.outcome(state)      # the game goes on: it never waits on nobody
    if state.round == 1:        # round 1 is in flight (or repair): no more building
        assert state.phase != "building"
        assert await table.refusal("ann", "grab_face_down") == "NOT_BUILDING"
    else:                       # the flight needed nobody: round 2's warehouse is open at once
        assert state.building_started and types.count("BuildingStarted") == 2
        await table.play("ann", "grab_face_down")


async def test_spectators_and_strangers_may_not_move(table):
    with pytest.raises(Refused) as refused:
        await table.service.play(table.game, None, move("grab_face_down"), None)
    assert refused.value.code == "NOT_A_PLAYER"
    assert await table.refusal("zed", "grab_face_down") == "NOT_A_PLAYER"


async def test_a_retried_command_id_is_applied_once(table):
    first = await table.play("ann", "grab_face_down", command_id="ann:1")
    again = await table.play("ann", "grab_face_down", command_id="ann:1")
    assert again.retried and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert (await table.state()).seats["ann"].hand == first.events[0]["data"]["component"]


async def decided_on(table, player: str, command):
    """What the service would commit for `command`, decided by the engine on the view read now."""
    from trucker.projection import event_json, guards, read
    from trucker_rules.legal import NoChance
    from trucker_rules.build_phase import decide_building
    view = read(await table.service.warehouse.facts(table.game, player, None), player)
    events = decide_building(view.state, command, player, NoChance())
    return command.model_dump_json(), guards(view, command, events), [event_json(e) for e in events]


async def test_a_placement_decided_before_the_same_player_changed_hand_on_another_socket_changes_nothing(table):
    """The same player on two sockets: one has a placement decided while the other returns the tile and
    grabs another: the checked square must not take the new tile. The script refuses (seat version)."""
    checked = (await table.play("ann", "grab_face_down")).events[0]["data"]["component"]
    spot = legal_spot((await table.state()).seats["ann"].ship, checked)
    decision = await decided_on(table, "ann", move("place", spot))
    await table.play("ann", "return_tile")
    await table.play("ann", "grab_face_down")
    before = await table.service.warehouse.snapshot(table.game, secret=True)
    with pytest.raises(Stale) as stale:
        await table.service.warehouse.commit(table.game, "ann", None, *decision)
    assert stale.value.guard == "seat"
    assert await table.service.warehouse.snapshot(table.game, secret=True) == before


async def test_a_face_up_grab_decided_before_someone_took_that_tile_changes_nothing(table):
    tile = (await table.play("ann", "grab_face_down")).events[0]["data"]["component"]
    await table.play("ann", "return_tile")
    decision = await decided_on(table, "bob", move("grab_face_up", (tile,)))
    await table.play("cy", "grab_face_up", tile)
    before = await table.service.warehouse.snapshot(table.game, secret=True)
    with pytest.raises(Stale) as stale:
        await table.service.warehouse.commit(table.game, "bob", None, *decision)
    assert stale.value.guard == "faceup"
    assert await table.service.warehouse.snapshot(table.game, secret=True) == before
    assert await table.refusal("bob", "grab_face_up", tile) == "NOT_FACE_UP"      # decided again: refused


async def test_a_finish_decided_before_someone_took_its_order_tile_changes_nothing(table):
    decision = await decided_on(table, "bob", move("finish", (2,)))
    await table.play("cy", "finish", 2)
    before = await table.service.warehouse.snapshot(table.game, secret=True)
    with pytest.raises(Stale) as stale:
        await table.service.warehouse.commit(table.game, "bob", None, *decision)
    assert stale.value.guard == "order"
    assert await table.service.warehouse.snapshot(table.game, secret=True) == before


async def test_a_warehouse_loaded_by_an_earlier_version_is_reloaded_from_the_stream_on_its_next_move(table, redis):
    await table.play("ann", "grab_face_down")
    await redis.hdel(f"trucker:{{{table.game}}}:meta", "format")       # as an earlier layout had it
    grabbed = await table.play("bob", "grab_face_down")                # checks Redis == the stream after it
    assert grabbed.events[0]["data"]["component"] and table.service.rebuilds == 1


async def test_no_refusal_code_of_the_rules_is_written_in_the_lua_scripts():
    """The rules live once, in the engine: the scripts only check guards and apply the engine's events."""
    import pathlib
    import re
    import trucker
    import trucker_rules
    rules = pathlib.Path(trucker_rules.__file__).parent
    codes = set()
    for source in rules.glob("*.py"):
        codes |= set(re.findall(r'(?:RuleViolation|refuse)\(\s*"([A-Z_]+)"', source.read_text()))
    assert {"HAND_FULL", "NOT_FACE_UP", "ORDER_TILE_TAKEN", "ILLEGAL_JOINT", "NOT_BUILDING"} <= codes
    scripts = "".join(p.read_text() for p in (pathlib.Path(trucker.__file__).parent / "lua").glob("*.lua"))
    assert [code for code in sorted(codes) if code in scripts] == []


async def test_a_retried_last_finish_is_acknowledged_not_refused(table):
    await table.play("ann", "finish", "")
    await table.play("bob", "finish", "")
    first = await table.play("cy", "finish", "", command_id="cy:9")
    again = await table.play("cy", "finish", "", command_id="cy:9")
    assert again.retried and again.last_seq == first.last_seq


async def test_a_replica_deciding_on_what_it_remembers_of_a_seat_changed_elsewhere_decides_again(table, redis):
    """Replica A remembers ann's ship from her last placement and grab; on replica B she returns that
    tile and grabs another (her ship's version does not change). Her next placement sent to A is
    checked again on a fresh read, and the tile actually in her hand is the one placed."""
    first, warehouse = table.service, RedisWarehouse(redis)
    other = TableService(warehouse, first.store, Relay(warehouse, first.store), first.vault)
    tile = (await first.play(table.game, "ann", move("grab_face_down"), None)).events[0]["data"]["component"]
    while (spot := legal_spot((await table.state()).seats["ann"].ship, tile)) is None:
        await first.play(table.game, "ann", move("return_tile"), None)
        tile = (await first.play(table.game, "ann", move("grab_face_down"), None)).events[0]["data"]["component"]
    await first.play(table.game, "ann", move("place", spot), None)
    remembered = (await first.play(table.game, "ann", move("grab_face_down"), None)).events[0]["data"]["component"]
    assert first.seats.get(table.game, "ann").state.seats["ann"].hand == remembered
    await other.play(table.game, "ann", move("return_tile"), None)
    while True:
        held = (await other.play(table.game, "ann", move("grab_face_down"), None)).events[0]["data"]["component"]
        if (spot := legal_spot((await table.state()).seats["ann"].ship, held)) is not None:
            break
        await other.play(table.game, "ann", move("return_tile"), None)
    placed = await first.play(table.game, "ann", move("place", spot), None)
    assert placed.events[0]["data"]["component"] == held != remembered
    await check_invariants(first, table.game)


async def test_first_looks_draw_the_piles_and_every_grab_after_them_still_follows_the_rules(table):
    """Given grabs and first looks interleaved (each first look moves the draw counter), then the stream
    names no card before its pile is looked at, and every command re-runs through the rules to the
    same events and counters from the seed alone."""
    from starbase_core.gamestream import game_stream
    from trucker_rules import catalog
    from tests.trucker_service.helpers import assert_reruns_through_the_rules
    await table.grab_and_place("ann")
    await table.grab_and_place("bob")
    for player, pile in (("ann", 1), ("bob", 3)):
        await table.play(player, "look_at_pile", pile)
        await table.play(player, "return_pile")
        await table.grab_and_place(player)
        await table.grab_and_place("cy")
    await table.play("cy", "grab_face_down")
    envelopes = await table.service.store.read(game_stream(table.game))
    seen: set[str] = set()
    for envelope in envelopes:
        if envelope.type == "PileTaken" and envelope.data["cards"]:
            seen.update(envelope.data["cards"])
        stored = str(envelope.model_dump())
        assert not [card for card in set(catalog.cards()) - seen if f"'{card}'" in stored], envelope.seq
    assert len(seen) == 4
    assert_reruns_through_the_rules(envelopes, await table.service.vault.get(table.game))


async def test_the_last_finish_stores_exactly_what_the_platform_transaction_decides(table):
    """The end of building is decided by `starbase_core.transaction.decide_next` (the code the audit
    re-runs): the stored envelopes are its decision, type, data, actor and meta (draw counter, command,
    the move's request id) unchanged, in one append."""
    from starbase_core.gamestream import game_stream, replay
    from starbase_core.transaction import decide_next
    await table.play("ann", "finish", "")
    await table.play("bob", "finish", "")
    stream = game_stream(table.game)
    before = await table.service.store.read(stream)
    last = await table.play("cy", "finish", "", command_id="cy:last")
    after = (await table.service.store.read(stream))[len(before):]
    stored = [e for e in after if e.seq <= last.last_seq]
    # When the flight needs nobody (this game's random seed decides), round 2's building follows at once:
    # its start is the service's own move, stored after the end of building.
    assert [e.type for e in after[len(stored):]] in ([], ["BuildingStarted"])
    assert [e.seq for e in stored] == list(range(last.first_seq, last.last_seq + 1))
    record = replay(table.game, before, lambda _name: GAME)
    decision = decide_next(record, {"type": "Finish"}, "cy", await table.service.vault.get(table.game),
                           service="trucker", request_id="cy:last")
    assert [(e.type, e.data, e.actor, e.meta) for e in stored] == \
           [(e.type, e.data, e.actor, e.meta) for e in decision.events]
    assert stored[0].meta["request_id"] == "cy:last" and {e.command_id for e in stored} == {stored[0].command_id}
    assert any(e.type == "BuildingEnded" for e in stored)
