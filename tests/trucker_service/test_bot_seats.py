"""Bot seats during Trucker's real-time building: the service builds their ships (`trucker.bot_seats`).

Given a game the adjudicator created with a bot seat (the table's `bots` option), when a person builds
over the service's WebSocket, then the bot's ship grows meanwhile, move by move, through the same path
as a person's move (each move stored once, `meta.played_by` = `bot:<level>`), and the bot finishes
building (takes its order tile) by itself; a seat a resignation gave a bot is built from the next round
on; the last ship to finish may be a bot's. The whole game then passes the platform's audit, which
re-runs every command and checks who played it.
"""
from __future__ import annotations

import asyncio
import json
import random
import uuid

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import ends_game
from starbase_core.seats import is_bot
from starbase_core.transaction import decide_next, open_game
from starbase_rules import RuleViolation
from starbase_rules.registry import get_game
from trucker_rules import messages as m
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING, REPAIR

from trucker.bot_seats import BOT_GAMES, BotSeats, play_level
from trucker.state_doc import Folded
from trucker.warehouse import Refused
from tests.trucker_service.helpers import FoldedStream, flawed_spot, grab_and_place
from tests.trucker_service.live import Client, settings_for

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


@pytest.fixture
def service_settings(nats_url, redis_url, namespace):
    """The live service with bots pacing fast (the pace is a setting; its default is a person's)."""
    return settings_for(nats_url, redis_url, namespace, trucker_bot_move_seconds=0.02)


BOTS_STUCK_SECONDS = 60
# What a person deciding on the stream (a moment behind the warehouse) may lose to a bot that got there
# first: a face-up tile, an order tile, a pile, the last face-down tile, the round itself.
RACED = ("NOT_FACE_UP", "ORDER_TILE_TAKEN", "PILE_IN_USE", "WAREHOUSE_EMPTY", "ROUND_OVER", "NOT_BUILDING")


def building_moves(envelopes, seat: str, round_no: int) -> list:
    """The first envelopes of the commands a seat played while building round `round_no`."""
    found, current = [], 0
    for envelope in envelopes:
        if envelope.type == "RoundStarted":
            current = envelope.data["round"]
        command = envelope.meta.get("command")
        if current == round_no and envelope.actor == seat and command and command["type"] in (
                "GrabFaceDown", "GrabFaceUp", "TakeReserved", "PlaceComponent", "MoveNewest", "ReturnComponent",
                "ReserveComponent", "LookAtPile", "PutBackPile", "Finish"):
            found.append(envelope)
    return found


async def wait_for_bots(since: float | None) -> float:
    """A short wait for the bots (the stream is read again after it); fails if they have not moved the
    game on for long (bounded: without the service's bot seats, nothing ever builds their ships)."""
    now = asyncio.get_running_loop().time()
    since = now if since is None else since
    assert now - since < BOTS_STUCK_SECONDS, "the bot seats did not build (or finish) their ships"
    await asyncio.sleep(0.02)
    return since


