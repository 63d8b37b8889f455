"""THE end-to-end test: three players, only HTTP and WebSocket, a whole game played to its end by bots.

Given a running stack (real NATS JetStream, Redis, adjudicator over gRPC, lobby over HTTP, scoring),
when three players register, open and fill a table, and play it out (each move chosen by a bot from
what that player's WebSocket showed, or from its legal actions, and sent with POST),
then every client (the three players and an anonymous spectator) saw every event once and in order,
even though each was cut off mid-game and resumed from its last seq; nothing any of them read before
the end carried the seed; scoring shows the standings and new ratings; the audit passes, and fails
once an event is altered.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys

import pytest

from tests.support.testclient import Bot, Client
from tests.support.stack import ApiPlayer
from starbase_core.audit import PASS, audit_game
from starbase_rules.registry import get_game

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]


async def wait_until(check, what: str, timeout: float = 30):
    """Poll an HTTP read until it answers; failing only if it never does (not a timing assertion)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        if (value := await check()) is not None:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.05)


async def play_whole_game(stack, http, game: str, choose_by_state: bool, seed: int = 5):
    players = [await ApiPlayer.register(http, name) for name in ("ann", "bob", "cy")]
    host = players[0]
    table = await host.ok(host.post("/tables", {"game": game, "seats": 3}))
    for player in players[1:]:
        await player.ok(player.post(f"/tables/{table['table_id']}/join"))
    for player in players:
        await player.ok(player.post(f"/tables/{table['table_id']}/ready"))
    game_id = (await host.ok(host.post(f"/tables/{table['table_id']}/start")))["game_id"]

    engine = get_game(game)
    clients = [Client(stack.ws, game_id, p) for p in players]
    spectator = Client(stack.ws, game_id)
    for client in (*clients, spectator):
        await client.connect()
    bots = {p.player_id: Bot(engine, c, seed + i) for i, (p, c) in enumerate(zip(players, clients))}
    by_id = {p.player_id: p for p in players}
    rnd = random.Random(seed)
    views: list[dict] = []
    last_seq = (await host.ok(host.get(f"/games/{game_id}/log")))["last_seq"]
    commands, dropped = 0, {}

    while True:
        for client in (*clients, spectator):
            if client not in dropped.values():
                await client.wait_for(last_seq)
        # Forced reconnects: each client is cut off at its own moment and comes back two commands later.
        for index, client in enumerate((*clients, spectator)):
            if commands == 1 + index:
                await client.drop()
                dropped[commands + 2] = client
        if (client := dropped.pop(commands, None)) is not None:
            await client.connect()
            await client.wait_for(last_seq)
        if any(e["type"] == "GameEnded" for e in clients[0].events):
            break

        if choose_by_state:
            # A connected client's state is current (a dropped one lags until it resumes).
            bot = next(bots[p.player_id] for p, c in zip(players, clients) if c not in dropped.values())
            actor = rnd.choice(bot.to_act())
            command = bot.move(actor)
        else:
            options = {p.player_id: await p.ok(p.get(f"/games/{game_id}/actions")) for p in players}
            actor = rnd.choice([pid for pid, actions in options.items() if actions])
            command = rnd.choice(options[actor])
            if commands < 8 and {"type": "Think"} in options[actor]:
                command = {"type": "Think"}     # a legal no-op: the game lasts past every reconnect
        player = by_id[actor]
        views.append(await player.ok(player.get(f"/games/{game_id}/view")))
        reply = await player.ok(player.post(f"/games/{game_id}/commands",
                                            {"command": command, "command_id": f"move-{commands}"}))
        last_seq = max([e["seq"] for e in reply["events"]] + [last_seq])
        commands += 1
        assert commands < 2000, "the game did not end"

    for client in dropped.values():
        await client.connect()
    return game_id, players, clients, spectator, views, commands


async def check_game(stack, http, game: str, choose_by_state: bool):
    game_id, players, clients, spectator, views, commands = await play_whole_game(
        stack, http, game, choose_by_state)
    stored = await stack.store.read(f"game.{game_id}")
    final = stored[-1]
    assert final.type == "GameEnded"

    # Every client saw every event, once, in order, despite its reconnect.
    for client in (*clients, spectator):
        await client.wait_for(final.seq)
        assert client.connections == 2
        assert [e["seq"] for e in client.events] == list(range(1, final.seq + 1))
        assert [e["type"] for e in client.events if e["type"] != "Hidden"] == \
               [s.type for s, e in zip(stored, client.events) if e["type"] != "Hidden"]

    # Nothing anyone read before the end carried the seed (it is revealed by GameEnded itself).
    seed = final.data["seed"]
    assert all(seed not in json.dumps(view) for view in views)
    for client in (*clients, spectator):
        assert all(seed not in json.dumps(e) for e in client.events[:-1])

    # Scoring: the standings and a new rating for everyone.
    viewer = players[0]
    result = await wait_until(
        lambda: _json_or_none(viewer.get(f"/games/{game_id}/result")), "the game's result")
    assert result["standings"] == final.data["standings"]
    board = await viewer.ok(viewer.get(f"/leaderboards/{game}"))
    assert sorted(e["player_id"] for e in board["entries"]) == sorted(p.player_id for p in players)
    assert all(e["games"] == 1 for e in board["entries"])
    winner = next(s["player"] for s in final.data["standings"] if s["rank"] == 1)
    history = await viewer.ok(viewer.get(f"/players/{winner}/history"))
    assert history["games"][0]["rating_after"]["mu"] > history["games"][0]["rating_before"]["mu"]
    assert history["name"] == next(p.name for p in players if p.player_id == winner)
    table = await wait_until(lambda: _finished_table(viewer, game_id), "the table to show the game finished")
    assert table["standings"] == final.data["standings"]
    return game_id, stored


async def _json_or_none(call):
    reply = await call
    return reply.json() if reply.status_code == 200 else None


async def _finished_table(player, table_id):
    table = (await player.get(f"/tables/{table_id}")).json()
    return table if table["status"] == "finished" else None


def altered(stored):
    """The same stream with one event's data changed, as a tamperer would."""
    index = len(stored) // 2
    victim = stored[index]
    return stored[:index] + [victim.model_copy(update={"data": {**victim.data, "tampered": True}})] + stored[index + 1:]


async def test_a_testjack_game_with_hidden_cards_runs_end_to_end(stack, http):
    game_id, stored = await check_game(stack, http, "testjack", choose_by_state=False)
    assert audit_game(game_id, stored, get_game).verdict == PASS
    assert audit_game(game_id, altered(stored), get_game).verdict != PASS


async def test_a_21moon_game_runs_end_to_end_and_starbase_audit_passes(stack, http, tmp_path):
    game_id, stored = await check_game(stack, http, "moon21", choose_by_state=True)
    source = ["--nats-url", stack.settings.nats_url, "--event-stream", stack.settings.event_stream,
              "--subject-prefix", stack.settings.event_subject_prefix]
    audit = _starbase("audit", game_id, *source)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    export = tmp_path / "game.jsonl"
    assert _starbase("export", game_id, *source, "-o", str(export)).returncode == 0
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(e.model_dump_json() + "\n" for e in altered(stored)))
    assert _starbase("audit", game_id, "--file", str(tampered)).returncode == 1


def _starbase(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "starbase_cli.main", *args], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))
