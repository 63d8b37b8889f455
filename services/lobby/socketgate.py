"""The lobby's app, its WebSockets taken at the door: `/games/{id}/ws` and `/tables/{id}/ws` go from
the outermost ASGI layer straight to `websocket.Sockets`, everything else to FastAPI as before.

Through FastAPI a socket walked the HTTP middleware (which only passes it on), the router and the
dependency solver on every connect, and then held a coroutine frame in each of those layers for as long
as it stayed open. Here it costs a path split, and an idle socket holds only the server's task waiting
in `receive`. What the sockets do is unchanged: the same checks, refusals, close codes and log lines.

An exception that escapes a socket before its handshake (the store or the adjudicator not answering
while it is checked) is answered by the app's exception handlers, as Starlette's own exception
middleware would: a 503 with the usual error body instead of the upgrade; any other one reaches the
server, which logs it and answers 500.

`freeze_on_start` (what `python -m lobby` sets): once the app has started, everything it holds by then
(modules, FastAPI's routes, pydantic's schemas, the runtime: a few hundred thousand objects that live
as long as the process) is moved out of the garbage collector's sight (`starbase_core.collector`, which
also makes its collections smaller and more even). A full collection
then walks only what came after (sockets, requests): on a crowd of connects those ran every few hundred
sockets and took a tenth of a second or more each, a sixth of the lobby's CPU. Not for an app started
again and again in one process (the tests): whatever it dropped would never be collected.
"""
from __future__ import annotations

from fastapi import FastAPI
from starlette.websockets import WebSocket

from starbase_core.collector import quieter_gc

from lobby.websocket import Sockets, route


class LobbyApp(FastAPI):
    sockets: Sockets | None = None      # set by `create_app`
    command_door = None                 # set by `create_app`: what uvicorn's protocol serves commands with
    freeze_on_start = False

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan" and self.freeze_on_start:
            send = _frozen_once_started(send)
        if scope["type"] == "websocket" and self.sockets is not None:
            params = route(scope)
            if params is not None:
                try:
                    await self.sockets.serve(scope, receive, send, params)
                except Exception as error:
                    if not await self._handled(scope, receive, send, error):
                        raise
                return
        await super().__call__(scope, receive, send)

    async def _handled(self, scope, receive, send, error: Exception) -> bool:
        for kind in type(error).__mro__:
            if kind is Exception:       # the catch-all (and 500) answer HTTP requests only
                return False
            handler = self.exception_handlers.get(kind)
            if handler is not None:
                response = await handler(WebSocket(scope, receive, send), error)
                if response is not None:
                    await response(scope, receive, send)
                return True
        return False


def _frozen_once_started(send):
    async def told(message) -> None:
        if message["type"] == "lifespan.startup.complete":
            quieter_gc()
        await send(message)
    return told
