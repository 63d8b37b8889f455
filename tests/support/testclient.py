"""Test clients: each player talks to the lobby over HTTP and one WebSocket only.

A `Client` keeps a live WebSocket on its game and records every event it receives, in order. It can be
cut off (`drop`) and reconnect from the last seq it saw, like a browser after a network blip. A `Bot`
folds the events its client received into a state with the engine (the test process may import the
engine to choose moves) and picks the engine bot's move; every move still goes over HTTP.
"""
from __future__ import annotations

import asyncio
import random

import websockets

from tests.support import sockets
from tests.support.stack import ApiPlayer
from starbase_core.gamestream import PLATFORM_TYPES


class Client:
    def __init__(self, ws_base: str, game_id: str, player: ApiPlayer | None = None):
        self.ws_base, self.game_id, self.player = ws_base, game_id, player
        self.events: list[dict] = []
        self.connections = 0
        self._arrived = asyncio.Condition()
        self._task: asyncio.Task | None = None

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    async def connect(self) -> None:
        url = f"{self.ws_base}/games/{self.game_id}/ws?after={self.last_seq}"
        socket = await (self.player.connect(url) if self.player else websockets.connect(url))
        self.connections += 1
        self._task = asyncio.create_task(self._receive(socket))

    async def _receive(self, socket) -> None:
        try:
            await sockets.welcome(socket)
            async for raw in socket:
                message = sockets.parse(raw)
                if message["kind"] != "event":
                    raise AssertionError(f"the lobby refused the socket: {message}")
                async with self._arrived:
                    self.events.append(sockets.event_of(message))
                    self._arrived.notify_all()
        except websockets.ConnectionClosed:
            pass                    # the server went away (shutdown): the test decides what that means
        finally:
            await socket.close()

    async def drop(self) -> None:
        """Cut the connection as a network failure would (the server is not asked)."""
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def wait_for(self, seq: int, timeout: float = 30) -> None:
        async with self._arrived:
            await asyncio.wait_for(self._arrived.wait_for(lambda: self.last_seq >= seq), timeout)

    async def close(self) -> None:
        if self._task is not None:
            await self.drop()


class Bot:
    """Chooses moves from what its client saw over the WebSocket, with the engine's own bot."""

    def __init__(self, engine, client: Client, seed: int):
        self.engine, self.client = engine, client
        self.state = engine.initial_state()
        self.folded = 0
        self.rnd = random.Random(seed)

    def catch_up(self):
        for event in self.client.events[self.folded:]:
            if event["type"] not in PLATFORM_TYPES:
                self.state = self.engine.evolve(self.state, self.engine.parse_event(event["data"]))
            self.folded += 1
        return self.state

    def to_act(self) -> list[str]:
        return self.engine.to_act(self.catch_up())

    def move(self, player: str) -> dict:
        """The engine bot's move for `player` on this client's state (fine for games without hidden
        information, where every client's state is the whole state)."""
        command = self.engine.bot_command(self.catch_up(), player, self.rnd)
        return command.model_dump(mode="json")
