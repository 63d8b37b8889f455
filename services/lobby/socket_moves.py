"""Moves over a game's socket: `POST /games/{id}/commands` without an HTTP request per move.

A player's socket on `/games/{id}/ws` (opened with a ticket) may send moves:

    {"v": 1, "kind": "move", "id": "m7", "command": {"type": "Hit"}}
    {"v": 1, "kind": "move", "id": "m8", "command": {...}, "seat": 0}

`id` (1 to 64 of A-Z a-z 0-9 _ . : -) is the move's command id: a resend with the same id, on this socket
or another, or as a POST's `command_id`, is applied once. `command` and `seat` are POST's. Each move is
answered, in the order sent (the socket reads its next message once this one is answered):

    {"v": 1, "kind": "ack", "id": "m7", "first_seq": 41, "seq": 42, "events": [...]}   # stored, as pushed
    {"v": 1, "kind": "error", "id": "m7", "status": 422, "error": {"code": "NOT_YOUR_TURN", "message": ...}}

The ack's events are the move's, as this socket pushes them (each also comes as an `event` message, before
or after the ack); `first_seq` and `seq` are the first and the last one's. An error carries the HTTP status POST would have answered with its code and message (a 429 also
`retry_after`, in seconds; a 503 may be resent with the same id), and the socket stays open. Every
message counts against the player's `commands` limit before anything else, as every POST does, so a
flood of messages, well-formed or not, is answered 429. Who moves is the ticket's player, checked
as POST checks its token's: only the seat's player (or its substitute) acts for a seat.

What closes the socket instead: a message of another protocol version (UNSUPPORTED_VERSION, 4400: such
a client cannot read the answers either), and any message on a socket that cannot move, which is
one without a ticket (NOT_AUTHENTICATED, 4401) or a table's (MOVES_ON_GAME_SOCKETS, 4400).

Why: a move over an open socket skips the HTTP request's parsing, routing, middleware and token check:
an eighth to a fifth of the lobby's CPU per move (docs/lobby-capacity.md, "Tenth round").
"""
from __future__ import annotations

import re
import time
from dataclasses import replace

import grpc
import orjson
import structlog
from prometheus_client import Counter, Histogram
from pydantic import ValidationError

from starbase_core.store import StoreError

from lobby.exceptions import ADJUDICATOR_DOWN, INTERNAL, STORE_DOWN, LobbyError, RateLimited
from lobby.schemas import CommandIn
from lobby.validation import describe
from lobby.wire import VERSION, ack_text, message, text

log = structlog.get_logger(__name__)
MOVE_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,64}$")
CLOSE_BAD_REQUEST = 4400
CLOSE_NOT_AUTHENTICATED = 4401
MOVES = Counter("lobby_socket_moves", "Moves sent over game sockets, by the HTTP status POST would have answered",
                ["status"])
MOVE_SECONDS = Histogram("lobby_socket_move_seconds", "From a move's message to its answer",
                         buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))


_ACKED = MOVES.labels("200")


class Closing(Exception):
    """A message the socket answers (`text`) and then closes with `close_code`."""

    def __init__(self, code: int, error: LobbyError, move_id: str | None):
        super().__init__(error.message)
        self.close_code, self.text = code, _error(move_id, error)


class Mover:
    """A game socket's player, as its moves need them. `who` carries the socket's address (the limits'
    exemption is by address, as for a request)."""
    __slots__ = ("runtime", "who", "game_id")

    def __init__(self, runtime, who, game_id: str):
        self.runtime, self.who, self.game_id = runtime, who, game_id

    async def answer(self, raw: str) -> str:
        """The answer to one message from the socket: an ack or an error, as the socket's text."""
        started = time.perf_counter()
        data = _object(raw)
        move_id = _id_of(data)
        try:
            _check_version(data, move_id)
            await self.runtime.hit_command(self.who)
            move = _move(data)
            games = self.runtime.games
            moved = await games.move(self.who, self.game_id, move.command, move.command_id, move.seat)
            events = games.pushed(moved)
        except Closing:
            MOVES.labels("400").inc()
            raise
        except Exception as error:
            refusal = _refusal(error, self.game_id)
            MOVES.labels(str(refusal.status)).inc()
            return _error(move_id, refusal)
        finally:
            MOVE_SECONDS.observe(time.perf_counter() - started)
        _ACKED.inc()
        # A command always stores at least one envelope (CommandHadNoEffect when the engine emits none).
        return ack_text(move_id, moved.envelopes[0].seq, moved.envelopes[-1].seq, events)


