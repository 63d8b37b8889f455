"""The client's side of SubmitStream: commands sent as messages on a few long-lived streams, each reply
matched to its request by the request's `call` number.

Why: most of what a command costs (both ends) is gRPC's work per unary call; a message on an open stream
skips it. What stays as with unary Submit (the client's `_call` loop retries on top of `send`):
- Each request waits at most `timeout` for its reply, then fails DEADLINE_EXCEEDED, whatever its stream
  does (a stuck stream hangs no caller); that stream takes no new request afterwards.
- A stream that ends (a replica died, maybe between its append and its reply; UNAVAILABLE from the
  server) fails every request still waiting on it with its status: the caller resends each with the same
  command id (the same events, stored once) on another stream. A stream that ends cleanly with requests
  unanswered fails them UNAVAILABLE too, and so does one whose status gRPC lost (see `_status_lost`;
  `status_was_lost` tells that error, so the client can ask again on a unary call, which keeps it).
- Spread over replicas by game: one stream per shard of games (the client's), opened with the shard's
  header, so the channel's ring-hash balancer puts it on the shard's replica (the next one on the ring
  while that one is down); each stream is replaced after `max_age` seconds, so the streams follow
  replicas that join, leave or come back, as unary calls did.
- The stream and its reader start in an empty context: the stream is nobody's trace (each request
  carries its own `traceparent`, see the client) and its log lines carry no command's ids.
"""
from __future__ import annotations

import asyncio
import contextvars
import itertools
from collections import deque

import grpc

from adjudicator.wire import pb

STATUS_LOST = "the stream ended while a request was being sent and gRPC lost its status; try again"
MAX_AGE = 30.0      # seconds a stream takes new requests before it is replaced


def rpc_error(code: grpc.StatusCode, details: str) -> grpc.aio.AioRpcError:
    """An error as a unary call would have raised it, so callers handle both paths alike."""
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details)


class SubmitStreams:
    """A SubmitStream of `stub`'s channel per shard, opened with that shard's `metadata[shard]` when first
    needed."""

    def __init__(self, stub, metadata: list[tuple], *, max_age: float = MAX_AGE):
        self._stub, self._metadata, self._max_age = stub, metadata, max_age
        self._slots: list[_Stream | None] = [None] * len(metadata)
        self._calls = itertools.count(1)

    async def send(self, request: "pb.SubmitRequest", shard: int, timeout: float,
                   wait_for_ready: bool) -> "pb.EventsReply":
        """The reply to `request` (its `call` set here) on `shard`'s stream, or the AioRpcError a unary
        Submit would raise."""
        stream = self._slots[shard]
        loop = asyncio.get_running_loop()
        if stream is None or not stream.accepting or loop.time() - stream.opened > self._max_age:
            if stream is not None:
                stream.retire()         # it ends once it has answered what it was sent
            stream = self._slots[shard] = _Stream(self._stub, self._metadata[shard], wait_for_ready, loop)
        request.call = next(self._calls)
        return await stream.send(request, timeout)

    def close(self) -> None:
        for stream in self._slots:
            if stream is not None:
                stream.cancel()
        self._slots = [None] * len(self._slots)


