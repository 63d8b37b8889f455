"""When a decision is due: pure functions of the envelope time, the table's limit and the present.

The clock never measures time itself here: callers pass `now` (the server clock), so these rules are
tested without waiting.
"""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from starbase_core.decisions import parse_time   # shared with the notifier: one reading of an envelope time
from starbase_core.gamestream import DECISION_SECONDS
from starbase_core.timecontrol import MAX_SECONDS, read_seconds

__all__ = ["command_id", "decision_limit", "due_at", "is_due", "parse_time"]

OPTION = DECISION_SECONDS   # a platform option: GameCreated records it, engines never see it
# The longest limit the clock keeps. The lobby refuses tables past 30 days, but streams written before
# it did (or by another client of the adjudicator) may hold anything: `1e300` seconds overflowed
# `timedelta` on every tick and stopped the clock for every game. A longer stored limit counts as this.
MAX_LIMIT_SECONDS = MAX_SECONDS


def decision_limit(options: dict, default_seconds: float) -> float | None:
    """The table's limit in seconds, or None when the table has no clock.

    The table option wins over the service default; 0 (or a negative or unreadable value) disables it.
    """
    value = options.get(OPTION, default_seconds) if isinstance(options, dict) else default_seconds
    return read_seconds(value)


def due_at(owed_since: datetime, limit_seconds: float | None) -> datetime | None:
    """When a decision owed since `owed_since` runs out of time; None when there is no limit."""
    if limit_seconds is None:
        return None
    try:
        return owed_since + timedelta(seconds=min(limit_seconds, MAX_LIMIT_SECONDS))
    except OverflowError:           # past year 9999: never due
        return None


def is_due(owed_since: datetime, limit_seconds: float | None, now: datetime) -> bool:
    deadline = due_at(owed_since, limit_seconds)
    return deadline is not None and now >= deadline


def command_id(since_seq: int, player: str) -> str:
    """The default's command id: one per owed decision, the same in every clock replica.

    `since_seq` is the envelope after which the player began to owe the decision; every replica that
    has read that far derives the same id, so the store applies the default at most once.
    """
    candidate = f"clock:{since_seq}:{player}"
    if len(candidate) <= 200 and all("!" <= ch <= "~" for ch in candidate):
        return candidate
    # Command ids travel in NATS headers (printable ASCII, no spaces): a name that is not one is hashed.
    return f"clock:{since_seq}:h{hashlib.sha256(player.encode()).hexdigest()[:24]}"
