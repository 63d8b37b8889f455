"""`make run` (python -m starbase_cli.run) on ports of its own: everything starts with its own
credentials and says where to connect; a person registers with a password, logs in, opens and fills a
table, plays a move through the API, follows the game on its socket with a single-use ticket, builds
on the Trucker socket with another; Ctrl-C stops everything."""
import asyncio
import json
import urllib.request

import httpx
import pytest
import websockets

from tests.support import sockets
from tests.support.make_run import make_run

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
WAIT = 30.0                 # a bound on a hang, not a timing assertion


class Person:
    """Someone at the lobby's HTTP API with an account of their own."""

    def __init__(self, http: httpx.AsyncClient, name: str):
        self.http, self.name, self.password = http, name, f"{name}'s own long password"
        self.player_id, self.auth = "", {}

    async def register_and_log_in(self) -> "Person":
        opened = await self.http.post("/players", json={"name": self.name, "password": self.password})
        assert opened.status_code == 201, opened.text
        session = await self.http.post("/sessions", json={"name": self.name, "password": self.password})
        assert session.status_code == 200, session.text
        body = session.json()
        self.player_id, self.auth = body["player_id"], {"Authorization": f"Bearer {body['access_token']}"}
        assert (await self.call("GET", "/players/me"))["name"] == self.name
        return self

    async def call(self, method: str, path: str, body: dict | None = None) -> dict:
        reply = await self.http.request(method, path, json=body, headers=self.auth)
        assert reply.status_code < 400, f"{method} {path}: {reply.status_code} {reply.text}"
        return reply.json()

    async def socket(self, url: str):
        """A WebSocket opened with a fresh ticket as its subprotocol (no token in the URL)."""
        ticket = await self.call("POST", "/tickets", {})
        socket = await websockets.connect(url, subprotocols=ticket["protocols"], max_size=2 ** 22)
        assert socket.subprotocol == "starbase.v1"
        return socket


async def start_table(host: Person, guest: Person, game: str) -> str:
    table_id = (await host.call("POST", "/tables", {"game": game, "seats": 2}))["table_id"]
    await guest.call("POST", f"/tables/{table_id}/join")
    for person in (host, guest):
        await person.call("POST", f"/tables/{table_id}/ready")
    return (await host.call("POST", f"/tables/{table_id}/start"))["game_id"]


async def received(socket) -> dict:
    return json.loads(await asyncio.wait_for(socket.recv(), WAIT))


async def lobby_received(socket) -> dict:
    """The lobby's sockets speak protocol 1 (docs/asyncapi.yaml), checked on every message."""
    return sockets.parse(await asyncio.wait_for(socket.recv(), WAIT))


async def until(socket, found) -> dict:
    while not found(message := await lobby_received(socket)):
        pass
    return message


async def play_as_people_do(base: str) -> None:
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        ann, bob = [await Person(http, name).register_and_log_in() for name in ("ann", "bob")]

        game_id = await start_table(ann, bob, "moon21")
        socket = await ann.socket(f"{ws_base}/games/{game_id}/ws?after=0")
        await sockets.welcome(socket)                      # socket protocol 1: a welcome, then events
        assert sockets.event_of(await lobby_received(socket))["seq"] == 1
        for person in (ann, bob):               # whoever may act makes a legal move, through the API
            if actions := await person.call("GET", f"/games/{game_id}/actions"):
                played = await person.call("POST", f"/games/{game_id}/commands",
                                           {"command": actions[0], "command_id": f"{person.name}-1"})
                break
        else:
            raise AssertionError("nobody may act in a fresh 21Moon game")
        last = played["events"][-1]["seq"]
        await until(socket, lambda m: m["kind"] == "event" and sockets.event_of(m)["seq"] == last)
        await socket.close()

        truck_id = await start_table(ann, bob, "trucker")
        url = (await ann.call("GET", f"/tables/{truck_id}"))["realtime_url"]
        building = await bob.socket(url)
        assert (await received(building))["you"] == bob.player_id
        await building.close()


async def test_run_starts_everything_a_person_plays_with_an_account_and_ctrl_c_stops_it(tmp_path):
    with make_run(tmp_path / "run") as run:
        ports, text = run.ports, run.text
        base = f"http://127.0.0.1:{ports['LOBBY_PORT']}"
        assert base in text and f"ws://127.0.0.1:{ports['TRUCKER_PORT']}" in text, text
        for name in ("adjudicator", "scoring", "NATS", "Redis", "starbase admin create-admin"):
            assert name in text, text
        with urllib.request.urlopen(f"{base}/readyz", timeout=10) as reply:
            assert json.load(reply) == {"status": "ready"}
        await play_as_people_do(base)
    assert run.returncode == 0, text + run.rest
    assert run.rest.strip().endswith("Stopped."), run.rest
    assert (tmp_path / "run" / "credentials" / "lobby_secret").exists()
