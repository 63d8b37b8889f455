"""A socket's direct writes (starbase_core/outlet.py) on a real uvicorn server: a move's answer written
`soon` goes out with the frames written to the socket in the same loop turn, in one send, ahead of them;
alone, at the end of the turn; and never after the socket's close."""
from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from lobby.handshake import SERVER_PROTOCOLS
from starbase_core.outlet import Outlet, frame
from tests.lobby.test_handshake import serve


class Sends:
    """The server's transport for one socket, counting the sends made on it."""

    def __init__(self, transport) -> None:
        self._transport, self.sends = transport, []

    def write(self, data: bytes) -> None:
        self.sends.append(data)
        self._transport.write(data)

    def __getattr__(self, name):
        return getattr(self._transport, name)


class Answering:
    """Answers each message the way the lobby answers a move: by the message's text, told what to do."""

    def __init__(self) -> None:
        self.transport: Sends | None = None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "websocket":
            return
        await receive()
        await send({"type": "websocket.accept"})
        outlet = Outlet.of(send)
        assert outlet.direct
        protocol = send.__self__
        protocol.transport = self.transport = Sends(protocol.transport)
        while (message := await receive())["type"] == "websocket.receive":
            said = message["text"]
            if said == "with-push":     # the feed's push of the move's events, due later in this turn (the
                # reply handed them out before the answer was made: `Feed.stored`)
                asyncio.get_running_loop().call_soon(outlet.write, frame('{"kind":"event"}'))
            assert outlet.write_text_soon(json.dumps({"kind": "ack", "id": said}))
            if said == "then-close":
                await send({"type": "websocket.close", "code": 4000})
                return


@pytest.fixture
async def answering():
    app = Answering()
    server, task, port = await serve(app, **SERVER_PROTOCOLS)
    yield app, port
    server.should_exit = True
    await task


async def test_an_answer_goes_out_with_the_push_written_in_its_turn_in_one_send(answering):
    app, port = answering
    async with websockets.connect(f"ws://127.0.0.1:{port}/games/g/ws") as socket:
        await socket.send("alone")                  # nothing else this turn: written at its end
        assert json.loads(await asyncio.wait_for(socket.recv(), 5)) == {"kind": "ack", "id": "alone"}
        before = len(app.transport.sends)
        await socket.send("with-push")
        assert [json.loads(await asyncio.wait_for(socket.recv(), 5)) for _ in range(2)] == \
               [{"kind": "ack", "id": "with-push"}, {"kind": "event"}]
        assert len(app.transport.sends) == before + 1


async def test_an_answer_is_never_written_after_the_sockets_close(answering):
    app, port = answering
    async with websockets.connect(f"ws://127.0.0.1:{port}/games/g/ws") as socket:
        await socket.send("then-close")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), 5)
        assert closed.value.rcvd.code == 4000
        await asyncio.sleep(0.05)
        # The close frame was the last thing sent: the answer waiting for the turn's end was dropped.
        assert app.transport.sends and app.transport.sends[-1][:1] == b"\x88"
