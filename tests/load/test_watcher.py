"""A load run's socket (`Watcher`) against a real WebSocket server (aiohttp's): it records each pushed
event once and in order, says when a seq has arrived, and when the server closes it, reports how and
resumes after the last seq it has, as a browser would."""
from __future__ import annotations

import asyncio
import json

import aiohttp
from aiohttp import web

from starbase_cli.loadclients import LobbyHttp, Watcher


def event(seq: int) -> str:
    return json.dumps({"v": 1, "kind": "event", "event": {"seq": seq, "type": "Ticked"}})


async def serve(closes: list[int]):
    """A socket route: a welcome, then two events past `after`; closed with the next of `closes`, if any."""
    asked: list[int] = []

    async def socket(request: web.Request) -> web.WebSocketResponse:
        after = int(request.query["after"])
        asked.append(after)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"v": 1, "kind": "welcome"}))
        for seq in (after + 1, after + 2):
            await ws.send_str(event(seq))
        if closes:
            await ws.close(code=closes.pop(0))
        else:
            await ws.receive()              # open until the client goes
        return ws

    app = web.Application()
    app.router.add_get("/games/g/ws", socket)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return runner, f"http://127.0.0.1:{port}", asked


async def test_a_socket_closed_by_the_server_is_reported_and_resumes_after_its_last_seq():
    runner, base, asked = await serve([1011, 1000])
    errors: list[str] = []
    async with LobbyHttp(base, 4) as http:
        watcher = Watcher(f"{base.replace('http', 'ws')}/games/g/ws", errors.append, sockets=http.sockets)
        watcher.start()
        assert await watcher.wait_for(6, 10)
        assert [e["seq"] for e in watcher.events] == [1, 2, 3, 4, 5, 6] and set(watcher.arrivals) == {1, 2, 3, 4, 5, 6}
        assert asked == [0, 2, 4] and watcher.connections == 3
        assert errors == ["socket closed by the server (code 1011); resumed", "socket ended by the server; resumed"]
        assert not await watcher.wait_for(7, 0.2)           # nothing more comes: not seen, in time
        assert await watcher.wait_for(3, 0.01)              # seen long ago: at once
        waiting = [asyncio.ensure_future(watcher.wait_for(seq, 5)) for seq in (7, 8)]
        await asyncio.sleep(0)
        watcher._take(json.loads(event(7)))                 # as the socket would hand it over
        assert await waiting[0] and not waiting[1].done() and len(watcher._waiting) == 1
        waiting[1].cancel()
        await watcher.close()
    await runner.cleanup()


async def test_a_refusal_or_another_protocol_ends_the_socket():
    errors: list[str] = []
    async with aiohttp.ClientSession() as sockets:
        watcher = Watcher("ws://unused", errors.append, sockets=sockets)
        assert watcher._take({"v": 1, "kind": "error", "error": {"code": "GAME_NOT_FOUND"}}) is False
        assert watcher._take({"v": 2, "kind": "event"}) is False
        assert watcher._take(json.loads(event(1))) and watcher._take(json.loads(event(1)))
        assert watcher._take(json.loads(event(3)))
        assert errors == ["socket refused: GAME_NOT_FOUND", "socket spoke another protocol version",
                          "pushed event duplicated", "pushed events skipped a seq"]
