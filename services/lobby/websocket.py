"""Live events over WebSocket: `/games/{id}/ws` and `/tables/{id}/ws`, protocol version 1 (docs/asyncapi.yaml).

    ws://host/games/<id>/ws?after=<last seq seen>      Sec-WebSocket-Protocol: starbase.v1, ticket.<ticket>

Who you are comes from a single-use ticket (`POST /tickets`) offered as a subprotocol, never from the
URL: a `?token=` is refused (TOKEN_IN_URL), so tokens stay out of every access log. Without a ticket
you watch as an anonymous spectator of a public game. The server answers with the subprotocol
`starbase.v1`.

Every message is one JSON object `{"v": 1, "kind": ...}`:

    {"v": 1, "kind": "welcome", "stream": "game.<id>", "you": <player id or null>, "seq": <last seq now>}
    {"v": 1, "kind": "event", "event": {stream, seq, type, data, actor, time[, platform]}}
    {"v": 1, "kind": "chat", "chat": {id, table_id, player_id, name, text, time}}      (table sockets)
    {"v": 1, "kind": "error", "id": null, "error": {code, message}}, then a close with 4000 + HTTP status

The welcome comes first; then every event past `after`, in seq order, each redacted for the caller (a
seated player sees their own hidden cards; everyone else is a spectator), then live ones. After a
reconnect the client sends the last `seq` it saw as `after` and misses nothing. A table's socket also
forwards its chat as it is posted (read what you missed with `GET /tables/{id}/chat?after=`). A reader
too slow to keep up is closed with 4408 and resumes from its last seq. A ban or "log out everywhere"
closes the account's sockets (4403, 4401). A player's game socket also takes their moves, each
answered `ack` or `error` with its id (`socket_moves.py`), as `POST /games/{id}/commands` would.

Served as plain ASGI from the app's outermost layer (`socketgate.py`): no HTTP middleware, no
dependency solving, and, once a socket is caught up, nothing of it waits but the server's own task in
`receive`; the feed writes its events (`Feed.catch_up`) and a `Socket` of a few slots holds its state.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Coroutine, Mapping
from urllib.parse import parse_qsl

import structlog
from prometheus_client import Gauge

from starbase_core import tickets
from starbase_core.supervise import cancel_and_wait

from lobby.channel import GAP, SLOW, Sink
from lobby.exceptions import InvalidToken, LobbyError
from lobby.feed import SlowConsumer
from lobby.games import Watch
from lobby.loop.pushes import NOTIFY_VALUES, attend
from starbase_core.outlet import Outlet, frame
from lobby.router import MAX_POSITION
from lobby.sockets import ChatRooms, Heartbeats
from lobby.socket_moves import Closing, Mover, mover_for, refused
from lobby.wire import message, text

log = structlog.get_logger(__name__)
SOCKETS = Gauge("lobby_websockets", "Open WebSockets")
CLOSE_TOO_SLOW = 4408           # 4000 + 408: the reader fell behind; it resumes with ?after=
CLOSE_FAILED = 1011


@dataclass(frozen=True)
class Opened:
    """A socket that passed its checks: what its welcome says, and the events to send after it."""
    stream: str
    you: str | None
    seq: int
    watch: Watch                        # what to push after the welcome


class Caller:
    def __init__(self, who, granted_game: str | None, address: str, protocol: str | None):
        self.who, self.granted_game, self.address, self.protocol = who, granted_game, address, protocol

    @property
    def player(self) -> str | None:
        return self.who.player_id if self.who else None


def route(scope: dict) -> dict[str, str] | None:
    """The path parameters when `scope` is one of the two socket routes, else None (as Starlette matches
    `/games/{game_id}/ws`: one non-empty segment, after the root path)."""
    path, root = scope["path"], scope.get("root_path", "")
    if root and path.startswith(root + "/"):
        path = path[len(root):]
    parts = path.split("/")
    if len(parts) != 4 or parts[0] or parts[3] != "ws" or not parts[2]:
        return None
    if parts[1] == "games":
        return {"game_id": parts[2]}
    if parts[1] == "tables":
        return {"table_id": parts[2]}
    return None


class Socket:
    """One open socket, as the feed, the account registry and the chat relay see it. After its
    catch-up no task of its own runs: the feed calls `demoted` when it stops writing to it."""
    __slots__ = ("outlet", "feed", "watch", "path", "sink", "work")

    def __init__(self, send, feed, watch: Watch, path: str):
        self.outlet, self.feed, self.watch, self.path = Outlet.of(send), feed, watch, path
        self.sink: Sink | None = None
        self.work: set[asyncio.Task] | None = None        # side tasks, when it has any

    async def send_payload(self, payload: dict) -> None:
        await self.outlet.send(text(payload))

    async def send_text(self, said: str) -> None:
        if not self.outlet.write_text(said):      # written at once unless the server's send would wait
            await self.outlet.send(said)

    async def send_answer(self, said: str) -> None:
        """A move's answer: with the push of its events when the feed writes them in this loop turn."""
        if not self.outlet.write_text_soon(said):
            await self.outlet.send(said)

    async def close(self, code: int, reason: str = "") -> None:
        """Close the socket; the server then tells its `receive`, which ends it (`Sockets.serve`)."""
        await self.outlet.close(code, reason)

    async def catch_up(self, after: int, lead: bytes = b"") -> None:
        """Through the feed until caught up; from then on the feed writes to it (`demoted` when not)."""
        watch = self.watch
        self.sink = await self.feed.catch_up(watch.stream, after, watch.view, watch.encode, self.outlet,
                                             self.demoted, lead, alike=watch.alike)

    def leave_feed(self) -> None:
        if self.sink is not None:
            self.feed.leave(self.sink)
            self.sink = None

    def demoted(self, sink: Sink, reason: str) -> None:
        """The feed stopped writing to this socket: after a gap it catches up from the store and joins
        again; too slow, it is closed with 4408; gone, its `receive` already knows."""
        if self.sink is sink:
            self.sink = None
        if reason == GAP:
            self.spawn(self.catch_up(sink.last))
        elif reason == SLOW:
            self.spawn(self.close_quietly(CLOSE_TOO_SLOW, f"its reader fell behind on {self.watch.stream}"[:120]))

    def spawn(self, work: Coroutine) -> None:
        task = asyncio.get_running_loop().create_task(work)
        if self.work is None:
            self.work = set()
        self.work.add(task)
        task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task) -> None:
        """A side task that fails ends the socket, with the code the socket's own failure would have."""
        if self.work is not None:
            self.work.discard(task)
        if task.cancelled() or (error := task.exception()) is None or isinstance(error, (OSError, RuntimeError)):
            return                              # done, or the client went away mid-send: `receive` says so
        if isinstance(error, SlowConsumer):     # the client resumes from its last seq
            self.spawn(self.close_quietly(CLOSE_TOO_SLOW, str(error)[:120]))
            return
        log.error("websocket_failed", path=self.path, exc_info=error)  # e.g. the store stopped answering
        self.spawn(self.close_quietly(CLOSE_FAILED))

    async def close_quietly(self, code: int, reason: str = "") -> None:
        try:
            await self.close(code, reason)
        except Exception:                       # already closing
            pass