async def test_bot_seats_build_their_ships_while_a_person_builds_and_the_game_passes_the_audit(
        live, jetstream_store, vault):
    players = ["ann", "bob", "cy", "dan"]
    game = f"b{uuid.uuid4().hex[:10]}"
    adjudicator = Adjudicator(jetstream_store, vault)
    await adjudicator.create_game(game, "trucker", players, {"hourglass_seconds": 600, "bots": {"bob": "strong"}})
    ann = await Client.connect(live, game, "ann")         # a person arriving opens round 1
    others = {p: await Client.connect(live, game, p) for p in ("cy", "dan")}
    stream, rnd = FoldedStream(jetstream_store, game), random.Random(5)
    resigned, steps, waiting_since, refused_cy = False, 0, None, None
    # dan's ship will fail round 1's inspection: the game waits for dan's repair, a turn-based moment
    # between buildings (without it, a flight that asks nobody anything runs on to round 2's building).
    await grab_and_place(others["dan"], stream, "dan", flawed_spot)

    while not (stream.envelopes and ends_game(stream.envelopes[-1])):
        steps += 1
        assert steps < 20_000, "the game did not end"
        folded = await stream.catch_up()
        if stream.envelopes and ends_game(stream.envelopes[-1]):
            break
        state, controllers = folded.state, folded.record.seats.controllers
        if state.phase == BUILDING:
            if is_bot(controllers["cy"]) and state.building_started and not refused_cy:
                # cy gave the seat up: the bot plays it now, and cy's own moves are refused
                refused_cy = await others["cy"].send("grab_face_down")
                assert refused_cy["error"]["code"] == "NOT_IN_CONTROL", refused_cy
            people = [p for p in ("ann", "cy", "dan")
                      if not is_bot(controllers[p]) and state.seats[p].order_tile is None]
            if not state.building_started or not people:
                waiting_since = await wait_for_bots(waiting_since)      # the service starts it / the bots finish
                continue
            if "ann" not in people:
                player, command = people[0], m.Finish()
            elif state.round == 2:              # ann finishes at once: a bot's finish ends this building
                player, command = "ann", m.Finish()
            else:
                player, command = "ann", GAME.bot_command(state, "ann", rnd)
                if isinstance(command, m.Finish) and state.seats["bob"].order_tile is None:
                    waiting_since = await wait_for_bots(waiting_since)  # ann waits for the bot to finish first
                    continue
            waiting_since = None
            socket = ann if player == "ann" else others[player]
            answer = await socket.send_command(command.model_dump(mode="json"))
            assert answer["kind"] == "ack" or answer["error"]["code"] in RACED, (command, answer)
            continue
        if state.round == 1 and not resigned:   # dan's repair: cy gives the seat up, a bot takes it
            assert state.phase == REPAIR and "dan" in GAME.to_act(state), state.phase
            resigned = True
            await adjudicator.submit(game, "cy", {"type": "Resign"}, "resign-cy")
            continue
        for actor in GAME.to_act(state):
            controller = controllers[actor]
            command = GAME.bot_command(state, actor, rnd).model_dump(mode="json")
            by = {"played_by": controller} if is_bot(controller) else {}
            await adjudicator.submit(game, actor, command, f"t-{steps}-{actor}", **by)
            break

    envelopes = stream.envelopes
    assert [e.data["round"] for e in envelopes if e.type == "RoundStarted"] == [1, 2, 3]
    for round_no in (1, 2, 3):
        bob = building_moves(envelopes, "bob", round_no)
        # The bot built: components placed on its ship, then its order tile taken; every move its own.
        assert any(e.type == "ComponentPlaced" for e in bob), round_no
        assert bob[-1].type == "ShipFinished" and bob[-1].meta["command"]["type"] == "Finish"
        assert all(e.meta.get("played_by") == "bot:strong" for e in bob)
    # The person played meanwhile: ann's moves interleave with the bot's in round 1.
    bob_seqs = [e.seq for e in building_moves(envelopes, "bob", 1)]
    assert any(bob_seqs[0] < e.seq < bob_seqs[-1] for e in building_moves(envelopes, "ann", 1))
    # cy resigned in round 1's repair: the seat's ship was built by the replacement bot from round 2 on.
    assert all(e.meta.get("played_by") is None for e in building_moves(envelopes, "cy", 1))
    for round_no in (2, 3):
        cy = building_moves(envelopes, "cy", round_no)
        assert cy and cy[-1].type == "ShipFinished" and all(e.meta.get("played_by") == "bot:normal" for e in cy)
    # In round 2 the last ship to finish was a bot's: it ended building, played by the bot.
    ended = [e for e in envelopes if e.type == "BuildingEnded"]
    assert any(envelopes[e.seq - 2].meta.get("played_by", "").startswith("bot:") for e in ended)
    # Each bot move was stored once (one client id, one command).
    ids = [e.meta["request_id"] for e in envelopes if e.meta.get("played_by", "").startswith("bot:")
           and "request_id" in e.meta]
    assert len(ids) == len(set(ids))
    assert refused_cy is not None
    report = audit_game(game, envelopes, get_game)
    assert report.verdict == PASS, report.render()
    for client in (ann, *others.values()):
        await client.close()


