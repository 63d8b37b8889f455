"""The HTTP/WebSocket entry point: `/tables/{game}/ws` for players and spectators, plus health and metrics.

Thin on purpose: a socket message becomes one `TableService.play` call, and its answer (an ack once the
move is durable, or a refusal with a stable code) goes back on the socket. The wire format is in
`schemas.py`.
"""
from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager

import structlog
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from starbase_core.gamestream import game_stream
from starbase_core.health import health_router
from trucker_rules.game import GAME

from trucker import observe, schemas
from trucker.auth import Caller
from trucker.fanout import Listener
from trucker.metrics import CONNECTIONS, MOVE_SECONDS, MOVES
from trucker.relay import NotDurable
from trucker.runtime import Runtime
from trucker.settings import TruckerSettings
from trucker.state_doc import Folded
from trucker.warehouse import Refused

log = structlog.get_logger(__name__)
CLOSE_POLICY = 4401       # a bad ticket, or a token in the URL
CLOSE_NOT_FOUND = 4404    # no Trucker game of that id
CLOSE_TOO_SLOW = 4408     # the connection could not keep up with the table


def create_app(settings: TruckerSettings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.runtime = await Runtime.start(settings)
        log.info("trucker_started", host=settings.trucker_host, port=settings.trucker_port)
        try:
            yield
        finally:
            await app.state.runtime.stop()
            log.info("trucker_stopped")

    app = FastAPI(title="Starbase Trucker", lifespan=lifespan)

    async def ready() -> bool:
        return await app.state.runtime.ready()

    app.include_router(health_router(ready))

    @app.websocket("/tables/{game}/ws")
    async def table_socket(socket: WebSocket, game: str):
        runtime: Runtime = socket.app.state.runtime
        offered = list(socket.scope.get("subprotocols") or [])
        await socket.accept(subprotocol=runtime.auth.protocol(offered))
        try:
            caller = await runtime.auth.identify(runtime.redis, offered, dict(socket.query_params))
        except Refused as refusal:
            await _refuse_and_close(socket, refusal, CLOSE_POLICY)
            return
        CONNECTIONS.inc()
        try:
            await Connection(runtime, socket, game, caller).serve()
        except WebSocketDisconnect:
            pass
        finally:
            CONNECTIONS.dec()

    return app


async def _refuse_and_close(socket: WebSocket, refusal: Refused, code: int) -> None:
    await socket.send_json({"type": "refused", "id": None, "code": refusal.code, "message": refusal.message})
    await socket.close(code)


class Connection:
    """One socket at one table: a writer task sends events and answers in order; the reader handles
    the client's messages one at a time (a client's moves apply in the order it sent them)."""

    def __init__(self, runtime: Runtime, socket: WebSocket, game: str, caller: Caller):
        self.runtime, self.socket, self.game, self.caller = runtime, socket, game, caller
        self.viewer = caller.player
        self.listener: Listener | None = None

    async def serve(self) -> None:
        folded = await self._welcome_state()
        if folded is None:
            return
        self.listener = await self.runtime.hub.join(self.game, self.viewer, folded.seq, folded.state.round,
                                                    folded.building and folded.state.building_started)
        writer = None
        try:
            # The welcome goes first; events after its seq wait in the queue until the writer starts.
            await self.socket.send_json({"type": "welcome", "you": self.viewer, "seq": folded.seq,
                                         "view": GAME.view(folded.state, self.viewer)})
            writer = asyncio.create_task(self._write())
            while True:
                raw = await self._receive()
                if writer.done():
                    break
                await self._handle(raw)
        finally:
            if writer is not None:
                writer.cancel()
            await self.runtime.hub.leave(self.game, self.listener)

    async def _welcome_state(self) -> Folded | None:
        envelopes = await self.runtime.store.read(game_stream(self.game))
        folded = Folded(envelopes)
        # A private game does not exist for anyone the lobby did not let in (auth.py).
        if folded.state.round == 0 or not self.runtime.auth.may_watch(
                self.caller, envelopes[0] if envelopes else None, folded.state.players, self.game):
            await _refuse_and_close(self.socket, Refused("NOT_A_TRUCKER_GAME", f"no Trucker game {self.game!r}"),
                                    CLOSE_NOT_FOUND)
            return None
        if self.viewer not in folded.state.players:
            self.viewer = None            # anyone else watches as a spectator
        elif folded.building:
            # A player arriving opens the table (starting building the first time) on this replica.
            self.runtime.touch(self.game)
            # Not loaded yet, or Redis still holds an earlier round's warehouse: load this round's.
            if await self.runtime.service.open_current_round(self.game, folded):
                for envelope in await self.runtime.store.read(game_stream(self.game), from_seq=folded.seq + 1):
                    folded.add(envelope)
        return folded

    async def _receive(self) -> str:
        message = await self.socket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        return message.get("text") if message.get("text") is not None else (message.get("bytes") or b"")

    async def _write(self) -> None:
        while True:
            item = await self.listener.queue.get()
            if isinstance(item, str):
                await self.socket.send_text(item)
            elif item.get("type") == "overflow":
                await self.socket.close(CLOSE_TOO_SLOW)
                return
            else:
                await self.socket.send_text(json.dumps(item, separators=(",", ":")))

    def _send(self, item: dict) -> None:
        # Answers go through the same queue as events, so the one writer keeps the socket's order.
        self.listener.push(item)

    @observe.move               # each socket message is a trace of its own
    async def _handle(self, raw: str | bytes) -> None:
        started = time.perf_counter()
        max_bytes = self.runtime.settings.trucker_max_message_bytes
        client_id, op = None, "?"
        # The building this socket had shown going on when the move arrived: the move is for it only.
        building_round = self.listener.building_round if self.listener is not None else None
        try:
            if self.runtime.stopping:
                raise Refused("SHUTTING_DOWN", "this replica is stopping: reconnect and send the move again")
            client_id, command = schemas.parse(raw, max_bytes)
            op = command.type
            observe.noted(self.game, f"{self.viewer}:{client_id}", op)   # its trace, for the relay
            if self.viewer is None:
                raise Refused("NOT_A_PLAYER", "spectators watch: only the players of the game may move")
            self.runtime.touch(self.game)
            # Client ids are scoped by player, so no one can collide with (or replay) another's moves.
            applied = await self.runtime.service.play(self.game, self.viewer, command, f"{self.viewer}:{client_id}",
                                                      round=building_round)
        except Refused as refusal:
            MOVES.labels(op, "refused").inc()
            if client_id is None:   # refused before its id was read: name it if it has a usable one
                client_id = schemas.peek_id(raw, max_bytes)
            self._send({"type": "refused", "id": client_id, "code": refusal.code, "message": refusal.message})
            return
        except NotDurable as lost:
            MOVES.labels(op, "lost").inc()
            self._send({"type": "refused", "id": client_id, "code": "RETRY", "message": str(lost)})
            return
        except Exception:  # Redis or NATS trouble: the move may or may not have applied; a resend is safe
            log.exception("move_failed", game=self.game, player=self.viewer, op=op)
            MOVES.labels(op, "failed").inc()
            self._send({"type": "refused", "id": client_id, "code": "RETRY",
                        "message": "the move could not be completed: send it again with the same id"})
            return
        MOVES.labels(op, "acked").inc()
        MOVE_SECONDS.labels(op).observe(time.perf_counter() - started)
        answer = {"type": "ack", "id": client_id, "first_seq": applied.first_seq, "seq": applied.last_seq,
                  "events": [schemas.public_event(e) for e in applied.events], "retried": applied.retried}
        if op == "LookAtPile" and applied.events:
            answer["pile"] = await self._pile(applied.events[0]["data"]["pile"])
        self._send(answer)

    async def _pile(self, pile: int) -> list[str]:
        """The cards of the pile this player now holds: for their eyes only."""
        raw = await self.runtime.redis.hget(f"trucker:{{{self.game}}}:meta", "piles")
        piles = json.loads(raw) if raw else []
        return list(piles[pile - 1]) if len(piles) >= pile else []
