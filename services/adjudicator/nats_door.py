"""Submit over NATS: the adjudicator's second door for commands, beside gRPC (`nats_link.py` is the
caller's side; docs/platform.md, "Commands over NATS").

Why: a command carried by gRPC's asyncio stream costs the adjudicator ~0.27 ms and its caller ~0.35 ms
of CPU, the same carried as a NATS request and reply ~0.11 and ~0.21 (benchmarks/bench_rpc_transport.py);
every service already holds a NATS connection.

Subjects, under ADJUDICATOR_SUBJECT (`<EVENT_SUBJECT_PREFIX>-adjudicator` unless set):
- `<subject>.submit.<replica>`: this replica's own. A caller sends a game's commands to the replica its
  game's shard is placed on (`nats_link.Placement`), so that replica's cache of the game stays warm;
- `<subject>.submit.any`: every replica, as one queue group: for a caller that has heard of no replica
  yet, or whose replica is gone (NATS answers "no responders" at once for a subject nobody listens to);
- `<subject>.call.<replica>` and `<subject>.call.any` (a queue group) likewise: the reads about one
  game (`wire.CALLS`: ToAct, LegalActions, GetView), the method in a `Starbase-Call` header, so they meet
  the replica whose cache the game's commands keep current;
- `<subject>.hello`: each replica says it is here every HELLO_EVERY seconds, and that it leaves on stop;
- `<subject>.roll`: a roll call: a caller that starts listening asks, and every replica says hello at once
  (at most once per ROLL_GAP seconds however often it is asked).

A request is a SubmitRequest (protobuf) with the caller's secret in an `Authorization: Bearer` header, as
on gRPC, checked against the same callers file (method Submit) before anything is decided; the reply an
EventsReply: events, a violation, or a `failure` naming a gRPC status (UNAVAILABLE: the store or bus
failed, or this replica is full or leaving: the same command id again; UNAUTHENTICATED, PERMISSION_DENIED:
refused). NATS users' permissions (`starbase_core.nats_permissions`) let only the callers publish on
these subjects and only the adjudicator listen, and each reply goes to its caller's own inbox.
"""
from __future__ import annotations

import asyncio
import uuid

import grpc
import structlog
from google.protobuf.message import DecodeError

from adjudicator.guard import refusal
from adjudicator.server import TRANSIENT, AdjudicatorServicer
from adjudicator.service import Adjudicator
from adjudicator.wire import CALL, CALL_DETAILS, CALL_STATUS, CALLS, HELLO_EVERY, call_subject, hello, pb, \
    submit_subject
from starbase_core.callers import Caller

log = structlog.get_logger(__name__)

ROLL_GAP = 0.1             # seconds between two hellos answering roll calls
MAX_IN_FLIGHT = 2000        # commands being decided at once here; past it a request is answered UNAVAILABLE
QUEUE = "adjudicators"


def _failure(code: grpc.StatusCode, details: str) -> bytes:
    return pb.EventsReply(failure=pb.Failure(code=code.name, details=details)).SerializeToString()


class _Aborted(Exception):
    def __init__(self, code: grpc.StatusCode, details: str):
        super().__init__(code, details)
        self.code, self.details = code, details


class _Context:
    """What the servicer's read methods use of a gRPC context: `abort` (a failure of the store or bus)."""

    async def abort(self, code: grpc.StatusCode, details: str):
        raise _Aborted(code, details)


