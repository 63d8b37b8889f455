"""The gRPC servicer: protobuf in, one call to `Adjudicator`, protobuf out; and the server that runs it,
behind the caller check (`guard.py`) and, when configured, mutual TLS."""
from __future__ import annotations

import asyncio
import functools
import json

import grpc
import structlog
from nats.errors import Error as NatsError
from opentelemetry.trace import SpanKind

from adjudicator.guard import CallerGuard
from adjudicator.service import Adjudicator
from adjudicator.wire import SUBMIT_SPAN, SUBMIT_SPAN_ATTRIBUTES, pb, rpc
from starbase_core.callers import Caller
from starbase_core import tracing
from starbase_core.envelope import InvalidName
from starbase_core.store import StoreError
from starbase_core.tls import TlsFiles
from starbase_rules.contract import RuleViolation

log = structlog.get_logger(__name__)


# Failures of the store or the bus, not of the command: the caller may retry with the same command id.
TRANSIENT = (StoreError, NatsError, ConnectionError, asyncio.TimeoutError)
_READ_ALL = object()      # SubmitStream: the caller has sent its last request


def _violation(error: Exception) -> "pb.RuleViolation | None":
    """A rule violation (or a bad id) as the reply's violation; None for anything else."""
    if isinstance(error, RuleViolation):
        return pb.RuleViolation(code=error.code, message=error.message)
    if isinstance(error, InvalidName):
        return pb.RuleViolation(code="BAD_ID", message=str(error))
    return None


def _answers_with(reply):
    """Map what the adjudicator raises onto the reply: a rule violation (or a bad id) is a normal
    reply carrying it; a store or bus failure is UNAVAILABLE, so the caller retries the same command id."""
    def decorate(handler):
        @functools.wraps(handler)
        async def wrapped(self, request, context):
            try:
                return await handler(self, request, context)
            except (RuleViolation, InvalidName) as error:
                return reply(violation=_violation(error))
            except TRANSIENT as error:
                log.warning("adjudicator_transient_failure", rpc=handler.__name__, error=repr(error))
                await context.abort(grpc.StatusCode.UNAVAILABLE, f"try again: {error!r}")
        return wrapped
    return decorate


