"""The clock's trace and lateness: hooks `DecisionClock.enforce` calls around a default.

A time-out is one trace: `clock.timeout` (a trace of its own, started when the clock applies a default),
the gRPC call to the adjudicator (its client interceptor carries the trace), the adjudicator's append,
whose first event keeps the trace's ids in its meta, and the lobby's push of those events.

Lateness is how long after its due time a default was applied (acknowledged by the adjudicator): the
tick interval, the follow's lag behind the store and the adjudicator's answer time add up in it.
"""
from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime
from typing import Any, Callable, Iterator

from prometheus_client import Histogram

from starbase_core import tracing

LATENESS = Histogram("clock_lateness_seconds", "From a decision's due time to its default being applied",
                     buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300))


@contextmanager
def timeout(tracker: Any, due: Any, now: Callable[[], datetime]) -> Iterator[None]:
    """`with timeout(tracker, due, clock.now):` around the submit of the default of `due`: its span, and
    once the adjudicator has applied it (the block ends without an exception), how late it was. The due
    time is read first: by the time the answer comes, the clock's follow may have folded the default."""
    try:
        deadline = due_time(tracker, due)
    except Exception:   # a figure must never stop a default: no lateness for this one
        deadline = None
    with tracing.new_trace("clock.timeout", **{"starbase.game": due.game_id, "starbase.player": due.player,
                                               "starbase.command_id": due.command_id}) as span:
        yield
        if deadline is not None:
            late = max(0.0, (now() - deadline).total_seconds())
            LATENESS.observe(late)
            span.set_attribute("starbase.lateness_seconds", late)


def due_time(tracker: Any, due: Any) -> datetime | None:
    """When the decision `due` defaults ran out (None: no longer owed as chosen, or untimed)."""
    game = tracker.clocks.get(due.game_id)
    owed = game.owed.get(due.player) if game is not None else None
    if owed is None or owed.since_seq != due.since_seq:
        return None
    return game.due_at(owed)
