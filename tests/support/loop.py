"""Helpers for the player's-loop tests: waiting for what the lobby learns asynchronously, reading a
socket's messages by kind."""
from __future__ import annotations

import asyncio
import json


async def eventually(check, what: str, timeout: float = 20):
    """Call `check` until it returns something other than None (or a falsy value); give up after `timeout`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (value := await check()):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.05)
    return value


class Inbox:
    """Every message a socket receives, kept in order, read in the background."""

    def __init__(self, socket):
        self.socket, self.messages = socket, []
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                self.messages.append(json.loads(raw))
        except Exception:
            pass

    def kind(self, kind: str) -> list[dict]:
        return [m for m in self.messages if m.get("kind") == kind]

    def last_event_seq(self) -> int:
        events = self.kind("event")
        return events[-1]["event"]["seq"] if events else 0      # protocol 1: the event is nested

    async def close(self) -> None:
        await self.socket.close()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
