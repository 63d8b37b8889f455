"""The clients of a load run: live sockets that time every pushed event, and bots that choose moves.

A `Watcher` is one WebSocket on one game (a seated player's, or an anonymous spectator's). It records
when each event arrived, checks that seqs come one by one (a gap or a duplicate is an error the run
reports, never hides), and resumes from its last seq if the connection drops, as a browser would.

Two ways to choose a move, as real clients do:
- `EngineChooser` folds what the player's socket showed into the engine's state and asks the engine's
  bot. Only right when the pushed events are the whole truth, i.e. the game hides nothing from players.
- `ActionsChooser` asks the lobby for each seated player's legal actions (`GET /games/{id}/actions`)
  and picks one at random. Works for every game, hidden information or not, at the cost of those reads.
`full_information` tells which applies, by checking that the engine's own redaction of a sample setup
shows every player everything.

`LobbyHttp` is the generator's HTTP client: aiohttp, whose C parser costs this process about a tenth
of httpx's CPU per request (0.3 ms against 4.3 ms per command on the 2-core box, docs/load-testing.md).
The generator shares the cores with the services it measures, so every millisecond it spends is
capacity the figures do not show.
"""
from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Awaitable, Callable

import aiohttp

from starbase_core import tickets
from starbase_load.choosers import CannotFold, full_information  # noqa: F401  (loadgen takes them from here)
from starbase_load.choosers import EngineChooser as FoldingChooser
from starbase_rules.contract import Game

PROTOCOL_VERSION = 1        # the lobby's socket protocol (docs/asyncapi.yaml)
RECONNECTS = 5


class HttpFailed(Exception):
    """No HTTP answer at all (connection refused or dropped, timeout): `kind` names the cause."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class Reply:
    """An HTTP answer read whole: what the generator looks at (the same names as httpx's Response)."""

    __slots__ = ("status_code", "content", "method", "path", "_parsed")
    _UNPARSED: Any = object()

    def __init__(self, status_code: int, content: bytes, method: str, path: str):
        self.status_code, self.content, self.method, self.path = status_code, content, method, path
        self._parsed = self._UNPARSED

    def json(self) -> Any:
        """The body parsed once, however often asked."""
        if self._parsed is self._UNPARSED:
            self._parsed = json.loads(self.content)
        return self._parsed

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


class LobbyHttp:
    """Requests to one lobby over a pool of kept-alive connections (at most `connections` at once)."""

    def __init__(self, base_url: str, connections: int, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        # Idle connections are dropped after 4 s, before uvicorn's 5 s keep-alive would close them under
        # a request on its way (a reply that never comes, for a command that was maybe never read).
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=connections, keepalive_timeout=4.0),
            timeout=aiohttp.ClientTimeout(total=timeout))
        # The players' sockets (`Watcher`): connections of their own, open for the whole game, so no
        # pool limit and no total timeout (only the handshake's).
        self.sockets = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                             timeout=aiohttp.ClientTimeout(total=None, sock_connect=timeout))

    async def request(self, method: str, path: str, json: Any = None, headers: dict | None = None,
                      params: dict | None = None) -> Reply:
        try:
            async with self.session.request(method, self.base_url + path, json=json, headers=headers,
                                            params=params) as reply:
                return Reply(reply.status, await reply.read(), method, path)
        except (aiohttp.ClientError, asyncio.TimeoutError) as failed:
            raise HttpFailed(type(failed).__name__) from failed

    async def post(self, path: str, json: Any = None, headers: dict | None = None) -> Reply:
        return await self.request("POST", path, json=json, headers=headers)

    async def get(self, path: str, headers: dict | None = None, params: dict | None = None) -> Reply:
        return await self.request("GET", path, headers=headers, params=params)

    async def aclose(self) -> None:
        await self.session.close()
        await self.sockets.close()

    async def __aenter__(self) -> "LobbyHttp":
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.aclose()


