"""Which decisions are due in which game: the clock's part of a fold of the game streams, with no I/O.

Feed it every envelope of `game.>` in order (`observe`); ask it which defaults are due (`due(now)`).
What a time-out does is the table's policy: `default_move`, the engine's default command; `bot` and
`lose`, the platform's `TimeOut` for a seat a person holds (`starbase_core.timeouts`; a seat a bot
already plays gets the default move whatever the policy).

Who owes a decision since when, and each seat's time bank, is `starbase_core.decisions` (shared with
the notifier and the lobby's views); the clock adds the defaults already tried. A game without time
controls (`starbase_core.timecontrol`) is not followed at all.
Every clock replica folding the same stream gets the same decisions, so the same command ids
(`clock:<since seq>:<player>`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

import structlog

from clock.decision import command_id
from starbase_core.decisions import DecisionBook, FollowedGame, Owed, game_of
from starbase_core.gamestream import GameRecord
from starbase_core.seats import is_bot
from starbase_core.timecontrol import TimeControl
from starbase_core.timeouts import TIMEOUT_POLICIES
from starbase_rules.contract import Game
from starbase_rules.registry import get_game

log = structlog.get_logger(__name__)

__all__ = ["Due", "GameClock", "Owed", "Tracker", "game_of"]


@dataclass(frozen=True)
class Due:
    """A default to apply: `command` (JSON) for `player`, under `command_id`."""

    game_id: str
    player: str
    since_seq: int
    command_id: str
    command: dict
    at_seq: int          # the stream position the default was chosen at


@dataclass
class GameClock(FollowedGame):
    settled: set[str] = field(default_factory=set)   # command ids already tried (applied or refused)

    @property
    def limit(self) -> float | None:
        return self.control.limit if self.control is not None else None


class Tracker(DecisionBook[GameClock]):
    def __init__(self, default_seconds: float, games: Callable[[str], Game] = get_game):
        super().__init__(games, default_seconds)

    @property
    def clocks(self) -> dict[str, GameClock]:
        return self.followed

    def admit(self, game_id: str, record: GameRecord) -> GameClock | None:
        timed = TimeControl.of(record.options, self.default_seconds) is not None
        return GameClock(record) if timed else None   # no clock: not folded at all

    def folded(self, game: GameClock) -> None:
        game.settled &= {command_id(owed.since_seq, owed.player) for owed in game.owed.values()}

    # ---- what is due ------------------------------------------------------------------------------

    def due(self, now: datetime) -> list[Due]:
        found = []
        for game_id, clock in self.clocks.items():
            try:
                found.extend(self._due_in(game_id, clock, now))
            except Exception as problem:   # one game's bad data must never stop the clock for the others
                log.error("clock_game_broken", game_id=game_id, problem=repr(problem))
        return found

    def _due_in(self, game_id: str, clock: GameClock, now: datetime) -> list[Due]:
        found = []
        for owed in clock.owed.values():
            due = clock.due_at(owed)
            if due is None or now < due:
                continue
            identity = command_id(owed.since_seq, owed.player)
            if identity in clock.settled:
                continue
            try:
                command = self._command_for(clock, owed.player)
            except Exception as problem:   # an engine bug must not stop the clock for every table
                log.error("clock_default_broken", game_id=game_id, player=owed.player, problem=repr(problem))
                command = None
            if command is None:   # the engine has no default for this decision: nothing to do
                clock.settled.add(identity)
                log.warning("clock_no_default", game_id=game_id, player=owed.player,
                            since_seq=owed.since_seq)
                continue
            found.append(Due(game_id, owed.player, owed.since_seq, identity, _as_json(command),
                             clock.record.last_seq))
        return found

    @staticmethod
    def _command_for(clock: GameClock, player: str):
        """What the time-out of `player` plays: the table's policy (see the module's docstring)."""
        record = clock.record
        held_by_person = not is_bot(record.seats.controllers.get(player))
        if clock.control is not None and clock.control.policy in TIMEOUT_POLICIES and held_by_person:
            return {"type": "TimeOut"}
        return record.engine.default_command(record.state, player)

    def still_due(self, due: Due) -> bool:
        """Nothing has landed in the game since `due` was chosen (so its default is still the one)."""
        clock = self.clocks.get(due.game_id)
        return (clock is not None and clock.record.last_seq == due.at_seq
                and due.command_id not in clock.settled)

    def settle(self, due: Due) -> None:
        """Never try this default again (it was applied, or refused)."""
        clock = self.clocks.get(due.game_id)
        if clock is not None:
            clock.settled.add(due.command_id)


def _as_json(command: Any) -> dict:
    return command.model_dump(mode="json") if hasattr(command, "model_dump") else dict(command)
