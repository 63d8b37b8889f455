"""The receive queue and the `writable` flag each lobby socket's protocol waits on (lobby/socket_waits.py):
asyncio's Queue and Event as uvicorn uses them, without their deques, and the protocol using them."""
from __future__ import annotations

import asyncio

import pytest
import uvicorn
from uvicorn.server import ServerState

from lobby.handshake import LobbyWebSocketProtocol
from lobby.socket_waits import Flag, Inbox


async def cancelled_while_waiting(wait) -> None:
    waiting = asyncio.create_task(wait)
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


async def test_the_inbox_hands_out_items_first_in_first_out_and_a_get_waits_for_a_put():
    inbox = Inbox()
    assert inbox.empty() and inbox._items == []
    inbox.put_nowait("connect")
    inbox.put_nowait("receive")
    assert not inbox.empty() and len(inbox._items) == 2
    assert [await inbox.get(), await inbox.get()] == ["connect", "receive"]
    waiting = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    inbox.put_nowait("disconnect")
    assert await asyncio.wait_for(waiting, 1) == "disconnect"
    assert inbox.empty()


async def test_an_item_is_not_lost_to_a_get_cancelled_after_it_was_woken():
    inbox = Inbox()
    first = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait("message")
    first.cancel()                      # woken, but cancelled before it ran
    with pytest.raises(asyncio.CancelledError):
        await first
    assert inbox._items == ["message"]
    assert await asyncio.wait_for(inbox.get(), 1) == "message"
    second = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    second.cancel()                     # cancelled, still listed until it runs: a put must pass it by
    inbox.put_nowait("next")
    with pytest.raises(asyncio.CancelledError):
        await second
    assert await asyncio.wait_for(inbox.get(), 1) == "next"


async def test_two_waiting_gets_each_take_one_item_and_a_cancelled_get_leaves_no_waiter():
    inbox = Inbox()
    gets = [asyncio.create_task(inbox.get()) for _ in range(2)]
    await asyncio.sleep(0)
    inbox.put_nowait(1)
    await asyncio.sleep(0)
    inbox.put_nowait(2)
    assert sorted(await asyncio.wait_for(asyncio.gather(*gets), 1)) == [1, 2]
    await cancelled_while_waiting(inbox.get())
    assert inbox._waiters == []
    inbox.put_nowait(3)
    assert await inbox.get() == 3


async def test_the_flag_lets_a_wait_through_while_set_and_holds_it_while_clear():
    flag = Flag(True)
    assert flag.is_set() and await asyncio.wait_for(flag.wait(), 1) is True
    flag.clear()
    assert not flag.is_set()
    waiters = [asyncio.create_task(flag.wait()) for _ in range(2)]
    await asyncio.sleep(0.01)
    assert not any(w.done() for w in waiters)
    flag.set()
    assert await asyncio.wait_for(asyncio.gather(*waiters), 1) == [True, True]
    flag.clear()
    await cancelled_while_waiting(flag.wait())
    assert flag._waiters == []
    assert Flag().is_set() is False


async def test_the_lobby_protocol_waits_on_these_and_its_send_waits_while_the_transport_is_full():
    async def app(scope, receive, send):
        pass

    config = uvicorn.Config(app, log_config=None, ws_ping_interval=None)
    protocol = LobbyWebSocketProtocol(config=config, server_state=ServerState(), app_state={})
    assert isinstance(protocol.queue, Inbox) and isinstance(protocol.writable, Flag)
    assert protocol.writable.is_set()           # as uvicorn starts it
    protocol.pause_writing()                    # the transport's buffer past its high-water mark
    assert not protocol.writable.is_set()
    protocol.disconnected = True                # so that the send, once through, raises at once
    sending = asyncio.create_task(protocol.send({"type": "websocket.send", "text": "x"}))
    await asyncio.sleep(0.01)
    assert not sending.done()
    protocol.resume_writing()
    with pytest.raises(Exception) as raised:
        await asyncio.wait_for(sending, 1)
    assert type(raised.value).__name__ == "ClientDisconnected"
