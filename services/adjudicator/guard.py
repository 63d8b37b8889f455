"""Who may call the adjudicator: a server interceptor that checks each call's bearer secret.

A caller (the lobby, the clock, the Trucker service) sends `authorization: Bearer <secret>` with every
call; the adjudicator knows only the SHA-256 of each caller's secret and the methods it may call
(`ADJUDICATOR_CALLERS_FILE`, see `starbase_core.callers`). No or an unknown secret: UNAUTHENTICATED; a
known caller asking for a method it may not: PERMISSION_DENIED. Either way the servicer never runs,
so nothing is decided, stored or revealed. The refusal says what is wrong, never what was sent.
A caller allowed Submit may call SubmitStream (the same commands, over one stream). The NATS door
(`nats_door.py`) checks its requests' `Authorization` header with the same `refusal`.
"""
from __future__ import annotations

import grpc
import structlog
from prometheus_client import Counter

from starbase_core.callers import Caller, identify

log = structlog.get_logger(__name__)
REFUSED = Counter("adjudicator_calls_refused_total", "gRPC calls refused before the servicer", ["reason"])
BEARER = "bearer "


# A method that is the same permission as another: a stream of Submits is Submit.
SAME_AS = {"SubmitStream": "Submit"}


def _refuse(code: grpc.StatusCode, message: str, shape: grpc.RpcMethodHandler | None = None) -> grpc.RpcMethodHandler:
    """A handler that refuses the call, of the refused method's shape (a streaming method refused by a
    unary handler would be served as unary: its request read as one message)."""
    async def refuse(request, context):
        await context.abort(code, message)

    async def refuse_stream(requests, context):
        await context.abort(code, message)
        yield  # never reached: makes this an async generator, as a streaming reply's handler is

    if shape is not None and shape.response_streaming:
        if shape.request_streaming:
            return grpc.stream_stream_rpc_method_handler(refuse_stream)
        return grpc.unary_stream_rpc_method_handler(refuse_stream)
    if shape is not None and shape.request_streaming:
        return grpc.stream_unary_rpc_method_handler(refuse)
    return grpc.unary_unary_rpc_method_handler(refuse)


def refusal(callers: dict[str, Caller], header: object, method: str, door: str = "grpc") -> tuple[grpc.StatusCode, str] | None:
    """Why a call of `method` with this `authorization` header may not run (its status and a message that
    names what is wrong, never what was sent), or None. Counted and logged as refused."""
    if not isinstance(header, str) or not header.lower().startswith(BEARER):
        REFUSED.labels("missing").inc()
        return grpc.StatusCode.UNAUTHENTICATED, "this call carries no caller secret: send `authorization: Bearer <secret>`"
    caller = identify(callers, header[len(BEARER):].strip())
    if caller is None:
        REFUSED.labels("unknown").inc()
        log.warning("adjudicator_unknown_caller", method=method, door=door)
        return grpc.StatusCode.UNAUTHENTICATED, "this caller secret is not known to the adjudicator"
    if not caller.may_call(SAME_AS.get(method, method)):
        REFUSED.labels("forbidden").inc()
        log.warning("adjudicator_forbidden_call", caller=caller.name, method=method, door=door)
        return grpc.StatusCode.PERMISSION_DENIED, f"{caller.name} may not call {method}"
    return None


class CallerGuard(grpc.aio.ServerInterceptor):
    def __init__(self, callers: dict[str, Caller]):
        self._callers = callers

    async def intercept_service(self, continuation, handler_call_details):
        method = handler_call_details.method.rsplit("/", 1)[-1]
        handler = await continuation(handler_call_details)     # only looks the method up: nothing runs
        header = dict(handler_call_details.invocation_metadata or ()).get("authorization", "")
        refused = refusal(self._callers, header, method)
        return handler if refused is None else _refuse(*refused, handler)