def refused(game_socket: bool, raw: str) -> Closing:
    """Why a socket that cannot move closes on a message (see the module's docstring)."""
    data = _object(raw)
    move_id = _id_of(data)
    try:
        _check_version(data, move_id)
    except Closing as closing:
        return closing
    if not game_socket:
        return Closing(CLOSE_BAD_REQUEST, LobbyError("moves go to the game's socket (/games/{id}/ws); a table's "
                                                     "socket only listens", "MOVES_ON_GAME_SOCKETS", 400), move_id)
    return Closing(CLOSE_NOT_AUTHENTICATED, LobbyError(
        "a socket opened without a ticket only watches: to move, open it with a ticket (POST /tickets)",
        "NOT_AUTHENTICATED", 401), move_id)


def mover_for(runtime, who, address: str, game_id: str | None) -> Mover | None:
    """The socket's mover: a game's socket opened with a player's ticket; else None."""
    if who is None or game_id is None:
        return None
    return Mover(runtime, replace(who, address=address), game_id)


def _object(raw: str) -> dict | None:
    try:
        data = orjson.loads(raw)
    except ValueError:          # orjson's JSONDecodeError is one
        return None
    return data if isinstance(data, dict) else None


def _id_of(data: dict | None) -> str | None:
    candidate = data.get("id") if data is not None else None
    return candidate if isinstance(candidate, str) and MOVE_ID.match(candidate) else None


def _check_version(data: dict | None, move_id: str | None) -> None:
    """A JSON object of another protocol version closes the socket (its client cannot read our answers)."""
    if data is not None and data.get("v") != VERSION:
        raise Closing(CLOSE_BAD_REQUEST, LobbyError('this socket speaks protocol version 1: send {"v": 1, "kind": '
                                                    '"move", "id": ..., "command": {...}} (docs/asyncapi.yaml)',
                                                    "UNSUPPORTED_VERSION", 400), move_id)


def _move(data: dict | None) -> CommandIn:
    if data is None:
        raise LobbyError("a message is one JSON object", "MALFORMED_MESSAGE", 400)
    if data.get("kind") != "move":
        raise LobbyError(f"a client sends only moves (kind \"move\"), not {str(data.get('kind'))[:40]!r}",
                         "UNKNOWN_KIND", 400)
    if _id_of(data) is None:
        raise LobbyError("id: 1 to 64 letters, digits or _.:- (the move's command id)", "MALFORMED_MESSAGE", 400)
    fields = {key: value for key, value in data.items() if key not in ("v", "kind", "id")}
    if "command_id" in fields:
        raise LobbyError("a move's id is its command id: send no command_id", "MALFORMED_MESSAGE", 400)
    try:
        return CommandIn.model_validate({**fields, "command_id": data["id"]})
    except ValidationError as error:
        raise LobbyError("; ".join(describe(p) for p in error.errors()), "VALIDATION_FAILED", 422) from None


def _refusal(error: Exception, game_id: str) -> LobbyError:
    """The refusal POST's exception handlers (app.py) would answer for `error`."""
    if isinstance(error, LobbyError):
        return error
    if isinstance(error, grpc.aio.AioRpcError):
        log.warning("adjudicator_call_failed", code=str(error.code()), details=error.details())
        return LobbyError(ADJUDICATOR_DOWN[1], ADJUDICATOR_DOWN[0], 503)
    if isinstance(error, StoreError):
        log.warning("store_call_failed", error=str(error))
        return LobbyError(STORE_DOWN[1], STORE_DOWN[0], 503)
    log.exception("socket_move_failed", game=game_id)
    return LobbyError(INTERNAL[1], INTERNAL[0], 500)


def _error(move_id: str | None, refusal: LobbyError) -> str:
    extra = {"retry_after": refusal.retry_after} if isinstance(refusal, RateLimited) else {}
    return text(message("error", id=move_id, status=refusal.status,
                        error={"code": refusal.code, "message": refusal.message}, **extra))
