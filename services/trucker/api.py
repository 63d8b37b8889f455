"""The HTTP/WebSocket entry point: `/tables/{game}/ws` for players and spectators, plus health and metrics.

Thin on purpose: a socket message becomes one `TableService.play` call, and its answer (an ack once the
move is durable, or an error with a stable code) goes back on the socket. The wire format is protocol
version 1 (`schemas.py`, docs/asyncapi.yaml), the lobby's: a welcome with the whole view at its `seq`,
then the events past `?after=` up to that seq (none without `after`: the view has them), then live ones.
"""
from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager

import structlog
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from starbase_core.gamestream import GAME_CREATED, game_stream
from starbase_core.health import health_router
from starbase_core.outlet import Outlet
from trucker_rules.game import GAME

from trucker import observe, schemas
from trucker.auth import Caller, seat_played
from trucker.fanout import Listener, wire_event
from trucker.flood import MessageBudget
from trucker.metrics import CONNECTIONS, MOVE_SECONDS, MOVES
from trucker.relay import NotDurable
from trucker.runtime import Runtime
from trucker.settings import TruckerSettings
from trucker.state_doc import Folded
from trucker.warehouse import Refused

log = structlog.get_logger(__name__)
CLOSE_BAD_REQUEST = 4400  # a bad `after`, or a message of another protocol version
CLOSE_POLICY = 4401       # a bad ticket, or a token in the URL
CLOSE_NOT_FOUND = 4404    # no Trucker game of that id
CLOSE_TOO_SLOW = 4408     # the connection could not keep up with the table
MAX_POSITION = 2**53 - 1  # the largest seq a JSON client reads exactly (the lobby's cap too)
CREATION_LOOKS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.5)   # pauses before reading an empty game stream again: 3 s
_json = json.JSONEncoder(separators=(",", ":")).encode     # one encoder: json.dumps builds one per call


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
    app.add_middleware(ServerSend)      # sees the server's own `send` (see the class)

    async def ready() -> bool:
        return await app.state.runtime.ready()

    app.include_router(health_router(ready))

    @app.websocket("/tables/{game}/ws")
    async def table_socket(socket: WebSocket, game: str):
        runtime: Runtime = socket.app.state.runtime
        offered = list(socket.scope.get("subprotocols") or [])
        await socket.accept(subprotocol=runtime.auth.protocol(offered))
        try:
            after = _after(socket.query_params.get("after"))
        except Refused as refusal:      # before the ticket is redeemed: a fixed URL can use it
            await _refuse_and_close(socket, refusal, CLOSE_BAD_REQUEST)
            return
        try:
            caller = await runtime.auth.identify(runtime.redis, offered, dict(socket.query_params))
        except Refused as refusal:
            await _refuse_and_close(socket, refusal, CLOSE_POLICY)
            return
        CONNECTIONS.inc()
        try:
            await Connection(runtime, socket, game, caller, after).serve()
        except WebSocketDisconnect:
            pass
        finally:
            CONNECTIONS.dec()

    return app


SERVER_SEND = "trucker.server_send"      # scope key: the server's own ASGI send (`ServerSend`)


