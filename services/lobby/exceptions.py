"""Lobby refusals. Each has a stable UPPER_SNAKE `code`, a message for people and an HTTP status.

Routers never build error bodies by hand: they raise one of these (or let a `RuleViolation` from the
adjudicator through) and `app.py` turns it into `{"error": {"code", "message"}}`.
"""
from __future__ import annotations


# (code, message) of the refusals answered for a failure rather than a LobbyError (app.py's handlers,
# and the same answers to moves over a socket: socket_moves.py).
ADJUDICATOR_DOWN = ("ADJUDICATOR_UNAVAILABLE", "the game server is not answering; retry (a command resent with "
                                               "its command_id is applied once)")
STORE_DOWN = ("STORE_UNAVAILABLE", "the event store is not answering; retry")
INTERNAL = ("INTERNAL", "something went wrong on our side; it is logged")


def error_body(code: str, message: str) -> dict:
    """The one shape of every refusal on the wire."""
    return {"error": {"code": code, "message": message}}


class LobbyError(Exception):
    status = 400
    code = "BAD_REQUEST"

    headers: dict[str, str] = {}

    def __init__(self, message: str, code: str | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


class NotAuthenticated(LobbyError):
    status, code = 401, "NOT_AUTHENTICATED"


class InvalidToken(LobbyError):
    status, code = 401, "INVALID_TOKEN"


class Forbidden(LobbyError):
    """The caller is known but may not do this (another seat, a spectator acting, a private table)."""
    status, code = 403, "FORBIDDEN"


class NotFound(LobbyError):
    status, code = 404, "NOT_FOUND"


class Conflict(LobbyError):
    """The request is well formed but the table is not in a state that allows it."""
    status, code = 409, "CONFLICT"


class Invalid(LobbyError):
    status, code = 422, "INVALID_REQUEST"


class RuleRefused(LobbyError):
    """The game's rules refused a command (NOT_YOUR_TURN, ILLEGAL_TILE, …): the engine's code is kept."""
    status = 422


class Unavailable(LobbyError):
    status, code = 503, "UNAVAILABLE"


class RateLimited(LobbyError):
    """A limit or quota is reached: try again after `retry_after` seconds (the Retry-After header)."""
    status, code = 429, "RATE_LIMITED"

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))
        self.headers = {"Retry-After": str(self.retry_after)}