class Sockets:
    """The lobby's two socket routes, one ASGI handler for both (called by `socketgate.LobbyApp`)."""

    def __init__(self, runtime):
        self.runtime = runtime
        self.heartbeats, self.chats = Heartbeats(), ChatRooms()

    async def serve(self, scope: dict, receive, send, params: dict[str, str]) -> None:
        """One socket's life: checks, welcome, catch-up, then `receive` until it closes."""
        if (await receive())["type"] != "websocket.connect":
            return                                  # gone before its handshake
        runtime = self.runtime
        query = _query(scope.get("query_string", b""))
        opened = await self._open(scope, query, send, params)
        if opened is None:
            return
        caller, slot, opened = opened
        socket = Socket(send, runtime.feed, opened.watch, scope["path"])
        try:
            await send({"type": "websocket.accept", "subprotocol": caller.protocol})
        except OSError:                             # it left during its checks
            await slot.release()
            return
        socket.outlet.shed_handshake()
        scope["headers"] = ()           # read by the checks above only; kept for the socket's life otherwise
        SOCKETS.inc()
        player = caller.player
        runtime.sockets.add(player, socket)
        chat = runtime.personal.live_subject(params["table_id"]) if "table_id" in params else None
        mover = mover_for(runtime, caller.who, caller.address, params.get("game_id"))
        try:
            await self._start(socket, opened, player, slot, query.get("notify") in NOTIFY_VALUES, params, chat)
            caller = opened = query = None      # this frame lasts as long as the socket: keep only what it needs
            while True:
                received = await receive()
                # A binary message ends the socket, as reading it as text always did.
                if received["type"] == "websocket.disconnect" or (said := received.get("text")) is None:
                    break
                await _take_move(socket, mover, "game_id" in params, said)
                received = said = None          # not kept while the socket idles (up to 16 KiB each)
        except SlowConsumer as slow:
            await socket.close_quietly(CLOSE_TOO_SLOW, str(slow)[:120])   # the client resumes from its last seq
        except (OSError, RuntimeError):
            pass                        # the client went away mid-send
        except Exception:               # e.g. the store stopped answering: the client reconnects and resumes
            log.exception("websocket_failed", path=scope["path"])
            await socket.close_quietly(CLOSE_FAILED)
        finally:
            socket.leave_feed()         # first: no demotion may start a catch-up while the rest is stopped
            if socket.work:
                await cancel_and_wait(list(socket.work))
            socket.leave_feed()         # a catch-up that joined again just before it was stopped
            if chat is not None:
                await self.chats.leave(chat, socket)
            self.heartbeats.discard(slot)
            runtime.sockets.remove(player, socket)
            await slot.release()
            SOCKETS.dec()

    async def _start(self, socket: Socket, opened: Opened, player: str | None, slot, notify: bool,
                     params: dict[str, str], chat: str | None) -> None:
        """The welcome, what the socket missed, and its side work, if any."""
        runtime = self.runtime
        welcome = _welcome(opened.stream, opened.you, opened.seq)
        if socket.outlet.direct and chat is None:
            await socket.catch_up(opened.watch.after, lead=frame(welcome))  # one write: welcome and backlog
        elif socket.outlet.direct:
            socket.outlet.write(frame(welcome))     # refused only when closing: `receive` says so
            await self.chats.enter(runtime.nc, chat, socket)
            await socket.catch_up(opened.watch.after)
        else:                                   # any other server: a task serves the feed
            await socket.outlet.send(welcome)
            if chat is not None:
                await self.chats.enter(runtime.nc, chat, socket)
            watch = opened.watch
            socket.spawn(runtime.feed.serve(watch.stream, watch.after, watch.view, watch.encode, socket.outlet,
                                            alike=watch.alike))
        # Only the work a socket has: a slot with no sets (an exempt address) has nothing to refresh;
        # an anonymous socket that asked for no pushes has no presence and nothing to be told.
        self.heartbeats.add(slot)
        if player is not None or notify:
            socket.spawn(attend(runtime.loop, params, player, notify, socket.send_payload))

    async def _open(self, scope: dict, query: Mapping[str, str], send, params: dict[str, str]):
        """Validate before streaming, so a bad request gets one clear error and a close. `query`: the
        URL's parameters, the last value of each kept (as Starlette's `query_params.get`)."""
        runtime, caller = self.runtime, None
        try:
            caller = await _identify(runtime, scope, query)
            slot = await runtime.socket_quota.admit(caller.player, caller.address)
        except LobbyError as error:
            await _refuse(scope, send, error)
            return None
        try:
            after = _after(query)
            if "game_id" in params:
                opened = await _open_game(runtime, caller, params["game_id"], after)
            else:
                opened = await _open_table(runtime, caller, params["table_id"], after)
            return caller, slot, opened
        except LobbyError as error:
            await slot.release()
            await _refuse(scope, send, error)
            return None
        except BaseException:
            await slot.release()
            raise