class Watcher:
    """One live socket on a game; `events` are the pushed events (unwrapped), `arrivals[seq]` when
    (perf_counter) each arrived. Its socket is aiohttp's (`sockets`: a session of its own, not the
    HTTP pool), whose frame reader is compiled: a socket's CPU per push is the generator's own cost."""

    def __init__(self, url: str, error: Callable[[str], None],
                 ticket: Callable[[], Awaitable[str]] | None = None, *, sockets: aiohttp.ClientSession):
        # `ticket` fetches a fresh single-use socket ticket for each (re)connect; None: a spectator.
        self.url, self.error, self.ticket, self.sockets = url, error, ticket, sockets
        self.events: list[dict] = []
        self.arrivals: dict[int, float] = {}
        self.connections = 0
        self._waiting: list[tuple[int, asyncio.Future]] = []   # (seq, resolved once it has arrived)
        self._task: asyncio.Task | None = None
        self._closing = False
        self._socket = None                                     # the open socket, for moves
        self._answers: dict[str, asyncio.Future] = {}           # move id → its ack or error

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        for attempt in range(RECONNECTS + 1):
            if attempt:
                await asyncio.sleep(0.2 * attempt)
            try:
                joiner = "&" if "?" in self.url else "?"
                offered = tickets.subprotocols(await self.ticket()) if self.ticket else ()
                async with self.sockets.ws_connect(f"{self.url}{joiner}after={self.last_seq}", protocols=offered,
                                                   max_msg_size=2 ** 22, autoclose=True) as socket:
                    self.connections += 1
                    self._socket = socket
                    async for message in socket:
                        if message.type is aiohttp.WSMsgType.TEXT:
                            if not self._take(json.loads(message.data)):
                                return
                        elif message.type is aiohttp.WSMsgType.ERROR:
                            break
                    code = socket.close_code
            except (OSError, asyncio.TimeoutError, aiohttp.ClientError) as failed:
                if self._closing:
                    return
                self.error(f"socket failed ({type(failed).__name__}); resumed")
                continue
            finally:
                self._lost()        # whatever ended the socket (a refusal too): its moves go unanswered
            if self._closing:
                return
            if code in (1000, 1001):
                self.error("socket ended by the server; resumed")
            else:               # no close frame at all reads as 1006, as RFC 6455 names it
                self.error(f"socket closed by the server (code {code or 1006}); resumed")
        self.error("socket gave up after repeated failures")

    def _take(self, message: dict) -> bool:
        """One server message (protocol version 1, docs/asyncapi.yaml); False once the socket is refused."""
        now = time.perf_counter()
        kind = message.get("kind")
        if message.get("v") != PROTOCOL_VERSION:
            self.error("socket spoke another protocol version")
            return False
        if kind in ("welcome", "chat"):
            return True
        if kind in ("ack", "error") and message.get("id") in self._answers:
            answered = self._answers.pop(message["id"])
            if not answered.done():
                answered.set_result(message)
            return True
        if kind != "event":
            code = (message.get("error") or {}).get("code", "?")
            self.error(f"socket refused: {code}")
            return False
        message = message["event"]
        seq = message["seq"]
        if seq <= self.last_seq:
            self.error("pushed event duplicated")
            return True
        if seq != self.last_seq + 1:
            self.error("pushed events skipped a seq")
        self.events.append(message)
        self.arrivals[seq] = now
        if self._waiting:
            waiting = []
            for wanted, arrived in self._waiting:
                if wanted <= seq:
                    if not arrived.done():
                        arrived.set_result(True)
                else:
                    waiting.append((wanted, arrived))
            self._waiting = waiting
        return True

    async def wait_for(self, seq: int, timeout: float) -> bool:
        """True once this socket has seen `seq`; False if it has not within `timeout` seconds."""
        if self.last_seq >= seq:
            return True
        arrived = asyncio.get_running_loop().create_future()
        self._waiting.append((seq, arrived))
        try:
            return await asyncio.wait_for(arrived, timeout)
        except asyncio.TimeoutError:
            return False
        finally:
            self._waiting = [entry for entry in self._waiting if entry[1] is not arrived]

    async def move(self, move_id: str, command: dict, timeout: float) -> dict | None:
        """Send a move over this (player's) socket: its `ack` or `error` message, or None when the socket
        was not open or closed, or no answer came within `timeout` (resend with the same id: applied once)."""
        socket = self._socket
        if socket is None or socket.closed:
            return None
        answered = self._answers[move_id] = asyncio.get_running_loop().create_future()
        try:
            await socket.send_str(json.dumps({"v": PROTOCOL_VERSION, "kind": "move", "id": move_id,
                                              "command": command}))
            return await asyncio.wait_for(answered, timeout)
        except (OSError, asyncio.TimeoutError, aiohttp.ClientError, ConnectionError):
            return None
        finally:
            self._answers.pop(move_id, None)

    def _lost(self) -> None:
        """The socket closed: the moves waiting on it go unanswered (their senders resend)."""
        self._socket = None
        answers, self._answers = self._answers, {}
        for answered in answers.values():
            if not answered.done():
                answered.set_result(None)

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


class EngineChooser(FoldingChooser):
    """The engine's bot, on the state folded from one seated player's socket."""

    def __init__(self, engine: Game, watcher: Watcher, rnd: random.Random):
        super().__init__(engine, "", rnd)
        self.watcher = watcher

    def _catch_up(self):
        self.fold(self.watcher.events)
        return self.state

    def choose(self, players: list[str]) -> tuple[str, dict] | None:
        state = self._catch_up()
        actors = [player for player in self.engine.to_act(state) if player in players]
        if not actors:
            return None
        actor = self.rnd.choice(actors)
        command = self.engine.bot_command(state, actor, self.rnd)
        return None if command is None else (actor, command.model_dump(mode="json"))


class ActionsChooser:
    """A random legal action of a random player who has one, as the lobby lists them."""

    def __init__(self, http, game_id: str, auth: dict[str, dict], rnd: random.Random, count_read):
        self.http, self.game_id, self.auth, self.rnd, self.count_read = http, game_id, auth, rnd, count_read

    async def choose(self, players: list[str]) -> tuple[str, dict] | None:
        replies = await asyncio.gather(*(
            self.http.get(f"/games/{self.game_id}/actions", headers=self.auth[player]) for player in players))
        options = []
        for player, reply in zip(players, replies):
            self.count_read(reply.status_code)
            if reply.status_code == 200 and reply.json():
                options.append((player, reply.json()))
        if not options:
            return None
        player, actions = self.rnd.choice(options)
        return player, self.rnd.choice(actions)
