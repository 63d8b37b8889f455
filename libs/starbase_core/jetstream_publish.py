"""Publishing to JetStream and waiting for the ack, on one long-lived reply subscription.

Why not nats-py's `js.publish`: it makes every publish a request (a fresh token, `asyncio.wait_for` with
a future and a timer of its own, the ack parsed into a dataclass), which is a good part of what an
append costs the adjudicator. Here, as `jetstream_reader` does for reads, one wildcard inbox
(`<inbox>.*`) is subscribed once per publisher with a callback; each publish gets a token under it, a
future the callback completes, and one timer.

Outcomes are nats-py's own, so a caller handles them as it would `js.publish`'s: the ack (stream, seq);
JetStream's refusal as `nats.js.errors.APIError` (BadRequestError with its `err_code` for a wrong
expected last sequence); `NoStreamResponseError` when no stream takes the subject; and, with no answer
within `timeout`, `nats.errors.TimeoutError`. A publish is never sent twice: after a timeout it may or
may not be stored, which the caller finds out by reading the stream (as the store does).
"""
from __future__ import annotations

import asyncio
import itertools
import json

import nats.errors
import nats.js.errors
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

PUBLISH_TIMEOUT = 5.0       # as nats-py's JetStream context waits for an ack by default
NO_RESPONDERS = "503"


class AckedPublisher:
    def __init__(self, connection: NATS, *, timeout: float = PUBLISH_TIMEOUT):
        self._nc, self.timeout = connection, timeout
        self._prefix = ""
        self._subscription: Subscription | None = None
        self._subscribing = asyncio.Lock()
        self._tokens = itertools.count(1)
        self._waiting: dict[str, asyncio.Future] = {}

    async def publish(self, subject: str, payload: bytes, headers: dict[str, str] | None = None) -> tuple[str, int]:
        """Publish and wait for JetStream's ack: (the stream that stored it, its seq there)."""
        if self._subscription is None:
            await self._subscribe()
        loop = asyncio.get_running_loop()
        token = str(next(self._tokens))
        acked = self._waiting[token] = loop.create_future()
        timer = loop.call_later(self.timeout, _give_up, acked)
        try:
            await self._nc.publish(subject, payload, reply=f"{self._prefix}.{token}", headers=headers)
            message = await acked
        finally:
            timer.cancel()
            del self._waiting[token]
        if message.headers and message.headers.get("Status") == NO_RESPONDERS:
            raise nats.js.errors.NoStreamResponseError
        answer = json.loads(message.data)
        if "error" in answer:
            nats.js.errors.APIError.from_error(answer["error"])     # raises the error's own class
        return answer["stream"], answer["seq"]

    async def close(self) -> None:
        if self._subscription is not None and not self._nc.is_closed:
            await self._subscription.unsubscribe()
        self._subscription = None

    async def _subscribe(self) -> None:
        async with self._subscribing:
            if self._subscription is None:
                self._prefix = self._nc.new_inbox()
                self._subscription = await self._nc.subscribe(f"{self._prefix}.*", cb=self._on_ack)

    async def _on_ack(self, message: Msg) -> None:
        acked = self._waiting.get(message.subject.rpartition(".")[2])
        if acked is not None and not acked.done():      # else a late ack of a publish given up on
            acked.set_result(message)


def _give_up(acked: asyncio.Future) -> None:
    if not acked.done():
        acked.set_exception(nats.errors.TimeoutError())