class _Stream:
    """One SubmitStream. Requests go out through the call's own request iterator (gRPC's task writes
    them), so a caller cancelled or timed out never cancels a write, which would end the whole stream."""

    def __init__(self, stub, metadata, wait_for_ready: bool, loop: asyncio.AbstractEventLoop):
        self.accepting, self.opened = True, loop.time()
        self._loop = loop
        self._waiting: dict[int, asyncio.Future] = {}      # call -> the future its reply resolves
        self._outbox: deque = deque()
        self._more = asyncio.Event()
        self._ended: grpc.aio.AioRpcError | None = None
        self._stuck = self._closed = False
        fresh = contextvars.Context()
        self._call = fresh.run(stub.SubmitStream, self._outgoing(), metadata=metadata,
                               wait_for_ready=wait_for_ready)
        self._reader = loop.create_task(self._read(), context=fresh)

    async def send(self, request, timeout: float):
        if self._ended is not None:
            raise _copy(self._ended)
        future = self._waiting[request.call] = self._loop.create_future()
        self._outbox.append(request)
        self._more.set()
        try:
            async with asyncio.timeout(timeout):
                return await future
        except TimeoutError:
            self._stuck = True          # perhaps stuck: no new request goes to it, and it is cancelled
            self.retire()               # once nobody waits on it (it may never end by itself)
            raise rpc_error(grpc.StatusCode.DEADLINE_EXCEEDED, "no reply on the stream in time") from None
        finally:
            del self._waiting[request.call]
            if self._stuck and not self._waiting:
                self._call.cancel()

    def retire(self) -> None:
        """Take no new request: the requests queued are sent, then the stream is half-closed, and the
        adjudicator ends it (OK) once it has answered them all."""
        self.accepting = False
        self._more.set()

    def cancel(self) -> None:
        self.accepting, self._closed = False, True
        self._call.cancel()

    async def _outgoing(self):
        """The requests, as gRPC's task asks for them; ends (a half-close) once the stream is retired and
        all its requests are out, or once it has ended (so that task ends too)."""
        while self._ended is None:
            while self._outbox:
                request = self._outbox.popleft()
                if request.call in self._waiting:       # not if its caller has given up meanwhile
                    yield request
            if not self.accepting:
                return
            self._more.clear()
            await self._more.wait()

    async def _read(self) -> None:
        try:
            async for reply in self._call:
                future = self._waiting.get(reply.call)
                if future is None or future.done():
                    continue
                if reply.WhichOneof("result") == "failure":     # this request alone, as unary raises it
                    future.set_exception(rpc_error(status_named(reply.failure.code), reply.failure.details))
                else:
                    future.set_result(reply)
            ended = rpc_error(grpc.StatusCode.UNAVAILABLE, "the stream ended before answering; try again")
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.CANCELLED and not self._closed:     # the server dropped it
                ended = rpc_error(grpc.StatusCode.UNAVAILABLE, f"the stream was cancelled: {error.details()}")
            elif _status_lost(error):
                ended = rpc_error(grpc.StatusCode.UNAVAILABLE, STATUS_LOST)
            else:
                ended = error
        except asyncio.CancelledError:      # cancelled here: by close(), or stuck with nobody waiting
            ended = rpc_error(grpc.StatusCode.CANCELLED if self._closed else grpc.StatusCode.UNAVAILABLE,
                              "the stream was closed")
        except Exception as error:          # e.g. the call's own InvalidStateError: as a stream broken
            ended = rpc_error(grpc.StatusCode.UNAVAILABLE, f"the stream broke: {error!r}")
        self.accepting, self._ended = False, ended
        self._more.set()
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(_copy(ended))


def _copy(error: grpc.aio.AioRpcError) -> grpc.aio.AioRpcError:
    """One exception object per waiting caller (each raise writes its own traceback onto it)."""
    return grpc.aio.AioRpcError(error.code(), error.initial_metadata(), error.trailing_metadata(),
                                error.details(), error.debug_error_string())


def status_was_lost(error: grpc.aio.AioRpcError) -> bool:
    """Whether `send` failed because gRPC lost its stream's status: the stream may have ended for any
    reason, a refusal of the caller (UNAUTHENTICATED, PERMISSION_DENIED) as well as a failure."""
    return error.code() == grpc.StatusCode.UNAVAILABLE and error.details() == STATUS_LOST


def _status_lost(error: grpc.aio.AioRpcError) -> bool:
    """gRPC's client, when a stream ends (the server aborted it, or died) while a request is being
    written, reports its own INTERNAL "Internal error from Core" instead of the stream's status (most
    calls, when many requests are in flight). The adjudicator never ends a stream INTERNAL, so this is a
    stream that ended without answering: the client resends each with the same command id at once, on
    a unary call (whose status gRPC keeps, so a refusal such as UNAUTHENTICATED reads as itself)."""
    return error.code() == grpc.StatusCode.INTERNAL and error.details() == "Internal error from Core"


def status_named(name: str) -> grpc.StatusCode:
    """The status a `failure` reply names (UNKNOWN for a name this client does not know)."""
    return getattr(grpc.StatusCode, name, grpc.StatusCode.UNKNOWN)
