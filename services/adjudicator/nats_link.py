"""The caller's side of Submit over NATS (`nats_door.py` is the adjudicator's): each command a NATS
request to the replica its game's shard is placed on, with the answers, refusals and retries of a gRPC
Submit (the client's `_call` loop retries on top of `send`). The reads about one game (`wire.CALLS`) go
the same way (`call`), so they meet the replica whose copy of the game its commands keep current.

Placement: every replica says hello on `<subject>.hello` every few seconds; each caller keeps the
replicas heard from lately and places each shard of games on one of them by rendezvous hashing (the
replica whose SHA-256 of "<shard>:<replica>" is highest; a caller asks for a roll call when it starts listening), so every caller that has heard the same replicas
sends a game's commands to the same one, and a replica that joins or leaves moves only its share of the
shards. A caller that has heard of none yet, or whose replica is gone (NATS answers "no responders" at
once), sends to `<subject>.submit.any`, which every replica serves as one queue group. Correctness never
rests on placement: the store orders each game's commands, a replica behind on a game catches up first.

Failures read as gRPC's, so the client handles both links alike: no answer within the timeout is
DEADLINE_EXCEEDED, a lost connection UNAVAILABLE, and so is a request waiting on a replica that NATS has
since said nobody listens for (it died): all retried at once with the same command id, stored once;
no replica listening at all UNIMPLEMENTED (the client falls back to gRPC for a while, as it does for an
adjudicator older than SubmitStream), a `failure` reply its own status.
"""
from __future__ import annotations

import asyncio
import hashlib
import heapq
import itertools
import json

import grpc
from nats.errors import Error as NatsError, NoRespondersError, TimeoutError as NatsTimeout
from nats.js.api import Header

from adjudicator.streams import rpc_error, status_named
from adjudicator.wire import CALL, CALL_DETAILS, CALL_STATUS, HELLO_EVERY, call_subject, pb, submit_subject

STATUS, NO_RESPONDERS = Header.STATUS, "503"     # the status NATS replies with when nobody listens
FORGET_AFTER = 3 * HELLO_EVERY + 0.5    # seconds without a hello before a replica is no longer placed on
# How often the requests past their timeout are failed: one timer for all of them rather than a timeout
# (a timer set and cancelled) around every command; a request fails at most this much after its time.
SWEEP_EVERY = 0.25


class Placement:
    """The replicas heard from, and which one each shard of games goes to."""

    def __init__(self, shards: int):
        self._shards = shards
        self._heard: dict[str, float] = {}      # replica → when it last said hello (loop time)
        self._owners: list[str | None] = [None] * shards

    def heard(self, replica: str, now: float) -> None:
        known = replica in self._heard
        self._heard[replica] = now
        if not known:
            self._place()

    def gone(self, replica: str) -> None:
        if self._heard.pop(replica, None) is not None:
            self._place()

    def owner(self, shard: int, now: float) -> str | None:
        """The replica `shard` is placed on (None: none heard from lately)."""
        if any(now - last > FORGET_AFTER for last in self._heard.values()):
            for replica in [r for r, last in self._heard.items() if now - last > FORGET_AFTER]:
                del self._heard[replica]
            self._place()
        return self._owners[shard]

    def _place(self) -> None:
        replicas = sorted(self._heard)
        # (Not crc32: it is linear, so the order of two replicas' crc32s hardly changes from shard to shard.)
        self._owners = [max(replicas, key=lambda replica: hashlib.sha256(f"{shard}:{replica}".encode()).digest())
                        if replicas else None for shard in range(self._shards)]


class ReplicaGone(Exception):
    """The replica a request went to is no longer there (NATS had no responders on its subject)."""


