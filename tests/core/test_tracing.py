"""OpenTelemetry traces: one trace from the HTTP command through gRPC to the store append and the push.

The whole stack runs in this process (real NATS JetStream, the adjudicator over gRPC, the lobby over
HTTP), with an SDK tracer provider whose spans go to memory. A command sent with a W3C `traceparent`
must come back as one trace: the lobby's request span, the gRPC client and server spans, the append,
and the push of its events, all under the caller's trace id, which the stored event keeps in its meta.
"""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from starbase_core import tracing
from starbase_core.audit import PASS, audit_game
from starbase_core.logging import configure_logging
from starbase_rules.registry import get_game
from tests.support.stack import ApiPlayer, local_stack, seat_and_start
from tests.support.tracing_and_seeds import spans  # noqa: F401 (fixtures)

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"




@pytest.mark.integration
@pytest.mark.timeout(120)
async def test_a_command_is_one_trace_from_the_request_to_the_push_and_its_event_keeps_the_trace_id(
        nats_url, redis_url, namespace, spans):
    async with local_stack(nats_url, redis_url, namespace, scoring=False) as stack:
        async with httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
            players = [await ApiPlayer.guest(http) for _ in range(2)]
            game_id = await seat_and_start(players, "moon21")
            for player in players:
                actions = await player.ok(player.get(f"/games/{game_id}/actions"))
                if actions:
                    break
            spans.clear()
            reply = await http.post(f"/games/{game_id}/commands", json={"command": actions[0]},
                                    headers={**player.auth, "traceparent": f"00-{TRACE}-00f067aa0ba902b7-01"})
            assert reply.status_code == 200, reply.text
            stored = await stack.store.read(f"game.{game_id}")
            ours = [e for e in stored if e.meta.get("trace_id") == TRACE]
            assert len(ours) == 1 and "command" in ours[0].meta       # the command's first event

            traced: list = []
            for _ in range(100):                  # the push span ends when the feed hands the event out
                traced = [span for span in spans.get_finished_spans()
                          if format(span.context.trace_id, "032x") == TRACE]
                if any(span.name == "push" for span in traced):
                    break
                await asyncio.sleep(0.05)

    def one(name_part: str, kind: str):
        found = [span for span in traced if name_part in span.name and span.kind.name == kind]
        assert len(found) == 1, [(span.name, span.kind.name) for span in traced]
        return found[0]

    request = one("POST /games/{game_id}/commands", "SERVER")
    client, server = one("Adjudicator/Submit", "CLIENT"), one("Adjudicator/Submit", "SERVER")
    append, push = one("store.append", "INTERNAL"), one("push", "INTERNAL")
    assert request.parent.span_id == 0x00f067aa0ba902b7           # under the caller's span
    assert server.parent.span_id == client.context.span_id          # propagated over gRPC
    assert append.parent.span_id == server.context.span_id
    assert ours[0].meta["span_id"] == format(server.context.span_id, "016x")
    assert push.parent.span_id == server.context.span_id            # rejoined from the stored meta
    assert push.attributes["starbase.seq"] == ours[0].seq


async def test_with_tracing_off_nothing_is_stamped_and_no_span_is_made():
    tracing.uninstall()
    assert not tracing.enabled()
    with tracing.tracer().start_as_current_span("anything"):
        assert tracing.current_ids() is None
        assert tracing.stamp([]) == []
    assert tracing.grpc_server_interceptors() == [] and tracing.grpc_client_interceptors() == []


def test_the_exporter_comes_from_the_standard_variable_and_a_wrong_name_is_refused():
    assert tracing.configure("x", {}) is False
    assert tracing.configure("x", {"OTEL_TRACES_EXPORTER": "none"}) is False
    with pytest.raises(ValueError, match="use one of otlp, console, none"):
        tracing.configure("x", {"OTEL_TRACES_EXPORTER": "jaeger"})
    assert not tracing.enabled()


@pytest.fixture
def logging_restored():
    """configure_logging sets the process's logging up for a service: put back what the suite had."""
    import logging

    import structlog
    root = logging.getLogger()
    handlers, level, config = root.handlers[:], root.level, structlog.get_config()
    context = structlog.contextvars.get_contextvars()
    yield
    root.handlers[:], root.level = handlers, level
    structlog.configure(**config)
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(**context)


def test_log_lines_inside_a_span_carry_its_ids(spans, capsys, logging_restored):
    log = configure_logging("tracing-test", "info", json=True)
    with tracing.tracer().start_as_current_span("work") as span:
        log.info("inside")
    log.info("outside")
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    inside = next(line for line in lines if line["event"] == "inside")
    outside = next(line for line in lines if line["event"] == "outside")
    assert inside["trace_id"] == format(span.get_span_context().trace_id, "032x")
    assert inside["span_id"] == format(span.get_span_context().span_id, "016x")
    assert "trace_id" not in outside


async def test_a_game_played_inside_traces_keeps_the_ids_in_its_events_and_passes_the_audit(spans, new_name):
    from adjudicator.service import Adjudicator
    from starbase_core.seeds import MemorySeedVault
    from starbase_core.store_memory import MemoryEventStore
    from tests.support.play import play_to_end

    store, game_id = MemoryEventStore(), new_name("g")
    adjudicator = Adjudicator(store, MemorySeedVault())
    with tracing.tracer().start_as_current_span("a whole game"):
        await adjudicator.create_game(game_id, "moon21", ["ann", "bob"], {})
        await play_to_end(adjudicator, store, game_id, seed=5)
    stored = await store.read(f"game.{game_id}")
    assert all("trace_id" in e.meta for e in stored if "command" in e.meta or e.seq == 1)
    assert audit_game(game_id, stored, get_game).verdict == PASS
