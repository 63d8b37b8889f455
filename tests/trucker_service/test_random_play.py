"""Bots playing random moves, the invariants checked after every one, and the audit of face-down grabs."""
from __future__ import annotations

import asyncio
import random

import pytest

from starbase_core.gamestream import game_stream
from starbase_rules.fair import FairRng
from trucker_rules.build_phase import draw_face_down
from trucker_rules.game import GAME

from trucker.state_doc import Folded
from trucker.warehouse import Refused

from tests.trucker_service.helpers import (
    move,
    assert_reruns_through_the_rules, check_invariants, folded, legal_spot, new_game,
)

pytestmark = pytest.mark.integration

OPERATIONS = ["grab_face_down", "grab_face_down", "grab_face_up", "place", "place", "move_newest",
              "return_tile", "reserve", "grab_reserved", "look_at_pile", "return_pile", "turn_timer", "finish"]


async def random_move(service, game: str, player: str, rnd: random.Random):
    state = (await folded(service.store, game)).state
    seat = state.seats[player]
    op = rnd.choice(OPERATIONS)
    if seat.hand and rnd.random() < 0.6:   # mostly build with what is in hand, as players do
        op = "place" if legal_spot(seat.ship, seat.hand) else rnd.choice(["return_tile", "reserve"])
    args: tuple = ()
    if op == "grab_face_up":
        args = (rnd.choice(state.face_up or ["none"]),)
    elif op == "grab_reserved":
        args = (rnd.choice(seat.ship.reserve or ["none"]),)
    elif op == "place":
        spot = legal_spot(seat.ship, seat.hand) if seat.hand else None
        args = spot or (rnd.randint(3, 11), rnd.randint(3, 11), rnd.randint(0, 3))
    elif op == "move_newest":
        args = (rnd.randint(3, 11), rnd.randint(3, 11), rnd.randint(0, 3))
    elif op == "look_at_pile":
        args = (rnd.randint(1, 4),)
    elif op == "finish":
        if rnd.random() < 0.9:
            return None
        args = (rnd.choice(["", 1, 2, 3]),)
    try:
        return await service.play(game, player, move(op, args), None)
    except Refused:
        return None


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_moves_keep_every_invariant(service, seed):
    players = ["ann", "bob", "cy"]
    game = await new_game(service.store, players, {"reserve_in_round_1": True}, vault=service.vault)
    await service.open_table(game)
    rnd = random.Random(seed)
    for _ in range(150):
        await random_move(service, game, rnd.choice(players), rnd)
        await check_invariants(service, game)


async def test_concurrent_bots_keep_every_invariant_and_the_stream_folds_with_the_rules(service):
    players = ["ann", "bob", "cy", "dee"]
    game = await new_game(service.store, players, {"reserve_in_round_1": True}, vault=service.vault)
    await service.open_table(game)

    async def bot(player: str, seed: int) -> None:
        rnd = random.Random(seed)
        for _ in range(60):
            await random_move(service, game, player, rnd)

    await asyncio.gather(*(bot(p, i) for i, p in enumerate(players)))
    await check_invariants(service, game)
    state = (await folded(service.store, game)).state
    assert GAME.invariants(state) == []


async def test_the_audit_rederives_every_face_down_grab_from_the_revealed_seed(service):
    game = await new_game(service.store, ["ann", "bob"], vault=service.vault)
    await service.open_table(game)
    for player in ["ann", "bob", "ann", "bob", "ann"]:
        await service.play(game, player, move("grab_face_down"), None)
        await service.play(game, player, move("return_tile"), None)
    envelopes = await service.store.read(game_stream(game))
    assert "WarehouseShuffled" not in {e.type for e in envelopes}       # no order stored in advance
    seed = await service.vault.get(game)
    grabs = [e for e in envelopes if e.type == "ComponentGrabbed" and e.data["source"] == "face_down"]
    assert len(grabs) == 5
    for grab in grabs:   # each grab re-derived from (seed, counter before it) over the pile left then
        before = Folded([e for e in envelopes if e.seq < grab.seq])
        rng = FairRng(seed, start=before.draw_end)
        assert grab.data["component"] == draw_face_down(before.state.face_down, rng)
        assert grab.meta["draw_end"] == rng.used


async def test_every_command_in_the_stream_re_runs_through_the_rules_to_the_same_events(service):
    """The audit's check: from the seed alone, each recorded command gives exactly the stored events,
    through the end of building (the last finish, decided by the engine with chance) and beyond."""
    players = ["ann", "bob", "cy"]
    game = await new_game(service.store, players, {"reserve_in_round_1": True}, vault=service.vault)
    await service.open_table(game)
    rnd = random.Random(5)
    for _ in range(120):
        await random_move(service, game, rnd.choice(players), rnd)
    for player in players:   # everyone puts down what they hold and finishes
        seat = (await folded(service.store, game)).state.seats[player]
        spot = legal_spot(seat.ship, seat.hand) if seat.hand else None
        moves = [move("return_pile"), move("return_tile"), move("reserve"),
                 move("place", spot or (0, 0, 0)), move("finish", ("",))]
        for command in moves:
            try:
                await service.play(game, player, command, None)
            except Refused:
                pass
    envelopes = await service.store.read(game_stream(game))
    assert "BuildingEnded" in [e.type for e in envelopes]
    commands = assert_reruns_through_the_rules(envelopes, await service.vault.get(game))
    assert commands > 20
