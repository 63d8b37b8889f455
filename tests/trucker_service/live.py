"""Running the real service for socket tests: in this process (uvicorn) or as a child process, and a
small WebSocket client that records everything it receives."""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
from contextlib import asynccontextmanager

import httpx
import uvicorn
import websockets

from starbase_core.servers import free_port

from trucker.api import create_app
from trucker.settings import TruckerSettings


def settings_for(nats_url: str, redis_url: str, namespace: str, **overrides) -> TruckerSettings:
    values = dict(nats_url=nats_url, redis_url=redis_url, event_stream=f"T_{namespace}",
                  event_subject_prefix=namespace, trucker_bus_prefix=namespace, trucker_port=free_port(),
                  seed_bucket=f"secrets_{namespace}",
                  trucker_trust_player_param=True, trucker_clock_interval=0.05, log_json=False,
                  # `?player=` and an open NATS are for tests only: a child process must be told so.
                  insecure_dev_mode=True, metrics_port=0,
                  # Tests play as fast as the service answers, far past a person's pace: a flood limit of
                  # its own is tested where it is meant to bite (test_sockets.py).
                  trucker_socket_messages_per_second=10_000, trucker_socket_message_burst=10_000)
    values.update(overrides)
    return TruckerSettings(**values)


@asynccontextmanager
async def in_process(settings: TruckerSettings):
    """The service on a free port of this process; yields its base URL (ws://…)."""
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=settings.trucker_port,
                            log_level="warning", ws_max_size=65536, lifespan="on",
                            ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    try:
        yield f"ws://127.0.0.1:{settings.trucker_port}"
    finally:
        server.should_exit = True
        await task


@asynccontextmanager
async def beside_the_lobby(stack, nats_url: str, redis_url: str, namespace: str, **overrides):
    """The service in this process on a local stack's store, seed vault and Redis, with the stack's
    lobby pointing its players at it (`trucker_public_url`); yields its base URL."""
    settings = settings_for(nats_url, redis_url, namespace, event_stream=stack.settings.event_stream,
                            event_subject_prefix=stack.settings.event_subject_prefix,
                            seed_bucket=f"seeds{namespace}", trucker_trust_player_param=False,
                            trucker_bus_prefix=f"tr{namespace}", **overrides)
    async with in_process(settings) as base:
        stack.runtime.settings = stack.settings.model_copy(update={"trucker_public_url": base})
        yield base


class ChildService:
    """`python -m trucker` as a child process (so a test can SIGKILL it)."""

    def __init__(self, settings: TruckerSettings):
        self.settings = settings
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.settings.trucker_port}"

    async def start(self) -> "ChildService":
        env = {**os.environ, **{name.upper(): _env_value(value)
                                for name, value in self.settings.model_dump().items() if value is not None}}
        self.process = subprocess.Popen([sys.executable, "-m", "trucker"], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        async with httpx.AsyncClient() as client:
            for _ in range(300):
                if self.process.poll() is not None:
                    raise RuntimeError(f"the trucker service exited with {self.process.returncode}")
                try:
                    answer = await client.get(f"http://127.0.0.1:{self.settings.trucker_port}/readyz")
                    if answer.status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
        self.stop()
        raise RuntimeError("the trucker service did not become ready")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _env_value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class Client:
    """One socket at a table. `received` keeps every message, in order, for the leak checks."""

    _ids = itertools.count(1)

    def __init__(self, socket, welcome: dict):
        self.socket, self.welcome = socket, welcome
        self.received: list[dict] = [welcome]
        self.answers: dict[str, dict] = {}
        self.events: list[dict] = []
        self._waiters: dict[str, asyncio.Future] = {}
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, base: str, game: str, player: str | None = None, query: str = "") -> "Client":
        url = f"{base}/tables/{game}/ws" + (f"?player={player}" if player else "") + query
        socket = await websockets.connect(url, max_size=2**22)
        welcome = json.loads(await socket.recv())
        return cls(socket, welcome)

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                self.received.append(message)
                if message["kind"] == "event":
                    self.events.append(message["event"])
                elif message.get("id") is not None:
                    self.answers[message["id"]] = message
                    if (waiter := self._waiters.pop(message["id"], None)) and not waiter.done():
                        waiter.set_result(message)
        except websockets.ConnectionClosed:
            pass
        for waiter in self._waiters.values():   # moves in flight when the socket died get no answer
            if not waiter.done():
                waiter.set_exception(ConnectionError("the socket closed before the answer"))
        self._waiters.clear()

    async def send(self, op: str, message_id: str | None = None, **fields) -> dict:
        """Send a move and wait for its answer (an ack or a refusal)."""
        message_id = message_id or f"m{next(self._ids)}"
        if self._reader.done():
            raise ConnectionError("the socket is closed")
        waiter = self._waiters[message_id] = asyncio.get_running_loop().create_future()
        await self.socket.send(json.dumps({"v": 1, "kind": "move", "id": message_id, "op": op, **fields}))
        return await asyncio.wait_for(waiter, 30)

    async def send_command(self, command: dict) -> dict:
        """Send one of the rules engine's commands (as `legal_actions` lists it) and wait for its answer."""
        message_id = f"c{next(self._ids)}"
        if self._reader.done():
            raise ConnectionError("the socket is closed")
        waiter = self._waiters[message_id] = asyncio.get_running_loop().create_future()
        await self.socket.send(json.dumps({"v": 1, "kind": "move", "id": message_id, "command": command}))
        return await asyncio.wait_for(waiter, 30)

    async def send_raw(self, raw: str | bytes) -> dict:
        before = len(self.received)
        await self.socket.send(raw)
        for _ in range(3000):
            for message in self.received[before:]:
                if message["kind"] in ("error", "ack"):
                    return message
            await asyncio.sleep(0.01)
        raise AssertionError("no answer")

    async def wait_for_seq(self, seq: int) -> None:
        for _ in range(3000):
            if self.events and self.events[-1]["seq"] >= seq or self.welcome["seq"] >= seq:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"event {seq} never arrived (last {self.events[-1:]})")

    async def wait_for_event(self, seq: int) -> None:
        """Until this socket has been sent the event `seq` itself (a welcome past it does not count)."""
        for _ in range(3000):
            if self.events and self.events[-1]["seq"] >= seq:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"event {seq} never arrived (last {self.events[-1:]})")

    async def close(self) -> None:
        await self.socket.close()
        await self._reader
