"""Who owes a decision in which game, and since when: a fold of the game streams, with no I/O.

Shared by the decision clock (a default move when a player's time runs out) and the notifier ("your
turn"): both feed it every envelope of `game.>` in order (`DecisionBook.observe`) and read `owed`.

A player owes a decision from the envelope after which the engine first lists them in `to_act` (its seq
and server time) until they are no longer listed, or until they act themselves (an envelope of theirs
that changed the game starts a new decision; a `CommandHadNoEffect` does not, so stalling with no-op
commands keeps the old one). Every reader folding the same stream gets the same decisions.

A real-time phase (an engine's `realtime_service` is not None: Trucker's building) is timed by the
service that runs it, so nobody owes a decision then.

Only the platform's `GameCreated` at seq 1 starts a game, so a reader that never saw a game's start
leaves it alone (or replays it from seq 1 itself); a game is dropped once its `GameEnded` is folded.
Subclasses choose which games to follow and what else they keep per game (`admit`, `folded`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable, Generic, TypeVar

import structlog

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


@dataclass
class FollowedGame:
    """A game folded from its stream, with who owes a decision in it now."""

    record: GameRecord
    owed: dict[str, Owed] = field(default_factory=dict)


def parse_time(text: str) -> datetime:
    """An envelope's ISO 8601 UTC time ("…Z") as an aware datetime."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def game_of(stream: str) -> str | None:
    """The game id of a `game.<id>` stream; None for any other stream."""
    kind, _, game_id = stream.partition(".")
    return game_id if kind == "game" and game_id else None


def owed_after(record: GameRecord, envelope: Envelope, before: dict[str, Owed]) -> dict[str, Owed]:
    """Who owes a decision once `envelope` (already folded into `record`) is in, and since when."""
    engine, state = record.engine, record.state
    realtime = getattr(engine, "realtime_service", None)
    if realtime is not None and realtime(state) is not None:
        return {}
    acted = envelope.actor if envelope.type != NO_EFFECT else None
    moment = parse_time(envelope.time)
    after = {}
    for player in engine.to_act(state):
        held = before.get(player)
        if held is None or player == acted:
            held = Owed(player, envelope.seq, moment)
        after[player] = held
    return after


G = TypeVar("G", bound=FollowedGame)


class DecisionBook(Generic[G]):
    """The unfinished games a reader follows, each with its owed decisions."""

    def __init__(self, games: Callable[[str], Game] = get_game):
        self.games = games
        self.followed: dict[str, G] = {}

    def observe(self, envelope: Envelope) -> G | None:
        """Fold one envelope; the game it changed (also when it just ended, and is no longer followed),
        else None. Envelopes already folded are ignored, so overlapping reads are harmless."""
        game_id = game_of(envelope.stream)
        if game_id is None:
            return None
        game = self.followed.get(game_id)
        if game is None:
            if envelope.seq == 1 and envelope.type == GAME_CREATED and is_platform(envelope):
                return self._start(game_id, envelope)
            return None   # a game that ended, or one whose start this book never saw
        if envelope.seq <= game.record.last_seq:
            return None
        game.record.apply([envelope])
        if game.record.ended is not None:
            del self.followed[game_id]
            return game
        game.owed = owed_after(game.record, envelope, game.owed)
        self.folded(game)
        return game

    def expects(self, game_id: str) -> int | None:
        """The next seq this book needs for a game it follows (None: not followed)."""
        game = self.followed.get(game_id)
        return None if game is None else game.record.last_seq + 1

    def forget(self, game_id: str) -> None:
        self.followed.pop(game_id, None)

    def owed_count(self) -> int:
        return sum(len(game.owed) for game in self.followed.values())

    # ---- what a subclass decides ------------------------------------------------------------------

    def admit(self, game_id: str, record: GameRecord) -> G | None:
        """The per-game entry to follow this game with, or None to leave it alone."""
        return FollowedGame(record)  # type: ignore[return-value]

    def folded(self, game: G) -> None:
        """Called after each envelope that leaves the game unfinished (owed is already updated)."""

    def _start(self, game_id: str, envelope: Envelope) -> G | None:
        try:
            record = replay(game_id, [envelope], self.games)
        except Exception as problem:   # an engine this build does not know: nothing to follow
            log.warning("decisions_game_skipped", game_id=game_id, problem=str(problem))
            return None
        game = self.admit(game_id, record)
        if game is not None:
            self.followed[game_id] = game
        return game
