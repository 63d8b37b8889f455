"""Every turn-based engine plays through the lobby, and what players and spectators read hides its secrets.

Given a running stack and a table of three players of the game (and a spectator),
when the players make a dozen bot moves over HTTP (each a legal action the lobby listed),
then every pushed event, view, action list and log page that a player or the spectator received is
free of the game's seed (kept behind the API in the seed vault) and of the game's hidden information:
- Stellar Ventures: face-down alien tiles and shipyard tiles (their chevrons), the boxed agreement
  tiles, and the order of the face-down power pile;
- 2038: the undrawn asteroid tiles: the pool is shown only as a count (draws come from the seed, so
  without the seed no one can tell which tile comes next);
- 21Moon hides nothing from players, so a player and a spectator receive the very same events.
"""
from __future__ import annotations

import asyncio
import base64
import json
import random

import pytest

from tests.support import sockets
from tests.support.stack import seat_and_start
from starbase_core.gamestream import replay
from starbase_core.seeds import JetStreamSeedVault
from starbase_rules.registry import get_game

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]
MOVES = 12


async def listen(url: str, who, into: list) -> None:
    async with await who.connect(url) as socket:
        await sockets.welcome(socket)
        async for raw in socket:
            into.append(sockets.event_of(sockets.parse(raw)))


async def play_a_few_moves(stack, register, game: str):
    ann, bob, cy, eve = [await register(name) for name in ("ann", "bob", "cy", "eve")]
    players = [ann, bob, cy]
    game_id = await seat_and_start(players, game)
    await eve.ok(eve.post(f"/tables/{game_id}/spectate"))
    pushed = {"player": [], "spectator": []}
    listeners = [asyncio.create_task(listen(f"{stack.ws}/games/{game_id}/ws", who, pushed[role]))
                 for role, who in (("player", ann), ("spectator", eve))]
    read = {"player": [], "spectator": []}
    rnd = random.Random(7)
    for _ in range(MOVES):
        options = {p: await p.ok(p.get(f"/games/{game_id}/actions")) for p in players}
        read["player"].append(options[ann])
        mover = rnd.choice([p for p, actions in options.items() if actions])
        await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": rnd.choice(options[mover])}))
        for role, who in (("player", ann), ("spectator", eve)):
            read[role].append(await who.ok(who.get(f"/games/{game_id}/view")))
            read[role].append(await who.ok(who.get(f"/games/{game_id}/log", limit=1000)))

    stored = await stack.store.read(f"game.{game_id}")
    for _ in range(600):          # gives up after ~30 s: the sockets must get every stored event
        if all(len(events) >= len(stored) for events in pushed.values()):
            break
        await asyncio.sleep(0.05)
    for listener in listeners:
        listener.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    return game_id, stored, pushed, read


async def check_common(stack, namespace, game_id, stored, pushed, read) -> None:
    """The seed stays behind the API, no pushed event carries hashes or meta, no seq is skipped."""
    assert stored[-1].type != "GameEnded"           # the game is still on: nothing may be revealed yet
    vault = await JetStreamSeedVault(stack.store._nc, f"seeds{namespace}").ensure()
    seed = await vault.get(game_id)
    assert seed is not None
    secrets = (seed.hex(), base64.b64encode(seed).decode(), base64.urlsafe_b64encode(seed).decode().rstrip("="))
    for role in ("player", "spectator"):
        assert [e["seq"] for e in pushed[role]] == list(range(1, len(stored) + 1))
        assert not any("hash" in e or "meta" in e for e in pushed[role])
        for text in map(json.dumps, pushed[role] + read[role]):
            assert not any(secret in text for secret in secrets), role


def texts(pushed: dict, read: dict) -> list[str]:
    return [json.dumps(item, sort_keys=True) for role in ("player", "spectator") for item in pushed[role] + read[role]]


def final_view(read: dict, role: str) -> dict:
    return [item for item in read[role] if isinstance(item, dict) and "view" in item][-1]["view"]


def pairs(item):
    """Every (key, value) of every dict inside a JSON value."""
    if isinstance(item, dict):
        for key, value in item.items():
            yield key, value
            yield from pairs(value)
    elif isinstance(item, list):
        for value in item:
            yield from pairs(value)


async def test_stellar_plays_through_the_lobby_and_face_down_tiles_stay_hidden(stack, register, namespace):
    game_id, stored, pushed, read = await play_a_few_moves(stack, register, "stellar")
    await check_common(stack, namespace, game_id, stored, pushed, read)
    state = replay(game_id, stored, get_game).state        # the whole truth, read behind the API
    assert state.alien_tiles and state.powers_pile and state.boxed_tiles and state.shipyard_tiles

    for role in ("player", "spectator"):
        setup = next(e for e in pushed[role] if e["type"] == "GameSetUp")["data"]
        assert set(setup["alien_tiles"].values()) == {None}
        assert set(setup["shipyard_tiles"].values()) == {None}
        assert isinstance(setup["boxed_tiles"], int) and isinstance(setup["powers_pile"], int)
        view = final_view(read, role)
        assert view["face_down_alien_tiles"] == sorted(state.alien_tiles)      # where, never what
        assert view["powers_pile"] == len(state.powers_pile)
        assert view["boxed_tiles"] == len(state.boxed_tiles)
        for event in pushed[role]:
            if event["type"] == "NebulaConverted":
                assert event["data"]["chevrons"] is None and event["data"]["tile_index"] is None
    # No dict anywhere pairs a face-down hex with its chevrons; the pile's order appears nowhere.
    for text in texts(pushed, read):
        leaked = [(k, v) for k, v in pairs(json.loads(text)) if state.alien_tiles.get(k, object()) == v]
        assert leaked == []
        assert json.dumps(state.powers_pile[:2]) not in text


async def test_t2038_plays_through_the_lobby_and_the_undrawn_tiles_stay_hidden(stack, register, namespace):
    game_id, stored, pushed, read = await play_a_few_moves(stack, register, "t2038")
    await check_common(stack, namespace, game_id, stored, pushed, read)
    state = replay(game_id, stored, get_game).state
    assert len(state.pool) > 1

    for role in ("player", "spectator"):
        assert final_view(read, role)["pool"] == len(state.pool)              # a count, not the tiles
        assert not any("pool" in (e["data"] or {}) for e in pushed[role])
    for text in texts(pushed, read):
        assert json.dumps(sorted(state.pool)) not in text


async def test_moon21_plays_through_the_lobby_and_hides_nothing_but_the_seed(stack, register, namespace):
    game_id, stored, pushed, read = await play_a_few_moves(stack, register, "moon21")
    await check_common(stack, namespace, game_id, stored, pushed, read)
    assert len(stored) > MOVES
    # 21Moon has no hidden information: a seated player and a spectator receive the same events.
    assert pushed["player"] == pushed["spectator"]
    assert [e["type"] for e in pushed["player"]] == [e.type for e in stored]
    # Pushed events and the log (HTTP) both say which events the platform wrote.
    log = [item for item in read["spectator"] if isinstance(item, dict) and "events" in item][-1]["events"]
    for shown in (pushed["player"], log):
        assert [e["platform"] for e in shown] == [e.meta.get("platform") is True for e in stored[:len(shown)]]
    assert log[0]["type"] == "GameCreated" and log[0]["platform"] is True
