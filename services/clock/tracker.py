"""Who owes a decision in which game, and since when: a fold of the game streams, with no I/O.

Feed it every envelope of `game.>` in order (`observe`); ask it which defaults are due (`due(now)`).

A player owes a decision from the envelope after which the engine first lists them in `to_act`
(its seq and server time) until they are no longer listed, or until they act themselves (an envelope of
theirs that changed the game starts a new decision). Every clock replica folding the same stream gets
the same decisions, so the same command ids (`clock:<since seq>:<player>`).

A real-time phase (an engine's `realtime_service` is not None: Trucker's building) is timed by the
service that runs it, so nobody owes the clock anything then.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

import structlog

from clock.decision import command_id, decision_limit, is_due, parse_time
from starbase_core.envelope import Envelope
from starbase_core.gamestream import GAME_CREATED, NO_EFFECT, GameRecord, is_platform, replay
from starbase_rules.contract import Game
from starbase_rules.registry import get_game

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class Owed:
    player: str
    since_seq: int
    since: datetime


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
class GameClock:
    record: GameRecord
    limit: float
    owed: dict[str, Owed] = field(default_factory=dict)
    settled: set[str] = field(default_factory=set)   # command ids already tried (applied or refused)


class Tracker:
    def __init__(self, default_seconds: float, games: Callable[[str], Game] = get_game):
        self.default_seconds = default_seconds
        self.games = games
        self.clocks: dict[str, GameClock] = {}

    # ---- folding ----------------------------------------------------------------------------------

    def observe(self, envelope: Envelope) -> None:
        """Fold one envelope. Envelopes already seen are ignored, so overlapping reads are harmless."""
        game_id = game_of(envelope.stream)
        if game_id is None:
            return
        clock = self.clocks.get(game_id)
        if clock is None:
            if envelope.seq == 1 and envelope.type == GAME_CREATED and is_platform(envelope):
                self._start(game_id, envelope)
            return   # a game that ended, or one whose start this tracker never saw
        if envelope.seq <= clock.record.last_seq:
            return
        clock.record.apply([envelope])
        if clock.record.ended is not None:
            del self.clocks[game_id]
            return
        self._update_owed(clock, envelope)

    def expects(self, game_id: str) -> int | None:
        """The next seq this tracker needs for a game it follows (None: not followed)."""
        clock = self.clocks.get(game_id)
        return None if clock is None else clock.record.last_seq + 1

    def forget(self, game_id: str) -> None:
        self.clocks.pop(game_id, None)

    def _start(self, game_id: str, envelope: Envelope) -> None:
        try:
            record = replay(game_id, [envelope], self.games)
        except Exception as problem:   # an engine this build does not know: nothing to time
            log.warning("clock_game_skipped", game_id=game_id, problem=str(problem))
            return
        limit = decision_limit(record.options, self.default_seconds)
        if limit is not None:   # a table without a clock is not folded at all
            self.clocks[game_id] = GameClock(record, limit)

    @staticmethod
    def _update_owed(clock: GameClock, envelope: Envelope) -> None:
        engine, state = clock.record.engine, clock.record.state
        realtime = getattr(engine, "realtime_service", None)
        if realtime is not None and realtime(state) is not None:
            clock.owed.clear()
            return
        owing = engine.to_act(state)
        acted = envelope.actor if envelope.type != NO_EFFECT else None
        moment = parse_time(envelope.time)
        fresh = {}
        for player in owing:
            held = clock.owed.get(player)
            if held is None or player == acted:
                held = Owed(player, envelope.seq, moment)
            fresh[player] = held
        clock.owed = fresh
        clock.settled &= {command_id(owed.since_seq, owed.player) for owed in fresh.values()}

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
            if not is_due(owed.since, clock.limit, now):
                continue
            identity = command_id(owed.since_seq, owed.player)
            if identity in clock.settled:
                continue
            try:
                command = clock.record.engine.default_command(clock.record.state, owed.player)
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

    def owed_count(self) -> int:
        return sum(len(clock.owed) for clock in self.clocks.values())


def game_of(stream: str) -> str | None:
    kind, _, game_id = stream.partition(".")
    return game_id if kind == "game" and game_id else None


def _as_json(command: Any) -> dict:
    return command.model_dump(mode="json") if hasattr(command, "model_dump") else dict(command)
