"""Giving a seat up while a round builds, over the Trucker socket (`trucker.resignation`).

Given a Trucker game the adjudicator created, while a round builds (the adjudicator refuses every
command then, the lobby's `Resign` included: REALTIME_PHASE), when a person sends `{"type": "Resign"}`
on the socket they build on, then the service decides it with the platform's transaction on the game
folded from the stream and stores it once (a resend with the same id is acknowledged again, not stored
twice); from that instant the person's moves are refused NOT_IN_CONTROL and the seat's bot builds the
ship on (`meta.played_by`), the round ends as usual, and the whole game passes the platform's audit. A
resignation that leaves too few people ends the game at once and closes building. A resignation by
someone not seated, a seat given up already, a bot's seat or a bot is refused and changes nothing.
"""
from __future__ import annotations

import asyncio
import json
import random
import uuid

import pytest
from redis.asyncio import Redis

from adjudicator.service import Adjudicator
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import ends_game, game_stream
from starbase_core.platform_commands import Resign
from starbase_core.seats import is_bot
from starbase_rules import RuleViolation
from starbase_rules.registry import get_game
from trucker_rules import messages as m
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING

from trucker.bot_seats import BOT_GAMES, lease_key
from trucker.relay import Relay
from trucker.tables import TableService
from trucker.warehouse import RedisWarehouse, Refused

from tests.trucker_service.helpers import FoldedStream, check_invariants, flawed_spot, grab_and_place
from tests.trucker_service.live import Client, settings_for
from tests.trucker_service.test_bot_seats import RACED, building_moves

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

STUCK_SECONDS = 60


@pytest.fixture
def service_settings(nats_url, redis_url, namespace):
    """The live service with bots pacing fast (the pace is a setting; its default is a person's)."""
    return settings_for(nats_url, redis_url, namespace, trucker_bot_move_seconds=0.02)


@pytest.fixture
async def checker(jetstream_store, vault, redis_url):
    """A second service layer on the live service's Redis, store and vault: the invariant checks'."""
    redis = Redis.from_url(redis_url, decode_responses=True)
    warehouse = RedisWarehouse(redis)
    yield TableService(warehouse, jetstream_store, Relay(warehouse, jetstream_store), vault)
    await redis.aclose()


async def new_trucker_game(jetstream_store, vault, players: list[str], bots: dict | None = None) -> tuple[str, Adjudicator]:
    game = f"q{uuid.uuid4().hex[:10]}"
    adjudicator = Adjudicator(jetstream_store, vault)
    options = {"hourglass_seconds": 600, **({"bots": bots} if bots else {})}
    await adjudicator.create_game(game, "trucker", players, options)
    return game, adjudicator


async def unchanged(checker: TableService, game: str) -> tuple:
    """The game's stream length and warehouse (without the relay's own bookkeeping)."""
    snapshot = await checker.warehouse.snapshot(game, secret=True)
    return (await checker.store.last_seq(game_stream(game)),
            {key: value for key, value in snapshot.items() if key not in ("durable", "outbox_seqs")})


async def play_to_the_end(stream: FoldedStream, sockets: dict[str, Client], adjudicator: Adjudicator,
                          checks=None) -> None:
    """People finish their ships at once while the bots build theirs; the rest through the adjudicator
    (a seat's moves as its controller: a bot, a substitute). `sockets` are by the seat each plays (a
    substitute's for the seat they hold; a test may change them as it goes). `checks(state)` is awaited
    once per phase seen."""
    rnd, waiting_since, seen, steps = random.Random(7), None, set(), 0
    loop = asyncio.get_running_loop()
    while True:
        steps += 1
        assert steps < 20_000, "the game did not end"
        folded = await stream.catch_up()
        if stream.envelopes and ends_game(stream.envelopes[-1]):
            return
        state, controllers = folded.state, folded.record.seats.controllers
        if checks is not None and (state.round, state.phase) not in seen:
            seen.add((state.round, state.phase))
            await checks(state)
        if state.phase == BUILDING:
            people = [p for p in sockets if not is_bot(controllers[p]) and state.seats[p].order_tile is None]
            if not state.building_started or not people:    # the bots start it / build and finish
                waiting_since = waiting_since or loop.time()
                assert loop.time() - waiting_since < STUCK_SECONDS, "the bots did not build (or finish)"
                await asyncio.sleep(0.02)
                continue
            waiting_since = None
            answer = await sockets[people[0]].send_command(m.Finish().model_dump(mode="json"))
            assert answer["kind"] == "ack" or answer["error"]["code"] in RACED, answer
            continue
        for actor in GAME.to_act(state):
            controller = controllers[actor]
            command = GAME.bot_command(state, actor, rnd).model_dump(mode="json")
            by = {"played_by": controller} if controller != actor else {}
            await adjudicator.submit(stream.game, actor, command, f"t-{steps}-{actor}", **by)
            break


