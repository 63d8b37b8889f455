"""The trace helpers the consumers use: W3C headers on NATS messages, spans continuing an event's trace."""
from __future__ import annotations

from starbase_core import tracing


def test_a_span_from_a_messages_headers_continues_the_senders_trace(spans):
    with tracing.tracer().start_as_current_span("sender") as sender:
        headers = tracing.headers()
    assert set(headers) == {"traceparent"}
    with tracing.span_from_headers(headers, "receiver") as receiver:
        pass
    assert receiver.parent.span_id == sender.get_span_context().span_id
    assert receiver.context.trace_id == sender.get_span_context().trace_id


def test_a_message_without_or_with_a_forged_traceparent_starts_a_trace_of_its_own(spans):
    with tracing.tracer().start_as_current_span("unrelated"):
        for headers in (None, {}, {"traceparent": "00-not-a-trace-01"}, {"traceparent": "x" * 5000}):
            with tracing.span_from_headers(headers, "receiver") as receiver:
                pass
            assert receiver.parent is None


def test_a_span_after_an_event_joins_its_trace_or_starts_one_never_the_current_one(spans):
    with tracing.tracer().start_as_current_span("command") as command:
        ids = tracing.current_ids()
    with tracing.tracer().start_as_current_span("unrelated"):
        with tracing.span_after({"trace_id": ids[0], "span_id": ids[1]}, "consumer") as joined:
            pass
        with tracing.span_after({"trace_id": "zz"}, "consumer") as alone:
            pass
    assert joined.parent.span_id == command.get_span_context().span_id
    assert alone.parent is None


def test_with_tracing_off_no_header_is_sent_and_no_span_is_made():
    tracing.uninstall()
    with tracing.tracer().start_as_current_span("anything"):
        assert tracing.headers() == {}
    with tracing.span_from_headers({"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
                                   "receiver") as span:
        assert span is None