def _json_object(text: str, what: str) -> dict:
    try:
        value = json.loads(text) if text else {}
    except json.JSONDecodeError as error:
        raise RuleViolation("MALFORMED_JSON", f"{what} is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise RuleViolation("MALFORMED_JSON", f"{what} must be a JSON object")
    return value


def _events_reply(envelopes) -> "pb.EventsReply":
    return pb.EventsReply(events=pb.Events(envelope_json=[e.model_dump_json() for e in envelopes]))


class AdjudicatorServicer(rpc.AdjudicatorServicer):
    def __init__(self, adjudicator: Adjudicator):
        self.adjudicator = adjudicator

    @_answers_with(pb.EventsReply)
    async def CreateGame(self, request, context):
        return _events_reply(await self.adjudicator.create_game(
            request.game_id, request.game, list(request.players),
            _json_object(request.options_json, "options_json"), request.command_id or None,
        ))

    @_answers_with(pb.EventsReply)
    async def Submit(self, request, context):
        return await self._submit(request)

    async def SubmitStream(self, requests, context):
        """Each request as Submit, concurrently; each reply with its request's `call`. A store or bus
        failure ends the stream with UNAVAILABLE (the caller resends what was not answered); the
        commands already being decided finish either way, so each is stored whole or not at all. An
        unexpected error fails only its own request (a `failure` reply)."""
        loop = asyncio.get_running_loop()
        replies: asyncio.Queue = asyncio.Queue()
        running: set[asyncio.Task] = set()      # holds the tasks while they run

        async def answer(request) -> None:
            try:
                reply = await self.submit_reply(request, "SubmitStream")
            except TRANSIENT as error:          # the stream ends; the caller retries, as after Submit
                log.warning("adjudicator_transient_failure", rpc="SubmitStream", error=repr(error))
                replies.put_nowait((grpc.StatusCode.UNAVAILABLE, f"try again: {error!r}"))
                return
            reply.call = request.call
            replies.put_nowait(reply)

        async def read() -> None:
            nonlocal asked
            try:
                async for request in requests:
                    running.add(task := loop.create_task(answer(request)))
                    task.add_done_callback(running.discard)
                    asked += 1          # before its reply can be queued: nothing awaits in between
            finally:
                replies.put_nowait(_READ_ALL)

        asked = answered = 0
        reader = loop.create_task(read())
        try:
            read_all = False
            while not (read_all and answered == asked):
                item = await replies.get()
                if item is _READ_ALL:
                    read_all = True
                elif isinstance(item, tuple):
                    await context.abort(*item)
                else:
                    answered += 1
                    yield item
            await reader        # a failed read of the requests ends the call with its error
        finally:
            reader.cancel()

    async def submit_reply(self, request, door: str) -> "pb.EventsReply":
        """One command's reply where many share a link (SubmitStream, the NATS door): its events or its
        refusal, in its own span of the trace its caller sent along (`traceparent`); an unexpected error
        fails this request alone (a `failure`: UNKNOWN, as Submit's call would). A store or bus failure
        is raised (TRANSIENT): the caller retries the same command id."""
        try:
            if not tracing.enabled():
                return await self._submit_or_refuse(request)
            with tracing.span_from_headers({"traceparent": request.traceparent}, SUBMIT_SPAN,
                                           kind=SpanKind.SERVER, **SUBMIT_SPAN_ATTRIBUTES):
                return await self._submit_or_refuse(request)
        except TRANSIENT:
            raise
        except Exception as error:
            log.exception("adjudicator_submit_failed", rpc=door)
            return pb.EventsReply(failure=pb.Failure(code=grpc.StatusCode.UNKNOWN.name,
                                                     details=f"unexpected error: {error!r}"))

    async def _submit_or_refuse(self, request) -> "pb.EventsReply":
        """Submit's reply, a refusal included (a normal reply, so never an error on the command's span)."""
        try:
            return await self._submit(request)
        except (RuleViolation, InvalidName) as error:
            return pb.EventsReply(violation=_violation(error))

    async def _submit(self, request) -> "pb.EventsReply":
        if not request.command_id:
            raise RuleViolation("MISSING_COMMAND_ID", "every command needs a command_id")
        stored, turn = await self.adjudicator.submit_with_turn(
            request.game_id, request.actor, _json_object(request.command_json, "command_json"),
            request.command_id, expected_seq=request.expected_seq or None, played_by=request.played_by or None,
        )
        reply = _events_reply(stored)
        if turn is not None:
            reply.turn.seq, reply.turn.ended = turn["seq"], turn["ended"]
            reply.turn.to_act.extend(turn["to_act"])
        return reply

    @_answers_with(pb.JsonReply)
    async def GetView(self, request, context):
        return pb.JsonReply(json=json.dumps(await self.adjudicator.view(request.game_id, request.viewer or None)))

    @_answers_with(pb.JsonReply)
    async def ViewAt(self, request, context):
        return pb.JsonReply(json=json.dumps(await self.adjudicator.view_at(
            request.game_id, request.seq, request.viewer or None)))

    @_answers_with(pb.JsonReply)
    async def ToAct(self, request, context):
        return pb.JsonReply(json=json.dumps(await self.adjudicator.to_act(request.game_id)))

    @_answers_with(pb.JsonReply)
    async def LegalActions(self, request, context):
        return pb.JsonReply(json=json.dumps(await self.adjudicator.legal_actions(request.game_id, request.player)))


async def start_grpc_server(adjudicator: Adjudicator, port: int, host: str = "0.0.0.0", *,
                            callers: dict[str, Caller] | None = None,
                            tls: TlsFiles | None = None) -> tuple[grpc.aio.Server, int]:
    """A started server and the port it listens on (pass port 0 for a free one).

    `callers`: who may call (None: anyone, for in-process tests); `tls`: serve TLS with this
    certificate and require client certificates signed by its CA (mutual TLS). Tracing comes first,
    so a refused call is traced too."""
    guard = [CallerGuard(callers)] if callers is not None else []
    server = grpc.aio.server(interceptors=[*tracing.grpc_server_interceptors(), *guard])
    rpc.add_AdjudicatorServicer_to_server(AdjudicatorServicer(adjudicator), server)
    if tls is not None:
        ca, chain, key = tls.read()
        credentials = grpc.ssl_server_credentials([(key, chain)], root_certificates=ca, require_client_auth=True)
        bound = server.add_secure_port(f"{host}:{port}", credentials)
    else:
        bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    return server, bound