async def test_a_bot_seat_of_an_unknown_level_is_refused_when_the_game_is_created_and_played_at_normal_otherwise(
        jetstream_store, vault):
    adjudicator = Adjudicator(jetstream_store, vault)
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.create_game(f"b{uuid.uuid4().hex[:10]}", "trucker", ["ann", "bob"],
                                      {"bots": {"bob": "grandmaster"}})
    assert "grandmaster" in str(refused.value)
    # A stream that names a level the engine has no bot for (an older or hand-made one) is still played.
    assert play_level("grandmaster") == "normal"
    assert [play_level(level) for level in GAME.bot_levels] == list(GAME.bot_levels)


async def test_one_replica_at_a_time_plays_a_games_bot_seats(service, redis):
    """Two replicas' bot players on one game: one holds its lease and plays; the other plays nothing
    until the lease is given back."""
    store = service.store
    game = f"b{uuid.uuid4().hex[:10]}"
    seed = await service.vault.get_or_create(game)
    await store.append(f"game.{game}", open_game(GAME, ["ann", "bob"], {"bots": {"bob": "easy"}}, seed),
                       expected_seq=0)
    await service.open_table(game)                        # a person arrived: the game is listed
    assert await redis.sismember(BOT_GAMES, game)
    first, second = BotSeats(service, redis, 0.01), BotSeats(service, redis, 0.01)
    try:
        for _ in range(3):
            await asyncio.gather(first.tick(), second.tick())
        assert (game in first.held) != (game in second.held)
        holder, other = (first, second) if game in first.held else (second, first)
        await service.relay.flush(game)
        played = [e for e in await store.read(f"game.{game}") if e.meta.get("played_by") == "bot:easy"]
        # One move a tick, by the holder only: three ticks of two replicas play at most three moves.
        assert 1 <= len(played) <= 3 and all(e.actor == "bob" for e in played)
        await holder._let_go(game)
        await other.tick()
        assert game in other.held
    finally:
        for replica in (first, second):
            for held in list(replica.held):
                await replica._let_go(held)
        await redis.srem(BOT_GAMES, game)


async def test_a_bot_seat_is_played_by_its_bot_only_and_a_persons_seat_by_its_person(service):
    """The warehouse knows which seats bots hold (from the stream): a move for a bot's seat without the
    bot as `played_by`, or naming another controller, is refused (NOT_IN_CONTROL) and changes nothing."""
    game = f"b{uuid.uuid4().hex[:10]}"
    seed = await service.vault.get_or_create(game)
    await service.store.append(f"game.{game}", open_game(GAME, ["ann", "bob"], {"bots": {"bob": "easy"}}, seed),
                               expected_seq=0)
    await service.open_table(game)

    async def warehouse() -> dict:    # the game's part (a script may also mark the relay's stored events)
        snapshot = await service.warehouse.snapshot(game, secret=True)
        return {key: value for key, value in snapshot.items() if key not in ("durable", "outbox_seqs")}

    before = await warehouse()
    for player, played_by in (("bob", None), ("bob", "bot:strong"), ("ann", "bot:easy")):
        with pytest.raises(Refused) as refused:
            await service.play(game, player, m.GrabFaceDown(), None, played_by=played_by)
        assert refused.value.code == "NOT_IN_CONTROL", (player, played_by)
        assert await warehouse() == before
    await service.play(game, "ann", m.GrabFaceDown(), None)
    bot_move = await service.play(game, "bob", m.GrabFaceDown(), "bob:bot:1", played_by="bot:easy")
    stored = await service.store.read(f"game.{game}", from_seq=bot_move.first_seq)
    assert stored[0].meta["played_by"] == "bot:easy" and stored[0].actor == "bob"


