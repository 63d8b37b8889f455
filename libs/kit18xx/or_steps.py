"""The steps of a corporation's operating turn, in order, declared once per game.

18xx games share the shape of an operating turn: a fixed sequence of steps (lay track, place a token,
run, buy trains, ...), each ended by passing or by its own action, the last one ending the turn.
`StepSequence` holds a game's sequence and answers the questions its rules ask about it, instead of
step names compared by hand in every module:

    OR_STEPS = StepSequence(("tiles", "token", "run", "buy"))
    OR_STEPS.after("tiles")                 -> "token"   (None after the last: the turn ends)
    OR_STEPS.before("token", "run")         -> True      (still time to run early)
    OR_STEPS.is_last("buy")                 -> True

Pure data with no game state: the step a turn is at stays in the game's own state (an event moves it).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepSequence:
    names: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.names or len(set(self.names)) != len(self.names):
            raise ValueError(f"an operating turn needs distinct steps, not {self.names!r}")

    @property
    def first(self) -> str:
        return self.names[0]

    def index(self, step: str) -> int:
        if step not in self.names:
            raise ValueError(f"{step!r} is not a step of this operating turn {self.names!r}")
        return self.names.index(step)

    def after(self, step: str) -> str | None:
        """The step that follows `step`, or None when `step` is the last (passing it ends the turn)."""
        at = self.index(step) + 1
        return self.names[at] if at < len(self.names) else None

    def before(self, step: str, other: str) -> bool:
        """Is `step` earlier in the turn than `other`?"""
        return self.index(step) < self.index(other)

    def is_last(self, step: str) -> bool:
        return self.index(step) == len(self.names) - 1
