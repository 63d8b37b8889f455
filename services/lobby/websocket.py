"""Live events over WebSocket: `/games/{id}/ws` and `/tables/{id}/ws`.

    ws://host/games/<id>/ws?token=<token>&after=<last seq seen>

The server sends `{"kind": "event", ...}` for every event past `after`, in seq order, each redacted for
the caller (a seated player sees their own hidden cards; everyone else is a spectator), then live ones.
After a reconnect the client sends the last `seq` it saw as `after` and misses nothing. Refusals arrive
as `{"kind": "error", "error": {"code", "message"}}` followed by a close with code 4000 + HTTP status.
The socket is one-way: commands go through `POST /games/{id}/commands`.
"""
from __future__ import annotations

import asyncio

import structlog
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from prometheus_client import Gauge

from lobby.exceptions import LobbyError
from lobby.feed import SlowConsumer
from lobby.router import MAX_POSITION

log = structlog.get_logger(__name__)
ws_router = APIRouter()
SOCKETS = Gauge("lobby_websockets", "Open WebSockets")


async def _identify(websocket: WebSocket):
    token = websocket.query_params.get("token")
    return websocket.app.state.lobby.signer.verify(token) if token else None


def _after(websocket: WebSocket) -> int:
    raw = websocket.query_params.get("after", "0")
    # ASCII digits only (str.isdigit() also passes '²', which int() then refuses), and within the cap
    # the HTTP routes use.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 16 or int(raw) > MAX_POSITION:
        raise LobbyError(f"after must be the last seq you saw: a whole number from 0 to {MAX_POSITION}",
                         "BAD_AFTER", 400)
    return int(raw)


async def _pump(websocket: WebSocket, events) -> None:
    """Send events until the client leaves; a client that leaves stops its subscription at once."""
    await websocket.accept()
    SOCKETS.inc()

    async def forward() -> None:
        async for event in events:
            await websocket.send_json({"kind": "event", **event})

    sender = asyncio.create_task(forward())
    listener = asyncio.create_task(_drain_incoming(websocket))
    try:
        done, _ = await asyncio.wait({sender, listener}, return_when=asyncio.FIRST_COMPLETED)
        if sender in done:
            sender.result()
    except SlowConsumer as slow:
        await websocket.close(code=4008, reason=str(slow)[:120])   # the client resumes from its last seq
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass                        # the client went away mid-send
    except Exception:               # e.g. the store stopped answering: the client reconnects and resumes
        log.exception("websocket_failed", path=websocket.url.path)
        try:
            await websocket.close(code=1011)
        except Exception:
            pass
    finally:
        for task in (sender, listener):
            task.cancel()
        await asyncio.gather(sender, listener, return_exceptions=True)
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
    try:
        who = await _identify(websocket)
        return await open_stream(who, _after(websocket), websocket.query_params.get("invite"))
    except LobbyError as error:
        await websocket.accept()
        await websocket.send_json({"kind": "error", "error": {"code": error.code, "message": error.message}})
        await websocket.close(code=4000 + error.status)
        return None


@ws_router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    games = websocket.app.state.lobby.games
    events = await _open(websocket, lambda who, after, invite: games.live(who, game_id, after, invite))
    if events is not None:
        await _pump(websocket, events)


@ws_router.websocket("/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    games = websocket.app.state.lobby.games
    events = await _open(websocket, lambda who, after, invite: games.live_table(who, table_id, after, invite))
    if events is not None:
        await _pump(websocket, events)