async def _take_move(socket: Socket, mover: Mover | None, game_socket: bool, said: str) -> None:
    """Answer a message from the client: a move (`socket_moves.py`); one that closes the socket is
    answered first, then the close (its `receive` then ends it)."""
    try:
        if mover is None:
            raise refused(game_socket, said)
        answer = await mover.answer(said)
    except Closing as closing:
        await socket.send_text(closing.text)
        await socket.close_quietly(closing.close_code)
        return
    await socket.send_answer(answer)


def _query(raw: bytes) -> Mapping[str, str]:
    """The URL's parameters, the last value of each kept. A crowd reconnecting asks with the same few
    query strings (`?after=<the seq it saw>`): each is parsed once (read-only: shared by those sockets).
    One that may hold credentials (refused) is never kept, nor one with a %-escape (a name spelt
    `%74oken` is `token` once parsed)."""
    if b"token" in raw or b"ticket" in raw or b"%" in raw:
        return _parsed(raw)
    return _parsed_once(raw)


def _parsed(raw: bytes) -> Mapping[str, str]:
    return MappingProxyType(dict(parse_qsl(raw.decode("latin-1"), keep_blank_values=True)))


_parsed_once = lru_cache(maxsize=1024)(_parsed)


@lru_cache(maxsize=1024)
def _welcome(stream: str, you: str | None, seq: int) -> str:
    """The welcome's text: the same for every socket of a view opening on the same seq."""
    return text(message("welcome", stream=stream, you=you, seq=seq))


