"""The lobby's WebSocket handshake (lobby/handshake.py) against uvicorn's own: the same requests, good and
bad, sent to a server run with the lobby's protocols and to one run with uvicorn's httptools and sans-I/O
WebSocket protocols, and everything that comes back compared byte for byte (the Date header aside), with
the scope each app was called with."""
from __future__ import annotations

import asyncio
import base64
import re

import pytest
import uvicorn

from lobby.handshake import SERVER_PROTOCOLS, LobbyWebSocketProtocol, plain_key
from starbase_core.outlet import Outlet, frame

KEY = base64.b64encode(b"0123456789abcdef")
PLAIN = [(b"Host", b"lobby"), (b"Upgrade", b"websocket"), (b"Connection", b"Upgrade"),
         (b"Sec-WebSocket-Key", KEY), (b"Sec-WebSocket-Version", b"13")]


def request(headers=PLAIN, target=b"/games/g1/ws?after=3", method=b"GET", version=b"HTTP/1.1",
            body=b"") -> bytes:
    return (method + b" " + target + b" " + version + b"\r\n"
            + b"".join(name + b": " + value + b"\r\n" for name, value in headers) + b"\r\n" + body)


def replaced(name: bytes, value: bytes | None) -> list[tuple[bytes, bytes]]:
    kept = [(n, v) for n, v in PLAIN if n.lower() != name.lower()]
    return kept + ([(name, value)] if value is not None else [])


class Recorder:
    """An ASGI app doing what the lobby's socket routes do, told by the request's path; it notes the
    scope it got, and on the lobby's protocol whether its 101 waited for the first frame."""

    def __init__(self) -> None:
        self.scopes: list[dict] = []
        self.held: list[tuple[bool, bool]] = []

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "websocket":
            return
        noted = {k: v for k, v in scope.items() if k not in ("client", "server", "state")}
        noted["hosts"] = (scope["client"][0], scope["server"][0])     # the ports differ between the servers
        self.scopes.append(noted)
        await receive()
        path = scope["path"]
        if path.endswith("/refuse"):                        # turned away before the handshake completes
            await send({"type": "websocket.close", "code": 1000})
            return
        if path.endswith("/http"):                          # an HTTP answer instead of the upgrade
            await send({"type": "websocket.http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "websocket.http.response.body", "body": b"no such game"})
            return
        protocol = None if path.endswith("/bare") else "starbase.v1"
        await send({"type": "websocket.accept", "subprotocol": protocol, "headers": [(b"X-Extra", b"1")]})
        outlet = Outlet.of(send)
        server = getattr(send, "__self__", None)
        waited = isinstance(server, LobbyWebSocketProtocol) and server.held is not None
        if outlet.direct and path.endswith("/direct"):      # the feed's write, as for a welcome
            outlet.write(frame('{"v":1,"kind":"welcome"}'))
        else:
            await send({"type": "websocket.send", "text": '{"v":1,"kind":"welcome"}'})
        self.held.append((waited, isinstance(server, LobbyWebSocketProtocol) and server.held is None))
        message = await receive()
        if message["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": "echo " + message["text"]})
            await receive()


async def serve(app, **protocols) -> tuple[uvicorn.Server, asyncio.Task, int]:
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, lifespan="off",
                            ws_per_message_deflate=False, ws_ping_interval=None, **protocols)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    return server, task, server.servers[0].sockets[0].getsockname()[1]


@pytest.fixture
async def servers():
    lean, stock = Recorder(), Recorder()
    running = [await serve(lean, **SERVER_PROTOCOLS),
               await serve(stock, http="httptools", ws="websockets-sansio")]
    yield (lean, running[0][2]), (stock, running[1][2])
    for server, task, _ in running:
        server.should_exit = True
    for server, task, _ in running:
        await task


DATE = re.compile(rb"\r\ndate: [^\r]*", re.IGNORECASE)


