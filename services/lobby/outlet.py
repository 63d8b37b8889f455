"""Where a socket's pushes go: its ASGI send, or, for live events, its connection's transport directly.

A live event reaches thousands of sockets watching one game. Sent the ASGI way, each socket costs a
task wake-up and a walk through the server's send (tens of µs each). Instead the feed writes one
pre-built WebSocket frame (`frame`: unmasked, one text frame, no extension: per-message deflate is off,
and an uncompressed frame stays valid where a client negotiated it) straight to each socket's
transport, the bytes shared by every socket of a view.

That needs the server's own protocol object, which ASGI does not expose: the lobby's sockets are served
from the outermost ASGI layer (`socketgate.py`), so the `send` they get is the server's own, and
`Outlet.of` takes its protocol when it is uvicorn's sans-I/O WebSocket protocol (what `python -m lobby`
runs). Any other server simply has no direct path: its pushes go the ASGI way, same bytes.

A reader too slow for its pushes shows as a growing write buffer: past `WRITE_LIMIT` the outlet
refuses (`slow`), and the socket is closed with 4408 (the client resumes from its last seq).
"""
from __future__ import annotations

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
    __slots__ = ("_send", "_protocol", "_holds")

    def __init__(self, send, protocol=None):
        self._send, self._protocol = send, protocol
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
        transport.write(framed)
        return True

    def slow(self) -> bool:
        return self._protocol is not None and self._protocol.transport.get_write_buffer_size() > WRITE_LIMIT
