"""Reading a JetStream stream's messages fast: direct gets answered on one long-lived subscription.

Why not nats-py's own calls: `js.get_msg` makes one request per message, and a subscription read with
`next_msg` costs a task, a timer and a uuid per message, plus a SUB and an UNSUB per batch. Here one
wildcard inbox (`<inbox>.*`) is subscribed once per reader, with a callback; each request gets its own
token under it, and the callback files every reply with its request. A batch request
(`$JS.API.DIRECT.GET`, `next_by_subj` + `batch`) brings up to `batch` messages of one subject in one
round trip; the server closes it with a `204` status (and says whether more are pending) or, when there
is nothing, a `404`.

Reads are idempotent, so a request that gets no answer (a connection that just died) is sent again on a
fresh token, so a late answer to the lost one can never mix in. A wait times out only when nothing at all
arrived for `timeout` seconds, so a big batch on a slow machine is not cut off.
"""
from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import AsyncIterator

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from starbase_core.store import StoreError

READ_BATCH = 1024
READ_TIMEOUT = 2.0
ATTEMPTS = 3
# Replies wait in the subscription's queue until the callback files them: let a few big batches fit.
PENDING_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Stored:
    """One stored message: its JetStream seq, subject and payload."""

    seq: int
    subject: str
    data: bytes


@dataclass
class _Request:
    single: bool
    done: asyncio.Future
    replies: list[Stored] = field(default_factory=list)
    heard: int = 0              # replies of any kind, to tell a slow answer from none


class DirectReader:
    def __init__(self, connection: NATS, stream_name: str, *, batch: int = READ_BATCH,
                 timeout: float = READ_TIMEOUT):
        self._nc, self.stream_name, self.batch, self.timeout = connection, stream_name, batch, timeout
        self._api = f"$JS.API.DIRECT.GET.{stream_name}"
        self._prefix = ""
        self._subscription: Subscription | None = None
        self._subscribing = asyncio.Lock()
        self._tokens = itertools.count(1)
        self._requests: dict[str, _Request] = {}

    async def messages(self, subject: str, start: int = 1) -> AsyncIterator[Stored]:
        """Every message on `subject` from JetStream seq `start` on, in order, by batches."""
        while True:
            batch, more = await self._ask({"seq": start, "next_by_subj": subject, "batch": self.batch})
            for stored in batch:
                yield stored
            if not more or not batch:
                return
            start = batch[-1].seq + 1

    async def next(self, subject: str, start: int) -> Stored | None:
        """The first message on `subject` at JetStream seq `start` or later, or None if there is none."""
        found, _ = await self._ask({"seq": start, "next_by_subj": subject}, single=True)
        return found[0] if found else None

    async def get(self, seq: int) -> Stored | None:
        """The message at JetStream seq `seq` (any subject), or None if there is none."""
        found, _ = await self._ask({"seq": seq}, single=True)
        return found[0] if found else None

    async def last(self, subject: str) -> Stored | None:
        """The last message on `subject`, or None if it has none."""
        found, _ = await self._ask({"last_by_subj": subject}, single=True)
        return found[0] if found else None

    async def close(self) -> None:
        if self._subscription is not None and not self._nc.is_closed:
            await self._subscription.unsubscribe()
        self._subscription = None

    # ---- requests and replies ---------------------------------------------------------------------

    async def _ask(self, request: dict, single: bool = False) -> tuple[list[Stored], bool]:
        """Send one direct-get request; (the messages it brought, more pending after them?)."""
        await self._subscribed()
        payload = json.dumps(request).encode()
        for _ in range(ATTEMPTS):
            token = str(next(self._tokens))
            pending = _Request(single, asyncio.get_running_loop().create_future())
            self._requests[token] = pending
            try:
                await self._nc.publish(self._api, payload, reply=f"{self._prefix}.{token}")
                if await self._answered(pending):
                    return pending.replies, pending.done.result()
            finally:
                del self._requests[token]
        raise StoreError(f"reading {self.stream_name}: no answer from JetStream")

    async def _answered(self, pending: _Request) -> bool:
        """Wait until the request is answered (True) or nothing arrived for `timeout` seconds (False)."""
        while True:
            heard = pending.heard
            try:
                await asyncio.wait_for(asyncio.shield(pending.done), self.timeout)
                return True
            except asyncio.TimeoutError:
                if pending.heard == heard:
                    return False

    async def _subscribed(self) -> None:
        if self._subscription is not None:
            return
        async with self._subscribing:
            if self._subscription is None:
                self._prefix = self._nc.new_inbox()
                self._subscription = await self._nc.subscribe(
                    f"{self._prefix}.*", cb=self._on_reply, pending_bytes_limit=PENDING_BYTES)

    async def _on_reply(self, message: Msg) -> None:
        pending = self._requests.get(message.subject.rpartition(".")[2])
        if pending is None or pending.done.done():
            return                  # a late answer to a request given up on, or the tail of a finished one
        pending.heard += 1
        headers = message.headers or {}
        status = headers.get("Status")
        if status == "404":
            pending.done.set_result(False)
        elif status == "204":       # the end of a batch
            pending.done.set_result(headers.get("Nats-Num-Pending", "0") != "0")
        elif status is not None:    # 503: no responders (JetStream not up yet), 408, …
            description = headers.get("Description", "")
            pending.done.set_exception(StoreError(
                f"reading {self.stream_name} failed: status {status} {description}".rstrip()))
        else:
            pending.replies.append(Stored(int(headers["Nats-Sequence"]), headers.get("Nats-Subject", ""),
                                          message.data))
            if pending.single or headers.get("Nats-Num-Pending") == "0":
                pending.done.set_result(False)
