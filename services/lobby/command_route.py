"""The hot route, `POST /games/{game_id}/commands`, served as pure ASGI in front of FastAPI's router.

Every move of every player comes this way, and FastAPI's routing (each route tried in turn), dependency
solving and response validation cost more CPU than the command itself (docs/lobby-capacity.md). This
middleware sits inside the app's own (`Measure`, `BodyGate`), so metrics, the body gate and
uvicorn's access log see the request as before, and does the route's work directly: the bearer token
(`accounts.authenticate`, whose verified tokens are remembered), the command limit, `GameService.move`,
and `CommandOut` as the JSON body, written from the events' pushed text (`GameService.pushed`: the
redaction and encoding the mover's socket gets, shared) rather than validated and encoded again.
`command_door.py` serves the same route from uvicorn's protocol, past the middleware, with `serve`.

It serves only what FastAPI would have served the same way. Whatever it cannot take at a glance before
anything is changed (no or a malformed Authorization header, a body that is not a JSON object valid as
`CommandIn`, another media type, a mount under a root path) goes on to FastAPI untouched, body included,
which answers it exactly as before: FastAPI's order of checks (JSON, then the token, then the body's
fields) and its messages stay its own. Once the token is being checked, a refusal is answered by the
app's own exception handlers (`app._install_errors`) and an unexpected error propagates as it would from
the route (a 500 from the outermost middleware), so status codes and bodies are the same either way. The
FastAPI route stays for the OpenAPI document (and serves what this one passes on);
tests/lobby/test_command_route.py compares the two on every kind of request.
"""
from __future__ import annotations

import inspect
import json
import re

from fastapi import FastAPI, Request
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from starbase_core.compact_json import compact

from lobby.bodygate import PARSED
from lobby.router import router
from lobby.schemas import CommandIn

PATH = "/games/{game_id}/commands"
_PATH = re.compile(r"/games/([^/]+)/commands")       # Starlette's `{name}` is one path segment
_JSON = b"application/json"


def command_route() -> APIRoute:
    """The FastAPI route this one stands in front of (its scope label for the metrics, its endpoint)."""
    for route in router.routes:
        if isinstance(route, APIRoute) and route.path == PATH and "POST" in route.methods:
            return route
    raise LookupError(f"no POST {PATH} route in lobby.router")


class CommandRoute:
    """`owner`: the FastAPI app (its runtime in `state.lobby`, its exception handlers)."""

    def __init__(self, app, owner: FastAPI):
        self.app, self.owner = app, owner
        self.route = command_route()
        self._handlers: dict[type, object] = {}      # error class → the app's handler for it (or None)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path") \
                or (found := _PATH.fullmatch(scope["path"])) is None:
            return await self.app(scope, receive, send)
        chunks: list[dict] = []
        while True:             # the body gate has read it all, checked its size and its JSON: small
            message = await receive()
            chunks.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        pending = iter(chunks)

        async def replay():
            return next(pending, None) or await receive()

        taken = _take(scope, chunks)
        if taken is None:
            return await self.app(scope, replay, send)
        await self.serve(scope, replay, send, found.group(1), *taken)

    async def serve(self, scope, replay, send, game_id: str, token: str, command: CommandIn) -> None:
        """The route's work for a request `_take` took; `replay` gives its body again (for a handler)."""
        # What the router sets: `Measure` labels the request with the route's path.
        scope["route"], scope["endpoint"], scope["path_params"] = self.route, self.route.endpoint, {"game_id": game_id}
        runtime = self.owner.state.lobby
        try:
            client = scope.get("client")
            player = await runtime.accounts.authenticate(token, client[0] if client else "unknown")
            await runtime.hit_command(player)
            moved = await runtime.games.move(player, game_id, command.command, command.command_id, command.seat)
            body = _reply(moved.command_id, runtime.games.pushed(moved))
        except Exception as error:
            handler = self._handler(error)
            if handler is None:
                raise           # as from the route: the outermost middleware answers 500 and logs it
            request = Request(scope, replay, send)
            response = await (handler(request, error) if inspect.iscoroutinefunction(handler)
                              else run_in_threadpool(handler, request, error))    # as Starlette calls them
            return await response(scope, replay, send)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(body)).encode()), (b"content-type", _JSON)]})
        await send({"type": "http.response.body", "body": body})

    def _handler(self, error: Exception):
        """The app's handler for this error, as Starlette's exception middleware finds it (by class, most
        specific first); `Exception`'s own is the outermost middleware's, so it is not taken here. Found
        once per class of error (refusals are common: a move out of turn, a rate limit)."""
        kind = type(error)
        try:
            return self._handlers[kind]
        except KeyError:
            pass
        handlers, found = self.owner.exception_handlers, None
        for base in kind.__mro__:
            if base is Exception:
                break
            if base in handlers:
                found = handlers[base]
                break
        self._handlers[kind] = found
        return found


def _reply(command_id: str, events: list[str]) -> bytes:
    """`CommandOut` as JSON, its events the very text the mover's sockets are pushed (made once per
    event and view, shared: docs/lobby-capacity.md, fifteenth round)."""
    return f'{{"command_id":{compact(command_id)},"events":[{",".join(events)}]}}'.encode()


def _take(scope, chunks: list[dict]) -> tuple[str, CommandIn] | None:
    """(the bearer token, the command) when the request is one this route serves as FastAPI would, with
    nothing to refuse before the token is checked; else None (FastAPI takes it)."""
    if chunks[-1]["type"] != "http.request":
        return None             # the client went away: FastAPI's route sees it the same way
    authorization = content_type = None
    for name, value in scope["headers"]:
        if name == b"authorization":
            if authorization is None:
                authorization = value
        elif name == b"content-type":
            if content_type is None:
                content_type = value
    if authorization is None or content_type is None or content_type.split(b";")[0].strip().lower() != _JSON:
        return None
    scheme, _, token = authorization.decode("latin-1").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    try:
        value = scope[PARSED]                   # the body gate's parse of this very body
    except KeyError:
        body = b"".join(message.get("body", b"") for message in chunks)
        if not body:
            return None
        try:
            value = json.loads(body)
        except ValueError:                      # JSONDecodeError and UnicodeDecodeError are ValueErrors
            return None
    try:
        return token, CommandIn.model_validate(value)
    except (ValueError, ValidationError):
        return None
