"""The clock's trace and lateness: hooks `DecisionClock.enforce` calls around a default.

A time-out is one trace: `clock.timeout` (a trace of its own, started when the clock applies a default),
the gRPC call to the adjudicator (its client interceptor carries the trace), the adjudicator's append,
whose first event keeps the trace's ids in its meta, and the lobby's push of those events.

Lateness is how long after its due time a default was applied (acknowledged by the adjudicator): the
tick interval, the follow's lag behind the store and the adjudicator's answer time add up in it.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from prometheus_client import Histogram

from starbase_core import tracing

LATENESS = Histogram("clock_lateness_seconds", "From a decision's due time to its default being applied",
                     buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300))


def timeout_span(due: Any) -> Any:
    """`with timeout_span(due):` around the submit of a default."""
    return tracing.new_trace("clock.timeout", **{"starbase.game": due.game_id, "starbase.player": due.player,
                                                 "starbase.command_id": due.command_id})


def due_time(tracker: Any, due: Any) -> datetime | None:
    """When the decision `due` defaults ran out (None: no longer owed as chosen, or untimed)."""
    game = tracker.clocks.get(due.game_id)
    owed = game.owed.get(due.player) if game is not None else None
    if owed is None or owed.since_seq != due.since_seq:
        return None
    return game.due_at(owed)


def applied(tracker: Any, due: Any, now: datetime) -> float | None:
    """Record how late the default of `due` was applied (call before the tracker folds its events);
    the lateness in seconds, None when its due time is unknown."""
    deadline = due_time(tracker, due)
    if deadline is None:
        return None
    late = max(0.0, (now - deadline).total_seconds())
    LATENESS.observe(late)
    return late
