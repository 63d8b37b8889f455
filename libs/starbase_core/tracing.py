"""OpenTelemetry traces: off unless the standard environment asks for them.

A command's trace runs from the lobby's HTTP request through the gRPC call to the adjudicator's append,
and on to the push of its events: the adjudicator keeps the trace and span ids in the first event's
meta (`trace_id`, `span_id`, covered by the hash chain, not compared by the audit), and the lobby's feed
starts its push span under them, so the push joins the trace whichever replica follows the store.
Every log line written inside a span carries `trace_id` and `span_id`.
Consumers continue a trace from an event's meta (`span_after`: scoring) or from a NATS message's W3C
`traceparent` header (`headers` on the sender, `span_from_headers` on the receiver: the Trucker fan-out);
`new_trace` starts one (a Trucker socket message, a clock time-out).

Configured by the standard variables only: `OTEL_TRACES_EXPORTER` (`otlp`, `console` or `none`; unset
is `none`: no SDK, no spans recorded, no cost beyond a no-op call), `OTEL_EXPORTER_OTLP_ENDPOINT` /
`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` and the rest of the OTLP exporter's variables (read by the
exporter itself), `OTEL_SERVICE_NAME` (default: the service's name), `OTEL_TRACES_SAMPLER`.
"""
from __future__ import annotations

import os
from contextlib import contextmanager, nullcontext
from typing import Any, Iterator, Mapping, Sequence

from opentelemetry import context as otel_context
from opentelemetry import trace

TRACE_ID, SPAN_ID = "trace_id", "span_id"       # meta keys of an event appended inside a traced command
EXPORTERS = ("otlp", "console", "none")

_provider: Any = None            # the SDK's TracerProvider while tracing is on; None: off
_tracer: Any = trace.NoOpTracerProvider().get_tracer("starbase")
_NO_SPAN = nullcontext()         # what `span` gives while tracing is off: reusable, costs nothing


def enabled() -> bool:
    return _provider is not None


def tracer() -> Any:
    """This process's tracer (a no-op one while tracing is off)."""
    return _tracer


def span(name: str) -> Any:
    """`with tracing.span(name):` a span of this process's tracer around one step of a command. With
    tracing off, nothing at all: the no-op tracer would still make a span object and attach it to the
    context, which on a path run for every command (the adjudicator's append) is a cost for nothing."""
    return _tracer.start_as_current_span(name) if _provider is not None else _NO_SPAN


def configure(service: str, environ: Mapping[str, str] | None = None) -> bool:
    """Turn tracing on for this process when `OTEL_TRACES_EXPORTER` names an exporter; True if on. An
    unknown exporter name is refused at startup with the accepted ones."""
    if environ is None:
        environ = os.environ
    exporter_name = environ.get("OTEL_TRACES_EXPORTER", "none").strip().lower() or "none"
    if exporter_name not in EXPORTERS:
        raise ValueError(f"OTEL_TRACES_EXPORTER={exporter_name!r}: use one of {', '.join(EXPORTERS)}")
    if exporter_name == "none" or enabled():
        return enabled()
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

    if exporter_name == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        exporter: Any = OTLPSpanExporter()
    else:
        exporter = ConsoleSpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": environ.get("OTEL_SERVICE_NAME", service)}))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    install(provider)
    return True


def install(provider: Any) -> None:
    """Trace with `provider` from now on (the parts built afterwards: apps, gRPC servers and channels).
    `configure` calls it; tests give an SDK provider with an in-memory exporter, then `uninstall()`."""
    global _provider, _tracer
    _provider, _tracer = provider, provider.get_tracer("starbase")


def uninstall() -> None:
    global _provider, _tracer
    _provider, _tracer = None, trace.NoOpTracerProvider().get_tracer("starbase")


def current_ids() -> tuple[str, str] | None:
    """(trace id, span id) in hex of the span in progress, or None outside a recorded span."""
    span_context = trace.get_current_span().get_span_context()
    if not span_context.is_valid:
        return None
    return format(span_context.trace_id, "032x"), format(span_context.span_id, "016x")


