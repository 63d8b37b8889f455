"""The steps of a corporation's operating turn, in order, declared once per game.

18xx games share the shape of an operating turn: a fixed sequence of steps (lay track, place a token,
run, buy trains, ...), each ended by passing or by its own action, the last one ending the turn,
and commands that belong to some steps only. `StepSequence` holds a game's sequence and which
commands are bound to which steps, and answers the questions its rules ask about them, instead of
step names compared by hand in every module:

    OR_STEPS = StepSequence(("tiles", "token", "run", "buy"), only_in={"LayTile": ("tiles",)})
    OR_STEPS.after("tiles")                 -> "token"   (None after the last: the turn ends)
    OR_STEPS.before("token", "run")         -> True      (still time to run early)
    OR_STEPS.is_last("buy")                 -> True
    OR_STEPS.allows("run", "LayTile")       -> False     (a command not in `only_in`: every step)

The same declaration refuses a command out of its step (in the command's handler) and keeps it out of
the legal-action candidates of other steps, so the two cannot disagree.

Pure data with no game state: the step a turn is at stays in the game's own state (an event moves it).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class StepSequence:
    names: tuple[str, ...]
    only_in: dict[str, tuple[str, ...]] = field(default_factory=dict)   # command type -> its steps

    def __post_init__(self) -> None:
        if not self.names or len(set(self.names)) != len(self.names):
            raise ValueError(f"an operating turn needs distinct steps, not {self.names!r}")
        for command, steps in self.only_in.items():
            for step in steps:
                self.index(step)                  # a misspelt step is an error, not a command never allowed

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

    def allows(self, step: str, command_type: str) -> bool:
        """May `command_type` be sent during `step`? (Commands not bound to steps: always.)"""
        steps = self.only_in.get(command_type)
        return steps is None or step in steps
