"""Where a socket's pushes go: its ASGI send, or its connection's transport directly.

A live event reaches thousands of sockets watching one game (the lobby), or five frames go out per
Trucker move. Sent the ASGI way, each costs a task wake-up and a walk through the server's send (tens
of µs each). Instead a pusher writes straight to the socket's transport: the lobby's feed one pre-built
WebSocket frame (`frame`: unmasked, one text frame, no extension: an uncompressed frame stays valid
where a client negotiated per-message deflate), the bytes shared by every socket of a view (`write`);
the Trucker a message through the connection's own encoder, at once when the server's send would not
wait (`write_text`).

That needs the server's own protocol object, which ASGI does not expose: `Outlet.of` takes it from the
`send` the server called the app with (the lobby serves sockets from the outermost ASGI layer,
`socketgate.py`; the Trucker keeps the server's send in the scope before Starlette wraps it), when it is
uvicorn's sans-I/O WebSocket protocol (what both services run). Any other server simply has no direct
path: its pushes go the ASGI way, same bytes.

A reader too slow for its pushes shows as a growing write buffer: past `WRITE_LIMIT` the outlet
refuses (`slow`), and the lobby closes the socket with 4408 (the client resumes from its last seq).
"""
from __future__ import annotations

import asyncio

from websockets.exceptions import InvalidState
from websockets.protocol import State

WRITE_LIMIT = 1 << 20           # bytes queued for one socket before it counts as too slow
_DIRECT = ("transport", "conn", "close_sent", "writable", "handshake_complete")
_direct_kinds: dict[type, bool] = {}       # per protocol class: whether it has all of `_DIRECT`


def frame(text: str) -> bytes:
    """One unmasked, final text frame, as a server sends it (RFC 6455 §5.2)."""
    data = text.encode()
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 1 << 16:
        return b"\x81\x7e" + size.to_bytes(2, "big") + data
    return b"\x81\x7f" + size.to_bytes(8, "big") + data


class Outlet:
    """One socket's way out: `send` (awaited, the ASGI way) and, when the server allows, `write`."""
    __slots__ = ("_send", "_protocol", "_holds", "_soon")

    def __init__(self, send, protocol=None):
        self._send, self._protocol = send, protocol
        self._soon: bytes | None = None         # `write_text_soon`'s bytes, until the end of this loop turn
        # The lobby's own protocol holds its 101 back for the first frame (`handshake.py`).
        self._holds = protocol is not None and hasattr(protocol, "take_held")

    @classmethod
    def of(cls, send) -> "Outlet":
        """`send`: the ASGI send the server called the app with (its protocol's bound method)."""
        protocol = getattr(send, "__self__", None)
        kind = type(protocol)
        direct = _direct_kinds.get(kind)
        if direct is None:
            direct = _direct_kinds[kind] = all(hasattr(protocol, name) for name in _DIRECT)
        return cls(send, protocol if direct else None)

    def shed_handshake(self) -> None:
        """Let go of what the server keeps of an open socket's handshake and never reads again: the
        parsed request and the response, with their headers (a tenth of an idle socket's memory)."""
        protocol = self._protocol
        if protocol is not None and protocol.handshake_complete:
            for name in ("request", "response"):
                if getattr(protocol, name, None) is not None:
                    setattr(protocol, name, None)

    @property
    def direct(self) -> bool:
        return self._protocol is not None

    async def send(self, text: str) -> None:
        # The server writes each message whole: messages from a socket's side tasks never interleave.
        await self._send({"type": "websocket.send", "text": text})

    async def close(self, code: int, reason: str = "") -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason})

    async def ready(self) -> None:
        """Until the server would take more (its write buffer under its high-water mark), as its own
        send waits: a long backlog written directly is paced like one sent the ASGI way."""
        await self._protocol.writable.wait()

    def write(self, framed: bytes) -> bool:
        """Write a frame now; False when the socket is closing or its reader is too slow."""
        protocol = self._protocol
        transport = protocol.transport
        if protocol.close_sent or protocol.conn.state is not State.OPEN or transport.is_closing():
            return False
        if transport.get_write_buffer_size() > WRITE_LIMIT:
            return False
        if self._holds and protocol.held is not None:
            framed = protocol.take_held() + framed      # the 101 and the first frame: one send
        if self._soon is not None:
            framed, self._soon = self._soon + framed, None
        transport.write(framed)
        return True

    def write_text(self, text: str) -> bool:
        """Write a message now, through the connection's encoder (its extensions), if the server's own
        send would not wait for it (open, its buffer under the high-water mark); False: not written,
        send it the ASGI way (whose send waits for the buffer to drain)."""
        protocol = self._protocol
        if not self.writable():
            return False
        data = self._encoded(text)
        if data is None:
            return False
        if self._soon is not None:
            data, self._soon = self._soon + data, None
        protocol.transport.write(data)
        return True

    def write_text_soon(self, text: str) -> bool:
        """`write_text`, but its bytes wait for the end of this turn of the loop, and anything written
        to the socket meanwhile goes out after them in the same send: a move's ack and the push of the
        move's events (handed out in the same turn) cost one send, not two."""
        data = self._encoded(text) if self.writable() else None
        if data is None:
            return False
        if self._soon is None:
            self._soon = data
            asyncio.get_running_loop().call_soon(self._write_soon)
        else:
            self._soon += data
        return True

    def writable(self) -> bool:
        """Open, and the server's own send would not wait (its buffer under the high-water mark)."""
        protocol = self._protocol
        return not (protocol is None or protocol.close_sent or protocol.conn.state is not State.OPEN
                    or protocol.transport.is_closing() or not protocol.writable.is_set())

    def _encoded(self, text: str) -> bytes | None:
        """`text` as a message through the connection's encoder (its extensions); None when closing."""
        protocol = self._protocol
        try:
            protocol.conn.send_text(text.encode())
        except InvalidState:            # closing meanwhile: the ASGI send reports it its own way
            return None
        return b"".join(protocol.conn.data_to_send())

    def _write_soon(self) -> None:
        data, self._soon, protocol = self._soon, None, self._protocol
        # Not after a close frame: a socket closed meanwhile loses its ack as a send would have.
        if data is not None and not (protocol.close_sent or protocol.conn.state is not State.OPEN
                                     or protocol.transport.is_closing()):
            protocol.transport.write(data)

    def slow(self) -> bool:
        return self._protocol is not None and self._protocol.transport.get_write_buffer_size() > WRITE_LIMIT