async def test_a_person_resigns_mid_building_over_the_socket_and_the_seats_bot_builds_on(
        live, jetstream_store, vault, checker, redis):
    players = ["ann", "bob", "cy"]
    game, adjudicator = await new_trucker_game(jetstream_store, vault, players)
    sockets = {p: await Client.connect(live, game, p) for p in players}    # a player arriving opens round 1
    stream = FoldedStream(jetstream_store, game)
    assert (await sockets["cy"].send("grab_face_down"))["kind"] == "ack"      # cy builds, holding a tile
    # The lobby's route ends at the adjudicator, which takes no command while a round builds.
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.submit(game, "cy", {"type": "Resign"}, "resign:2:cy")
    assert refused.value.code == "REALTIME_PHASE"
    # The bots' lease held here for a moment: the seat stays still while the resignation is checked.
    await redis.set(lease_key(game), "test", px=60_000)

    ack = await sockets["cy"].send("resign", message_id="bye")
    assert ack["kind"] == "ack" and not ack["retried"], ack
    assert [(e["type"], e["data"]) for e in ack["events"]] == [
        ("PlayerResigned", {"player": "cy", "by": "cy", "level": "normal"})]
    # Sent again (the command form, the same id): acknowledged again with the same events, stored once.
    again = await sockets["cy"].send_raw(json.dumps({"v": 1, "kind": "move", "id": "bye",
                                                     "command": {"type": "Resign"}}))
    assert again["kind"] == "ack" and again["retried"], again
    assert (again["first_seq"], again["seq"]) == (ack["first_seq"], ack["seq"])
    assert [e["type"] for e in again["events"]] == ["PlayerResigned"]
    refused_move = await sockets["cy"].send("return")       # legal for cy's seat, holding a tile: not cy's now
    assert refused_move["error"]["code"] == "NOT_IN_CONTROL", refused_move
    await check_invariants(checker, game)       # Redis's seat control included: cy's seat is the bot's
    envelopes = [e for e in await jetstream_store.read(game_stream(game)) if e.type == "PlayerResigned"]
    assert len(envelopes) == 1 and envelopes[0].actor == "cy"
    assert envelopes[0].meta["command"] == {"type": "Resign"} and envelopes[0].meta["request_id"] == "cy:bye"
    assert await redis.sismember(BOT_GAMES, game)        # listed: the bot seats pick the seat up
    await redis.delete(lease_key(game))

    # ann's ship will fail the inspection: round 1 waits for her repair, a moment between buildings.
    await grab_and_place(sockets["ann"], stream, "ann", flawed_spot)
    asked_between: list[dict] = []

    async def between_buildings(state) -> None:
        if state.phase != BUILDING and state.round == 1:
            # Between buildings the service has no say: the lobby's route (the adjudicator) decides.
            asked_between.append(await sockets["ann"].send("resign"))

    await play_to_the_end(stream, {"ann": sockets["ann"], "bob": sockets["bob"]}, adjudicator, between_buildings)
    assert asked_between and all(a["error"]["code"] == "NOT_BUILDING" for a in asked_between), asked_between

    envelopes = stream.envelopes
    resigned_at = next(e.seq for e in envelopes if e.type == "PlayerResigned")
    cy = building_moves(envelopes, "cy", 1)
    assert [e.meta.get("played_by") for e in cy if e.seq < resigned_at] == [None]      # cy's own grab
    by_bot = [e for e in cy if e.seq > resigned_at]
    # The bot built cy's ship on from the resignation: it placed components and finished, as itself.
    assert any(e.type == "ComponentPlaced" for e in by_bot) and by_bot[-1].type == "ShipFinished"
    assert all(e.meta.get("played_by") == "bot:normal" for e in by_bot)
    # The round ended as usual: by the last ship to finish, the bot's (ann and bob finished at once).
    ended = next(e for e in envelopes if e.type == "BuildingEnded")
    assert envelopes[ended.seq - 2].actor == "cy" and envelopes[ended.seq - 2].meta.get("played_by") == "bot:normal"
    assert [e.type for e in envelopes].count("PlayerResigned") == 1
    assert envelopes[-1].type == "GameEnded" and envelopes[-1].data["reason"] != "resigned"
    report = audit_game(game, envelopes, get_game)
    assert report.verdict == PASS, report.render()
    for client in sockets.values():
        await client.close()


