"""A real HTTP receiver on a loopback port, for webhook tests: it records every request and answers
with a scripted status (then `default`); `hold` keeps chosen requests waiting until released."""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from dataclasses import dataclass


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    status: int | None = None     # None: the connection was dropped unanswered

    @property
    def json(self) -> dict:
        return json.loads(self.body)

    @property
    def id(self) -> str:
        return self.headers["starbase-notification-id"]


def verified(received: Received, secret: str) -> bool:
    """The receiver's side of the signature, written from docs/notifier.md, not from our code."""
    stamp = received.headers["starbase-timestamp"]
    expected = hmac.new(secret.encode(), stamp.encode() + b"." + received.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(received.headers["starbase-signature"], f"v1={expected}")


class Receiver:
    def __init__(self, statuses: list[int] | None = None, default: int = 200):
        self.statuses, self.default = list(statuses or []), default
        self.requests: list[Received] = []
        self.hold_next = 0                      # hold this many requests from now on
        self.held = asyncio.Event()             # set while a request is held
        self.release = asyncio.Event()
        self.drop_held = False                  # when released: close without answering
        self._server = None
        self.arrived = asyncio.Condition()

    async def start(self) -> "Receiver":
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}/hooks/starbase"

    async def stop(self) -> None:
        self.release.set()
        self._server.close()

    def answered(self) -> list[Received]:
        return [r for r in self.requests if r.status is not None and 200 <= r.status < 300]

    async def wait_for(self, count: int, timeout: float = 30.0, ok_only: bool = True) -> None:
        async def enough() -> None:
            async with self.arrived:
                await self.arrived.wait_for(
                    lambda: len(self.answered() if ok_only else self.requests) >= count)
        await asyncio.wait_for(enough(), timeout)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                headers = {}
                while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = header.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                received = Received(headers, body)
                self.requests.append(received)
                if self.hold_next > 0:
                    self.hold_next -= 1
                    self.held.set()
                    await self.release.wait()
                    if self.drop_held:
                        return
                received.status = self.statuses.pop(0) if self.statuses else self.default
                writer.write(f"HTTP/1.1 {received.status} X\r\nContent-Length: 2\r\n\r\nok".encode())
                await writer.drain()
                async with self.arrived:
                    self.arrived.notify_all()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
