"""Traces and relay figures of the Trucker service, as hooks around the socket and the relay.

A move is one trace: `trucker.move` (a server span per socket message, a trace of its own), the relay's
`store.append` that writes its events, and the `push` of those events to the table's sockets on every
replica (the relay's NATS message carries the W3C `traceparent` header). The relay batches the moves of
a game: whichever move holds the game's lock appends everything pending, so the append span sits in that
move's trace and links to the other moves it wrote. Each move's first event keeps its own trace and span
ids in its meta (`trace_id`, `span_id`, as the adjudicator's events do; the audit leaves them out), so
the lobby's feed and anyone reading the stream joins the right trace. A move whose events another
replica's relay wrote has its span but no ids in its event (that replica does not know its trace).

The hooks are decorators and one call each, so the relay and the socket code stay about moves:
- `move` on `Connection._handle`, and `noted(game, move id, op)` inside it once the message is read:
  the move's span, remembered by move id while the move is handled;
- `stamped(stream, events)` in `Relay._append`: the ids of those moves on their first events;
- `appends` on `Relay._append`: the append span, the append counters and the batch size;
- `waits` on `Relay.wait_durable`: the relay's backlog (moves waiting for the stream, the oldest's age)
  and the wait histogram.
"""
from __future__ import annotations

import functools
import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from opentelemetry import trace

from starbase_core import tracing
from starbase_core.transaction import REQUEST_ID

from trucker.metrics import (RELAY_APPENDS, RELAY_BATCH_EVENTS, RELAY_OLDEST, RELAY_WAIT_SECONDS,
                             RELAY_WAITING)


@dataclass(eq=False)
class _Waiter:
    seq: int                        # the move's last event: it waits until the stream holds it
    since: float                    # time.monotonic() when it began waiting


_waiting: dict[str, list[_Waiter]] = {}     # game -> moves of this process waiting for the stream


# The two gauges are read by the metrics server's thread while the event loop changes `_waiting`: they
# read copies (`list()` of a dict's values or of a list is one step under the GIL), never the live ones.
def waiting_count() -> int:
    return sum(len(waiters) for waiters in list(_waiting.values()))


def oldest_wait(now: float | None = None) -> float:
    """Seconds the oldest waiting move has waited (0 when none waits)."""
    starts = [waiter.since for waiters in list(_waiting.values()) for waiter in list(waiters)]
    return max(0.0, (now if now is not None else time.monotonic()) - min(starts)) if starts else 0.0


RELAY_WAITING.set_function(waiting_count)
_APPENDS_APPENDED, _APPENDS_FOUND, _APPENDS_FAILED = (RELAY_APPENDS.labels(outcome)
                                                      for outcome in ("appended", "found", "failed"))
RELAY_OLDEST.set_function(oldest_wait)


def waits(wait_durable: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Decorates `Relay.wait_durable(game, seq, epoch)`: the move counts as waiting meanwhile (the
    relay's backlog: `trucker_relay_waiting_moves`, `trucker_relay_oldest_wait_seconds`)."""
    @functools.wraps(wait_durable)
    async def waiting(relay: Any, game: str, seq: int, *args: Any, **kwargs: Any) -> None:
        waiter = _Waiter(seq, time.monotonic())
        _waiting.setdefault(game, []).append(waiter)
        try:
            await wait_durable(relay, game, seq, *args, **kwargs)
        finally:
            waiters = _waiting.get(game, [])
            waiters.remove(waiter)
            if not waiters:
                _waiting.pop(game, None)
            RELAY_WAIT_SECONDS.observe(time.monotonic() - waiter.since)
    return waiting


def appends(append: Callable[..., Awaitable[tuple[list, bool]]]) -> Callable[..., Awaitable[tuple[list, bool]]]:
    """Decorates `Relay._append(stream, view)` (view: `durable` seq and the `pending` outbox entries)."""
    @functools.wraps(append)
    async def appending(relay: Any, stream: str, view: Any) -> tuple[list, bool]:
        first, count = view.durable + 1, len(view.pending)
        try:
            if not tracing.enabled():       # no span at all: even a no-op one costs on every append
                stored, fresh = await append(relay, stream, view)
            else:
                game = _game(stream)
                links = [trace.Link(span) for entry in view.pending
                         if (span := _moves.get((game, entry.get("command_id")))) is not None]
                with tracing.tracer().start_as_current_span(
                        "store.append", links=links,
                        attributes={"starbase.stream": stream, "starbase.first_seq": first,
                                    "starbase.events": count}):
                    stored, fresh = await append(relay, stream, view)
        except Exception:
            _APPENDS_FAILED.inc()
            raise
        (_APPENDS_APPENDED if fresh else _APPENDS_FOUND).inc()
        if fresh:
            RELAY_BATCH_EVENTS.observe(count)
        return stored, fresh
    return appending


def stamped(stream: str, events: list) -> list:
    """`events` (NewEvents about to be appended) with the trace and span ids of each move this process
    is handling on the move's first event (the one that keeps the move's id, `request_id`), as
    `tracing.stamp` does for a command."""
    if not tracing.enabled() or not _moves:
        return events
    game = _game(stream)
    out = []
    for event in events:
        span = _moves.get((game, event.meta.get(REQUEST_ID)))
        if span is not None and tracing.TRACE_ID not in event.meta:
            ids = {tracing.TRACE_ID: format(span.trace_id, "032x"), tracing.SPAN_ID: format(span.span_id, "016x")}
            event = event.model_copy(update={"meta": {**event.meta, **ids}})
        out.append(event)
    return out


# (game, move id `<player>:<client id>`) -> the span context of the move being handled, from the moment
# its id is read (before it is applied) until it is answered: whichever relay call of this process
# writes its events stamps them with it.
_moves: dict[tuple[str, str], Any] = {}
_handled: ContextVar[list | None] = ContextVar("trucker_move_keys", default=None)


def _game(stream: str) -> str:
    return stream.split(".", 1)[-1]


def move(handle: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Decorates `Connection._handle(raw)`: each socket message is a `trucker.move` trace of its own."""
    @functools.wraps(handle)
    async def traced(connection: Any, raw: Any) -> None:
        if not tracing.enabled():
            return await handle(connection, raw)
        keys: list = []
        token = _handled.set(keys)
        try:
            with tracing.new_trace("trucker.move", **{"starbase.game": connection.game,
                                                      "starbase.player": connection.viewer or ""}):
                return await handle(connection, raw)
        finally:
            _handled.reset(token)
            for key, span in keys:
                if _moves.get(key) is span:
                    del _moves[key]
    return traced


def noted(game: str, move_id: str, op: str) -> None:
    """The move's id and operation, once its message is read: on its span, and kept so that the relay
    stamps the move's first event with the span's ids."""
    keys = _handled.get()
    if keys is None or not tracing.enabled():
        return
    span = trace.get_current_span()
    span.set_attribute("starbase.op", op)
    span.set_attribute("starbase.move_id", move_id)
    key, context = (game, move_id), span.get_span_context()
    _moves[key] = context
    keys.append((key, context))