def add_trace_ids(_logger: Any, _method: str, event_dict: dict) -> dict:
    """structlog processor: the current span's ids on every line written inside it."""
    if ids := current_ids():
        event_dict.setdefault(TRACE_ID, ids[0])
        event_dict.setdefault(SPAN_ID, ids[1])
    return event_dict


def stamp(events: Sequence[Any]) -> list[Any]:
    """`events` (NewEvents about to be appended) with the current span's ids in the first one's meta."""
    # With tracing off no span is ever recorded, so there are no ids to look up.
    ids = current_ids() if _provider is not None else None
    if not ids or not events:
        return list(events)
    first = events[0].model_copy(update={"meta": {**events[0].meta, TRACE_ID: ids[0], SPAN_ID: ids[1]}})
    return [first, *events[1:]]


def parent_of(meta: dict) -> otel_context.Context | None:
    """A context whose parent is the span recorded in an event's meta (None when there is none)."""
    try:
        trace_id, span_id = int(meta[TRACE_ID], 16), int(meta[SPAN_ID], 16)
    except (KeyError, TypeError, ValueError):
        return None
    remote = trace.SpanContext(trace_id, span_id, is_remote=True, trace_flags=trace.TraceFlags(trace.TraceFlags.SAMPLED))
    return trace.set_span_in_context(trace.NonRecordingSpan(remote))


def span_after(meta: dict | None, name: str, **attributes: Any) -> Any:
    """A span that continues the trace recorded in an event's meta (a consumer handling the event: the
    push, scoring); a new trace when the meta has none. Use as `with tracing.span_after(...)`."""
    parent = parent_of(meta or {}) or otel_context.Context()     # never under whatever span is current
    return _tracer.start_as_current_span(name, context=parent, attributes=attributes or None)


def new_trace(name: str, **attributes: Any) -> Any:
    """A server span that starts a trace of its own (a socket message, a clock's time-out)."""
    return _tracer.start_as_current_span(name, context=otel_context.Context(), kind=trace.SpanKind.SERVER,
                                         attributes=attributes or None)


def headers() -> dict[str, str]:
    """The current span as W3C trace-context headers (`traceparent`) for a NATS message; {} when none."""
    carrier: dict[str, str] = {}
    if enabled():
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
        TraceContextTextMapPropagator().inject(carrier)
    return carrier


@contextmanager
def span_from_headers(message_headers: Mapping[str, str] | None, name: str, *, kind: Any = None,
                      **attributes: Any) -> Iterator[Any]:
    """A span under the trace a NATS message's headers carry (see `headers`); a no-op with tracing off,
    and a new trace when the message has no (or a malformed) `traceparent`. `kind`: the span's
    `trace.SpanKind` (INTERNAL unless given; SERVER for a request answered, as the adjudicator's
    SubmitStream does with each command's own `traceparent`)."""
    if not enabled():
        yield None
        return
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
    parent = TraceContextTextMapPropagator().extract(dict(message_headers or {}), context=otel_context.Context())
    with _tracer.start_as_current_span(name, context=parent, kind=kind or trace.SpanKind.INTERNAL,
                                       attributes=attributes or None) as span:
        yield span


def grpc_server_interceptors() -> list[Any]:
    if not enabled():
        return []
    from opentelemetry.instrumentation.grpc import aio_server_interceptor
    return [aio_server_interceptor(tracer_provider=_provider)]


def grpc_client_interceptors() -> list[Any]:
    if not enabled():
        return []
    from opentelemetry.instrumentation.grpc import aio_client_interceptors
    return list(aio_client_interceptors(tracer_provider=_provider))


def instrument_http(app: Any) -> None:
    """Server spans for every HTTP request of a FastAPI app, parented on an incoming `traceparent`."""
    if enabled():
        from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor
        FastAPIInstrumentor.instrument_app(app, tracer_provider=_provider, excluded_urls="healthz,readyz,metrics")