class NatsSubmit:
    """Sends SubmitRequests over `connection` (the caller's own NATS connection) with its caller secret.

    Its own requests and replies rather than nats-py's `request`: the same one subscription for every
    reply (in this connection's inbox) and a future per request, but the futures are this class's, so that
    once NATS says a replica has gone (no responders on its subject: it died without its goodbye) the
    requests still waiting on it are sent again at once instead of each waiting out its timeout."""

    def __init__(self, connection, subject: str, shards: int, token: str | None = None):
        self._nc, self.subject = connection, subject
        self._headers = {"Authorization": f"Bearer {token}"} if token else None
        self.placement = Placement(shards)
        self._listening: asyncio.Task | None = None     # subscribing, on the first command
        self._subscriptions: list = []
        self._replies = ""                              # "<inbox>.": the replies' subjects, then a token
        self._tokens = itertools.count(1)
        self._waiting: dict[str, asyncio.Future] = {}   # token → its request's reply
        self._sent_to: dict[str, set[str]] = {}         # replica → the tokens of the requests waiting on it
        self._deadlines: list[tuple[float, str]] = []   # (when it times out, token), a heap
        self._sweeper: asyncio.TimerHandle | None = None

    async def _listen(self) -> None:
        """Subscribe to the replies and the hellos, once (on the first command; again if that failed)."""
        if self._listening is None or (self._listening.done() and self._listening.exception() is not None):
            self._listening = asyncio.get_running_loop().create_task(self._subscribe())
        if not self._listening.done():
            await asyncio.shield(self._listening)
        self._listening.result()

    async def _subscribe(self) -> None:
        inbox = self._nc.new_inbox()
        self._subscriptions = [await self._nc.subscribe(f"{inbox}.*", cb=self._replied),
                               await self._nc.subscribe(f"{self.subject}.hello", cb=self._hello)]
        self._replies = f"{inbox}."
        await self._nc.publish(f"{self.subject}.roll", b"")       # the replicas say hello now, not in seconds

    async def close(self) -> None:
        self._listening, self._replies = None, ""
        for subscription in self._subscriptions:
            try:
                await subscription.unsubscribe()
            except Exception:       # the connection closed first: nothing more arrives anyway
                pass
        self._subscriptions = []

    async def _hello(self, message) -> None:
        try:
            said = json.loads(message.data)
            replica, leaving = str(said["replica"]), bool(said.get("leaving"))
        except (ValueError, KeyError, TypeError):
            return                  # not a hello this caller understands
        if leaving:                 # it answers what it has: nothing waiting on it is sent again
            self.placement.gone(replica)
        else:
            self.placement.heard(replica, asyncio.get_running_loop().time())

    async def _replied(self, message) -> None:
        future = self._waiting.get(message.subject[len(self._replies):])
        if future is None or future.done():
            return                  # its caller gave up
        if message.headers and message.headers.get(STATUS) == NO_RESPONDERS:
            future.set_exception(NoRespondersError())
        else:
            future.set_result(message)

    def _died(self, replica: str) -> None:
        """Nobody listens on `replica`'s subject any more: place its games elsewhere, and send again what
        was waiting on it (it may have been decided and stored: the same command id is answered with the
        same events wherever it goes)."""
        self.placement.gone(replica)
        for token in self._sent_to.pop(replica, ()):
            future = self._waiting.get(token)
            if future is not None and not future.done():
                future.set_exception(ReplicaGone(replica))

    async def _request(self, subject_of, replica: str | None, data: bytes, timeout: float,
                       headers: dict | None):
        token = str(next(self._tokens))
        loop = asyncio.get_running_loop()
        future = self._waiting[token] = loop.create_future()
        if replica is not None:
            self._sent_to.setdefault(replica, set()).add(token)
        heapq.heappush(self._deadlines, (loop.time() + timeout, token))
        if self._sweeper is None:
            self._sweeper = loop.call_later(SWEEP_EVERY, self._sweep)
        try:
            await self._nc.publish(subject_of(self.subject, replica or "any"), data,
                                   reply=self._replies + token, headers=headers)
            return await future
        finally:
            del self._waiting[token]
            if replica is not None:
                self._sent_to.get(replica, set()).discard(token)

    def _sweep(self) -> None:
        """Fail the requests past their time (TimeoutError, as `asyncio.timeout` would raise)."""
        now, deadlines = asyncio.get_running_loop().time(), self._deadlines
        while deadlines and deadlines[0][0] <= now:
            future = self._waiting.get(heapq.heappop(deadlines)[1])
            if future is not None and not future.done():
                future.set_exception(TimeoutError())
        self._sweeper = asyncio.get_running_loop().call_later(SWEEP_EVERY, self._sweep) if deadlines else None

    async def send(self, request: "pb.SubmitRequest", shard: int, timeout: float) -> "pb.EventsReply":
        """The reply to `request`, or the AioRpcError a unary Submit would raise."""
        message = await self._exchange(submit_subject, request, shard, timeout, self._headers, silent_is_gone=True)
        reply = pb.EventsReply.FromString(message.data)
        if reply.WhichOneof("result") == "failure":
            raise rpc_error(status_named(reply.failure.code), reply.failure.details)
        return reply

    async def call(self, method: str, request, reply_kind, shard: int, timeout: float):
        """One of `wire.CALLS` (its `reply_kind` reply) sent where the game's commands go, or the
        AioRpcError its gRPC call would raise (UNIMPLEMENTED: no replica serves it on NATS)."""
        headers = {**(self._headers or {}), CALL: method}
        message = await self._exchange(call_subject, request, shard, timeout, headers)
        status = (message.headers or {}).get(CALL_STATUS)
        if status is not None:
            raise rpc_error(status_named(status), message.headers.get(CALL_DETAILS, ""))
        return reply_kind.FromString(message.data)

    async def _exchange(self, subject_of, request, shard: int, timeout: float, headers: dict | None, *,
                        silent_is_gone: bool = False):
        """The reply message to `request` from the replica `shard` is placed on (any, if nobody listens
        there), or the AioRpcError gRPC would raise for what went wrong. `silent_is_gone`: nobody listening
        on the placed replica's subject means it died, so its games are placed elsewhere (a replica older
        than the read door is still there for commands)."""
        data = request.SerializeToString()
        try:
            if not self._replies:           # not listening yet (the first request, or after a failure)
                await self._listen()
            replica = self.placement.owner(shard, asyncio.get_running_loop().time())
            try:
                return await self._request(subject_of, replica, data, timeout, headers)
            except NoRespondersError:
                if replica is None:
                    raise
                if silent_is_gone:
                    self._died(replica)     # it left without a goodbye (or died): any replica
                return await self._request(subject_of, None, data, timeout, headers)
        except ReplicaGone as gone:
            raise rpc_error(grpc.StatusCode.UNAVAILABLE, f"adjudicator {gone} went away; try again") from None
        except NoRespondersError:
            # No replica serves this on NATS (all older, or all down): the client uses gRPC for a while.
            raise rpc_error(grpc.StatusCode.UNIMPLEMENTED, "no adjudicator listens on NATS") from None
        except (NatsTimeout, TimeoutError):
            raise rpc_error(grpc.StatusCode.DEADLINE_EXCEEDED, "no reply from the adjudicator in time") from None
        except NatsError as error:
            raise rpc_error(grpc.StatusCode.UNAVAILABLE, f"NATS: {error!r}") from None
