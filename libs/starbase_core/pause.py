"""Pausing a game's clock by agreement: the platform's pause commands and their fold (`PauseLog`). Pure.

    {"type": "ProposePause"}   a seat held by a person asks to stop the clock: `PauseRequested {player,
                               awaiting}` (every other seat held by a person; bots agree), and at once
                               `ClockPaused` when nobody else is asked (a lone person against bots)
    {"type": "AgreePause"}     an asked seat agrees: `PauseAgreed`; the last one also `ClockPaused`
    {"type": "RefusePause"}    an asked seat refuses: `PauseRefused`, the request is over
    {"type": "ResumeClock"}    any seat held by a person starts the clock again: `ClockResumed`

Why resuming needs one person and pausing all of them: a pause suspends what everybody agreed to when
they sat down (the table's time controls), so it needs everybody; a resume only restores it, and
requiring everybody again would let one player hold a game hostage for ever. Play goes on while the
clock is paused (a move does not resume it): nobody runs out of time, no bank runs down
(`starbase_core.decisions` stops counting at `ClockPaused` and starts again at `ClockResumed`).

Abuse: each seat may ask for a pause `MAX_REQUESTS` times per game (`PAUSE_LIMIT` after that), besides
the lobby's rate limit on commands. A resignation or a substitute lapses a pending request (the people
asked are no longer the same). Pause commands are never the clock's, a bot's or the platform's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from starbase_core.envelope import Envelope
from starbase_rules.contract import Command, RuleViolation

PAUSE_REQUESTED = "PauseRequested"
PAUSE_AGREED = "PauseAgreed"
PAUSE_REFUSED = "PauseRefused"
CLOCK_PAUSED = "ClockPaused"
CLOCK_RESUMED = "ClockResumed"
PAUSE_TYPES = frozenset({PAUSE_REQUESTED, PAUSE_AGREED, PAUSE_REFUSED, CLOCK_PAUSED, CLOCK_RESUMED})
MAX_REQUESTS = 5            # pause requests per seat per game


class ProposePause(Command):
    type: Literal["ProposePause"] = "ProposePause"


class AgreePause(Command):
    type: Literal["AgreePause"] = "AgreePause"


class RefusePause(Command):
    type: Literal["RefusePause"] = "RefusePause"


class ResumeClock(Command):
    type: Literal["ResumeClock"] = "ResumeClock"


PAUSE_COMMANDS = (ProposePause, AgreePause, RefusePause, ResumeClock)
Events = list[tuple[str, dict]]


@dataclass
class PauseLog:
    paused: bool = False
    pending: dict | None = None                           # PauseRequested's data, `awaiting` kept current
    requests: dict[str, int] = field(default_factory=dict)   # pause requests made, per seat

    def observe(self, envelope: Envelope, seat_change: bool) -> None:
        """Fold one platform envelope (`seat_change`: a resignation or a substitute, which lapses a request)."""
        kind, data = envelope.type, envelope.data
        if seat_change:
            self.pending = None
        elif kind == PAUSE_REQUESTED:
            self.pending = {"player": data["player"], "awaiting": list(data["awaiting"])}
            self.requests[data["player"]] = self.requests.get(data["player"], 0) + 1
        elif kind == PAUSE_AGREED and self.pending is not None:
            self.pending["awaiting"] = [p for p in self.pending["awaiting"] if p != data["player"]]
        elif kind == PAUSE_REFUSED:
            self.pending = None
        elif kind == CLOCK_PAUSED:
            self.paused, self.pending = True, None
        elif kind == CLOCK_RESUMED:
            self.paused = False

    def public(self) -> dict:
        """What everyone at the table sees of it."""
        return {"paused": self.paused, "requested_by": self.pending["player"] if self.pending else None,
                "awaiting": list(self.pending["awaiting"]) if self.pending else []}

    def as_plain(self) -> dict:
        return {"paused": self.paused, "pending": None if self.pending is None else
                {"player": self.pending["player"], "awaiting": list(self.pending["awaiting"])},
                "requests": dict(self.requests)}

    @classmethod
    def from_plain(cls, data: dict) -> "PauseLog":
        pending = data["pending"]
        return cls(bool(data["paused"]), None if pending is None else
                   {"player": pending["player"], "awaiting": list(pending["awaiting"])}, dict(data["requests"]))


def decide_pause(log: PauseLog, command: Command, actor: str, humans: list[str]) -> Events:
    """The events of a pause command by seat `actor` (held by a person); `humans`: the seats people hold."""
    if isinstance(command, ProposePause):
        return _propose(log, actor, humans)
    if isinstance(command, ResumeClock):
        if not log.paused:
            raise RuleViolation("NOT_PAUSED", "the clock is running: there is nothing to resume")
        return [(CLOCK_RESUMED, {"player": actor})]
    pending = log.pending
    if pending is None:
        raise RuleViolation("NO_PAUSE_REQUEST", "no pause request is waiting for an answer")
    if actor not in pending["awaiting"]:
        raise RuleViolation("NOT_ASKED", f"the pause request does not wait for seat {actor}")
    if isinstance(command, RefusePause):
        return [(PAUSE_REFUSED, {"player": actor})]
    agreed: Events = [(PAUSE_AGREED, {"player": actor})]
    if pending["awaiting"] == [actor]:
        agreed.append((CLOCK_PAUSED, {"requested_by": pending["player"]}))
    return agreed


def _propose(log: PauseLog, actor: str, humans: list[str]) -> Events:
    if log.paused:
        raise RuleViolation("ALREADY_PAUSED", "the clock is paused already")
    if log.pending is not None:
        raise RuleViolation("PAUSE_PENDING", "a pause request is waiting for answers: agree to it or refuse it")
    if log.requests.get(actor, 0) >= MAX_REQUESTS:
        raise RuleViolation("PAUSE_LIMIT", f"a seat may ask for a pause {MAX_REQUESTS} times per game")
    awaiting = [seat for seat in humans if seat != actor]
    events: Events = [(PAUSE_REQUESTED, {"player": actor, "awaiting": awaiting})]
    if not awaiting:
        events.append((CLOCK_PAUSED, {"requested_by": actor}))
    return events
