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
closes the account's sockets (4403, 4401). The socket is one-way: commands go through
`POST /games/{id}/commands`.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import structlog
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from prometheus_client import Gauge

from starbase_core import tickets

from lobby.exceptions import InvalidToken, LobbyError
from lobby.feed import SlowConsumer
from lobby.games import Watch
from lobby.guard.sockets import HEARTBEAT
from lobby.loop.pushes import NOTIFY_VALUES, attend
from lobby.router import MAX_POSITION
from lobby.outlet import Outlet
from lobby.wire import message, text
from starbase_core.supervise import cancel_and_wait

log = structlog.get_logger(__name__)
ws_router = APIRouter()
SOCKETS = Gauge("lobby_websockets", "Open WebSockets")
CLOSE_TOO_SLOW = 4408           # 4000 + 408: the reader fell behind; it resumes with ?after=


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


async def _identify(websocket: WebSocket) -> Caller:
    runtime = websocket.app.state.lobby
    if "token" in websocket.query_params or "ticket" in websocket.query_params:
        raise LobbyError("credentials never travel in a URL: get a ticket (POST /tickets) and offer it as the "
                         "socket's Sec-WebSocket-Protocol 'ticket.<ticket>'", "TOKEN_IN_URL", 400)
    offered = list(websocket.scope.get("subprotocols") or [])
    protocol = tickets.PROTOCOL if tickets.PROTOCOL in offered else None
    address = websocket.client.host if websocket.client else "unknown"
    ticket = tickets.offered_ticket(offered)
    if ticket is None:
        return Caller(None, None, address, protocol)
    grant = await tickets.redeem(runtime.redis, ticket)
    if grant is None:
        raise InvalidToken("this ticket is unknown, used or expired: get a new one (POST /tickets)", "INVALID_TICKET")
    who = await runtime.identity_of(grant.player) if grant.player else None
    return Caller(who, grant.game, address, protocol)


def _after(websocket: WebSocket) -> int:
    raw = websocket.query_params.get("after", "0")
    # ASCII digits only (str.isdigit() also passes '²', which int() then refuses), and within the cap
    # the HTTP routes use.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 16 or int(raw) > MAX_POSITION:
        raise LobbyError(f"after must be the last seq you saw: a whole number from 0 to {MAX_POSITION}",
                         "BAD_AFTER", 400)
    return int(raw)


async def _pump(websocket: WebSocket, caller: Caller, slot, opened: Opened, chat_subject: str | None = None) -> None:
    """Welcome, then send events until the client leaves; a client that leaves stops its subscription at once."""
    runtime = websocket.app.state.lobby
    await websocket.accept(subprotocol=caller.protocol)
    SOCKETS.inc()
    runtime.sockets.add(caller.player, websocket)
    sending = asyncio.Lock()

    async def send(payload: dict) -> None:
        await send_text(text(payload))

    async def send_text(encoded: str) -> None:
        async with sending:
            await websocket.send_text(encoded)

    async def forward() -> None:
        watch = opened.watch
        await runtime.feed.serve(watch.stream, watch.after, watch.view, watch.encode,
                                 Outlet.of(websocket.scope, send_text))

    async def forward_chat(posted) -> None:
        try:
            await send(message("chat", chat=json.loads(posted.data)))
        except Exception:               # the socket is closing: the pump notices
            pass

    async def heartbeat() -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            await slot.refresh()

    subscription, tasks = None, []
    try:
        await send(message("welcome", stream=opened.stream, you=opened.you, seq=opened.seq))
        subscription = await runtime.nc.subscribe(chat_subject, cb=forward_chat) if chat_subject else None
        tasks = [asyncio.create_task(forward()), asyncio.create_task(_drain_incoming(websocket))]
        sender = tasks[0]
        # Only the tasks that have work: an idle socket's memory is mostly its tasks. A slot with no
        # sets (an exempt address) has nothing to refresh; an anonymous socket that asked for no
        # pushes has no presence and nothing to be told.
        if slot.keys:
            tasks.append(asyncio.create_task(heartbeat()))
        notify = websocket.query_params.get("notify") in NOTIFY_VALUES
        if caller.player is not None or notify:
            tasks.append(asyncio.create_task(attend(runtime.loop, websocket.path_params, caller.player, notify, send)))
        done, _ = await asyncio.wait(set(tasks), return_when=asyncio.FIRST_COMPLETED)
        if sender in done:
            sender.result()
    except SlowConsumer as slow:
        await websocket.close(code=CLOSE_TOO_SLOW, reason=str(slow)[:120])   # the client resumes from its last seq
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass                        # the client went away mid-send
    except Exception:               # e.g. the store stopped answering: the client reconnects and resumes
        log.exception("websocket_failed", path=websocket.url.path)
        try:
            await websocket.close(code=1011)
        except Exception:
            pass
    finally:
        await cancel_and_wait(tasks)
        if subscription is not None:
            await subscription.unsubscribe()
        runtime.sockets.remove(caller.player, websocket)
        await slot.release()
        SOCKETS.dec()


async def _drain_incoming(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so a close from its side is noticed at once."""
    try:
        while True:
            await websocket.receive_text()
    except Exception:
        return


async def _open(websocket: WebSocket, open_stream):
    """Validate before streaming, so a bad request gets one clear error and a close."""
    caller = None
    try:
        caller = await _identify(websocket)
        slot = await websocket.app.state.lobby.socket_quota.admit(caller.player, caller.address)
    except LobbyError as error:
        await _refuse(websocket, caller, error)
        return None
    try:
        return caller, slot, await open_stream(caller, _after(websocket))
    except LobbyError as error:
        await slot.release()
        await _refuse(websocket, caller, error)
        return None


async def _refuse(websocket: WebSocket, caller: Caller | None, error: LobbyError) -> None:
    offered = websocket.scope.get("subprotocols") or []
    await websocket.accept(subprotocol=tickets.PROTOCOL if tickets.PROTOCOL in offered else None)
    await websocket.send_json(message("error", id=None, error={"code": error.code, "message": error.message}))
    await websocket.close(code=4000 + error.status)


@ws_router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    games = websocket.app.state.lobby.games

    async def open_game(caller: Caller, after: int) -> Opened:
        watch = await games.live(caller.who, game_id, after, caller.granted_game)     # checks first
        stream = f"game.{game_id}"
        last = await games.feed.last_seq(stream)        # before the events are read: those up to it follow
        table = await games.table_of(game_id)
        # `you` only for a seat-holder: the pushes are redacted for them; everyone else sees a spectator's.
        seated = caller.player is not None and table.seat_of(caller.player) is not None
        return Opened(stream, caller.player if seated else None, last, watch)

    opened = await _open(websocket, open_game)
    if opened is not None:
        await _pump(websocket, *opened)


@ws_router.websocket("/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    runtime = websocket.app.state.lobby

    async def open_table(caller: Caller, after: int) -> Opened:
        watch = await runtime.games.live_table(caller.who, table_id, after, caller.granted_game)
        stream = f"table.{table_id}"
        last = await runtime.games.feed.last_seq(stream)
        return Opened(stream, caller.player, last, watch)

    opened = await _open(websocket, open_table)
    if opened is not None:
        await _pump(websocket, *opened, chat_subject=runtime.personal.live_subject(table_id))