class ServerSend:
    """Keeps the server's own `send` in a socket's scope, for its `Outlet` (`write_now`). As an app
    middleware it runs before Starlette's exception middleware, which wraps `send` (and the wrapper
    hides the protocol); the layers before it pass a socket's `send` on as it is (the live test of
    `test_direct_writes.py` fails if one ever stops doing so)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        await self.app(scope, receive, send)


def _after(raw: str | None) -> int | None:
    """`?after=`: the last seq the client handled (None: it has seen nothing; the welcome's view is all)."""
    if raw is None:
        return None
    # ASCII digits only (str.isdigit() also passes '²'), within the cap the HTTP routes use.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 16 or int(raw) > MAX_POSITION:
        raise Refused("BAD_AFTER", f"after must be the last seq you saw: a whole number from 0 to {MAX_POSITION}")
    return int(raw)


_OP_METRICS: dict[str, tuple] = {}


def _op_metrics(op: str) -> tuple:
    """An operation's acknowledged-moves counter and its latency histogram (a label lookup takes a lock
    and builds a key: once per operation, not once per move)."""
    found = _OP_METRICS.get(op)
    if found is None:
        found = _OP_METRICS[op] = (MOVES.labels(op, "acked"), MOVE_SECONDS.labels(op))
    return found


def _only_created(envelopes: list) -> bool:
    """The stream holds a Trucker game's creation and nothing after it yet (its setup is on the way)."""
    return len(envelopes) == 1 and envelopes[0].type == GAME_CREATED and envelopes[0].data.get("game") == "trucker"


async def _refuse_and_close(socket: WebSocket, refusal: Refused, code: int) -> None:
    await socket.send_json(schemas.error(None, refusal.code, refusal.message))
    await socket.close(code)


class Connection:
    """One socket at one table: a writer task sends events and answers in order; the reader handles
    the client's messages one at a time (a client's moves apply in the order it sent them)."""

    def __init__(self, runtime: Runtime, socket: WebSocket, game: str, caller: Caller, after: int | None = None):
        self.runtime, self.socket, self.game, self.caller, self.after = runtime, socket, game, caller, after
        self.stream = game_stream(game)
        # The seat this socket acts for (`_welcome_state`): its id, whose view the socket shows and whose
        # moves it sends (None: a spectator), and who plays it when not its own player (a substitute).
        self.viewer: str | None = None
        self.played_by: str | None = None
        self.listener: Listener | None = None
        self.read: list = []
        server_send = socket.scope.get(SERVER_SEND)
        self._outlet = Outlet.of(server_send) if server_send is not None else None
        settings = runtime.settings
        self.budget = MessageBudget(settings.trucker_socket_messages_per_second,
                                    settings.trucker_socket_message_burst, time.monotonic())

    async def serve(self) -> None:
        folded = await self._welcome_state()
        if folded is None:
            return
        self.listener = await self.runtime.hub.join(self.game, self.viewer, folded.seq, folded.state.round,
                                                    folded.building and folded.state.building_started)
        writer = None
        try:
            # The welcome goes first, then what the client missed up to its seq; events after it wait in
            # the queue until the writer starts.
            await self.socket.send_json(schemas.message("welcome", stream=self.stream, you=self.viewer,
                                                        seq=folded.seq, view=GAME.view(folded.state, self.viewer)))
            await self._catch_up(folded.seq)
            # The welcome's fold and the envelopes it was read from are not needed past this point: a
            # socket lives as long as its player plays, and every object it keeps is walked by each of the
            # cyclic collector's full collections (at 100 tables, 400 whole games kept for nothing).
            self.read, folded = [], None
            writer = asyncio.create_task(self._write())
            if self._outlet is not None and self._outlet.direct:
                self.listener.write_now = self.write_now
            while True:
                raw = await self._receive()
                if writer.done():
                    break
                await self._handle(raw)
        finally:
            self.listener.write_now = None
            if writer is not None:
                writer.cancel()
            await self.runtime.hub.leave(self.game, self.listener)

    async def _welcome_state(self) -> Folded | None:
        envelopes = await self.runtime.store.read(game_stream(self.game))
        # The lobby records a table's GameStarted before the adjudicator stores its game (lobby's
        # `TableService.start`), and a page following the table connects as soon as it reads "playing":
        # a stream with nothing in it yet is looked at again for a few seconds before it is no game; so is
        # one read between the game's creation and its setup (one append, stored message by message).
        for pause in CREATION_LOOKS:
            if envelopes and not _only_created(envelopes):
                break
            await asyncio.sleep(pause)
            envelopes = await self.runtime.store.read(game_stream(self.game))
        self.read = list(envelopes)         # what the welcome is folded from: a resume is sent from it too
        folded = Folded(envelopes)
        # The seat the caller plays as the stream says now (a substitute who takes a seat later
        # reconnects to play it): anyone else watches as a spectator.
        seat = seat_played(self.caller, folded.state.players,
                           folded.record.seats.controllers if folded.record is not None else {})
        # A private game does not exist for anyone the lobby did not let in (auth.py).
        if folded.state.round == 0 or not self.runtime.auth.may_watch(
                self.caller, envelopes[0] if envelopes else None, seat, self.game):
            await _refuse_and_close(self.socket, Refused("NOT_A_TRUCKER_GAME", f"no Trucker game {self.game!r}"),
                                    CLOSE_NOT_FOUND)
            return None
        if seat is not None:
            self.viewer, self.played_by = seat.player, seat.played_by
        if seat is not None and folded.building:
            # A player arriving opens the table (starting building the first time) on this replica.
            self.runtime.touch(self.game)
            # Not loaded yet, or Redis still holds an earlier round's warehouse: load this round's.
            if await self.runtime.service.open_current_round(self.game, folded):
                for envelope in await self.runtime.store.read(game_stream(self.game), from_seq=folded.seq + 1):
                    folded.add(envelope)
                    self.read.append(envelope)
        return folded

    async def _catch_up(self, seq: int) -> None:
        """The events past the client's `after` up to the welcome's seq, each as this viewer may see it."""
        if self.after is None or self.after >= seq:
            return
        for envelope in self.read:
            if self.after < envelope.seq <= seq:
                await self.socket.send_json(schemas.message("event", event=wire_event(envelope, self.viewer)))

    async def _receive(self) -> str:
        message = await self.socket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        return message.get("text") if message.get("text") is not None else (message.get("bytes") or b"")

    async def _write(self) -> None:
        """What could not be written at once (`write_now`), in order. While it holds a message taken off
        the queue, nothing is written past it."""
        listener = self.listener
        while True:
            item = await listener.queue.get()
            listener.writer_holding = True
            try:
                if isinstance(item, str):
                    await self.socket.send_text(item)
                elif item.get("type") == "overflow":
                    await self.socket.close(CLOSE_TOO_SLOW)
                    return
                elif item.get("type") == "close":       # after a message the client cannot go on from
                    await self.socket.close(item["code"])
                    return
                else:
                    await self.socket.send_text(_json(item))
            finally:
                listener.writer_holding = False

    def write_now(self, item: dict | str) -> bool:
        """Write one message to the socket at once if the server's send would not wait for it (the
        shared `Outlet.write_text`); False: not written (the writer task sends it the ASGI way)."""
        return self._outlet is not None and self._outlet.write_text(item if isinstance(item, str) else _json(item))

    def _send(self, item: dict) -> None:
        # Answers go the events' way (at once, or queued behind what waits), so the socket keeps their order.
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
            if wait := self.budget.take(time.monotonic()):
                MOVES.labels(op, "refused").inc()
                self._send(schemas.error(schemas.peek_id(raw, max_bytes), "RATE_LIMITED",
                                         f"too many messages on this socket: send again in {wait:.2f} s", wait))
                return
            client_id, command = schemas.parse(raw, max_bytes)
            op = command.type
            # Client ids are scoped by who sends (a substitute: their own id, not the seat's), so no one
            # can collide with (or replay) another's moves.
            command_id = f"{self.caller.player}:{client_id}"
            observe.noted(self.game, command_id, op)   # its trace, for the relay
            if self.viewer is None:
                raise Refused("NOT_A_PLAYER", "spectators watch: only the players of the game and "
                                              "substitutes holding a seat may move")
            self.runtime.touch(self.game)
            applied = await self.runtime.service.play(self.game, self.viewer, command, command_id,
                                                      round=building_round, played_by=self.played_by)
        except Refused as refusal:
            MOVES.labels(op, "refused").inc()
            if client_id is None:   # refused before its id was read: name it if it has a usable one
                client_id = schemas.peek_id(raw, max_bytes)
            self._send(schemas.error(client_id, refusal.code, refusal.message))
            if isinstance(refusal, schemas.UnsupportedVersion):
                self._send({"type": "close", "code": CLOSE_BAD_REQUEST})    # after the error, in order
            return
        except NotDurable as lost:
            MOVES.labels(op, "lost").inc()
            self._send(schemas.error(client_id, "RETRY", str(lost)))
            return
        except Exception:  # Redis or NATS trouble: the move may or may not have applied; a resend is safe
            log.exception("move_failed", game=self.game, player=self.viewer, op=op)
            MOVES.labels(op, "failed").inc()
            self._send(schemas.error(client_id, "RETRY",
                                     "the move could not be completed: send it again with the same id"))
            return
        acked, seconds = _op_metrics(op)
        acked.inc()
        seconds.observe(time.perf_counter() - started)
        answer = schemas.message("ack", id=client_id, first_seq=applied.first_seq, seq=applied.last_seq,
                                 events=[schemas.public_event(self.stream, e) for e in applied.events],
                                 retried=applied.retried)
        if op == "LookAtPile" and applied.events:
            answer["pile"] = await self._pile(applied.events[0]["data"]["pile"])
        self._send(answer)

    async def _pile(self, pile: int) -> list[str]:
        """The cards of the pile this player now holds: for their eyes only."""
        raw = await self.runtime.redis.hget(f"trucker:{{{self.game}}}:meta", "piles")
        piles = json.loads(raw) if raw else []
        return list(piles[pile - 1]) if len(piles) >= pile else []