class SubmitDoor:
    """Serves Submit on NATS for `adjudicator` until `stop`. `callers`: who may (None: anyone, as the
    gRPC server without a callers file)."""

    def __init__(self, adjudicator: Adjudicator, connection, subject: str, *,
                 callers: dict[str, Caller] | None = None, replica: str | None = None):
        self._servicer = AdjudicatorServicer(adjudicator)
        self._nc, self.subject, self._callers = connection, subject, callers
        self.replica = replica or uuid.uuid4().hex[:12]
        self._running: set[asyncio.Task] = set()
        self._subscriptions: list = []
        self._hellos: asyncio.Task | None = None
        self._answered_roll = float("-inf")

    async def start(self) -> "SubmitDoor":
        self._subscriptions = [
            await self._nc.subscribe(submit_subject(self.subject, self.replica), cb=self._received),
            await self._nc.subscribe(submit_subject(self.subject, "any"), queue=QUEUE, cb=self._received),
            await self._nc.subscribe(call_subject(self.subject, self.replica), cb=self._received_call),
            await self._nc.subscribe(call_subject(self.subject, "any"), queue=QUEUE, cb=self._received_call),
            await self._nc.subscribe(f"{self.subject}.roll", cb=self._roll_call),
        ]
        await self._nc.flush()          # subscribed at the server before the first hello names us
        self._hellos = asyncio.get_running_loop().create_task(self._say_hello())
        return self

    async def stop(self, grace: float) -> None:
        """Say goodbye (callers place this replica's games elsewhere at once), take no new request, and
        answer the ones being decided (within `grace` seconds)."""
        if self._hellos is not None:
            self._hellos.cancel()
        try:
            await self._nc.publish(f"{self.subject}.hello", hello(self.replica, leaving=True))
            for subscription in self._subscriptions:
                await subscription.drain()      # what has arrived is still answered
        except Exception as error:      # the connection is gone: nothing arrives any more either
            log.warning("adjudicator_nats_door_stop", error=repr(error))
        if self._running:
            await asyncio.wait(list(self._running), timeout=grace)

    async def _say_hello(self) -> None:
        while True:
            await self._say_hello_once()
            await asyncio.sleep(HELLO_EVERY)

    async def _roll_call(self, message) -> None:
        now = asyncio.get_running_loop().time()
        if now - self._answered_roll >= ROLL_GAP:
            self._answered_roll = now
            await self._say_hello_once()

    async def _say_hello_once(self) -> None:
        try:
            await self._nc.publish(f"{self.subject}.hello", hello(self.replica))
        except Exception as error:      # reconnecting: the next hello goes out once it is back
            log.warning("adjudicator_hello_failed", error=repr(error))

    async def _received(self, message) -> None:
        await self._take(message, self._answer, self._submit_failed)

    async def _received_call(self, message) -> None:
        await self._take(message, self._answer_call, self._call_failed)

    async def _take(self, message, answer, failed) -> None:
        # nats-py calls a subscription's callbacks one after another: each request gets its own task, so a
        # slow decision never holds up the next game's.
        if not message.reply:
            return                      # not a request: nobody to answer
        if len(self._running) >= MAX_IN_FLIGHT:
            await failed(message, grpc.StatusCode.UNAVAILABLE, "the adjudicator is busy; try again")
            return
        task = asyncio.get_running_loop().create_task(answer(message))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _answer_call(self, message) -> None:
        method = (message.headers or {}).get(CALL, "")
        kind = CALLS.get(method)
        if kind is None:
            await self._call_failed(message, grpc.StatusCode.UNIMPLEMENTED, "no such call on this door")
            return
        refused = None if self._callers is None else \
            refusal(self._callers, (message.headers or {}).get("Authorization", ""), method, door="nats")
        if refused is not None:
            await self._call_failed(message, *refused)
            return
        try:
            request = kind.FromString(message.data)
        except DecodeError:
            await self._call_failed(message, grpc.StatusCode.INVALID_ARGUMENT, f"the request is not a {kind.__name__}")
            return
        try:
            reply = await getattr(self._servicer, method)(request, _Context())
        except _Aborted as aborted:     # the store or the bus failed (the servicer's UNAVAILABLE)
            await self._call_failed(message, aborted.code, aborted.details)
            return
        except Exception:               # as gRPC answers an unexpected error: UNKNOWN, and logged
            log.exception("adjudicator_call_failed", method=method, door="nats")
            await self._call_failed(message, grpc.StatusCode.UNKNOWN, "unexpected error")
            return
        await self._respond(message, reply.SerializeToString())

    async def _call_failed(self, message, code: grpc.StatusCode, details: str) -> None:
        # A header value is one line: an error's text may hold more.
        await self._respond(message, b"", {CALL_STATUS: code.name, CALL_DETAILS: " ".join(details.split())})

    async def _answer(self, message) -> None:
        refused = None if self._callers is None else \
            refusal(self._callers, (message.headers or {}).get("Authorization", ""), "Submit", door="nats")
        if refused is not None:
            await self._respond(message, _failure(*refused))
            return
        try:
            request = pb.SubmitRequest.FromString(message.data)
        except DecodeError:
            await self._respond(message, _failure(grpc.StatusCode.INVALID_ARGUMENT, "the request is not a SubmitRequest"))
            return
        try:
            reply = (await self._servicer.submit_reply(request, "nats")).SerializeToString()
        except TRANSIENT as error:
            log.warning("adjudicator_transient_failure", rpc="nats", error=repr(error))
            reply = _failure(grpc.StatusCode.UNAVAILABLE, f"try again: {error!r}")
        await self._respond(message, reply)

    async def _submit_failed(self, message, code: grpc.StatusCode, details: str) -> None:
        await self._respond(message, _failure(code, details))

    async def _respond(self, message, data: bytes, headers: dict | None = None) -> None:
        try:
            await self._nc.publish(message.reply, data, headers=headers)
        except Exception as error:      # lost with the connection: the caller times out and asks again
            log.warning("adjudicator_reply_lost", error=repr(error))

