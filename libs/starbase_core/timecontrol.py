"""A table's time controls: how long each decision may take, and the Fischer bank. Pure, no I/O.

Platform options (in `GameCreated.options`, never seen by engines):

- `decision_seconds`: a limit on each decision (0: none);
- `days_per_move`: the same in whole days, for correspondence play (0: none); a table takes one of the two;
- `bank_seconds` with `increment_seconds`: a Fischer time bank. Each seat starts with `bank_seconds`;
  the time a decision took (from the envelope that made it owed to the envelope that ended it, both by
  the store's server time) is taken from the seat's bank, then `increment_seconds` is added;
- `timeout_policy`: what the clock does when a decision runs out of time: `default_move` (the
  engine's default action, as the seat), `bot` (the seat is handed to a bot, which plays it from then
  on, and offered to substitutes; the game goes on) or `lose` (the seat loses on time: a resignation,
  with its outcome and ratings: `starbase_core.timeouts`).
- A paused clock (`starbase_core.pause`) runs nothing out.

A decision is due when the first of its limits runs out: the per-decision limit, or the seat's bank.
Everything is derived from the stream, so every reader (the clock's replicas, the lobby's views, the
notifier) and every restart gets the same banks and the same `due_at`.

Two readings of the options: `problems` is the strict check of a new table (bounds, combinations);
`TimeControl.of` reads whatever a stored stream holds without ever failing, clamping to `MAX_SECONDS`
(a stored `1e300` once overflowed `timedelta` on every tick and stopped the clock for every game).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

DECISION_SECONDS = "decision_seconds"
DAYS_PER_MOVE = "days_per_move"
BANK_SECONDS = "bank_seconds"
INCREMENT_SECONDS = "increment_seconds"
TIMEOUT_POLICY = "timeout_policy"
OPTIONS = frozenset({DECISION_SECONDS, DAYS_PER_MOVE, BANK_SECONDS, INCREMENT_SECONDS, TIMEOUT_POLICY})

DEFAULT_MOVE = "default_move"
BOT = "bot"
LOSE = "lose"
POLICIES = (DEFAULT_MOVE, BOT, LOSE)

DAY = 86400.0
MAX_SECONDS = 30 * DAY          # the longest limit or bank the clock keeps (and the lobby accepts)
# Bounds of a new table (the lobby's check); 0 switches a limit or the bank off.
BOUNDS = {
    DECISION_SECONDS: (5.0, MAX_SECONDS),
    DAYS_PER_MOVE: (1.0, 30.0),
    BANK_SECONDS: (10.0, MAX_SECONDS),
    INCREMENT_SECONDS: (1.0, DAY),
}


def read_seconds(value, scale: float = 1.0) -> float | None:
    """A stored option as seconds in (0, MAX_SECONDS], or None for off (0, negative, NaN, unreadable)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        seconds = float(value) * scale
    except OverflowError:           # an integer too large for a float: longer than any limit
        return MAX_SECONDS if value > 0 else None
    except (TypeError, ValueError):
        return None
    if seconds != seconds or seconds <= 0:
        return None
    return min(seconds, MAX_SECONDS)


def problems(options: dict) -> list[str]:
    """What is wrong with a new table's time controls (empty: nothing), in the API's words."""
    found = []
    for key, (low, high) in BOUNDS.items():
        if key not in options:
            continue
        value = options[key]
        whole = key == DAYS_PER_MOVE
        number = _finite_number(value)
        if not number or (whole and value != int(value)) or not (value == 0 or low <= value <= high):
            unit = "whole days" if whole else "seconds"
            found.append(f"{key} is 0 (off) or {low:g} to {high:g} {unit}, not {_shown(value)}")
    if _on(options, DECISION_SECONDS) and _on(options, DAYS_PER_MOVE):
        found.append(f"a table has one per-decision limit: {DECISION_SECONDS} or {DAYS_PER_MOVE}, not both")
    if _on(options, INCREMENT_SECONDS) and not _on(options, BANK_SECONDS):
        found.append(f"{INCREMENT_SECONDS} is added to a time bank: set {BANK_SECONDS} too")
    if TIMEOUT_POLICY in options and options[TIMEOUT_POLICY] not in POLICIES:
        found.append(f"{TIMEOUT_POLICY} is one of {', '.join(POLICIES)}, not {_shown(options[TIMEOUT_POLICY])}")
    return found


def _finite_number(value) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:           # an integer too large for a float (JSON allows any length)
        return False


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _on(options: dict, key: str) -> bool:
    value = options.get(key)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0


@dataclass(frozen=True)
class TimeControl:
    limit: float | None             # seconds per decision (None: no per-decision limit)
    bank: float | None              # each seat's starting bank (None: no bank)
    increment: float = 0.0          # added to the bank after each decision
    policy: str = DEFAULT_MOVE

    @classmethod
    def of(cls, options: dict, default_seconds: float = 0.0) -> TimeControl | None:
        """The controls a stored game holds (never fails); None when its decisions are not timed.
        `default_seconds` is the clock's service default for tables that set no limit and no bank."""
        options = options if isinstance(options, dict) else {}
        limits = [s for s in (read_seconds(options.get(DECISION_SECONDS)),
                              read_seconds(options.get(DAYS_PER_MOVE), DAY)) if s is not None]
        bank = read_seconds(options.get(BANK_SECONDS))
        if DECISION_SECONDS not in options and DAYS_PER_MOVE not in options and bank is None:
            limits = [s for s in (read_seconds(default_seconds),) if s is not None]
        limit = min(limits) if limits else None
        if limit is None and bank is None:
            return None
        increment = (read_seconds(options.get(INCREMENT_SECONDS)) or 0.0) if bank is not None else 0.0
        policy = options.get(TIMEOUT_POLICY)
        return cls(limit, bank, increment, policy if policy in POLICIES else DEFAULT_MOVE)

    def allowance(self, bank_left: float | None) -> float:
        """Seconds the decision at hand may take, given the seat's bank when it began."""
        candidates = [s for s in (self.limit, bank_left if self.bank is not None else None) if s is not None]
        return max(0.0, min(candidates)) if candidates else MAX_SECONDS

    def due_at(self, since: datetime, bank_left: float | None) -> datetime:
        return since + timedelta(seconds=self.allowance(bank_left))

    def after_decision(self, bank_left: float | None, took_seconds: float) -> float | None:
        """The seat's bank once a decision that took `took_seconds` has ended (None: no bank)."""
        if self.bank is None or bank_left is None:
            return None
        return min(MAX_SECONDS, max(0.0, bank_left - max(0.0, took_seconds)) + self.increment)

    def public(self) -> dict:
        return {"decision_seconds": self.limit, "bank_seconds": self.bank,
                "increment_seconds": self.increment, "timeout_policy": self.policy}
