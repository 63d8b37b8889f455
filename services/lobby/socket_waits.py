"""The two things each open socket's server protocol waits on, without asyncio's deques.

uvicorn's WebSocket protocol keeps, for every connection, an `asyncio.Queue` of what the app will
`receive` and an `asyncio.Event` saying whether its transport takes more (`writable`). Each of those
deques holds a 64-slot block from the start: 760 bytes, and the queue has four (its items, its getters,
its putters, and an Event for `join`). Measured with tracemalloc on 5,000 idle sockets, they were 3.7 KiB
of the 15 KiB an idle socket cost the lobby. The lobby's protocol (`handshake.py`) swaps them for these:
the same behaviour for what uvicorn and the lobby call (`put_nowait`, `get`, `empty`; `set`, `clear`,
`is_set`, `wait`), a list or nothing where asyncio keeps a deque.
"""
from __future__ import annotations

import asyncio
from typing import Any


def _wake(waiters: list[asyncio.Future]) -> None:
    for waiter in waiters:
        if not waiter.done():
            waiter.set_result(None)


async def _until_woken(waiters: list[asyncio.Future]) -> None:
    waiter = asyncio.get_running_loop().create_future()
    waiters.append(waiter)
    try:
        await waiter
    finally:
        waiters.remove(waiter)          # woken or cancelled, each waiter takes itself off


class Inbox:
    """An unbounded first-in, first-out queue: what `asyncio.Queue()` is to uvicorn's protocol. A put
    wakes every waiting `get`; each takes an item if one is left, else waits again, so an item is never
    lost to a getter cancelled after it was woken."""
    __slots__ = ("_items", "_waiters")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiters: list[asyncio.Future] = []

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        if self._waiters:
            _wake(self._waiters)

    def empty(self) -> bool:
        return not self._items

    async def get(self) -> Any:
        while not self._items:
            await _until_woken(self._waiters)
        return self._items.pop(0)


class Flag:
    """`asyncio.Event`: `wait` returns at once while it is set, else when it next is."""
    __slots__ = ("_value", "_waiters")

    def __init__(self, value: bool = False) -> None:
        self._value = value
        self._waiters: list[asyncio.Future] | None = None       # made by the first wait

    def is_set(self) -> bool:
        return self._value

    def set(self) -> None:
        self._value = True
        if self._waiters:
            _wake(self._waiters)

    def clear(self) -> None:
        self._value = False

    async def wait(self) -> bool:
        if self._value:
            return True
        if self._waiters is None:
            self._waiters = []
        await _until_woken(self._waiters)
        return True
