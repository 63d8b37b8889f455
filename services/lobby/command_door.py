"""`POST /games/{game_id}/commands` taken at uvicorn's protocol, past the app's layers.

`command_route.CommandRoute` already serves the hot route without FastAPI's router, but a command still
walked the whole middleware stack on its way there: the socket gate, FastAPI's and Starlette's entry,
server-error handling, FastAPI's telemetry and body limit, the body gate and `Measure`, each a coroutine
frame and a wrapped `send`: about a fiftieth of the lobby's CPU per POST move, measured beside the
tree before (docs/lobby-capacity.md, fifteenth round).

`LobbyHttpProtocol` (handshake.py) gives uvicorn's request cycle this door instead of the app for a
`POST` to that path, under the same `ProxyHeadersMiddleware` (so the client address and scheme are as
the app would see them). uvicorn's cycle is unchanged: keep-alive, pipelining, flow control, the access
log, a disconnect, an exception's log line. The door does what those layers would, in their order:

- the body gate's checks (size, media type, sane JSON: `bodygate`), and `CommandRoute`'s own test of
  what it serves (`command_route._take`), each reading the headers as it does. Whatever fails either,
  or comes in pieces, goes to the whole app untouched, body replayed: every refusal and every odd
  request is answered by the code that answered it before;
- `Measure`'s series for the route, with the status sent;
- server-error handling: an unexpected error is answered by the app's `Exception` handler (the 500
  body and its log line) and raised on, as Starlette's `ServerErrorMiddleware` does.

Not taken with tracing on (its span per request comes from the instrumented app) or under a root path.
tests/lobby/test_command_door.py compares its answers, bytes and metrics with the app's on every kind of
request.
"""
from __future__ import annotations

import copy
import time
import weakref

from starlette.requests import Request
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from lobby.bodygate import PARSED, _parse, _UNPARSED
from lobby.command_route import _PATH, CommandRoute, _take
from lobby.measure import StatusNoted, record


class CommandDoor:
    """An ASGI app for `POST /games/{id}/commands` only; `app`: the lobby's whole app (`LobbyApp`),
    which answers everything the door does not take."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit
        self.route = CommandRoute(app, owner=app)

    async def __call__(self, scope, receive, send):
        headers = dict(scope["headers"])        # as the body gate reads them: the last of a name counts
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self.app(scope, receive, send)         # the gate refuses it before its body
        message = await receive()
        pending = iter((message,))

        async def replay():
            return next(pending, None) or await receive()

        taken = self._take(scope, headers, message)
        if taken is None:
            return await self.app(scope, replay, send)
        started, noted = time.perf_counter(), StatusNoted(send)
        try:
            try:
                await self.route.serve(scope, replay, noted, *taken)
            finally:
                record(scope["method"], self.route.route.path, noted.status, started)
        except Exception as error:
            await self._server_error(scope, replay, send, error, answered=noted.status != 500)
            raise

    def _take(self, scope, headers: dict, message) -> tuple | None:
        """(game id, token, command) when the body gate would pass this request and the route serve it."""
        if message["type"] != "http.request" or message.get("more_body", False):
            return None             # (a body in pieces: rare, and the gate reads it as it comes)
        body = message.get("body", b"")
        if len(body) > self.limit or not body.strip():
            return None
        _, value = _parse(headers.get(b"content-type", b""), body)
        if value is _UNPARSED:      # the gate refuses it, or leaves it to FastAPI's own parse
            return None
        scope[PARSED] = value
        taken = _take(scope, [message])
        return None if taken is None else (_PATH.fullmatch(scope["path"]).group(1), *taken)

    async def _server_error(self, scope, receive, send, error: Exception, answered: bool) -> None:
        """What Starlette's `ServerErrorMiddleware` does with an error no handler took: the app's
        `Exception` handler answers it (when nothing was sent yet)."""
        handler = self.app.exception_handlers.get(Exception) or self.app.exception_handlers.get(500)
        if handler is None:
            return
        response = await handler(Request(scope), error)
        if not answered:
            await response(scope, receive, send)


# The door, under the server's own proxy-headers layer, per server app (one per process in service).
_DOORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def door_for(server_app, scope):
    """The app that serves this request through the door, or None (the server's app serves it)."""
    if scope["method"] != "POST" or scope["root_path"] or _PATH.fullmatch(scope["path"]) is None:
        return None
    try:
        return _DOORS[server_app]
    except KeyError:
        pass
    except TypeError:                   # not weakly referable: no door
        return None
    door = _DOORS[server_app] = _door_under(server_app)
    return door


def _door_under(server_app):
    if isinstance(server_app, ProxyHeadersMiddleware):
        door = getattr(server_app.app, "command_door", None)
        if door is None:
            return None
        proxied = copy.copy(server_app)
        proxied.app = door
        return proxied
    return getattr(server_app, "command_door", None)
