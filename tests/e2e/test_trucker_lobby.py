"""Trucker through the lobby: a table created, joined and started like any other game; its view names
the trucker service's WebSocket (TRUCKER_PUBLIC_URL) where the players build with single-use lobby tickets;
the lobby's turn-based route refuses building moves (the adjudicator is not the writer while building).

Given the local stack (real NATS, Redis, adjudicator over gRPC, lobby over HTTP) and the trucker service
on the same event store, seed vault and Redis (where the lobby keeps its tickets), when two players
start a Trucker table, then each connects to the URL the table gives, is recognised by their ticket,
and their moves land in the game's stream under their player ids.
"""
from __future__ import annotations

import json

import httpx
import pytest
import websockets

from starbase_core import tickets

from lobby.config import load_settings
from tests.support.stack import ApiPlayer, local_stack, seat_and_start
from starbase_core.gamestream import game_stream

from tests.trucker_service.live import Client, beside_the_lobby

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def test_the_lobby_reads_where_the_trucker_service_is_from_the_environment(monkeypatch):
    monkeypatch.setenv("TRUCKER_PUBLIC_URL", "wss://play.example.org/trucker")
    assert load_settings().trucker_public_url == "wss://play.example.org/trucker"


@pytest.fixture
async def stack(nats_url, redis_url, namespace):
    async with local_stack(nats_url, redis_url, namespace, scoring=False) as running:
        yield running


@pytest.fixture
async def trucker(stack, nats_url, redis_url, namespace):
    """The trucker service on the stack's store, seed vault and Redis; the lobby points at it."""
    async with beside_the_lobby(stack, nats_url, redis_url, namespace) as base:
        yield base


async def connect(url: str, player: ApiPlayer | None = None, offered: list[str] | None = None) -> Client:
    """A socket on the Trucker service, as `player` (a lobby ticket as its subprotocol) or a spectator."""
    if player is not None:
        offered = tickets.subprotocols(await player.ticket())
    socket = await websockets.connect(url, subprotocols=offered, max_size=2**22)
    return Client(socket, json.loads(await socket.recv()))


async def test_a_trucker_table_starts_in_the_lobby_and_its_players_build_on_the_url_it_gives(stack, trucker):
    async with httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
        ann, bob = [await ApiPlayer.register(http, name) for name in ("ann", "bob")]
        game_id = await seat_and_start([ann, bob], "trucker")
        table = await ann.ok(ann.get(f"/tables/{game_id}"))
        assert table["game"] == "trucker" and table["status"] == "playing"
        url = table["realtime_url"]
        assert url == f"{trucker}/tables/{game_id}/ws"

        players = {p.player_id: await connect(url, p) for p in (ann, bob)}
        watcher = await connect(url)
        assert [c.welcome["you"] for c in players.values()] == [ann.player_id, bob.player_id]
        assert watcher.welcome["you"] is None and watcher.welcome["view"]["timer"]["started"]
        answer = await players[ann.player_id].send("grab_face_down")
        assert answer["kind"] == "ack"
        assert (await watcher.send("grab_face_down"))["error"]["code"] == "NOT_A_PLAYER"
        forged = await connect(url, offered=tickets.subprotocols("not-a-lobby-ticket"))
        assert forged.welcome["error"]["code"] == "BAD_TICKET"

        # The lobby's turn-based route hands commands to the adjudicator, which refuses while building.
        refused = await bob.post(f"/games/{game_id}/commands", {"command": {"type": "GrabFaceDown"}})
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "REALTIME_PHASE"

        stored = await stack.store.read(game_stream(game_id))
        grabbed = [e for e in stored if e.type == "ComponentGrabbed"]
        assert [(e.actor, e.data["player"]) for e in grabbed] == [(ann.player_id, ann.player_id)]
        assert stored[-1].seq == answer["seq"]                                 # nothing else was appended

        # Another game's table names no real-time service.
        other = await seat_and_start([ann, bob], "testjack")
        assert (await ann.ok(ann.get(f"/tables/{other}")))["realtime_url"] is None
        for client in (*players.values(), watcher, forged):
            await client.close()