async def exchange(port: int, sent: bytes, then: bytes = b"") -> bytes:
    """Send `sent`, read until the server closes (or goes quiet), sending `then` after the 101."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(sent)
    received = b""
    try:
        while True:
            chunk = await asyncio.wait_for(reader.read(65536), 2.0)
            if not chunk:
                break
            received += chunk
            if then and b"\r\n\r\n" in received and b"welcome" in received:
                writer.write(then)
                then = b""
            elif received.startswith(b"HTTP/1.1 101") and b"welcome" in received and not then:
                # Answer the welcome with a close, as a client leaving does, and read the echo of it.
                writer.write(bytes([0x88, 0x82]) + b"\0\0\0\0" + (1000).to_bytes(2, "big"))
    except asyncio.TimeoutError:
        pass
    finally:
        writer.close()
    return DATE.sub(b"\r\ndate: -", received)


def masked_text(text: str) -> bytes:
    data = text.encode()
    return bytes([0x81, 0x80 | len(data)]) + b"\0\0\0\0" + data


CASES = {
    "plain": request(),
    "plain, the feed's write first": request(target=b"/games/g1/direct"),
    "no subprotocol accepted": request(target=b"/games/g1/bare"),
    "subprotocols offered": request(PLAIN + [(b"Sec-WebSocket-Protocol", b"starbase.v1, ticket.abc")]),
    "subprotocols in two headers": request(PLAIN + [(b"Sec-WebSocket-Protocol", b"starbase.v1"),
                                                    (b"Sec-WebSocket-Protocol", b"ticket.x")]),
    "a subprotocol that is no token": request(PLAIN + [(b"Sec-WebSocket-Protocol", b"a b")]),
    "compression offered (off here)": request(PLAIN + [(b"Sec-WebSocket-Extensions",
                                                        b"permessage-deflate; client_max_window_bits")]),
    "connection: keep-alive, Upgrade": request(replaced(b"Connection", b"keep-alive, Upgrade")),
    "connection without upgrade": request(replaced(b"Connection", b"keep-alive")),
    "upgrade: WebSocket": request(replaced(b"Upgrade", b"WebSocket")),
    "two upgrades": request(PLAIN + [(b"Upgrade", b"websocket")]),
    "no key": request(replaced(b"Sec-WebSocket-Key", None)),
    "a key not base64": request(replaced(b"Sec-WebSocket-Key", b"not base64!")),
    "a key too short": request(replaced(b"Sec-WebSocket-Key", base64.b64encode(b"short"))),
    "two keys": request(PLAIN + [(b"Sec-WebSocket-Key", KEY)]),
    "version 8": request(replaced(b"Sec-WebSocket-Version", b"8")),
    "no version": request(replaced(b"Sec-WebSocket-Version", None)),
    "two origins": request(PLAIN + [(b"Origin", b"https://a"), (b"Origin", b"https://b")]),
    "one origin": request(PLAIN + [(b"Origin", b"https://a")]),
    "a body": request(PLAIN + [(b"Content-Length", b"5")], body=b"hello"),
    "a quoted path": request(target=b"/games/g%201/ws?after=0&notify=turns"),
    "HTTP/1.0": request(version=b"HTTP/1.0"),
    "refused before the handshake": request(target=b"/games/g1/refuse"),
    "an HTTP answer instead": request(target=b"/games/g1/http"),
    "many headers": request(PLAIN + [(f"X-{n}".encode(), b"v") for n in range(130)]),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_every_handshake_is_answered_as_uvicorn_answers_it(servers, case):
    (lean, lean_port), (stock, stock_port) = servers
    sent = CASES[case]
    ours, theirs = await exchange(lean_port, sent), await exchange(stock_port, sent)
    assert ours == theirs
    assert lean.scopes == stock.scopes


async def test_a_message_from_the_client_reaches_the_app_after_the_upgrade(servers):
    (lean, lean_port), (stock, stock_port) = servers
    echo = masked_text("hi")                    # then a close, once the echo came back
    ours = await exchange(lean_port, request(), then=echo)
    assert ours == await exchange(stock_port, request(), then=echo)
    assert b"echo hi" in ours


async def test_a_plain_handshake_is_taken_from_the_parse_and_its_101_goes_out_with_the_first_frame(servers):
    (lean, lean_port), _ = servers
    await exchange(lean_port, request(target=b"/games/g1/direct"))
    await exchange(lean_port, request())
    # The 101 waited after the accept until the first frame: joined to it when the feed writes it,
    # written just before it when it is sent the ASGI way.
    assert lean.held == [(True, True), (True, True)]
    assert plain_key("GET", b"/games/g1/ws", [(n.lower(), v) for n, v in PLAIN], deflate=False) == KEY
    assert plain_key("GET", b"/games/g1/ws", [(n.lower(), v) for n, v in replaced(b"Sec-WebSocket-Key", None)],
                     deflate=False) is None
    assert plain_key("GET", b"/", [(n.lower(), v) for n, v in PLAIN + [(b"Sec-WebSocket-Extensions", b"x")]],
                     deflate=True) is None