async def _identify(runtime, scope: dict, query: Mapping[str, str]) -> Caller:
    if "token" in query or "ticket" in query:
        raise LobbyError("credentials never travel in a URL: get a ticket (POST /tickets) and offer it as the "
                         "socket's Sec-WebSocket-Protocol 'ticket.<ticket>'", "TOKEN_IN_URL", 400)
    offered = list(scope.get("subprotocols") or [])
    protocol = tickets.PROTOCOL if tickets.PROTOCOL in offered else None
    client = scope.get("client")
    address = client[0] if client else "unknown"
    ticket = tickets.offered_ticket(offered)
    if ticket is None:
        return Caller(None, None, address, protocol)
    grant = await tickets.redeem(runtime.redis, ticket)
    if grant is None:
        raise InvalidToken("this ticket is unknown, used or expired: get a new one (POST /tickets)", "INVALID_TICKET")
    who = await runtime.identity_of(grant.player) if grant.player else None
    return Caller(who, grant.game, address, protocol)


def _after(query: Mapping[str, str]) -> int:
    raw = query.get("after", "0")
    # ASCII digits only (str.isdigit() also passes '²', which int() then refuses), and within the cap
    # the HTTP routes use.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 16 or int(raw) > MAX_POSITION:
        raise LobbyError(f"after must be the last seq you saw: a whole number from 0 to {MAX_POSITION}",
                         "BAD_AFTER", 400)
    return int(raw)


async def _refuse(scope: dict, send, error: LobbyError) -> None:
    offered = scope.get("subprotocols") or []
    try:
        await send({"type": "websocket.accept", "subprotocol": tickets.PROTOCOL if tickets.PROTOCOL in offered else None})
        await send({"type": "websocket.send",
                    "text": text(message("error", id=None, error={"code": error.code, "message": error.message}))})
        await send({"type": "websocket.close", "code": 4000 + error.status, "reason": ""})
    except OSError:
        pass                            # it left before hearing why


async def _open_game(runtime, caller: Caller, game_id: str, after: int) -> Opened:
    games = runtime.games
    watch = await games.live(caller.who, game_id, after, caller.granted_game)     # checks first
    stream = f"game.{game_id}"
    last = await games.feed.last_seq(stream)        # before the events are read: those up to it follow
    # `you`: whom the pushes are redacted for, the seat this caller plays (a substitute's: the seat they
    # took over, as on the Trucker socket); null for everyone else, who sees a spectator's view.
    return Opened(stream, watch.view, last, watch)


async def _open_table(runtime, caller: Caller, table_id: str, after: int) -> Opened:
    watch = await runtime.games.live_table(caller.who, table_id, after, caller.granted_game)
    stream = f"table.{table_id}"
    last = await runtime.games.feed.last_seq(stream)
    return Opened(stream, caller.player, last, watch)
