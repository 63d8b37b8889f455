"""Out-of-turn decisions that block play until answered, in the order they were queued.

18xx titles with mergers, consents or optional formations ask players outside the normal turn order:
"will you sell this ship to that corporation?", "do you merge your minor now?". A `DecisionQueue` keeps
them in the state: each decision is a list `[kind, decider, subject, terms]` (JSON-friendly, so events
can carry it), and `then` names what the game resumes once the queue empties. Only the decider of the
first decision may act (`require_decider`); the game itself decides what each kind means.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from starbase_rules.contract import RuleViolation


@dataclass
class DecisionQueue:
    waiting: list = field(default_factory=list)     # [kind, decider, subject, terms], first answered first
    then: str = ""                                   # what resumes when the queue empties

    def __bool__(self) -> bool:
        return bool(self.waiting)

    # -- questions ---------------------------------------------------------
    @property
    def first(self) -> list | None:
        return self.waiting[0] if self.waiting else None

    def decider(self) -> str | None:
        return self.waiting[0][1] if self.waiting else None

    def require_decider(self, actor: str) -> list:
        """The first decision, if `actor` is the one to answer it; a refusal otherwise."""
        if not self.waiting:
            raise RuleViolation("NO_DECISION", "no decision is waiting")
        if actor != self.decider():
            raise RuleViolation("NOT_YOUR_TURN", f"{self.decider()} must first decide {self.waiting[0][0]}")
        return self.waiting[0]

    # -- changes (for evolve) ------------------------------------------------
    def add(self, decisions: list, then: str = "") -> None:
        """Queue decisions after those already waiting; a non-empty `then` replaces the resume point."""
        self.waiting = self.waiting + [list(d) for d in decisions]
        self.then = then or self.then

    def resolve(self) -> list:
        """The first decision was answered: remove it; the resume point clears with the last one."""
        answered = self.waiting.pop(0)
        if not self.waiting:
            self.then = ""
        return answered