async def test_a_seat_that_becomes_a_bots_while_building_is_built_by_the_bot(service, redis):
    """Should a resignation land in the stream while a round builds (written by another writer: today
    the adjudicator refuses every command then), the bot players see it in the stream at their next
    tick; the next move finds the warehouse no longer matches the stream (`Diverged`) and loads it again,
    seat control included, and the seat's bot builds from then on."""
    players = ["ann", "bob", "cy", "dan"]
    game = f"b{uuid.uuid4().hex[:10]}"
    seed = await service.vault.get_or_create(game)
    stream = f"game.{game}"
    await service.store.append(stream, open_game(GAME, players, {"bots": {"cy": "easy"}}, seed), expected_seq=0)
    await service.open_table(game)
    await service.play(game, "bob", m.GrabFaceDown(), None)
    await service.relay.flush(game)
    folded = Folded(await service.store.read(stream))
    resign = decide_next(folded.record, {"type": "Resign"}, "bob", seed, service="trucker")
    await service.store.append(stream, resign.events, expected_seq=folded.seq)
    bots = BotSeats(service, redis, 0.01)
    try:
        for _ in range(200):
            await bots.tick()
            await service.relay.flush(game)
            stored = await service.store.read(stream)
            if any(e.actor == "bob" and e.meta.get("played_by") == "bot:normal" for e in stored):
                break
        else:
            raise AssertionError("the resigned seat was never played by its bot")
        assert any(e.actor == "cy" and e.meta.get("played_by") == "bot:easy" for e in stored)
        assert Folded(stored).record.seats.controllers["bob"] == "bot:normal"
    finally:
        for held in list(bots.held):
            await bots._let_go(held)
        await redis.srem(BOT_GAMES, game)


@pytest.mark.parametrize("pace", ["0", "-1", "61", "soon"])
def test_a_bot_pace_that_would_spin_or_stall_the_bots_is_refused_at_start(pace):
    from pydantic import ValidationError

    from starbase_core.config import from_env
    from trucker.settings import TruckerSettings

    with pytest.raises(ValidationError, match="trucker_bot_move_seconds"):
        from_env(TruckerSettings, {"TRUCKER_BOT_MOVE_SECONDS": pace})
    assert from_env(TruckerSettings, {}).trucker_bot_move_seconds == 0.5


async def test_a_warehouse_of_the_layout_that_knew_only_bots_is_reloaded_with_every_controller(service, redis):
    """Layout 3 kept meta `bots`; layout 4 keeps `controllers` (bots and substitutes). A warehouse an
    earlier version loaded is dropped and loaded again from the stream on its next read, so the seat
    control the guard `controller` checks is never one the warehouse's layout cannot say."""
    game = f"b{uuid.uuid4().hex[:10]}"
    seed = await service.vault.get_or_create(game)
    await service.store.append(f"game.{game}", open_game(GAME, ["ann", "bob"], {"bots": {"bob": "easy"}}, seed),
                               expected_seq=0)
    await service.open_table(game)
    meta = f"trucker:{{{game}}}:meta"
    await redis.hset(meta, mapping={"format": "3", "bots": await redis.hget(meta, "controllers")})
    await redis.hdel(meta, "controllers")                       # as layout 3 had it

    with pytest.raises(Refused) as refused:                     # the bot's seat, by its person
        await service.play(game, "bob", m.GrabFaceDown(), None)
    assert refused.value.code == "NOT_IN_CONTROL" and service.rebuilds == 1
    assert await redis.hget(meta, "format") == "4" and not await redis.hexists(meta, "bots")
    assert json.loads(await redis.hget(meta, "controllers")) == {"bob": "bot:easy"}
