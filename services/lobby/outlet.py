"""Where a socket's pushes go: its ASGI send, or, for live events, its connection's transport directly.

A live event reaches thousands of sockets watching one game. Sent the ASGI way, each socket costs a
task wake-up and a walk through Starlette's and uvicorn's send (tens of µs each). Instead the feed
writes one pre-built WebSocket frame (`frame`: unmasked, one text frame, no extension: per-message
deflate is off) straight to each socket's transport, the bytes shared by every socket of a view.

That needs the server's own protocol object, which ASGI does not expose: `ServerSend` (outermost
middleware) keeps the server's `send` in the scope, and `Outlet.of` accepts it only when it is uvicorn's
sans-I/O WebSocket protocol (what `python -m lobby` runs) and open. Any other server, or a
socket that is closing, simply has no direct path: its pushes go the ASGI way, same bytes.

A reader too slow for its pushes shows as a growing write buffer: past `WRITE_LIMIT` the outlet
refuses (`slow`), and the feed closes the socket with 4408 (the client resumes from its last seq).
"""
from __future__ import annotations

from typing import Awaitable, Callable

from websockets.frames import Frame, Opcode
from websockets.protocol import State

SCOPE_KEY = "starbase.server_send"
WRITE_LIMIT = 1 << 20           # bytes queued for one socket before it counts as too slow


class ServerSend:
    """Pure ASGI: keeps the server's `send` of each WebSocket in its scope (see module doc)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            scope[SCOPE_KEY] = send
        await self.app(scope, receive, send)


def frame(text: str) -> bytes:
    """One unmasked text frame, as a server sends it."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


class Outlet:
    """One socket's way out: `send` (awaited, the ASGI way) and, when the server allows, `write`."""

    def __init__(self, send_text: Callable[[str], Awaitable[None]], protocol=None):
        self.send_text, self._protocol = send_text, protocol

    @classmethod
    def of(cls, scope: dict, send_text: Callable[[str], Awaitable[None]]) -> "Outlet":
        protocol = getattr(scope.get(SCOPE_KEY), "__self__", None)
        direct = all(hasattr(protocol, name) for name in ("transport", "conn", "close_sent"))
        return cls(send_text, protocol if direct else None)

    @property
    def direct(self) -> bool:
        return self._protocol is not None

    async def send(self, text: str) -> None:
        await self.send_text(text)

    def write(self, framed: bytes) -> bool:
        """Write a frame now; False when the socket is closing or its reader is too slow."""
        protocol = self._protocol
        transport = protocol.transport
        if protocol.close_sent or protocol.conn.state is not State.OPEN or transport.is_closing():
            return False
        if transport.get_write_buffer_size() > WRITE_LIMIT:
            return False
        transport.write(framed)
        return True

    def slow(self) -> bool:
        return self._protocol is not None and self._protocol.transport.get_write_buffer_size() > WRITE_LIMIT