@pytest.mark.parametrize("players, bots, resigner, stays", [
    (["ann", "bob"], None, "bob", "ann"),                # two people: the resigner concedes
    (["ann", "bob"], {"bob": "easy"}, "ann", "bob"),     # a lone person against a bot
], ids=["two-people", "alone-against-a-bot"])
async def test_a_resignation_that_leaves_too_few_people_ends_the_game_and_building(
        live, jetstream_store, vault, checker, redis, players, bots, resigner, stays):
    game, adjudicator = await new_trucker_game(jetstream_store, vault, players, bots)
    sockets = {p: await Client.connect(live, game, p) for p in players}
    person = next(p for p in players if not (bots and p in bots))
    assert (await sockets[person].send("grab_face_down"))["kind"] == "ack"

    ack = await sockets[resigner].send("resign", message_id="done")
    assert ack["kind"] == "ack", ack
    assert [e["type"] for e in ack["events"]] == ["PlayerResigned", "GameEnded"]
    ended = (await jetstream_store.read(game_stream(game)))[-1]
    assert ended.type == "GameEnded" and ended.data["reason"] == "resigned"
    assert [(s["player"], s["rank"]) for s in ended.data["standings"]] == [(stays, 1), (resigner, 2)]
    assert ended.data["resigned"] == [resigner] and bytes.fromhex(ended.data["seed"]) == await vault.get(game)
    again = await sockets[resigner].send("resign", message_id="done")
    assert again["kind"] == "ack" and again["retried"] and again["seq"] == ack["seq"], again

    # Building is over for everyone: the warehouse is closed, moves are refused, nothing is stored.
    snapshot = await checker.warehouse.snapshot(game)
    assert snapshot["meta"]["status"] == "ended"
    if bots is None:
        refused = await sockets[stays].send("grab_face_down")
        assert refused["error"]["code"] == "NOT_BUILDING", refused
    await asyncio.sleep(0.2)                      # a bot seat's ticks, had building gone on
    envelopes = await jetstream_store.read(game_stream(game))
    assert envelopes[-1].seq == ended.seq
    assert not await redis.sismember(BOT_GAMES, game)
    with pytest.raises(RuleViolation) as over:
        await adjudicator.submit(game, stays, {"type": "Resign"}, "late")
    assert over.value.code == "GAME_OVER"
    await check_invariants(checker, game)
    report = audit_game(game, envelopes, get_game)
    assert report.verdict == PASS, report.render()
    for client in sockets.values():
        await client.close()


async def test_a_resignation_by_someone_not_seated_or_not_in_control_is_refused_and_changes_nothing(
        live, jetstream_store, vault, checker, redis):
    players = ["ann", "bob", "cy", "dan"]
    game, _ = await new_trucker_game(jetstream_store, vault, players, {"dan": "easy"})
    sockets = {p: await Client.connect(live, game, p) for p in players}
    watcher = await Client.connect(live, game)
    await redis.set(lease_key(game), "test", px=60_000)      # the bots stay still: nothing else moves
    await asyncio.sleep(0.1)                                 # (a bot move already under way lands first)
    await checker.relay.flush(game)
    assert (await sockets["bob"].send("resign", message_id="r1"))["kind"] == "ack"
    await check_invariants(checker, game)
    before = await unchanged(checker, game)

    refusals = {
        "a spectator": (await watcher.send("resign"))["error"]["code"],
        "a seat given up already": (await sockets["bob"].send("resign", message_id="r2"))["error"]["code"],
        "a bot's seat, by its player": (await sockets["dan"].send("resign"))["error"]["code"],
    }
    reads, store = [], checker.store
    checker.store = Reading(store, reads)
    try:                                # a seat given up, asked again and again: Redis answers, not the stream
        with pytest.raises(Refused) as refused:
            await checker.play(game, "bob", Resign(), "bob:again")
    finally:
        checker.store = store
    assert refused.value.code == "NOT_IN_CONTROL" and reads == []
    for who, player, played_by in (("not seated", "zed", None), ("a bot", "dan", "bot:easy")):
        with pytest.raises(Refused) as refused:
            await checker.play(game, player, Resign(), f"{player}:x", played_by=played_by)
        refusals[who] = refused.value.code
    assert refusals == {"a spectator": "NOT_A_PLAYER", "a seat given up already": "NOT_IN_CONTROL",
                        "a bot's seat, by its player": "NOT_IN_CONTROL", "not seated": "NOT_A_PLAYER",
                        "a bot": "NOT_A_PERSON"}
    assert await unchanged(checker, game) == before
    await check_invariants(checker, game)
    await redis.delete(lease_key(game))
    for client in (*sockets.values(), watcher):
        await client.close()


class Reading:
    """A store that notes each stream read, for a refusal that must read none."""

    def __init__(self, store, reads: list) -> None:
        self._store, self._reads = store, reads

    async def read(self, stream, *args, **kwargs):
        self._reads.append(stream)
        return await self._store.read(stream, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._store, name)
