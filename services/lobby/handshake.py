"""The WebSocket opening handshake taken from httptools' parse: what `python -m lobby` gives uvicorn as
its `http` and `ws` protocols (`SERVER_PROTOCOLS`).

uvicorn's own upgrade parses a request with httptools, writes it out again as bytes, and hands those to
`websockets`, which parses them once more in Python (a generator per line), checks them, and builds its
response as a `Headers` object that uvicorn then edits and serializes: about two fifths of the lobby's
CPU per connect. Here a plain handshake (GET, one `Upgrade: websocket`, a `Connection` with `upgrade`, one
16-byte key, version 13, well-formed headers) is checked on the headers httptools already split, and
the 101 is written from a template when the app accepts. The scope, the access log line, the response's
headers and their order, and the connection's state afterwards are what uvicorn's sans-I/O protocol
makes (`tests/lobby/test_handshake.py` compares the bytes). Anything else, a malformed or unusual
request, or a compression offer while per-message deflate is on, takes uvicorn's own path untouched, so
every refusal is uvicorn's and `websockets`'.

The 101 is also held back until the socket's first frame (its welcome) and written with it: one send
for both, where there were two (a hold that no frame follows in the same turn of the loop is written
on the next).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re
from typing import Any
from urllib.parse import unquote

from uvicorn.logging import TRACE_LOG_LEVEL
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import get_client_addr, get_path_with_query_string
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import MAX_LINE_LENGTH, MAX_NUM_HEADERS
from websockets.protocol import OPEN, Protocol

from lobby.command_door import door_for
from lobby.socket_waits import Flag, Inbox

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9a-zA-Z]+")
_VALUE = re.compile(rb"[\x09\x20-\x7e\x80-\xff]*")       # what `websockets` takes in a header value
# Headers whose presence sends a request to uvicorn's own path (a body, or what we do not check here).
_UNUSUAL = {b"transfer-encoding", b"content-length"}


def _tokens(value: bytes) -> list[bytes] | None:
    """A comma-separated list of tokens, or None when it is anything else (then the slow path decides)."""
    items = [item.strip(b" \t") for item in value.split(b",")]
    return items if all(_TOKEN.fullmatch(item) for item in items) else None


def plain_key(method: str, url: bytes, headers: list[tuple[bytes, bytes]], deflate: bool) -> bytes | None:
    """The Sec-WebSocket-Key of a plain handshake request, as httptools parsed it; None for anything
    `websockets` might answer otherwise than with a 101, or parse differently."""
    if method != "GET" or len(url) >= MAX_LINE_LENGTH // 2 or not url.isascii() or len(headers) >= MAX_NUM_HEADERS:
        return None
    key = version = upgrade = None
    connection = origin = False
    for name, value in headers:
        if len(value) >= MAX_LINE_LENGTH // 2 or not _VALUE.fullmatch(value) or name in _UNUSUAL:
            return None
        if name == b"sec-websocket-key":
            if key is not None:
                return None
            key = value
        elif name == b"sec-websocket-version":
            if version is not None:
                return None
            version = value
        elif name == b"upgrade":
            if upgrade is not None:
                return None
            upgrade = value
        elif name == b"connection":
            tokens = _tokens(value)
            if tokens is None:
                return None
            connection = connection or any(token.lower() == b"upgrade" for token in tokens)
        elif name == b"origin":
            if origin:
                return None
            origin = True
        elif name == b"sec-websocket-protocol":
            if _tokens(value) is None:
                return None
        elif name == b"sec-websocket-extensions" and deflate:
            return None                 # negotiated by `websockets` (ignored when deflate is off)
    if not connection or upgrade is None or upgrade.lower() != b"websocket" or version != b"13" or key is None:
        return None
    try:
        if len(base64.b64decode(key, validate=True)) != 16:
            return None
    except binascii.Error:
        return None
    return key


class LobbyHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, its WebSocket upgrade handed over already parsed when it is plain,
    and its commands served through the app's door (command_door.py)."""

    def _start_asgi_task(self, cycle, app) -> None:
        if app is self.app:             # (not uvicorn's 503 for a concurrency limit)
            app = door_for(app, cycle.scope) or app
        super()._start_asgi_task(cycle, app)

    def handle_websocket_upgrade(self) -> None:
        socket_class = self.ws_protocol_class
        if not (isinstance(socket_class, type) and issubclass(socket_class, LobbyWebSocketProtocol)):
            return super().handle_websocket_upgrade()
        key = plain_key(self.scope["method"], self.url, self.headers, self.config.ws_per_message_deflate)
        if key is None:
            return super().handle_websocket_upgrade()
        self.connections.discard(self)
        protocol = socket_class(config=self.config, server_state=self.server_state, app_state=self.app_state)
        protocol.connection_taken_over(self)
        self.transport.set_protocol(protocol)
        protocol.handle_parsed(self.url, self.headers, key)


class LobbyWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, opened from a request httptools parsed (`handle_parsed`)."""

    accept_key: bytes | None = None         # set when opened from the parsed request, until its 101 is sent
    held: bytes | None = None               # the 101, waiting for the first frame to go out with it

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # What the socket receives and whether it takes more, without asyncio's deques (socket_waits.py)
        self.queue, self.writable = Inbox(), Flag(self.writable.is_set())

    def connection_taken_over(self, http: HttpToolsProtocol) -> None:
        """`connection_made`, with the addresses the HTTP protocol already asked the socket for (each
        ask is a system call, and two of them per connection were made twice)."""
        self.connections.add(self)
        self.transport = http.transport
        self.server, self.client = http.server, http.client
        self.scheme = "wss" if http.scheme == "https" else "ws"
        if self.logger.level <= TRACE_LOG_LEVEL:
            prefix = "%s:%d - " % self.client if self.client else ""
            self.logger.log(TRACE_LOG_LEVEL, "%sWebSocket connection made", prefix)

    def handle_parsed(self, url: bytes, headers: list[tuple[bytes, bytes]], key: bytes) -> None:
        """What `handle_connect` does with the `websockets` request it parsed, from httptools' parse."""
        conn = self.conn
        # The request is read: from here the connection reads frames, as after `websockets`' own parse.
        conn.parser = Protocol.parse(conn)
        next(conn.parser)
        self.accept_key = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        self.handshake_initiated = True
        raw_path, _, query_string = url.partition(b"?")
        subprotocols: list[str] = []
        for name, value in headers:
            if name == b"sec-websocket-protocol":
                subprotocols.extend(token.strip() for token in value.decode("latin-1").split(","))
        self.scope = {
            "type": "websocket",
            "asgi": {"version": self.asgi_version, "spec_version": "2.4"},
            "http_version": "1.1",
            "scheme": self.scheme,
            "server": self.server,
            "client": self.client,
            "root_path": self.root_path,
            "path": self.root_path + unquote(raw_path.decode("ascii")),
            "raw_path": self.root_path.encode("ascii") + raw_path,
            "query_string": query_string,
            "headers": headers,
            "subprotocols": subprotocols,
            "state": self.app_state.copy(),
            "extensions": {"websocket.http.response": {}},
        }
        self.queue.put_nowait({"type": "websocket.connect"})
        task = self.loop.create_task(self.run_asgi())
        task.add_done_callback(self.on_task_complete)
        self.tasks.add(task)

    async def send(self, message: Any) -> None:
        if self.accept_key is None or message["type"] != "websocket.accept":
            self.flush_held()
            if self.accept_key is not None and message["type"] == "websocket.close":
                self.accept_key = None          # refused before its 101: uvicorn's 403 (no request needed)
            return await super().send(message)
        await self.writable.wait()
        if self.disconnected:
            return await super().send(message)  # raises as uvicorn does
        self.logger.info('%s - "WebSocket %s" [accepted]', get_client_addr(self.scope),
                         get_path_with_query_string(self.scope))
        # As `websockets` builds it and uvicorn completes it: its three headers (Date dropped), the
        # server's default ones and the message's, names lower-cased, then the subprotocol.
        lines = [b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Accept: ", self.accept_key, b"\r\n"]
        for name, value in (*self.default_headers, *message.get("headers", ())):
            lines += [name.lower(), b": ", value, b"\r\n"]
        subprotocol = message.get("subprotocol")
        if subprotocol:
            lines += [b"Sec-WebSocket-Protocol: ", subprotocol.encode("latin-1"), b"\r\n"]
        lines.append(b"\r\n")
        self.accept_key = None
        if self.transport.is_closing():
            return
        self.handshake_complete = True
        self.conn.state = OPEN
        self.conn.logger.info("connection open")
        self.held = b"".join(lines)
        self.loop.call_soon(self.flush_held)
        self.start_keepalive()

    def take_held(self) -> bytes:
        """The 101 not yet written, for the caller to write before its frame (and nobody else)."""
        held, self.held = self.held, None
        return held or b""

    def flush_held(self) -> None:
        if self.held is not None:
            held, self.held = self.held, None
            if not self.transport.is_closing():
                self.transport.write(held)

    def data_received(self, data: bytes) -> None:
        self.flush_held()                   # anything said in reply goes after the 101
        super().data_received(data)

    def shutdown(self) -> None:
        self.flush_held()
        super().shutdown()


# What `python -m lobby` (and the test stack) run uvicorn with.
SERVER_PROTOCOLS: dict[str, type] = {"http": LobbyHttpProtocol, "ws": LobbyWebSocketProtocol}
